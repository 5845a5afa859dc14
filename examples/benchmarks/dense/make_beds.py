#!/usr/bin/env python3
"""Generate (once) and reuse dense polydisperse beds written by in.jam.

For every omega it looks for CACHE/bed_3d_a{alpha}_w{omega}_N{n}.data (nu = 0.6; other
volume fractions add _nu{nu}, other seeds _s{seed}); a missing bed is generated with
`LMP -in in.jam` (serial), then the overlap statistics are computed from the contact
list in.jam dumps (id1 id2 distance, deleted afterwards) and the diameters of the data
file, and stored next to the bed as BED.json. --replicate NX,NY,NZ then tiles the bed
(LAMMPS' replicate; the copies meet as the periodic images did) into a bed NX*NY*NZ
times larger, named _r{NX}x{NY}x{NZ}, with the statistics scaled. Prints, per bed, the path, whether it was
generated or reused, the generation wall time and steps, the final nu, the contacts per
atom, the largest sphere's contacts and the overlap ratios. Standard library only.

  python3 make_beds.py --lmp ../../../build/lmp --n 10000 --omega 10,100
  python3 make_beds.py --lmp ../../../build/lmp --n 100000 --omega 100 --replicate 5,2,1
  python3 make_beds.py --lmp LMP --tile DIR/bed_3d_a-3_w100_N100000.data --replicate 5,2,1
  lmp -in ../in.bench -var data $(python3 make_beds.py --lmp LMP --n 10000 --omega 100 --path-only)

The beds are large (about 120 bytes per atom): keep them out of the git tree (the default
cache is ${XDG_CACHE_HOME:-$HOME/.cache}/hgrid/beds).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def default_cache():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "hgrid", "beds")


def bed_name(n, omega, alpha, nu, seed, press="0"):
    name = "bed_3d_a%s_w%s_N%d" % (alpha, omega, n)
    if float(press) > 0:
        name += "_p%s" % press
    elif float(nu) != 0.6:
        name += "_nu%s" % nu
    if int(seed) != 5871:
        name += "_s%s" % seed
    return name + ".data"


def read_diameters(path):
    """{atom id: diameter} from the Atoms section of a write_data file (atom_style sphere:
    id type diameter density x y z [ix iy iz])"""
    diam = {}
    with open(path) as f:
        for line in f:
            if line.startswith("Atoms"):
                break
        for line in f:
            s = line.split()
            if not s:
                if diam:
                    break
                continue
            diam[int(s[0])] = float(s[2])
    return diam


def contact_stats(data, contacts):
    """overlap delta = (d_i + d_j)/2 - r of every contact, relative to the smaller diameter;
    contacts per atom; the largest sphere's contacts"""
    diam = read_diameters(data)
    z = dict.fromkeys(diam, 0)
    nc = 0
    rsum = 0.0
    rmax = 0.0
    asum = 0.0
    with open(contacts) as f:
        for line in f:
            if line.startswith("ITEM: ENTRIES"):
                break
        for line in f:
            s = line.split()
            if len(s) < 3:
                continue
            i, j, r = int(s[0]), int(s[1]), float(s[2])
            di, dj = diam[i], diam[j]
            delta = 0.5 * (di + dj) - r
            ratio = delta / min(di, dj)
            nc += 1
            rsum += ratio
            asum += delta
            rmax = max(rmax, ratio)
            z[i] += 1
            z[j] += 1
    n = len(diam)
    big = max(diam, key=lambda k: diam[k])
    rattlers = sum(1 for k in z if z[k] == 0)
    return {
        "atoms": n,
        "contacts": nc,
        "contacts_per_atom": 2.0 * nc / n,
        "contacts_per_nonrattler": 2.0 * nc / max(1, n - rattlers),
        "rattler_fraction": rattlers / n,
        "largest_diameter": diam[big],
        "largest_contacts": z[big],
        "max_contacts": max(z.values()),
        "overlap_ratio_mean": rsum / nc if nc else 0.0,
        "overlap_ratio_max": rmax,
        "overlap_abs_mean": asum / nc if nc else 0.0,
    }


