/* The list variants a granular input asks for, built by neighbor hgrid and each
   checked against the brute-force all-pairs oracle on 1, 2 and 4 ranks:
   cohesive pairs (pair granular with JKR: every pair within the largest pull-off
   distance beyond contact, not only those in contact), type, group and molecule
   exclusions, special bonds, include groups, a pair hybrid sub-style, the occasional
   list of a compute, the lists of a rerun; and the list a compute with a plain cutoff
   gets from the bin fallback. */

#include "hgrid_testing.h"

#include "atom.h"
#include "compute.h"
#include "force.h"
#include "input.h"
#include "lammps.h"
#include "library.h"
#include "modify.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "npair.h"
#include "pair.h"
#include "update.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

using namespace hgrid_testing;
using LAMMPS_NS::LAMMPS;

namespace {

// JKR cohesion strong enough that the largest pull-off distance (about 0.3) is
// several skins: a list reaching only r_a + r_b + skin misses pairs
const char JKR[] = "* * jkr 1000.0 50.0 0.3 30.0 tangential linear_history 800 1.0 0.5";

SystemSpec variant_system(int dim, bool newton)
{
  SystemSpec spec = powerlaw_system(800, 10.0, dim == 3 ? 0.35 : 0.5);
  spec.dimension = dim;
  spec.newton = newton;
  spec.ntypes = 2;
  return spec;
}

// pair granular with JKR cohesion on variant_system()
SystemSpec jkr_system(int dim, bool newton)
{
  SystemSpec spec = variant_system(dim, newton);
  spec.pair = "granular";
  spec.pair_coeff = JKR;
  return spec;
}

ListKind half_kind(bool newton)
{
  return newton ? ListKind::HalfNewton : ListKind::HalfNewtoff;
}

double pulloff_max(LAMMPS *lmp, const std::string &style = "granular")
{
  int dim = 0;
  auto *value =
      static_cast<double *>(lmp->force->pair_match(style, 1)->extract("pulloff/max", dim));
  return value ? *value : -1.0;
}

long entries(const PairCounts &counts)
{
  long n = 0;
  for (const auto &kv : counts) n += kv.second;
  return n;
}

// physical pairs whose entries carry special bits
long marked_pairs(const PairCounts &counts)
{
  long n = 0;
  for (const auto &kv : counts) n += kv.first[5] >= 2;
  return n;
}

std::vector<double> forces_after_run(SystemSpec spec, const std::string &neighbor, bool &by_hgrid)
{
  spec.neighbor = neighbor;
  auto lmp = make_system(spec);
  commands(lmp.get(),
           {"velocity all create 1.0 4928459 loop geom", "fix integrate all nve/sphere",
            "timestep 0.001", "neigh_modify every 1 delay 0 check no", "run 40 post no"});
  by_hgrid = pair_list_by_hgrid(lmp.get());
  auto f = gather_by_tag(lmp.get(), lmp->atom->f);
  const auto t = gather_by_tag(lmp.get(), lmp->atom->torque);
  f.insert(f.end(), t.begin(), t.end());
  return f;
}

}    // namespace

// the list of a cohesive pair reaches the largest pull-off distance beyond contact
TEST(HGridCohesion, JkrListHoldsEveryPairWithinThePulloffRange)
{
  for (int dim : {2, 3})
    for (bool newton : {true, false}) {
      const SystemSpec spec = jkr_system(dim, newton);
      auto lmp = make_system(spec);
      const std::string what = "JKR list, " + describe(spec);
      const double margin = pulloff_max(lmp.get());
      EXPECT_GT(margin, 2.0 * spec.skin) << what;
      EXPECT_DOUBLE_EQ(lmp->neighbor->hgrid_margin, margin) << what;
      const int index = lammps_find_pair_neighlist(lmp.get(), "granular", 1, 0, 0);
      expect_list_matches(lmp.get(), index, half_kind(newton), false, what, {margin, {}});
      // the margin matters: pairs beyond r_a + r_b + skin are in the list
      EXPECT_LT(entries(oracle(lmp.get(), half_kind(newton))),
                entries(oracle(lmp.get(), half_kind(newton), {margin, {}})))
          << what;
    }
}

