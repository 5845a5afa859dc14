#!/usr/bin/env python3
"""Round trips per step of kk bin and kk hgrid, counted by the kp_roundtrips Kokkos
Tools library (kp_roundtrips.cpp next to this script).

  run_roundtrips.py [--lmp LMP] [--n 20000] [--omegas 1,10,30,100] [--styles bin,hgrid]
                    [--steps 10,20] [--device "t 1"] [--lib LIB.so] [--build-dir DIR]
                    [--out DIR] [--top 15] [--timeout 900] [--mem-gb 16] [--check]

Each case (style, omega) runs examples/benchmarks/in.bench twice under the tool, with
the two step counts of --steps, as the KOKKOS runs of gpu_table.py do (-k on DEVICE
-sf kk -pk kokkos neigh half newton off; newton off, gran/hooke/history), and with
in.bench's list rebuilt every step and atoms at rest. The difference of the two runs'
counts divided by the difference of their steps is the cost of one step without the
setup (first neighbor build, array growth, allocations); divided by the difference of
their "Neighbor list builds" instead, the cost of one reneighboring (the same here, the
list being rebuilt every step).

Round trips: every fence blocks the host until the device has drained, so on a GPU
each one is a host <-> device round trip (a deep copy fences before and after the
copy, a parallel_reduce into a host scalar fences, ...). The OpenMP backend calls the
same fences as a GPU one with one exception: a deep copy between a device view and its
host mirror, which on a host backend are the same memory ("aliased" copies), skips the
copy and its post-copy fence. So the round trips per step reported are

    round trips = fences + aliased deep copies    (per step)

the GPU's figure for the code paths a host backend shares with it (LAMMPS' own atom
DualView syncs are no-ops without a GPU, LMP_KOKKOS_GPU, and are the same in kk bin
and kk hgrid). --check: exit status 1 unless round trips per step of kk hgrid <= kk bin
at every omega.

The library is built with g++ (into --build-dir, or a temporary folder) unless --lib
names one. Writes, into --out: roundtrips.md (the tables and the top names per step),
roundtrips.csv (one row a case), roundtrips_names.csv (every name's count per step)
and each run's JSON, log and stderr. Exit status 1 when a run fails or the check fails.
Python standard library only.
"""

import argparse
import csv
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
from run_bench import KK_VARS, KOKKOS_ARGS  # noqa: E402  (the kk pair's settings)
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
BENCH = os.path.join(ROOT, "examples", "benchmarks", "in.bench")
SOURCE = os.path.join(HERE, "kp_roundtrips.cpp")


# the per-name maps of the tool's JSON that the report lists, and rt_site: the round
# trips by call site (the tool's fence_site plus one for each aliased deep copy)
NAME_MAPS = [("rt_site", "round trips"), ("fence_site", "fences by site"),
             ("fence_name", "fences"), ("copy_name", "deep copies"),
             ("copy_alias", "aliased deep copies"), ("sync_name", "DualView syncs"),
             ("kernel_name", "kernel launches"), ("alloc_name", "allocations")]


def build_library(build_dir):
    """compile kp_roundtrips.cpp into build_dir, return the path of the .so"""
    lib = os.path.join(build_dir, "libkp_roundtrips.so")
    cxx = os.environ.get("CXX", "g++")
    cmd = [cxx, "-O2", "-std=c++17", "-shared", "-fPIC", "-o", lib, SOURCE]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("building the tool library failed:\n%s\n%s" % (" ".join(cmd), r.stderr))
    return lib


