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
#include "hgrid_planner.h"
#include "neighbor.h"
#include "update.h"

#include <algorithm>

using namespace LAMMPS_NS;

static constexpr int NVALUES = 18 + HGridPlanner::NPHASES;

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
  if (neighbor->style != Neighbor::HGRID && !skin_tuned())
    error->all(FLERR, Error::NOLASTLINE,
               "Compute hgrid requires neighbor style hgrid (or fix hgrid/tune skin auto)");
}

/* ---------------------------------------------------------------------- */

bool ComputeHGrid::skin_tuned() const
{
  const HGridPlanner *planner = HGridPlanner::find(lmp);
  return planner && planner->skin_report.active;
}

void ComputeHGrid::compute_vector()
{
  invoked_vector = update->ntimestep;
  HGridPlanner *planner = HGridPlanner::find(lmp);
  const bool grid = neighbor->style == Neighbor::HGRID;
  if (!planner || (grid && planner->plan().layout.num_levels() == 0))
    error->all(FLERR, Error::NOLASTLINE, "Compute hgrid found no neighbor list built by hgrid");

  std::fill(vector, vector + NVALUES, 0.0);
  if (grid) {
    const hgrid::Plan &plan = planner->plan();
    vector[0] = plan.layout.num_levels();
    planner->counters_per_atom(vector[1], vector[2]);
    vector[3] = plan.predicted.distance_checks;
    vector[4] = plan.predicted.cell_visits;
    vector[5] = plan.predicted.total;
    vector[6] = planner->cells_per_atom();
    vector[7] = plan.predicted.cells;
    planner->longest_thread(vector[15], vector[16], vector[17]);
    planner->phase_means(vector + 18);
  }
  // fix hgrid/tune skin auto (zero before its first advice)
  const HGridPlanner::SkinReport &r = planner->skin_report;
  vector[8] = neighbor->skin;
  vector[9] = r.optimum;
  vector[10] = r.gain;
  vector[11] = r.floor;
  vector[12] = r.steps_per_build;
  vector[13] = r.build_seconds;
  vector[14] = r.moves;
}