// a type without particles (one kept for a later fix pour) has no pull-off distance:
// JKR's effective radius of two radii 0 is 0/0, which made the margin NaN and stopped
// the run ("needs particles with a radius or a positive skin")
TEST(HGridCohesion, TypeWithoutParticlesAddsNoPulloffRange)
{
  for (int dim : {2, 3})
    for (bool newton : {true, false}) {
      const SystemSpec spec = jkr_system(dim, newton);
      auto lmp = make_system(spec);
      commands(lmp.get(), {"set type 2 type 1", "run 0 post no"});
      const std::string what = "JKR list, type 2 empty, " + describe(spec);
      const double margin = pulloff_max(lmp.get());
      EXPECT_TRUE(std::isfinite(margin)) << what;
      EXPECT_GT(margin, 2.0 * spec.skin) << what;
      EXPECT_DOUBLE_EQ(lmp->neighbor->hgrid_margin, margin) << what;
      const int index = lammps_find_pair_neighlist(lmp.get(), "granular", 1, 0, 0);
      expect_list_matches(lmp.get(), index, half_kind(newton), false, what, {margin, {}});
    }
}

// the same JKR run under bin (plain cutoff lists sized for the largest pair) and hgrid
TEST(HGridCohesion, JkrRunMatchesBin)
{
  for (bool newton : {true, false}) {
    SystemSpec spec = variant_system(3, newton);
    spec.pair = "granular";
    spec.pair_coeff = JKR;
    bool bin_by_hgrid = true, hgrid_by_hgrid = false;
    const auto bin = forces_after_run(spec, "bin", bin_by_hgrid);
    const auto hgrid = forces_after_run(spec, "hgrid", hgrid_by_hgrid);
    EXPECT_FALSE(bin_by_hgrid);
    EXPECT_TRUE(hgrid_by_hgrid) << "JKR list fell back to bin";
    ASSERT_EQ(bin.size(), hgrid.size());
    double scale = 0.0, diff = 0.0;
    for (std::size_t k = 0; k < bin.size(); k++) {
      scale = std::max(scale, std::fabs(bin[k]));
      diff = std::max(diff, std::fabs(bin[k] - hgrid[k]));
    }
    EXPECT_GT(scale, 0.0);
    EXPECT_LT(diff, 1e-9 * scale) << "newton " << newton;
  }
}

