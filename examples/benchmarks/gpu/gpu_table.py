#!/usr/bin/env python3
"""The GPU table: kk bin and kk hgrid on one GPU, side by side in one invocation.

usage: gpu_table.py --lmp build-gpu/lmp --out DIR [--workdir DIR/logs] [--n 1e5,1e6,1e7]
                    [--omega 1,10,30,100] [--alpha -3] [--nu 0.3] [--steps 20] [--timeout 120]
                    [--styles bin,hgrid] [--cases N:OMEGA:STYLE[:TIMEOUT],...]
                    [--deadline SECONDS]

Every (N, omega) runs examples/benchmarks/in.bench with gran/hooke/history/kk, newton off,
the list rebuilt every step (-k on g 1 -sf kk -pk kokkos neigh half newton off), once
under each style. Recorded per run: ms per list build (Neigh / builds), ms per step (Loop /
steps), the peak GPU memory in use during the run (nvidia-smi, sampled every 0.2 s, less
what was in use before it) and the pairs found. A run that exceeds --timeout, or fails
(e.g. kk bin's out-of-memory at omega = 100), is recorded with its reason. Writes
DIR/gpu.csv and DIR/gpu.md (the table), each run's LAMMPS log in the workdir.
--cases runs the runs it names in its order instead of N x omega x styles (the most
wanted first, so that a time-limited session gets them). A style may carry variants
after '+': "atoms" or "cells" (neighbor hgrid kk/order: kk hgrid's threads take atoms by index,
the default, or by cell), "topdown" or "bottomup" (neighbor hgrid's search keyword; the
planner takes Bottom-Up for Kokkos lists), "sortB" (in.bench's sortbin B: the atom
sort's bin size) and "splitX" (neighbor hgrid kk/split X: no, auto or a number of
cells) and "bed" or "bedSUFFIX" (the dense bed bed_3d_a-3_wOMEGA_NN[SUFFIX].data of
dense/make_beds.py, e.g. bed_p1e-4, read from --beds, instead of the random gas), e.g. 1e6:100:hgrid+cells+topdown, 1e6:100:hgrid+splitno or
1e5:30:bin+bed. A run that would start after
--deadline seconds is recorded as not run. Rows are written to the CSV and the table as
each run ends, so a run killed midway keeps the rows before it.
Needs a GPU (nvidia-smi) and a CUDA build of lmp (HGRID_KOKKOS=CUDA).
"""
import argparse
import csv
import os
import shutil
import subprocess
import sys
import threading
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import run_bench  # noqa: E402  (in.bench's runner and log parser)

KOKKOS_ARGS, KK_VARS = run_bench.KOKKOS_ARGS, run_bench.KK_VARS


def gpu_memory_mb():
    out = subprocess.run(["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits",
                          "-i", "0"], capture_output=True, text=True, check=True).stdout
    return float(out.split()[0])


class PeakMemory:
    """the largest GPU memory in use while the with-block runs, less what was in use before"""

    def __enter__(self):
        self.base = gpu_memory_mb()
        self.peak = self.base
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()
        return self

    def sample(self):
        while not self.done.wait(0.2):
            self.peak = max(self.peak, gpu_memory_mb())

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()
        self.mb = self.peak - self.base


def planned_runs(a):
    """(N, omega, style, timeout) in the order of --cases, else N x omega x styles"""
    if a.cases:
        for item in a.cases.split(","):
            f = item.split(":")
            yield int(float(f[0])), float(f[1]), f[2], int(f[3]) if len(f) > 3 else a.timeout
        return
    for n in (int(float(x)) for x in a.n.split(",")):
        for omega in (float(x) for x in a.omega.split(",")):
            for style in a.styles.split(","):
                yield n, omega, style, a.timeout


class MissingBed(Exception):
    """a bed variant whose data file is not in --beds: the case's row says so, the table goes on"""


def variant(style, n, omega, beds):
    """(in.bench style, its extra variables, its environment) of STYLE[+VARIANT...]"""
    name, *options = style.split("+")
    extra, env = [], {}
    for o in options:
        if o in ("atoms", "cells"):
            extra += ["kkorder", o]
        elif o in ("topdown", "bottomup"):
            extra += ["search", o]
        elif o.startswith("sort"):
            extra += ["sortbin", o[4:]]
        elif o.startswith("split"):
            extra += ["kksplit", o[5:]]
        elif o.startswith("bed"):    # bed or bedSUFFIX (bed_p1e-4: the bed pressed at 1e-4)
            bed = os.path.join(beds, "bed_3d_a-3_w%g_N%d%s.data" % (omega, n, o[3:]))
            if not os.path.exists(bed):
                raise MissingBed("no bed %s (dense/make_beds.py --n %d --omega %g)" % (
                    os.path.basename(bed), n, omega))
            extra += ["data", bed]
        else:
            sys.exit("gpu_table.py: unknown variant %s of style %s" % (o, style))
    return name, extra, env


