"""The README table of hgrid_methods_bench's CSV: one row per system, microseconds per
particle of each method (distance checks per particle in parentheses), and hgrid's
time over the fastest other method's.

usage: python3 methods_table.py RESULTS.csv

The last line counts the systems where hgrid is more than 5 % slower than the fastest
other method (issue 31's goal: none)."""

import csv
import sys

METHODS = ["hgrid", "linked_cell", "sorted_distance", "mr", "mmr", "all_pairs"]
DISTRIBUTIONS = {"powerlaw": "power law {alpha}", "uniform": "uniform",
                 "bidisperse": "bidisperse", "sieve": "sieve"}
TOLERANCE = 1.05


def systems(path):
    """The systems of the CSV in file order, each a dict method -> row."""
    order, rows = [], {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = tuple(r[k] for k in ("dim", "distribution", "alpha", "omega", "nu", "packing",
                                       "n"))
            if key not in rows:
                order.append(key)
                rows[key] = {}
            rows[key][r["method"]] = r
    return [rows[k] for k in order]


def cell(r):
    if r is None or r["status"] != "ok":
        return "skip"
    return f"{float(r['us_per_particle']):.3g} ({float(r['checks_per_particle']):.3g})"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    print("| d | distribution | omega | nu | packing | N | contacts | "
          + " | ".join(METHODS) + " | hgrid / best other |")
    print("|" + "---|" * (8 + len(METHODS)))
    behind = worst = 0
    all_systems = systems(sys.argv[1])
    for s in all_systems:
        h = s["hgrid"]
        others = [float(r["us_per_particle"]) for m, r in s.items()
                  if m != "hgrid" and r["status"] == "ok"]
        ratio = float(h["us_per_particle"]) / min(others)
        worst = max(worst, ratio)
        behind += ratio > TOLERANCE
        dist = DISTRIBUTIONS.get(h["distribution"], h["distribution"]).format(
            alpha=f"{float(h['alpha']):g}")
        print(f"| {h['dim']} | {dist} | {float(h['omega']):g} | {float(h['nu']):g} | "
              f"{h['packing']} | {float(h['n']):.0e}".replace("e+0", "e") + f" | {h['contacts']} | "
              + " | ".join(cell(s.get(m)) for m in METHODS) + f" | {ratio:.2f} |")
    print(f"\n{len(all_systems)} systems; hgrid more than {TOLERANCE - 1:.0%} slower than the "
          f"fastest other method on {behind}; largest ratio {worst:.2f}.")


if __name__ == "__main__":
    main()
