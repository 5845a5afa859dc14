/* ----------------------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#include "compute_hgrid.h"

#include "atom.h"
#include "error.h"
#include "nbin_hgrid.h"
#include "neighbor.h"
#include "npair_hgrid.h"
#include "update.h"

using namespace LAMMPS_NS;

static constexpr int NVALUES = 8;

/* ---------------------------------------------------------------------- */

ComputeHGrid::ComputeHGrid(LAMMPS *lmp, int narg, char **arg) : Compute(lmp, narg, arg)
{
  if (narg != 3) error->all(FLERR, "Illegal compute hgrid command: expected no arguments");
  vector_flag = 1;
  size_vector = NVALUES;
  extvector = 0;
  vector = new double[NVALUES];
}

ComputeHGrid::~ComputeHGrid()
{
  delete[] vector;
}

void ComputeHGrid::init()
{
  if (neighbor->style != Neighbor::HGRID)
    error->all(FLERR, Error::NOLASTLINE, "Compute hgrid requires neighbor style hgrid");
}

void ComputeHGrid::compute_vector()
{
  invoked_vector = update->ntimestep;
  // the pair style's list if hgrid builds it, else the first hgrid list
  NPairHGridBase *np = NPairHGridBase::find(lmp);
  if (!np)
    error->all(FLERR, Error::NOLASTLINE, "Compute hgrid found no neighbor list built by hgrid");
  auto *nb = dynamic_cast<NBinHGrid *>(np->nb);

  const hgrid::Cost &predicted = nb->get_predicted();
  vector[0] = nb->get_layout().num_levels();
  np->counters_per_atom(vector[1], vector[2]);
  vector[3] = predicted.distance_checks;
  vector[4] = predicted.cell_visits;
  vector[5] = predicted.total;
  double local = nb->get_cells().num_cells(), global = 0.0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, world);
  vector[6] = global / MAX(1.0, (double) atom->natoms);
  vector[7] = predicted.cells;
}
