/* hgrid: the pair search of a hierarchical grid as a kernel over plain arrays.

   The serial, OpenMP and Kokkos builders share it: the same cell indexing
   (LevelView), the same loop structure, and the variants as template flags.  Only
   what a pair *means* to LAMMPS (exclusions, special bonds, history bits, where the
   neighbor index is stored) is left to the builder's visitor.

   For a particle i of cutoff diameter c_i = 2 r_i + skin on level h:
     same level:   the stencil rows around its cell (linked-cell search; for newton on
                   a half stencil and, in its tie-break rows, a tie-break for ghosts,
                   as LAMMPS' NPairBin: coordinates, or in triclinic boxes (TRI) IDs;
                   half lists with newton off: the full stencil, owned partners in its
                   half rows only (the centre cell by index), ghosts in all rows, and
                   the upper rows not at all where no ghost is within reach, so that
                   an interior particle reads the half stencil, as with newton on;
                   LAMMPS' newton-off lists read the full stencil and filter every
                   candidate)
     other levels: all cells of level l within delta = (c_i + s_l)/2 of x_i (eqs. 4-5):
                   no particle of level l outside that box is within r_i + r_j + skin
   Which levels a particle searches (Sect. 2.2):
     full list:            all levels
     half, newton on:      Bottom-Up: l > h, every partner.  Top-Down: l < h for owned
                           partners, and l > h for ghost partners: a pair with a ghost
                           is found from its smaller particle, so that no particle is
                           needed as a ghost further out than its own level reaches
                           (ghost_searcher_size), whichever the direction
     half, newton off:     that direction for all particles, the other one for ghost
                           partners only, so owned/ghost pairs are found by both owners;
                           Top-Down with GridView::ghosts_searched_down (the host
                           builders): not upward at all, the larger ghosts search down for
                           their owned partners instead (owned_below), as with newton on.
                           A small particle's upward box on a coarse level crosses the
                           subdomain's edge wherever it is (a level 3 cells across has no
                           interior), so each one read those cells for the few ghosts:
                           10^5 dense bed, omega 100, cells read per atom 36 -> 22, build
                           -34 %
   A search for ghost partners only skips the cells wholly inside the subdomain
   (LevelView::interior), where no ghost can be: a whole level when its box lies
   there, else the interior part of each row of cells.
   visit(j, delx, dely, delz, rsq, radsum, within) is called for every candidate j
   whose distance the search computes, del = x_i - x_j, within = rsq <= (r_i + r_j +
   skin)^2: a visitor keeps j only if within.  Candidates outside are passed too, so that
   a visitor can store j before it knows and keep it by advancing its count by within
   (no branch on the distance: about one in four to seven candidates is kept, a branch
   the processor cannot predict).
   GATHER (the host builders; their Atoms also offer prefetch(j) and prefetch_radius(j),
   see kPrefetchDistance and kBoxGatherRows): in half lists, on levels whose half
   stencil holds kGatherMinCandidates (LevelView::gather_rows), the candidates of the
   same-level rows are copied into a buffer and checked in one loop.  A row of cells
   holds few particles (the finest level about one per cell), so a loop per row ends
   in a branch the processor cannot predict, one per row; with the buffer one per
   search.  Rows of at most kGatherWidth slots (twice as many on levels of dense rows)
   are copied that many at a time, without a loop, longer ones kGatherWidth at a time
   (the slots are padded, CellLists::kPadding).
   Candidates keep the order of the rows.  Half newton-off lists gather their half
   rows the same way (the centre row filtered by j <= i) and read their upper rows,
   ghosts only, row by row: -12 to -24 % per build (3d gas omega 1 and 100, the hopper
   example), -3 to -6 % on a pressed bed; measured slower (+12 to +35 %) while the
   visitor's row length lived in memory (HGRID_FORCE_INLINE).  Full lists filter every
   row (j != i) and keep a loop per row, as the Kokkos builder does (a GPU thread has
   no room for the buffer).  Every host list variant gathers the candidates of a large
   cross-level box the same way, all its rows before their checks (kBoxGatherRows). */

#ifndef HGRID_PAIR_SEARCH_H
#define HGRID_PAIR_SEARCH_H

#include "grid.h"
#include "layout.h"
#include "portability.h"

