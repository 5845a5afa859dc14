#!/usr/bin/env python3
"""Reproducers of the stock LAMMPS bugs the patch series fixes (0004: init_pair_error.cpp), run with any lmp.

usage: run_upstream.py --lmp LMP [--case NAME ...] [--workdir DIR] [--expect pass|fail]

Each case runs its input in upstream/ with LMP and checks the correct behaviour:
  limit_damping_restart  a run continued from a restart file equals the uninterrupted run
                         (MALLOC_PERTURB_=1: the heap holds non-zero bytes)
  neigh_history_omp      -sf omp, newton on, contact history: 2 threads finish and agree
                         with 1 thread
  granular_mdr           a pair granular mdr run finishes
  comm_kokkos_exchange   (an lmp with KOKKOS) a run whose fix maxexchange grows often
                         finishes within a 3 GiB address space
  neigh_history_partners an atom with more contacts than neigh_modify one (none of the
                         list rows that long): the run and its continuation from a
                         restart file finish (patch 0018)
  neigh_history_write_restart  write_restart between two runs, after neigh_modify one
                         changed, leaves the second run as it is (patch 0019)
  comm_tiled_exchange    (an lmp with KOKKOS) comm_style tiled, a run whose fix maxexchange
                         grows: finishes within a 3 GiB address space (patch 0021)
  kokkos_copy_rows_past_one  (an lmp with KOKKOS) a host compute's copy of a Kokkos list
                         whose row outgrew neigh_modify one: the run finishes with the
                         sphere's contacts counted (patch 0020)
  kokkos_occasional_same_step  (an lmp with KOKKOS) a host compute's occasional list after
                         displace_atoms and a run at the same timestep: the contacts of
                         the new positions, as a step later (patch 0022)
  kokkos_wall_gran_granular  (an lmp with KOKKOS) a sphere thrown at fix wall/gran's
                         granular-model wall bounces off, or the command is refused
                         with the style named (patch 0023)
  kokkos_gran_single     (an lmp with KOKKOS) compute pair/local force with
                         gran/hooke/history/kk: the contact forces, or an error that the
                         pair style does not support it; no crash (patch 0024)
  wall_gran_undamped     spheres resting in an undamped (gamman = 0) fix wall/gran
                         hooke/history floor keep a finite kinetic energy (patch 0025)
  compute_reduce_sumabs  compute reduce sumabs and aveabs of two inputs: the sums and the
                         averages of the absolute values (patch 0026)
  history_restart_id     a granular run restarted after its pair style was switched, and
                         after clear in the same process (gran/hooke/history, pair
                         granular, pair hybrid), continues with its contact history: the restarted
                         runs equal the continuous ones (patch 0027)
  granular_restart_cutoff  a pair granular run continued from a restart file with the
                         pair style it holds equals the continuous run (patch 0028)
  granular_history_transfer  two touching spheres, one spun, whose contact changes rows
                         (the atom sort): the spins do not depend on the atom order,
                         with rolling and with twisting friction (patch 0029)
  comm_tiled_history_newton  gran/hooke/history with newton on under comm_style tiled:
                         the run finishes and equals the comm_style brick run (patch 0030)
  granular_history_size  pair granular whose pair_coeff adds rolling and twisting between
                         runs: the second run is refused with both history sizes named
                         (patch 0031)
  superellipsoid_history_transfer  (an lmp with ASPHERE) two touching superellipsoids, one
                         spun, whose contact changes rows (the atom sort): the angular
                         momenta do not depend on the atom order, with the linear_history
                         and the classic tangential model (patch 0034)
  surface_local_borders  (an lmp with GRANSURF and MPI) spheres poured onto a rotating
                         wall of lines on 2 ranks, and on 4 with a ghost cutoff over
                         several subdomains: each run finishes and equals the one-rank
                         run (patch 0033)
It prints "PASS name" or "FAIL name: why" per case. With --expect pass (default) it exits
1 if any case fails; with --expect fail (for a stock lmp, to show the bug) it exits 1 if
any case passes.
"""
import argparse
import os
import resource
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# the command-line switches of the KOKKOS cases (one OpenMP thread)
KOKKOS = ["-k", "on", "t", "1", "-sf", "kk", "-pk", "kokkos", "neigh", "half", "newton", "off"]


# the command that starts lmp on several ranks, followed by their number (--mpiexec)
MPIEXEC = ["mpirun", "--oversubscribe"] + (["--allow-run-as-root"] if os.geteuid() == 0 else []) \
    + ["-np"]


