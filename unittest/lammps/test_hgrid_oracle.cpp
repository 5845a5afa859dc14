/* The hgrid neighbor lists of real LAMMPS runs against a brute-force all-pairs
   oracle: randomized polydisperse systems (monodisperse, bidisperse 1:20, truncated
   power laws alpha = 0, -2, -3 up to omega = 100), 2d and 3d, periodic, fixed and shrink-wrapped,
   newton on and off, default and explicit layouts (1, 2 and many levels), Top-Down
   and Bottom-Up, orthogonal and triclinic boxes.  Each case checks the pair style's half list (with history bits)
   and a full size list, summed over all MPI ranks: every pair within
   r_i + r_j + skin appears exactly as often as the list kind requires (no misses,
   no duplicates), no self pairs, history bit set iff the particles touch.  hgrid
   communicates size-dependent ghost cutoffs by default (comm mode multi, size
   classes at most 1.25 apart, hgrid::ghost_classes); two layouts also run with one
   ghost cutoff (comm_modify mode single). */

#include "hgrid_testing.h"

#include "atom.h"
#include "comm.h"
#include "domain.h"
#include "force.h"
#include "hgrid_planner.h"
#include "lammps.h"
#include "library.h"
#include "nbin_hgrid.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "npair.h"
#include "pair.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <memory>
#include <sstream>

using namespace hgrid_testing;
using LAMMPS_NS::LAMMPS;

namespace {

struct Distribution {
  std::string name, kind;
  double omega, alpha;
  int natoms;
};

const Distribution distributions[] = {
    {"mono", "mono", 1.0, 0.0, 1000},        {"bi20", "bi", 20.0, 0.0, 800},
    {"pl0", "powerlaw", 10.0, 0.0, 1000},    {"plm2", "powerlaw", 100.0, -2.0, 1500},
    {"plm3", "powerlaw", 100.0, -3.0, 1500},
};

std::string decimal(double v)
{
  std::ostringstream out;
  out.precision(10);
  out << v;
  return out.str();
}

// explicit layouts relative to the smallest and largest cutoff diameter
std::vector<std::pair<std::string, std::string>> layouts(double cmin, double cmax)
{
  const double top = 1.001 * cmax;
  const double first2 = 1.2 * cmin;
  std::string many;
  const double q = std::max(1.3, std::pow(top / cmin, 1.0 / 5.0));
  for (int k = 0; k < 6; k++)
    many += " " + decimal(k == 5 ? std::max(top, cmin * std::pow(q, 5)) : cmin * std::pow(q, k));
  return {{"default", "hgrid"},
          {"defaultTD", "hgrid search topdown"},
          {"one", "hgrid levels 1 " + decimal(top)},
          {"twoTD",
           "hgrid levels 2 " + decimal(first2) + " " + decimal(std::max(top, 2 * first2)) +
               " search topdown"},
          {"manyBU", "hgrid levels 6" + many + " search bottomup"},
          {"manyTD", "hgrid levels 6" + many + " search topdown"}};
}

struct OracleCase {
  std::string name;
  SystemSpec spec;
};

// a system of \p dist in a box with \p boundary ("p", "f" or "s"), tilted by \p tilt
SystemSpec system_of(const Distribution &dist, int dim, char boundary, bool newton, double tilt)
{
  SystemSpec spec;
  spec.dimension = dim;
  spec.periodic = boundary == 'p';
  spec.shrinkwrap = boundary == 's';
  spec.newton = newton;
  spec.distribution = dist.kind;
  spec.omega = dist.omega;
  spec.alpha = dist.alpha;
  spec.natoms = dist.natoms;
  spec.packing = dim == 3 ? 0.3 : 0.5;
  spec.tilt = tilt;
  return spec;
}

std::vector<OracleCase> oracle_cases()
{
  std::vector<OracleCase> cases;
  int seed = 11;
  // orthogonal boxes, every distribution and boundary; triclinic boxes (tilted 0.3 in
  // xy, 0.15 in xz and yz: cells over the bounding box) for two distributions, not
  // shrink-wrapped: stock LAMMPS (neighbor bin too) loses atoms at the faces of a
  // shrink-wrapped tilted box filled this way
  for (double tilt : {0.0, 0.3})
    for (const auto &dist : distributions) {
      if (tilt != 0.0 && dist.name != "bi20" && dist.name != "plm3") continue;
      for (int dim : {2, 3})
        for (const char *boundary : {"p", "f", "s"})
          for (bool newton : {true, false}) {
            if (tilt != 0.0 && boundary[0] == 's') continue;
            SystemSpec spec = system_of(dist, dim, boundary[0], newton, tilt);
            const double cmin = 2.0 + spec.skin, cmax = 2.0 * dist.omega + spec.skin;
            for (const auto &[lname, args] : layouts(cmin, cmax))
              for (const std::string comm_mode : {"multi", "single"}) {
                // ghost cutoffs by size class (mode multi, asked for: these small
                // systems would get one cutoff by default, HGridGhosts); one ghost
                // cutoff (mode single) with two layouts; triclinic boxes with two layouts
                const bool single = comm_mode == "single";
                const bool two_layouts = single || tilt != 0.0;
                if (two_layouts && lname != "default" && lname != "manyTD") continue;
                if (tilt != 0.0 && single) continue;
                spec.neighbor = args;
                spec.comm_mode = comm_mode;
                spec.seed = seed++;
                cases.push_back({dist.name + "_" + std::to_string(dim) + "d_" + boundary + "_" +
                                     (newton ? "newton" : "newtoff") + "_" + lname +
                                     (single ? "_commsingle" : "") +
                                     (tilt != 0.0 ? "_triclinic" : ""),
                                 spec});
              }
          }
    }
  return cases;
}

void PrintTo(const OracleCase &c, std::ostream *os)
{
  *os << describe(c.spec);
}

class HGridOracle : public ::testing::TestWithParam<OracleCase> {};

}    // namespace

