#!/usr/bin/env python3
"""Skin sweep: one input at fixed skins, and with fix hgrid/tune ... skin auto started
from several skins, side by side in one invocation.

usage: skin_sweep.py --lmp PATH/lmp --input in.hgrid.freecooling [--style hgrid]
                     [--skins 0.05,0.1,...] [--auto-from 0.05,0.2,0.8] [--repeat 2]
                     [--var NAME VALUE ...] [--csv FILE] [--workdir DIR]
The input must take its style from the variable 'style', its skin from 's0' and
'-var skin auto' must add fix hgrid/tune ... skin auto (examples/hgrid/in.hgrid.hopper
and in.hgrid.freecooling do).  Per run: Loop time (all runs of the input; the fastest
of --repeat), list builds, dangerous builds; for auto runs also the skin at the end
and its step-weighted mean over the last run.  The table ends with the best fixed skin
and, for each auto run, the distance of its skins to it.
"""
import argparse
import csv
import os
import re
import subprocess
import sys


def parse(text):
    """Loop time, builds and dangerous builds summed over the runs of a log; the skin
    trajectory of fix hgrid/tune (step, new skin) and the step ranges of the runs."""
    def column(pattern, cast=float):
        return [cast(v) for v in re.findall(pattern, text, re.M)]
    loops = column(r"^Loop time of (\S+)")
    return {
        "loop": sum(loops),
        "last_loop": loops[-1] if loops else 0.0,
        "builds": sum(column(r"^Neighbor list builds = (\d+)", int)),
        "dangerous": sum(column(r"^Dangerous builds = (\d+)", int)),
        "moves": [(int(s), float(v)) for s, v in
                  re.findall(r"^hgrid/tune: step (\d+) skin \S+ -> (\S+)", text, re.M)],
        "run_steps": column(r"^Loop time of \S+ on \d+ procs for (\d+) steps", int),
    }


def mean_skin_of_last_run(result, s0):
    """step-weighted mean skin over the last run of the input"""
    total = sum(result["run_steps"])
    first = total - result["run_steps"][-1]
    skin, t, acc = s0, first, 0.0
    for step, value in result["moves"]:
        if step <= first:
            skin = value
            continue
        acc += skin * (step - t)
        skin, t = value, step
    acc += skin * (total - t)
    final = result["moves"][-1][1] if result["moves"] else s0
    return acc / max(1, total - first), final


def run(args, s0, auto, rep):
    label = "%s_%s_%g_%d" % (args.style, "auto" if auto else "fixed", s0, rep)
    log = os.path.join(args.workdir, "log." + label)
    cmd = [os.path.abspath(args.lmp), "-in", os.path.abspath(args.input), "-var", "style", args.style,
           "-var", "s0", "%g" % s0, "-var", "skin", "auto" if auto else "fixed",
           "-log", log, "-screen", "none"]
    for name, value in args.var:
        cmd += ["-var", name, value]
    done = subprocess.run(cmd, cwd=os.path.dirname(os.path.abspath(args.input)))
    if done.returncode != 0:
        sys.exit("skin_sweep: %s failed (see %s)" % (label, log))
    return parse(open(log).read())


def best_of(args, s0, auto):
    runs = [run(args, s0, auto, k) for k in range(args.repeat)]
    return min(runs, key=lambda r: r["loop"])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lmp", required=True)
    p.add_argument("--input", required=True)
    p.add_argument("--style", default="hgrid")
    p.add_argument("--skins", default="0.05,0.1,0.15,0.2,0.3,0.4,0.6,0.8")
    p.add_argument("--auto-from", default="0.05,0.2,0.8")
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--var", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"))
    p.add_argument("--csv")
    p.add_argument("--workdir", default=".")
    args = p.parse_args()
    os.makedirs(args.workdir, exist_ok=True)

    rows = []
    for s0 in [float(s) for s in args.skins.split(",")]:
        r = best_of(args, s0, False)
        rows.append({"mode": "fixed", "start": s0, "final": s0, "mean": s0, **r})
    for s0 in [float(s) for s in args.auto_from.split(",")]:
        r = best_of(args, s0, True)
        mean, final = mean_skin_of_last_run(r, s0)
        rows.append({"mode": "auto", "start": s0, "final": final, "mean": mean, **r})

    fixed = [r for r in rows if r["mode"] == "fixed"]
    best = min(fixed, key=lambda r: r["loop"])
    print("| skin | mode | skin at end | mean skin (last run) | Loop s (all runs) | Loop s (last run) "
          "| builds | dangerous | vs best fixed Loop |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %g | %s | %.4g | %.4g | %.3f | %.3f | %d | %d | %.2fx |" % (
            r["start"], r["mode"] if r["mode"] == "fixed" else "auto from %g" % r["start"],
            r["final"], r["mean"], r["loop"], r["last_loop"], r["builds"], r["dangerous"],
            r["loop"] / best["loop"]))
    print("\nbest fixed skin: %g (Loop %.3f s)" % (best["start"], best["loop"]))
    for r in rows:
        if r["mode"] == "auto":
            print("auto from %g: skin at the end %.4g (%+.0f%% from the best fixed skin), mean "
                  "over the last run %.4g (%+.0f%%); Loop %.2fx the best fixed skin's"
                  % (r["start"], r["final"], 100.0 * (r["final"] / best["start"] - 1.0),
                     r["mean"], 100.0 * (r["mean"] / best["start"] - 1.0),
                     r["loop"] / best["loop"]))
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["mode", "start_skin", "final_skin", "mean_skin_last_run", "loop_s",
                        "last_loop_s", "builds", "dangerous"])
            for r in rows:
                w.writerow([r["mode"], r["start"], r["final"], "%.6g" % r["mean"],
                            "%.4f" % r["loop"], "%.4f" % r["last_loop"], r["builds"],
                            r["dangerous"]])


if __name__ == "__main__":
    main()