def run(lmp, workdir, name, args, env=None, timeout=300, max_bytes=None, ranks=1):
    """one lmp process (ranks > 1: an MPI job of that many) on upstream/in.<name>, its
    address space limited to max_bytes; (exit status, its last error line and last lines
    of output)"""
    cmd = [lmp, "-in", os.path.join(HERE, "in." + name), "-nocite", "-log", "none"] + args
    if ranks > 1:
        cmd = MPIEXEC + [str(ranks)] + cmd

    def limit():
        if max_bytes:
            resource.setrlimit(resource.RLIMIT_AS, (max_bytes, max_bytes))

    try:
        done = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=timeout,
                              env=dict(os.environ, **(env or {})), preexec_fn=limit)
    except subprocess.TimeoutExpired:
        return 124, "timeout after %d s" % timeout
    out = (done.stdout + done.stderr).strip().splitlines()
    errors = [line for line in out if "ERROR" in line]
    return done.returncode, " | ".join(errors[-1:] + out[-3:])


def read_dump(path):
    """the values of a dump's ATOMS section, row by row"""
    with open(path) as f:
        lines = f.read().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("ITEM: ATOMS")) + 1
    return [float(v) for line in lines[start:] for v in line.split()]


def dumps_differ(workdir, first, second, tolerance, what, units="length units"):
    """None if the two dumps agree within tolerance, else why not"""
    a = read_dump(os.path.join(workdir, first))
    b = read_dump(os.path.join(workdir, second))
    diff = max((abs(x - y) for x, y in zip(a, b)), default=0.0) if len(a) == len(b) else float("inf")
    return None if diff <= tolerance else "%s by %.3g %s" % (what, diff, units)


def finished(result, what=""):
    """None if the run exited 0, else why not; result is run()'s"""
    rc, out = result
    return None if rc == 0 else "%sexited %d: %s" % (what, rc, out)


def each_finished(lmp, workdir, name, var, values, env=None):
    """None if upstream/in.<name> finished with each of values for the index variable
    var, else why the first that did not"""
    for value in values:
        why = finished(run(lmp, workdir, name, ["-var", var, value], env),
                       "%s %s: " % (var, value))
        if why:
            return why
    return None


# a heap of non-zero bytes, for the inputs whose fault is an unset member
PERTURBED = {"MALLOC_PERTURB_": "1"}


def limit_damping_restart(lmp, workdir):
    return (each_finished(lmp, workdir, "limit_damping_restart", "part", "ab", PERTURBED)
            or dumps_differ(workdir, "limit_damping.a.dump", "limit_damping.b.dump", 1e-10,
                            "the continued run differs"))


def neigh_history_omp(lmp, workdir):
    for threads in ("2", "1"):
        why = finished(run(lmp, workdir, "neigh_history_omp",
                           ["-sf", "omp", "-pk", "omp", threads, "-var", "threads", threads],
                           {"OMP_NUM_THREADS": threads}), "%s thread(s): " % threads)
        if why:
            return why
    return dumps_differ(workdir, "neigh_history_omp.2.dump", "neigh_history_omp.1.dump", 1e-6,
                        "2 threads differ from 1")


def granular_mdr(lmp, workdir):
    return finished(run(lmp, workdir, "granular_mdr", []))


def kokkos_run_in_3gib(lmp, workdir, name):
    """None if the KOKKOS run of upstream/in.<name> finishes within a 3 GiB address space"""
    return finished(run(lmp, workdir, name, KOKKOS, {"OMP_NUM_THREADS": "1"}, max_bytes=3 * 2**30))


def comm_kokkos_exchange(lmp, workdir):
    return kokkos_run_in_3gib(lmp, workdir, "comm_kokkos_exchange")


def neigh_history_partners(lmp, workdir):
    why = finished(run(lmp, workdir, "neigh_history_partners", []))
    if why is None and not os.path.exists(os.path.join(workdir, "partners.restart")):
        return "no restart file written"
    return why


def neigh_history_write_restart(lmp, workdir):
    return (each_finished(lmp, workdir, "neigh_history_write_restart", "part", "ab")
            or dumps_differ(workdir, "write_restart.a.dump", "write_restart.b.dump", 0.0,
                            "the run after write_restart differs"))


def comm_tiled_exchange(lmp, workdir):
    return kokkos_run_in_3gib(lmp, workdir, "comm_tiled_exchange")


def numbers_of(lmp, workdir, name, args, env=None):
    """(exit status, output tail, numbers): a run of upstream/in.<name> and the numbers it
    printed to <name>.out (none unless it finished)"""
    out = os.path.join(workdir, name + ".out")
    if os.path.exists(out):
        os.remove(out)
    rc, tail = run(lmp, workdir, name, args, env)
    if rc != 0:
        return rc, tail, []
    with open(out) as f:
        return rc, tail, [float(v) for v in f.read().split()]


