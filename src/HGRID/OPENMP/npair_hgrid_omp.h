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
   -sf omp): each thread takes chunks of owned atoms in turn (dynamic schedule: rows
   of large particles cost more) and builds their rows with NPairHGrid::build_rows
   into its own page; every row holds exactly the pairs of the serial build.

   A chunk is a few large contiguous blocks of atoms per thread, not many small ones:
   atoms are sorted in space (atom_modify sort), so a thread that builds the next
   rows of its own block finds their partners' positions still in its core's cache.
   Measured at N = 1e5 on 2 threads (2-core VM), 1 -> 2 threads speed-up of the
   build with 128-atom chunks / 4 blocks per thread: 2d omega 1 1.48 / 1.77, 3d
   omega 1 1.62 / 1.78, 3d alpha -3 omega 100 1.71 / 1.74. */

template <int HALF, int NEWTON, int ATOMONLY, int TRI = 0>
class NPairHGridOmp : public NPairHGrid<HALF, NEWTON, ATOMONLY, TRI> {
 public:
  NPairHGridOmp(class LAMMPS *lmp) : NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>(lmp) {}
  void build(class NeighList *) override;

 private:
  static constexpr int BLOCKS_PER_THREAD = 4;    // chunks of owned atoms per thread
  static constexpr int MIN_CHUNK = 128;          // owned atoms a thread takes at least
  static int chunk_size(int nlocal, int nthreads);
  void build_threads(class NeighList *list, int nlocal, int chunk, long long &visited,
                     long long &checks, int &longest);
};

}    // namespace LAMMPS_NS

#endif
#endif