def run_case(a, lib, style, omega, steps, outdir):
    """one lmp run of in.bench under the tool; returns (json dict, builds) or an error"""
    tag = "%s_omega%s_steps%d" % (style, omega, steps)
    log = os.path.join(outdir, "log.%s" % tag)
    out = os.path.join(outdir, "%s.json" % tag)
    err = os.path.join(outdir, "stderr.%s" % tag)
    for f in (log, out):
        if os.path.exists(f):
            os.remove(f)
    cmd = [a.lmp, "-in", BENCH, "-log", log, "-screen", "none", "-nocite",
           "-var", "style", style, "-var", "n", str(a.n), "-var", "omega", str(omega),
           "-var", "steps", str(steps)]
    for i in range(0, len(KK_VARS), 2):
        cmd += ["-var", KK_VARS[i], KK_VARS[i + 1]]
    # the device kernels on a host backend too (kk/host kernels): the round trips a GPU
    # pays, counted on the CPU
    cmd += ["-var", "kkhost", "kernels"]
    cmd += ["-k", "on"] + a.device.split() + KOKKOS_ARGS
    env = dict(os.environ, KOKKOS_TOOLS_LIBS=lib, KP_ROUNDTRIPS_OUT=out,
               KP_ROUNDTRIPS_TOP="0")
    env.setdefault("OMP_PROC_BIND", "false")    # quiets Kokkos' OpenMP binding warning
    limit = int(a.mem_gb * 2**30)

    def cap():
        if limit > 0:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    start = time.time()
    try:
        with open(err, "w") as fe:
            rc = subprocess.run(cmd, env=env, stdout=fe, stderr=subprocess.STDOUT,
                                timeout=a.timeout, preexec_fn=cap).returncode
    except subprocess.TimeoutExpired:
        return None, None, "timeout > %ds" % a.timeout
    except OSError as e:    # e.g. an lmp being relinked
        return None, None, "cannot run lmp: %s" % e.strerror
    wall = time.time() - start
    text = open(log).read() if os.path.exists(log) else ""
    builds = re.search(r"^Neighbor list builds = (\d+)", text, re.M)
    if rc != 0 or not builds or not os.path.exists(out):
        e = re.search(r"^ERROR.*$", text, re.M)
        return None, None, e.group(0)[:80] if e else "failed (exit %d)" % rc
    with open(out) as f:
        data = json.load(f)
    print("  %-5s omega %-4s %3d steps: %6.1f s" % (style, omega, steps, wall), flush=True)
    return data, int(builds.group(1)), None


def difference(d1, d2, key):
    """the counts of map key in run 2 minus run 1, by name"""
    m1, m2 = d1.get(key, {}), d2.get(key, {})
    return {k: m2.get(k, [0, 0])[0] - m1.get(k, [0, 0])[0] for k in set(m1) | set(m2)}


def per_step(d1, d2, ds, db):
    """everything the report needs, per step (ds) and per build (db)"""
    r = {}
    for k in ("kernels", "fences", "deep_copies", "aliased_copies", "dualview_syncs",
              "allocations"):
        r[k] = (d2["totals"][k] - d1["totals"][k]) / ds
    r["round_trips"] = r["fences"] + r["aliased_copies"]
    groups = {"fence_scope": ("global", "instance", "deep_copy"),
              "fence_origin": ("unnamed", "kokkos", "app"),
              "copy_dir": ("host->host", "host->device", "device->host", "device->device"),
              "copy_kind": ("fill", "to_scalar", "view"),
              "kernel_kind": ("for", "reduce", "scan")}
    for key, names in groups.items():
        diff = difference(d1, d2, key)
        for n in names:
            r["%s:%s" % (key, n)] = diff.get(n, 0) / ds
    r["builds_per_step"] = db / ds
    for k in ("kernels", "round_trips", "fences", "deep_copies"):
        r[k + "_per_build"] = r[k] * ds / db if db else float("nan")
    r["names"] = {key: {n: v / ds for n, v in difference(d1, d2, key).items() if v}
                  for key, _ in NAME_MAPS if key != "rt_site"}
    sites = dict(r["names"]["fence_site"])
    for n, v in r["names"]["copy_alias"].items():
        sites["deep_copy: " + n] = sites.get("deep_copy: " + n, 0) + v
    r["names"]["rt_site"] = sites
    return r


def fmt(v):
    return "%.4g" % v if isinstance(v, float) else str(v)