def plain_numbers(lmp, workdir, name):
    """(why, numbers) of the run of upstream/in.<name> (why is None if it finished)"""
    rc, tail, numbers = numbers_of(lmp, workdir, name, [])
    return finished((rc, tail)), numbers


def refused(rc, tail, refusal):
    """did a run (exit status rc, output tail) stop with an error holding every string
    of refusal?"""
    return rc != 0 and bool(refusal) and all(s in tail for s in refusal)


def kokkos_numbers(lmp, workdir, name, refusal=None):
    """(why, numbers) of the KOKKOS run of upstream/in.<name>: why is None if it finished,
    or if it stopped with an error holding every string of refusal (no numbers then)"""
    rc, tail, numbers = numbers_of(lmp, workdir, name, KOKKOS, {"OMP_NUM_THREADS": "1"})
    if refused(rc, tail, refusal):
        return None, []
    return finished((rc, tail)), numbers


def kokkos_copy_rows_past_one(lmp, workdir):
    why, numbers = kokkos_numbers(lmp, workdir, "kokkos_copy_rows_past_one")
    if why:
        return why
    return None if numbers[0] > 200 else "the sphere's %g contacts, not more than 200" % numbers[0]


def kokkos_occasional_same_step(lmp, workdir):
    why, numbers = kokkos_numbers(lmp, workdir, "kokkos_occasional_same_step")
    if why:
        return why
    same_step, next_step = numbers
    if same_step != next_step:
        return "%g contacts at the setup after displace_atoms, %g a step later" % (same_step, next_step)
    return None


def refused_or_positive(lmp, workdir, name, refusal, failure):
    """None if the KOKKOS run of upstream/in.<name> stopped with an error holding every
    string of refusal, or finished with a positive first number; else why not"""
    why, numbers = kokkos_numbers(lmp, workdir, name, refusal)
    if why or not numbers:
        return why
    return None if numbers[0] > 0.0 else failure % numbers[0]


def kokkos_wall_gran_granular(lmp, workdir):
    # the command refused with the style named, or the sphere bounced off the wall
    return refused_or_positive(lmp, workdir, "kokkos_wall_gran_granular",
                               ["wall/gran/kk", "granular"],
                               "the sphere went through the wall (z = %g)")


def kokkos_gran_single(lmp, workdir):
    # compute pair/local refused, or the contact forces
    return refused_or_positive(lmp, workdir, "kokkos_gran_single",
                               ["does not support compute pair/local"], "no contact forces (%g)")


def wall_gran_undamped(lmp, workdir):
    why, numbers = plain_numbers(lmp, workdir, "wall_gran_undamped")
    if why:
        return why
    return None if 0.0 < numbers[0] < float("inf") else "kinetic energy %g" % numbers[0]


def history_restart_id(lmp, workdir):
    return (each_finished(lmp, workdir, "history_restart_id", "part", "abcde", PERTURBED)
            or dumps_differ(workdir, "history.a.dump", "history.b.dump", 1e-10,
                         "restarted after the pair style switched, the run differs")
            or dumps_differ(workdir, "history.c.dump", "history.c2.dump", 1e-10,
                            "restarted after clear, the gran/hooke/history run differs")
            or dumps_differ(workdir, "history.d.dump", "history.d2.dump", 1e-10,
                            "restarted after clear, the pair granular run differs")
            or dumps_differ(workdir, "history.e.dump", "history.e2.dump", 1e-10,
                            "restarted after clear, the pair hybrid run differs"))


def granular_restart_cutoff(lmp, workdir):
    # not PERTURBED: its bytes made the unset cutoff negative, the correct value
    return (each_finished(lmp, workdir, "granular_restart_cutoff", "part", "ab")
            or dumps_differ(workdir, "granular_restart.a.dump", "granular_restart.b.dump",
                            1e-10, "the restarted run differs"))


def order_independent(lmp, workdir, name, var, values, dump, what, units):
    """None if upstream/in.<name>, run with each of values for the index variable var and
    with its two atom orders (order keep, flip), writes dump % (value, order) alike for
    both orders, else why not"""
    for value in values:
        for order in ("keep", "flip"):
            why = finished(run(lmp, workdir, name, ["-var", var, value, "-var", "order", order]),
                           "%s, %s: " % (value, order))
            if why:
                return why
        why = dumps_differ(workdir, dump % (value, "keep"), dump % (value, "flip"), 1e-12,
                           "%s: %s depend on the atom order" % (value, what), units)
        if why:
            return why
    return None


def granular_history_transfer(lmp, workdir):
    return order_independent(lmp, workdir, "granular_history_transfer", "mode",
                             ("rolling", "twisting"), "granular_transfer.%s.%s.dump",
                             "the spins", "per time unit")


