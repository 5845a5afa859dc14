#!/usr/bin/env python3
"""Run one LAMMPS input under several neighbor styles and print a comparison table.

usage: compare_styles.py --lmp PATH/lmp --input in.FILE [--styles bin,multi,hgrid,hgrid+omp2]
                         [--np N] [--var NAME VALUE ...]
The input must select its neighbor style from the index variable 'style'; a style
written NAME+ompT runs NAME with the OPENMP package on T threads per rank
(-sf omp -pk omp T).  Reported per style: neighbor time (total and per build), pair
time, loop time (total and per step), number of neighbor pairs, list builds, the
per-rank memory LAMMPS reports, and the Neigh and Loop times relative to bin's and
the Loop time relative to multi's.
"""
import argparse
import os
import re
import subprocess
import sys


def parse_log(text):
    """Totals over all runs of a log: times, builds, re-levels; last pair count; peak memory."""
    def column(pattern, cast=float):
        return [cast(v) for v in re.findall(pattern, text, re.M)]
    pairs = column(r"^Total # of neighbors = (\d+)", int)
    memory = column(r"^Per MPI rank memory allocation \(min/avg/max\) = \S+ \| (\S+)")
    return {
        "neigh": sum(column(r"^Neigh\s*\|\s*\S+\s*\|\s*(\S+)")),
        "pair": sum(column(r"^Pair\s*\|\s*\S+\s*\|\s*(\S+)")),
        "loop": sum(column(r"^Loop time of (\S+)")),
        "steps": sum(column(r"^Loop time of \S+ on \d+ procs for (\d+) steps", int)),
        "pairs": pairs[-1] if pairs else None,
        "builds": sum(column(r"^Neighbor list builds = (\d+)", int)),
        "memory": max(memory) if memory else 0.0,
        "relevels": len(re.findall(r"^hgrid/tune: step \d+ re-level", text, re.M)),
    }


def run(args, label):
    style, _, threads = label.partition("+omp")
    log = os.path.join(args.workdir, "log.%s" % label.replace("+", "_"))
    cmd = [args.lmp, "-in", os.path.abspath(args.input), "-var", "style", style, "-log", log,
           "-screen", "none"]
    if threads:
        cmd += ["-sf", "omp", "-pk", "omp", threads]
    for name, value in args.var:
        cmd += ["-var", name, value]
    if args.np > 1:
        cmd = ["mpirun", "-np", str(args.np), "--oversubscribe"] + \
              (["--allow-run-as-root"] if os.geteuid() == 0 else []) + cmd
    done = subprocess.run(cmd, cwd=os.path.dirname(os.path.abspath(args.input)))
    text = open(log).read() if os.path.exists(log) else ""
    if done.returncode != 0:
        err = [l for l in text.splitlines() if l.startswith("ERROR")]
        return {"error": err[0] if err else "exit code %d" % done.returncode}
    return parse_log(text)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lmp", required=True)
    p.add_argument("--input", required=True)
    p.add_argument("--styles", default="bin,multi,hgrid,hgrid+omp2")
    p.add_argument("--np", type=int, default=1)
    p.add_argument("--var", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"))
    p.add_argument("--workdir", default=".")
    p.add_argument("--png", help="bar chart of Neigh/Pair/other time per style (needs matplotlib)")
    p.add_argument("--same-pairs", action="store_true",
                   help="fail if the styles end with different numbers of pairs (static systems)")
    args = p.parse_args()
    args.lmp = os.path.abspath(args.lmp)
    args.workdir = os.path.abspath(args.workdir)

    results = {s: run(args, s) for s in args.styles.split(",")}
    line = "%-10s %9s %8s %8s %8s %8s %8s %6s %7s %7s %10s %10s %10s"
    header = line % ("style", "Neigh [s]", "ms/build", "Pair [s]", "Loop [s]", "ms/step",
                     "pairs", "builds", "MB/rank", "relevel", "Neigh: bin", "Loop: bin",
                     "Loop: multi")
    print(header)
    print("-" * len(header))

    def ratio(label, key, value):
        ref = results.get(label, {}).get(key)
        return "%.1fx" % (ref / value) if ref and value else "-"

    ok = True
    for style, r in results.items():
        if "error" in r or not r.get("builds"):
            print("%-10s failed: %s" % (style, r.get("error", "no timing in log")))
            ok = False
            continue
        print(line % (style, "%.3f" % r["neigh"], "%.2f" % (1000.0 * r["neigh"] / r["builds"]),
                      "%.3f" % r["pair"], "%.3f" % r["loop"],
                      "%.2f" % (1000.0 * r["loop"] / r["steps"]) if r["steps"] else "-",
                      r["pairs"], r["builds"], "%.2f" % r["memory"], r["relevels"],
                      ratio("bin", "neigh", r["neigh"]), ratio("bin", "loop", r["loop"]),
                      ratio("multi", "loop", r["loop"])))
    pairs = {r["pairs"] for r in results.values() if r.get("pairs") is not None}
    if args.same_pairs and len(pairs) > 1:
        print("ERROR: the styles found different numbers of neighbor pairs: %s" % sorted(pairs))
        ok = False
    if args.png:
        plot(results, args.png, os.path.basename(args.input))
    return 0 if ok else 1


def plot(results, png, title):
    try:
        import matplotlib
    except ImportError:
        print("no plot: matplotlib is missing (Debian: python3-matplotlib, run with /usr/bin/python3)")
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    styles = [s for s, r in results.items() if r.get("builds")]
    neigh = [results[s]["neigh"] for s in styles]
    pair = [results[s]["pair"] for s in styles]
    other = [results[s]["loop"] - n - p for s, n, p in zip(styles, neigh, pair)]
    fig, ax = plt.subplots(figsize=(5, 3.6))
    ax.bar(styles, neigh, label="Neigh")
    ax.bar(styles, pair, bottom=neigh, label="Pair")
    ax.bar(styles, other, bottom=[n + p for n, p in zip(neigh, pair)], label="other")
    ax.set_ylabel("wall time [s]")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    print("wrote %s" % png)


if __name__ == "__main__":
    sys.exit(main())
