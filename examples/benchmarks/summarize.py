#!/usr/bin/env python3
"""Markdown summary of run_bench.py CSV files: one row per system with bin, the best
stock setting on one thread (bin or any multi variant), hgrid (the default), its ratio
to the monodisperse bin build of the same run and its speed-up over the best stock
setting; with the OPENMP package, bin and hgrid on 2 threads and hgrid's speed-up
from 1 to 2 threads; the whole step (Loop per step) of bin, the best stock setting
and hgrid; hgrid's ghost communication per step relative to the monodisperse
system's; memory per rank (LAMMPS' figure), hgrid's memory relative to the
monodisperse run's (LAMMPS' figure, and the peak resident memory of the process);
ghost atoms per rank.

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
    print("| d | N | ν | α | ω | bin | best stock | hgrid | hgrid / mono bin "
          "| best stock / hgrid | 2 threads: bin / hgrid (hgrid 1→2) "
          "| ms/step bin / best / hgrid | hgrid Comm / mono "
          "| MB bin / best / hgrid | hgrid MB / mono (peak RSS) | ghosts bin / best / hgrid |")
    print("|" + "---|" * 16)
    for key, styles in systems.items():
        ok = {s: r for s, r in styles.items() if r["status"] == "ok"}
        stock = {s: num(r, "ms_per_build") for s, r in ok.items()
                 if not s.startswith("hgrid") and "omp" not in s}
        best = min(stock, key=stock.get) if stock else None
        h = ok.get("hgrid")
        fastest = num(h, "ms_per_build") if h else None

        def cell(style, field, fmt="%.4g"):
            r = ok.get(style) if style else None
            v = num(r, field) if r else None
            if v is not None:
                return fmt % v
            # a run that failed shows why; a field a run does not record (the peak
            # memory of a multi-rank run) shows "-"
            return "-" if r else styles.get(style, {}).get("status", "-")[:24]

        one, two = num(ok.get("hgrid omp 1"), "ms_per_build"), num(ok.get("hgrid omp 2"),
                                                                   "ms_per_build")
        print("| " + " | ".join(list(key) + [
            cell("bin", "ms_per_build"),
            "%s (%s)" % (cell(best, "ms_per_build"), best) if best else "-",
            cell("hgrid", "ms_per_build"), cell("hgrid", "vs_mono_bin", "%.2f"),
            "%.1f×" % (stock[best] / fastest) if best and fastest else "-",
            "%s / %s (%s)" % (cell("bin omp 2", "ms_per_build"), cell("hgrid omp 2", "ms_per_build"),
                              "%.2f×" % (one / two) if one and two else "-"),
            " / ".join(cell(s, "ms_per_step") for s in ("bin", best, "hgrid")),
            cell("hgrid", "comm_vs_mono", "%.2f"),
            " / ".join(cell(s, "mem_mb") for s in ("bin", best, "hgrid")),
            "%s (%s)" % (cell("hgrid", "mem_vs_mono", "%.2f"), cell("hgrid", "rss_vs_mono", "%.2f")),
            " / ".join(cell(s, "ghosts_per_rank", "%.0f") for s in ("bin", best, "hgrid")),
        ]) + " |")

if __name__ == "__main__":
    for p in sys.argv[1:]:
        print("\n%s\n" % p)
        summarize(p)