namespace {
// the lists were built with what the case asked for: explicit levels and search
// direction, comm mode, and (mode multi) the plan's ghost classes as collections
void expect_requested_plan(LAMMPS *lmp, const SystemSpec &spec)
{
  const hgrid::Plan &plan = LAMMPS_NS::HGridPlanner::find(lmp)->plan();
  std::istringstream words(spec.neighbor);
  std::string word;
  words >> word;    // hgrid
  while (words >> word) {
    if (word == "levels") {
      int n;
      words >> n;
      ASSERT_EQ(plan.layout.num_levels(), n) << spec.neighbor;
      for (int h = 0; h < n; h++) {
        double s;
        words >> s;
        EXPECT_NEAR(plan.layout.cell_sizes[h], s, 1e-12 * s) << spec.neighbor;
      }
    } else if (word == "search") {
      words >> word;
      EXPECT_EQ(plan.layout.search, hgrid::search_from_name(word)) << spec.neighbor;
    }
  }
  const bool multi = spec.comm_mode != "single";
  EXPECT_EQ(lmp->comm->mode, multi ? LAMMPS_NS::Comm::MULTI : LAMMPS_NS::Comm::SINGLE);
  if (multi) EXPECT_EQ(lmp->neighbor->ncollections, (int) plan.ghost_bounds.size());
}
}    // namespace

TEST_P(HGridOracle, ListsEqualAllPairs)
{
  const SystemSpec &spec = GetParam().spec;
  std::unique_ptr<LAMMPS> lmp(make_lammps());
  ASSERT_NO_THROW(create_system(lmp.get(), spec)) << describe(spec);
  expect_requested_plan(lmp.get(), spec);
  expect_pair_list_matches_oracle(lmp.get(), spec.newton, "of " + describe(spec));
  expect_lists_match_oracle(lmp.get(), spec.newton, "of " + describe(spec));
}

INSTANTIATE_TEST_SUITE_P(Systems, HGridOracle, ::testing::ValuesIn(oracle_cases()),
                         [](const auto &info) {
                           return info.param.name;
                         });

// size ratio 1000 (the top of the range hgrid is for): an intruder of diameter 2000 and
// one of 600 among small particles of diameter 2 to 20 (f(r) ~ r^-3), in a periodic box
// barely wider than the large intruder, 2d and 3d, newton on and off: the layout from
// the model spans the whole range, the thousands of small particles inside and around
// the intruders are all their partners (stock bin stops here with "Neighbor history
// overflow, boost neigh_modify one"), and the lists equal the oracle's
TEST(HGridOracle, SizeRatioThousand)
{
  for (const int dim : {2, 3})
    for (const bool newton : {true, false}) {
      const std::string what = std::to_string(dim) + "d, newton " + (newton ? "on" : "off");
      const std::string z = dim == 3 ? "0 2200" : "-0.5 0.5";
      const std::string zc = dim == 3 ? " 1100" : " 0";
      std::unique_ptr<LAMMPS> lmp(make_lammps());
      ASSERT_NO_THROW(commands(
          lmp.get(),
          {"dimension " + std::to_string(dim), std::string("newton ") + (newton ? "on" : "off"),
           "atom_style sphere 1", "comm_modify vel yes", "region box block 0 2200 0 2200 " + z,
           "create_box 1 box", "create_atoms 1 random 10000 4711 NULL",
           "variable d atom 2.0*(1.0-random(0,1,815)*0.99)^(-0.5)", "set group all diameter v_d",
           "create_atoms 1 single 1100 1100" + zc, "create_atoms 1 single 550 550" + zc,
           "variable n equal count(all)", "set atom $(v_n-1) diameter 2000",
           "set atom ${n} diameter 600",
           "pair_style gran/hooke/history 1000.0 NULL 50.0 NULL 0.5 0", "pair_coeff * *",
           "neighbor 0.1 hgrid", "run 0 post no"}))
          << what;
      const auto &layout = LAMMPS_NS::HGridPlanner::find(lmp.get())->plan().layout;
      EXPECT_GE(layout.top(), 2000.1) << what;
      EXPECT_GE(layout.num_levels(), 2) << what;
      expect_pair_list_matches_oracle(lmp.get(), newton, "size ratio 1000, " + what);
      expect_lists_match_oracle(lmp.get(), newton, "size ratio 1000, " + what);
    }
}

