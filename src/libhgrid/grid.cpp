#include "grid.h"

#include <climits>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hgrid {

LevelGrid::LevelGrid(double cell_size, const Box &box, const std::array<double, 3> &window_lo,
                     const std::array<double, 3> &window_hi, int subdivisions) :
    dimension_(box.dimension), subdivisions_(subdivisions), size_(cell_size), lo_(box.lo),
    hi_(box.hi)
{
  if (!(cell_size > 0.0) || !std::isfinite(cell_size))
    throw std::invalid_argument("cell size must be positive and finite");
  if (subdivisions < 1) throw std::invalid_argument("subdivisions must be at least 1");
  const double edge = cell_size / subdivisions;
  const int ndim = dimension_ == 2 ? 2 : 3;
  double ncells = 1.0;
  for (int d = 0; d < 3; ++d) {
    const double length = hi_[d] - lo_[d];
    if (d >= ndim) {
      nglobal_[d] = 1;
      edge_[d] = length;
      inv_[d] = 1.0 / length;
      wlo_[d] = 0;
      wn_[d] = 1;
      continue;
    }
    const double n = std::floor(length / (edge * (1.0 + kCellSafety)));
    if (n > INT_MAX / 4) throw std::invalid_argument("too many cells in the box");
    nglobal_[d] = n < 1.0 ? 1 : static_cast<int>(n);
    edge_[d] = length / nglobal_[d];
    inv_[d] = 1.0 / edge_[d];
    // window: every cell a particle in [window_lo, window_hi] can fall into, plus the
    // k cells the same-level stencil reaches beyond it
    const double small = 1.0e-6 * length;
    const int clo = coord(d, window_lo[d] - small) - subdivisions;
    const int chi = coord(d, window_hi[d] + small) + subdivisions;
    wlo_[d] = clo;
    wn_[d] = chi - clo + 1;
    ncells *= wn_[d];
  }
  if (ncells > static_cast<double>(INT_MAX / 2))
    throw std::invalid_argument("too many cells (" + std::to_string(ncells) +
                                ") for cell size " + std::to_string(cell_size));
}

CellRange LevelGrid::search_range(const double *x, double delta) const
{
  CellRange r;
  for (int d = 0; d < 3; ++d) {
    int lo = coord(d, x[d] - delta);
    int hi = coord(d, x[d] + delta);
    if (lo < wlo_[d]) lo = wlo_[d];
    if (hi > wlo_[d] + wn_[d] - 1) hi = wlo_[d] + wn_[d] - 1;
    r.lo[d] = lo;
    r.hi[d] = hi;
  }
  return r;
}

std::vector<StencilRow> same_level_rows(const LevelGrid &grid, bool half)
{
  const int k = grid.subdivisions();
  const int kz = grid.dimension() == 2 ? 0 : k;
  const double reach2 = grid.nominal_size() * grid.nominal_size();
  // squared gap between a cell and the one |n| cells away along d
  auto gap2 = [&](int d, int n) {
    const int between = (n < 0 ? -n : n) - 1;    // whole cells between the two
    return between > 0 ? (between * grid.cell_edge(d)) * (between * grid.cell_edge(d)) : 0.0;
  };
  std::vector<StencilRow> rows;
  if (half) rows.push_back({0, 0, 0, 0});
  for (int dz = -kz; dz <= kz; ++dz)
    for (int dy = -k; dy <= k; ++dy) {
      if (half && (dz < 0 || (dz == 0 && dy < 0))) continue;
      const double left = reach2 - gap2(1, dy) - gap2(2, dz);
      if (left < 0.0) continue;
      int m = k;
      while (m > 1 && gap2(0, m) > left) --m;
      const int dx0 = (half && dz == 0 && dy == 0) ? 1 : -m;
      if (dx0 <= m) rows.push_back({dx0, m, dy, dz});
    }
  return rows;
}

}    // namespace hgrid
