#!/usr/bin/env python3
"""Neighbor-build benchmark: bin, multi (several interval choices, with and without
bin/hash) and hgrid on the same generated systems, in one invocation.

usage: run_bench.py --lmp build/lmp [--n 100000] [--omega 1,10,100] [--alpha 0,-2,-3]
                    [--nu 0.3,0.6] [--dim 3] [--steps 5] [--repeat 3] [--timeout 600] [--np 1]
                    [--csv bench.csv] [--png bench.png] [--quick]

For every (dim, N, nu, alpha, omega) it runs in.bench under each style (bin, multi,
hgrid; bin and hgrid also with the OPENMP package, 1 and 2 threads) and records the
neighbor time per build (Neigh / list builds), the whole step (Loop / steps) and the
ghost communication per step (Comm / steps), the pairs found, the memory per rank
LAMMPS reports and (one rank) the process's peak resident memory, and the ratios of
build time, Comm time and memory to monodisperse bin at the same N, nu, dim.
A run that exceeds the timeout or the memory limit (--mem-gb; not applied to an lmp
built with AddressSanitizer) is recorded as such.
Timings on a shared machine drift: every run that takes less than --repeat-below
seconds (all fast styles, and the monodisperse reference) is repeated --repeat
times and its fastest build time kept, so fast styles and the reference are
measured alike; a run whose builds take less than --min-neigh-ms (200) in all is
rerun with as many steps as reach it (at most --max-steps, 100).
"""
import argparse
import csv
import math
import mmap
import os
import re
import resource
import shutil
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def multi_bounds(omega, ratio):
    """collection bounds (diameters) ratio^k up to omega, last one covering omega"""
    bounds, b = [], ratio
    while b < omega:
        bounds.append(b)
        b *= ratio
    bounds.append(omega + 0.001)
    return bounds


OMP = ["-sf", "omp", "-pk", "omp"]
# KOKKOS' granular pair (gran/hooke/history/kk) needs newton off and half lists; after
# "-k on DEVICE"; in.bench's variables for it
KOKKOS_ARGS = ["-sf", "kk", "-pk", "kokkos", "neigh", "half", "newton", "off"]
KK_VARS = ["newton", "off", "history", "yes"]


def styles(omega):
    """(label, style, extra -var pairs, extra lmp arguments) for one omega"""
    out = [("bin", "bin", [], [])]
    for ratio in (2, 4):
        bounds = multi_bounds(max(omega, 1.0), ratio)
        for hash_ in ("no", "yes"):
            out.append(("multi x%d%s" % (ratio, " hash" if hash_ == "yes" else ""), "multi",
                        ["nc", str(len(bounds)), "bounds", " ".join("%.6g" % b for b in bounds),
                         "hash", hash_], []))
    out.append(("hgrid", "hgrid", [], []))
    out.append(("hgrid comm single", "hgrid", ["comm", "single"], []))
    # the OPENMP package (gran/hooke/omp, hgrid's /omp lists): 1 and 2 threads per rank
    out.append(("bin omp 2", "bin", [], OMP + ["2"]))
    for threads in ("1", "2"):
        out.append(("hgrid omp " + threads, "hgrid", [], OMP + [threads]))
    return out


def compiled(src, workdir, flags=()):
    """the C++ program src compiled into workdir with $CXX, c++ or g++ (once, and again
    when src is newer): the probes of the thread and scaling benchmarks"""
    exe = os.path.join(workdir, os.path.splitext(os.path.basename(src))[0])
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        cxx = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++")
        if not cxx:
            sys.exit("no C++ compiler for %s (set CXX)" % os.path.basename(src))
        subprocess.run([cxx, "-O2"] + list(flags) + ["-o", exe, src], check=True)
    return exe