// a grid of more cells than CellLists::kBucketedMinCells (large_grid_input: a cluster
// of particles with an intruder in a wide box, a fine first level): the serial sort
// into cells goes bucket by bucket (CellLists::build_bucketed; also on each of 2
// ranks), and the lists equal the oracle, newton on and off
TEST(HGridOracle, LargeGridsSortedBucketByBucket)
{
  for (const bool newton : {true, false}) {
    const std::string what = std::string("newton ") + (newton ? "on" : "off");
    std::unique_ptr<LAMMPS> lmp(make_lammps());
    ASSERT_NO_THROW(commands(lmp.get(), large_grid_input(newton, 300))) << what;
    auto *bins = dynamic_cast<LAMMPS_NS::NBinHGrid *>(lmp->force->pair->list->np->nb);
    ASSERT_NE(bins, nullptr) << what;
    if (lmp->comm->nprocs <= 2)
      EXPECT_GE(bins->get_cells().num_cells(), hgrid::CellLists::kBucketedMinCells) << what;
    expect_pair_list_matches_oracle(lmp.get(), newton, "large grid, " + what);
    expect_lists_match_oracle(lmp.get(), newton, "large grid, " + what);
  }
}

// size-dependent ghost cutoffs (the default, = comm_modify mode multi): the atom
// collections are size classes 1.25 apart, so each atom is communicated about as
// far as any atom can reach it (with a one-way Bottom-Up search: any atom that
// searches it) -- no more ghosts than multi with x2 or x4 intervals or with the
// levels as intervals (also with reduce/multi), far fewer than one ghost cutoff for all
namespace {
SystemSpec ghost_test_system()
{
  SystemSpec spec = powerlaw_system(3000, 30.0, 0.3);    // neighbor: default hgrid
  spec.seed = 7;
  return spec;
}

double ghosts_of(LAMMPS *lmp)
{
  double mine = lmp->atom->nghost, all = 0.0;
  MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return all;
}

double ghosts(SystemSpec spec, const std::string &neighbor, const std::string &comm_mode,
              const std::string &neigh_modify = "", const std::vector<std::string> &more = {})
{
  spec.neighbor = neighbor;
  spec.comm_mode = comm_mode;
  spec.neigh_modify = neigh_modify;
  auto lmp = make_system(spec);
  commands(lmp.get(), more);
  if (!more.empty()) {
    commands(lmp.get(), {"run 0 post no"});
    // with the extra commands (a ghost cutoff, a compute's list) the lists stay exact
    expect_lists_match_oracle(lmp.get(), spec.newton, "after " + more.front());
  }
  return ghosts_of(lmp.get());
}
}    // namespace

TEST(HGridGhosts, BySizeByDefaultNoMoreThanMulti)
{
  const SystemSpec spec = ghost_test_system();
  // intervals (diameters 2r) for multi: the levels below, x2 and x4 up to omega
  auto intervals = [&](const std::vector<double> &bounds) {
    std::string out = "collection/interval " + std::to_string(bounds.size());
    for (double b : bounds) out += " " + decimal(b);
    return out;
  };
  const std::vector<double> sizes{6.0, 20.0, 60.2};    // cutoff diameters 2.1 .. 60.1
  std::string levels = "hgrid levels 3";
  std::vector<double> level_bounds;
  for (double s : sizes) {
    levels += " " + decimal(s);
    level_bounds.push_back(s - spec.skin);
  }
  const double hgrid_default = ghosts(spec, levels, "");
  const double bin = ghosts(spec, "bin", "");
  EXPECT_EQ(hgrid_default, ghosts(spec, levels, "multi"));
  // one level: every atom may search any other, so no class is sent less far
  EXPECT_LT(hgrid_default, ghosts(spec, "hgrid levels 1 60.2", ""));
  EXPECT_LE(hgrid_default, ghosts(spec, "multi", "multi reduce/multi", intervals(level_bounds)));
  EXPECT_EQ(ghosts(spec, levels, "single"), bin);
  EXPECT_LT(hgrid_default, 0.8 * bin);
  EXPECT_LE(hgrid_default, ghosts(spec, "multi", "multi", intervals(level_bounds)));
  EXPECT_LE(hgrid_default, ghosts(spec, "multi", "multi", intervals({2, 4, 8, 16, 32, 60.001})));
  EXPECT_LE(hgrid_default, ghosts(spec, "multi", "multi", intervals({2, 8, 32, 60.001})));
}