# the columns of the main table and CSV: (header, key in per_step's dict)
COLUMNS = [("builds/step", "builds_per_step"), ("kernels/step", "kernels"),
           ("round trips/step", "round_trips"), ("fences/step", "fences"), ("global", "fence_scope:global"),
           ("instance", "fence_scope:instance"), ("dc-resource", "fence_scope:deep_copy"),
           ("unnamed", "fence_origin:unnamed"), ("kokkos-named", "fence_origin:kokkos"),
           ("app-named", "fence_origin:app"), ("deep copies/step", "deep_copies"),
           ("h->h", "copy_dir:host->host"), ("h->d", "copy_dir:host->device"),
           ("d->h", "copy_dir:device->host"), ("d->d", "copy_dir:device->device"),
           ("fills", "copy_kind:fill"), ("to-scalar", "copy_kind:to_scalar"),
           ("view-view", "copy_kind:view"), ("aliased", "aliased_copies"),
           ("DualView syncs/step", "dualview_syncs"), ("allocs/step", "allocations"),
           ("kernels/build", "kernels_per_build"), ("round trips/build", "round_trips_per_build"),
           ("fences/build", "fences_per_build"), ("copies/build", "deep_copies_per_build")]


def top_lines(names, n):
    items = sorted(names.items(), key=lambda kv: (-kv[1], kv[0]))[:n]
    return ["| %s | `%s` |" % (fmt(v), k.replace("|", "\\|")) for k, v in items]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lmp", default=os.path.join(ROOT, "build-kokkos", "lmp"))
    p.add_argument("--n", default=20000, type=lambda v: int(float(v)), help="atoms (in.bench's n; 1e5 allowed)")
    p.add_argument("--omegas", default="1,10,30,100")
    p.add_argument("--styles", default="bin,hgrid")
    p.add_argument("--steps", default="10,20", help="the two step counts, S1 < S2")
    p.add_argument("--device", default="t 1", help="-k on's device: t 1 (OpenMP), g 1 (GPU)")
    p.add_argument("--lib", help="an already built libkp_roundtrips.so")
    p.add_argument("--build-dir", help="where to build the library (default: temporary)")
    p.add_argument("--out", default="roundtrips_out")
    p.add_argument("--top", type=int, default=15, help="names listed per category")
    p.add_argument("--timeout", type=int, default=900, help="seconds per run")
    p.add_argument("--mem-gb", type=float, default=16.0, help="address-space cap, 0: none")
    p.add_argument("--check", action="store_true",
                   help="exit status 1 unless kk hgrid's round trips/step <= kk bin's")
    a = p.parse_args()

    s1, s2 = (int(s) for s in a.steps.split(","))
    if not 0 < s1 < s2:
        sys.exit("--steps needs two counts S1 < S2")
    if not os.access(a.lmp, os.X_OK):
        sys.exit("no LAMMPS binary at %s" % a.lmp)
    os.makedirs(a.out, exist_ok=True)
    tmp = None
    if a.lib:
        lib = os.path.abspath(a.lib)
    else:
        build_dir = a.build_dir or tempfile.mkdtemp(prefix="kp_roundtrips.")
        tmp = None if a.build_dir else build_dir
        os.makedirs(build_dir, exist_ok=True)
        lib = build_library(build_dir)
    print("tool: %s\nlmp: %s" % (lib, a.lmp), flush=True)

    styles = a.styles.split(",")
    omegas = a.omegas.split(",")
    results, failed = {}, False
    for omega in omegas:
        for style in styles:
            d1, b1, e1 = run_case(a, lib, style, omega, s1, a.out)
            d2, b2, e2 = (None, None, None) if e1 else run_case(a, lib, style, omega, s2, a.out)
            if e1 or e2:
                print("  %-5s omega %-4s: %s" % (style, omega, e1 or e2), flush=True)
                results[(style, omega)] = {"status": e1 or e2}
                failed = True
                continue
            r = per_step(d1, d2, s2 - s1, b2 - b1)
            r["status"] = "ok"
            results[(style, omega)] = r
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)

    # the check: round trips per step, kk hgrid <= kk bin
    checks = []
    for omega in omegas:
        b, h = results.get(("bin", omega), {}), results.get(("hgrid", omega), {})
        if b.get("status") == "ok" and h.get("status") == "ok":
            ok = h["round_trips"] <= b["round_trips"]
            checks.append((omega, h["round_trips"], b["round_trips"], ok))

    # CSV: one row a case; names CSV: every name's count per step
    with open(os.path.join(a.out, "roundtrips.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["style", "n", "omega", "status"] + [k for _, k in COLUMNS])
        for omega in omegas:
            for style in styles:
                r = results[(style, omega)]
                w.writerow([style, a.n, omega, r["status"]] +
                           [fmt(r[k]) if r["status"] == "ok" else "" for _, k in COLUMNS])
    with open(os.path.join(a.out, "roundtrips_names.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["style", "n", "omega", "category", "name", "per_step"])
        for (style, omega), r in results.items():
            if r["status"] != "ok":
                continue
            for key, _ in NAME_MAPS:
                for name, v in sorted(r["names"][key].items(), key=lambda kv: -kv[1]):
                    w.writerow([style, a.n, omega, key, name, fmt(v)])

    # markdown: the table, the check, the top names per case
    md = ["# Round trips per step: kk bin vs kk hgrid", "",
          "in.bench, N = %s, list rebuilt every step, `-k on %s %s`, counts of run(%d) "
          "minus run(%d) steps divided by %d (lmp: `%s`)." %
          (a.n, a.device, " ".join(KOKKOS_ARGS), s2, s1, s2 - s1, a.lmp), ""]
    md.append("| style | omega | " + " | ".join(h for h, _ in COLUMNS) + " |")
    md.append("|---|---|" + "---|" * len(COLUMNS))
    for omega in omegas:
        for style in styles:
            r = results[(style, omega)]
            cells = [fmt(r[k]) for _, k in COLUMNS] if r["status"] == "ok" else \
                [r["status"]] + [""] * (len(COLUMNS) - 1)
            md.append("| kk %s | %s | %s |" % (style, omega, " | ".join(cells)))
    md += ["", "Round trips (fences + aliased deep copies) per step, kk hgrid <= kk bin:", ""]
    for omega, h, b, ok in checks:
        md.append("- omega %s: hgrid %s, bin %s: %s" % (omega, fmt(h), fmt(b),
                                                        "ok" if ok else "FAILS"))
    for omega in omegas:
        for style in styles:
            r = results[(style, omega)]
            if r["status"] != "ok":
                continue
            md += ["", "## kk %s, omega %s: top names per step" % (style, omega)]
            for key, title in NAME_MAPS:
                lines = top_lines(r["names"][key], a.top)
                if lines:
                    md += ["", "| %s/step | name |" % title, "|---|---|"] + lines
    text = "\n".join(md) + "\n"
    with open(os.path.join(a.out, "roundtrips.md"), "w") as f:
        f.write(text)

    # on the screen: the main columns and the check
    print("\n%-9s %6s %9s %9s %9s %9s %9s %9s" % ("style", "omega", "kernels", "rtrips",
                                                   "fences", "copies", "aliased", "fills"))
    for omega in omegas:
        for style in styles:
            r = results[(style, omega)]
            if r["status"] != "ok":
                print("kk %-6s %6s  %s" % (style, omega, r["status"]))
                continue
            print("kk %-6s %6s %9s %9s %9s %9s %9s %9s" %
                  (style, omega, fmt(r["kernels"]), fmt(r["round_trips"]), fmt(r["fences"]),
                   fmt(r["deep_copies"]), fmt(r["aliased_copies"]), fmt(r["copy_kind:fill"])))
    for omega, h, b, ok in checks:
        print("round trips/step omega %s: kk hgrid %s <= kk bin %s: %s" %
              (omega, fmt(h), fmt(b), "ok" if ok else "FAILS"))
    print("wrote %s/roundtrips.md, roundtrips.csv, roundtrips_names.csv" % a.out)
    if a.check and any(not ok for _, _, _, ok in checks):
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
