// Unit tests of the pure hgrid library: cell mapping (eq. 1), search boxes
// (eqs. 4-5), same-level stencils and the counting-sort cell lists.
#include "libhgrid/cell_lists.h"
#include "libhgrid/grid.h"
#include "libhgrid/pair_search.h"
#include "libhgrid/threads.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <random>
#include <set>

using hgrid::Box;
using hgrid::LevelGrid;
using hgrid::same_level_rows;
using hgrid::StencilKind;

namespace {
Box cube(int dim, double length)
{
  Box box;
  box.dimension = dim;
  box.lo = {0.0, 0.0, dim == 2 ? -0.5 : 0.0};
  box.hi = {length, length, dim == 2 ? 0.5 : length};
  return box;
}
}    // namespace

TEST(Grid, CellsFillTheBoxExactly)
{
  // box 10, cell size 3 -> 3 cells of 10/3
  LevelGrid g(3.0, cube(3, 10.0), {0, 0, 0}, {10, 10, 10});
  EXPECT_EQ(g.num_global(0), 3);
  EXPECT_DOUBLE_EQ(g.cell_edge(0), 10.0 / 3.0);
  EXPECT_GE(g.cell_edge(0), g.nominal_size());
  // a size that divides the box exactly gets one cell fewer (kCellSafety), so that
  // round-off never makes a cell smaller than its size
  LevelGrid g2(2.5, cube(3, 10.0), {0, 0, 0}, {10, 10, 10});
  EXPECT_EQ(g2.num_global(0),
            3);    // 4 cells of 2.5 would be exactly at the limit: safety keeps >= 2.5
  EXPECT_GE(g2.cell_edge(0), 2.5);
  // a cell larger than the box: one cell
  LevelGrid g3(25.0, cube(3, 10.0), {0, 0, 0}, {10, 10, 10});
  EXPECT_EQ(g3.num_global(1), 1);
}

TEST(Grid, MappingFollowsLammpsGhostConvention)
{
  LevelGrid grid(3.0, cube(3, 10.0), {-2, -2, -2}, {12, 12, 12});
  const hgrid::LevelView g = grid.view();
  EXPECT_EQ(g.coord(0, 0.0), 0);
  EXPECT_EQ(g.coord(0, 3.34), 1);
  EXPECT_EQ(g.coord(0, 9.999), 2);
  EXPECT_EQ(g.coord(0, 10.0), 3);    // periodic image above: next cell
  EXPECT_EQ(g.coord(0, 13.4), 4);
  EXPECT_EQ(g.coord(0, -0.1), -1);    // image below
  EXPECT_EQ(g.coord(0, -3.4), -2);
  // window: ghosts down to -2 -> cell -1, minus one padding cell
  EXPECT_EQ(grid.window_lo(0), -2);
  EXPECT_EQ(grid.window_n(0), 4 + 2 + 1);
  // monotone over a sweep
  int last = g.coord(0, -5.0);
  for (double x = -5.0; x < 15.0; x += 0.01) {
    EXPECT_LE(last, g.coord(0, x));
    last = g.coord(0, x);
  }
}

TEST(Grid, TwoDimensionalGridHasOneLayer)
{
  LevelGrid grid(2.0, cube(2, 10.0), {0, 0, 0}, {10, 10, 0});
  const hgrid::LevelView g = grid.view();
  EXPECT_EQ(grid.window_n(2), 1);
  const double x[3] = {5.0, 5.0, 0.3};
  EXPECT_GE(g.index_of(x), 0);
  auto r = g.search_range(x, 3.0);
  EXPECT_EQ(r.lo[2], 0);
  EXPECT_EQ(r.hi[2], 0);
}

