/* fix hgrid/tune: re-leveling on insertion of larger particles (fix pour stages),
   on growing and shrinking radii, contact history across re-levels (trajectories
   equal to neighbor bin), hysteresis, restart round trip, the same decisions on 1
   and many MPI ranks, skin auto in the flow examples (no dangerous build, exact
   lists), and every input error. */

#include "hgrid_testing.h"

#include "atom.h"
#include "fix_hgrid_tune.h"
#include "force.h"
#include "hgrid_planner.h"
#include "input.h"
#include "lammps.h"
#include "library.h"
#include "modify.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "pair.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <utility>

using namespace hgrid_testing;
using LAMMPS_NS::LAMMPS;

namespace {

LAMMPS_NS::FixHGridTune *tune_fix(LAMMPS *lmp)
{
  return dynamic_cast<LAMMPS_NS::FixHGridTune *>(lmp->modify->get_fix_by_id("tune"));
}

double relevels(LAMMPS *lmp)
{
  return tune_fix(lmp)->compute_vector(5);
}

// the layout the pair style's list is built with
const hgrid::Layout &current_layout(LAMMPS *lmp)
{
  EXPECT_TRUE(built_by_hgrid(lmp, lammps_find_pair_neighlist(lmp, "gran/hooke/history", 1, 0, 0)));
  return LAMMPS_NS::HGridPlanner::find(lmp)->plan().layout;
}
}    // namespace

TEST(HGridTune, PourOfTenTimesLargerParticlesReLevels)
{
  std::unique_ptr<LAMMPS> lmp(make_lammps());
  lmp->input->one("neighbor 0.1 hgrid");
  commands(lmp.get(), pour_column);
  commands(lmp.get(),
           {"fix tune all hgrid/tune 100",
            "fix ins all pour 800 1 4767548 vol 0.25 50 region slab diam one 0.3",
            "run 2000 post no"});
  const double before = relevels(lmp.get());
  const double top_before = current_layout(lmp.get()).top();
  // stage 2: particles 10x larger than any before
  ASSERT_NO_THROW(
      commands(lmp.get(),
               {"unfix ins", "fix ins2 all pour 40 1 12345 vol 0.2 50 region slab diam one 3.0",
                "run 2000 post no"}));
  EXPECT_GE(relevels(lmp.get()), before + 1);
  EXPECT_GT(current_layout(lmp.get()).top(), 3.0 + 0.1);
  EXPECT_LT(top_before, 3.0);
  EXPECT_GT(lmp->atom->natoms, 300);
  expect_lists_match_oracle(lmp.get(), false);
}

// a hopper or mixer input: an empty box is balanced and run before fix pour inserts
// the grains; the layout is planned from what fix pour announces at the next run
TEST(HGridTune, EmptyBoxRunsAndBalancesBeforePour)
{
  std::unique_ptr<LAMMPS> lmp(make_lammps());
  lmp->input->one("neighbor 0.1 hgrid");
  commands(lmp.get(), pour_column);
  ASSERT_NO_THROW(commands(lmp.get(), {"run 0 post no", "balance 1.1 shift xy 10 1.05"}));
  EXPECT_EQ(lmp->atom->natoms, 0);
  commands(lmp.get(),
           {"fix ins all pour 400 1 4767548 vol 0.25 50 region slab diam poly 2 0.3 0.7 1.5 0.3",
            "run 0 post no"});
  EXPECT_GE(current_layout(lmp.get()).top(), 1.5 + 0.1 - 1e-12)
      << "fix pour's diameter not planned for";
  commands(lmp.get(), {"run 1500 post no"});
  EXPECT_GT(lmp->atom->natoms, 100);
  ASSERT_TRUE(pair_list_by_hgrid(lmp.get()));
  expect_lists_match_oracle(lmp.get(), false, "after pouring into an empty box");
}

TEST(HGridTune, GrowingRadiiReLevelImmediately)
{
  SystemSpec spec = powerlaw_system(400, 3.0, 0.2);
  auto lmp = make_system(spec);
  const double top = current_layout(lmp.get()).top();
  ASSERT_NO_THROW(
      commands(lmp.get(),
               {"comm_modify cutoff 40 vel yes", "fix tune all hgrid/tune 100000",
                "variable s equal ramp(1.0,1.6)",
                "fix grow all adapt 5 atom diameter v_s scale yes", "fix integrate all nve/sphere",
                "neigh_modify every 1 delay 0 check no", "run 100 post no"}));
  EXPECT_GE(relevels(lmp.get()), 1);
  EXPECT_GT(current_layout(lmp.get()).top(), top);
  commands(lmp.get(), {"unfix grow"});
  expect_lists_match_oracle(lmp.get(), true);
}

