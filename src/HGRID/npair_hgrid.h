/* -*- c++ -*- ----------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#ifdef NPAIR_CLASS
// clang-format off
using NPairHalfSizeHGridNewton = NPairHGrid<1, 1, 0>;
NPairStyle(half/size/hgrid/newton,
           NPairHalfSizeHGridNewton,
           NP_HALF | NP_SIZE | NP_HGRID | NP_MOLONLY | NP_NEWTON | NP_ORTHO);

using NPairHalfSizeHGridNewtoff = NPairHGrid<1, 0, 0>;
NPairStyle(half/size/hgrid/newtoff,
           NPairHalfSizeHGridNewtoff,
           NP_HALF | NP_SIZE | NP_HGRID | NP_MOLONLY | NP_NEWTOFF | NP_ORTHO | NP_TRI);

using NPairFullSizeHGrid = NPairHGrid<0, 1, 0>;
NPairStyle(full/size/hgrid,
           NPairFullSizeHGrid,
           NP_FULL | NP_SIZE | NP_HGRID | NP_MOLONLY | NP_NEWTON | NP_NEWTOFF | NP_ORTHO | NP_TRI);

using NPairHalfSizeHGridNewtonAtomonly = NPairHGrid<1, 1, 1>;
NPairStyle(half/size/hgrid/newton/atomonly,
           NPairHalfSizeHGridNewtonAtomonly,
           NP_HALF | NP_SIZE | NP_HGRID | NP_ATOMONLY | NP_NEWTON | NP_ORTHO);

using NPairHalfSizeHGridNewtoffAtomonly = NPairHGrid<1, 0, 1>;
NPairStyle(half/size/hgrid/newtoff/atomonly,
           NPairHalfSizeHGridNewtoffAtomonly,
           NP_HALF | NP_SIZE | NP_HGRID | NP_ATOMONLY | NP_NEWTOFF | NP_ORTHO | NP_TRI);

using NPairFullSizeHGridAtomonly = NPairHGrid<0, 1, 1>;
NPairStyle(full/size/hgrid/atomonly,
           NPairFullSizeHGridAtomonly,
           NP_FULL | NP_SIZE | NP_HGRID | NP_ATOMONLY | NP_NEWTON | NP_NEWTOFF | NP_ORTHO | NP_TRI);

using NPairHalfSizeHGridNewtonTri = NPairHGrid<1, 1, 0, 1>;
NPairStyle(half/size/hgrid/newton/tri,
           NPairHalfSizeHGridNewtonTri,
           NP_HALF | NP_SIZE | NP_HGRID | NP_MOLONLY | NP_NEWTON | NP_TRI);

using NPairHalfSizeHGridNewtonTriAtomonly = NPairHGrid<1, 1, 1, 1>;
NPairStyle(half/size/hgrid/newton/tri/atomonly,
           NPairHalfSizeHGridNewtonTriAtomonly,
           NP_HALF | NP_SIZE | NP_HGRID | NP_ATOMONLY | NP_NEWTON | NP_TRI);
// clang-format on
#else

#ifndef LMP_NPAIR_HGRID_H
#define LMP_NPAIR_HGRID_H

#include "my_page.h"
#include "npair.h"

#include "libhgrid/pair_search.h"
#include "libhgrid/threads.h"

#include <utility>
#include <vector>

namespace LAMMPS_NS {

/* Granular size lists from a hierarchical grid: the pair search is
   hgrid::PairSearch (libhgrid/pair_search.h) over the cells of NBinHGrid and the
   same-level rows of NStencilHGrid; this class adds what a pair means to LAMMPS
   (exclusions, special bonds, the history bit of touching pairs, exactly as
   NPairBin) and stores the list. */

class NPairHGridBase : public NPair {
 public:
  NPairHGridBase(class LAMMPS *lmp);

 protected:
  // two images of one atom closer than this (in Angstrom) count as tied in coordinates
  // (NPairBin's triclinic delta)
  static constexpr double IMAGE_TOLERANCE = 0.01;

  void copy_neighbor_info() override;
  // true if larger atoms also search smaller levels, whatever the search direction
  virtual bool searches_both_directions() const = 0;
  class NBinHGrid *hbin;
  class NStencilHGrid *hstencil;
  class HGridPlanner *planner;
  void copy_bin_info() override;
  void copy_stencil_info() override;
  // the rows follow one order of the atoms, as every stock half list's do: a pair of
  // atoms i, j is in the row of the one later in the order (level, cell, index), never
  // moved to a later row (NPairHGrid::rows_of_smaller).  The fix GRANULAR/MDR of pair
  // granular's mdr model reads each triple of mutual contacts from the row holding two
  // of its pairs, one row per triple in such an order; moved pairs mix two orders (cells
  // within a level, indices across levels), some triples then had no such row and lost
  // their penalty (LAMMPS' in.tableting.200: "F_MDR is NaN" some 4000 steps after the
  // layout became two levels).  Set when that fix is defined
  bool one_order = false;

  // the atom i whose row is being built, as the neighbor word of a pair needs it
  struct Row {
    int i, itype, imol, iatom, history;    // history: 1 if the list keeps history bits, else 0
    tagint tagprev;
  };
  // inline, in npair_hgrid.cpp: once per atom and build; type: nullptr if no exclusions
  Row row_of(int i, int history, const int *type) const;
  // j with the history bit of a touching pair (rsq < radsum^2), without a branch
  static int history_word(const Row &row, int j, double rsq, double radsum)
  {
    const int touching = rsq < radsum * radsum;
    return j ^ ((row.history & touching) << HISTBITS);
  }
  template <int ATOMONLY>
  bool neighbor_word(const Row &row, int j, double delx, double dely, double delz, double rsq,
                     double radsum, int &word) const;
};