TEST(Grid, SearchBoxCoversExactlyTheReachableCells)
{
  // eq. 4: c_start = M(x - delta), c_end = M(x + delta); 10 cells of edge 1
  LevelGrid grid(0.999, cube(3, 10.0), {0, 0, 0}, {10, 10, 10});
  const hgrid::LevelView g = grid.view();
  const double x[3] = {5.5, 2.2, 7.9};
  auto r = g.search_range(x, 1.5);
  EXPECT_EQ(r.lo[0], 4);
  EXPECT_EQ(r.hi[0], 7);
  EXPECT_EQ(r.lo[1], 0);
  EXPECT_EQ(r.hi[1], 3);
  EXPECT_EQ(r.lo[2], 6);
  EXPECT_EQ(r.hi[2], 9);
  // clipped to the window
  auto big = g.search_range(x, 50.0);
  EXPECT_EQ(big.lo[0], grid.window_lo(0));
  EXPECT_EQ(big.hi[0], grid.window_lo(0) + grid.window_n(0) - 1);
  // every point within delta is in the range (randomized)
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int t = 0; t < 2000; ++t) {
    const double y[3] = {x[0] + 1.5 * u(rng), x[1] + 1.5 * u(rng), x[2] + 1.5 * u(rng)};
    for (int d = 0; d < 3; ++d) {
      EXPECT_GE(g.coord(d, y[d]), r.lo[d]);
      EXPECT_LE(g.coord(d, y[d]), r.hi[d]);
    }
  }
}

TEST(Grid, OwnedPartKeepsEveryCellOfTheOwnedParticles)
{
  // a ghost's search for owned partners reads owned_part() of its box: the cells
  // between those of the owned particles' extent, every one of them, none beyond
  LevelGrid grid(0.999, cube(3, 10.0), {2.3, 0, 4.1}, {6.7, 10, 8.6});
  hgrid::LevelView g = grid.view();
  const double x[3] = {5.5, 2.2, 7.9};
  const hgrid::CellRange box = g.search_range(x, 50.0);    // the whole window
  const hgrid::CellRange unclipped = g.owned_part(box);    // no extent set: all of it
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(unclipped.lo[d], box.lo[d]);
    EXPECT_EQ(unclipped.hi[d], box.hi[d]);
  }
  // owned particles in [lo, hi] (an extent reaching past the subdomain's upper face
  // in x, as an occasional build between reneighborings can find it)
  const double lo[3] = {2.3, 0.0, 4.1}, hi[3] = {7.2, 10.0, 8.6};
  g.set_owned(lo, hi, true);
  const hgrid::CellRange owned = g.owned_part(box);
  const int first[3] = {2, 0, 4}, last[3] = {7, 10, 8};    // the cells of lo and hi
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(owned.lo[d], first[d]) << d;
    EXPECT_EQ(owned.hi[d], last[d]) << d;
  }
  std::mt19937 rng(11);
  for (int t = 0; t < 2000; ++t)
    for (int d = 0; d < 3; ++d) {
      const double y = std::uniform_real_distribution<double>(lo[d], hi[d])(rng);
      EXPECT_GE(g.coord(d, y), owned.lo[d]);
      EXPECT_LE(g.coord(d, y), owned.hi[d]);
    }
  // a box beside them keeps no cell, and none is kept without owned particles
  const double beside[3] = {9.5, 5.0, 6.0};
  EXPECT_TRUE(g.owned_part(g.search_range(beside, 1.0)).empty());
  g.set_owned(lo, hi, false);
  EXPECT_TRUE(g.owned_part(box).empty());
}

TEST(Grid, RejectsBadCellSizes)
{
  EXPECT_THROW(LevelGrid(0.0, cube(3, 10.0), {0, 0, 0}, {10, 10, 10}), std::invalid_argument);
  EXPECT_THROW(LevelGrid(1e-9, cube(3, 10.0), {0, 0, 0}, {10, 10, 10}), std::invalid_argument);
}