namespace hgrid {

/// One row of a same-level stencil: local-cell offset of its first cell, its length, and
/// whether half lists apply their tie-break to it (StencilRow::tiebreak).
struct RowOffset {
  int offset, ncells;
  bool tiebreak, upper;
  bool operator==(const RowOffset &o) const
  {
    return offset == o.offset && ncells == o.ncells && tiebreak == o.tiebreak && upper == o.upper;
  }
};

/// Row \p r of \p grid's same-level stencil as the pair search reads it (host only).
inline RowOffset row_offset(const LevelGrid &grid, const StencilRow &r)
{
  return {grid.offset(r.dx0, r.dy, r.dz), r.dx1 - r.dx0 + 1, r.tiebreak, r.upper};
}

/// The binned grid as the pair search reads it (non-owning, trivially copyable).
struct GridView {
  int nlevels = 0;
  bool topdown = true;
  const LevelView *levels = nullptr;    ///< nlevels views, first_cell set
  const int *level_rows = nullptr;      ///< rows of level h: [level_rows[h], level_rows[h+1])
  const RowOffset *rows = nullptr;      ///< same-level stencil rows of all levels
  const int *cell_start = nullptr;    ///< slots of global cell g: [cell_start[g], cell_start[g+1])
  const int *slots = nullptr;         ///< particle indices sorted by (cell, index)
  /// Top-Down half lists: the builder found the pairs of owned particles with larger
  /// ghosts itself (PairSearch::owned_below from each ghost), so neighbors() does not
  /// search upward for them
  bool ghosts_searched_down = false;

  /// Level of a particle of cutoff diameter \p c: the first whose size holds it, as
  /// hgrid::level_of() on the layout; -1 if c exceeds the top level.
  [[nodiscard]] HGRID_INLINE int level_of_diameter(double c) const
  {
    const LevelView *lv = levels;
    return first_level_holding(
        nlevels,
        [lv](int h) {
          return lv[h].size;
        },
        c);
  }