def uses_asan(lmp):
    """True when lmp runs under AddressSanitizer: HGRID_SANITIZE=1 in the environment (as
    `HGRID_SANITIZE=1 bash unittest/run_tests.sh` sets it) or the binary references the
    ASan runtime (__asan_init, in its dynamic symbols or linked in statically)"""
    if os.environ.get("HGRID_SANITIZE") == "1":
        return True
    try:
        with open(lmp, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
            return m.find(b"__asan_init") >= 0
    except (OSError, ValueError):
        return False


def run_one(args, case, style, extra, workdir, lmp_args=(), env=None, steps=None, cpus=None):
    """one lmp run of in.bench (steps: args.steps unless given); env: variables added to
    the environment of that run; cpus: the cores it may run on (all unless given)"""
    steps = steps or args.steps
    log = os.path.join(workdir, "log.bench")
    cmd = [args.lmp, "-in", os.path.join(HERE, "in.bench"), "-log", log, "-screen", "none",
           "-nocite", "-var", "style", style, "-var", "steps", str(steps)] + list(lmp_args)
    for key in ("n", "omega", "alpha", "nu", "dim"):
        cmd += ["-var", key, str(case[key])]
    for i in range(0, len(extra), 2):
        cmd += ["-var", extra[i], extra[i + 1]]
    if args.np > 1:
        cmd = ["mpirun", "-np", str(args.np), "--oversubscribe"] + \
              (["--allow-run-as-root"] if os.geteuid() == 0 else []) + \
              [a for v in ("ASAN_OPTIONS", "UBSAN_OPTIONS") if args.asan and v in os.environ
               for a in ("-x", v)] + cmd
    limit = int(args.mem_gb * 2**30)
    # no address-space cap under AddressSanitizer (its shadow memory reserves terabytes
    # of virtual address space, which any RLIMIT_AS of a realistic size refuses), nor
    # with --mem-gb 0 (CUDA, which maps the GPU's memory into the address space)
    uncapped = args.asan or args.mem_gb <= 0

    def limit_and_pin():
        if not uncapped:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        if cpus:
            os.sched_setaffinity(0, cpus)

    if os.path.exists(log):
        os.remove(log)
    start = time.time()
    try:
        returncode, peak_kb = run_measured(cmd, args.timeout,
                                           None if uncapped and not cpus else limit_and_pin,
                                           {**os.environ, **env} if env else None)
    except subprocess.TimeoutExpired:
        return {"status": "timeout > %ds" % args.timeout}
    wall = time.time() - start
    text = open(log).read() if os.path.exists(log) else ""
    neigh = re.search(r"^Neigh\s*\|\s*\S+\s*\|\s*(\S+)", text, re.M)
    builds = re.search(r"^Neighbor list builds = (\d+)", text, re.M)
    if returncode != 0 or not neigh or not builds:
        err = re.search(r"^ERROR.*$", text, re.M)
        return {"status": err.group(0)[:80] if err else "failed (exit %d, memory?)" % returncode}
    pairs = re.search(r"^Total # of neighbors = (\d+)", text, re.M)
    mem = re.search(r"^Per MPI rank memory allocation \(min/avg/max\) = \S+ \| \S+ \| (\S+)", text, re.M)
    ghosts = re.search(r"^Nghost:\s*(\S+) ave", text, re.M)
    loop = re.search(r"^Loop time of (\S+) on", text, re.M)
    comm = re.search(r"^Comm\s*\|\s*\S+\s*\|\s*(\S+)", text, re.M)
    nb = int(builds.group(1))
    # in.bench -var phases 1 (hgrid): ms per rebuild of each phase (compute hgrid 19-23)
    phases = re.search(r"^hgrid phases \(ms per rebuild\): (.*)$", text, re.M)
    phases = phases.group(1).split() if phases else []
    return {"status": "ok", "wall": wall, "ms_per_build": 1000.0 * float(neigh.group(1)) / nb,
            "phases": {phases[k]: float(phases[k + 1]) for k in range(0, len(phases) - 1, 2)},
            "ms_per_step": 1000.0 * float(loop.group(1)) / steps if loop else float("nan"),
            "comm_ms_per_step": 1000.0 * float(comm.group(1)) / steps if comm else float("nan"),
            "pairs": int(pairs.group(1)) if pairs else -1,
            "mem_mb": float(mem.group(1)) if mem else float("nan"),
            # one process: everything it allocated, the figure LAMMPS reports leaves
            # some arrays out (those of NPair classes, transient ones)
            "peak_rss_mb": peak_kb / 1024.0 if args.np == 1 else float("nan"),
            "ghosts": float(ghosts.group(1)) if ghosts else float("nan")}


def ratio(r, ref, key):
    """r[key] / ref[key] as text, '' where either is missing or not a number"""
    v, w = r.get(key, math.nan), ref.get(key, math.nan)
    return "%.3g" % (v / w) if v == v and w == w and w > 0 else ""


def run_measured(cmd, timeout, preexec, env):
    """run cmd; (exit code, peak resident set of the process in KB, from wait4);
    subprocess.TimeoutExpired after timeout seconds (a timer kills it; no polling,
    which would take the CPU from 2-thread runs on a 2-core machine)"""
    proc = subprocess.Popen(cmd, preexec_fn=preexec, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    expired = threading.Event()

    def expire():
        expired.set()
        proc.kill()

    timer = threading.Timer(timeout, expire)
    timer.start()
    _, status, usage = os.wait4(proc.pid, 0)
    timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)    # reaped here, not by Popen
    if expired.is_set():
        raise subprocess.TimeoutExpired(cmd, timeout)
    return proc.returncode, usage.ru_maxrss


def run_best(args, case, style, extra, workdir, lmp_args=()):
    """run_one, repeated while runs are short; the fastest build time is kept.  A run
    whose builds took less than --min-neigh-ms in all is a probe: the repeats take as
    many steps as reach it (at most --max-steps), and only they count (five builds of a
    few ms each vary by 20 % and more between runs)"""
    best = run_one(args, case, style, extra, workdir, lmp_args)
    steps = args.steps
    if best["status"] == "ok" and best["ms_per_build"] * steps < args.min_neigh_ms:
        steps = min(args.max_steps, math.ceil(steps * args.min_neigh_ms /
                                              max(best["ms_per_build"] * steps, 1e-3)))
        best = run_one(args, case, style, extra, workdir, lmp_args, steps=steps)
    for _ in range(args.repeat - 1):
        if best["status"] != "ok" or best["wall"] > args.repeat_below:
            break
        r = run_one(args, case, style, extra, workdir, lmp_args, steps=steps)
        if r["status"] == "ok" and r["ms_per_build"] < best["ms_per_build"]:
            best = r
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lmp", required=True)
    p.add_argument("--n", default="100000")
    p.add_argument("--omega", default="1,10,100")
    p.add_argument("--alpha", default="0,-2,-3")
    p.add_argument("--nu", default="0.3,0.6")
    p.add_argument("--dim", default="3")
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--repeat-below", type=float, default=20.0)
    p.add_argument("--min-neigh-ms", type=float, default=200.0,
                   help="fast runs take as many steps as give this much build time")
    p.add_argument("--max-steps", type=int, default=100)
    p.add_argument("--timeout", type=int, default=600)
    p.add_argument("--mem-gb", type=float, default=16.0)
    p.add_argument("--np", type=int, default=1)
    p.add_argument("--styles", default="", help="comma list of labels to run (default all)")
    p.add_argument("--csv", default="bench.csv")
    p.add_argument("--png")
    p.add_argument("--workdir", default=".")
    args = p.parse_args()
    args.lmp = os.path.abspath(args.lmp)
    args.asan = uses_asan(args.lmp)
    if args.asan:
        print("note: lmp runs under AddressSanitizer, --mem-gb is not applied", flush=True)
    os.makedirs(args.workdir, exist_ok=True)
    wanted = set(s for s in args.styles.split(",") if s)

    rows, ok = [], True
    fields = ["dim", "n", "nu", "alpha", "omega", "style", "status", "ms_per_build",
              "us_per_atom", "vs_mono_bin", "ms_per_step", "comm_ms_per_step", "comm_vs_mono",
              "pairs", "mem_mb", "peak_rss_mb", "mem_vs_mono", "rss_vs_mono", "ghosts_per_rank"]
    header = "%3s %8s %5s %5s %6s %-17s %10s %8s %9s %9s %8s %8s %10s"
    print(header % ("d", "N", "nu", "alpha", "omega", "style", "ms/build", "vs mono", "ms/step",
                    "comm/step", "vs mono", "MB/rank", "pairs"))
    for dim in args.dim.split(","):
        for n in args.n.split(","):
            for nu in args.nu.split(","):
                mono = run_best(args, {"n": n, "omega": 1, "alpha": 0, "nu": nu, "dim": dim},
                                "bin", [], args.workdir)
                for alpha in args.alpha.split(","):
                    for omega in args.omega.split(","):
                        case = {"n": n, "omega": omega, "alpha": alpha, "nu": nu, "dim": dim}
                        pairs = set()
                        for label, style, extra, lmp_args in styles(float(omega)):
                            if wanted and label not in wanted:
                                continue
                            r = run_best(args, case, style, extra, args.workdir, lmp_args)
                            row = dict(case, style=label, status=r["status"])
                            if r["status"] == "ok":
                                row.update(ms_per_build="%.4g" % r["ms_per_build"],
                                           us_per_atom="%.4g" % (1000.0 * r["ms_per_build"] / int(n)),
                                           vs_mono_bin=ratio(r, mono, "ms_per_build"),
                                           ms_per_step="%.4g" % r["ms_per_step"],
                                           comm_ms_per_step="%.4g" % r["comm_ms_per_step"],
                                           comm_vs_mono=ratio(r, mono, "comm_ms_per_step"),
                                           pairs=r["pairs"], mem_mb="%.4g" % r["mem_mb"],
                                           peak_rss_mb="%.4g" % r["peak_rss_mb"],
                                           mem_vs_mono=ratio(r, mono, "mem_mb"),
                                           rss_vs_mono=ratio(r, mono, "peak_rss_mb"),
                                           ghosts_per_rank="%.0f" % r["ghosts"])
                                pairs.add(r["pairs"])
                            rows.append(row)
                            print(header % (
                                dim, n, nu, alpha, omega, label,
                                row.get("ms_per_build", r["status"][:12]), row.get("vs_mono_bin", "-"),
                                row.get("ms_per_step", "-"), row.get("comm_ms_per_step", "-"),
                                row.get("comm_vs_mono", "-"), row.get("mem_mb", "-"),
                                row.get("pairs", "-")), flush=True)
                        if len(pairs) > 1:
                            print("ERROR: styles disagree on the number of pairs: %s" % sorted(pairs))
                            ok = False
    with open(args.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, restval="")
        w.writeheader()
        w.writerows(rows)
    print("wrote %s" % args.csv)
    if args.png:
        plot(rows, args.png)
    return 0 if ok else 1


def plot(rows, png):
    try:
        import matplotlib
    except ImportError:
        print("no plot: matplotlib is missing (Debian: python3-matplotlib, run with /usr/bin/python3)")
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    groups = sorted({(r["dim"], r["nu"], r["alpha"]) for r in rows})
    fig, axes = plt.subplots(1, len(groups), figsize=(4.2 * len(groups), 3.8), squeeze=False)
    for ax, (dim, nu, alpha) in zip(axes[0], groups):
        sel = [r for r in rows if (r["dim"], r["nu"], r["alpha"]) == (dim, nu, alpha)
               and r.get("us_per_atom")]
        for style in sorted({r["style"] for r in sel}):
            pts = sorted((float(r["omega"]), float(r["us_per_atom"])) for r in sel if r["style"] == style)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", ms=3, label=style)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("size ratio omega")
        ax.set_title("d=%s nu=%s alpha=%s" % (dim, nu, alpha))
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("time per atom per build [us]")
    axes[0][-1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print("wrote %s" % png)


if __name__ == "__main__":
    sys.exit(main())