def superellipsoid_history_transfer(lmp, workdir):
    return order_independent(lmp, workdir, "superellipsoid_history_transfer", "tangential",
                             ("linear_history", "classic"), "superellipsoid_transfer.%s.%s.dump",
                             "the angular momenta", "(lj units)")


def comm_tiled_history_newton(lmp, workdir):
    return (each_finished(lmp, workdir, "comm_tiled_history_newton", "cs", ("tiled", "brick"))
            or dumps_differ(workdir, "comm_brick.dump", "comm_tiled.dump", 1e-8,
                            "comm_style tiled differs from brick"))


def granular_history_size(lmp, workdir):
    rc, tail = run(lmp, workdir, "granular_history_size", [])
    if refused(rc, tail, ["keep 9 history values per contact", "holds 3"]):
        return None
    return (finished((rc, tail))
            or "the second run ran with 9 history values per contact in rows of 3")


def surface_local_borders(lmp, workdir):
    for ranks, tag, cut in ((1, "np1", "0"), (2, "np2", "0"), (4, "np4cut", "20")):
        why = finished(run(lmp, workdir, "surface_local_borders",
                           ["-var", "tag", tag, "-var", "cut", cut, "-var", "dir", HERE],
                           ranks=ranks), "%d rank(s), comm cutoff %s: " % (ranks, cut))
        if why:
            return why
    for tag in ("np2", "np4cut"):
        why = dumps_differ(workdir, "surface_local_borders.np1.dump",
                           "surface_local_borders.%s.dump" % tag, 1e-8,
                           "%s: the spheres differ from the one-rank run" % tag)
        if why:
            return why
    return None


def compute_reduce_sumabs(lmp, workdir):
    why, numbers = plain_numbers(lmp, workdir, "compute_reduce_sumabs")
    if why:
        return why
    return None if numbers == [10.0, 4.0, 2.5, 1.0] else \
        "sumabs, aveabs of vx, vy: %s, not 10 4 2.5 1" % numbers


# the cases any lmp runs; comm_kokkos_exchange, comm_tiled_exchange and the kokkos_*
# cases need the KOKKOS package, surface_local_borders GRANSURF and MPI,
# superellipsoid_history_transfer ASPHERE
CASES = {"limit_damping_restart": limit_damping_restart,
         "neigh_history_omp": neigh_history_omp,
         "granular_mdr": granular_mdr,
         "comm_kokkos_exchange": comm_kokkos_exchange,
         "neigh_history_partners": neigh_history_partners,
         "neigh_history_write_restart": neigh_history_write_restart,
         "comm_tiled_exchange": comm_tiled_exchange,
         "kokkos_copy_rows_past_one": kokkos_copy_rows_past_one,
         "kokkos_occasional_same_step": kokkos_occasional_same_step,
         "kokkos_wall_gran_granular": kokkos_wall_gran_granular,
         "kokkos_gran_single": kokkos_gran_single,
         "wall_gran_undamped": wall_gran_undamped,
         "compute_reduce_sumabs": compute_reduce_sumabs,
         "history_restart_id": history_restart_id,
         "granular_restart_cutoff": granular_restart_cutoff,
         "granular_history_transfer": granular_history_transfer,
         "comm_tiled_history_newton": comm_tiled_history_newton,
         "granular_history_size": granular_history_size,
         "surface_local_borders": surface_local_borders,
         "superellipsoid_history_transfer": superellipsoid_history_transfer}
DEFAULT = ["granular_mdr", "limit_damping_restart", "neigh_history_omp", "neigh_history_partners",
           "neigh_history_write_restart", "wall_gran_undamped", "compute_reduce_sumabs",
           "history_restart_id", "granular_restart_cutoff", "granular_history_transfer",
           "comm_tiled_history_newton", "granular_history_size"]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lmp", required=True)
    p.add_argument("--case", action="append", choices=sorted(CASES))
    p.add_argument("--workdir", default=".")
    p.add_argument("--expect", choices=("pass", "fail"), default="pass")
    p.add_argument("--mpiexec", help="the command that starts an MPI job, up to and with its "
                   "flag for the number of ranks (default: %s)" % " ".join(MPIEXEC))
    a = p.parse_args()
    if a.mpiexec:
        MPIEXEC[:] = a.mpiexec.split()
    os.makedirs(a.workdir, exist_ok=True)
    lmp = os.path.abspath(a.lmp)
    unexpected = 0
    for name in a.case or DEFAULT:
        why = CASES[name](lmp, a.workdir)
        print("PASS %s" % name if why is None else "FAIL %s: %s" % (name, why), flush=True)
        unexpected += (why is None) != (a.expect == "pass")
    if unexpected:
        print("run_upstream.py: %d case(s) did not %s as expected" % (unexpected, a.expect))
    sys.exit(1 if unexpected else 0)


if __name__ == "__main__":
    main()