// the fix re-levels before the step's ghosts are sent (pre_exchange), so half newton-on
// lists keep their reduced ghost cutoffs (each size class only as far as its level
// reaches) with the fix defined: every list of a run whose radii grow through several
// re-levels, the ones built right after a re-level included, is exact (1 and 4 ranks;
// the lists of every 10th step are built before fix adapt grows the radii, so the
// oracle, which sees the new radii, skips them)
TEST(HGridTune, ListsExactAtEveryRebuildThroughReLevels)
{
  SystemSpec spec = powerlaw_system(1500, 10.0, 0.15);
  spec.comm_mode = "multi";
  auto lmp = make_system(spec);
  // fix adapt changes the radii after the build of every 10th step (pre_force)
  RebuildCheck check{lmp.get(),
                     lammps_find_pair_neighlist(lmp.get(), "gran/hooke/history", 1, 0, 0),
                     ListKind::HalfNewton, 10};
  ASSERT_GE(check.list, 0);
  ASSERT_NO_THROW(commands(
      lmp.get(),
      {"fix tune all hgrid/tune 10", "variable s equal ramp(1.0,1.5)",
       "fix grow all adapt 10 atom diameter v_s scale yes", "fix integrate all nve/sphere",
       "fix check all external pf/callback 1 1", "neigh_modify every 1 delay 0 check no"}));
  lammps_set_fix_external_callback(lmp.get(), "check", check_at_rebuild, &check);
  ASSERT_NO_THROW(commands(lmp.get(), {"run 60 post no"}));
  EXPECT_GE(relevels(lmp.get()), 2);
  EXPECT_EQ(check.checks, 54);
}

// without fix hgrid/tune a particle that outgrows the top level during the run (fix
// adapt here; pair granular's mdr model in LAMMPS' in.tableting.200) re-levels the grid
// at the next rebuild, as the fix would, and every list stays exact (stock bin runs
// such inputs on; hgrid stopped with "exceeds the top hgrid level" at the first build
// after the growth).  Explicit levels keep that error: the user chose the top.
TEST(HGridTune, GrowingRadiiReLevelWithoutTheFix)
{
  SystemSpec spec = powerlaw_system(1500, 10.0, 0.15);
  const std::vector<std::string> grow = {
      "comm_modify cutoff 40 vel yes", "variable s equal ramp(1.0,1.5)",
      "fix grow all adapt 10 atom diameter v_s scale yes", "neigh_modify every 1 delay 0 check no"};
  for (const auto &[dimension, newton] :
       {std::pair{3, true}, std::pair{3, false}, std::pair{2, true}}) {
    spec.dimension = dimension;
    spec.newton = newton;
    const std::string what = std::to_string(dimension) + "d, newton " + std::to_string(newton);
    auto lmp = make_system(spec);
    const double top = current_layout(lmp.get()).top();
    RebuildCheck check{lmp.get(),
                       lammps_find_pair_neighlist(lmp.get(), "gran/hooke/history", 1, 0, 0),
                       newton ? ListKind::HalfNewton : ListKind::HalfNewtoff, 10};
    ASSERT_GE(check.list, 0);
    ASSERT_NO_THROW(commands(lmp.get(), grow));
    ASSERT_NO_THROW(commands(
        lmp.get(), {"fix integrate all nve/sphere", "fix check all external pf/callback 1 1"}));
    lammps_set_fix_external_callback(lmp.get(), "check", check_at_rebuild, &check);
    ASSERT_NO_THROW(commands(lmp.get(), {"run 60 post no"})) << what;
    EXPECT_GT(current_layout(lmp.get()).top(), 1.2 * top) << what;
    EXPECT_EQ(check.checks, 54) << what;
  }

  spec.dimension = 3;
  spec.newton = true;
  const double top = current_layout(make_system(spec).get()).top();
  spec.neighbor = "hgrid levels 2 " + std::to_string(0.5 * top) + " " + std::to_string(top + 1e-5);
  std::vector<std::string> lines = grow;
  lines.emplace_back("run 20 post no");
  const std::string error = error_of(spec, lines);
  EXPECT_TRUE(std::regex_search(error,
                                std::regex("exceeds the top hgrid level .*raise the last "
                                           "value of neighbor hgrid levels")))
      << "explicit levels: '" << error << "'";
}