// TRI: triclinic box (the ID tie-break of half newton-on lists, hgrid::PairSearch)
template <int HALF, int NEWTON, int ATOMONLY, int TRI = 0>
class NPairHGrid : public NPairHGridBase {
 public:
  NPairHGrid(class LAMMPS *lmp) : NPairHGridBase(lmp) {}
  void build(class NeighList *) override;
  // the rows of all owned atoms by comm->nthreads threads (OpenMP), each taking chunks
  // of owned atoms, its own share's first, into its own page (list->ipage[thread]; one
  // thread: one chunk).  Returns the search's counters.  build() (serial, and package omp:
  // NPairHGridOmp) and KOKKOS on a host execution space (whose threads comm->nthreads
  // counts there: NPairHGridKokkos) build with it
  hgrid::SearchCounters build_threaded(class NeighList *list);
  // the list's room per row is its own, grown past neigh_modify one by the build
  // (NPairHGridKokkos' list: Kokkos lists grow as those of kk bin do), else the
  // room of neigh_modify one/page, which only the planner grows (grow_row_room)
  bool own_room = false;

 protected:
  // full lists search all levels; newton-off half lists the other direction for ghosts
  bool searches_both_directions() const override { return !HALF || !NEWTON; }
  // Top-Down half lists: a pair of owned atoms on different levels, which the larger
  // atom's search finds, is stored in the smaller atom's row if that row comes later
  // in the chunk of rows being built (else in the larger atom's).  Per chunk: the
  // entries waiting for a later row (a list per row from pending_head: next, word),
  // (atom, entries it moved) for the room of the history fix
  bool rows_of_smaller(const hgrid::GridView &grid) const;
  struct ChunkMoves {
    std::vector<int> next, word;    // count entries used (vectors that keep their size)
    int count = 0;
    std::vector<std::pair<int, int>> moved;
    void grow()
    {
      next.resize(2 * next.size() + 1024);
      word.resize(next.size());
    }
  };
  std::vector<int> pending_head;
  std::vector<ChunkMoves> chunk_moves;
  void start_moves(int nchunks);
  int move_to_later_rows(int i, int ito, int below, int *row, int n, ChunkMoves &moves);
  int take_pending(int i, int *row, int n, int room, ChunkMoves &moves);
  int moved_partners_room(class NeighList *list) const;

  // the rows of owned atoms [ifrom, ito), appended to ipage (a thread's chunk:
  // NPairHGridOmp); returns the longest row, stored only up to the room of the pages
  int build_rows(class NeighList *list, int ifrom, int ito, MyPage<int> &ipage,
                 hgrid::SearchCounters &count, ChunkMoves &moves);
  // pages with the room of neigh_modify one/page, which a row longer than one grows
  // (HGridPlanner::grow_row_room: true, build again) unless the user set them
  void fit_pages(class NeighList *list);
  void init_pages(class NeighList *list);
  bool grow_pages(class NeighList *list, int longest);
  static constexpr int PAGE_DELTA = 1;    // pages allocated at a time (NeighList's)
  int owned_atoms() const;
  // build_threaded(): a chunk is a few large contiguous blocks of atoms per thread, not
  // many small ones: atoms are sorted in space (atom_modify sort), so a thread that
  // builds the next rows of its own block finds their partners' positions still in
  // its core's cache.  Measured at N = 1e5 on 2 threads (2-core VM), 1 -> 2 threads
  // speed-up of the build with 128-atom chunks / 4 blocks per thread: 2d omega 1
  // 1.48 / 1.77, 3d omega 1 1.62 / 1.78, 3d alpha -3 omega 100 1.71 / 1.74 (chunks
  // then taken in turn).  Each thread now takes its own share's chunks first, in order
  // (hgrid::AffineQueue), so finer chunks keep its atoms and only shorten the wait for
  // the last one: 16 against 4 blocks per thread, 2 threads, 3d alpha -3 omega 100
  // N = 1e5, rows 3.87-4.67 against 3.97-5.03 ms (ten interleaved rounds, lower in
  // nine); 2d omega 1 unchanged; pressed 1e5 bed with history, newton off, rows -1 to
  // -3 % (three rounds)
  static constexpr int BLOCKS_PER_THREAD = 16;    // chunks of owned atoms per thread
  static constexpr int MIN_CHUNK = 128;           // owned atoms a thread takes at least
  static int chunk_size(int nlocal, int nthreads);
  void build_threads(class NeighList *list, int nlocal, int chunk, long long &visited,
                     long long &checks, int &longest);
  struct ThreadWork {
    hgrid::SearchCounters count;
    int longest = 0;
  };
  std::vector<ThreadWork> thread_work;    // of each thread in build_threads()
  hgrid::AffineQueue chunk_queue;         // its chunks, each thread's own first
  // the grid as the pair search reads it, stencil rows included
  hgrid::GridView search_grid() const;
  // Top-Down half newton-on lists: owned partners of every larger ghost, searched
  // down from the ghost (few) instead of up from every owned atom near a face
  // (many), stored by owned atom (ghost_start, ghost_partner) before build_rows
  bool find_ghost_partners(hgrid::SearchCounters &count);
  void sort_ghost_partners(int nlocal);
  std::vector<int> ghost_start, ghost_partner;
  std::vector<std::vector<std::pair<int, int>>> ghost_found;    // (owned, ghost) pairs by range
  std::vector<hgrid::SearchCounters> range_work;                // the search's work by range
  hgrid::AffineQueue ghost_queue;    // the ranges, each thread's own share first
  void finish_build(class NeighList *list, const hgrid::SearchCounters &count, double start_time);
};

}    // namespace LAMMPS_NS

#endif
#endif
