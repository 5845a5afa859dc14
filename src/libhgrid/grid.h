/* hgrid: geometry of one level of a hierarchical grid on a (sub)domain.

   Cell coordinates are global: cell 0 starts at the box's lower bound and every
   periodic dimension is filled by an integer number of equal cells, so that ranks
   on both sides of a periodic boundary put a particle and its ghost image into
   consistent cells (the convention of LAMMPS' NBinStandard::coord2bin).  Each rank
   stores a window of cells that covers its subdomain plus the ghost shell.

   Mapping M(x,h) is eq. (1); the cross-level search box x_p +- delta with
   delta = (c_p + s_j)/2 is eqs. (4)-(5) with radii replaced by cutoff diameters.

   A level may split its cells into k^d sub-cells of edge >= s/k: the same-level
   search then reads the (2k+1)^d block of sub-cells within s of a particle's sub-cell
   (fewer distance checks, like the half-cutoff bins of LAMMPS' NBinStandard),
   row by row so that each row of cells is one contiguous range of particles. */

#ifndef HGRID_GRID_H
#define HGRID_GRID_H

#include <array>
#include <vector>

namespace hgrid {

/// Global box and dimension of the system.
struct Box {
  int dimension = 3;                    ///< 2 or 3; in 2d the z direction has one cell
  std::array<double, 3> lo{0, 0, 0};    ///< lower corner
  std::array<double, 3> hi{1, 1, 1};    ///< upper corner
};

/// Inclusive range of cell coordinates in each dimension.
struct CellRange {
  std::array<int, 3> lo{0, 0, 0};
  std::array<int, 3> hi{-1, -1, -1};
  [[nodiscard]] bool empty() const { return lo[0] > hi[0] || lo[1] > hi[1] || lo[2] > hi[2]; }
};

/// Relative enlargement of the nominal cell size before fitting cells into the box,
/// so that round-off never makes an actual cell smaller than its level's size.
constexpr double kCellSafety = 1.0e-10;

/// Geometry of one level: actual cell edges and the local window of cells.
class LevelGrid {
 public:
  LevelGrid() = default;

  /// \brief Cells of nominal size \p cell_size / \p subdivisions over \p box; the
  /// local window covers [window_lo, window_hi] plus \p subdivisions cells on each side.
  /// \throws std::invalid_argument for a non-positive size or a window too large for int.
  LevelGrid(double cell_size, const Box &box, const std::array<double, 3> &window_lo,
            const std::array<double, 3> &window_hi, int subdivisions = 1);

  /// Global cell coordinate of position \p x along dimension \p d (monotone in x).
  [[nodiscard]] int coord(int d, double x) const
  {
    if (d == 2 && dimension_ == 2) return 0;
    if (x >= hi_[d]) return static_cast<int>((x - hi_[d]) * inv_[d]) + nglobal_[d];
    if (x >= lo_[d]) {
      const int c = static_cast<int>((x - lo_[d]) * inv_[d]);
      return c < nglobal_[d] - 1 ? c : nglobal_[d] - 1;
    }
    return static_cast<int>((x - lo_[d]) * inv_[d]) - 1;
  }

  /// Local index of the cell holding \p x, or -1 if it lies outside the window.
  [[nodiscard]] int index_of(const double *x) const
  {
    std::array<int, 3> c{coord(0, x[0]), coord(1, x[1]), coord(2, x[2])};
    if (!in_window(c)) return -1;
    return index(c);
  }

  [[nodiscard]] bool in_window(const std::array<int, 3> &c) const
  {
    for (int d = 0; d < 3; ++d)
      if (c[d] < wlo_[d] || c[d] >= wlo_[d] + wn_[d]) return false;
    return true;
  }

  /// Local index of global cell coordinates (which must lie in the window).
  [[nodiscard]] int index(const std::array<int, 3> &c) const
  {
    return ((c[2] - wlo_[2]) * wn_[1] + (c[1] - wlo_[1])) * wn_[0] + (c[0] - wlo_[0]);
  }

  /// Offset of local indices between cell (cx,cy,cz) and (cx+dx,cy+dy,cz+dz).
  [[nodiscard]] int offset(int dx, int dy, int dz) const { return (dz * wn_[1] + dy) * wn_[0] + dx; }

  /// \brief Cells that may hold the centre of a particle within \p delta of \p x in
  /// every dimension (eqs. 4-5), clipped to the window.
  [[nodiscard]] CellRange search_range(const double *x, double delta) const;

  [[nodiscard]] int num_cells() const { return wn_[0] * wn_[1] * wn_[2]; }
  /// Level size s (largest cutoff diameter of the level), not the cell edge.
  [[nodiscard]] double nominal_size() const { return size_; }
  [[nodiscard]] int subdivisions() const { return subdivisions_; }
  [[nodiscard]] int dimension() const { return dimension_; }
  [[nodiscard]] double cell_edge(int d) const { return edge_[d]; }
  [[nodiscard]] int num_global(int d) const { return nglobal_[d]; }
  [[nodiscard]] int window_lo(int d) const { return wlo_[d]; }
  [[nodiscard]] int window_n(int d) const { return wn_[d]; }

 private:
  int dimension_ = 3;
  int subdivisions_ = 1;
  double size_ = 0.0;
  std::array<double, 3> lo_{}, hi_{}, edge_{}, inv_{};
  std::array<int, 3> nglobal_{1, 1, 1}, wlo_{0, 0, 0}, wn_{1, 1, 1};
};

/// Cells (dx0..dx1, dy, dz) relative to a particle's cell: one row, contiguous in memory.
struct StencilRow {
  int dx0, dx1, dy, dz;
  bool operator==(const StencilRow &o) const
  {
    return dx0 == o.dx0 && dx1 == o.dx1 && dy == o.dy && dz == o.dz;
  }
};

/// \brief Rows of the same-level linked-cell search of \p grid: the (2k+1)^d block of
/// cells (k = subdivisions) that can hold a particle within the level size of a
/// particle in the centre cell.  Full: all of them.  Half: the centre cell alone
/// first, then the "upper" half (dz > 0, or dz == 0 and dy > 0, or dz == dy == 0 and
/// dx > 0), so that every pair of cells is visited once.
[[nodiscard]] std::vector<StencilRow> same_level_rows(const LevelGrid &grid, bool half);

}    // namespace hgrid

#endif
