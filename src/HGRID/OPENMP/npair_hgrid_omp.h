/* -*- c++ -*- ----------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#ifdef NPAIR_CLASS
// clang-format off
using NPairHalfSizeHGridNewtonOmp = NPairHGridOmp<1, 1, 0>;
NPairStyle(half/size/hgrid/newton/omp,
           NPairHalfSizeHGridNewtonOmp,
           NP_HALF | NP_SIZE | NP_HGRID | NP_OMP | NP_MOLONLY | NP_NEWTON | NP_ORTHO);

using NPairHalfSizeHGridNewtoffOmp = NPairHGridOmp<1, 0, 0>;
NPairStyle(half/size/hgrid/newtoff/omp,
           NPairHalfSizeHGridNewtoffOmp,
           NP_HALF | NP_SIZE | NP_HGRID | NP_OMP | NP_MOLONLY | NP_NEWTOFF | NP_ORTHO | NP_TRI);

using NPairFullSizeHGridOmp = NPairHGridOmp<0, 1, 0>;
NPairStyle(full/size/hgrid/omp,
           NPairFullSizeHGridOmp,
           NP_FULL | NP_SIZE | NP_HGRID | NP_OMP | NP_MOLONLY | NP_NEWTON | NP_NEWTOFF |
           NP_ORTHO | NP_TRI);

using NPairHalfSizeHGridNewtonOmpAtomonly = NPairHGridOmp<1, 1, 1>;
NPairStyle(half/size/hgrid/newton/omp/atomonly,
           NPairHalfSizeHGridNewtonOmpAtomonly,
           NP_HALF | NP_SIZE | NP_HGRID | NP_OMP | NP_ATOMONLY | NP_NEWTON | NP_ORTHO);

using NPairHalfSizeHGridNewtoffOmpAtomonly = NPairHGridOmp<1, 0, 1>;
NPairStyle(half/size/hgrid/newtoff/omp/atomonly,
           NPairHalfSizeHGridNewtoffOmpAtomonly,
           NP_HALF | NP_SIZE | NP_HGRID | NP_OMP | NP_ATOMONLY | NP_NEWTOFF | NP_ORTHO | NP_TRI);

using NPairFullSizeHGridOmpAtomonly = NPairHGridOmp<0, 1, 1>;
NPairStyle(full/size/hgrid/omp/atomonly,
           NPairFullSizeHGridOmpAtomonly,
           NP_FULL | NP_SIZE | NP_HGRID | NP_OMP | NP_ATOMONLY | NP_NEWTON | NP_NEWTOFF |
           NP_ORTHO | NP_TRI);

using NPairHalfSizeHGridNewtonTriOmp = NPairHGridOmp<1, 1, 0, 1>;
NPairStyle(half/size/hgrid/newton/tri/omp,
           NPairHalfSizeHGridNewtonTriOmp,
           NP_HALF | NP_SIZE | NP_HGRID | NP_OMP | NP_MOLONLY | NP_NEWTON | NP_TRI);

using NPairHalfSizeHGridNewtonTriOmpAtomonly = NPairHGridOmp<1, 1, 1, 1>;
NPairStyle(half/size/hgrid/newton/tri/omp/atomonly,
           NPairHalfSizeHGridNewtonTriOmpAtomonly,
           NP_HALF | NP_SIZE | NP_HGRID | NP_OMP | NP_ATOMONLY | NP_NEWTON | NP_TRI);
// clang-format on
#else

#ifndef LMP_NPAIR_HGRID_OMP_H
#define LMP_NPAIR_HGRID_OMP_H

#include "npair_hgrid.h"

namespace LAMMPS_NS {

/* The lists of NPairHGrid built by the threads of the OPENMP package (package omp,
   -sf omp): NPairHGrid::build() runs on comm->nthreads threads, each taking chunks of
   owned atoms in turn into its own page (build_threaded), so this class only names
   the /omp styles; every list holds exactly the pairs of the serial build. */

template <int HALF, int NEWTON, int ATOMONLY, int TRI = 0>
class NPairHGridOmp : public NPairHGrid<HALF, NEWTON, ATOMONLY, TRI> {
 public:
  NPairHGridOmp(class LAMMPS *lmp) : NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>(lmp) {}
};

}    // namespace LAMMPS_NS

#endif
#endif
