#!/usr/bin/env python3
"""Plot the predicted work per particle T/N versus the number of levels L for the
four cell-size methods (the paper's Fig. 9) from hgrid_advisor's CSV.
usage: plot_cost_vs_levels.py TABLE.csv OUT.png [TITLE]"""
import csv
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

rows = list(csv.DictReader(open(sys.argv[1])))
levels = [int(r["levels"]) for r in rows]
fig, ax = plt.subplots(figsize=(6, 4.2))
for method, style in (("linear", "o-"), ("exponential", "s-"), ("constant", "^-"), ("optimal", "d-")):
    ax.plot(levels, [float(r[method]) for r in rows], style, ms=3, label=method)
ax.set_yscale("log")
ax.set_xlabel("number of levels L")
ax.set_ylabel("predicted work per particle T/N")
ax.set_title(sys.argv[3] if len(sys.argv) > 3 else "")
ax.grid(True, which="both", alpha=0.3)
ax.legend()
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=120)
