/* hgrid: particles sorted by (level, cell) -- compressed storage of all levels.

   A counting sort replaces per-cell linked lists: one pass counts particles per
   cell, a prefix sum gives each cell's first slot, a second pass fills the slots
   in increasing particle index.  Within a cell, particles therefore appear in
   index order (owned particles before ghosts, as LAMMPS' same-bin tie-break needs).
   Storage is reused between builds; nothing is allocated once it has grown. */

#ifndef HGRID_CELL_LISTS_H
#define HGRID_CELL_LISTS_H

#include <cstddef>
#include <vector>

namespace hgrid {

class CellLists {
 public:
  /// \brief Set the number of cells of each level (and reset the contents).
  void set_levels(const std::vector<int> &cells_per_level);

  /// \brief Sort particles 0..n-1 into cells.  \p level[i] is the 0-based level and
  /// \p cell[i] the local cell index on that level; particles with level < 0 or
  /// cell < 0 are left out.
  void build(int n, const int *level, const int *cell);

  /// First slot of cell \p c of level \p h; the cell's particles are
  /// particles()[begin(h,c) .. end(h,c)-1].
  [[nodiscard]] int begin(int h, int c) const { return start_[offset_[h] + c]; }
  [[nodiscard]] int end(int h, int c) const { return start_[offset_[h] + c + 1]; }
  [[nodiscard]] const int *particles() const { return slots_.data(); }
  /// Slot of particle \p i (valid for binned particles only).
  [[nodiscard]] int slot_of(int i) const { return slot_[i]; }
  /// Number of particles on level \p h in the last build.
  [[nodiscard]] int level_count(int h) const
  {
    return start_[offset_[h + 1]] - start_[offset_[h]];
  }

  [[nodiscard]] int num_levels() const { return static_cast<int>(offset_.size()) - 1; }
  [[nodiscard]] std::size_t memory_bytes() const;

 private:
  std::vector<int> offset_{0};    // first global cell of each level, size L+1
  std::vector<int> start_;        // first slot of each global cell, size ncells+1
  std::vector<int> slots_;        // particle indices sorted by (level, cell, index)
  std::vector<int> slot_;         // slot of each particle
};

}    // namespace hgrid

#endif