namespace {
using Cell = std::array<int, 3>;
// every cell of the stencil rows, in order
std::vector<Cell> cells_of(const std::vector<hgrid::StencilRow> &rows)
{
  std::vector<Cell> out;
  for (const auto &r : rows)
    for (int dx = r.dx0; dx <= r.dx1; ++dx) out.push_back({dx, r.dy, r.dz});
  return out;
}
// brute force: cells of the (2k+1)^d block whose closest point is within s
std::set<Cell> block_within(const LevelGrid &g)
{
  const int k = g.subdivisions();
  const int kz = g.dimension() == 2 ? 0 : k;
  std::set<Cell> out;
  for (int dz = -kz; dz <= kz; ++dz)
    for (int dy = -k; dy <= k; ++dy)
      for (int dx = -k; dx <= k; ++dx) {
        const Cell c{dx, dy, dz};
        double gap2 = 0.0;
        for (int d = 0; d < 3; ++d) {
          const int between = std::abs(c[d]) - 1;
          if (between > 0) gap2 += std::pow(between * g.cell_edge(d), 2);
        }
        if (gap2 <= g.nominal_size() * g.nominal_size()) out.insert(c);
      }
  return out;
}
void expect_half_plus_mirror_is_full(const LevelGrid &g)
{
  const auto half = cells_of(same_level_rows(g, StencilKind::Half));
  const auto full = cells_of(same_level_rows(g, StencilKind::Full));
  ASSERT_FALSE(half.empty());
  EXPECT_EQ(half[0], (Cell{0, 0, 0}));                           // own cell first
  EXPECT_EQ(same_level_rows(g, StencilKind::Half)[0].dx1, 0);    // ... alone in its row
  std::set<Cell> all(half.begin(), half.end());
  EXPECT_EQ(all.size(), half.size());
  for (std::size_t n = 1; n < half.size(); ++n)
    EXPECT_TRUE(all.insert({-half[n][0], -half[n][1], -half[n][2]}).second);
  const std::set<Cell> full_set(full.begin(), full.end());
  EXPECT_EQ(full_set.size(), full.size());
  EXPECT_EQ(all, full_set);
  EXPECT_EQ(full_set, block_within(g));
}
}    // namespace

TEST(Stencil, HalfAndFullSameLevelRows)
{
  const LevelGrid g3(3.0, cube(3, 10.0), {0, 0, 0}, {10, 10, 10});
  const LevelGrid g2(3.0, cube(2, 10.0), {0, 0, -0.5}, {10, 10, 0.5});
  EXPECT_EQ(cells_of(same_level_rows(g3, StencilKind::Full)).size(), 27u);
  EXPECT_EQ(cells_of(same_level_rows(g3, StencilKind::Half)).size(), 14u);
  EXPECT_EQ(cells_of(same_level_rows(g2, StencilKind::Full)).size(), 9u);
  EXPECT_EQ(cells_of(same_level_rows(g2, StencilKind::Half)).size(), 5u);
  EXPECT_EQ(same_level_rows(g3, StencilKind::Half).size(), 6u);    // self, right, 4 rows above
  for (const auto &c : cells_of(same_level_rows(g2, StencilKind::Full))) EXPECT_EQ(c[2], 0);
  expect_half_plus_mirror_is_full(g3);
  expect_half_plus_mirror_is_full(g2);
}

// the full stencil is the half one, row for row, then the other half's rows, marked upper
// (half newton-off lists read only ghosts there, PairSearch)
TEST(Stencil, FullRowsAreTheHalfRowsThenTheUpperOnes)
{
  for (int k : {1, 2})
    for (int dim : {2, 3}) {
      const Box b = cube(dim, 10.0);
      const LevelGrid g(k == 1 ? 3.0 : 2.9, b, b.lo, b.hi, k);
      const auto half = same_level_rows(g, StencilKind::Half);
      const auto full = same_level_rows(g, StencilKind::Full);
      // the pair search takes the first (rows + 1) / 2 as the half ones
      ASSERT_EQ(full.size(), 2 * half.size() - 1);
      for (std::size_t n = 0; n < half.size(); ++n) EXPECT_EQ(full[n], half[n]) << n;
      std::set<Cell> upper, mirror;
      for (std::size_t n = half.size(); n < full.size(); ++n) {
        EXPECT_TRUE(full[n].upper) << n;
        EXPECT_FALSE(full[n].tiebreak) << n;
        for (int dx = full[n].dx0; dx <= full[n].dx1; ++dx)
          upper.insert({dx, full[n].dy, full[n].dz});
      }
      const auto lower = cells_of(half);
      for (std::size_t n = 1; n < lower.size(); ++n)    // the centre cell is its own mirror
        mirror.insert({-lower[n][0], -lower[n][1], -lower[n][2]});
      EXPECT_EQ(upper, mirror) << "k " << k << ", " << dim << "d";
    }
}

