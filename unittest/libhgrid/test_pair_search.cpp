/* The pair-search kernel (libhgrid/pair_search.h) on plain arrays, without LAMMPS:
   random polydisperse particles in a box, binned with LevelGrid + CellLists and
   searched with hgrid::PairSearch for every list variant, equal pair for pair to a
   brute-force all-pairs oracle.  Particles with index >= nlocal play ghosts (as in
   LAMMPS, they come after the owned ones). */

#include "libhgrid/cell_lists.h"
#include "libhgrid/grid.h"
#include "libhgrid/layout.h"
#include "libhgrid/pair_search.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <utility>

using namespace hgrid;

namespace {

struct Particles {
  std::vector<std::array<double, 3>> x;
  std::vector<double> r;
  double pos(int j, int d) const { return x[j][d]; }
  double radius(int j) const { return r[j]; }
};

Particles random_particles(int n, int dim, double omega, unsigned seed)
{
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Particles p;
  for (int i = 0; i < n; ++i) {
    // power law r^-3 on [1, omega] by inverse transform
    const double r = std::pow(1.0 - u(rng) * (1.0 - std::pow(omega, -2.0)), -0.5);
    p.r.push_back(r);
    p.x.push_back({100.0 * u(rng), 100.0 * u(rng), dim == 3 ? 100.0 * u(rng) : 0.5});
  }
  return p;
}

// the grid of one layout over the whole box, binned, with its stencil rows
struct BinnedGrid {
  std::vector<LevelGrid> grids;
  std::vector<LevelView> views;
  std::vector<RowOffset> rows;
  std::vector<int> level_rows{0}, atom2cell;
  CellLists cells;

  BinnedGrid(const Layout &layout, const Particles &p, int dim, double skin, bool half)
  {
    Box box;
    box.dimension = dim;
    box.hi = {100.0, 100.0, dim == 3 ? 100.0 : 1.0};
    std::vector<int> ncells;
    int first = 0;
    for (double s : layout.cell_sizes) {
      grids.emplace_back(s, box, box.lo, box.hi, subdivisions_of(layout));
      views.push_back(grids.back().view(first));
      for (const auto &r : same_level_rows(grids.back(), half))
        rows.push_back({grids.back().offset(r.dx0, r.dy, r.dz), r.dx1 - r.dx0 + 1});
      level_rows.push_back(rows.size());
      ncells.push_back(grids.back().num_cells());
      first += ncells.back();
    }
    cells.set_levels(ncells);
    for (std::size_t i = 0; i < p.r.size(); ++i) {
      const LevelView &v = views[level_of(layout, 2.0 * p.r[i] + skin)];
      atom2cell.push_back(v.first_cell + v.index_of(p.x[i].data()));
    }
    cells.build(p.r.size(), atom2cell.data());
  }

