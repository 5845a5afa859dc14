/* -*- c++ -*- ----------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#ifdef NSTENCIL_CLASS
// clang-format off
using NStencilHalfHGrid = NStencilHGridVariant<1>;
NStencilStyle(half/hgrid,
              NStencilHalfHGrid,
              NS_HALF | NS_HGRID | NS_2D | NS_3D | NS_ORTHO | NS_TRI);

using NStencilFullHGrid = NStencilHGridVariant<0>;
NStencilStyle(full/hgrid,
              NStencilFullHGrid,
              NS_FULL | NS_HGRID | NS_2D | NS_3D | NS_ORTHO | NS_TRI);
// clang-format on
#else

#ifndef LMP_NSTENCIL_HGRID_H
#define LMP_NSTENCIL_HGRID_H

#include "nstencil.h"

#include "libhgrid/pair_search.h"

#include <vector>

namespace LAMMPS_NS {

/* Same-level stencils of a hierarchical grid: for each level the rows of the
   linked-cell block (3^d cells, or (2k+1)^d sub-cells pruned by distance, see
   hgrid::same_level_rows), full, or for half lists with newton on the cell itself
   followed by its lower half, or in triclinic boxes the cell's z plane (y row in 2d)
   followed by the planes above, as LAMMPS' triclinic half stencils.  The full
   stencil (full lists, and half lists with newton off, which LAMMPS gives a full
   stencil) is the half one followed by the other half's rows, marked upper: a
   newton-off search reads owned partners in the half only and skips the upper rows
   where no ghost is within reach.  Each row is one contiguous range of particles.
   Cross-level searches need no stencil: their cell ranges follow from each
   particle's search box (hgrid::PairSearch). */

class NStencilHGrid : public NStencil {
 public:
  NStencilHGrid(class LAMMPS *, int half);
  void create_setup() override;
  void create() override;

  // the rows of level h: rows[level_rows[h]] .. rows[level_rows[h+1]-1]
  std::vector<hgrid::RowOffset> rows;
  std::vector<int> level_rows;
  const int half;
};

template <int HALF> class NStencilHGridVariant : public NStencilHGrid {
 public:
  NStencilHGridVariant(class LAMMPS *lmp) : NStencilHGrid(lmp, HALF) {}
};

}    // namespace LAMMPS_NS

#endif
#endif
