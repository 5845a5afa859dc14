/* ----------------------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#include "npair_hgrid_omp.h"

using namespace LAMMPS_NS;

// the /omp styles' classes (NPairHGrid::build() runs on the package's threads)

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
