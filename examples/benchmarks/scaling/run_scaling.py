#!/usr/bin/env python3
"""The serial build against N, with the machine's caches beside it (issue 42's CPU goals).

usage: run_scaling.py --lmp LMP [--n 100000,1000000,10000000] [--omega 100] [--alpha -3]
                      [--nu 0.3] [--samples 3] [--min-neigh-s 1.0] [--core C]
                      [--probe-kb 256,...] [--sample-probe-kb 16384] [--deadline SECONDS]
                      [--csv F] [--md F]
                      [--workdir DIR] [--timeout 900]

Two goals of the CPU round are ratios of one machine's figures: hgrid's build of the
polydisperse gas (in.bench: 3d, alpha, nu, omega) at most 0.5x the stock `bin` build of the
monodisperse gas of the same N and nu, at 10^6 and 10^7; and hgrid's build per atom
within 15 % from the smallest N to the largest.  Both move with the caches one core gets,
which lscpu does not tell on a virtual machine, so this script first measures them:
latency_probe.cpp (compiled on first use with $CXX, c++ or g++) chases pointers through
working sets of --probe-kb KiB on the core the runs use.  Then, for each N, --samples
interleaved pairs of runs pinned to that core (hgrid, then mono `bin`; before each pair
the latency at --sample-probe-kb again, since it drifts on a VM), each with as many
list builds as take --min-neigh-s seconds of Neigh time (from a 5-step probe run; at
least 5, at most 100).  Every run of one system must find the same pairs.  It prints

  ratio        = hgrid's ms per build / mono bin's, the median of the pairs' ratios
  per atom     = hgrid's median ms per build / N, and its growth over the smallest N

--deadline: no run goes on past that many seconds after the script started (a device
call's budget): the run then under way is stopped, and the table holds what was measured.
"""
import argparse
import csv
import math
import os
import platform
import statistics
import subprocess
import sys
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import run_bench  # noqa: E402

PROBE_KB = "256,1024,4096,8192,16384,32768,65536,262144"


def probe_binary(workdir):
    """latency_probe compiled into workdir (once)"""
    return run_bench.compiled(os.path.join(HERE, "latency_probe.cpp"), workdir)


def cpu_name():
    """the processor's model name (lscpu, else Python's platform module)"""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def latencies(exe, core, sizes):
    """[(KiB, ns per dependent load)] on core"""
    out = subprocess.run(["taskset", "-c", str(core), exe] + [str(s) for s in sizes],
                         capture_output=True, text=True, check=True).stdout
    return [(int(k), float(ns)) for k, ns in (line.split() for line in out.splitlines())]


class Deadline(Exception):
    """--deadline came before a run could start or end"""


class Runner:
    """in.bench runs pinned to one core, the number of builds fitted to --min-neigh-s"""

    def __init__(self, a):
        self.a = a
        self.steps = {}    # (style, n) -> steps

    def run(self, style, case, steps):
        timeout = self.a.timeout
        if self.a.deadline:
            left = self.a.deadline - (time.time() - self.a.start)
            if left < 1.0:
                raise Deadline()
            timeout = min(timeout, math.ceil(left))
        args = types.SimpleNamespace(lmp=self.a.lmp, steps=steps, np=1, mem_gb=0,
                                     timeout=timeout, asan=False)
        r = run_bench.run_one(args, case, style, [], self.a.workdir, cpus={self.a.core})
        if r["status"].startswith("timeout") and timeout < self.a.timeout:
            raise Deadline()
        if r["status"] != "ok":
            sys.exit("run_scaling: %s at N = %d: %s" % (style, case["n"], r["status"]))
        return r

    def build_ms(self, style, case):
        key = (style, case["n"])
        if key not in self.steps:
            probe = self.run(style, case, 5)
            want = 1000.0 * self.a.min_neigh_s / max(probe["ms_per_build"], 1e-3)
            self.steps[key] = max(5, min(100, math.ceil(want)))
            if self.steps[key] == 5:    # the probe was long enough: its figure counts
                return probe["ms_per_build"], probe["pairs"]
        r = self.run(style, case, self.steps[key])
        return r["ms_per_build"], r["pairs"]


