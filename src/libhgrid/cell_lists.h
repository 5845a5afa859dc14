/* hgrid: particles sorted by (level, cell) -- compressed storage of all levels.

   The cells of all levels are numbered consecutively ("global" cell index = first
   cell of the level + local index).  A counting sort replaces per-cell linked
   lists: one pass counts particles per cell, an inclusive prefix sum gives each
   cell's end, and a second pass over the particles in decreasing index order
   moves each end back to the cell's first slot while filling it.  Within a cell,
   particles therefore appear in increasing index order (owned particles before
   ghosts, as LAMMPS' same-bin tie-break needs), and consecutive cells of a row
   are one contiguous slot range.  Storage is reused; nothing is allocated once
   it has grown.  With OpenMP, the passes over the cells (clearing, prefix sum)
   run on the threads asked for; in the passes over the particles each thread
   reads all of them and counts and fills only the cells of its own share, so the
   order of the slots does not depend on the number of threads. */

#ifndef HGRID_CELL_LISTS_H
#define HGRID_CELL_LISTS_H

#include <cstddef>
#include <vector>

namespace hgrid {

class CellLists {
 public:
  /// Slots readable past the last particle (their contents undefined), so that a
  /// reader may copy a short range a fixed number of slots at a time.
  static constexpr int kPadding = 8;

  /// \brief Set the number of cells of each level (and reset the contents).
  void set_levels(const std::vector<int> &cells_per_level);

  /// Global index of local cell \p c of level \p h.
  [[nodiscard]] int global_cell(int h, int c) const { return offset_[h] + c; }
  /// \brief Sort particles 0..n-1 into cells: \p cell[i] is the global cell index
  /// of particle i, or negative for a particle that is left out; the passes over
  /// the cells on \p nthreads OpenMP threads.
  void build(int n, const int *cell, int nthreads = 1);

  /// Slots of global cells g0..g1: particles()[begin(g0) .. end(g1)-1] (kPadding more
  /// readable).
  [[nodiscard]] int begin(int g) const { return start_[g]; }
  [[nodiscard]] int end(int g) const { return start_[g + 1]; }
  [[nodiscard]] const int *particles() const { return slots_.data(); }
  /// First slot of every global cell and, last, the total: num_cells() + 1 entries.
  [[nodiscard]] const int *starts() const { return start_.data(); }
  /// Number of particles on level \p h in the last build.
  [[nodiscard]] int level_count(int h) const { return start_[offset_[h + 1]] - start_[offset_[h]]; }

  [[nodiscard]] int num_levels() const { return static_cast<int>(offset_.size()) - 1; }
  /// Number of cells of all levels.
  [[nodiscard]] int num_cells() const { return offset_.back(); }
  [[nodiscard]] std::size_t memory_bytes() const;

 private:
  std::vector<int> offset_{0};    // first global cell of each level, size L+1
  std::vector<int> start_;        // first slot of each global cell, size ncells+1
  std::vector<int> slots_;        // particle indices sorted by (global cell, index)

  /// cells [lo, hi); holds() is false for a particle left out (negative cell)
  struct CellShare {
    int lo, hi;
    [[nodiscard]] bool holds(int g) const
    {
      return static_cast<unsigned>(g - lo) < static_cast<unsigned>(hi - lo);
    }
  };
  [[nodiscard]] CellShare cell_share(int t, int nt) const;
  void clear_counts(int nthreads);
  void prefix_sum(int nthreads);    // counts -> inclusive prefix sums (cell ends)
};

}    // namespace hgrid

#endif
