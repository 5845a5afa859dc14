/* -*- c++ -*- ----------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#ifdef NBIN_CLASS
// clang-format off
NBinStyle(hgrid,
          NBinHGrid,
          NB_HGRID);
// clang-format on
#else

#ifndef LMP_NBIN_HGRID_H
#define LMP_NBIN_HGRID_H

#include "nbin.h"

#include "libhgrid/cell_lists.h"
#include "libhgrid/grid.h"
#include "libhgrid/pair_search.h"

#include <array>
#include <vector>

namespace LAMMPS_NS {

/* Binning for "neighbor SKIN hgrid": every owned atom, and every ghost inside its
   level's window (and in the include group), is put on the level of the
   hierarchical grid whose cell fits its cutoff diameter 2*r + skin, and into that
   level's cell.  The levels come from the plan (HGridPlanner, made
   at run setup in copy_neighbor_info() and by fix hgrid/tune); this class only
   sizes each level's window of cells (setup_bins) and assigns atoms to cells
   (bin_atoms, a counting sort: libhgrid/cell_lists.h). */

class NBinHGrid : public NBin {
 public:
  NBinHGrid(class LAMMPS *);
  ~NBinHGrid() override;

  void copy_neighbor_info() override;
  void bin_atoms_setup(int) override;
  void setup_bins(int) override;
  void bin_atoms() override;
  void rebuild_due() override;
  double memory_usage() override;

  int num_levels() const { return static_cast<int>(grids.size()); }
  const hgrid::LevelGrid &get_grid(int level) const { return grids[level]; }
  const hgrid::CellLists &get_cells() const { return cells; }
  // the binned grid for the pair search, without stencil rows (NStencilHGrid adds them)
  hgrid::GridView view() const;

  int *atom2cell;    // global cell (CellLists numbering) of each atom, -1 if not binned
  // its lists are built by the CPU classes' search (false: by the Kokkos kernels,
  // NBinHGridKokkos on a device or with neighbor hgrid kk/host kernels)
  virtual bool cpu_builds() const { return true; }

 protected:
  class HGridPlanner *planner;
  std::vector<hgrid::LevelGrid> grids;
  std::vector<hgrid::LevelView> views;    // of grids, with their first global cell
  hgrid::CellLists cells;
  // what bin_atoms() finds in its atoms besides their cells, per thread
  struct Scan {
    double lo[3], hi[3];      // the extent of the owned atoms
    int outgrown, outside;    // the last atom above the top level, owned one off its window
    static Scan none();
    void merge(const Scan &other);
  };
  std::vector<Scan> scans;
  Scan bin_share(int first, int last);

  void window(double reach, std::array<double, 3> &lo, std::array<double, 3> &hi) const;
  [[noreturn]] void exceeds_top_level(double radius) const;
};

}    // namespace LAMMPS_NS

#endif
#endif
