#include "grid.h"

#include <climits>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hgrid {

LevelGrid::LevelGrid(double cell_size, const Box &box, const std::array<double, 3> &window_lo,
                     const std::array<double, 3> &window_hi) :
    dimension_(box.dimension), size_(cell_size), lo_(box.lo), hi_(box.hi)
{
  if (!(cell_size > 0.0) || !std::isfinite(cell_size))
    throw std::invalid_argument("cell size must be positive and finite");
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
    const double n = std::floor(length / (cell_size * (1.0 + kCellSafety)));
    if (n > INT_MAX / 4) throw std::invalid_argument("too many cells in the box");
    nglobal_[d] = n < 1.0 ? 1 : static_cast<int>(n);
    edge_[d] = length / nglobal_[d];
    inv_[d] = 1.0 / edge_[d];
    // window: every cell a particle in [window_lo, window_hi] can fall into, plus one
    const double small = 1.0e-6 * length;
    const int clo = coord(d, window_lo[d] - small) - 1;
    const int chi = coord(d, window_hi[d] + small) + 1;
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

std::vector<std::array<int, 3>> same_level_stencil(int dimension, bool half)
{
  const int zr = dimension == 2 ? 0 : 1;
  std::vector<std::array<int, 3>> s;
  s.push_back({0, 0, 0});
  for (int dz = -zr; dz <= zr; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        if (dx == 0 && dy == 0 && dz == 0) continue;
        const bool upper = dz > 0 || (dz == 0 && dy > 0) || (dz == 0 && dy == 0 && dx > 0);
        if (!half || upper) s.push_back({dx, dy, dz});
      }
  return s;
}

}    // namespace hgrid