TEST(HGridTune, ShrinkingRadiiBetweenRunsReLevel)
{
  SystemSpec spec = powerlaw_system(1500, 20.0, 0.3);
  auto lmp = make_system(spec);
  commands(lmp.get(), {"fix tune all hgrid/tune 10", "run 0 post no"});
  const double top = current_layout(lmp.get()).top();
  const double before = relevels(lmp.get());
  // cut the large particles down to radius 2: the upper levels become useless
  commands(lmp.get(),
           {"variable d atom 2.0*(radius*(radius<2.0)+2.0*(radius>=2.0))",
            "set group all diameter v_d", "run 0 post no"});
  EXPECT_GE(relevels(lmp.get()), before + 1);
  EXPECT_LT(current_layout(lmp.get()).top(), 0.5 * top);
  expect_lists_match_oracle(lmp.get(), true);
}

namespace {
// pairs of the pair style's list that touch now (r < r_i + r_j), over all ranks
long touching_pairs(LAMMPS *lmp)
{
  const auto *list = lmp->force->pair->list;
  double **x = lmp->atom->x;
  const double *radius = lmp->atom->radius;
  long mine = 0, all = 0;
  for (int ii = 0; ii < list->inum; ii++) {
    const int i = list->ilist[ii];
    for (int k = 0; k < list->numneigh[i]; k++) {
      const int j = list->firstneigh[i][k] & NEIGHMASK;
      double rsq = 0.0;
      for (int d = 0; d < 3; d++) rsq += (x[i][d] - x[j][d]) * (x[i][d] - x[j][d]);
      mine += rsq < (radius[i] + radius[j]) * (radius[i] + radius[j]);
    }
  }
  MPI_Allreduce(&mine, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return all;
}
}    // namespace

TEST(HGridTune, ContactHistorySurvivesReLevels)
{
  // the paper's K = 0.2 favours more levels: the pour's growing size range re-levels,
  // also after particles have landed and touch (second part of the run)
  const auto bin = run_pour("bin", {}, 4500);
  const auto tuned = run_pour("hgrid", {"fix tune all hgrid/tune 200 threshold 0.0 K 0.2"}, 4500);
  const double first = relevels(tuned.get());
  EXPECT_GT(touching_pairs(tuned.get()), 20) << "contacts exist before the second part";
  for (LAMMPS *lmp : {bin.get(), tuned.get()}) lmp->input->one("run 1500 post no");
  const double ntune = relevels(tuned.get());
  const auto xbin = gather_by_tag(bin.get(), bin->atom->x);
  const auto xtune = gather_by_tag(tuned.get(), tuned->atom->x);
  EXPECT_GT(ntune, first) << "the layout changed while contacts existed";
  ASSERT_EQ(xbin.size(), xtune.size());
  double diff = 0.0;
  for (std::size_t k = 0; k < xbin.size(); k++)
    diff = std::max(diff, std::fabs(xbin[k] - xtune[k]));
  EXPECT_LT(diff, 1e-6);
}

namespace {
// relevels of a granular gas over 200 steps with tuning every 10 steps
double gas_relevels(const std::vector<std::string> &extra, MPI_Comm comm = MPI_COMM_WORLD,
                    hgrid::Layout *final_layout = nullptr)
{
  SystemSpec spec = powerlaw_system(1000, 10.0, 0.3);
  auto lmp = make_system(spec, comm);
  commands(lmp.get(),
           {"fix tune all hgrid/tune 10", "fix integrate all nve/sphere",
            "velocity all create 0.01 1234 loop geom", "neigh_modify every 1 delay 0 check no"});
  commands(lmp.get(), extra);
  lmp->input->one("run 200 post no");
  if (final_layout) *final_layout = current_layout(lmp.get());
  return relevels(lmp.get());
}

const std::vector<std::string> shrinking = {"variable s equal ramp(1.0,0.3)",
                                            "fix shrink all adapt 10 atom diameter v_s scale yes"};
}    // namespace

TEST(HGridTune, HysteresisSteadyDoesNotReLevelDriftingDoes)
{
  EXPECT_EQ(gas_relevels({}), 0.0);
  EXPECT_GE(gas_relevels(shrinking), 1.0);
}

TEST(HGridTune, SameDecisionsOnOneRankAndAll)
{
  // the same drifting run on all ranks and on one rank (every rank runs its own
  // serial copy, so that all ranks create the same LAMMPS objects in the same order)
  hgrid::Layout all_layout, one_layout;
  int nprocs;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (nprocs == 1) GTEST_SKIP() << "compares one rank with several: run under mpirun";
  const double all = gas_relevels(shrinking, MPI_COMM_WORLD, &all_layout);
#ifdef MPI_COMM_SELF
  const double one = gas_relevels(shrinking, MPI_COMM_SELF, &one_layout);
#else
  const double one = gas_relevels(shrinking, MPI_COMM_WORLD, &one_layout);    // serial stubs
#endif
  EXPECT_GE(one, 1.0);
  EXPECT_EQ(all, one);
  ASSERT_EQ(all_layout.num_levels(), one_layout.num_levels());
  for (int h = 0; h < one_layout.num_levels(); h++)
    EXPECT_NEAR(all_layout.cell_sizes[h], one_layout.cell_sizes[h],
                1e-6 * one_layout.cell_sizes[h]);
  EXPECT_EQ(all_layout.search, one_layout.search);
}

namespace {
// run the lmp executable on an input (rank 0 only), return its log
std::string marker(const std::string &log, const std::string &tag)
{
  std::smatch m;
  const std::regex re(tag + " ([^\n]*)");
  return std::regex_search(log, m, re) ? m[1].str() : "missing";
}
}    // namespace

// the user asked for hgrid: every list built by the bin classes instead says so in the
// log, with the reason (here compute rdf, beside a JKR pair granular whose list hgrid
// builds)
TEST(HGridTune, BinFallbacksAreLogged)
{
  int nprocs = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (nprocs > 1) GTEST_SKIP() << "runs an lmp process of its own";
  std::string setup;
  for (const auto &line : pour_column)
    setup +=
        (line.rfind("pair_style", 0) == 0
             ? "pair_style granular\npair_coeff * * jkr 1000.0 50.0 0.3 5.0 damping mass_velocity "
               "tangential linear_history 1.0 0.5 0.1"
             : line.rfind("pair_coeff", 0) == 0 ? std::string("")
                                                : line) +
        "\n";
  const std::string log =
      run_lmp(HGRID_LMP, "hgrid_fallbacks",
              "neighbor 0.1 hgrid\n" + setup +
                  "create_atoms 1 random 100 4767 slab\nset group all diameter 0.5\n"
                  "compute rdf all rdf 20\nfix rdf all ave/time 10 1 10 c_rdf[*] mode vector\n"
                  "run 20\nrun 20\n");
  // the cohesive pair's list is hgrid's, reaching the pull-off distance further; the
  // plain-cutoff list of compute rdf is bin's, and LAMMPS' "Neighbor list info" block
  // says so under that list's pair build
  EXPECT_NE(log.find("pair build: half/size/hgrid/newtoff"), std::string::npos) << log;
  EXPECT_NE(log.find("HGrid cohesion: lists reach r_i + r_j + skin + "), std::string::npos) << log;
  EXPECT_NE(log.find("pair build: half/bin/atomonly/newtoff\n"
                     "      built by bin, not hgrid: plain cutoff, not set by the radii"),
            std::string::npos)
      << log;
  std::size_t count = 0;
  for (auto at = log.find("built by bin, not hgrid"); at != std::string::npos;
       at = log.find("built by bin, not hgrid", at + 1))
    count++;
  EXPECT_EQ(count, 1u) << "printed again although the lists did not change";
  for (const char *f : {"hgrid_fallbacks.in", "hgrid_fallbacks.log"}) std::remove(f);
}

TEST(HGridTune, RestartResumesLayoutAndTrajectory)
{
  // two separate lmp processes, as a user restarts: the layout, the re-level count and
  // K come back from the restart file and the trajectory (with contact history) is
  // identical to the uninterrupted run
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me != 0) return;
  std::string setup;
  for (const auto &line : pour_column) setup += line + "\n";
  // K only in the first run: the continuation must read it from the restart file
  const std::string fixes = "fix tune all hgrid/tune 100 K 0.3\n";
  const std::string fixes_b = "fix tune all hgrid/tune 100\n";
  const std::string state = "print \"STATE $(f_tune[1]) $(f_tune[6]) $(f_tune[7])\"\n";
  const std::string a = run_lmp(
      HGRID_LMP, "hgrid_restart_a",
      "neighbor 0.2 hgrid\n" + setup + fixes +
          "fix ins all pour 600 1 300719 vol 0.4 50 region slab diam poly 2 0.3 0.6 1.5 0.4\n"
          "run 3000\nunfix ins\n" +
          state +
          "write_restart hgrid_restart.bin\nrun 500\n"
          "write_dump all custom hgrid_restart_a.dump id x y z vx vy vz modify sort id\n");
  const std::string b = run_lmp(
      HGRID_LMP, "hgrid_restart_b",
      "read_restart hgrid_restart.bin\nneighbor 0.2 hgrid\nneigh_modify delay 0\n"
      "fix 1 all nve/sphere\nfix 2 all gravity 1.0 spherical 0.0 -180.0\n"
      "fix zlower all wall/gran hooke/history 2000.0 NULL 50.0 NULL 0.5 0 zplane 0.0 2000.0\n" +
          fixes_b + "timestep 0.001\nrun 0\n" + state +
          "run 500\n"
          "write_dump all custom hgrid_restart_b.dump id x y z vx vy vz modify sort id\n");
  const std::string sa = marker(a, "STATE"), sb = marker(b, "STATE");
  EXPECT_EQ(sa, sb);
  EXPECT_NE(sa, "missing");
  EXPECT_NE(a.find("hgrid/tune: step"), std::string::npos) << "no re-level before the restart";
  const auto xa = read_dump("hgrid_restart_a.dump"), xb = read_dump("hgrid_restart_b.dump");
  ASSERT_EQ(xa.size(), xb.size());
  ASSERT_GT(xa.size(), 100u);
  double diff = 0.0;
  for (std::size_t k = 0; k < xa.size(); k++) diff = std::max(diff, std::fabs(xa[k] - xb[k]));
  EXPECT_EQ(diff, 0.0);
  for (const char *f :
       {"hgrid_restart_a.in", "hgrid_restart_b.in", "hgrid_restart_a.log", "hgrid_restart_b.log",
        "hgrid_restart_a.dump", "hgrid_restart_b.dump", "hgrid_restart.bin"})
    std::remove(f);
}