  GridView view(const Layout &layout) const
  {
    GridView g;
    g.nlevels = layout.num_levels();
    g.topdown = layout.search == Search::TopDown;
    g.levels = views.data();
    g.level_rows = level_rows.data();
    g.rows = rows.data();
    g.cell_start = cells.starts();
    g.slots = cells.particles();
    return g;
  }
};

using Pairs = std::map<std::pair<int, int>, int>;    // (i, j) as stored -> count

template <bool HALF, bool NEWTON>
Pairs search(const Layout &layout, const Particles &p, int nlocal, int dim, double skin)
{
  const BinnedGrid binned(layout, p, dim, skin, HALF && NEWTON);
  const GridView g = binned.view(layout);
  Pairs found;
  SearchCounters count;
  for (int i = 0; i < nlocal; ++i) {
    auto visit = [&](int j, double, double, double, double, double) {
      ++found[{i, j}];
    };
    PairSearch<HALF, NEWTON>::neighbors(g, p, i, binned.atom2cell[i], nlocal, skin, count, visit);
  }
  EXPECT_GE(count.distance_checks, static_cast<long long>(found.size()));
  EXPECT_GT(count.cells_visited, 0);
  return found;
}

bool within(const Particles &p, int i, int j, double skin)
{
  double rsq = 0.0;
  for (int d = 0; d < 3; ++d) rsq += (p.x[i][d] - p.x[j][d]) * (p.x[i][d] - p.x[j][d]);
  const double cut = p.r[i] + p.r[j] + skin;
  return rsq <= cut * cut;
}

// full: (i, j) for every owned i and partner j; half: owned pairs once as (min, max),
// owned-ghost pairs from the owned side (i < nlocal <= j, so also (min, max))
Pairs oracle(const Particles &p, int nlocal, double skin, bool half)
{
  Pairs expected;
  const int n = p.r.size();
  for (int i = 0; i < nlocal; ++i)
    for (int j = 0; j < n; ++j)
      if (j != i && within(p, i, j, skin) && (!half || j > i || j >= nlocal)) ++expected[{i, j}];
  return expected;
}

// a pair found in either order counts once, keyed (min, max)
Pairs unordered(const Pairs &pairs)
{
  Pairs out;
  for (const auto &[ij, c] : pairs)
    out[{std::min(ij.first, ij.second), std::max(ij.first, ij.second)}] += c;
  return out;
}

std::vector<Layout> layouts(double top)
{
  return {Layout{{top}, Search::BottomUp}, Layout{{4.0, 9.0, top}, Search::BottomUp},
          Layout{{4.0, 9.0, top}, Search::TopDown},
          Layout{{2.6, 3.5, 5.0, 8.0, 12.0, top}, Search::TopDown}};
}

}    // namespace

TEST(PairSearch, EveryVariantEqualsAllPairs)
{
  const double skin = 0.3, omega = 10.0;
  for (int dim : {2, 3}) {
    const Particles p = random_particles(dim == 3 ? 3000 : 1500, dim, omega, 5 + dim);
    const int n = p.r.size(), nlocal = 4 * n / 5;    // the last fifth play ghosts
    for (const Layout &layout : layouts(2.0 * omega + skin)) {
      const std::string what = std::to_string(dim) + "d, " + std::to_string(layout.num_levels()) +
          " level(s), " + search_name(layout.search);
      EXPECT_EQ((search<false, true>(layout, p, nlocal, dim, skin)), oracle(p, nlocal, skin, false))
          << "full list, " << what;
      // half, newton off: owned pairs once, cross-level ones from the searching side
      EXPECT_EQ(unordered(search<true, false>(layout, p, nlocal, dim, skin)),
                oracle(p, nlocal, skin, true))
          << "half list, newton off, " << what;
      // newton on without ghosts: every pair exactly once, in either order
      const Pairs once = search<true, true>(layout, p, n, dim, skin);
      EXPECT_EQ(unordered(once), oracle(p, n, skin, true)) << "half list, newton on, " << what;
    }
  }
}

TEST(PairSearch, NewtonOnStoresEveryPairOnceAcrossTheOwnedGhostCut)
{
  // with ghosts, a newton-on list stores an owned/ghost pair from one side at most;
  // owned/owned pairs exactly once
  const double skin = 0.3, omega = 10.0;
  const Particles p = random_particles(3000, 3, omega, 21);
  const int n = p.r.size(), nlocal = 2 * n / 3;
  for (const Layout &layout : layouts(2.0 * omega + skin)) {
    const Pairs found = unordered(search<true, true>(layout, p, nlocal, 3, skin));
    const Pairs all = oracle(p, nlocal, skin, true);
    for (const auto &[ij, c] : found) {
      EXPECT_EQ(c, 1) << ij.first << " " << ij.second;
      EXPECT_TRUE(all.count(ij)) << "not a pair: " << ij.first << " " << ij.second;
    }
    for (const auto &[ij, c] : all)
      if (ij.second < nlocal) EXPECT_EQ(found.count(ij), 1u) << ij.first << " " << ij.second;
  }
}