// half lists with newton on read an atom as a ghost only from atoms of its own or
// smaller levels, in either search direction (Top-Down finds a pair with a ghost from
// the smaller particle): each size class is sent only as far as its level reaches, as
// multi's reduce/multi does; not with newton off (larger atoms search smaller ghosts
// too) or while fix hgrid/tune may re-level.  The lists stay exact (also under MPI).
TEST(HGridGhosts, HalfNewtonOnListsSendEachSizeOnlyAsFarAsItsLevel)
{
  SystemSpec spec = ghost_test_system();
  const std::string levels = "hgrid levels 3 6.0 20.0 60.2";
  double reduced[2];
  for (int topdown : {0, 1}) {
    spec.neighbor = levels + (topdown ? " search topdown" : " search bottomup");
    auto lmp = make_system(spec);
    reduced[topdown] = ghosts_of(lmp.get());
    expect_pair_list_matches_oracle(lmp.get(), spec.newton,
                                    spec.neighbor + " with reduced ghost cutoffs");
  }
  EXPECT_EQ(reduced[0], reduced[1]);
  const double full =
      ghosts(spec, levels + " search topdown", "", "", {"fix tune all hgrid/tune 100"});
  EXPECT_LT(reduced[1], 0.8 * full);
  EXPECT_EQ(ghosts(spec, levels + " search bottomup", "", "", {"fix tune all hgrid/tune 100"}),
            full);
  SystemSpec newtoff = spec;
  newtoff.newton = false;
  EXPECT_EQ(ghosts(newtoff, levels + " search bottomup", ""),
            ghosts(newtoff, levels + " search topdown", ""));
  EXPECT_EQ(ghosts(newtoff, levels + " search topdown", ""), full);
}

// Top-Down with newton on: a small atom 1.5 inside a periodic face and a larger atom of
// the level above across it (10.5 apart, cutoff 11.1) are a pair of the small atom's
// row, found from the larger atom's ghost image (which is sent out only as far as its
// level reaches); the small atom's image is not sent that far
TEST(HGridGhosts, TopDownFindsPairsWithLargerGhostsFromTheGhost)
{
  for (const char *search : {"topdown", "bottomup"}) {
    std::unique_ptr<LAMMPS> lmp(make_lammps());
    commands(lmp.get(),
             {"atom_style sphere 1", "comm_modify vel yes", "region box block 0 40 0 40 0 40",
              "create_box 1 box", "create_atoms 1 single 1.5 20 20",
              "create_atoms 1 single 31 20 20", "set atom 1 diameter 2.0",
              "set atom 2 diameter 20.0",
              "pair_style gran/hooke/history 1000.0 NULL 50.0 NULL 0.5 0", "pair_coeff * *",
              std::string("neighbor 0.1 hgrid levels 2 3 21 search ") + search, "run 0 post no"});
    expect_pair_list_matches_oracle(lmp.get(), true, std::string("search ") + search);
    const PairCounts expected = oracle(lmp.get(), ListKind::HalfNewton);
    EXPECT_EQ(expected.size(), 1u) << "the test needs the one pair across the face";
  }
}

// the reduced ghost cutoff of a size class still covers the larger atoms of its level:
// a small atom (cutoff diameter 2.1) 2.5 inside a periodic face touches a larger one
// of the same level (8.1) across it, and the same-level half stencil stores the pair
// from the larger atom, which needs the small one's ghost image 2.5 away
TEST(HGridGhosts, SmallAtomReachesLargerAtomOfItsLevelAcrossTheBoundary)
{
  std::unique_ptr<LAMMPS> lmp(make_lammps());
  commands(lmp.get(),
           {"atom_style sphere 1", "comm_modify vel yes", "region box block 0 40 0 40 0 40",
            "create_box 1 box", "create_atoms 1 single 2.5 20 20", "create_atoms 1 single 38 20 20",
            "set atom 1 diameter 2.0", "set atom 2 diameter 8.0",
            "pair_style gran/hooke/history 1000.0 NULL 50.0 NULL 0.5 0", "pair_coeff * *",
            "neighbor 0.1 hgrid levels 2 10 40 search bottomup", "run 0 post no"});
  expect_pair_list_matches_oracle(lmp.get(), true, "small and large atom across a periodic face");
  EXPECT_GT(lmp->atom->nghost, 0);
}