def parse_log(log):
    # (pattern, names of its groups, type); a later match of a name wins: "final box"
    # (after pressing) over the box of the compression
    fields = [
        (r"^jam: steps (\d+) \(overlaps\) \+ (\d+) \(compression\) \+ (\d+) \(relaxation\) = (\d+)",
         ("steps_overlaps", "steps_compression", "steps_relaxation", "steps"), int),
        (r"^jam: final nu ([0-9.eE+-]+)", ("nu",), float),
        (r"^jam: box \S+ \(nu \S+\) -> (\S+) \(nu \S+\); box / largest diameter (\S+)",
         ("box", "box_per_largest_diameter"), float),
        (r"^jam: overlap.*KE/atom ([0-9.eE+-]+)", ("ke_per_atom_generation_masses",), float),
        (r"^jam: final box (\S+), box / largest diameter (\S+)",
         ("box", "box_per_largest_diameter"), float),
        (r"^jam: overlap.*virial pressure ([0-9.eE+-]+) kn/d_min", ("pressure_kn_per_dmin",), float),
        (r"^jam: steps (\d+) \(pressing to \S+ kn/d_min\), total (\d+)",
         ("steps_pressing", "steps"), int),
    ]
    with open(log) as f:
        text = f.read()
    out = {}
    for pattern, names, kind in fields:
        m = re.search(pattern, text, re.M)
        if m:
            out.update(zip(names, (kind(x) for x in m.groups())))
    return out


def generate(args, n, omega, path):
    log = path[:-len(".data")] + ".log"
    cmd = [args.lmp, "-in", os.path.join(HERE, "in.jam"), "-log", log, "-screen", "none",
           "-var", "n", str(n), "-var", "omega", str(omega), "-var", "alpha", str(args.alpha),
           "-var", "nu", str(args.nu), "-var", "seed", str(args.seed), "-var", "press", str(args.press),
           "-var", "out", path + ".tmp", "-var", "contacts", "yes"]
    for kv in args.var:
        cmd += ["-var"] + kv.split("=", 1)
    t0 = time.time()
    rc = subprocess.call(cmd)
    wall = time.time() - t0
    tmp = path + ".tmp"
    if rc != 0 or not os.path.exists(tmp):
        sys.exit("make_beds: %s failed (rc %d), see %s" % (" ".join(cmd), rc, log))
    stats = {"n": n, "omega": omega, "alpha": args.alpha, "nu_target": args.nu, "press": args.press,
             "seed": args.seed, "wall_s": round(wall, 1), "lmp": os.path.abspath(args.lmp),
             "generated": time.strftime("%Y-%m-%d %H:%M:%S")}
    stats.update(parse_log(log))
    stats.update(contact_stats(tmp, tmp + ".contacts"))
    os.remove(tmp + ".contacts")
    os.replace(tmp, path)
    with open(path + ".json", "w") as f:
        json.dump(stats, f, indent=1)
    return stats


def replicate(args, base, path, reps):
    """the bed base repeated reps = (nx, ny, nz) times by LAMMPS' replicate (a periodic bed
    tiles without seams: the copies meet as the periodic images did), with base's
    statistics scaled to the new size"""
    inp = path + ".in"
    with open(inp, "w") as f:
        f.write("units lj\natom_style sphere 1\nboundary p p p\ncomm_modify vel yes\n"
                "read_data %s\nreplicate %d %d %d\nwrite_data %s.tmp nocoeff\n"
                % (base, reps[0], reps[1], reps[2], path))
    t0 = time.time()
    rc = subprocess.call([args.lmp, "-in", inp, "-log", "none", "-screen", "none"])
    os.remove(inp)
    if rc != 0 or not os.path.exists(path + ".tmp"):
        sys.exit("make_beds: replicating %s failed (rc %d)" % (base, rc))
    with open(base + ".json") as f:
        stats = json.load(f)
    k = reps[0] * reps[1] * reps[2]
    stats.update(replicated_from=os.path.basename(base), replicate=list(reps),
                 atoms=stats["atoms"] * k, contacts=stats["contacts"] * k,
                 box=[stats["box"] * r for r in reps],
                 box_per_largest_diameter=[round(stats["box_per_largest_diameter"] * r, 3)
                                           for r in reps],
                 wall_s=round(time.time() - t0, 1), generated=time.strftime("%Y-%m-%d %H:%M:%S"))
    os.replace(path + ".tmp", path)
    with open(path + ".json", "w") as f:
        json.dump(stats, f, indent=1)
    return stats


def tiled(args, base, reps):
    """the bed base repeated reps times, BASE_r{NX}x{NY}x{NZ}.data, reused where it exists
    (unless --force): (its path, its statistics, whether it was made now)"""
    path = base[:-len(".data")] + "_r%dx%dx%d.data" % tuple(reps)
    if os.path.exists(path + ".json") and not args.force:
        with open(path + ".json") as f:
            return path, json.load(f), False
    return path, replicate(args, base, path, reps), True


