#!/usr/bin/env python3
"""Which row holds a pair of owned atoms on different levels (issue 42, the whole CPU
step): two builds of lmp side by side on the same systems, per step Loop, Pair, Neigh
and Modify, the list rebuilt every step and every 10th step.

usage: run_rows.py --lmp AFTER_LMP [--lmp-before BEFORE_LMP] [--before-vars "VAR VALUE ..."]
                   [--vars "VAR VALUE ..."] [--n 100000] [--omega 10,30,100]
                   [--beds BED,...] [--every 1,10] [--lists on,off-history]
                   [--threads 1,2] [--steps 20] [--repeat 3] [--csv F] [--md F]

--before-vars: in.bench variables of the "before" runs (e.g. "calibrate no": one build,
two settings side by side); --vars: in.bench variables of every run (e.g. "zscale 4": the
systems in a box 4x as tall).  Each case runs in.bench with both builds per repeat,
interleaved, and keeps the fastest
of --repeat runs per figure.  --lists: "on" is a half newton-on list without history
(gran/hooke), "off-history" a newton-off list with contact history (gran/hooke/history,
fix neigh/history).  --threads 2 runs -sf omp -pk omp 2.  The systems are run_order.py's:
random gases (nu 0.3, alpha -3, create_atoms order) and beds (shuffled copies of their
data files, so that neither build inherits a sorted order).  steps = max(--steps,
4 * every); with every 10 the pair runs every step on the same list (atoms at rest), as
in a moving run that rebuilds every 10 steps.
"""
import argparse
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "dense"))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "order"))
import run_bench  # noqa: E402
import run_dense  # noqa: E402  (ms per step of Pair, Neigh, Modify from a log)
import run_order  # noqa: E402  (the systems)

LISTS = {"on": ["newton", "on", "history", "no"], "off-history": ["newton", "off", "history", "yes"]}
FIGURES = ("ms_per_step", "pair_ms", "neigh_ms", "modify_ms", "ms_per_build")


def measure(lmp, a, case, extra, every, steps, threads):
    args = types.SimpleNamespace(lmp=lmp, steps=steps, np=1, mem_gb=20, timeout=a.timeout,
                                 asan=False)
    omp = ["-sf", "omp", "-pk", "omp", str(threads)] if threads > 1 else []
    env = {"OMP_NUM_THREADS": str(threads), "OMP_WAIT_POLICY": "passive"}
    r = run_bench.run_one(args, case, "hgrid", extra + ["every", str(every)], a.workdir,
                          lmp_args=omp, env=env, steps=steps)
    if r["status"] != "ok":
        sys.exit("run_rows: %s: %s" % (lmp, r["status"]))
    r.update(run_dense.timers(os.path.join(a.workdir, "log.bench"), steps))
    return r


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lmp", required=True)
    p.add_argument("--lmp-before", help="default: --lmp (with --before-vars)")
    p.add_argument("--before-vars", default="",
                   help='in.bench variables of the "before" runs, e.g. "calibrate no"')
    p.add_argument("--vars", default="", help='in.bench variables of all runs, e.g. "zscale 4"')
    p.add_argument("--lists", default="on,off-history")
    p.add_argument("--threads", default="1,2")
    a = run_order.parse_args(p, "rows")
    builds = {"after": (os.path.abspath(a.lmp), []),
              "before": (os.path.abspath(a.lmp_before or a.lmp), a.before_vars.split())}
    rows = []
    for label, case, extra in run_order.cases(a):
        for lists in a.lists.split(","):
            for threads in (int(t) for t in a.threads.split(",")):
                for every in (int(e) for e in a.every.split(",")):
                    steps = max(a.steps, 4 * every)
                    best = run_order.fastest(
                        builds, a.repeat,
                        lambda name: measure(builds[name][0], a, case,
                                             extra + LISTS[lists] + a.vars.split() +
                                             builds[name][1], every, steps, threads), FIGURES)
                    rows.append(row(label, case, lists, threads, every, best))
                    print(" ".join("%s=%s" % kv for kv in rows[-1].items()), flush=True)
                    write(a, rows)


def row(label, case, lists, threads, every, best):
    after, before = best["after"], best["before"]
    r = {"system": label, "N": case["n"], "omega": case["omega"], "lists": lists,
         "threads": threads, "every": every, "pairs": after["pairs"]}
    for key, name in zip(FIGURES, ("loop", "pair", "neigh", "modify", "build")):
        r[name + "_after"] = after[key]
        r[name + "_before"] = before[key]
    r["loop_ratio"] = after["ms_per_step"] / before["ms_per_step"]
    r["pair_ratio"] = after["pair_ms"] / before["pair_ms"]
    r["build_ratio"] = after["ms_per_build"] / before["ms_per_build"]
    return {k: round(v, 4) if isinstance(v, float) else v for k, v in r.items()}


def write(a, rows):
    run_order.write_csv(a.csv, rows)
    with open(a.md, "w") as f:
        f.write("| system | N | ω | list | threads | rebuild every | Loop ms/step after | before "
                "| after / before | Pair after / before | ms/build after | before | after / "
                "before |\n|" + "---|" * 13 + "\n")
        for r in rows:
            f.write("| %s | %d | %g | %s | %d | %d | %.3f | %.3f | **%.3f** | %.3f | %.3f | "
                    "%.3f | %.3f |\n"
                    % (r["system"], r["N"], r["omega"], r["lists"], r["threads"], r["every"],
                       r["loop_after"], r["loop_before"], r["loop_ratio"], r["pair_ratio"],
                       r["build_after"], r["build_before"], r["build_ratio"]))


if __name__ == "__main__":
    main()
