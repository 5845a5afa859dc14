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
#include "hgrid_planner.h"
#include "molecule.h"
#include "my_page.h"
#include "nbin_hgrid.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "nstencil_hgrid.h"
#include "platform.h"

using namespace LAMMPS_NS;

namespace {
// positions, radii and IDs of LAMMPS atoms, as hgrid::PairSearch reads them
struct AtomArrays {
  double *const *x;
  const double *r;
  const tagint *t;
  double tolerance;    // images of one atom within it count as equal coordinates
  double pos(int j, int d) const { return x[j][d]; }
  double radius(int j) const { return r[j]; }
  tagint tag(int j) const { return t[j]; }
  double image_tolerance() const { return tolerance; }
};
}    // namespace

/* ---------------------------------------------------------------------- */

NPairHGridBase::NPairHGridBase(LAMMPS *lmp) :
    NPair(lmp), hbin(nullptr), hstencil(nullptr), planner(HGridPlanner::get(lmp))
{
}

/* ----------------------------------------------------------------------
   run setup: the bins need a wider ghost window, and ghosts a wider cutoff, if
   this list searches both ways
------------------------------------------------------------------------- */

void NPairHGridBase::copy_neighbor_info()
{
  NPair::copy_neighbor_info();
  planner->note_pair_build(searches_both_directions());
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

/* ---------------------------------------------------------------------- */

NPairHGridBase::Row NPairHGridBase::row_of(int i, int history) const
{
  Row row{i, atom->type[i], -1, 0, history, 0};
  if (molecular == Atom::TEMPLATE) {
    row.imol = atom->molindex[i];
    row.iatom = atom->molatom[i];
    row.tagprev = atom->tag[i] - row.iatom - 1;
  }
  return row;
}

/* ----------------------------------------------------------------------
   the list entry of pair (i,j) within the cutoff, false if it is not stored:
   type/group/molecule exclusions, the history bit of touching pairs
   (rsq < radsum^2) and special-bond bits, as in NPairBin
------------------------------------------------------------------------- */

template <int ATOMONLY>
bool NPairHGridBase::neighbor_word(const Row &row, int j, double delx, double dely, double delz,
                                   double rsq, double radsum, int &word) const
{
  const int i = row.i;
  if (exclude && exclusion(i, j, row.itype, atom->type[j], atom->mask, atom->molecule))
    return false;
  word = j;
  if (row.history && rsq < radsum * radsum) word ^= (1 << HISTBITS);
  if (ATOMONLY || molecular == Atom::ATOMIC) return true;

  int which = 0;
  if (molecular != Atom::TEMPLATE)
    which = find_special(atom->special[i], atom->nspecial[i], atom->tag[j]);
  else if (row.imol >= 0 && atom->avec->onemols[row.imol]->special) {
    Molecule *mol = atom->avec->onemols[row.imol];
    which =
        find_special(mol->special[row.iatom], mol->nspecial[row.iatom], atom->tag[j] - row.tagprev);
  }
  if (which == 0 || domain->minimum_image_check(delx, dely, delz)) return true;
  if (which < 0) return false;
  word ^= which << SBBITS;
  return true;
}

/* ----------------------------------------------------------------------
   one row per owned atom (hgrid::PairSearch decides which cells and levels it
   searches for this list variant); counters and time go to the planner
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
void NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::build(NeighList *list)
{
  const double start_time = platform::walltime();
  const int nlocal = owned_atoms();
  hgrid::SearchCounters count;
  list->ipage[0].reset();
  build_rows(list, 0, nlocal, list->ipage[0], count);
  list->inum = nlocal;
  if (!HALF) list->gnum = 0;
  if (!list->occasional) planner->report_build(count, platform::walltime() - start_time);
}

/* ---------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
int NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::owned_atoms() const
{
  return includegroup ? atom->nfirst : atom->nlocal;
}

/* ----------------------------------------------------------------------
   rows of the owned atoms [ifrom, ito), each at ilist[i] = i, appended to ipage
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
void NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::build_rows(NeighList *list, int ifrom, int ito,
                                                         MyPage<int> &ipage,
                                                         hgrid::SearchCounters &count)
{
  const int nlocal = owned_atoms();
  hgrid::GridView grid = hbin->view();
  grid.level_rows = hstencil->level_rows.data();
  grid.rows = hstencil->rows.data();
  const AtomArrays atoms{atom->x, atom->radius, atom->tag, IMAGE_TOLERANCE * force->angstrom};
  const int *atom2cell = hbin->atom2cell;
  const double skin = planner->skin();

  for (int i = ifrom; i < ito; i++) {
    int n = 0;
    int *neighptr = ipage.vget();
    const Row row = row_of(i, list->history);
    auto visit = [&](int j, double delx, double dely, double delz, double rsq, double radsum) {
      int word;
      if (neighbor_word<ATOMONLY>(row, j, delx, dely, delz, rsq, radsum, word))
        neighptr[n++] = word;
    };
    hgrid::PairSearch<HALF, NEWTON, TRI>::neighbors(grid, atoms, i, atom2cell[i], nlocal, skin,
                                                    count, visit);
    list->ilist[i] = i;
    list->firstneigh[i] = neighptr;
    list->numneigh[i] = n;
    ipage.vgot(n);
    if (ipage.status())
      error->one(FLERR, Error::NOLASTLINE,
                 "Neighbor list overflow, boost neigh_modify one" + utils::errorurl(36));
  }
}

namespace LAMMPS_NS {
template class NPairHGrid<1, 1, 0>;
template class NPairHGrid<1, 0, 0>;
template class NPairHGrid<0, 1, 0>;
template class NPairHGrid<1, 1, 1>;
template class NPairHGrid<1, 0, 1>;
template class NPairHGrid<0, 1, 1>;
template class NPairHGrid<1, 1, 0, 1>;
template class NPairHGrid<1, 1, 1, 1>;
}    // namespace LAMMPS_NS