def write_tables(out, rows):
    with open(os.path.join(out, "gpu.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(out, "gpu.md"), "w") as f:
        f.write("| N | omega | style | ms/build | ms/step | GPU GB | pairs |\n|---|---|---|---|---|---|---|\n")
        for r in rows:
            if r["status"] == "ok":
                f.write("| %d | %g | %s | %.3f | %.3f | %.2f | %s |\n" % (
                    r["N"], r["omega"], r["style"], r["ms_per_build"], r["ms_per_step"], r["gpu_gb"],
                    r["pairs"]))
            else:
                f.write("| %d | %g | %s | %s | | %.2f | |\n" % (r["N"], r["omega"], r["style"],
                                                                  r["status"], r["gpu_gb"]))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lmp", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--workdir", help="the runs' LAMMPS logs (default OUT/logs)")
    p.add_argument("--n", default="1e5,1e6,1e7")
    p.add_argument("--omega", default="1,10,30,100")
    p.add_argument("--alpha", default="-3")
    p.add_argument("--nu", default="0.3")
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--timeout", type=int, default=120)
    p.add_argument("--styles", default="bin,hgrid")
    p.add_argument("--cases", help="N:OMEGA:STYLE[:TIMEOUT],... in this order")
    p.add_argument("--deadline", type=float, default=0.0, help="start no run after this (s)")
    p.add_argument("--beds", default=os.path.expanduser("~/.cache/hgrid/beds"),
                   help="the folder of the dense beds (variant bed)")
    p.add_argument("--device", default="g 1", help="-k on's device (t 2: threads, to try it out)")
    a = p.parse_args()
    if not shutil.which("nvidia-smi"):
        sys.exit("gpu_table.py: no nvidia-smi here: the GPU table needs a GPU")
    workdir = a.workdir or os.path.join(a.out, "logs")
    os.makedirs(workdir, exist_ok=True)
    # run_bench.run_one's settings: one rank, no address-space cap (CUDA maps the GPU)
    args = types.SimpleNamespace(lmp=os.path.abspath(a.lmp), steps=a.steps, np=1, mem_gb=0,
                                 timeout=a.timeout, asan=False)
    kokkos = ["-k", "on"] + a.device.split() + KOKKOS_ARGS
    rows = []
    started = time.time()
    for n, omega, style, timeout in planned_runs(a):
        case = {"n": n, "omega": omega, "alpha": float(a.alpha), "nu": float(a.nu), "dim": 3}
        skip = ""
        try:
            name, extra, env = variant(style, n, omega, a.beds)
        except MissingBed as e:
            skip = str(e)
        if not skip and a.deadline and time.time() - started > a.deadline:
            skip = "session deadline"
        if skip:
            r, mb = {"status": "not run (%s)" % skip}, 0.0
        else:
            args.timeout = timeout
            with PeakMemory() as peak:
                r = run_bench.run_one(args, case, name, KK_VARS + extra, workdir, kokkos, env)
            mb = peak.mb
            log = os.path.join(workdir, "log.bench")
            if os.path.exists(log):
                shutil.move(log, os.path.join(workdir, "log.%s.n%d.w%g" % (style, n, omega)))
        row = {"N": n, "omega": omega, "style": "kk " + style, "status": r["status"],
               "ms_per_build": r.get("ms_per_build", ""), "ms_per_step": r.get("ms_per_step", ""),
               "gpu_gb": round(mb / 1024, 3), "pairs": r.get("pairs", ""),
               "wall_s": round(r.get("wall", 0.0), 1)}
        rows.append(row)
        print(" ".join("%s=%s" % kv for kv in row.items()), flush=True)
        write_tables(a.out, rows)
    print("gpu_table.py: wrote %s and %s" % (os.path.join(a.out, "gpu.csv"),
                                             os.path.join(a.out, "gpu.md")))


if __name__ == "__main__":
    main()
