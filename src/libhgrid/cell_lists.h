/* hgrid: particles sorted by (level, cell) -- compressed storage of all levels.

   The cells of all levels are numbered consecutively ("global" cell index = first
   cell of the level + local index).  A counting sort replaces per-cell linked
   lists: one pass counts particles per cell, an inclusive prefix sum gives each
   cell's end, and a second pass over the particles in decreasing index order
   moves each end back to the cell's first slot while filling it.  Within a cell,
   particles therefore appear in increasing index order (owned particles before
   ghosts, as LAMMPS' same-bin tie-break needs), and consecutive cells of a row
   are one contiguous slot range.  Storage is reused; nothing is allocated once
   it has grown.

   With OpenMP each thread owns a contiguous share of the cells (counts, prefix
   sum, fill) and reads only its own share of the particles, the one it binned:
   its part of the owned atoms and its part of the ghosts (with one contiguous
   share the last thread read every ghost, whose cells lie scattered along the
   window's faces, and its fill took twice as long as the first one's; N = 1e5,
   omega 100, 2 threads, eight interleaved pairs: the sort -1 to -17 % in six,
   Neigh lower in six).  A particle in another thread's cells goes to that thread
   through an outbox (thread t's particles for thread u, in index order), so that
   each thread reads n / threads particles plus the ones sent to it, not all n.
   The owner takes its particles in index order: of each part, the earlier
   shares' outboxes, its own, the later shares' outboxes, so that the slots do not
   depend on the number of threads.  A sort over more cells than a core's cache
   holds (serial, or a thread's share) goes bucket by bucket of cells
   (kBucketedMinCells), with the same slots. */

#ifndef HGRID_CELL_LISTS_H
#define HGRID_CELL_LISTS_H

#include <cstddef>
#include <vector>

namespace hgrid {

struct SplitShare;    // threads.h

class CellLists {
 public:
  /// Slots readable past the last particle (their contents undefined), so that a
  /// reader may copy a short range a fixed number of slots at a time.
  static constexpr int kPadding = 8;
  /// A serial build over at least this many cells (4 MiB of starts, more than a core's
  /// cache), or a thread's share of as many, sorts bucket by bucket (sort_bucketed):
  /// the particles are first put in the order of their bucket of 2^kBucketShift
  /// consecutive cells (cell and index, 8 bytes each), then each bucket's cells are
  /// cleared, counted, summed and filled while they are in the cache.  The plain passes
  /// increment and fill cells scattered over the whole array (the particles follow a
  /// Morton curve, the cells rows), a miss per particle in each pass once the array
  /// outgrows the cache.  N = 1e6, omega 100, one core (in.bench, phase timer, three
  /// interleaved pairs): 3d gas, 3.4e6 cells, the sort 9.2-9.4 -> 6.2 ms per build,
  /// Neigh -2 to -5 %; pressed bed (tiled 5 x 2 x 1) 8.3-8.4 -> 6.7-7.0 ms, Neigh -1 to
  /// -4 %.  Buckets of 2^13 and 2^17 cells: 6.4-6.5 and 7.9-8.1 ms on the gas.  The
  /// same gas on 2 threads (shares of 1.7e6 cells, two interleaved pairs): the sort
  /// 9.5-10.1 -> 5.8-6.0 ms, Neigh -1 to -2.5 %.
  static constexpr int kBucketedMinCells = 1 << 20;
  static constexpr int kBucketShift = 15;

  /// \brief Set the number of cells of each level (and reset the contents).
  void set_levels(const std::vector<int> &cells_per_level);

  /// Global index of local cell \p c of level \p h.
  [[nodiscard]] int global_cell(int h, int c) const { return offset_[h] + c; }
  /// \brief Sort particles 0..n-1 into cells: \p cell[i] is the global cell index
  /// of particle i, or negative for a particle that is left out; on \p nthreads
  /// OpenMP threads, thread t reading particles share_of(n, t, nthreads) (those it
  /// binned, where the binning shares them the same way).
  void build(int n, const int *cell, int nthreads = 1) { build(n, n, cell, nthreads); }
  /// \brief The same, thread t reading particles split_share_of(n, \p nfirst, t,
  /// nthreads): its part of the owned atoms 0..nfirst-1 and its part of the ghosts.
  /// The slots do not depend on \p nfirst or the number of threads.
  void build(int n, int nfirst, const int *cell, int nthreads);

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
  [[nodiscard]] int owner(int g, int nt) const;

  /// particles of one thread's share in another thread's cells, in index order (a
  /// cache line of its own: each is written by one thread)
  struct alignas(64) Outbox {
    std::vector<int> atoms;
    int nfirst = 0;    // how many of them come from the first part of the share
  };
  std::vector<Outbox> outbox_;    // outbox_[t * nt + u]: from thread t to thread u
  std::vector<int> share_sum_;    // particles in each thread's cells, for the prefix sum
  std::vector<int> share_lo_;     // first cell of each thread's share; last: num_cells()
  Outbox &outbox(int from, int to, int nt) { return outbox_[from * nt + to]; }

  template <class Each, class EachBack>
  int sort_cells(int lo, int hi, int first_slot, const Each &each, const EachBack &each_back);
  template <class EachBack>
  int fill_cells(int lo, int hi, int first_slot, const EachBack &each_back);
  void build_serial(int n, const int *cell);
  struct Entry {
    int cell, particle;
  };
  /// a thread's particles in bucket order (sort_bucketed), a cache line of its own
  struct alignas(64) Scratch {
    std::vector<Entry> entries;
    std::vector<int> bucket_start;    // each bucket's end in entries after the fill
  };
  std::vector<Scratch> scratch_;    // one per thread
  template <class Each>
  int sort_bucketed(int lo, int hi, int first_slot, const Each &each, Scratch &scratch);
  void build_share(int n, int nfirst, const int *cell, int t, int nt);    // thread t of nt
  int route_share(const int *cell, const SplitShare &atoms, const CellShare &mine, int t, int nt,
                  bool count_cells);
};

}    // namespace hgrid

#endif
