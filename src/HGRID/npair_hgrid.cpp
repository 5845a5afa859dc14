/* ----------------------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#include "npair_hgrid.h"

#include "atom.h"
#include "atom_vec.h"
#include "domain.h"
#include "error.h"
#include "force.h"
#include "molecule.h"
#include "my_page.h"
#include "nbin_hgrid.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "nstencil_hgrid.h"
#include "pair.h"
#include "platform.h"

using namespace LAMMPS_NS;

/* ---------------------------------------------------------------------- */

NPairHGridBase *NPairHGridBase::find(LAMMPS *lmp)
{
  Pair *pair = lmp->force->pair;
  if (pair && pair->list) {
    auto *np = dynamic_cast<NPairHGridBase *>(pair->list->np);
    if (np) return np;
  }
  for (int i = 0; i < lmp->neighbor->nlist; i++) {
    auto *np = dynamic_cast<NPairHGridBase *>(lmp->neighbor->lists[i]->np);
    if (np) return np;
  }
  return nullptr;
}

void NPairHGridBase::counters_per_atom(double &checks, double &visits)
{
  double local[2] = {(double) counters.distance_checks, (double) counters.cells_visited};
  double global[2];
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_SUM, world);
  const double natoms = MAX(1.0, (double) atom->natoms);
  checks = global[0] / natoms;
  visits = global[1] / natoms;
}

/* ----------------------------------------------------------------------
   get the hgrid bins and stencil once per build setup (checked casts)
------------------------------------------------------------------------- */

void NPairHGridBase::copy_bin_info()
{
  NPair::copy_bin_info();
  hbin = dynamic_cast<NBinHGrid *>(nb);
  if (!hbin) error->all(FLERR, Error::NOLASTLINE, "Neighbor hgrid pair build requires hgrid bins");
}

void NPairHGridBase::copy_stencil_info()
{
  NPair::copy_stencil_info();
  hstencil = dynamic_cast<NStencilHGrid *>(ns);
  if (!hstencil)
    error->all(FLERR, Error::NOLASTLINE, "Neighbor hgrid pair build requires an hgrid stencil");
}