TEST(Stencil, PlaneRowsForTriclinicBoxes)
{
  // the own z plane (y row in 2d), whose rows carry the tie-break, and every plane above
  const LevelGrid g3(3.0, cube(3, 10.0), {0, 0, 0}, {10, 10, 10}, 2);
  const LevelGrid g2(3.0, cube(2, 10.0), {0, 0, -0.5}, {10, 10, 0.5}, 2);
  for (const LevelGrid *g : {&g3, &g2}) {
    const int up = g->dimension() == 3 ? 2 : 1;    // the coordinate planes are stacked in
    std::set<Cell> plane, expected;
    for (const auto &r : same_level_rows(*g, StencilKind::Planes)) {
      const int along = up == 2 ? r.dz : r.dy;
      EXPECT_GE(along, 0);
      EXPECT_EQ(r.tiebreak, along == 0);
      for (int dx = r.dx0; dx <= r.dx1; ++dx) EXPECT_TRUE(plane.insert({dx, r.dy, r.dz}).second);
    }
    for (const Cell &c : block_within(*g))
      if (c[up] >= 0) expected.insert(c);
    EXPECT_EQ(plane, expected);
  }
}

TEST(Stencil, SubdividedRowsKeepCellsWithinTheLevelSize)
{
  // edge 10/9 for s = 2.1, close to s/2: the whole 5^3 block (corner gap^2 = 0.84 s^2)
  const LevelGrid fine(2.1, cube(3, 10.0), {0, 0, 0}, {10, 10, 10}, 2);
  EXPECT_EQ(fine.num_global(0), 9);
  EXPECT_EQ(cells_of(same_level_rows(fine, StencilKind::Full)).size(), 125u);
  // edge 10/3 for s = 5.5: corners (gap^2 = 33.3 > 30.25) are pruned
  const LevelGrid coarse(5.5, cube(3, 10.0), {0, 0, 0}, {10, 10, 10}, 2);
  EXPECT_EQ(coarse.num_global(0), 3);
  EXPECT_EQ(cells_of(same_level_rows(coarse, StencilKind::Full)).size(), 117u);
  for (double s : {1.0, 1.7, 2.9, 4.1, 5.5}) {
    for (int dim : {2, 3}) {
      const Box b = cube(dim, 10.0);
      const LevelGrid g(s, b, b.lo, b.hi, 2);
      EXPECT_LE(g.cell_edge(0), s);
      EXPECT_GE(g.cell_edge(0), 0.5 * s);
      expect_half_plus_mirror_is_full(g);
    }
  }
}

// the threaded list builds' chunks: every item taken exactly once, by a team of the size
// reset() was told, a smaller one, or one thread; a thread alone takes its own share
// first, in order, then the others' shares
TEST(AffineQueue, EveryItemOnceAndOwnShareFirst)
{
  hgrid::AffineQueue queue;
  for (int n : {0, 1, 5, 37, 1000}) {
    for (int nt : {1, 2, 3, 4}) {
      for (int team : {nt, 1}) {
        std::vector<std::atomic<int>> taken(n);
        queue.reset(n, nt);
        hgrid::on_threads(team, [&](int t, int) {
          queue.run(t, [&](int k) {
            taken[k].fetch_add(1);
          });
        });
        for (int k = 0; k < n; ++k)
          EXPECT_EQ(taken[k].load(), 1) << "n " << n << ", " << nt << " shares, team " << team;
      }
      // one thread of the team alone: its share in order, then the next shares in turn
      const int t = nt - 1;
      std::vector<int> order;
      queue.reset(n, nt);
      queue.run(t, [&](int k) {
        order.push_back(k);
      });
      std::vector<int> expected;
      for (int u = 0; u < nt; ++u) {
        const hgrid::Share s = hgrid::share_of(n, (t + u) % nt, nt);
        for (int k = s.lo; k < s.hi; ++k) expected.push_back(k);
      }
      EXPECT_EQ(order, expected) << "n " << n << ", " << nt << " shares";
    }
  }
}

// the binning's and the cell lists' shares of owned atoms and ghosts: every index once,
// each thread's first part among the first nfirst, its second among the rest, the
// threads' parts in index order
TEST(SplitShare, EveryIndexOnceAndPartsInOrder)
{
  for (int n : {0, 1, 7, 100}) {
    for (int nfirst : {0, n / 3, n}) {
      for (int nt : {1, 2, 3, 8}) {
        std::vector<int> seen(n, 0);
        int next[2] = {0, nfirst};
        for (int t = 0; t < nt; ++t) {
          const hgrid::SplitShare s = hgrid::split_share_of(n, nfirst, t, nt);
          for (int p = 0; p < 2; ++p) {
            EXPECT_EQ(s.part[p].lo, next[p]) << n << " " << nfirst << " " << nt << " " << t;
            for (int i = s.part[p].lo; i < s.part[p].hi; ++i) ++seen[i];
            next[p] = std::max(next[p], s.part[p].hi);
          }
          EXPECT_LE(s.part[0].hi, nfirst);
          EXPECT_GE(s.part[1].lo, nfirst);
        }
        EXPECT_EQ(next[0], nfirst);
        EXPECT_EQ(next[1], n);
        for (int i = 0; i < n; ++i) EXPECT_EQ(seen[i], 1) << "index " << i;
      }
    }
  }
}

