/* hgrid: a hierarchical grid over plain arrays, as the pair search reads it.

   The levels of a layout over a box (one LevelGrid each, windows over a given
   region), their same-level stencil rows, and the particles counting-sorted into
   the cell of their level (CellLists; level of the cutoff diameter 2 r + skin,
   eq. 3).  For programs and tests without LAMMPS (the contact-method benchmark,
   the kernel test); LAMMPS' NBinHGrid and NStencilHGrid do the same with ghost
   windows and LAMMPS' atom arrays. */

#ifndef HGRID_BINNED_GRID_H
#define HGRID_BINNED_GRID_H

#include "cell_lists.h"
#include "grid.h"
#include "layout.h"
#include "pair_search.h"

#include <array>
#include <cstddef>
#include <vector>

namespace hgrid {

class BinnedGrid {
 public:
  /// \brief Cells of \p layout over \p box, each level's window covering [\p wlo, \p whi],
  /// with the same-level stencil rows of \p kind.
  BinnedGrid(const Layout &layout, const Box &box, StencilKind kind,
             const std::array<double, 3> &wlo, const std::array<double, 3> &whi);

  /// \brief Sort particles (centres \p x, radii \p r) into the cells of their levels;
  /// a particle outside its level's window is left out (cell -1).
  /// \throws std::invalid_argument if a cutoff diameter exceeds the top level.
  void bin(const std::vector<std::array<double, 3>> &x, const std::vector<double> &r, double skin);

  /// Mark the cells wholly inside [\p lo, \p hi) on every level as holding no ghost
  /// (LevelView::set_interior; by default any cell may hold ghosts).
  void set_interior(const double *lo, const double *hi)
  {
    for (LevelView &v : views_) v.set_interior(lo, hi);
  }

  /// The grid as PairSearch reads it.
  [[nodiscard]] GridView view() const;
  /// Global cell of particle \p i in the last bin(), -1 if it was left out.
  [[nodiscard]] int cell_of(int i) const { return cell_of_[i]; }
  [[nodiscard]] int num_cells() const { return cells_.num_cells(); }
  [[nodiscard]] std::size_t memory_bytes() const;

 private:
  Layout layout_;
  std::vector<LevelGrid> grids_;
  std::vector<LevelView> views_;      // of grids_, with their first global cell
  std::vector<RowOffset> rows_;       // same-level stencil rows of all levels
  std::vector<int> level_rows_{0};    // rows of level h: [level_rows_[h], level_rows_[h+1])
  std::vector<int> cell_of_;
  CellLists cells_;
};

}    // namespace hgrid

#endif
