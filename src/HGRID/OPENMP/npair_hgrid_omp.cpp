/* ----------------------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#include "npair_hgrid_omp.h"

#include "neigh_list.h"
#include "platform.h"

using namespace LAMMPS_NS;

/* ----------------------------------------------------------------------
   the rows by the package's threads; counters and time go to the planner
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
void NPairHGridOmp<HALF, NEWTON, ATOMONLY, TRI>::build(NeighList *list)
{
  const double start_time = platform::walltime();
  const hgrid::SearchCounters count = this->build_threaded(list);
  this->finish_build(list, count, start_time);
}

namespace LAMMPS_NS {
template class NPairHGridOmp<1, 1, 0>;
template class NPairHGridOmp<1, 0, 0>;
template class NPairHGridOmp<0, 1, 0>;
template class NPairHGridOmp<1, 1, 1>;
template class NPairHGridOmp<1, 0, 1>;
template class NPairHGridOmp<0, 1, 1>;
template class NPairHGridOmp<1, 1, 0, 1>;
template class NPairHGridOmp<1, 1, 1, 1>;
}    // namespace LAMMPS_NS