TEST(HGridTune, KAutoCalibratesFromBuildTimes)
{
  SystemSpec spec = powerlaw_system(3000, 10.0, 0.3);
  auto lmp = make_system(spec);
  commands(lmp.get(),
           {"fix tune all hgrid/tune 5 K auto threshold 0.0", "fix integrate all nve/sphere",
            "velocity all create 0.01 1234 loop geom", "variable s equal ramp(1.0,0.4)",
            "fix shrink all adapt 5 atom diameter v_s scale yes",
            "neigh_modify every 1 delay 0 check no", "run 200 post no"});
  // the fix fed the measured builds into the fit: K is no longer the default.  Its value
  // comes from wall-clock times (on oversubscribed MPI ranks it may sit at a clamp), so
  // the fit itself is tested on synthetic timings (libhgrid, KCalibration.*)
  const double K = tune_fix(lmp.get())->compute_vector(6);
  EXPECT_NE(K, hgrid::kHGridCellAccessCostRatio);
  EXPECT_GE(K, hgrid::KCalibration::kMin);
  EXPECT_LE(K, hgrid::KCalibration::kMax);
}

TEST(HGridTune, RestartRestoresTheExactLayoutAndK)
{
  // an explicit layout far from the model's optimum, kept by a high threshold, and
  // K 0.3: a continuation that neither names the levels nor K gets both back from
  // the restart file (without them: the optimum for K = 1)
  SystemSpec spec = powerlaw_system(1000, 10.0, 0.3);
  spec.neighbor = "hgrid levels 2 6.0 30.0 search topdown";
  const hgrid::Layout chosen{{6.0, 30.0}, hgrid::Search::TopDown};
  // one file per number of ranks: ctest runs this test on 1 and 4 ranks at once
  int me, nprocs;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  const std::string file = "hgrid_layout_np" + std::to_string(nprocs) + ".restart";
  {
    auto a = make_system(spec);
    commands(a.get(),
             {"fix tune all hgrid/tune 10 K 0.3 threshold 0.99", "run 0 post no",
              "write_restart " + file});
    ASSERT_EQ(current_layout(a.get()), chosen);
  }
  std::unique_ptr<LAMMPS> b(make_lammps());
  commands(b.get(),
           {"read_restart " + file, "comm_modify vel yes", "neighbor 0.1 hgrid",
            "fix tune all hgrid/tune 10 threshold 0.99", "run 0 post no"});
  EXPECT_EQ(current_layout(b.get()), chosen);
  EXPECT_EQ(tune_fix(b.get())->compute_vector(6), 0.3);
  expect_lists_match_oracle(b.get(), spec.newton, "after read_restart");
  // the same continuation without the fix: the model's own layout
  std::unique_ptr<LAMMPS> c(make_lammps());
  commands(c.get(),
           {"read_restart " + file, "comm_modify vel yes", "neighbor 0.1 hgrid", "run 0 post no"});
  EXPECT_NE(current_layout(c.get()), chosen);
  MPI_Barrier(MPI_COMM_WORLD);
  if (me == 0) std::remove(file.c_str());
}

