"""The LAMMPS Python module with hgrid (src/python/install_python.sh): from Python, one
polydisperse granular system (f(d) ~ d^-3, d in [1, 20], 3000 spheres, gran/hooke/history)
is built under neighbor hgrid and under neighbor bin, and the pair list hgrid built is read
through lmp.numpy.get_neighlist: it must hold the same pairs (by atom IDs) as bin's, and
compute hgrid must report the grid's levels.
  usage: VENV/bin/python check_python_module.py
"""
import sys

from lammps import LMP_STYLE_GLOBAL, LMP_TYPE_VECTOR, lammps

SYSTEM = """
units lj
atom_style sphere
boundary p p p
comm_modify vel yes
region box block 0 40 0 40 0 40
create_box 1 box
create_atoms 1 random 3000 4711 NULL
variable d atom (1+random(0,1,4711)*(20^-2-1))^(-1/2)
set group all diameter v_d
set group all density 1.0
pair_style gran/hooke/history 1000.0 NULL 50.0 NULL 0.5 0
pair_coeff * *
neighbor 0.1 {style}
neigh_modify every 1 delay 0 check no
fix 1 all nve/sphere
"""


def pairs(style):
    """the pairs of the granular pair style's list, as (smaller ID, larger ID)"""
    lmp = lammps(cmdargs=["-nocite", "-screen", "none", "-log", "none"])
    lmp.commands_string(SYSTEM.format(style=style))
    if style == "hgrid":
        lmp.command("compute hg all hgrid")
        lmp.command("thermo_style custom step c_hg[1]")
    lmp.command("run 0")
    ids = lmp.numpy.extract_atom("id")
    nlist = lmp.numpy.get_neighlist(lmp.find_pair_neighlist("gran/hooke/history"))
    found = set()
    for k in range(len(nlist)):
        i, neighbors = nlist.get(k)
        for j in neighbors:
            a, b = int(ids[i]), int(ids[j])
            found.add((min(a, b), max(a, b)))
    levels = lmp.numpy.extract_compute("hg", LMP_STYLE_GLOBAL, LMP_TYPE_VECTOR)[0] if style == "hgrid" else 0
    lmp.close()
    return found, levels


hgrid, levels = pairs("hgrid")
binned, _ = pairs("bin")
print("python module: hgrid %d pairs on %d levels, bin %d pairs" % (len(hgrid), levels, len(binned)))
if not hgrid or hgrid != binned:
    print("FAIL: hgrid misses %d of bin's pairs and has %d bin lacks"
          % (len(binned - hgrid), len(hgrid - binned)))
    sys.exit(1)
if levels < 2:
    print("FAIL: compute hgrid reports %g levels for size ratio 20" % levels)
    sys.exit(1)
print("python module: hgrid's list read from Python equals bin's")