TEST(CellLists, CountingSortKeepsIndexOrderPerCell)
{
  const int n = 5000;
  std::vector<int> cells_per_level{7, 1, 40};
  hgrid::CellLists lists;
  lists.set_levels(cells_per_level);
  std::vector<int> level(n), cell(n), global(n);
  std::mt19937 rng(3);
  for (int i = 0; i < n; ++i) {
    level[i] = static_cast<int>(rng() % 4) - 1;    // -1 = not binned
    cell[i] = level[i] < 0 ? -1 : static_cast<int>(rng() % cells_per_level[level[i]]);
    if (i % 97 == 0 && level[i] >= 0) cell[i] = -1;    // outside window
    global[i] = cell[i] < 0 ? -1 : lists.global_cell(level[i], cell[i]);
  }
  // the pair search's view of the levels: first global cell of each
  std::vector<hgrid::LevelView> views(3);
  for (int h = 0; h < 3; ++h) views[h].first_cell = lists.global_cell(h, 0);
  hgrid::GridView levels;
  levels.nlevels = 3;
  levels.levels = views.data();
  // reuse of storage; the passes on 1-7 threads (OpenMP builds: each thread its share
  // of the cells; here most particles lie in another thread's cells) give the same slots
  std::vector<int> slots1, starts1;
  for (int nthreads : {1, 2, 3, 4, 7, 1}) {
    lists.build(n, global.data(), nthreads);
    const std::vector<int> starts(lists.starts(), lists.starts() + lists.num_cells() + 1);
    const std::vector<int> slots(lists.particles(), lists.particles() + starts.back());
    if (slots1.empty()) {
      slots1 = slots;
      starts1 = starts;
    }
    EXPECT_EQ(starts, starts1) << nthreads << " threads";
    EXPECT_EQ(slots, slots1) << nthreads << " threads";
    int seen = 0;
    std::vector<int> hits(n, 0);
    for (int h = 0; h < 3; ++h) {
      int count = 0;
      for (int c = 0; c < cells_per_level[h]; ++c) {
        int prev = -1;
        const int g = lists.global_cell(h, c);
        EXPECT_EQ(levels.level_of_cell(g), h);
        for (int s = lists.begin(g); s < lists.end(g); ++s) {
          const int i = lists.particles()[s];
          EXPECT_EQ(level[i], h);
          EXPECT_EQ(cell[i], c);
          EXPECT_GT(i, prev);
          prev = i;
          ++hits[i];
          ++count;
        }
      }
      // particles of level h, counted from the input
      int on_level = 0;
      for (int i = 0; i < n; ++i) on_level += (level[i] == h && cell[i] >= 0);
      EXPECT_EQ(count, on_level);
      EXPECT_EQ(lists.level_count(h), on_level);
      seen += count;
    }
    int expected = 0;
    for (int i = 0; i < n; ++i) {
      expected += (level[i] >= 0 && cell[i] >= 0);
      EXPECT_EQ(hits[i], cell[i] >= 0 ? 1 : 0) << "particle " << i;
    }
    EXPECT_EQ(seen, expected);
    // consecutive cells are one slot range from 0 to the number of binned particles
    EXPECT_EQ(lists.begin(0), 0);
    EXPECT_EQ(lists.end(lists.num_cells() - 1), expected);
  }
}

