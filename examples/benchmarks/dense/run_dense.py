#!/usr/bin/env python3
"""The dense-bed table: bin, multi and hgrid on the beds of make_beds.py, in one invocation.

usage: run_dense.py --lmp build/lmp --beds BED.data[,BED.data...] [--steps 20] [--every 1]
                    [--history-newton off|on|off,on] [--timeout 300] [--styles bin,multi,hgrid]
                    [--csv dense.csv] [--md dense.md]
       run_dense.py --md-from dense.csv --md dense.md    (the table again from a CSV)

For every bed (a data file of make_beds.py; its omega is read from the JSON beside it)
in.bench runs with `-var data BED` under each style: without contact history (newton on,
gran/hooke) and with it (newton off, gran/hooke/history: fix neigh/history remaps the
contacts at every build); hgrid also with the OPENMP package on 1 and 2 threads (-sf omp).
multi gets the best stock setting of the gas tables, 2x collection intervals (multi_bounds
of run_bench.py) with bin/hash off. The list is rebuilt every step with the atoms at rest,
so Neigh / builds is one build. Per run: ms per build, ms per step (Loop), and Pair, Neigh,
Comm and Modify per step (Modify is the history fix's remap), the pairs and the memory per
rank; the ratios hgrid : best multi per build, Modify : Neigh and remap : Neigh, where the
remap is the history fix's own time: Modify less that of the same run without history (the
`-sf omp` runs clear per-thread forces in Modify too: "hgrid omp T newton off" measures it).
A run beyond --timeout is recorded as such (bin at omega = 100 takes seconds per build).
The runs of one bed with one newton setting must list the same pairs: the first that
does not stops the script (exit 3, "ERROR: runs disagree on the number of pairs").
--every N rebuilds the list every N steps instead (the whole step of a realistic run, Loop
per step); --history-newton on (or off,on) adds the history rows with newton on (CPU
gran/hooke/history supports both; hgrid's newton-on ghosts are only the larger particles
near small owned ones, so its ghost shell is far thinner than with newton off).
--kokkos: the Kokkos table instead (OpenMP backend on the CPU): kk bin and kk hgrid with
contact history (gran/hooke/history/kk, fix neigh/history/kk, newton off, as KOKKOS'
granular pair requires) on 1 and 2 threads; "build: multi / this" then reads kk bin / kk
hgrid on the same threads.
"""
import argparse
import csv
import json
import os
import re
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import run_bench  # noqa: E402  (in.bench's runner, its log parser, multi's bounds)

# the timers run_bench.run_one does not report per step (it gives Comm per step)
TIMERS = ("Pair", "Neigh", "Modify")


def kokkos_runs(styles):
    """(label, style, extra -var pairs, extra lmp arguments) of one bed under KOKKOS"""
    out = []
    for threads in ("1", "2"):
        for style in ("bin", "hgrid"):
            if style in styles:
                out.append(("kk %s t%s history" % (style, threads), style, run_bench.KK_VARS,
                            ["-k", "on", "t", threads] + run_bench.KOKKOS_ARGS))
    return out


def runs(omega, styles, history_newton=("off",)):
    """(label, style, extra -var pairs, extra lmp arguments) of one bed; the history rows
    with newton off ("... history") and/or on ("... history newton on")"""
    bounds = run_bench.multi_bounds(omega, 2)
    multi = ["nc", str(len(bounds)), "bounds", " ".join("%.6g" % b for b in bounds), "hash", "no"]
    out = []
    for newton in [None] + list(history_newton):
        extra = ["newton", newton, "history", "yes"] if newton else []
        tag = {None: "", "off": " history", "on": " history newton on"}[newton]
        if "bin" in styles:
            out.append(("bin" + tag, "bin", extra, []))
        if "multi" in styles:
            out.append(("multi x2" + tag, "multi", multi + extra, []))
        if "hgrid" in styles:
            out.append(("hgrid" + tag, "hgrid", extra, []))
            for threads in ("1", "2"):
                if newton == "off":  # fix OMP's force clearing with the newton-off ghosts
                    out.append(("hgrid omp %s newton off" % threads, "hgrid", ["newton", "off"],
                                run_bench.OMP + [threads]))
                out.append(("hgrid omp %s%s" % (threads, tag), "hgrid", extra,
                            run_bench.OMP + [threads]))
    return out