// the automatic comm mode: ghosts by size class where one ghost cutoff would bring at
// least 0.3 ghosts per owned atom (a box a few largest diameters wide), one cutoff
// where it brings few (a wide box of the same particles: the classes' per-atom
// bookkeeping would cost more than they save); the lists stay exact either way
TEST(HGridGhosts, AutomaticCommModeFollowsTheGhostShell)
{
  struct Case {
    const char *what;
    int dimension, natoms;
    double omega;
    bool multi;
  };
  // one ghost cutoff would bring ~1 ghost per atom to the 3d case, ~0.08 to 5000 disks
  // of size ratio 3, ~0.03 to 30000 of them; monodisperse spheres have one size class
  for (const Case &c :
       {Case{"3d", 3, 3000, 30.0, true}, Case{"2d, 5000", 2, 5000, 3.0, true},
        Case{"2d, 30000", 2, 30000, 3.0, false}, Case{"monodisperse", 3, 3000, 1.0, false}}) {
    SystemSpec spec = ghost_test_system();
    spec.dimension = c.dimension;
    spec.natoms = c.natoms;
    spec.omega = c.omega;
    if (c.omega == 1.0) spec.distribution = "mono";
    auto lmp = make_system(spec);
    EXPECT_EQ(lmp->comm->mode, c.multi ? LAMMPS_NS::Comm::MULTI : LAMMPS_NS::Comm::SINGLE)
        << c.what;
    if (c.natoms <= 5000) expect_pair_list_matches_oracle(lmp.get(), spec.newton, c.what);
  }
}

// in comm mode multi every atom (owned and ghost) is in the first collection whose
// bound holds its diameter, as a scan finds it: Neighbor::build_collection's buckets
// (multi's intervals, hgrid's size classes) and its bisection (bounds too close for
// buckets), with diameters on each bound and one ulp above it
namespace {
void expect_collections_by_scan(LAMMPS *lmp, const std::string &what)
{
  const LAMMPS_NS::Neighbor *neighbor = lmp->neighbor;
  const LAMMPS_NS::Atom *atom = lmp->atom;
  ASSERT_EQ(lmp->comm->mode, LAMMPS_NS::Comm::MULTI) << what;
  int wrong = 0;
  for (int i = 0; i < atom->nlocal + atom->nghost; i++) {
    int c = 0;
    while (c < neighbor->ncollections && neighbor->collection2cut[c] < 2.0 * atom->radius[i]) c++;
    wrong += neighbor->collection[i] != c;
  }
  EXPECT_EQ(wrong, 0) << what;
}

// diameters on the finite bounds of the collections and one ulp above each
std::vector<std::string> diameters_on_bounds(const LAMMPS *lmp)
{
  std::vector<std::string> lines;
  int tag = 1;
  for (int c = 0; c + 1 < lmp->neighbor->ncollections; c++) {
    const double bound = lmp->neighbor->collection2cut[c];
    for (double d : {bound, std::nextafter(bound, 2.0 * bound)}) {
      std::ostringstream line;
      line.precision(17);
      line << "set atom " << tag++ << " diameter " << d;
      lines.push_back(line.str());
    }
  }
  lines.emplace_back("run 0 post no");
  return lines;
}
}    // namespace

TEST(HGridGhosts, CollectionIsTheFirstBoundHoldingTheDiameter)
{
  SystemSpec spec = ghost_test_system();    // diameters 2 .. 60
  auto lmp = make_system(spec);
  ASSERT_GT(lmp->neighbor->ncollections, 3);
  commands(lmp.get(), diameters_on_bounds(lmp.get()));
  expect_collections_by_scan(lmp.get(), "hgrid's size classes");
  expect_lists_match_oracle(lmp.get(), spec.newton, "diameters on class bounds");

  for (const std::string intervals : {"5 2.5 2.6 7 20 60.001", "3 2.5 2.5000001 60.001"}) {
    spec.neighbor = "multi";
    spec.comm_mode = "multi";
    spec.neigh_modify = "collection/interval " + intervals;
    lmp = make_system(spec);
    commands(lmp.get(), diameters_on_bounds(lmp.get()));
    expect_collections_by_scan(lmp.get(), "multi, intervals " + intervals);
  }
}

// one ghost cutoff whenever the user asks for it or a list of the bin fallback
// needs it; the lists stay exact either way
TEST(HGridGhosts, OneCutoffWhenAskedForOrNeeded)
{
  const SystemSpec spec = ghost_test_system();
  const double bin = ghosts(spec, "bin", "");
  EXPECT_LT(ghosts(spec, "hgrid", ""), 0.8 * bin);
  // a ghost cutoff set after a run (the comm mode hgrid chose must not turn it into
  // "use cutoff/multi")
  EXPECT_GE(ghosts(spec, "hgrid", "", "", {"comm_modify cutoff 40"}), bin);
  // a compute whose occasional list is built by the bin fallback
  EXPECT_EQ(ghosts(spec, "hgrid", "", "", {"compute rdf all rdf 20 cutoff 10"}), bin);

  auto lmp = make_system(spec);
  EXPECT_LT(ghosts_of(lmp.get()), 0.8 * bin);
  commands(lmp.get(), {"comm_modify mode single", "run 0 post no"});
  EXPECT_EQ(ghosts_of(lmp.get()), bin);
  expect_lists_match_oracle(lmp.get(), spec.newton, "after comm_modify mode single");
}