def tile(args, reps):
    """--tile BED: BED (with BED.json) tiled by --replicate next to it; prints the path"""
    if not reps:
        sys.exit("make_beds: --tile needs --replicate NX,NY,NZ")
    if not (args.tile.endswith(".data") and os.path.isfile(args.tile)
            and os.path.isfile(args.tile + ".json")):
        sys.exit("make_beds: --tile %s: no such bed (NAME.data) with its JSON beside it" % args.tile)
    print(tiled(args, args.tile, reps)[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lmp", required=True, help="LAMMPS binary with GRANULAR and HGRID")
    ap.add_argument("--n", type=int, default=100000, help="number of spheres")
    ap.add_argument("--omega", default="100", help="comma-separated list of size ratios")
    ap.add_argument("--alpha", default="-3")
    ap.add_argument("--nu", default="0.6")
    ap.add_argument("--seed", default="5871")
    ap.add_argument("--press", default="0",
                    help="> 0: then press the bed at this pressure (units kn/d_min, nu free); name _p{press}")
    ap.add_argument("--cache", default=default_cache())
    ap.add_argument("--force", action="store_true", help="regenerate even if the bed exists")
    ap.add_argument("--var", action="append", default=[], metavar="NAME=VALUE",
                    help="extra in.jam variable (e.g. steps2=200000)")
    ap.add_argument("--path-only", action="store_true", help="print only the paths")
    ap.add_argument("--replicate", metavar="NX,NY,NZ",
                    help="then write the bed repeated NX x NY x NZ times (name _r{NX}x{NY}x{NZ}, "
                         "N times NX*NY*NZ atoms): large beds without hours of packing")
    ap.add_argument("--tile", metavar="BED",
                    help="only tile this bed (a data file with its JSON beside it, e.g. one of a "
                         "GPU kit's beds) by --replicate, next to it; prints the tiled bed's path")
    args = ap.parse_args()
    reps = [int(r) for r in args.replicate.split(",")] if args.replicate else None
    if reps and (len(reps) != 3 or min(reps) < 1):
        sys.exit("make_beds: --replicate takes three positive integers, not %s" % args.replicate)
    if args.tile:
        return tile(args, reps)
    os.makedirs(args.cache, exist_ok=True)
    for omega in args.omega.split(","):
        path = os.path.join(args.cache, bed_name(args.n, omega, args.alpha, args.nu, args.seed, args.press))
        if os.path.exists(path) and not args.force:
            what = "reused"
            try:
                with open(path + ".json") as f:
                    st = json.load(f)
            except (OSError, ValueError):
                st = {}
        else:
            what = "generated"
            st = generate(args, args.n, omega, path)
        if reps:
            path, st, made = tiled(args, path, reps)
            what = "replicated" if made else what
        if args.path_only:
            print(path)
            continue
        print(path)
        if st:
            print("  %s: wall %.1f s (%s), %s steps (%s + %s + %s%s), nu %.4f, box/largest d %s"
                  % (what, st.get("wall_s", float("nan")),
                     "replication" if "replicated_from" in st else "generation", st.get("steps"), st.get("steps_overlaps"),
                     st.get("steps_compression"), st.get("steps_relaxation"),
                     " + %s pressing" % st["steps_pressing"] if "steps_pressing" in st else "",
                     st.get("nu", float("nan")), st.get("box_per_largest_diameter", "?")))
            if "replicated_from" in st:
                print("  %d atoms: %s repeated %s" % (st["atoms"], st["replicated_from"],
                                                     " x ".join(map(str, st["replicate"]))))
            if "pressure_kn_per_dmin" in st:
                print("  virial pressure %.3e kn/d_min" % st["pressure_kn_per_dmin"])
            print("  contacts/atom %.3f (non-rattlers %.3f, rattlers %.1f %%), largest sphere d %.2f: "
                  "%d contacts (most: %d)"
                  % (st["contacts_per_atom"], st["contacts_per_nonrattler"], 100 * st["rattler_fraction"],
                     st["largest_diameter"], st["largest_contacts"], st["max_contacts"]))
            print("  overlap / smaller diameter: mean %.2e max %.2e"
                  % (st["overlap_ratio_mean"], st["overlap_ratio_max"]))
        else:
            print("  %s (no statistics file)" % what)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