namespace {
// every "Dangerous builds = N" of a log, and the skins fix hgrid/tune moved to
struct SkinLog {
  std::vector<long> dangerous;
  std::vector<double> moves;
};

SkinLog read_skin_log(const std::string &path)
{
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string log = text.str();
  SkinLog out;
  const std::regex danger("Dangerous builds = ([0-9]+)"),
      move("hgrid/tune: step [0-9]+ skin \\S+ -> (\\S+)");
  for (std::sregex_iterator m(log.begin(), log.end(), danger), end; m != end; ++m)
    out.dangerous.push_back(std::stol((*m)[1]));
  for (std::sregex_iterator m(log.begin(), log.end(), move), end; m != end; ++m)
    out.moves.push_back(std::stod((*m)[1]));
  return out;
}
}    // namespace

// the hopper (two fix pour stages, atoms deleted at the outlet) and the free-cooling
// gas (growing disks, then cooling), shortened, with the skin chosen by the fix
TEST(HGridTune, SkinAutoMakesNoDangerousBuildInTheFlowExamples)
{
  const std::vector<std::pair<std::string, std::vector<std::string>>> examples = {
      {"hopper", {"-var", "steps1", "3000", "-var", "steps2", "2000"}},
      {"freecooling", {"-var", "n", "2000", "-var", "grow", "1000", "-var", "steps", "3000"}}};
  int me, nprocs;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  for (const auto &[name, vars] : examples)
    for (const std::string style : {"hgrid", "bin"}) {
      // one name per rank count: ctest runs the serial and the 4-rank test side by side
      // in one folder, and each removes its logs
      const std::string log =
          "skin_auto_" + name + "_" + style + "_np" + std::to_string(nprocs) + ".log";
      std::vector<std::string> args{"-var", "style", style, "-var", "skin", "auto", "-log", log};
      args.insert(args.end(), vars.begin(), vars.end());
      std::unique_ptr<LAMMPS> lmp(make_lammps(MPI_COMM_WORLD, args));
      const double s0 = name == "hopper" ? 0.1 : 0.2;
      ASSERT_NO_THROW(lmp->input->file((std::string(HGRID_EXAMPLES) + "/in.hgrid." + name).c_str()))
          << name << " " << style;
      const SkinLog out = read_skin_log(log);
      EXPECT_EQ(out.dangerous, std::vector<long>(2, 0)) << name << " " << style;
      ASSERT_FALSE(out.moves.empty()) << name << " " << style << ": the skin never moved";
      EXPECT_NEAR(lmp->neighbor->skin, out.moves.back(), 1e-5 * out.moves.back());
      EXPECT_NE(lmp->neighbor->skin, s0);
      // the lists at the last skin are exact, under either style
      OracleRule rule;
      rule.any_builder = style == "bin";
      expect_lists_match_oracle(lmp.get(), false, name + " " + style, rule);
      lmp.reset();
      MPI_Barrier(MPI_COMM_WORLD);
      if (me == 0) std::remove(log.c_str());
    }
}

