/* -*- c++ -*- ----------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#ifdef COMPUTE_CLASS
// clang-format off
ComputeStyle(hgrid,ComputeHGrid);
// clang-format on
#else

#ifndef LMP_COMPUTE_HGRID_H
#define LMP_COMPUTE_HGRID_H

#include "compute.h"

namespace LAMMPS_NS {

/* Global vector describing the hierarchical grid of "neighbor ... hgrid" and its
   last list build, next to the cost model's prediction for the same layout:
     1 number of levels, 2 distance checks and 3 cell visits per owned atom in the
     last build of the pair style's list, 4-6 predicted distance checks, cell visits
     and work T/N = checks + K visits + K_s cells per particle (eqs. 23-27 and the
     storage term), 7 cells stored (all ranks, ghost windows included) per atom,
     8 predicted cells per particle (box only); zero under neighbor style bin.
   With fix hgrid/tune skin auto: 9 skin, 10 optimal skin of the last advice, 11 its
   predicted gain (share of the step time), 12 smallest safe skin, 13 steps per
   rebuild and 14 seconds a rebuild adds to a step in the window it was advised on, 15 skin changes
   (9 is the skin also without the fix; 10-15 are zero before the first advice) */

class ComputeHGrid : public Compute {
 public:
  ComputeHGrid(class LAMMPS *, int, char **);
  ~ComputeHGrid() override;
  void init() override;
  void compute_vector() override;

 private:
  bool skin_tuned() const;
};

}    // namespace LAMMPS_NS

#endif
#endif
