#!/usr/bin/env python3
"""Contact-history remap benchmark (issue 41): per step, Neigh and Modify of
in.intruders with and without contact history; the remap is Modify with history
minus Modify without (the history fix is the only fix), compared with the build.

  python3 examples/benchmarks/history/run_history.py --lmp build/lmp \\
      [--lmp-before OLD_LMP] [--styles hgrid,bin] [--threads 1,2] [--kokkos] [--csv F]

Each configuration runs --repeat times (3) and keeps its fastest Neigh and Modify.
--kokkos runs under -k on t T -sf kk -pk kokkos neigh half newton off (OpenMP backend).
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def timing(log, section):
    """Average seconds of one section of LAMMPS' MPI task timing breakdown."""
    m = re.search(r"^%s\s*\|\s*([0-9.eE+-]+)\s*\|\s*([0-9.eE+-]+)" % section, log, re.M)
    return float(m.group(2)) if m else float("nan")


def run(lmp, style, history, threads, kokkos, args):
    cmd = [lmp, "-in", os.path.join(HERE, "in.intruders"), "-var", "style", style,
           "-var", "history", history, "-var", "n", str(args.n), "-var", "k", str(args.k),
           "-var", "D", str(args.D), "-var", "steps", str(args.steps)]
    if kokkos:
        cmd += ["-k", "on", "t", str(threads), "-sf", "kk", "-pk", "kokkos", "neigh", "half",
                "newton", "off"]
    elif threads > 1:
        cmd += ["-sf", "omp", "-pk", "omp", str(threads)]
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OMP_PROC_BIND="false")
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run(cmd + ["-log", os.path.join(tmp, "log")], cwd=tmp, env=env,
                           capture_output=True, text=True, timeout=args.timeout)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stdout[-2000:] + p.stderr[-2000:]))
    out = p.stdout
    return timing(out, "Neigh") / args.steps * 1e3, timing(out, "Modify") / args.steps * 1e3


def best(lmp, style, history, threads, kokkos, args):
    runs = [run(lmp, style, history, threads, kokkos, args) for _ in range(args.repeat)]
    return min(r[0] for r in runs), min(r[1] for r in runs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lmp", required=True)
    ap.add_argument("--lmp-before", help="a second lmp (the code before a change), run side by side")
    ap.add_argument("--styles", default="hgrid,bin")
    ap.add_argument("--threads", default="1")
    ap.add_argument("--kokkos", action="store_true")
    ap.add_argument("--n", type=int, default=50000)
    ap.add_argument("--k", type=int, default=4)
    ap.add_argument("--D", type=float, default=24)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=1800)
    ap.add_argument("--csv")
    args = ap.parse_args()
    binaries = [("after", args.lmp)] + ([("before", args.lmp_before)] if args.lmp_before else [])
    rows = []
    fmt = "%-7s %-6s %-7s %3s %10s %12s %12s %10s %11s"
    print("n %d small spheres, %d intruders of diameter %g, ms per step (fastest of %d)"
          % (args.n, args.k, args.D, args.repeat))
    print(fmt % ("binary", "style", "backend", "thr", "Neigh", "Modify", "Modify", "remap",
                 "remap/"))
    print(fmt % ("", "", "", "", "", "no history", "history", "", "Neigh"))
    for threads in [int(t) for t in args.threads.split(",")]:
        for style in args.styles.split(","):
            for name, lmp in binaries:
                backend = "kk" if args.kokkos else ("omp" if threads > 1 else "serial")
                neigh, mod_hist = best(lmp, style, "yes", threads, args.kokkos, args)
                _, mod_none = best(lmp, style, "no", threads, args.kokkos, args)
                remap = mod_hist - mod_none
                row = dict(binary=name, style=style, backend=backend, threads=threads,
                           neigh_ms=neigh, modify_nohist_ms=mod_none, modify_hist_ms=mod_hist,
                           remap_ms=remap, remap_over_neigh=remap / neigh)
                rows.append(row)
                print("%-7s %-6s %-7s %3d %10.2f %12.2f %12.2f %10.2f %11.2f" % (
                    name, style, backend, threads, neigh, mod_none, mod_hist, remap, remap / neigh),
                    flush=True)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
