#!/usr/bin/env python3
"""Atom order of the whole CPU step (issue 42 item 3): hgrid's atom sort (bins of its
finest level in Morton order, where the top level is >= 8x the finest: hgrid::sort_bin_size)
against LAMMPS' own sort bins (half the largest cutoff, row by row), side by side.

usage: run_order.py --lmp build/lmp [--n 100000] [--omega 10,30,100] [--beds BED,...]
                    [--every 1,10] [--steps 20] [--repeat 3] [--csv F] [--md F]

in.bench runs each case twice per repeat, interleaved: "hgrid" (the default: hgrid offers
its Morton bins to Atom::sort()) and "stock" (-var sortbin = half of LAMMPS' largest
neighbor cutoff, omega + skin: the bin size Atom::sort() takes by default, which a bin
size given with atom_modify sort selects, so hgrid's offer is not taken). The list is
rebuilt every `every` steps with the atoms at rest (the pair runs every step, so every
10 weighs the pair loop as a moving run with a rebuild every 10 steps does); steps =
max(--steps, 4 * every). Per case the fastest of --repeat runs: Loop per step, Pair
per step, ms per build; the ratio hgrid / stock of Loop is the decision (< 1: hgrid's
order gains the step). Where hgrid offers no bins (top < 8x finest, e.g. omega = 10)
both runs use LAMMPS' bins and the ratio is the machine's noise.
A bed's atoms are shuffled first (a copy of its data file in --workdir, seed 1): a data
file keeps the order of the sort that ran last before write_data, and LAMMPS' sort is
stable, so its bins would inherit that order inside each bin (the gas starts in the
random order of create_atoms).
"""
import argparse
import csv
import json
import os
import random
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "dense"))
import run_bench  # noqa: E402
import run_dense  # noqa: E402  (timers: ms per step of Pair, Neigh, Modify from a log)

SKIN = 0.05    # in.bench's skin (d_min = 1)


def shuffled(bed, workdir):
    """a copy of a data file with its Atoms lines in random order (the same every time)"""
    out = os.path.join(workdir, "shuffled_" + os.path.basename(bed))
    with open(bed) as f:
        lines = f.readlines()
    head = next(k for k, line in enumerate(lines) if line.startswith("Atoms"))
    first = head + 2    # the header, one blank line, then the atoms up to a blank line
    last = next(k for k in range(first, len(lines)) if not lines[k].strip())
    atoms = lines[first:last]
    random.Random(1).shuffle(atoms)
    with open(out, "w") as f:
        f.writelines(lines[:first] + atoms + lines[last:])
    return out


def cases(a):
    """(label, case for run_bench, extra -var pairs) of every system"""
    out = []
    for n in (int(float(x)) for x in a.n.split(",") if x):
        for omega in (float(w) for w in a.omega.split(",") if w):
            case = {"n": n, "omega": omega, "alpha": -3, "nu": a.nu, "dim": 3}
            out.append(("gas nu %g" % a.nu, case, []))
    for bed in (b for b in a.beds.split(",") if b):
        stats = json.load(open(bed + ".json"))
        case = {"n": stats["atoms"], "omega": float(stats["omega"]), "alpha": stats["alpha"],
                "nu": 0.6, "dim": 3}
        out.append(("bed " + os.path.basename(bed), case,
                    ["data", os.path.abspath(shuffled(bed, a.workdir))]))
    return out


def measure(args, case, extra, order, every, steps, workdir):
    sort = [] if order == "hgrid" else ["sortbin", "%.6g" % ((case["omega"] + SKIN) / 2)]
    r = run_bench.run_one(args, case, "hgrid", extra + sort + ["every", str(every)], workdir,
                          steps=steps)
    if r["status"] == "ok":
        r.update(run_dense.timers(os.path.join(workdir, "log.bench"), steps))
    return r


def parse_args(p, name):
    """the options run_order.py and run_rows.py share (systems, rebuild intervals,
    repeats, output; name: the default prefix of the run folder and the tables), parsed,
    the run folder made"""
    p.add_argument("--n", default="100000")
    p.add_argument("--omega", default="10,30,100")
    p.add_argument("--nu", type=float, default=0.3)
    p.add_argument("--beds", default="")
    p.add_argument("--every", default="1,10")
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--timeout", type=int, default=1800)
    p.add_argument("--workdir", default=name + "_runs")
    p.add_argument("--csv", default=name + ".csv")
    p.add_argument("--md", default=name + ".md")
    a = p.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    a.workdir = os.path.abspath(a.workdir)
    return a


def fastest(variants, repeat, run, keys):
    """each variant run repeat times, interleaved (run(variant) -> figures); per
    variant its first run's figures with the smallest value of each of keys"""
    best = {}
    for _ in range(repeat):
        for v in variants:
            r = run(v)
            b = best.setdefault(v, r)
            for key in keys:
                b[key] = min(b[key], r[key])
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lmp", required=True)
    a = parse_args(p, "order")
    rows = []
    for label, case, extra in cases(a):
        for every in (int(e) for e in a.every.split(",")):
            steps = max(a.steps, 4 * every)
            args = types.SimpleNamespace(lmp=os.path.abspath(a.lmp), steps=steps, np=1,
                                         mem_gb=20, timeout=a.timeout, asan=False)

            def run(order):
                r = measure(args, case, extra, order, every, steps, a.workdir)
                if r["status"] != "ok":
                    sys.exit("run_order: %s %s: %s" % (label, order, r["status"]))
                return r

            best = fastest(("hgrid", "stock"), a.repeat, run,
                           ("ms_per_step", "pair_ms", "ms_per_build"))
            h, s = best["hgrid"], best["stock"]
            row = {"system": label, "N": case["n"], "omega": case["omega"], "every": every,
                   "steps": steps, "loop_hgrid": h["ms_per_step"], "loop_stock": s["ms_per_step"],
                   "loop_ratio": h["ms_per_step"] / s["ms_per_step"], "pair_hgrid": h["pair_ms"],
                   "pair_stock": s["pair_ms"], "build_hgrid": h["ms_per_build"],
                   "build_stock": s["ms_per_build"], "pairs": h["pairs"]}
            rows.append({k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()})
            print(" ".join("%s=%s" % kv for kv in rows[-1].items()), flush=True)
            write(a, rows)


def write_csv(path, rows):
    """rows (dicts with the same keys) as a CSV file"""
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def write(a, rows):
    write_csv(a.csv, rows)
    with open(a.md, "w") as f:
        f.write("| system | N | ω | rebuild every | Loop ms/step hgrid order | stock order | "
                "hgrid / stock | Pair ms/step hgrid | stock | ms/build hgrid | stock |\n|"
                + "---|" * 11 + "\n")
        for r in rows:
            f.write("| %s | %d | %g | %d | %.3f | %.3f | **%.3f** | %.3f | %.3f | %.3f | %.3f |\n"
                    % (r["system"], r["N"], r["omega"], r["every"], r["loop_hgrid"],
                       r["loop_stock"], r["loop_ratio"], r["pair_hgrid"], r["pair_stock"],
                       r["build_hgrid"], r["build_stock"]))


if __name__ == "__main__":
    main()