// leaving hgrid leaves no comm mode behind that the next neighbor style rejects
TEST(HGridGhosts, SwitchingToBinAfterAnHGridRun)
{
  const SystemSpec spec = ghost_test_system();
  const double bin = ghosts(spec, "bin", "");
  auto lmp = make_system(spec);
  const std::string skin = std::to_string(spec.skin);
  ASSERT_NO_THROW(commands(lmp.get(), {"neighbor " + skin + " bin", "run 0 post no"}));
  EXPECT_EQ(ghosts_of(lmp.get()), bin);
  ASSERT_NO_THROW(commands(lmp.get(), {"neighbor " + skin + " hgrid", "run 0 post no"}));
  EXPECT_LT(ghosts_of(lmp.get()), 0.8 * bin);
  expect_lists_match_oracle(lmp.get(), spec.newton, "after bin -> hgrid");
}

// ---------------------------------------------------------------------------
// atom sort: with a wide distribution hgrid has Atom::sort() order the owned atoms
// along a Morton curve of bins of its finest level (core patch); a bin size set with
// atom_modify sort, a layout whose finest cells are not much smaller than the top,
// and neighbor bin keep LAMMPS' row-by-row order.  Lists stay exact.
// ---------------------------------------------------------------------------

namespace {
/// Bin indices of owned atom i in Atom::setup_sort_bins' bins of size \p binsize
/// (orthogonal box: the subdomain, floor(extent / binsize) bins per dimension).
std::array<int, 3> sort_bin_of(LAMMPS *lmp, int i, double binsize)
{
  const auto *domain = lmp->domain;
  std::array<int, 3> bin{0, 0, 0};
  for (int d = 0; d < domain->dimension; d++) {
    const double extent = domain->subhi[d] - domain->sublo[d];
    const int n = std::max(1, static_cast<int>(extent / binsize));
    const int b = static_cast<int>((lmp->atom->x[i][d] - domain->sublo[d]) * n / extent);
    bin[d] = std::min(std::max(b, 0), n - 1);
  }
  return bin;
}

/// Morton key of a bin: bit k of the index along d at bit dim*k + d.
unsigned long long morton_key(const std::array<int, 3> &bin, int dim)
{
  unsigned long long key = 0;
  for (int k = 0; k < 21; k++)
    for (int d = 0; d < dim; d++)
      key |= static_cast<unsigned long long>((bin[d] >> k) & 1) << (dim * k + d);
  return key;
}

/// Owned atoms whose key is smaller than the previous atom's (0: sorted by the key).
int out_of_order(LAMMPS *lmp, const std::function<unsigned long long(int)> &key)
{
  int descents = 0;
  for (int i = 1; i < lmp->atom->nlocal; i++) descents += key(i) < key(i - 1);
  int all = 0;
  MPI_Allreduce(&descents, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return all;
}
}    // namespace

TEST(HGridSort, OwnedAtomsFollowAMortonCurveOfTheFinestCells)
{
  for (int dim : {2, 3}) {
    SystemSpec spec = powerlaw_system(4000, 100.0, 0.3);
    spec.dimension = dim;
    auto lmp = make_system(spec);
    const auto *planner = LAMMPS_NS::HGridPlanner::find(lmp.get());
    ASSERT_NE(planner, nullptr);
    const hgrid::Layout &layout = planner->plan().layout;
    ASSERT_GE(layout.top(), hgrid::kMortonSortRatio * layout.cell_sizes.front())
        << "test system too narrow, dim " << dim;
    const double binsize = lmp->neighbor->hgrid_sortbin;
    ASSERT_EQ(binsize, layout.cell_sizes.front());
    auto morton = [&](double size) {
      return [&, size](int i) {
        return morton_key(sort_bin_of(lmp.get(), i, size), dim);
      };
    };
    auto row_by_row = [&](double size) {
      return [&, size](int i) {
        const auto b = sort_bin_of(lmp.get(), i, size);
        return (static_cast<unsigned long long>(b[2]) << 42) +
            (static_cast<unsigned long long>(b[1]) << 21) + b[0];
      };
    };
    // sorted at the setup of run 0: Morton order of the finest cells, not row by row
    EXPECT_EQ(out_of_order(lmp.get(), morton(binsize)), 0) << "dim " << dim;
    EXPECT_GT(out_of_order(lmp.get(), row_by_row(binsize)), 0) << "dim " << dim;
    expect_lists_match_oracle(lmp.get(), spec.newton, "after the Morton sort");

    // a bin size the user set wins: LAMMPS' row-by-row bins of that size
    ASSERT_NO_THROW(commands(lmp.get(), {"atom_modify sort 1000 3.0", "run 0 post no"}));
    EXPECT_EQ(out_of_order(lmp.get(), row_by_row(3.0)), 0) << "dim " << dim;
    EXPECT_GT(out_of_order(lmp.get(), morton(3.0)), 0) << "dim " << dim;

    // neighbor bin: none offered any more
    ASSERT_NO_THROW(commands(lmp.get(), {"neighbor 0.1 bin", "run 0 post no"}));
    EXPECT_EQ(lmp->neighbor->hgrid_sortbin, 0.0);
  }
  // a narrow distribution (one level or a finest level close to the top): LAMMPS' sort
  auto narrow = make_system(powerlaw_system(1000, 2.0, 0.3));
  EXPECT_EQ(narrow->neighbor->hgrid_sortbin, 0.0);
}

// Top-Down half lists: a pair of owned atoms on different levels, found by the larger
// atom's search, is stored in the smaller atom's row where that row is built later
// (one rank, serial: one chunk of rows), else in the larger atom's; newton on and off
// (with history), default and many levels; the lists stay exact
TEST(HGridRows, PairsOfOwnedAtomsOnTwoLevelsJoinTheSmallerAtomsLaterRow)
{
  int nprocs = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (nprocs > 1) GTEST_SKIP() << "one rank: the order of the rows of all atoms";
  for (bool newton : {true, false}) {
    for (const char *levels : {"", " levels 6 2.1 5.23 13 32.4 80.5 200.3"}) {
      SystemSpec spec = powerlaw_system(1500, 100.0, 0.3);
      spec.newton = newton;
      spec.neighbor = std::string("hgrid") + levels + " search topdown";
      auto lmp = make_system(spec);
      const std::string what = describe(spec);
      expect_lists_match_oracle(lmp.get(), newton, what);
      const auto *planner = LAMMPS_NS::HGridPlanner::find(lmp.get());
      ASSERT_NE(planner, nullptr);
      const hgrid::Layout &layout = planner->plan().layout;
      ASSERT_GE(layout.num_levels(), 2) << what;
      const int index = lammps_find_pair_neighlist(lmp.get(), "gran/hooke/history", 1, 0, 0);
      ASSERT_GE(index, 0);
      const LAMMPS_NS::NeighList *list = lmp->neighbor->lists[index];
      const LAMMPS_NS::Atom *atom = lmp->atom;
      auto level = [&](int i) {
        return hgrid::level_of(layout, 2.0 * atom->radius[i] + planner->skin());
      };
      long in_smaller = 0, in_larger_behind = 0, in_larger_ahead = 0;
      for (int ii = 0; ii < list->inum; ii++) {
        const int i = list->ilist[ii];
        for (int k = 0; k < list->numneigh[i]; k++) {
          const int j = list->firstneigh[i][k] & NEIGHMASK;
          if (j >= atom->nlocal || level(j) == level(i)) continue;
          if (level(j) > level(i))
            in_smaller++;
          else if (j < i)
            in_larger_behind++;
          else
            in_larger_ahead++;
        }
      }
      EXPECT_GT(in_smaller, 0) << what;
      EXPECT_GT(in_larger_behind, 0) << what;
      EXPECT_EQ(in_larger_ahead, 0) << what << ": pairs in the larger atom's row whose smaller "
                                    << "atom's row came later";
    }
  }
}

// comm_style tiled with recursive-bisection balancing (the usual choice for hoppers and
// beds whose density varies): subdomains of unequal, changing shapes, rebalanced while
// atoms move.  hgrid's windows, its owned-extent clip and its size-dependent ghost
// cutoffs (CommTiled in mode multi) must hold every pair of the oracle after every
// rebalance and at every rebuild of a run, with contact history (newton on needs
// core patch 0030: stock CommTiled had no reverse communication of variable size).

TEST(HGridOracle, CommTiledRcbBalance)
{
  for (const int dim : {2, 3})
    for (const bool newton : {true, false}) {
      const std::string what = std::to_string(dim) + "d, newton " + (newton ? "on" : "off");
      SystemSpec spec = dim == 3 ? powerlaw_system(800, 30.0, 0.5)
                                 : powerlaw_system(3000, 30.0, 0.3);
      spec.dimension = dim;
      spec.newton = newton;
      spec.seed = 11;
      spec.before_pair = {"comm_style tiled"};
      const std::string pair = "gran/hooke/history";
      spec.pair = pair + " 20.0 NULL 5.0 NULL 0.5 0";
      auto lmp = make_system(spec);
      ASSERT_EQ(lmp->comm->style, LAMMPS_NS::Comm::TILED) << what;
      EXPECT_EQ(lmp->comm->mode, LAMMPS_NS::Comm::MULTI) << what << ": ghosts by size class";
      RebuildCheck check{lmp.get(), lammps_find_pair_neighlist(lmp.get(), pair.c_str(), 1, 0, 0),
                         newton ? ListKind::HalfNewton : ListKind::HalfNewtoff};
      ASSERT_GE(check.list, 0) << what;
      // rebalanced subdomains of a moving system: the largest atoms on several ranks'
      // edges (in 3d on 4 ranks subdomains thinner than their cutoff)
      for (int round = 0; round < 3; round++) {
        ASSERT_NO_THROW(
            commands(lmp.get(),
                     {"displace_atoms all random 4 4 " + std::string(dim == 3 ? "4 " : "0 ") +
                          std::to_string(101 + round) + " units box",
                      "balance 1.0 rcb", "run 0 post no"}))
            << what;
        expect_list_matches(lmp.get(), check.list, check.kind, false,
                            what + ", after rebalance " + std::to_string(round));
      }
      int nprocs = 1;
      MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
      if (dim == 3 && nprocs >= 4) {    // some subdomain thinner than the largest cutoff
        double mine = 1e300, thinnest = 0.0;
        for (int d = 0; d < dim; d++)
          mine = std::min(mine, lmp->domain->subhi[d] - lmp->domain->sublo[d]);
        MPI_Allreduce(&mine, &thinnest, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
        EXPECT_LT(thinnest, lmp->neighbor->cutneighmax) << what;
      }
      ASSERT_NO_THROW(commands(
          lmp.get(),
          {"velocity all create 100.0 4928 dist gaussian", "fix integrate all nve/sphere",
           "fix rebalance all balance 10 1.0 rcb", "fix check all external pf/callback 1 1",
           "neigh_modify every 1 delay 0 check no"}))
          << what;
      lammps_set_fix_external_callback(lmp.get(), "check", check_at_rebuild, &check);
      ASSERT_NO_THROW(commands(lmp.get(), {"run 40 post no"})) << what;
      EXPECT_EQ(check.checks, 41) << what;    // the setup and 40 steps
    }
}

namespace {
// positions, velocities and spins after a settling run with contact history and newton
// on, under comm_style brick or tiled with rcb balancing
std::vector<double> settled_state(const std::string &comm_style)
{
  SystemSpec spec = powerlaw_system(800, 10.0, 0.45);
  spec.newton = true;
  spec.seed = 5;
  spec.before_pair = {"comm_style " + comm_style};
  spec.pair = "gran/hooke/history 200.0 NULL 50.0 NULL 0.5 1";
  auto lmp = make_system(spec);
  if (comm_style == "tiled")
    commands(lmp.get(), {"balance 1.0 rcb", "fix rebalance all balance 25 1.0 rcb"});
  commands(lmp.get(),
           {"velocity all create 2.0 4711 loop geom", "fix integrate all nve/sphere",
            "timestep 0.001", "neigh_modify every 1 delay 0 check no", "run 150 post no"});
  // unwrapped positions: round-off may put an atom on either side of a periodic face
  const int nlocal = lmp->atom->nlocal;
  std::vector<double> unwrapped(3 * std::max(nlocal, 1));
  std::vector<double *> rows(std::max(nlocal, 1));
  for (int i = 0; i < nlocal; i++) {
    rows[i] = &unwrapped[3 * i];
    lmp->domain->unmap(lmp->atom->x[i], lmp->atom->image[i], rows[i]);
  }
  auto state = gather_by_tag(lmp.get(), rows.data());
  for (double **values : {lmp->atom->v, lmp->atom->omega}) {
    const auto more = gather_by_tag(lmp.get(), values);
    state.insert(state.end(), more.begin(), more.end());
  }
  return state;
}
}    // namespace

// fix neigh/history with newton on sends the contacts found with ghosts back to their
// owners by a reverse communication of variable size, which comm_style tiled lacked
// (core patch 0030): the run under tiled with rcb balancing equals the brick run
TEST(HGridOracle, CommTiledHistoryNewtonOnEqualsBrick)
{
  const auto brick = settled_state("brick");
  const auto tiled = settled_state("tiled");
  ASSERT_EQ(brick.size(), tiled.size());
  double diff = 0.0, scale = 0.0;
  for (std::size_t k = 0; k < brick.size(); k++) {
    diff = std::max(diff, std::fabs(brick[k] - tiled[k]));
    scale = std::max(scale, std::fabs(brick[k]));
  }
  EXPECT_GT(scale, 0.0);
  EXPECT_LT(diff, 1e-9 * scale);
}
