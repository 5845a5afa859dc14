"""Plot hgrid_methods_bench's CSV: time per particle of each contact-detection method
versus the size ratio omega, the number of particles N and the volume fraction nu.

usage: /usr/bin/python3 plot_methods.py RESULTS.csv OUT.png

Each panel takes the rows of one series of the sweep (3d, power law alpha = -3,
random packing), one line per method:
  vs omega  N = 2e5 and N = 2e4 (dashed), nu = 0.3
  vs N      omega = 2 and omega = 10 (dashed), nu = 0.3
  vs nu     omega = 2, N = 1e5
Rows of other systems are ignored; a single-system CSV gives single points."""

import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

METHODS = ["hgrid", "linked_cell", "sorted_distance", "mr", "mmr", "all_pairs"]
STYLE = {"hgrid": "o-", "linked_cell": "s-", "sorted_distance": "^-", "mr": "v-",
         "mmr": "D-", "all_pairs": "x:"}


def rows_of(path):
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if r["status"] == "ok"]


def base(r):
    return (r["dim"] == "3" and r["distribution"] == "powerlaw" and float(r["alpha"]) == -3
            and r["packing"] == "random")


def series(rows, method, keep, x):
    pts = sorted((float(r[x]), float(r["us_per_particle"])) for r in rows
                 if r["method"] == method and keep(r))
    return [p[0] for p in pts], [p[1] for p in pts]


def panel(ax, rows, keep, x, xlabel, title, dashed=None):
    for m in METHODS:
        color = None
        xs, ys = series(rows, m, keep, x)
        if xs:
            color = ax.plot(xs, ys, STYLE[m], label=m)[0].get_color()
        if dashed:
            xs, ys = series(rows, m, dashed, x)
            if xs:
                ax.plot(xs, ys, STYLE[m].replace("-", "--"), color=color, alpha=0.6,
                        label=None if color else m)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("time per particle [us] (build + search)")
    ax.set_title(title, fontsize=9)
    ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = rows_of(sys.argv[1])
    fig, axes = plt.subplots(1, 3, figsize=(16, 5))
    panel(axes[0], rows,
          lambda r: base(r) and r["n"] == "200000" and float(r["nu"]) == 0.3,
          "omega", "size ratio omega = r_max / r_min",
          "3d, alpha = -3, nu = 0.3: N = 2e5 (solid), N = 2e4 (dashed)",
          dashed=lambda r: base(r) and r["n"] == "20000" and float(r["nu"]) == 0.3)
    axes[0].set_xscale("log")
    panel(axes[1], rows,
          lambda r: base(r) and float(r["omega"]) == 2 and float(r["nu"]) == 0.3,
          "n", "number of particles N",
          "3d, alpha = -3, nu = 0.3: omega = 2 (solid), omega = 10 (dashed)",
          dashed=lambda r: base(r) and float(r["omega"]) == 10 and float(r["nu"]) == 0.3)
    axes[1].set_xscale("log")
    panel(axes[2], rows,
          lambda r: base(r) and float(r["omega"]) == 2 and r["n"] == "100000",
          "nu", "volume fraction nu", "3d, alpha = -3, omega = 2, N = 1e5")
    axes[0].legend(fontsize=8)
    fig.suptitle("Contact detection on the same particles (hgrid_methods_bench, one core)")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