def variant(run):
    """what a row measures besides its style: "", "history" (newton off), "history newton on"
    or "newton off" (no history)"""
    for v in ("history newton on", "history", "newton off"):
        if run.endswith(v):
            return v
    return ""


def remap_ms(r, modify):
    """the history fix's ms per step in a history row: Modify less that of the same run
    without history (-sf omp: fix OMP clears the per-thread forces of every atom, ghosts
    included, in Modify too; the "newton off" rows measure it with newton off, the rows
    without history with newton on)"""
    v = variant(r["run"])
    if not v.startswith("history"):
        return None
    if r["run"].startswith("hgrid omp"):
        base = r["run"][:-len(v)] + ("newton off" if v == "history" else "")
        base = modify.get((r["bed"], base.strip()))
        return r["modify_ms"] - base if base is not None else None
    return r["modify_ms"]


def timers(log, steps):
    """ms per step of each of TIMERS from a LAMMPS log"""
    text = open(log).read() if os.path.exists(log) else ""
    out = {}
    for name in TIMERS:
        m = re.search(r"^%s\s*\|\s*\S+\s*\|\s*(\S+)" % name, text, re.M)
        out[name.lower() + "_ms"] = 1000.0 * float(m.group(1)) / steps if m else float("nan")
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lmp")
    p.add_argument("--beds", help="bed data files, comma-separated")
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--timeout", type=int, default=300)
    p.add_argument("--styles", default="bin,multi,hgrid")
    p.add_argument("--workdir", default="dense_runs")
    p.add_argument("--csv", default="dense.csv")
    p.add_argument("--md", default="dense.md")
    p.add_argument("--kokkos", action="store_true",
                   help="kk bin and kk hgrid (OpenMP backend, 1 and 2 threads) instead")
    p.add_argument("--every", type=int, default=1,
                   help="rebuild the list every N steps (in.bench -var every; 1: every step)")
    p.add_argument("--history-newton", default="off", choices=("off", "on", "off,on"),
                   help="the newton setting of the history rows (both: off,on)")
    p.add_argument("--md-from", metavar="CSV", help="only write --md from this CSV of an earlier run")
    a = p.parse_args()
    if a.md_from:
        return rewrite(a)
    if not a.lmp or not a.beds:
        p.error("--lmp and --beds are required (unless --md-from)")
    os.makedirs(a.workdir, exist_ok=True)
    args = types.SimpleNamespace(lmp=os.path.abspath(a.lmp), steps=a.steps, np=1, mem_gb=16,
                                 timeout=a.timeout, asan=False)
    rows = []
    for bed in a.beds.split(","):
        stats = json.load(open(bed + ".json"))
        omega = float(stats["omega"])
        case = {"n": stats["atoms"], "omega": omega, "alpha": stats["alpha"], "nu": 0.6, "dim": 3}
        plan = (kokkos_runs(a.styles.split(",")) if a.kokkos else
                runs(omega, a.styles.split(","), a.history_newton.split(",")))
        for label, style, extra, lmp_args in plan:
            r = run_bench.run_one(args, case, style, ["data", os.path.abspath(bed), "every",
                                                      str(a.every)] + extra,
                                  a.workdir, lmp_args)
            log = os.path.join(a.workdir, "log.bench")
            if r["status"] == "ok":
                r.update(timers(log, a.steps), comm_ms=r["comm_ms_per_step"])
            name = "log.%s.w%g.%s" % (os.path.basename(bed), omega, label.replace(" ", "_"))
            if os.path.exists(log):
                os.replace(log, os.path.join(a.workdir, name))
            row = {"bed": os.path.basename(bed), "N": stats["atoms"], "omega": omega,
                   "contacts_per_atom": stats.get("contacts_per_atom", ""), "run": label,
                   "status": r["status"]}
            for key in ("ms_per_build", "ms_per_step", "pair_ms", "neigh_ms", "comm_ms",
                        "modify_ms", "pairs", "mem_mb"):
                v = r.get(key, "")
                row[key] = round(v, 4) if isinstance(v, float) else v
            rows.append(row)
            print(" ".join("%s=%s" % kv for kv in row.items()), flush=True)
            write(a, rows)
            disagree = pairs_disagree(rows)
            if disagree:    # at once: a run cut short by a timeout still has its check
                print("ERROR: runs disagree on the number of pairs: %s" % disagree, flush=True)
                return 3
    return 0


