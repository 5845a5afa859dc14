#include "grid.h"

#include <climits>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hgrid {

LevelGrid::LevelGrid(double cell_size, const Box &box, const std::array<double, 3> &window_lo,
                     const std::array<double, 3> &window_hi, int subdivisions) :
    subdivisions_(subdivisions)
{
  if (!(cell_size > 0.0) || !std::isfinite(cell_size))
    throw std::invalid_argument("cell size must be positive and finite");
  if (subdivisions < 1) throw std::invalid_argument("subdivisions must be at least 1");
  v_.dimension = box.dimension;
  v_.size = cell_size;
  const double edge = cell_size / subdivisions;
  const int ndim = v_.dimension == 2 ? 2 : 3;
  double ncells = 1.0;
  for (int d = 0; d < 3; ++d) {
    v_.lo[d] = box.lo[d];
    v_.hi[d] = box.hi[d];
    const double length = box.hi[d] - box.lo[d];
    if (d >= ndim) {    // 2d: one cell spanning z
      v_.nglobal[d] = 1;
      v_.edge[d] = length;
      v_.inv[d] = 1.0 / length;
      v_.wlo[d] = 0;
      v_.wn[d] = 1;
      continue;
    }
    const double n = std::floor(length / (edge * (1.0 + kCellSafety)));
    if (n > INT_MAX / 4) throw std::invalid_argument("too many cells in the box");
    v_.nglobal[d] = n < 1.0 ? 1 : static_cast<int>(n);
    v_.edge[d] = length / v_.nglobal[d];
    v_.inv[d] = 1.0 / v_.edge[d];
    // window: every cell a particle in [window_lo, window_hi] can fall into, plus the
    // k cells the same-level stencil reaches beyond it
    const double small = 1.0e-6 * length;
    const int clo = v_.coord(d, window_lo[d] - small) - subdivisions;
    const int chi = v_.coord(d, window_hi[d] + small) + subdivisions;
    v_.wlo[d] = clo;
    v_.wn[d] = chi - clo + 1;
    ncells *= v_.wn[d];
  }
  if (ncells > static_cast<double>(INT_MAX / 2))
    throw std::invalid_argument("too many cells (" + std::to_string(ncells) + ") for cell size " +
                                std::to_string(cell_size));
}

namespace {
  // does a stencil of \p kind hold the rows (dy, dz)?
  bool holds_row(StencilKind kind, int dimension, int dy, int dz)
  {
    switch (kind) {
      case StencilKind::Half:
        return dz < 0 || (dz == 0 && dy <= 0);
      case StencilKind::Planes:
        return dimension == 2 ? dy >= 0 : dz >= 0;
      default:
        return true;
    }
  }
}    // namespace

std::vector<StencilRow> stencil_rows(int dimension, int subdivisions,
                                     const std::array<double, 3> &edge, double size,
                                     StencilKind kind)
{
  const int k = subdivisions;
  const int kz = dimension == 2 ? 0 : k;
  const double reach2 = size * size;
  // squared gap between a cell and the one |n| cells away along d
  auto gap2 = [&](int d, int n) {
    const int between = (n < 0 ? -n : n) - 1;    // whole cells between the two
    return between > 0 ? (between * edge[d]) * (between * edge[d]) : 0.0;
  };
  // Half and Full: the centre cell, then the half rows (pass 0); Full also the upper ones
  // (pass 1); the centre row's dx < 0 part is a half row, its dx > 0 part an upper one
  const bool split = kind == StencilKind::Half || kind == StencilKind::Full;
  std::vector<StencilRow> rows;
  if (split) rows.push_back({0, 0, 0, 0, true});
  const auto in_pass = [&](int upper, int dy, int dz) {
    if (!split) return holds_row(kind, dimension, dy, dz);
    return (dy == 0 && dz == 0) || holds_row(StencilKind::Half, dimension, dy, dz) == !upper;
  };
  for (int upper = 0; upper <= (kind == StencilKind::Full ? 1 : 0); ++upper)
    for (int dz = -kz; dz <= kz; ++dz)
      for (int dy = -k; dy <= k; ++dy) {
        if (!in_pass(upper, dy, dz)) continue;
        const double left = reach2 - gap2(1, dy) - gap2(2, dz);
        if (left < 0.0) continue;
        int m = k;
        while (m > 1 && gap2(0, m) > left) --m;
        const bool centre_row = split && dz == 0 && dy == 0;
        const int dx0 = centre_row && upper ? 1 : -m;
        const int dx1 = centre_row && !upper ? -1 : m;
        const bool own_plane = dimension == 2 ? dy == 0 : dz == 0;
        if (dx0 <= dx1)
          rows.push_back({dx0, dx1, dy, dz, kind == StencilKind::Planes && own_plane, upper == 1});
      }
  return rows;
}

std::vector<StencilRow> same_level_rows(const LevelGrid &grid, StencilKind kind)
{
  const std::array<double, 3> edge{grid.cell_edge(0), grid.cell_edge(1), grid.cell_edge(2)};
  return stencil_rows(grid.dimension(), grid.subdivisions(), edge, grid.nominal_size(), kind);
}

int stencil_cells(const std::vector<StencilRow> &rows)
{
  int n = 0;
  for (const auto &r : rows) n += r.dx1 - r.dx0 + 1;
  return n;
}

}    // namespace hgrid
