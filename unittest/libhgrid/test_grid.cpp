// Unit tests of the pure hgrid library: cell mapping (eq. 1), search boxes
// (eqs. 4-5), same-level stencils and the counting-sort cell lists.
#include "libhgrid/cell_lists.h"
#include "libhgrid/grid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

using hgrid::Box;
using hgrid::LevelGrid;

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
  // a cell size that divides the box is kept (not shrunk by round-off)
  LevelGrid g2(2.5, cube(3, 10.0), {0, 0, 0}, {10, 10, 10});
  EXPECT_EQ(g2.num_global(0), 3);    // 4 cells of 2.5 would be exactly at the limit: safety keeps >= 2.5
  EXPECT_GE(g2.cell_edge(0), 2.5);
  // a cell larger than the box: one cell
  LevelGrid g3(25.0, cube(3, 10.0), {0, 0, 0}, {10, 10, 10});
  EXPECT_EQ(g3.num_global(1), 1);
}

TEST(Grid, MappingFollowsLammpsGhostConvention)
{
  LevelGrid g(3.0, cube(3, 10.0), {-2, -2, -2}, {12, 12, 12});
  EXPECT_EQ(g.coord(0, 0.0), 0);
  EXPECT_EQ(g.coord(0, 3.34), 1);
  EXPECT_EQ(g.coord(0, 9.999), 2);
  EXPECT_EQ(g.coord(0, 10.0), 3);    // periodic image above: next cell
  EXPECT_EQ(g.coord(0, 13.4), 4);
  EXPECT_EQ(g.coord(0, -0.1), -1);    // image below
  EXPECT_EQ(g.coord(0, -3.4), -2);
  // window: ghosts down to -2 -> cell -1, minus one padding cell
  EXPECT_EQ(g.window_lo(0), -2);
  EXPECT_EQ(g.window_n(0), 4 + 2 + 1);
  // monotone over a sweep
  int last = g.coord(0, -5.0);
  for (double x = -5.0; x < 15.0; x += 0.01) {
    EXPECT_LE(last, g.coord(0, x));
    last = g.coord(0, x);
  }
}

TEST(Grid, TwoDimensionalGridHasOneLayer)
{
  LevelGrid g(2.0, cube(2, 10.0), {0, 0, 0}, {10, 10, 0});
  EXPECT_EQ(g.window_n(2), 1);
  const double x[3] = {5.0, 5.0, 0.3};
  EXPECT_GE(g.index_of(x), 0);
  auto r = g.search_range(x, 3.0);
  EXPECT_EQ(r.lo[2], 0);
  EXPECT_EQ(r.hi[2], 0);
}

TEST(Grid, SearchBoxCoversExactlyTheReachableCells)
{
  // eq. 4: c_start = M(x - delta), c_end = M(x + delta); 10 cells of edge 1
  LevelGrid g(0.999, cube(3, 10.0), {0, 0, 0}, {10, 10, 10});
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
  EXPECT_EQ(big.lo[0], g.window_lo(0));
  EXPECT_EQ(big.hi[0], g.window_lo(0) + g.window_n(0) - 1);
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

TEST(Grid, RejectsBadCellSizes)
{
  EXPECT_THROW(LevelGrid(0.0, cube(3, 10.0), {0, 0, 0}, {10, 10, 10}), std::invalid_argument);
  EXPECT_THROW(LevelGrid(1e-9, cube(3, 10.0), {0, 0, 0}, {10, 10, 10}), std::invalid_argument);
}

TEST(Stencil, HalfAndFullSameLevelStencils)
{
  auto full3 = hgrid::same_level_stencil(3, false);
  auto half3 = hgrid::same_level_stencil(3, true);
  auto full2 = hgrid::same_level_stencil(2, false);
  auto half2 = hgrid::same_level_stencil(2, true);
  EXPECT_EQ(full3.size(), 27u);
  EXPECT_EQ(half3.size(), 14u);
  EXPECT_EQ(full2.size(), 9u);
  EXPECT_EQ(half2.size(), 5u);
  for (auto *s : {&full3, &half3, &full2, &half2}) {
    EXPECT_EQ((*s)[0], (std::array<int, 3>{0, 0, 0}));    // own cell first
  }
  // half + mirrored half (without self) = full, no overlap
  std::set<std::array<int, 3>> all(half3.begin(), half3.end());
  for (std::size_t k = 1; k < half3.size(); ++k) {
    std::array<int, 3> m{-half3[k][0], -half3[k][1], -half3[k][2]};
    EXPECT_TRUE(all.insert(m).second);
  }
  const std::set<std::array<int, 3>> full_set(full3.begin(), full3.end());
  EXPECT_EQ(all, full_set);
  for (auto &c : full2) EXPECT_EQ(c[2], 0);
}

TEST(CellLists, CountingSortKeepsIndexOrderPerCell)
{
  const int n = 5000;
  std::vector<int> cells_per_level{7, 1, 40};
  std::vector<int> level(n), cell(n);
  std::mt19937 rng(3);
  for (int i = 0; i < n; ++i) {
    level[i] = static_cast<int>(rng() % 4) - 1;    // -1 = not binned
    cell[i] = level[i] < 0 ? -1 : static_cast<int>(rng() % cells_per_level[level[i]]);
    if (i % 97 == 0 && level[i] >= 0) cell[i] = -1;    // outside window
  }
  hgrid::CellLists lists;
  lists.set_levels(cells_per_level);
  for (int pass = 0; pass < 2; ++pass) {    // reuse of storage
    lists.build(n, level.data(), cell.data());
    int seen = 0;
    for (int h = 0; h < 3; ++h) {
      int count = 0;
      for (int c = 0; c < cells_per_level[h]; ++c) {
        int prev = -1;
        for (int s = lists.begin(h, c); s < lists.end(h, c); ++s) {
          const int i = lists.particles()[s];
          EXPECT_EQ(level[i], h);
          EXPECT_EQ(cell[i], c);
          EXPECT_GT(i, prev);
          EXPECT_EQ(lists.slot_of(i), s);
          prev = i;
          ++count;
        }
      }
      EXPECT_EQ(lists.level_count(h), count);
      seen += count;
    }
    int expected = 0;
    for (int i = 0; i < n; ++i) expected += (level[i] >= 0 && cell[i] >= 0);
    EXPECT_EQ(seen, expected);
  }
}

TEST(CellLists, SingleParticleAndEmptyInput)
{
  hgrid::CellLists lists;
  lists.set_levels({1});
  lists.build(0, nullptr, nullptr);
  EXPECT_EQ(lists.level_count(0), 0);
  int level = 0, cell = 0;
  lists.build(1, &level, &cell);
  ASSERT_EQ(lists.end(0, 0) - lists.begin(0, 0), 1);
  EXPECT_EQ(lists.particles()[0], 0);
}