namespace {
// triples of owned atoms whose three pairs are all in half list \p index (on any rank),
// and how many of them have no atom whose row holds two of their pairs (a cycle: a holds
// ab, b holds bc, c holds ca), which a list whose rows follow one order of the atoms
// never has
std::pair<long, long> owned_triples(LAMMPS *lmp, int index)
{
  const LAMMPS_NS::NeighList *list = lmp->neighbor->lists[index];
  const int nlocal = lmp->atom->nlocal;
  std::vector<std::vector<int>> stored(nlocal), adjacent(nlocal);
  for (int ii = 0; ii < list->inum; ii++) {
    const int i = list->ilist[ii];
    for (int k = 0; k < list->numneigh[i]; k++) {
      const int j = list->firstneigh[i][k] & NEIGHMASK;
      if (j >= nlocal) continue;
      stored[i].push_back(j);
      adjacent[i].push_back(j);
      adjacent[j].push_back(i);
    }
  }
  for (auto &v : stored) std::sort(v.begin(), v.end());
  for (auto &v : adjacent) std::sort(v.begin(), v.end());
  auto holds = [&stored](int a, int b) {
    return std::binary_search(stored[a].begin(), stored[a].end(), b);
  };
  long triples = 0, cyclic = 0;
  for (int a = 0; a < nlocal; a++)
    for (int b : adjacent[a]) {
      if (b <= a) continue;
      for (int c : adjacent[b]) {
        if (c <= b || !std::binary_search(adjacent[a].begin(), adjacent[a].end(), c)) continue;
        triples++;
        const bool two = (holds(a, b) && holds(a, c)) || (holds(b, a) && holds(b, c)) ||
            (holds(c, a) && holds(c, b));
        cyclic += !two;
      }
    }
  long mine[2] = {triples, cyclic}, all[2];
  MPI_Allreduce(mine, all, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return {all[0], all[1]};
}
}    // namespace

// pair granular's mdr model (fix granular/mdr) reads each triple of mutual contacts from
// the one row that holds two of its pairs, as stock half lists give (their rows follow
// one order of the atoms): hgrid's newton-off lists of several levels keep that order for
// it (no pair moved to the smaller atom's later row), and still match the oracle
TEST(HGridVariants, MdrRowsFollowOneOrderOfTheAtoms)
{
  SystemSpec spec = powerlaw_system(2000, 10.0, 0.5);
  spec.newton = false;
  spec.pair = "granular";
  spec.pair_coeff = "* * mdr 5e6 0.4 1.9e5 2 0.5 0.2 damping mdr 1 "
                    "tangential linear_history 1000 1.0 0.7";
  // serially and with the OPENMP package's lists (threads build disjoint blocks of rows)
  for (const auto &args :
       {std::vector<std::string>{}, std::vector<std::string>{"-sf", "omp", "-pk", "omp", "2"}}) {
    spec.lammps_args = args;
    auto lmp = make_system(spec);
    const int index = lammps_find_pair_neighlist(lmp.get(), "granular", 1, 0, 0);
    ASSERT_TRUE(built_by_hgrid(lmp.get(), index));
    const std::string what = "mdr list, " + describe(spec) + (args.empty() ? "" : " -sf omp");
    const LAMMPS_NS::NPair *np = lmp->neighbor->lists[index]->np;
    EXPECT_EQ(std::string(typeid(*np).name()).find("NPairHGridOmp") != std::string::npos,
              !args.empty())
        << what << ": built by " << typeid(*np).name();
    expect_list_matches(lmp.get(), index, ListKind::HalfNewtoff, false, what);
    const auto [triples, cyclic] = owned_triples(lmp.get(), index);
    EXPECT_GT(triples, 100) << what;
    EXPECT_EQ(cyclic, 0) << what << ": triples without a row holding two of their pairs";
  }
}

// neigh_modify exclude (type, group, molecule) and include, newton on and off
TEST(HGridVariants, ExclusionsAndIncludeGroupMatchOracle)
{
  struct Variant {
    std::string name;
    std::vector<std::string> setup;
    std::string neigh_modify;
    std::function<bool(LAMMPS *, const AtomInfo &, const AtomInfo &)> keep;
  };
  const std::vector<Variant> variants = {
      {"exclude type 1 2",
       {},
       "exclude type 1 2",
       [](LAMMPS *, const AtomInfo &a, const AtomInfo &b) {
         return a.type == b.type;
       }},
      {"exclude group",
       {"group low id 1:300", "group high id 301:800"},
       "exclude group low high",
       [](LAMMPS *lmp, const AtomInfo &a, const AtomInfo &b) {
         return in_group(lmp, a, "low") == in_group(lmp, b, "low");
       }},
      {"exclude molecule/intra",
       {},
       "exclude molecule/intra all",
       [](LAMMPS *, const AtomInfo &a, const AtomInfo &b) {
         return a.molecule != b.molecule;
       }},
      {"exclude molecule/inter",
       {},
       "exclude molecule/inter all",
       [](LAMMPS *, const AtomInfo &a, const AtomInfo &b) {
         return a.molecule == b.molecule;
       }},
      {"include group",
       {"group inner id 1:500", "atom_modify first inner"},
       "include inner",
       [](LAMMPS *lmp, const AtomInfo &a, const AtomInfo &b) {
         return in_group(lmp, a, "inner") && in_group(lmp, b, "inner");
       }}};
  for (const auto &v : variants)
    for (bool newton : {true, false}) {
      SystemSpec spec = variant_system(3, newton);
      spec.molecule_size = 6;
      spec.before_pair = v.setup;
      spec.neigh_modify = v.neigh_modify;
      auto lmp = make_system(spec);
      const std::string what = v.name + ", " + describe(spec);
      OracleRule rule;
      rule.keep = [&](const AtomInfo &a, const AtomInfo &b) {
        return v.keep(lmp.get(), a, b);
      };
      // the variant removes pairs, and the list holds exactly the others
      EXPECT_LT(entries(oracle(lmp.get(), half_kind(newton), rule)),
                entries(oracle(lmp.get(), half_kind(newton))))
          << what;
      expect_pair_list_matches_oracle(lmp.get(), newton, what, rule);
    }
}

// bonded spheres (BPM's bonded granular aggregates, molecules with bonds): the list
// leaves out the 1-2, 1-3 and 1-4 partners whose special_bonds factors are both 0, marks
// those whose factors are not both 1 (the pair style scales them: pair gran/* skips a
// factor 0) and lists the others plain, as NPairBin does
TEST(HGridVariants, SpecialBondsMatchOracle)
{
  struct Setting {
    std::string factors;
    bool marks, leaves_out;
  };
  const std::vector<Setting> settings = {
      {"lj 0.0 1.0 1.0 coul 1.0 1.0 1.0", true, false},    // examples/bpm: 1-2 marked
      {"lj 0.0 0.0 0.0 coul 0.0 0.0 0.0", false, true},    // LAMMPS' default: all left out
      {"lj 0.0 0.5 1.0 coul 0.0 0.5 1.0", true, true}};    // 1-2 out, 1-3 marked, 1-4 plain
  for (const auto &[factors, marks, left_out] : settings)
    for (bool newton : {true, false}) {
      const SystemSpec spec = bonded_system(variant_system(3, newton), factors);
      auto lmp = make_system(spec);
      const std::string what = "special_bonds " + factors + ", " + describe(spec);
      const PairCounts expected = oracle(lmp.get(), half_kind(newton));
      const long marked = marked_pairs(expected);
      EXPECT_EQ(marked > 0, marks) << what << ": " << marked << " marked pairs";
      expect_pair_list_matches_oracle(lmp.get(), newton, what);

      // every partner plain: the same system lists more pairs where some were left out
      commands(lmp.get(), {"special_bonds lj/coul 1.0 1.0 1.0", "run 0 post no"});
      const PairCounts plain = oracle(lmp.get(), half_kind(newton));
      if (left_out)
        EXPECT_GT(entries(plain), entries(expected)) << what;
      else
        EXPECT_EQ(entries(plain), entries(expected)) << what;
      expect_pair_list_matches_oracle(lmp.get(), newton, what + " then lj/coul 1 1 1");
    }
}

// molecule templates (atom_style hybrid sphere template): bonded dimers whose special
// lists are the template's (NPairHGridBase::neighbor_word's template branch, with the
// atom's offset in its molecule), partners marked or left out as the oracle says
TEST(HGridVariants, TemplateSpecialBondsMatchOracle)
{
  int nprocs, me;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const std::string file = "hgrid_dimer_np" + std::to_string(nprocs) + ".mol";
  if (me == 0) {
    std::ofstream mol(file);
    mol << "# two bonded spheres\n\n2 atoms\n1 bonds\n\nCoords\n\n1 0 0 0\n2 1.6 0 0\n\n"
           "Types\n\n1 1\n2 1\n\nDiameters\n\n1 2.0\n2 2.0\n\nMasses\n\n1 4.0\n2 4.0\n\n"
           "Bonds\n\n1 1 1 2\n\nSpecial Bond Counts\n\n1 1 0 0\n2 1 0 0\n\n"
           "Special Bonds\n\n1 2\n2 1\n";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  for (const std::string factors : {"lj 0.0 1.0 1.0 coul 1.0 1.0 1.0", "lj/coul 0.0 0.0 0.0"})
    for (bool newton : {true, false}) {
      std::unique_ptr<LAMMPS> lmp(make_lammps());
      commands(lmp.get(),
               {"molecule dimer " + file, "atom_style hybrid sphere 1 template dimer",
                std::string("newton ") + (newton ? "on" : "off"), "comm_modify vel yes",
                "region box block 0 30 0 30 0 30", "create_box 1 box bond/types 1",
                "create_atoms 0 random 600 4921 NULL mol dimer 77 overlap 0.5",
                "special_bonds " + factors,
                "pair_style gran/hooke/history 1000.0 NULL 50.0 NULL 0.5 0", "pair_coeff * *",
                "bond_style zero", "bond_coeff *", "neighbor 0.1 hgrid", "run 0 post no"});
      const std::string what = "dimers of a molecule template, special_bonds " + factors +
          ", newton " + (newton ? "on" : "off");
      ASSERT_EQ(lmp->atom->molecular, LAMMPS_NS::Atom::TEMPLATE) << what;
      const PairCounts expected = oracle(lmp.get(), half_kind(newton));
      // each of the 600 dimers' pair (1.6 apart, within 2 + skin): marked, or left out
      const bool marks = factors.find("coul 1.0") != std::string::npos;
      EXPECT_EQ(marked_pairs(expected), marks ? 600 : 0) << what;
      expect_pair_list_matches_oracle(lmp.get(), newton, what);
    }
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) std::remove(file.c_str());
}

// pair hybrid: a cohesive granular sub-style beside a Lennard-Jones one
TEST(HGridVariants, HybridSubStyleMatchesOracle)
{
  for (bool newton : {true, false}) {
    SystemSpec spec = variant_system(3, newton);
    spec.pair = "hybrid granular lj/cut 2.5";
    spec.pair_coeff = std::string("* 2 granular ") + (JKR + 4);
    // the LJ pair of type 1 atoms
    spec.after_pair = {"pair_coeff 1 1 lj/cut 0.001 1.0"};
    auto lmp = make_system(spec);
    const std::string what = "hybrid granular sub-style, " + describe(spec);
    const double margin = pulloff_max(lmp.get());
    EXPECT_GT(margin, 0.0) << what;
    const int granular = lammps_find_pair_neighlist(lmp.get(), "granular", 1, 0, 0);
    const int lj = lammps_find_pair_neighlist(lmp.get(), "lj/cut", 1, 0, 0);
    ASSERT_GE(lj, 0);
    const LAMMPS_NS::NeighList *ljlist = lmp->neighbor->lists[lj];
    EXPECT_FALSE(built_by_hgrid(lmp.get(), ljlist->listskip ? ljlist->listskip->index : lj))
        << "a Lennard-Jones list is not a size list";
    OracleRule rule{margin, [](const AtomInfo &a, const AtomInfo &b) {
                      return a.type == 2 || b.type == 2;
                    }};
    expect_list_matches(lmp.get(), granular, half_kind(newton), false, what, rule);
  }
}

// GRANSURF: spheres against a wall of line segments (pair hybrid granular +
// surf/granular, fix surface/local).  surf/granular's onesided list is a skip list
// of a newton-off parent that hgrid builds, where a pair of a sphere and a line sits
// in the line's row; the skip list flips it into the sphere's row.  Spheres created
// before the lines (lower indices) with no sphere neighbor of their own must still
// enter the onesided list's ilist (core patch 0032: they did not, and their contacts
// with the wall were missed).  On 4 ranks it needs core patch 0033 (fix surface/local's
// border messages)
TEST(HGridVariants, SurfaceOnesidedListHoldsEverySphereWallPair)
{
  // the wall of upstream/in.surface_local_borders: 8 segments around the box centre
  // and one inside
  const std::string mol = std::string(HGRID_UPSTREAM) + "/surface_local_borders.line";
  for (const bool hgrid : {true, false}) {
    const std::string neighbor = hgrid ? "0.3 hgrid" : "0.3 bin";
    std::unique_ptr<LAMMPS> lmp(make_lammps());
    commands(
        lmp.get(),
        {"units lj", "dimension 2", "atom_style hybrid line sphere 1",
         "atom_modify map array sort 0 0", "boundary f f p",
         // stock LAMMPS needs the connected segments as ghosts (bin: "Surface mesh atom
         // missing" on two ranks without the cutoff)
         "comm_modify vel yes cutoff 12", "region box block -15 15 -15 15 -0.5 0.5 units box",
         "create_box 2 box", "region inner block -10.5 10.5 -10.5 10.5 -0.5 0.5 units box",
         // the spheres first: their indices are below the lines'
         "create_atoms 1 random 90 8817 inner overlap 1.0 maxtry 200", "set type 1 z 0.0",
         "molecule lines " + mol, "fix wall all surface/local input mol lines",
         "pair_style hybrid granular surf/granular",
         "pair_coeff 1 1 granular hooke 4000.0 100.0 tangential linear_history 1000 1 0.5",
         "pair_coeff 1 2 surf/granular hooke 4000.0 100.0 tangential linear_history 1000 1 0.5",
         "pair_coeff 2 2 none", "neighbor " + neighbor, "fix 2d all enforce2d", "run 0 post no"});
    const int surf = lammps_find_pair_neighlist(lmp.get(), "surf/granular", 1, 0, 0);
    ASSERT_GE(surf, 0) << neighbor;
    const LAMMPS_NS::NeighList *list = lmp->neighbor->lists[surf];
    ASSERT_NE(list->listskip, nullptr) << neighbor;
    EXPECT_EQ(built_by_hgrid(lmp.get(), list->listskip->index), hgrid);
    // every sphere-line pair within r_a + r_b + skin once, in the sphere's row
    OracleRule rule{0.0, [](const AtomInfo &a, const AtomInfo &b) {
                      return a.type != b.type;
                    }};
    rule.any_builder = !hgrid;
    expect_list_matches(lmp.get(), surf, ListKind::HalfNewton, false,
                        "surf/granular onesided list, neighbor " + neighbor, rule);
    long wrong_row = 0;
    for (int ii = 0; ii < list->inum; ii++) {
      const int i = list->ilist[ii];
      wrong_row += lmp->atom->line[i] >= 0 ? list->numneigh[i] : 0;
    }
    EXPECT_EQ(wrong_row, 0) << neighbor << ": pairs in a line's row";
  }
}

// rerun (a dump post-processed: contact forces or contact numbers of stored
// snapshots) builds the lists anew from each snapshot's positions read from the file,
// without a run's Neighbor::decide(): every snapshot's list equals the oracle
TEST(HGridVariants, RerunListsEqualOracleAtEverySnapshot)
{
  int nprocs, me;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const std::string dump = "hgrid_rerun_np" + std::to_string(nprocs) + ".dump";
  for (bool newton : {true, false}) {
    const SystemSpec spec = variant_system(3, newton);
    {
      auto lmp = make_system(spec);
      commands(lmp.get(),
               {"velocity all create 4.0 4928 loop geom", "fix integrate all nve/sphere",
                "timestep 0.002", "dump snap all custom 40 " + dump + " id x y z",
                "run 200 post no", "undump snap"});
    }
    // the same atoms (radii by tag), their positions read from each snapshot
    auto lmp = make_system(spec);
    long moved = 0;    // pairs of a snapshot not in the first one's list
    PairCounts first;
    for (int step = 0; step <= 200; step += 40) {
      commands(lmp.get(),
               {"rerun " + dump + " first " + std::to_string(step) + " last " +
                std::to_string(step) + " dump x y z"});
      const std::string what = "rerun of step " + std::to_string(step) + ", " + describe(spec);
      EXPECT_EQ(lmp->update->ntimestep, step) << what;
      const PairCounts expected = oracle(lmp.get(), half_kind(newton));
      if (step == 0) first = expected;
      for (const auto &[key, count] : expected) moved += first.count(key) ? 0 : 1;
      expect_pair_list_matches_oracle(lmp.get(), newton, what);
    }
    EXPECT_GT(moved, 0) << "the snapshots hold the same pairs";
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) std::remove(dump.c_str());
}

// occasional lists: compute contact/atom (a size list, hgrid) and compute coord/atom
// (a plain cutoff list, bin fallback) give the values they give under bin
TEST(HGridVariants, OccasionalListsOfComputes)
{
  for (bool newton : {true, false}) {
    std::vector<double> values[2];
    for (int style = 0; style < 2; style++) {
      SystemSpec spec = variant_system(3, newton);
      spec.neighbor = style == 0 ? "bin" : "hgrid";
      auto lmp = make_system(spec);
      commands(lmp.get(),
               {"compute contacts all contact/atom", "compute coord all coord/atom cutoff 3.0",
                "run 0 post no"});
      for (const char *id : {"contacts", "coord"}) {
        auto *compute = lmp->modify->get_compute_by_id(id);
        compute->compute_peratom();
        std::vector<double *> rows(lmp->atom->nlocal);
        for (int i = 0; i < lmp->atom->nlocal; i++) rows[i] = &compute->vector_atom[i];
        const auto all = gather_by_tag(lmp.get(), rows.data(), 1);
        values[style].insert(values[style].end(), all.begin(), all.end());
      }
      if (style == 1) {
        const std::string what = "compute contact/atom, " + describe(spec);
        const int contacts = lammps_find_compute_neighlist(lmp.get(), "contacts", 0);
        expect_list_matches(lmp.get(), contacts, half_kind(newton), false, what);
        EXPECT_FALSE(
            built_by_hgrid(lmp.get(), lammps_find_compute_neighlist(lmp.get(), "coord", 0)));
      }
    }
    EXPECT_EQ(values[0], values[1]) << "newton " << newton;
    double sum = 0.0;
    for (double v : values[0]) sum += v;
    EXPECT_GT(sum, 0.0);
  }
}