def measure(a, runner, probe, rows):
    """rows of (N, sample, the latency at --sample-probe-kb, hgrid ms, bin ms), each
    written to --csv as it comes; Deadline at --deadline"""
    for n in a.n:
        gas = {"n": n, "omega": a.omega, "alpha": a.alpha, "nu": a.nu, "dim": 3}
        mono = {"n": n, "omega": 1, "alpha": 0, "nu": a.nu, "dim": 3}
        pairs = {"hgrid": set(), "bin": set()}
        for s in range(a.samples):
            ns = latencies(probe, a.core, [a.sample_probe_kb])[0][1]
            hg, hp = runner.build_ms("hgrid", gas)
            bn, bp = runner.build_ms("bin", mono)
            pairs["hgrid"].add(hp)
            pairs["bin"].add(bp)
            for style, found in pairs.items():
                if len(found) != 1:
                    sys.exit("run_scaling: %s at N = %d found different pairs %s" %
                             (style, n, sorted(found)))
            rows.append({"n": n, "sample": s + 1, "probe_ns": ns, "hgrid_ms": round(hg, 4),
                         "bin_mono_ms": round(bn, 4), "ratio": round(hg / bn, 4),
                         "hgrid_pairs": hp, "bin_pairs": bp,
                         "hgrid_builds": runner.steps[("hgrid", n)],
                         "bin_builds": runner.steps[("bin", n)]})
            print(" ".join("%s=%s" % kv for kv in rows[-1].items()), flush=True)
            write_csv(a, rows)


def write_csv(a, rows):
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)


def table(a, machine, curve, rows):
    """the Markdown report: the machine, its latency curve, the goals' figures"""
    lines = ["Machine: %s; core %d; lmp %s" % (machine, a.core, a.lmp), "",
             "| working set (KiB) | " + " | ".join(str(k) for k, _ in curve) + " |",
             "|---|" + "---|" * len(curve),
             "| ns per dependent load | " + " | ".join("%.1f" % ns for _, ns in curve) + " |",
             "", "| N | hgrid's pairs | ns per load at %d KiB | hgrid ms/build | mono `bin` "
             "ms/build | ratio (goal <= 0.5) | hgrid us/atom | per atom over the smallest N "
             "(goal <= 1.15) |" % a.sample_probe_kb,
             "|---|---|---|---|---|---|---|---|"]
    first = None
    for n in sorted({r["n"] for r in rows}):
        mine = [r for r in rows if r["n"] == n]
        hg = statistics.median(r["hgrid_ms"] for r in mine)
        bn = statistics.median(r["bin_mono_ms"] for r in mine)
        ratio = statistics.median(r["ratio"] for r in mine)
        per_atom = 1000.0 * hg / n
        first = first or per_atom
        lat = ", ".join("%.0f" % r["probe_ns"] for r in mine)
        lines.append("| %d | %d | %s | %.3f | %.3f | %.2fx (%d samples) | %.4f | %.2fx |" % (
            n, mine[0]["hgrid_pairs"], lat, hg, bn, ratio, len(mine), per_atom, per_atom / first))
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lmp", required=True)
    p.add_argument("--n", default="100000,1000000,10000000")
    p.add_argument("--omega", type=float, default=100)
    p.add_argument("--alpha", type=float, default=-3)
    p.add_argument("--nu", type=float, default=0.3)
    p.add_argument("--samples", type=int, default=3)
    p.add_argument("--min-neigh-s", type=float, default=1.0,
                   help="Neigh seconds each run aims at (builds from a 5-step probe)")
    p.add_argument("--core", type=int, help="the core of every run (default: the last usable)")
    p.add_argument("--probe-kb", default=PROBE_KB)
    p.add_argument("--sample-probe-kb", type=int, default=16384,
                   help="the working set probed again before each sample (the caches drift)")
    p.add_argument("--deadline", type=float, default=0.0)
    p.add_argument("--csv")
    p.add_argument("--md")
    p.add_argument("--workdir", default="scaling_work")
    p.add_argument("--timeout", type=int, default=900)
    a = p.parse_args()
    a.start = time.time()
    a.lmp = os.path.abspath(a.lmp)
    a.n = [int(float(v)) for v in a.n.split(",")]
    usable = sorted(os.sched_getaffinity(0))
    a.core = usable[-1] if a.core is None else a.core
    if a.core not in usable:
        sys.exit("run_scaling: --core %d is not one this process may use %s" % (a.core, usable))
    if a.samples < 1:
        sys.exit("run_scaling: --samples must be at least 1")
    os.makedirs(a.workdir, exist_ok=True)
    machine = cpu_name()
    probe = probe_binary(a.workdir)
    curve = latencies(probe, a.core, [int(v) for v in a.probe_kb.split(",")])
    print("run_scaling: %s, core %d; ns per load: %s" %
          (machine, a.core, ", ".join("%d KiB %.1f" % c for c in curve)), flush=True)
    rows = []
    try:
        measure(a, Runner(a), probe, rows)
    except Deadline:
        print("run_scaling: --deadline %g s reached after %d samples" % (a.deadline, len(rows)))
    if not rows:
        sys.exit("run_scaling: nothing measured before the deadline")
    report = table(a, machine, curve, rows)
    print(report, end="")
    if a.md:
        with open(a.md, "w") as f:
            f.write(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