// Particles mostly in the cells of the thread that reads them, as after LAMMPS' atom
// sort (cells rising with the index), some in other threads' cells, some left out,
// and fewer particles than threads: the slots are each cell's particles in index order
// (the reference below), whatever the number of threads and wherever the threads'
// shares split the particles in two parts (owned atoms and ghosts: none, a third, all
// of them in the first part).
TEST(CellLists, ParticlesInOtherThreadsCellsKeepTheirSlots)
{
  std::mt19937 rng(11);
  for (const int n : {2, 3000}) {
    const int ncells = 4 * n + 1;
    std::vector<int> cell(n);
    for (int i = 0; i < n; ++i) {
      const int r = static_cast<int>(rng() % 10);
      cell[i] = r == 0 ? -1 : r == 1 ? static_cast<int>(rng() % ncells) : 4 * i;
    }
    std::vector<int> starts(ncells + 1, 0), slots;
    for (int g = 0; g < ncells; ++g) {
      starts[g] = static_cast<int>(slots.size());
      for (int i = 0; i < n; ++i)
        if (cell[i] == g) slots.push_back(i);
    }
    starts[ncells] = static_cast<int>(slots.size());
    hgrid::CellLists lists;
    lists.set_levels({ncells - 1, 1});
    for (int nthreads = 1; nthreads <= 7; ++nthreads)
      for (const int nfirst : {n, n / 3, 0}) {
        if (nfirst == n)
          lists.build(n, cell.data(), nthreads);
        else
          lists.build(n, nfirst, cell.data(), nthreads);
        EXPECT_EQ(std::vector<int>(lists.starts(), lists.starts() + ncells + 1), starts)
            << n << " particles, " << nthreads << " threads, split at " << nfirst;
        EXPECT_EQ(std::vector<int>(lists.particles(), lists.particles() + starts.back()), slots)
            << n << " particles, " << nthreads << " threads, split at " << nfirst;
      }
  }
}

// Grids of at least kBucketedMinCells cells sort bucket by bucket when serial, and so
// does each of two threads (a share of that many cells, its buckets from the share's
// first cell), three not: the same starts and slots as the reference (each cell's
// particles in index order) whichever way, with particles left out, empty buckets, a
// last bucket part full, a crowded cell, storage reused by a smaller and a larger
// input, and no particles.
TEST(CellLists, LargeGridsSortBucketByBucketAsTheOtherPasses)
{
  using hgrid::CellLists;
  const int ncells = 2 * CellLists::kBucketedMinCells + 12345;
  const int bucket = 1 << CellLists::kBucketShift;
  std::mt19937 rng(17);
  hgrid::CellLists lists;
  lists.set_levels({ncells - 100, 100});
  for (const int n : {60000, 1000, 90000, 0}) {
    std::vector<int> cell(n);
    for (int i = 0; i < n; ++i) {
      const int r = static_cast<int>(rng() % 10);
      int g = r == 0 ? -1 : r == 1 ? 2 * bucket + 5 : static_cast<int>(rng() % ncells);
      if (g >= 3 * bucket && g < 5 * bucket) g = ncells - 1 - static_cast<int>(rng() % 50);
      cell[i] = g;    // buckets 3 and 4 stay empty; the last cells, of a part-full bucket, crowd
    }
    std::vector<std::vector<int>> in_cell(ncells);
    for (int i = 0; i < n; ++i)
      if (cell[i] >= 0) in_cell[cell[i]].push_back(i);
    std::vector<int> starts(ncells + 1, 0), slots;
    for (int g = 0; g < ncells; ++g) {
      starts[g] = static_cast<int>(slots.size());
      slots.insert(slots.end(), in_cell[g].begin(), in_cell[g].end());
    }
    starts[ncells] = static_cast<int>(slots.size());
    for (int nthreads : {1, 2, 3}) {
      lists.build(n, n / 2, cell.data(), nthreads);
      EXPECT_EQ(std::vector<int>(lists.starts(), lists.starts() + ncells + 1), starts)
          << n << " particles, " << nthreads << " threads";
      EXPECT_EQ(std::vector<int>(lists.particles(), lists.particles() + starts.back()), slots)
          << n << " particles, " << nthreads << " threads";
    }
  }
}

TEST(CellLists, SingleParticleAndEmptyInput)
{
  hgrid::CellLists lists;
  lists.set_levels({1});
  lists.build(0, nullptr);
  EXPECT_EQ(lists.level_count(0), 0);
  int cell = 0;
  lists.build(1, &cell);
  ASSERT_EQ(lists.end(0) - lists.begin(0), 1);
  EXPECT_EQ(lists.particles()[0], 0);
}