  [[nodiscard]] HGRID_INLINE int level_of_cell(int g) const
  {
    int h = 0;
    while (h + 1 < nlevels && g >= levels[h + 1].first_cell) ++h;
    return h;
  }
};

/// Which partners a cross-level search considers.
enum class Partners { All, Owned, Ghosts };

/// Work done by a search, for comparison with the cost model.
struct SearchCounters {
  long long cells_visited = 0;      ///< cells whose particle range was read (T^ca)
  long long distance_checks = 0;    ///< pairs whose distance was computed (T^cd)
  /// the most cells + checks of one particle's search, and the most partners it stored:
  /// the longest thread of a builder that gives each particle a thread (Kokkos)
  long long longest_search = 0;
  int longest_row = 0;
  /// searches a builder split into units (PairSearch::num_units), one thread a unit
  long long split_searches = 0;
};

/// GATHER: rows of at most this many slots are copied without a loop, twice as many
/// on a level of dense rows (LevelView::dense_rows)
constexpr int kGatherWidth = 4;

/// GATHER: a level's same-level search gathers its half stencil's candidates if it
/// holds at least this many on average, else it reads row by row.  With fewer the
/// copies cost more than the mispredicted row ends they save: one level, N = 1e4,
/// in.bench, row by row against gathered: 2d nu = 0.05, 0.1, 0.2 (0.6, 1.3, 1.8
/// candidates) -18, -13 to -17, -7 %; 3d nu = 0.05 (1.6) -6 %; 2d nu = 0.3 (2.6)
/// +1 %, 2d nu = 0.6 (5) +11 %, 3d nu = 0.1-0.3 (4-10) +30 to +55 %.
constexpr double kGatherMinCandidates = 2.0;

/// \brief Set the row flags of level \p v from its \p count particles and its stencil
/// rows (2k+1 cells, k = \p subdivisions): dense_rows if a row holds more than two of
/// them on average, gather_rows if its half stencil holds kGatherMinCandidates.  On
/// levels of dense rows the gathered rows are copied 2 kGatherWidth slots at a time:
/// with about three particles a row (2d, one level of 2^2 sub-cells) one row in six
/// is longer than kGatherWidth, and its copy loop a branch the processor cannot
/// predict (2d, alpha 0, omega 100, N = 1e5: -8 % per build); on sparse levels the
/// wider copy costs more than it saves (copied everywhere: 3d alpha -3 omega 100
/// +2.5 %).
HGRID_INLINE void set_row_density(LevelView &v, int subdivisions, int count)
{
  const double per_cell = static_cast<double>(count) / v.num_cells();
  const int side = 2 * subdivisions + 1;
  const int block = v.dimension == 3 ? side * side * side : side * side;
  v.dense_rows = per_cell * side > 2.0;
  v.gather_rows = per_cell * 0.5 * (block + 1) >= kGatherMinCandidates;
}

/// GATHER: candidates gathered before their distance checks
constexpr int kGatherCapacity = 128;

/// GATHER: a cross-level row's scan prefetches the position of the candidate this many
/// slots ahead (Atoms::prefetch; the slots are padded past the last row).  Those rows
/// lie away from the particles just searched, and at N = 1e6 their positions come
/// from memory: -1 to -7 % per build there (distances 3, 6 and 8 alike), none at 1e5.
/// Prefetching every gathered same-level candidate instead was 20 % slower.
constexpr int kPrefetchDistance = 6;

/// GATHER: a cross-level box of at least this many rows of cells gathers the candidates
/// of all its rows (kBoxCapacity at a time) before it checks them
/// (PairSearch::box_gathered): the larger particles' boxes on the finest levels, whose
/// rows lie away from the atoms just searched.  Row by row, each row's starts, slots
/// and positions are a chain of loads that waits on memory at N = 1e6, one row after
/// the other; gathered, the rows' loads no longer wait on the checks, and the checks
/// prefetch the position and radius of the candidate kBoxPrefetchDistance ahead.  The
/// pressed 1e6 bed (omega 100, one core, cycles per atom of a level, interleaved):
/// top level -30 to -35 %, the next -22 %, the one below -10 %; build -2 to -6 %
/// (1e6 gas 0 to -4 %, 1e5 unchanged).  A threshold of 6 rows (boxes of the second
/// level too) or 32 did no better.
constexpr int kBoxGatherRows = 16;
/// GATHER: candidates of a large box gathered before their checks
constexpr int kBoxCapacity = 1024;
/// GATHER: a large box's check prefetches the candidate this many ahead (16: similar)
constexpr int kBoxPrefetchDistance = 32;

/// List variants: HALF (else full), NEWTON (half lists only), TRI (triclinic box: the
/// ghost tie-break of half newton-on lists by IDs, atoms.tag(j), as LAMMPS' NPairBin,
/// since ghost coordinates of a tilted box are exact only to round-off), GATHER
/// (half newton-on lists: candidates of all same-level rows checked in one loop; host
/// only).
template <bool HALF, bool NEWTON, bool TRI = false, bool GATHER = false> struct PairSearch {
  /// The particle i (at \p xi, radius \p ri, in global cell \p icell) and its partners.
  template <class Atoms> struct Query {
    const Atoms &atoms;
    int i, nlocal;
    double xi[3], ri, skin;
  };

  template <class Atoms>
  static HGRID_INLINE Query<Atoms> query(const Atoms &atoms, int i, int nlocal, double skin)
  {
    return {atoms,           i,   nlocal, {atoms.pos(i, 0), atoms.pos(i, 1), atoms.pos(i, 2)},
            atoms.radius(i), skin};
  }

  /// Every partner of particle \p i; \p icell is its global cell.
  template <class Atoms, class Visit>
  static HGRID_FORCE_INLINE void neighbors(const GridView &g, const Atoms &atoms, int i, int icell,
                                           int nlocal, double skin, SearchCounters &count,
                                           Visit &visit)
  {
    const Query<Atoms> q = query(atoms, i, nlocal, skin);
    const int ilevel = g.level_of_cell(icell);
    same_level(g, q, icell, ilevel, count, visit);
    for (int l = 0; l < levels_searched(g, ilevel); ++l) {
      Partners which = Partners::All;
      if (searches(g, ilevel, l, which)) other_level(g, q, g.levels[l], which, count, visit);
    }
  }

  /// The levels [0, n) a search from level \p ilevel may read (searches() tells which;
  /// every loop over the levels ends here): Top-Down half lists whose larger ghosts
  /// search down for their owned partners (GridView::ghosts_searched_down, set for
  /// Top-Down only) read only the levels below, a particle of the lowest level none
  /// (most particles of a wide distribution).  Looping over every level, each skipped
  /// by searches(), cost that many particles 4 % of the rows at N = 10^5 and 6 % at
  /// 10^6 (gas, omega 100, one core, interleaved)
  static HGRID_INLINE int levels_searched(const GridView &g, int ilevel)
  {
    return HALF && g.topdown && g.ghosts_searched_down ? ilevel : g.nlevels;
  }

  /// Does a search from level \p ilevel read level \p l < levels_searched(), and for
  /// which partners (the file comment's rules)?
  static HGRID_INLINE bool searches(const GridView &g, int ilevel, int l, Partners &which)
  {
    if (l == ilevel) return false;
    const bool primary = g.topdown ? (l < ilevel) : (l > ilevel);
    which = Partners::All;    // full lists
    if (HALF && NEWTON) {
      if (primary && g.topdown)
        which = Partners::Owned;    // ghosts: from the smaller one
      else if (!primary && !g.topdown)
        return false;
      else if (!primary)
        which = Partners::Ghosts;
    } else if (HALF && !primary) {
      which = Partners::Ghosts;    // newton off: the other owner stores it too
    }
    return true;
  }

  /// \brief The search of particle \p i as units for the threads of a split pass (a
  /// builder that gives long searches many threads): its same-level stencil rows, then
  /// level by level the rows of cells (cy, cz) of each level it reads.  The partners of
  /// units 0, 1, ... in turn are those of neighbors(), in its order.
  template <class Atoms>
  static HGRID_INLINE int num_units(const GridView &g, const Atoms &atoms, int i, int icell,
                                    int nlocal, double skin)
  {
    static_assert(!GATHER, "units are rows, not gathered batches");
    const Query<Atoms> q = query(atoms, i, nlocal, skin);
    const int ilevel = g.level_of_cell(icell);
    int n = g.level_rows[ilevel + 1] - g.level_rows[ilevel];
    for (int l = 0; l < levels_searched(g, ilevel); ++l) {
      Partners which = Partners::All;
      if (searches(g, ilevel, l, which)) n += num_rows(range_on(q, g.levels[l], which));
    }
    return n;
  }

  /// Unit \p k of the search of particle \p i (num_units()).
  template <class Atoms, class Visit>
  static HGRID_INLINE void unit(const GridView &g, const Atoms &atoms, int i, int icell, int nlocal,
                                double skin, int k, SearchCounters &count, Visit &visit)
  {
    const Query<Atoms> q = query(atoms, i, nlocal, skin);
    const int ilevel = g.level_of_cell(icell);
    const int nsame = g.level_rows[ilevel + 1] - g.level_rows[ilevel];
    if (k < nsame) {
      const int row = g.level_rows[ilevel] + k;
      if (HALF && !NEWTON && g.rows[row].upper && !ghosts_within(g.levels[ilevel], q)) return;
      same_level_row(g, q, icell, row, count, visit);
      return;
    }
    k -= nsame;
    for (int l = 0; l < levels_searched(g, ilevel); ++l) {
      Partners which = Partners::All;
      if (!searches(g, ilevel, l, which)) continue;
      const CellRange r = range_on(q, g.levels[l], which);
      const int n = num_rows(r);
      if (k < n) {
        const int ny = r.hi[1] - r.lo[1] + 1;
        row_of_cells(g, q, g.levels[l], r, r.lo[1] + k % ny, r.lo[2] + k / ny, which, count, visit);
        return;
      }
      k -= n;
    }
  }

  /// \brief The most cells a search from level \p h may read on the other levels: on
  /// level l a box of (c_i + s_l)/2 a side around x_i (c_i <= s_h) spans at most
  /// (s_h + s_l)/edge + 2 cells per dimension (host: \p g with host views).
  static double most_cells_searched(const GridView &g, int h)
  {
    double most = 0.0;
    for (int l = 0; l < levels_searched(g, h); ++l) {
      Partners which = Partners::All;
      if (!searches(g, h, l, which)) continue;
      const LevelView &lv = g.levels[l];
      double cells = 1.0;
      for (int d = 0; d < lv.dimension; ++d) {
        const double across = static_cast<int>((g.levels[h].size + lv.size) * lv.inv[d]) + 2.0;
        cells *= across < lv.wn[d] ? across : lv.wn[d];
      }
      most += cells;
    }
    return most;
  }

  /// \brief Owned partners of particle \p i (a ghost) on the levels below its own: the
  /// pairs of owned particles with a larger ghost, found from the ghost's side
  /// (GridView::ghosts_searched_down).  Only the cells of owned particles
  /// (LevelView::owned_part): a ghost's box lies mostly outside the subdomain, in cells
  /// of ghosts only (newton off, whose ghost shell is wide: -10 to -14 % per build at N = 1e5,
  /// omega 100; the same clip in the owned particles' Top-Down searches, which mostly
  /// lie inside, made those builds 3 to 9 % slower).
  template <class Atoms, class Visit>
  static HGRID_FORCE_INLINE void owned_below(const GridView &g, const Atoms &atoms, int i,
                                             int icell, int nlocal, double skin,
                                             SearchCounters &count, Visit &visit)
  {
    const Query<Atoms> q = query(atoms, i, nlocal, skin);
    const int ilevel = g.level_of_cell(icell);
    for (int l = 0; l < ilevel; ++l) {
      const LevelView &lv = g.levels[l];
      box_or_rows(g, q, lv, lv.owned_part(range_on(q, lv, Partners::Owned)), Partners::Owned, count,
                  visit);
    }
  }

  /// GATHER: candidates of consecutive rows; the first nfiltered pass a filter.  (g++
  /// keeps the counts in memory, a store and a load per row; with the array outside the
  /// struct, so that they could live in registers, the search was 5-6 % slower: 10^5
  /// gas, omega 100, one core, two runs of six interleaved rounds)
  struct Batch {
    int j[kGatherCapacity];
    int n = 0, nfiltered = 0;
  };

  /// GATHER: check the candidates of \p b (\p skip filters the first nfiltered) and
  /// empty it.  Checked one by one, each visited whether kept or not: two passes (the
  /// batch's distances first, 8 at a time with AVX-512 gathers or by g++'s vectorized
  /// loop, then a visit per kept candidate) were no faster on a pressed bed (gathers;
  /// +6-10 % vectorized by g++) and 4-10 % slower on the gas (omega 100, N = 1e5): the
  /// loop waits on its loads, not on its arithmetic.
  template <class Atoms, class Skip, class Visit>
  static HGRID_HOST_FORCE_INLINE void check(const Query<Atoms> &q, Batch &b, const Skip &skip,
                                            SearchCounters &count, Visit &visit)
  {
    for (int t = 0; t < b.nfiltered; ++t)
      if (!skip(b.j[t])) test(q, b.j[t], count, visit);
    for (int t = b.nfiltered; t < b.n; ++t) test(q, b.j[t], count, visit);
    b.n = b.nfiltered = 0;
  }

  /// GATHER: add the slots [begin, end) of a row to \p b, \p filtered if \p skip
  /// applies to them; a full buffer, or a filtered row after unfiltered ones, is
  /// checked first, a row longer than the buffer checked directly.
  template <class Atoms, class Skip, class Visit>
  static HGRID_HOST_FORCE_INLINE void gather(const GridView &g, const Query<Atoms> &q, int begin,
                                             int end, bool filtered, bool wide, Batch &b,
                                             const Skip &skip, SearchCounters &count, Visit &visit)
  {
    const int width = wide ? 2 * kGatherWidth : kGatherWidth;
    const int len = end - begin;
    if (b.n + len + 2 * kGatherWidth > kGatherCapacity || (filtered && b.n > b.nfiltered))
      check(q, b, skip, count, visit);
    if (len + 2 * kGatherWidth > kGatherCapacity) {
      for (int s = begin; s < end; ++s)
        if (!(filtered && skip(g.slots[s]))) test(q, g.slots[s], count, visit);
      return;
    }
    int *to = b.j + b.n;
    if (len <= width) {
      for (int t = 0; t < kGatherWidth; ++t) to[t] = g.slots[begin + t];
      if (wide)
        for (int t = kGatherWidth; t < 2 * kGatherWidth; ++t) to[t] = g.slots[begin + t];
    } else {
      // kGatherWidth slots at a time, past the row's end into the padding: a loop
      // of single slots was compiled into rep movs, whose start-up costs more than
      // these rows hold (7 % of the serial build on a pressed bed, omega 100)
      for (int t = 0; t < len; t += kGatherWidth)
        for (int u = 0; u < kGatherWidth; ++u) to[t + u] = g.slots[begin + t + u];
    }
    b.n += len;
    if (filtered) b.nfiltered = b.n;
  }

  /// Linked-cell search of i's own level, one contiguous slot range per stencil row.
  /// Half lists with newton on filter the tie-break rows only.
  template <class Atoms, class Visit>
  static HGRID_FORCE_INLINE void same_level(const GridView &g, const Query<Atoms> &q, int icell,
                                            int ilevel, SearchCounters &count, Visit &visit)
  {
    const int first = g.level_rows[ilevel];
    int last = g.level_rows[ilevel + 1];
    // the upper rows come last and mirror the half rows but the centre cell
    // (same_level_rows): n half rows, n - 1 upper ones
    const int half_end = (HALF && !NEWTON) ? first + (last - first + 1) / 2 : last;
    if constexpr (HALF && !NEWTON) {
      if (!ghosts_within(g.levels[ilevel], q)) last = half_end;
    }
    if constexpr (GATHER && HALF) {
      if (g.levels[ilevel].gather_rows) {
        gathered_rows(g, q, icell, ilevel, first, half_end, last, count, visit);
        return;
      }
    }
    for (int k = first; k < last; ++k) same_level_row(g, q, icell, k, count, visit);
  }

  /// GATHER: the half rows [\p first, \p half_end) gathered (newton off: owned and
  /// ghost partners there), then the upper rows [half_end, \p last) of a newton-off
  /// list row by row (ghosts only).
  template <class Atoms, class Visit>
  static HGRID_HOST_FORCE_INLINE void gathered_rows(const GridView &g, const Query<Atoms> &q,
                                                    int icell, int ilevel, int first, int half_end,
                                                    int last, SearchCounters &count, Visit &visit)
  {
    Batch b;
    const auto skip = [&q](int j) {
      return same_level_skips(q, j);
    };
    const bool wide = g.levels[ilevel].dense_rows;
    for (int k = first; k < half_end; ++k) {
      const int c0 = icell + g.rows[k].offset;
      count.cells_visited += g.rows[k].ncells;
      gather(g, q, g.cell_start[c0], g.cell_start[c0 + g.rows[k].ncells], g.rows[k].tiebreak, wide,
             b, skip, count, visit);
    }
    check(q, b, skip, count, visit);
    for (int k = half_end; k < last; ++k) same_level_row(g, q, icell, k, count, visit);
  }

  /// Stencil row \p k (an index of g.rows) of the same-level search from \p icell.
  template <class Atoms, class Visit>
  static HGRID_FORCE_INLINE void same_level_row(const GridView &g, const Query<Atoms> &q, int icell,
                                                int k, SearchCounters &count, Visit &visit)
  {
    const int c0 = icell + g.rows[k].offset;
    const int end = g.cell_start[c0 + g.rows[k].ncells];
    count.cells_visited += g.rows[k].ncells;
    const bool ghosts_only = HALF && !NEWTON && g.rows[k].upper;
    const bool filtered = !HALF || g.rows[k].tiebreak;
    for (int s = g.cell_start[c0]; s < end; ++s) {
      const int j = g.slots[s];
      if (ghosts_only ? j < q.nlocal : filtered && same_level_skips(q, j)) continue;
      test(q, j, count, visit);
    }
  }

  /// May a same-level partner of \p q be a ghost?  Not if every cell within the level
  /// size of x_i lies in the interior (a partner on level h is within (c_i + c_j)/2 <= s_h).
  template <class Atoms>
  static HGRID_INLINE bool ghosts_within(const LevelView &lv, const Query<Atoms> &q)
  {
    return !lv.interior(lv.search_range(q.xi, lv.size));
  }

  /// Cells of level \p lv within (c_i + s_l)/2 of x_i, one slot range per row of cells;
  /// only the partners \p which.
  template <class Atoms, class Visit>
  static HGRID_FORCE_INLINE void other_level(const GridView &g, const Query<Atoms> &q,
                                             const LevelView &lv, Partners which,
                                             SearchCounters &count, Visit &visit)
  {
    box_or_rows(g, q, lv, range_on(q, lv, which), which, count, visit);
  }

  /// The cells of \p r on level \p lv: GATHER, a large box gathered (no search for
  /// ghosts only, which skips interior cells), else row by row.
  template <class Atoms, class Visit>
  static HGRID_FORCE_INLINE void box_or_rows(const GridView &g, const Query<Atoms> &q,
                                             const LevelView &lv, const CellRange &r,
                                             Partners which, SearchCounters &count, Visit &visit)
  {
    if constexpr (GATHER) {
      if (which != Partners::Ghosts && num_rows(r) >= kBoxGatherRows) {
        box_gathered(g, q, lv, r, which, count, visit);
        return;
      }
    }
    rows_of(g, q, lv, r, which, count, visit);
  }

  /// GATHER: the candidates of the box \p r of level \p lv, gathered row by row
  /// (kGatherWidth slots at a time into the padding) and checked kBoxCapacity at a time,
  /// in the order of rows_of(); a row longer than the buffer is checked where it lies.
  template <class Atoms, class Visit>
  static HGRID_HOST_FORCE_INLINE void
  box_gathered(const GridView &g, const Query<Atoms> &q, const LevelView &lv, const CellRange &r,
               Partners which, SearchCounters &count, Visit &visit)
  {
    int gathered[kBoxCapacity + kGatherWidth];
    int n = 0;
    const int nx = r.hi[0] - r.lo[0] + 1;
    count.cells_visited += static_cast<long long>(nx) * num_rows(r);
    for (int cz = r.lo[2]; cz <= r.hi[2]; ++cz)
      for (int cy = r.lo[1]; cy <= r.hi[1]; ++cy) {
        const int c0 = lv.first_cell + lv.index(r.lo[0], cy, cz);
        const int begin = g.cell_start[c0];
        const int len = g.cell_start[c0 + nx] - begin;
        if (n + len > kBoxCapacity) {
          check_gathered(q, gathered, n, which, count, visit);
          n = 0;
          if (len > kBoxCapacity) {
            check_gathered(q, g.slots + begin, len, which, count, visit);
            continue;
          }
        }
        // gather()'s copy of a long row, written out again: the two as one inline
        // function changed gather()'s code, +1 to +5 % per build (pressed 1e5 bed,
        // history, newton off, nine of ten interleaved pairs)
        for (int t = 0; t < len; t += kGatherWidth)
          for (int u = 0; u < kGatherWidth; ++u) gathered[n + t + u] = g.slots[begin + t + u];
        n += len;
      }
    check_gathered(q, gathered, n, which, count, visit);
  }

  /// GATHER: the partners \p which among the \p n candidates \p j.
  template <class Atoms, class Visit>
  static HGRID_HOST_FORCE_INLINE void check_gathered(const Query<Atoms> &q, const int *j, int n,
                                                     Partners which, SearchCounters &count,
                                                     Visit &visit)
  {
    for (int k = 0; k < n; ++k) {
      if (k + kBoxPrefetchDistance < n) {
        q.atoms.prefetch(j[k + kBoxPrefetchDistance]);
        q.atoms.prefetch_radius(j[k + kBoxPrefetchDistance]);
      }
      if (is_partner(q, j[k], which)) test(q, j[k], count, visit);
    }
  }

  /// The rows of cells of \p r on level \p lv: the partners \p which among their
  /// particles.
  template <class Atoms, class Visit>
  static HGRID_FORCE_INLINE void rows_of(const GridView &g, const Query<Atoms> &q,
                                         const LevelView &lv, const CellRange &r, Partners which,
                                         SearchCounters &count, Visit &visit)
  {
    if (r.empty()) return;
    for (int cz = r.lo[2]; cz <= r.hi[2]; ++cz)
      for (int cy = r.lo[1]; cy <= r.hi[1]; ++cy)
        row_of_cells(g, q, lv, r, cy, cz, which, count, visit);
  }

  /// The cells of level \p lv a search for partners \p which reads: those within
  /// (c_i + s_l)/2 of x_i, none for ghosts if they all lie in the interior (no ghost
  /// there).
  template <class Atoms>
  static HGRID_INLINE CellRange range_on(const Query<Atoms> &q, const LevelView &lv, Partners which)
  {
    const CellRange r = lv.search_range(q.xi, 0.5 * (2.0 * q.ri + q.skin + lv.size));
    if (which == Partners::Ghosts && !r.empty() && lv.interior(r)) return CellRange();
    return r;
  }

  /// Rows of cells (cy, cz) of \p r.
  static HGRID_INLINE int num_rows(const CellRange &r)
  {
    return r.empty() ? 0 : (r.hi[1] - r.lo[1] + 1) * (r.hi[2] - r.lo[2] + 1);
  }

  /// The row of cells (\p cy, \p cz) of \p r.  A search for ghosts skips the interior
  /// cells: a row through the interior is searched on either side of it, so that a large
  /// particle near the subdomain's edge reads the cells beyond the edge only.
  template <class Atoms, class Visit>
  static HGRID_FORCE_INLINE void
  row_of_cells(const GridView &g, const Query<Atoms> &q, const LevelView &lv, const CellRange &r,
               int cy, int cz, Partners which, SearchCounters &count, Visit &visit)
  {
    if (which == Partners::Ghosts && lv.interior_row(cy, cz)) {
      cells(g, q, lv, r.lo[0], (r.hi[0] < lv.ilo[0] ? r.hi[0] : lv.ilo[0] - 1), cy, cz, which,
            count, visit);
      cells(g, q, lv, (r.lo[0] > lv.ihi[0] ? r.lo[0] : lv.ihi[0] + 1), r.hi[0], cy, cz, which,
            count, visit);
    } else {
      cells(g, q, lv, r.lo[0], r.hi[0], cy, cz, which, count, visit);
    }
  }

  /// The cells x0..x1 of row (\p cy, \p cz) of level \p lv (none if x1 < x0): the
  /// partners \p which among their particles.
  template <class Atoms, class Visit>
  static HGRID_FORCE_INLINE void cells(const GridView &g, const Query<Atoms> &q,
                                       const LevelView &lv, int x0, int x1, int cy, int cz,
                                       Partners which, SearchCounters &count, Visit &visit)
  {
    if (x1 < x0) return;
    const int c0 = lv.first_cell + lv.index(x0, cy, cz);
    const int end = g.cell_start[c0 + x1 - x0 + 1];
    count.cells_visited += x1 - x0 + 1;
    for (int s = g.cell_start[c0]; s < end; ++s) {
      if constexpr (GATHER) q.atoms.prefetch(g.slots[s + kPrefetchDistance]);
      const int j = g.slots[s];
      if (!is_partner(q, j, which)) continue;
      test(q, j, count, visit);
    }
  }

  /// Is \p j among the partners \p which (owned: j < nlocal, ghosts: the others)?
  template <class Atoms>
  static HGRID_INLINE bool is_partner(const Query<Atoms> &q, int j, Partners which)
  {
    return which == Partners::All || (j < q.nlocal) == (which == Partners::Owned);
  }

  /// Same-level partners a list variant does not store from i: i itself; for half
  /// lists owned j <= i; with newton on (tie-break rows only) also ghosts "below" i
  /// or, in triclinic boxes, ghosts whose ID loses the parity rule (NPairBin's rules).
  template <class Atoms> static HGRID_INLINE bool same_level_skips(const Query<Atoms> &q, int j)
  {
    if (!HALF) return j == q.i;
    if (!NEWTON || j < q.nlocal) return j <= q.i;
    if (TRI) {
      const long long itag = q.atoms.tag(q.i), jtag = q.atoms.tag(j);
      if (itag != jtag) return ((itag + jtag) % 2 == 0) == (itag > jtag);
      return below(q, j, q.atoms.image_tolerance());    // an image of i itself
    }
    return below(q, j, 0.0);
  }

  /// Is j "below" i: lower z, or equal z and lower y, or equal z and y and lower x,
  /// coordinates within \p tol counting as equal.
  template <class Atoms> static HGRID_INLINE bool below(const Query<Atoms> &q, int j, double tol)
  {
    for (int d = 2; d > 0; --d) {
      const double del = q.atoms.pos(j, d) - q.xi[d];
      if (del > tol || del < -tol) return del < 0.0;
    }
    return q.atoms.pos(j, 0) < q.xi[0];
  }

  /// Distance check of (i, j): visit j, within if r_i + r_j + skin apart or closer.
  template <class Atoms, class Visit>
  static HGRID_FORCE_INLINE void test(const Query<Atoms> &q, int j, SearchCounters &count,
                                      Visit &visit)
  {
    ++count.distance_checks;
    const double delx = q.xi[0] - q.atoms.pos(j, 0);
    const double dely = q.xi[1] - q.atoms.pos(j, 1);
    const double delz = q.xi[2] - q.atoms.pos(j, 2);
    const double rsq = delx * delx + dely * dely + delz * delz;
    const double radsum = q.ri + q.atoms.radius(j);
    const double cut = radsum + q.skin;
    visit(j, delx, dely, delz, rsq, radsum, rsq <= cut * cut);
  }
};

}    // namespace hgrid

#endif