def newton(run):
    """the newton setting of a row: off for the history rows with newton off, the "newton
    off" rows and every KOKKOS row (gran/hooke/history/kk), else on"""
    v = variant(run)
    return "off" if run.startswith("kk") or v in ("history", "newton off") else "on"


def pairs_disagree(rows):
    """the runs of one bed and newton setting must list the same pairs (as run_bench.py's
    styles): "" if they do, else each run's count"""
    groups = {}
    for r in rows:
        if r["status"] == "ok":
            groups.setdefault((r["bed"], newton(r["run"])), []).append(r)
    for (bed, nw), group in groups.items():
        if len({r["pairs"] for r in group}) > 1:
            return "%s, newton %s: %s" % (bed, nw, "; ".join(
                "%s %s" % (r["run"], r["pairs"]) for r in group))
    return ""


def reference(r):
    """the key of the run a row's build is compared with: best multi, or kk bin"""
    if r["run"].startswith("kk"):
        return (r["bed"], r["run"].split()[2])
    return (r["bed"], variant(r["run"]))


def rewrite(a):
    """the Markdown table again from a CSV of this script (--md-from)"""
    rows = []
    for r in csv.DictReader(open(a.md_from)):
        for key, v in r.items():
            if key not in ("bed", "run", "status", "contacts_per_atom"):
                try:
                    r[key] = float(v) if "." in v or "e" in v else int(v)
                except ValueError:
                    pass
        rows.append(r)
    write_md(a.md, rows)


def write(a, rows):
    with open(a.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    write_md(a.md, rows)


def write_md(path, rows):
    best = {}    # (bed, history) -> multi's ms per build; kk: (bed, threads) -> kk bin's
    modify = {}  # (bed, run) -> Modify ms per step
    for r in rows:
        if r["run"].startswith(("multi", "kk bin")) and r["status"] == "ok":
            best[reference(r)] = r["ms_per_build"]
        if r["status"] == "ok":
            modify[(r["bed"], r["run"])] = r["modify_ms"]
    with open(path, "w") as f:
        f.write("| N | ω | bed | run | ms/build | ms/step | Pair | Neigh | Comm | Modify "
                "| Modify/Neigh | remap/Neigh | build: multi / this | pairs | MB |\n|"
                + "---|" * 15 + "\n")
        for r in rows:
            bed = "pressed" if "_p" in r["bed"] else "relaxed"
            if r["status"] != "ok":
                f.write("| %d | %g | %s | %s | %s | | | | | | | | | | |\n"
                        % (r["N"], r["omega"], bed, r["run"], r["status"]))
                continue
            v = variant(r["run"])
            m = None if v == "newton off" else best.get(reference(r))
            remap = remap_ms(r, modify)
            f.write("| %d | %g | %s | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %s | %s | %s "
                    "| %d | %.1f |\n" % (
                        r["N"], r["omega"], bed, r["run"], r["ms_per_build"], r["ms_per_step"],
                        r["pair_ms"], r["neigh_ms"], r["comm_ms"], r["modify_ms"],
                        "%.2f" % (r["modify_ms"] / r["neigh_ms"]) if "history" in v else "",
                        "%.2f" % (remap / r["neigh_ms"]) if remap is not None else "",
                        "%.1f×" % (m / r["ms_per_build"]) if m else "", r["pairs"], r["mem_mb"]))


if __name__ == "__main__":
    sys.exit(main())
