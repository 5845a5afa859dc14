/* The pair-search kernel (libhgrid/pair_search.h) on plain arrays, without LAMMPS:
   random polydisperse particles in a box, binned with BinnedGrid (LevelGrid + CellLists) and
   searched with hgrid::PairSearch for every list variant, equal pair for pair to a
   brute-force all-pairs oracle.  Particles with index >= nlocal play ghosts (as in
   LAMMPS, they come after the owned ones). */

#include "libhgrid/binned_grid.h"
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
  std::vector<long long> id;    // IDs of images (triclinic test); else the index
  double pos(int j, int d) const { return x[j][d]; }
  double radius(int j) const { return r[j]; }
  void prefetch(int j) const { HGRID_PREFETCH(x[j].data()); }    // GATHER
  void prefetch_radius(int j) const { HGRID_PREFETCH(&r[j]); }
  long long tag(int j) const { return id.empty() ? j : id[j]; }
  double image_tolerance() const { return 1.0e-6; }
};

// radius of a power law r^-3 on [1, omega] at quantile u (inverse transform)
double power_law_radius(double u, double omega)
{
  return std::pow(1.0 - u * (1.0 - std::pow(omega, -2.0)), -0.5);
}

Particles random_particles(int n, int dim, double omega, unsigned seed)
{
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Particles p;
  for (int i = 0; i < n; ++i) {
    p.r.push_back(power_law_radius(u(rng), omega));
    p.x.push_back({100.0 * u(rng), 100.0 * u(rng), dim == 3 ? 100.0 * u(rng) : 0.5});
  }
  return p;
}

// the grid of one layout over \p box (windows over [wlo, whi]), with p binned
BinnedGrid binned_grid(const Layout &layout, const Particles &p, const Box &box, double skin,
                       StencilKind kind, const std::array<double, 3> &wlo,
                       const std::array<double, 3> &whi)
{
  BinnedGrid grid(layout, box, kind, wlo, whi);
  grid.bin(p.x, p.r, skin);
  return grid;
}

using Pairs = std::map<std::pair<int, int>, int>;    // (i, j) as stored -> count

Box cube(int dim)
{
  Box box;
  box.dimension = dim;
  box.hi = {100.0, 100.0, dim == 3 ? 100.0 : 1.0};
  return box;
}

template <bool HALF, bool NEWTON, bool TRI = false, bool GATHER = false>
Pairs search(const Particles &p, int nlocal, const BinnedGrid &binned, double skin)
{
  const GridView g = binned.view();
  Pairs found;
  SearchCounters count;
  for (int i = 0; i < nlocal; ++i) {
    auto visit = [&](int j, double, double, double, double, double, bool within) {
      if (within) ++found[{i, j}];
    };
    PairSearch<HALF, NEWTON, TRI, GATHER>::neighbors(g, p, i, binned.cell_of(i), nlocal, skin,
                                                     count, visit);
  }
  EXPECT_GE(count.distance_checks, static_cast<long long>(found.size()));
  EXPECT_GT(count.cells_visited, 0);
  return found;
}

