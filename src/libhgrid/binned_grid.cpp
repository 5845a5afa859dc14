#include "binned_grid.h"

#include <stdexcept>

namespace hgrid {

BinnedGrid::BinnedGrid(const Layout &layout, const Box &box, StencilKind kind,
                       const std::array<double, 3> &wlo, const std::array<double, 3> &whi) :
    layout_(layout)
{
  std::vector<int> ncells;
  int first = 0;
  for (double size : layout.cell_sizes) {
    grids_.emplace_back(size, box, wlo, whi, subdivisions_of(layout));
    const LevelGrid &grid = grids_.back();
    views_.push_back(grid.view(first));
    for (const StencilRow &r : same_level_rows(grid, kind)) rows_.push_back(row_offset(grid, r));
    level_rows_.push_back(static_cast<int>(rows_.size()));
    ncells.push_back(grid.num_cells());
    first += ncells.back();
  }
  cells_.set_levels(ncells);
}

void BinnedGrid::bin(const std::vector<std::array<double, 3>> &x, const std::vector<double> &r,
                     double skin)
{
  const int n = static_cast<int>(r.size());
  cell_of_.resize(n);
  for (int i = 0; i < n; ++i) {
    const int level = level_of(layout_, 2.0 * r[i] + skin);
    if (level < 0) throw std::invalid_argument("a cutoff diameter exceeds the top level");
    const int cell = views_[level].index_of(x[i].data());
    cell_of_[i] = cell >= 0 ? views_[level].first_cell + cell : -1;
  }
  cells_.build(n, cell_of_.data());
  for (std::size_t h = 0; h < views_.size(); ++h)
    set_row_density(views_[h], grids_[h].subdivisions(), cells_.level_count(static_cast<int>(h)));
}

GridView BinnedGrid::view() const
{
  GridView g;
  g.nlevels = layout_.num_levels();
  g.topdown = layout_.search == Search::TopDown;
  g.levels = views_.data();
  g.level_rows = level_rows_.data();
  g.rows = rows_.data();
  g.cell_start = cells_.starts();
  g.slots = cells_.particles();
  return g;
}

std::size_t BinnedGrid::memory_bytes() const
{
  return cells_.memory_bytes() + sizeof(int) * (cell_of_.capacity() + level_rows_.capacity()) +
      sizeof(LevelView) * views_.capacity() + sizeof(RowOffset) * rows_.capacity() +
      sizeof(LevelGrid) * grids_.capacity();
}

}    // namespace hgrid