namespace {
std::string tune_error(const std::vector<std::string> &fixes, const std::string &neighbor = "hgrid")
{
  SystemSpec spec;
  spec.natoms = 100;
  spec.omega = 3.0;
  spec.neighbor = neighbor;
  std::vector<std::string> lines{"group some id 1:10"};
  lines.insert(lines.end(), fixes.begin(), fixes.end());
  return error_of(spec, lines);
}
}    // namespace

TEST(HGridTune, InputErrors)
{
  const std::pair<std::string, std::string> cases[] = {
      {"fix tune all hgrid/tune", "Illegal fix hgrid/tune command: missing argument"},
      {"fix tune all hgrid/tune 0", "Fix hgrid/tune N must be > 0, got 0"},
      {"fix tune all hgrid/tune -5", "Fix hgrid/tune N must be > 0, got -5"},
      {"fix tune some hgrid/tune 10", "Fix hgrid/tune must use group all"},
      {"fix tune all hgrid/tune 10 bogus 1", "Unknown fix hgrid/tune keyword: bogus"},
      {"fix tune all hgrid/tune 10 every 0", "Fix hgrid/tune every must be > 0, got 0"},
      {"fix tune all hgrid/tune 10 threshold 1.5", "threshold must be in \\[0,1\\), got 1.5"},
      {"fix tune all hgrid/tune 10 method random", "unknown cell-size method 'random'"},
      {"fix tune all hgrid/tune 10 search sideways",
       "Unknown fix hgrid/tune search value: sideways"},
      {"fix tune all hgrid/tune 10 K -1", "Fix hgrid/tune K must be > 0, got -1"},
      {"fix tune all hgrid/tune 10 maxlevels 0", "maxlevels must be 1..64, got 0"},
      {"fix tune all hgrid/tune 10 verbose maybe", "Expected boolean parameter instead of 'maybe'"},
      {"fix tune all hgrid/tune 10 threshold",
       "Illegal fix hgrid/tune threshold command: missing argument"},
  };
  for (const auto &[fix, pattern] : cases) {
    const std::string msg = tune_error({fix});
    EXPECT_TRUE(std::regex_search(msg, std::regex(pattern))) << fix << " gave '" << msg << "'";
  }
  const std::string bin = tune_error({"fix tune all hgrid/tune 10"}, "bin");
  EXPECT_NE(bin.find("Fix hgrid/tune requires neighbor style hgrid (or bin with skin auto)"),
            std::string::npos)
      << bin;
  const std::string nsq = tune_error({"fix tune all hgrid/tune 10 skin auto"}, "nsq");
  EXPECT_NE(nsq.find("Fix hgrid/tune requires neighbor style hgrid (or bin with skin auto)"),
            std::string::npos)
      << nsq;
  const std::pair<std::string, std::string> skin_cases[] = {
      {"fix tune all hgrid/tune 10 skin maybe",
       "Fix hgrid/tune skin must be auto or fixed, got maybe"},
      {"neigh_modify check no\nfix tune all hgrid/tune 10 skin auto",
       "Fix hgrid/tune skin auto requires neigh_modify check yes"},
      {"timer loop\nfix tune all hgrid/tune 10 skin auto",
       "Fix hgrid/tune skin auto requires timer normal or full"},
      {"compute h all hgrid\nthermo_style custom step c_h[9]",
       "Compute hgrid requires neighbor style hgrid"},
  };
  for (const auto &[lines, pattern] : skin_cases) {
    std::vector<std::string> fixes;
    std::stringstream in(lines);
    for (std::string line; std::getline(in, line);) fixes.push_back(line);
    const std::string msg = tune_error(fixes, "bin");
    EXPECT_NE(msg.find(pattern), std::string::npos) << lines << " gave '" << msg << "'";
  }
  // with the fix, compute hgrid reports the skin under bin as well
  EXPECT_EQ(tune_error({"fix tune all hgrid/tune 10 skin auto", "compute h all hgrid",
                        "thermo_style custom step c_h[9] c_h[10]"},
                       "bin"),
            "");
  const std::string two = tune_error({"fix tune all hgrid/tune 10", "fix tune2 all hgrid/tune 10"});
  EXPECT_NE(two.find("Only one fix hgrid/tune may be defined"), std::string::npos) << two;
  // valid settings run
  EXPECT_EQ(tune_error({"fix tune all hgrid/tune 10 method constant search bottomup K 0.5 "
                        "maxlevels 4 threshold 0.2 verbose yes every 20"}),
            "");
}