// the binned cube [0, 100]^dim
template <bool HALF, bool NEWTON>
Pairs search(const Layout &layout, const Particles &p, int nlocal, int dim, double skin)
{
  const Box box = cube(dim);
  const StencilKind kind = HALF && NEWTON ? StencilKind::Half : StencilKind::Full;
  return search<HALF, NEWTON>(p, nlocal, binned_grid(layout, p, box, skin, kind, box.lo, box.hi),
                              skin);
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

// the case a failure message names
std::string case_name(int dim, const Layout &layout)
{
  return std::to_string(dim) + "d, " + std::to_string(layout.num_levels()) + " level(s), " +
      search_name(layout.search) + ", k " + std::to_string(subdivisions_of(layout));
}

std::vector<Layout> layouts(double top)
{
  // one level: cells of the level size (k = 1), the default half-size sub-cells, k = 3
  return {Layout{{top}, Search::BottomUp, 1},
          Layout{{top}, Search::BottomUp},
          Layout{{top}, Search::TopDown, 3},
          Layout{{4.0, 9.0, top}, Search::BottomUp},
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
      const std::string what = case_name(dim, layout);
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

// a half newton-off search reads its level's full stencil (LAMMPS gives newton-off lists
// full stencils) but, where no ghost is within reach, only its half rows: in a subdomain
// interior it visits the same cells as the newton-on search, and finds the same pairs
TEST(PairSearch, NewtonOffReadsTheHalfStencilInTheInterior)
{
  const double skin = 0.3;
  for (int dim : {2, 3}) {
    Particles p = random_particles(dim == 3 ? 3000 : 1500, dim, 3.0, 40 + dim);
    for (auto &x : p.x)
      for (int d = 0; d < dim; ++d) x[d] = 20.0 + 0.6 * x[d];    // inside [20, 80]
    const int n = p.r.size();
    for (const Layout &layout :
         {Layout{{6.3}, Search::BottomUp, 1}, Layout{{6.3}, Search::TopDown, 2}}) {
      const Box box = cube(dim);
      const double lo[3] = {0, 0, 0}, hi[3] = {100, 100, dim == 3 ? 100.0 : 1.0};
      BinnedGrid full = binned_grid(layout, p, box, skin, StencilKind::Full, box.lo, box.hi);
      BinnedGrid half = binned_grid(layout, p, box, skin, StencilKind::Half, box.lo, box.hi);
      SearchCounters off, on, everywhere;
      Pairs found_off, found_on;
      auto count_cells = [&](BinnedGrid &grid, SearchCounters &c, Pairs &found, auto search) {
        const GridView g = grid.view();
        for (int i = 0; i < n; ++i) {
          auto visit = [&](int j, double, double, double, double, double, bool within) {
            if (within) ++found[{i, j}];
          };
          search(g, i, grid.cell_of(i), c, visit);
        }
      };
      Pairs unused;
      const auto newton_off = [&](const GridView &g, int i, int cell, SearchCounters &c,
                                  auto &visit) {
        PairSearch<true, false>::neighbors(g, p, i, cell, n, skin, c, visit);
      };
      count_cells(full, everywhere, unused, newton_off);    // no interior: all rows read
      full.set_interior(lo, hi);
      count_cells(full, off, found_off, newton_off);
      count_cells(half, on, found_on,
                  [&](const GridView &g, int i, int cell, SearchCounters &c, auto &visit) {
                    PairSearch<true, true>::neighbors(g, p, i, cell, n, skin, c, visit);
                  });
      EXPECT_EQ(off.cells_visited, on.cells_visited) << dim << "d";
      EXPECT_LT(off.cells_visited, everywhere.cells_visited) << dim << "d";
      EXPECT_EQ(unordered(found_off), unordered(found_on)) << dim << "d";
      EXPECT_EQ(unordered(found_off), oracle(p, n, skin, true)) << dim << "d";
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

namespace {

// the candidates every owned particle visits, in order, with and without GATHER (with
// GATHER every level gathered, whatever its LevelView::gather_rows)
template <bool HALF, bool NEWTON, bool GATHER>
std::vector<std::vector<std::pair<int, bool>>> visits(const Particles &p, int nlocal,
                                                      const BinnedGrid &binned, double skin)
{
  GridView g = binned.view();
  std::vector<LevelView> levels(g.levels, g.levels + g.nlevels);
  for (LevelView &v : levels) v.gather_rows = GATHER;
  g.levels = levels.data();
  std::vector<std::vector<std::pair<int, bool>>> out(nlocal);
  SearchCounters count;
  for (int i = 0; i < nlocal; ++i) {
    auto visit = [&](int j, double, double, double, double, double, bool within) {
      out[i].emplace_back(j, within);
    };
    PairSearch<HALF, NEWTON, false, GATHER>::neighbors(g, p, i, binned.cell_of(i), nlocal, skin,
                                                       count, visit);
  }
  return out;
}

template <bool HALF, bool NEWTON>
void expect_gathered_as_row_by_row(const Layout &layout, const Particles &p, int nlocal, int dim,
                                   double skin, const std::string &what)
{
  const Box box = cube(dim);
  const StencilKind kind = HALF && NEWTON ? StencilKind::Half : StencilKind::Full;
  const BinnedGrid binned = binned_grid(layout, p, box, skin, kind, box.lo, box.hi);
  EXPECT_EQ((visits<HALF, NEWTON, true>(p, nlocal, binned, skin)),
            (visits<HALF, NEWTON, false>(p, nlocal, binned, skin)))
      << what << (HALF ? ", half" : ", full") << (NEWTON ? ", newton on" : ", newton off");
}

}    // namespace

// GATHER (the host builders) checks the same candidates in the same order as the
// row-by-row search, for every variant: sparse cells (rows copied a fixed width at a
// time) and cells of hundreds of particles (rows longer than the buffer, a full buffer)
TEST(PairSearch, GatheredRowsAreTheRowByRowCandidates)
{
  const double skin = 0.3, omega = 10.0;
  for (int dim : {2, 3}) {
    const Particles sparse = random_particles(dim == 3 ? 3000 : 1500, dim, omega, 9 + dim);
    const Particles dense = random_particles(3000, dim, 1.0, 13 + dim);    // radius 1
    const int n = sparse.r.size();
    for (const Layout &layout : layouts(2.0 * omega + skin)) {
      const std::string what = case_name(dim, layout);
      expect_gathered_as_row_by_row<false, true>(layout, sparse, 4 * n / 5, dim, skin, what);
      expect_gathered_as_row_by_row<true, false>(layout, sparse, 4 * n / 5, dim, skin, what);
      expect_gathered_as_row_by_row<true, true>(layout, sparse, 4 * n / 5, dim, skin, what);
    }
    // one level of cells 40 wide: 2d about 750 particles per cell, 3d about 375
    const Layout coarse{{40.0}, Search::TopDown};
    const std::string what = std::to_string(dim) + "d, cells of hundreds";
    expect_gathered_as_row_by_row<false, true>(coarse, dense, 2400, dim, skin, what);
    expect_gathered_as_row_by_row<true, false>(coarse, dense, 2400, dim, skin, what);
    expect_gathered_as_row_by_row<true, true>(coarse, dense, 2400, dim, skin, what);
    EXPECT_EQ(unordered(search<true, true>(coarse, dense, 3000, dim, skin)),
              oracle(dense, 3000, skin, true))
        << what;
  }
}

namespace {

// the candidates every owned particle visits, in order: its whole search, or unit by
// unit (PairSearch::unit; \p units counts them)
template <bool HALF, bool NEWTON>
std::vector<std::vector<std::pair<int, bool>>> visits_of(const GridView &g, const Particles &p,
                                                         const BinnedGrid &binned, int nlocal,
                                                         double skin, long long *units)
{
  std::vector<std::vector<std::pair<int, bool>>> out(nlocal);
  SearchCounters count;
  for (int i = 0; i < nlocal; ++i) {
    auto visit = [&](int j, double, double, double, double, double, bool within) {
      out[i].emplace_back(j, within);
    };
    if (!units) {
      PairSearch<HALF, NEWTON>::neighbors(g, p, i, binned.cell_of(i), nlocal, skin, count, visit);
      continue;
    }
    const int n = PairSearch<HALF, NEWTON>::num_units(g, p, i, binned.cell_of(i), nlocal, skin);
    *units += n;
    for (int k = 0; k < n; ++k)
      PairSearch<HALF, NEWTON>::unit(g, p, i, binned.cell_of(i), nlocal, skin, k, count, visit);
  }
  return out;
}

template <bool HALF, bool NEWTON>
void expect_units_as_whole(const Layout &layout, const Particles &p, int nlocal, int dim,
                           double skin, const std::string &what)
{
  const Box box = cube(dim);
  const StencilKind kind = HALF && NEWTON ? StencilKind::Half : StencilKind::Full;
  const BinnedGrid binned = binned_grid(layout, p, box, skin, kind, box.lo, box.hi);
  // a subdomain 10 inside the box on each side: ghost searches skip its interior
  GridView g = binned.view();
  std::vector<LevelView> levels(g.levels, g.levels + g.nlevels);
  const double lo[3] = {10.0, 10.0, 10.0}, hi[3] = {box.hi[0] - 10.0, box.hi[1] - 10.0, 90.0};
  for (LevelView &v : levels) v.set_interior(lo, hi);
  g.levels = levels.data();
  long long units = 0;
  EXPECT_EQ((visits_of<HALF, NEWTON>(g, p, binned, nlocal, skin, &units)),
            (visits_of<HALF, NEWTON>(g, p, binned, nlocal, skin, nullptr)))
      << what << (HALF ? ", half" : ", full") << (NEWTON ? ", newton on" : ", newton off");
  EXPECT_GT(units, nlocal) << what;
}

}    // namespace

// the units of a split search (one thread each in NPairHGridKokkos's split pass) visit
// the candidates of the whole search in its order, for every variant and layout
TEST(PairSearch, UnitsVisitTheCandidatesOfTheWholeSearch)
{
  const double skin = 0.3, omega = 10.0;
  for (int dim : {2, 3}) {
    const Particles p = random_particles(dim == 3 ? 3000 : 1500, dim, omega, 21 + dim);
    const int n = p.r.size();
    for (const Layout &layout : layouts(2.0 * omega + skin)) {
      const std::string what = case_name(dim, layout);
      expect_units_as_whole<false, true>(layout, p, 4 * n / 5, dim, skin, what);
      expect_units_as_whole<true, false>(layout, p, 4 * n / 5, dim, skin, what);
      expect_units_as_whole<true, true>(layout, p, 4 * n / 5, dim, skin, what);
    }
  }
}

// rows of a few particles each (a level of dense rows, LevelView::dense_rows): rows of
// up to 2 kGatherWidth slots are copied at once, in the same order
TEST(PairSearch, DenseRowsAreCopiedWiderWithTheSameCandidates)
{
  const double skin = 0.3;
  const Particles p = random_particles(4500, 2, 1.0, 31);    // 2d, radius 1
  const Box box = cube(2);
  // cells of 2.3 split into 2^2 sub-cells: rows of 5 sub-cells hold about 3 particles
  const Layout layout{{2.0 + skin}, Search::TopDown, 2};
  const BinnedGrid sparse_rows = binned_grid(layout, random_particles(900, 2, 1.0, 32), box, skin,
                                             StencilKind::Half, box.lo, box.hi);
  EXPECT_FALSE(sparse_rows.view().levels[0].dense_rows);
  const BinnedGrid binned = binned_grid(layout, p, box, skin, StencilKind::Half, box.lo, box.hi);
  ASSERT_TRUE(binned.view().levels[0].dense_rows);
  const int nlocal = 4 * 4500 / 5;
  EXPECT_EQ((visits<true, true, true>(p, nlocal, binned, skin)),
            (visits<true, true, false>(p, nlocal, binned, skin)));
  EXPECT_EQ(unordered(search<true, true>(p, 4500, binned, skin)), oracle(p, 4500, skin, true));
}

// GATHER: a large cross-level box gathers the candidates of all its rows before it checks
// them (kBoxGatherRows), the same candidates in the same order as row by row: large
// particles over small ones, and a row of the box holding more small particles than
// the buffer (a strip of them along x), checked where it lies
TEST(PairSearch, LargeBoxesGatherTheRowByRowCandidates)
{
  const double skin = 0.3;
  const Layout layout{{1.2, 30.0}, Search::TopDown};
  for (int dim : {2, 3}) {
    std::mt19937 rng(50 + dim);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    Particles p;
    const auto add = [&](double r, double x, double y, double z) {
      p.r.push_back(r);
      p.x.push_back({x, y, dim == 3 ? z : 0.5});
    };
    add(14.0, 50.0, 50.0, 50.0);    // level 1: its box on level 0 spans ~25 rows a side
    for (int i = 0; i < 20; ++i) add(5.0 + 9.0 * u(rng), 100 * u(rng), 100 * u(rng), 100 * u(rng));
    for (int i = 0; i < 1500; ++i)
      add(0.05 + 0.35 * u(rng), 100 * u(rng), 100 * u(rng), 100 * u(rng));
    const int strip = 2 * kBoxCapacity;    // within one row of level-0 cells (edge 100/83)
    for (int i = 0; i < strip; ++i)
      add(0.05, 37.0 + 26.0 * u(rng), 50.65 + 0.2 * u(rng), 50.65 + 0.2 * u(rng));
    const int n = p.r.size(), nlocal = 4 * n / 5;
    const Box box = cube(dim);
    const std::string what = std::to_string(dim) + "d";
    for (StencilKind kind : {StencilKind::Half, StencilKind::Full}) {
      const BinnedGrid binned = binned_grid(layout, p, box, skin, kind, box.lo, box.hi);
      const GridView g = binned.view();
      const LevelView &fine = g.levels[0];
      const CellRange r = fine.search_range(p.x[0].data(), 0.5 * (2.0 * p.r[0] + skin + 1.2));
      ASSERT_GE((PairSearch<true, true>::num_rows(r)), kBoxGatherRows) << what;
      const int c0 =
          fine.first_cell + fine.index(r.lo[0], fine.coord(1, 50.7), fine.coord(2, 50.7));
      ASSERT_GT(g.cell_start[c0 + r.hi[0] - r.lo[0] + 1] - g.cell_start[c0], kBoxCapacity) << what;
      if (kind == StencilKind::Half) {
        EXPECT_EQ((visits<true, true, true>(p, nlocal, binned, skin)),
                  (visits<true, true, false>(p, nlocal, binned, skin)))
            << what << ", half, newton on";
        EXPECT_EQ(unordered(search<true, true, false, true>(p, n, binned, skin)),
                  oracle(p, n, skin, true))
            << what << ", newton on";
      } else {
        EXPECT_EQ((visits<true, false, true>(p, nlocal, binned, skin)),
                  (visits<true, false, false>(p, nlocal, binned, skin)))
            << what << ", half, newton off";
        EXPECT_EQ((visits<false, true, true>(p, nlocal, binned, skin)),
                  (visits<false, true, false>(p, nlocal, binned, skin)))
            << what << ", full";
        EXPECT_EQ((search<false, true, false, true>(p, nlocal, binned, skin)),
                  oracle(p, nlocal, skin, false))
            << what << ", full";
      }
    }
  }
}

// a level gathers its rows where its half stencil holds kGatherMinCandidates on average
// (LevelView::gather_rows), else reads them row by row; the lists are the same
TEST(PairSearch, SparseLevelsAreReadRowByRow)
{
  const double skin = 0.3;
  const Box box = cube(2);
  const Layout layout{{2.0 + skin}, Search::TopDown, 1};    // half stencil: 5 cells of 2.3
  for (const auto &[n, gathered] : {std::pair<int, bool>{300, false}, {4500, true}}) {
    const Particles p = random_particles(n, 2, 1.0, 41);
    const BinnedGrid binned = binned_grid(layout, p, box, skin, StencilKind::Half, box.lo, box.hi);
    const LevelView &v = binned.view().levels[0];
    const double candidates = 5.0 * n / v.num_cells();
    EXPECT_EQ(v.gather_rows, candidates >= kGatherMinCandidates) << n;
    EXPECT_EQ(v.gather_rows, gathered) << n << " particles, " << candidates << " candidates";
    EXPECT_EQ(unordered(search<true, true, false, true>(p, n, binned, skin)),
              oracle(p, n, skin, true))
        << n << ", newton on";
    const BinnedGrid full = binned_grid(layout, p, box, skin, StencilKind::Full, box.lo, box.hi);
    EXPECT_EQ(full.view().levels[0].gather_rows, gathered) << n;
    EXPECT_EQ(unordered(search<true, false, false, true>(p, n, full, skin)),
              oracle(p, n, skin, true))
        << n << ", newton off";
  }
}

namespace {

// a periodic triclinic box: edge vectors a = (L, 0, 0), b = (xy, L, 0), c = (xz, yz, L)
// (in 2d xz = yz = 0, as LAMMPS requires)
struct TiltedBox {
  explicit TiltedBox(int dimension) : dim(dimension), xz(dim == 3 ? 20.0 : 0.0), yz(-0.75 * xz) {}
  int dim;
  double L = 100.0, xy = 30.0, xz, yz;
  std::array<double, 3> point(const std::array<double, 3> &lamda) const
  {
    return {L * lamda[0] + xy * lamda[1] + xz * lamda[2], L * lamda[1] + yz * lamda[2],
            L * lamda[2]};
  }
  // the bounding box of the tilted box, as LAMMPS' boxlo_bound/boxhi_bound
  Box bounds() const
  {
    Box box;
    box.dimension = dim;
    box.lo = box.hi = point({0, 0, 0});
    for (int corner = 1; corner < 8; ++corner) {
      const auto c = point({double(corner & 1), double(corner >> 1 & 1), double(corner >> 2)});
      for (int d = 0; d < 3; ++d) {
        box.lo[d] = std::min(box.lo[d], c[d]);
        box.hi[d] = std::max(box.hi[d], c[d]);
      }
    }
    if (dim == 2) box.hi[2] = 1.0;
    return box;
  }
  std::vector<std::array<double, 3>> shifts() const
  {
    std::vector<std::array<double, 3>> all;
    const int kz = dim == 3 ? 1 : 0;
    for (int na = -1; na <= 1; ++na)
      for (int nb = -1; nb <= 1; ++nb)
        for (int nc = -kz; nc <= kz; ++nc)
          if (na || nb || nc) all.push_back({double(na), double(nb), double(nc)});
    return all;
  }
};

// n owned particles in the tilted box (IDs 0..n-1), then as ghosts their periodic
// images within \p margin (in box fractions) of it, with the IDs of their originals.
// Owned particles sit on a lattice of 50 sites per edge (off the cell edges), so many
// share a coordinate;
// ghost coordinates are off by 1e-9, as round-off of LAMMPS' lamda <-> box
// conversions leaves them: a tie-break by coordinates then decides a tied pair
// differently on the two sides.
Particles periodic_images(const TiltedBox &box, int n, double omega, unsigned seed, double margin)
{
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  auto site = [&]() {
    return (std::floor(50.0 * u(rng)) + 0.37) / 50.0;
  };
  Particles p;
  std::vector<std::array<double, 3>> lamda;
  for (int i = 0; i < n; ++i) {
    p.r.push_back(power_law_radius(u(rng), omega));
    lamda.push_back({site(), site(), box.dim == 3 ? site() : 0.0});
    p.x.push_back(box.point(lamda.back()));
    p.id.push_back(i);
  }
  auto roundoff = [&]() {
    return u(rng) < 0.5 ? -1.0e-9 : 1.0e-9;
  };
  for (const auto &s : box.shifts())
    for (int i = 0; i < n; ++i) {
      const std::array<double, 3> l{lamda[i][0] + s[0], lamda[i][1] + s[1], lamda[i][2] + s[2]};
      bool near = true;
      for (int d = 0; d < box.dim; ++d) near = near && l[d] >= -margin && l[d] <= 1.0 + margin;
      if (!near) continue;
      auto x = box.point(l);
      for (int d = 0; d < box.dim; ++d) x[d] += roundoff();
      p.x.push_back(x);
      p.r.push_back(p.r[i]);
      p.id.push_back(i);
    }
  return p;
}

// every pair of owned particles within cutoff under some periodic image, by ID pair
Pairs periodic_oracle(const TiltedBox &box, const Particles &p, int n, double skin)
{
  auto images = box.shifts();
  images.push_back({0, 0, 0});
  Pairs expected;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      for (const auto &s : images) {
        const auto shift = box.point(s);
        double rsq = 0.0;
        for (int d = 0; d < 3; ++d) {
          const double del = p.x[i][d] - p.x[j][d] - shift[d];
          rsq += del * del;
        }
        const double cut = p.r[i] + p.r[j] + skin;
        if (rsq <= cut * cut) ++expected[{i, j}];
      }
  return expected;
}

// pairs as found, keyed by the IDs of the two originals
Pairs by_id(const Pairs &found, const Particles &p)
{
  Pairs out;
  for (const auto &[ij, c] : found) {
    const long long a = p.id[ij.first], b = p.id[ij.second];
    out[{int(std::min(a, b)), int(std::max(a, b))}] += c;
  }
  return out;
}

}    // namespace

TEST(PairSearch, TriclinicNewtonOnStoresEveryPeriodicPairOnce)
{
  // a half newton-on list over owned atoms and their ghost images in a tilted periodic
  // box stores each pair once: the plane stencil + ID tie-break (TRI); the orthogonal
  // rules fail here (upper-half cells: cells do not repeat with a tilted box;
  // coordinates: ghost coordinates are off by round-off)
  const double skin = 0.3, omega = 10.0;
  for (int dim : {2, 3}) {
    const TiltedBox box(dim);
    const int n = dim == 3 ? 1500 : 800;
    const Particles p = periodic_images(box, n, omega, 31 + dim, 0.3);
    std::array<double, 3> wlo = p.x[0], whi = p.x[0];
    for (const auto &x : p.x)
      for (int d = 0; d < 3; ++d) {
        wlo[d] = std::min(wlo[d], x[d]);
        whi[d] = std::max(whi[d], x[d]);
      }
    const Pairs expected = periodic_oracle(box, p, n, skin);
    ASSERT_GT(expected.size(), 100u);
    for (const Layout &layout : layouts(2.0 * omega + skin)) {
      const BinnedGrid binned =
          binned_grid(layout, p, box.bounds(), skin, StencilKind::Planes, wlo, whi);
      const Pairs found = search<true, true, true>(p, n, binned, skin);
      EXPECT_EQ(by_id(found, p), expected)
          << dim << "d, " << layout.num_levels() << " level(s), " << search_name(layout.search);
    }
  }
}
