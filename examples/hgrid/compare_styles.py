#!/usr/bin/env python3
"""Run one LAMMPS input under several neighbor styles and print a comparison table.

usage: compare_styles.py --lmp PATH/lmp --input in.FILE [--styles bin,multi,hgrid]
                         [--np N] [--var NAME VALUE ...]
The input must select its neighbor style from the index variable 'style'.
Reported per style: neighbor time (total and per build), pair time, loop time,
number of neighbor pairs, list builds and the per-rank memory LAMMPS reports.
"""
import argparse
import os
import re
import subprocess
import sys


def parse_log(text):
    def grab(pattern, cast=float, default=None):
        m = re.search(pattern, text, re.M)
        return cast(m.group(1)) if m else default
    return {
        "neigh": grab(r"^Neigh\s*\|\s*\S+\s*\|\s*(\S+)"),
        "pair": grab(r"^Pair\s*\|\s*\S+\s*\|\s*(\S+)"),
        "loop": grab(r"^Loop time of (\S+)"),
        "pairs": grab(r"^Total # of neighbors = (\d+)", int),
        "builds": grab(r"^Neighbor list builds = (\d+)", int),
        "memory": grab(r"^Per MPI rank memory allocation \(min/avg/max\) = \S+ \| (\S+)"),
    }


def run(args, style):
    log = os.path.join(args.workdir, "log.%s" % style)
    cmd = [args.lmp, "-in", args.input, "-var", "style", style, "-log", log, "-screen", "none"]
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
    p.add_argument("--styles", default="bin,multi,hgrid")
    p.add_argument("--np", type=int, default=1)
    p.add_argument("--var", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"))
    p.add_argument("--workdir", default=".")
    args = p.parse_args()
    args.lmp = os.path.abspath(args.lmp)
    args.workdir = os.path.abspath(args.workdir)

    results = {s: run(args, s) for s in args.styles.split(",")}
    header = "%-7s %10s %12s %9s %9s %12s %7s %12s %9s" % (
        "style", "Neigh [s]", "ms/build", "Pair [s]", "Loop [s]", "pairs", "builds",
        "mem [MB/rank]", "vs bin")
    print(header)
    print("-" * len(header))
    base = results.get("bin", {}).get("neigh")
    ok = True
    for style, r in results.items():
        if "error" in r or r.get("neigh") is None:
            print("%-7s failed: %s" % (style, r.get("error", "no timing in log")))
            ok = False
            continue
        per_build = 1000.0 * r["neigh"] / max(r["builds"] or 1, 1)
        speedup = "%.1fx" % (base / r["neigh"]) if base and r["neigh"] else "-"
        print("%-7s %10.3f %12.2f %9.3f %9.3f %12d %7d %12.2f %9s" % (
            style, r["neigh"], per_build, r["pair"], r["loop"], r["pairs"], r["builds"],
            r["memory"], speedup))
    pairs = {r["pairs"] for r in results.values() if "pairs" in r and r["pairs"] is not None}
    if len(pairs) > 1:
        print("WARNING: the styles found different numbers of neighbor pairs: %s" % sorted(pairs))
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
