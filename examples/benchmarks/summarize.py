#!/usr/bin/env python3
"""Markdown summary of run_bench.py CSV files: one row per system with bin, the best
stock setting (bin or any multi variant), hgrid (size-dependent ghost cutoffs, the default)
and hgrid with one ghost cutoff (comm_modify mode single):
ms per build, ratio to the monodisperse bin build of the same run, speed-up over the
best stock setting, memory and ghost atoms per rank.

usage: summarize.py bench.csv [more.csv ...]
"""
import csv
import sys
from collections import OrderedDict


def num(row, key):
    try:
        return float(row[key])
    except (KeyError, TypeError, ValueError):
        return None


def summarize(path):
    systems = OrderedDict()
    for row in csv.DictReader(open(path)):
        key = tuple(row[k] for k in ("dim", "n", "nu", "alpha", "omega"))
        systems.setdefault(key, {})[row["style"]] = row
    print("| d | N | ν | α | ω | bin | best stock | hgrid | hgrid comm single | hgrid / mono bin "
          "| best stock / hgrid | MB bin / best stock / hgrid / comm single "
          "| ghosts bin / best stock / hgrid |")
    print("|" + "---|" * 13)
    for key, styles in systems.items():
        ok = {s: r for s, r in styles.items() if r["status"] == "ok"}
        stock = {s: num(r, "ms_per_build") for s, r in ok.items() if not s.startswith("hgrid")}
        best = min(stock, key=stock.get) if stock else None
        h, hc = ok.get("hgrid"), ok.get("hgrid comm single")
        fastest = num(h, "ms_per_build") if h else None

        def cell(style, field, fmt="%.4g"):
            r = ok.get(style) if style else None
            v = num(r, field) if r else None
            return fmt % v if v is not None else styles.get(style, {}).get("status", "-")[:24]

        def ratio(r):
            return "%.2f" % num(r, "vs_mono_bin") if r and num(r, "vs_mono_bin") else "-"
        print("| " + " | ".join(list(key) + [
            cell("bin", "ms_per_build"),
            "%s (%s)" % (cell(best, "ms_per_build"), best) if best else "-",
            cell("hgrid", "ms_per_build"), cell("hgrid comm single", "ms_per_build"),
            "%s / %s" % (ratio(h), ratio(hc)),
            "%.1f×" % (stock[best] / fastest) if best and fastest else "-",
            " / ".join(cell(s, "mem_mb") for s in ("bin", best, "hgrid", "hgrid comm single")),
            " / ".join(cell(s, "ghosts_per_rank", "%.0f") for s in ("bin", best, "hgrid")),
        ]) + " |")


if __name__ == "__main__":
    for p in sys.argv[1:]:
        print("\n%s\n" % p)
        summarize(p)
