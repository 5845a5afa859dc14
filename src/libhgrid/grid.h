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

#include "portability.h"

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
  int lo[3] = {0, 0, 0};
  int hi[3] = {-1, -1, -1};
  [[nodiscard]] HGRID_INLINE bool empty() const
  {
    return lo[0] > hi[0] || lo[1] > hi[1] || lo[2] > hi[2];
  }
};

/// Relative enlargement of the nominal cell size before fitting cells into the box,
/// so that round-off never makes an actual cell smaller than its level's size.
constexpr double kCellSafety = 1.0e-10;

/// \brief The cell indexing of one level as plain data: trivially copyable, so the
/// serial, OpenMP and Kokkos (host or device) builders share one copy of it.
/// Local cell indices run over the window, x fastest; first_cell is the global
/// index (CellLists numbering) of the level's local cell 0.
struct LevelView {
  static constexpr int kUnbounded = 1 << 30;
  int dimension = 3;
  int first_cell = 0;
  double size = 0.0;    ///< level size s (not the cell edge)
  double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  double edge[3] = {1, 1, 1}, inv[3] = {1, 1, 1};
  int nglobal[3] = {1, 1, 1};                   ///< cells filling the box
  int wlo[3] = {0, 0, 0}, wn[3] = {1, 1, 1};    ///< first global cell and size of the window
  /// global cells ilo..ihi lie wholly inside the owner's subdomain, so they hold no
  /// ghost particle (set_interior; empty by default: any cell may hold ghosts)
  int ilo[3] = {1, 1, 1}, ihi[3] = {0, 0, 0};
  /// global cells olo..ohi hold every owned particle (set_owned; unbounded by default)
  int olo[3] = {-kUnbounded, -kUnbounded, -kUnbounded};
  int ohi[3] = {kUnbounded, kUnbounded, kUnbounded};
  /// its same-level rows hold more than two particles on average (set_row_density)
  bool dense_rows = false;
  /// GATHER: its same-level search gathers its rows' candidates (set_row_density)
  bool gather_rows = true;

  /// Global cell coordinate of position \p x along dimension \p d (monotone in x).
  [[nodiscard]] HGRID_INLINE int coord(int d, double x) const
  {
    if (d == 2 && dimension == 2) return 0;
    if (x >= hi[d]) return static_cast<int>((x - hi[d]) * inv[d]) + nglobal[d];
    if (x >= lo[d]) {
      const int c = static_cast<int>((x - lo[d]) * inv[d]);
      return c < nglobal[d] - 1 ? c : nglobal[d] - 1;
    }
    return static_cast<int>((x - lo[d]) * inv[d]) - 1;
  }
  [[nodiscard]] HGRID_INLINE bool in_window(int cx, int cy, int cz) const
  {
    return cx >= wlo[0] && cx < wlo[0] + wn[0] && cy >= wlo[1] && cy < wlo[1] + wn[1] &&
        cz >= wlo[2] && cz < wlo[2] + wn[2];
  }
  /// Local index of global cell coordinates (which must lie in the window).
  [[nodiscard]] HGRID_INLINE int index(int cx, int cy, int cz) const
  {
    return ((cz - wlo[2]) * wn[1] + (cy - wlo[1])) * wn[0] + (cx - wlo[0]);
  }
  /// Local index of the cell holding \p x, or -1 if it lies outside the window.
  [[nodiscard]] HGRID_INLINE int index_of(const double *x) const
  {
    const int cx = coord(0, x[0]), cy = coord(1, x[1]), cz = coord(2, x[2]);
    return in_window(cx, cy, cz) ? index(cx, cy, cz) : -1;
  }
  /// Offset of local indices between cell (cx,cy,cz) and (cx+dx,cy+dy,cz+dz).
  [[nodiscard]] HGRID_INLINE int offset(int dx, int dy, int dz) const
  {
    return (dz * wn[1] + dy) * wn[0] + dx;
  }
  /// \brief Cells that may hold the centre of a particle within \p delta of \p x in
  /// every dimension (eqs. 4-5), clipped to the window.
  [[nodiscard]] HGRID_INLINE CellRange search_range(const double *x, double delta) const
  {
    CellRange r;
    for (int d = 0; d < 3; ++d) {
      const int a = coord(d, x[d] - delta), b = coord(d, x[d] + delta);
      r.lo[d] = a < wlo[d] ? wlo[d] : a;
      r.hi[d] = b > wlo[d] + wn[d] - 1 ? wlo[d] + wn[d] - 1 : b;
    }
    return r;
  }
  [[nodiscard]] HGRID_INLINE int num_cells() const { return wn[0] * wn[1] * wn[2]; }
  /// True if every cell of \p r lies wholly inside the subdomain (no ghost there).
  [[nodiscard]] HGRID_INLINE bool interior(const CellRange &r) const
  {
    return r.lo[0] >= ilo[0] && r.hi[0] <= ihi[0] && r.lo[1] >= ilo[1] && r.hi[1] <= ihi[1] &&
        r.lo[2] >= ilo[2] && r.hi[2] <= ihi[2];
  }
  /// \p r less the cells that hold no owned particle (a search for owned partners)
  [[nodiscard]] HGRID_INLINE CellRange owned_part(CellRange r) const
  {
    for (int d = 0; d < 3; ++d) {
      if (r.lo[d] < olo[d]) r.lo[d] = olo[d];
      if (r.hi[d] > ohi[d]) r.hi[d] = ohi[d];
    }
    return r;
  }
  /// Does the row of cells (\p cy, \p cz) cross the interior?
  [[nodiscard]] HGRID_INLINE bool interior_row(int cy, int cz) const
  {
    return ilo[0] <= ihi[0] && cy >= ilo[1] && cy <= ihi[1] && cz >= ilo[2] && cz <= ihi[2];
  }
  /// \brief Mark the cells wholly inside the orthogonal subdomain [\p lo, \p hi)
  /// as interior (cells of a triclinic box are left without an interior).
  HGRID_INLINE void set_interior(const double *lo, const double *hi)
  {
    for (int d = 0; d < 3; ++d) {
      ilo[d] = coord(d, lo[d]) + 1;
      ihi[d] = coord(d, hi[d]) - 1;
    }
    if (dimension == 2) ilo[2] = ihi[2] = 0;
  }
  /// \brief The owned particles lie in [\p lo, \p hi] (their extent, not the
  /// subdomain's: an occasional build between reneighborings finds atoms up to half the
  /// skin outside it); none if \p any is false.
  HGRID_INLINE void set_owned(const double *lo, const double *hi, bool any)
  {
    for (int d = 0; d < 3; ++d) {
      olo[d] = any ? coord(d, lo[d]) : kUnbounded;
      ohi[d] = any ? coord(d, hi[d]) : -kUnbounded;
    }
    if (any && dimension == 2) olo[2] = ohi[2] = 0;
  }
};