/* ----------------------------------------------------------------------
   Granular size lists from a hierarchical grid.  Every owned atom i on level h:
     same level: linked-cell search of the stencil rows around its cell
       (half stencil + coordinate tie-break for newton on, as NPairBin)
     other levels l: all cells within delta = (c_i + s_l)/2 of x_i, c_i = 2 r_i + skin
       (eqs. 4-5): no atom of level l outside that box can be within r_i + r_j + skin
   Which levels an atom searches:
     Full:           all levels, all atoms
     Half + Newton:  Top-Down: l < h only; Bottom-Up: l > h only;
                     every pair is stored exactly once by the owner of the
                     searching (larger / smaller) atom
     Half + Newtoff: the primary direction for all atoms plus the other direction
                     for ghost atoms only, so owned/owned pairs are stored once and
                     owned/ghost pairs by both owners (as NPairBin)
   The history bit is set exactly as in NPairBin (touching now: rsq < radsum^2).
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY>
void NPairHGrid<HALF, NEWTON, ATOMONLY>::build(NeighList *list)
{
  int i, j, n, itype, imol, iatom, moltemplate;
  tagint tagprev;
  double xtmp, ytmp, ztmp;
  int *neighptr;

  double **x = atom->x;
  double *radius = atom->radius;
  int *type = atom->type;
  int *mask = atom->mask;
  tagint *tag = atom->tag;
  tagint *molecule = atom->molecule;
  tagint **special = atom->special;
  int **nspecial = atom->nspecial;
  int nlocal = atom->nlocal;
  if (includegroup) nlocal = atom->nfirst;

  int *molindex = atom->molindex;
  int *molatom = atom->molatom;
  Molecule **onemols = atom->avec->onemols;
  moltemplate = (!ATOMONLY && molecular == Atom::TEMPLATE) ? 1 : 0;

  const int history = list->history;
  const int mask_history = 1 << HISTBITS;

  int *ilist = list->ilist;
  int *numneigh = list->numneigh;
  int **firstneigh = list->firstneigh;
  MyPage<int> *ipage = list->ipage;

  const hgrid::Layout &layout = hbin->get_layout();
  const hgrid::CellLists &cells = hbin->get_cells();
  const int *slots = cells.particles();
  const int *atom2cell = hbin->atom2cell;
  const int nlevels = layout.num_levels();
  const bool topdown = (layout.search == hgrid::Search::TopDown);
  bigint ncells_visited = 0, ndistance_checks = 0;
  const double start_time = platform::walltime();

  // distance test of pair (i,j) and storage with history and special bits

  auto consider = [&](int j) {
    if (exclude && exclusion(i, j, itype, type[j], mask, molecule)) return;
    ndistance_checks++;
    const double delx = xtmp - x[j][0];
    const double dely = ytmp - x[j][1];
    const double delz = ztmp - x[j][2];
    const double rsq = delx * delx + dely * dely + delz * delz;
    const double radsum = radius[i] + radius[j];
    const double cut = radsum + skin;
    if (rsq > cut * cut) return;

    int jh = j;
    if (history && rsq < radsum * radsum) jh = jh ^ mask_history;
    if (ATOMONLY || molecular == Atom::ATOMIC) {
      neighptr[n++] = jh;
      return;
    }
    int which;
    if (!moltemplate)
      which = find_special(special[i], nspecial[i], tag[j]);
    else if ((imol >= 0) && onemols[imol]->special)
      which = find_special(onemols[imol]->special[iatom], onemols[imol]->nspecial[iatom],
                           tag[j] - tagprev);
    else
      which = 0;
    if (which == 0)
      neighptr[n++] = jh;
    else if (domain->minimum_image_check(delx, dely, delz))
      neighptr[n++] = jh;
    else if (which > 0)
      neighptr[n++] = jh ^ (which << SBBITS);
  };

  int inum = 0;
  ipage->reset();

  for (i = 0; i < nlocal; i++) {
    n = 0;
    neighptr = ipage->vget();
    itype = type[i];
    xtmp = x[i][0];
    ytmp = x[i][1];
    ztmp = x[i][2];
    if (moltemplate) {
      imol = molindex[i];
      iatom = molatom[i];
      tagprev = tag[i] - iatom - 1;
    }

    // same level: linked cells, one contiguous slot range per stencil row

    const int icell = atom2cell[i];
    const int ilevel = cells.level_of_cell(icell);
    const auto &rows = hstencil->level_rows[ilevel];
    const int nrows = rows.size();
    for (int k = 0; k < nrows; k++) {
      const int c0 = icell + rows[k].offset;
      const int e = cells.end(c0 + rows[k].ncells - 1);
      ncells_visited += rows[k].ncells;
      for (int s = cells.begin(c0); s < e; s++) {
        j = slots[s];
        if (!HALF) {
          if (j == i) continue;
        } else if (!NEWTON) {
          if (j <= i) continue;
        } else if (k == 0) {
          // i's own cell: owned atoms after i, ghosts "above and to the right" of i
          if (j < nlocal) {
            if (j <= i) continue;
          } else {
            if (x[j][2] < ztmp) continue;
            if (x[j][2] == ztmp) {
              if (x[j][1] < ytmp) continue;
              if (x[j][1] == ytmp && x[j][0] < xtmp) continue;
            }
          }
        }
        consider(j);
      }
    }

    // other levels: cells of the search box, one contiguous slot range per row

    const double cutdiam = 2.0 * radius[i] + skin;
    for (int l = 0; l < nlevels; l++) {
      if (l == ilevel) continue;
      bool ghost_only = false;
      if (HALF) {
        const bool primary = topdown ? (l < ilevel) : (l > ilevel);
        if (!primary) {
          if (NEWTON) continue;
          ghost_only = true;
        }
      }
      const hgrid::LevelGrid &grid = hbin->get_grid(l);
      const hgrid::CellRange r = grid.search_range(x[i], 0.5 * (cutdiam + layout.cell_sizes[l]));
      if (r.empty()) continue;
      const int rowlength = r.hi[0] - r.lo[0];
      for (int cz = r.lo[2]; cz <= r.hi[2]; cz++)
        for (int cy = r.lo[1]; cy <= r.hi[1]; cy++) {
          const int c0 = cells.global_cell(l, grid.index({r.lo[0], cy, cz}));
          const int e = cells.end(c0 + rowlength);
          ncells_visited += rowlength + 1;
          for (int s = cells.begin(c0); s < e; s++) {
            j = slots[s];
            if (ghost_only && j < nlocal) continue;
            consider(j);
          }
        }
    }

    ilist[inum++] = i;
    firstneigh[i] = neighptr;
    numneigh[i] = n;
    ipage->vgot(n);
    if (ipage->status())
      error->one(FLERR, Error::NOLASTLINE,
                 "Neighbor list overflow, boost neigh_modify one" + utils::errorurl(36));
  }

  list->inum = inum;
  if (!HALF) list->gnum = 0;
  counters.cells_visited = ncells_visited;
  counters.distance_checks = ndistance_checks;
  counters.build_time = platform::walltime() - start_time;
}

namespace LAMMPS_NS {
template class NPairHGrid<1, 1, 0>;
template class NPairHGrid<1, 0, 0>;
template class NPairHGrid<0, 1, 0>;
template class NPairHGrid<1, 1, 1>;
template class NPairHGrid<1, 0, 1>;
template class NPairHGrid<0, 1, 1>;
}    // namespace LAMMPS_NS
