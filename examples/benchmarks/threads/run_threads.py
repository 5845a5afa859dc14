#!/usr/bin/env python3
"""Thread speed-up of the neighbor build, with the machine's condition beside each figure.

usage: run_threads.py --lmp LMP [--threads 2] [--n 100000] [--omega 100] [--alpha -3]
                      [--nu 0.3] [--steps 100] [--samples 5] [--no-reference]
                      [--csv F] [--workdir DIR] [--timeout 600]

Each sample measures, one after the other: the round trip of a cache line between core 0
and each other core (core_probe.cpp, compiled on first use), in.bench's build time per
list (Neigh / builds) on one thread pinned to each core in turn, and on T threads (-sf omp
-pk omp T) on cores 0 .. T-1; for hgrid on the polydisperse gas and, unless
--no-reference, for stock `bin` on the monodisperse gas of the same N and nu.  It prints

  speed-up    = the fastest one-thread build / the T-thread build
  efficiency  = the build T cores of the speeds just measured would give at best
                (1 / sum of 1 / t_core) / the T-thread build
  x_PHASE     = hgrid only: the same speed-up of each phase of the build (compute hgrid
                19-23: cells, the sort into cells, the ghosts' search and its sort,
                the rows), the one-thread figure from the core of the fastest build;
                the CSV has the phases' ms too (ms1_PHASE: that core, msT_PHASE: T threads)

On a virtual machine both move: a core may run 1.5x slower than another for minutes
(another tenant on its host core), so the speed-up over core 0 alone says little, and the
round trip between two virtual cores changed between ~180 and ~600 ns within an hour
(same or different dies): data one thread writes and another reads costs the reader
about half a round trip per cache line.  Every run of a sample must find the same pairs
(the script stops otherwise).  The medians over the samples close the table.
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import run_bench  # noqa: E402


def probe_binary(workdir):
    """core_probe compiled into workdir (once)"""
    return run_bench.compiled(os.path.join(HERE, "core_probe.cpp"), workdir, ["-pthread"])


def round_trip(exe, threads):
    """the longest round trip (ns) between core 0 and cores 1 .. threads-1"""
    worst = 0.0
    for core in range(1, threads):
        out = subprocess.run([exe, "0", str(core)], capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit("run_threads: " + out.stderr.strip())
        worst = max(worst, float(out.stdout))
    return worst


def build_ms(a, case, style, threads, cores):
    """ms per list build of one in.bench run on `threads` threads pinned to `cores`, its
    pairs and (hgrid) the ms of each phase"""
    args = types.SimpleNamespace(lmp=a.lmp, steps=a.steps, np=1, mem_gb=20, timeout=a.timeout,
                                 asan=False)
    extra = ["phases", "1"] if style == "hgrid" else []
    r = run_bench.run_one(args, case, style, extra, a.workdir,
                          lmp_args=["-sf", "omp", "-pk", "omp", str(threads)],
                          env={"OMP_NUM_THREADS": str(threads)}, cpus=cores)
    if r["status"] != "ok":
        sys.exit("run_threads: %s on %d thread(s): %s" % (style, threads, r["status"]))
    return r["ms_per_build"], r["pairs"], r["phases"]


def phase_columns(fastest, multi):
    """x_PHASE: each phase's one-thread ms over its T-thread ms (phases that ran), and
    the ms of both"""
    ran = [k for k in fastest if multi.get(k, 0) > 0]
    return {**{"x_" + k: round(fastest[k] / multi[k], 3) for k in ran},
            **{"ms1_" + k: fastest[k] for k in ran}, **{"msT_" + k: multi[k] for k in ran}}


def sample(a, label, case, style, rt):
    """one-thread builds on each core, then the T-thread build; the row of the table"""
    singles, phases, pairs = [], [], set()
    for core in range(a.threads):
        ms, p, ph = build_ms(a, case, style, 1, {core})
        singles.append(ms)
        phases.append(ph)
        pairs.add(p)
    multi, p, multi_phases = build_ms(a, case, style, a.threads, set(range(a.threads)))
    pairs.add(p)
    if len(pairs) != 1:
        sys.exit("run_threads: %s: the runs found different pairs %s" % (label, sorted(pairs)))
    best = 1.0 / sum(1.0 / t for t in singles)
    fastest = phases[singles.index(min(singles))]
    return {"system": label, "round_trip_ns": round(rt),
            **{"core%d_ms" % c: round(t, 4) for c, t in enumerate(singles)},
            "threads": a.threads, "threads_ms": round(multi, 4),
            "speedup": round(min(singles) / multi, 3), "efficiency": round(best / multi, 3),
            "pairs": pairs.pop(), **phase_columns(fastest, multi_phases)}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lmp", required=True)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--n", type=int, default=100000)
    p.add_argument("--omega", type=float, default=100)
    p.add_argument("--alpha", type=float, default=-3)
    p.add_argument("--nu", type=float, default=0.3)
    p.add_argument("--dim", type=int, default=3)
    p.add_argument("--steps", type=int, default=100)
    p.add_argument("--samples", type=int, default=5)
    p.add_argument("--no-reference", action="store_true",
                   help="without stock bin on the monodisperse gas")
    p.add_argument("--csv")
    p.add_argument("--workdir", default="threads_work")
    p.add_argument("--timeout", type=int, default=600)
    a = p.parse_args()
    if a.threads < 2:
        sys.exit("run_threads: --threads must be at least 2")
    if len(os.sched_getaffinity(0)) < a.threads:
        sys.exit("run_threads: this process may use fewer than %d cores" % a.threads)
    a.lmp = os.path.abspath(a.lmp)
    os.makedirs(a.workdir, exist_ok=True)
    exe = probe_binary(a.workdir)
    systems = [("hgrid omega %g" % a.omega, "hgrid", a.omega, a.alpha)]
    if not a.no_reference:
        systems.append(("bin monodisperse", "bin", 1, 0))
    rows = []
    for s in range(a.samples):
        rt = round_trip(exe, a.threads)
        for label, style, omega, alpha in systems:
            case = {"n": a.n, "omega": omega, "alpha": alpha, "nu": a.nu, "dim": a.dim}
            rows.append({"sample": s + 1, **sample(a, label, case, style, rt)})
            print(" ".join("%s=%s" % kv for kv in rows[-1].items()), flush=True)
    for label, *_ in systems:
        mine = [r for r in rows if r["system"] == label]
        keys = [k for k in mine[0] if k.startswith("x_") and all(k in r for r in mine)]
        print("%s: median speed-up %.2f, efficiency %.2f, round trip %d ns (%d samples)%s" %
              (label, statistics.median(r["speedup"] for r in mine),
               statistics.median(r["efficiency"] for r in mine),
               statistics.median(r["round_trip_ns"] for r in mine), len(mine),
               "".join("; %s %.2f" % (k[2:], statistics.median(r[k] for r in mine))
                       for k in keys)))
    if a.csv:
        fields = list(dict.fromkeys(k for r in rows for k in r))
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields)
            w.writeheader()
            w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