/// Geometry of one level: actual cell edges and the local window of cells.
class LevelGrid {
 public:
  LevelGrid() = default;
  /// \brief Cells of nominal size \p cell_size / \p subdivisions over \p box; the
  /// local window covers [window_lo, window_hi] plus \p subdivisions cells on each side.
  /// \throws std::invalid_argument for a non-positive size or a window too large for int.
  LevelGrid(double cell_size, const Box &box, const std::array<double, 3> &window_lo,
            const std::array<double, 3> &window_hi, int subdivisions = 1);
  /// The plain-data indexing of this level, with \p first_cell as its global offset.
  [[nodiscard]] LevelView view(int first_cell = 0) const
  {
    LevelView v = v_;
    v.first_cell = first_cell;
    return v;
  }
  [[nodiscard]] int offset(int dx, int dy, int dz) const { return v_.offset(dx, dy, dz); }
  [[nodiscard]] int num_cells() const { return v_.num_cells(); }
  /// Level size s (largest cutoff diameter of the level), not the cell edge.
  [[nodiscard]] double nominal_size() const { return v_.size; }
  [[nodiscard]] int subdivisions() const { return subdivisions_; }
  [[nodiscard]] int dimension() const { return v_.dimension; }
  [[nodiscard]] double cell_edge(int d) const { return v_.edge[d]; }
  [[nodiscard]] int num_global(int d) const { return v_.nglobal[d]; }
  [[nodiscard]] int window_lo(int d) const { return v_.wlo[d]; }
  [[nodiscard]] int window_n(int d) const { return v_.wn[d]; }

 private:
  LevelView v_;
  int subdivisions_ = 1;
};

/// Cells (dx0..dx1, dy, dz) relative to a particle's cell: one row, contiguous in memory.
/// A half list applies its same-cell tie-break (see PairSearch) to pairs of a \p tiebreak row;
/// an \p upper row of a full stencil lies outside the half stencil (half newton-off lists
/// read only ghosts there).
struct StencilRow {
  int dx0, dx1, dy, dz;
  bool tiebreak = false;
  bool upper = false;
  bool operator==(const StencilRow &o) const
  {
    return dx0 == o.dx0 && dx1 == o.dx1 && dy == o.dy && dz == o.dz && tiebreak == o.tiebreak &&
        upper == o.upper;
  }
};

/// Which cells of the same level a search reads.
enum class StencilKind {
  Full,     ///< every cell within reach: the half stencil's rows, then the others (upper)
  Half,     ///< the particle's cell (tie-break), then the lower half: each pair of cells once
  Planes    ///< triclinic boxes, whose cells match across periodic images only along z (y in
            ///< 2d), as LAMMPS' triclinic half stencils: the particle's z plane (y row) whole
            ///< (tie-break), then the planes above
};

/// \brief Rows of the same-level linked-cell search of \p grid: the (2k+1)^d block of
/// cells (k = subdivisions) that can hold a particle within the level size of a
/// particle in the centre cell.  Full: all of them, as the Half rows (the centre cell
/// a tie-break row) followed by the rows of the other half, marked upper: a half list
/// with newton off reads owned partners in the half stencil only and ghosts in every
/// row (PairSearch).  Half: the centre cell alone first, then the "lower" half (dz < 0,
/// or dz == 0 and dy < 0, or dz == dy == 0 and dx < 0), so that every pair of cells is
/// visited once.  The lower half, not LAMMPS'
/// upper one: particles are searched in their (Morton) order, so the partners in the
/// lower cells were mostly read a short while before, as particles of their own, and
/// are still cached; partners ahead are read for the first time far from the stream
/// the hardware prefetches (3d, alpha -3, omega 100: -4 to -6 % per build at 10^6,
/// unchanged at 10^5).  Planes: dz >= 0 (dy >= 0 in 2d).
[[nodiscard]] std::vector<StencilRow> same_level_rows(const LevelGrid &grid, StencilKind kind);
/// \brief The same rows for cells of edges \p edge (k = \p subdivisions per level
/// size \p size) in \p dimension dimensions; the cost model uses it with the nominal
/// edges size / k.
[[nodiscard]] std::vector<StencilRow> stencil_rows(int dimension, int subdivisions,
                                                   const std::array<double, 3> &edge, double size,
                                                   StencilKind kind);
/// Number of cells of \p rows.
[[nodiscard]] int stencil_cells(const std::vector<StencilRow> &rows);

}    // namespace hgrid

#endif
