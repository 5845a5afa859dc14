/* -*- c++ -*- ----------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#ifdef NPAIR_CLASS
// clang-format off
using NPairHalfSizeHGridNewton = NPairHGrid<1, 1, 0>;
NPairStyle(half/size/hgrid/newton,
           NPairHalfSizeHGridNewton,
           NP_HALF | NP_SIZE | NP_HGRID | NP_MOLONLY | NP_NEWTON | NP_ORTHO | NP_TRI);

using NPairHalfSizeHGridNewtoff = NPairHGrid<1, 0, 0>;
NPairStyle(half/size/hgrid/newtoff,
           NPairHalfSizeHGridNewtoff,
           NP_HALF | NP_SIZE | NP_HGRID | NP_MOLONLY | NP_NEWTOFF | NP_ORTHO | NP_TRI);

using NPairFullSizeHGrid = NPairHGrid<0, 1, 0>;
NPairStyle(full/size/hgrid,
           NPairFullSizeHGrid,
           NP_FULL | NP_SIZE | NP_HGRID | NP_MOLONLY | NP_NEWTON | NP_NEWTOFF | NP_ORTHO | NP_TRI);

using NPairHalfSizeHGridNewtonAtomonly = NPairHGrid<1, 1, 1>;
NPairStyle(half/size/hgrid/newton/atomonly,
           NPairHalfSizeHGridNewtonAtomonly,
           NP_HALF | NP_SIZE | NP_HGRID | NP_ATOMONLY | NP_NEWTON | NP_ORTHO | NP_TRI);

using NPairHalfSizeHGridNewtoffAtomonly = NPairHGrid<1, 0, 1>;
NPairStyle(half/size/hgrid/newtoff/atomonly,
           NPairHalfSizeHGridNewtoffAtomonly,
           NP_HALF | NP_SIZE | NP_HGRID | NP_ATOMONLY | NP_NEWTOFF | NP_ORTHO | NP_TRI);

using NPairFullSizeHGridAtomonly = NPairHGrid<0, 1, 1>;
NPairStyle(full/size/hgrid/atomonly,
           NPairFullSizeHGridAtomonly,
           NP_FULL | NP_SIZE | NP_HGRID | NP_ATOMONLY | NP_NEWTON | NP_NEWTOFF | NP_ORTHO | NP_TRI);
// clang-format on
#else

#ifndef LMP_NPAIR_HGRID_H
#define LMP_NPAIR_HGRID_H

#include "npair.h"

namespace LAMMPS_NS {

/* Counters of the last build, for comparison with the cost model. */
struct HGridBuildCounters {
  bigint cells_visited = 0;      // cells whose particle range was read (T^ca)
  bigint distance_checks = 0;    // pairs whose distance was computed (T^cd)
  double build_time = 0.0;       // wall time of the pair build [s]
};

class NPairHGridBase : public NPair {
 public:
  NPairHGridBase(class LAMMPS *lmp) : NPair(lmp), hbin(nullptr), hstencil(nullptr) {}
  HGridBuildCounters counters;    // of the last build on this rank

  // the hgrid build of the pair style's list, else of the first list hgrid builds
  static NPairHGridBase *find(class LAMMPS *lmp);
  // distance checks and cell visits of the last build per atom, over all ranks (collective)
  void counters_per_atom(double &checks, double &visits);
  // true if larger atoms also search smaller levels whatever the search direction
  virtual bool searches_both_directions() const = 0;

 protected:
  class NBinHGrid *hbin;
  class NStencilHGrid *hstencil;
  void copy_bin_info() override;
  void copy_stencil_info() override;
};

template <int HALF, int NEWTON, int ATOMONLY> class NPairHGrid : public NPairHGridBase {
 public:
  NPairHGrid(class LAMMPS *lmp) : NPairHGridBase(lmp) {}
  void build(class NeighList *) override;
  // full lists search all levels; newton-off half lists the other direction for ghosts
  bool searches_both_directions() const override { return !HALF || !NEWTON; }
};

}    // namespace LAMMPS_NS

#endif
#endif
