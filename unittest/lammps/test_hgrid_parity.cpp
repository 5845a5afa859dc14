/* Parity with stock LAMMPS: the same polydisperse granular system run under
   "neighbor bin" and "neighbor hgrid" (reneighboring every step, so contact history
   is carried across many rebuilds) gives the same number of neighbor pairs and the
   same forces and torques, for pair gran/hooke/history and pair granular with
   tangential history, newton on and off; also in a sheared triclinic box. */

#include "hgrid_testing.h"

#include "atom.h"
#include "domain.h"
#include "force.h"
#include "input.h"
#include "lammps.h"
#include "neigh_list.h"
#include "pair.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <functional>
#include <memory>

using namespace hgrid_testing;
using LAMMPS_NS::LAMMPS;

namespace {

struct RunResult {
  std::vector<double> f, torque;    // by tag
  long pairs = 0;
  bool by_hgrid = false;    // the pair style's list was built by an hgrid NPair class
};

// 40 steps of \p spec under \p neighbor, rebuilding every step, with \p extra commands
// before the run; \p check (if given) sees the instance at the end
RunResult run_system(SystemSpec spec, const std::string &neighbor,
                     const std::vector<std::string> &extra = {},
                     const std::function<void(LAMMPS *)> &check = nullptr)
{
  spec.neighbor = neighbor;
  auto lmp = make_system(spec);
  auto cmd = [&](const std::string &line) {
    lmp->input->one(line);
  };
  cmd("velocity all create 1.0 4928459 loop geom");
  cmd("fix integrate all nve/sphere");
  cmd("timestep 0.001");
  cmd("neigh_modify every 1 delay 0 check no");
  commands(lmp.get(), extra);
  cmd("run 40 post no");

  RunResult result;
  result.by_hgrid = pair_list_by_hgrid(lmp.get());
  result.f = gather_by_tag(lmp.get(), lmp->atom->f);
  result.torque = gather_by_tag(lmp.get(), lmp->atom->torque);
  auto *list = lmp->force->pair->list;
  long pairs = 0;
  for (int ii = 0; ii < list->inum; ii++) pairs += list->numneigh[list->ilist[ii]];
  MPI_Allreduce(&pairs, &result.pairs, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (check) check(lmp.get());
  return result;
}

double max_relative_difference(const std::vector<double> &a, const std::vector<double> &b)
{
  double scale = 0.0, diff = 0.0;
  for (double v : a) scale = std::max(scale, std::fabs(v));
  for (std::size_t k = 0; k < a.size(); k++) diff = std::max(diff, std::fabs(a[k] - b[k]));
  return scale > 0.0 ? diff / scale : diff;
}

struct ParityCase {
  std::string name, pair, coeff;
  bool newton;
};

const char HOOKE[] = "gran/hooke/history 1000.0 NULL 50.0 NULL 0.5 0";
const char GRANULAR[] =
    "* * hooke 1000.0 0.5 tangential linear_history 800 1.0 0.5 damping mass_velocity";

class HGridParity : public ::testing::TestWithParam<ParityCase> {};

}    // namespace

TEST_P(HGridParity, SameForcesAndPairCountAsBin)
{
  SystemSpec spec;
  spec.dimension = 3;
  spec.periodic = true;
  spec.newton = GetParam().newton;
  spec.distribution = "powerlaw";
  spec.omega = 10.0;
  spec.alpha = -3.0;
  spec.natoms = 600;
  spec.packing = 0.5;
  spec.pair = GetParam().pair;
  spec.pair_coeff = GetParam().coeff;

  const RunResult bin = run_system(spec, "bin");
  const RunResult hgrid = run_system(spec, "hgrid");
  const RunResult hgrid_td = run_system(spec, "hgrid search topdown");
  EXPECT_GT(bin.pairs, 0);
  EXPECT_FALSE(bin.by_hgrid);
  EXPECT_TRUE(hgrid.by_hgrid) << "hgrid fell back to bin";
  EXPECT_TRUE(hgrid_td.by_hgrid) << "hgrid fell back to bin";
  EXPECT_EQ(hgrid.pairs, bin.pairs);
  EXPECT_EQ(hgrid_td.pairs, bin.pairs);
  // summation order differs between the lists: round-off only
  EXPECT_LT(max_relative_difference(bin.f, hgrid.f), 1e-9);
  EXPECT_LT(max_relative_difference(bin.torque, hgrid.torque), 1e-9);
  EXPECT_LT(max_relative_difference(bin.f, hgrid_td.f), 1e-9);
  EXPECT_LT(max_relative_difference(bin.torque, hgrid_td.torque), 1e-9);
  // the torques are non-zero only through tangential (history) forces
  double tmax = 0.0;
  for (double t : bin.torque) tmax = std::max(tmax, std::fabs(t));
  EXPECT_GT(tmax, 0.0);
}

INSTANTIATE_TEST_SUITE_P(
    Pairs, HGridParity,
    ::testing::Values(ParityCase{"hooke_history_newton", HOOKE, "* *", true},
                      ParityCase{"hooke_history_newtoff", HOOKE, "* *", false},
                      ParityCase{"granular_newton", "granular", GRANULAR, true},
                      ParityCase{"granular_newtoff", "granular", GRANULAR, false}),
    [](const auto &info) {
      return info.param.name;
    });

/* a triclinic box sheared by fix deform (remap v) past its tilt limit, so that LAMMPS
   flips it: every step's list is rebuilt on the new box (cells over the new bounding
   box), forces equal those under bin, and the lists after the flips equal the
   all-pairs oracle, 2d and 3d, newton on and off */

TEST(HGridTriclinic, ShearedAndFlippedBoxMatchesBinAndOracle)
{
  for (int dim : {2, 3})
    for (bool newton : {true, false}) {
      SystemSpec spec;
      spec.dimension = dim;
      spec.newton = newton;
      spec.omega = 10.0;
      spec.natoms = dim == 3 ? 600 : 400;
      spec.packing = dim == 3 ? 0.5 : 0.7;
      spec.tilt = 0.3;
      const std::string what = std::to_string(dim) + "d newton " + (newton ? "on" : "off");
      // the tilt grows by 8 * 0.04 = 0.32 of the box: past 0.5, flipped to about -0.38
      const std::vector<std::string> shear = {"fix shear all deform 1 xy erate 8.0 remap v"};
      auto check = [&](LAMMPS *lmp) {
        EXPECT_LT(lmp->domain->xy, 0.0) << "the box was not flipped, " << what;
        expect_lists_match_oracle(lmp, newton, "after box flips, " + what);
      };
      const RunResult bin = run_system(spec, "bin", shear);
      const RunResult hgrid = run_system(spec, "hgrid", shear, check);
      const RunResult hgrid_td = run_system(spec, "hgrid search topdown", shear);
      EXPECT_TRUE(hgrid.by_hgrid) << what;
      EXPECT_TRUE(hgrid_td.by_hgrid) << what;
      EXPECT_GT(bin.pairs, 0) << what;
      EXPECT_EQ(hgrid.pairs, bin.pairs) << what;
      EXPECT_EQ(hgrid_td.pairs, bin.pairs) << what;
      EXPECT_LT(max_relative_difference(bin.f, hgrid.f), 1e-9) << what;
      EXPECT_LT(max_relative_difference(bin.f, hgrid_td.f), 1e-9) << what;
    }
}

/* fix pour (polydisperse, 5:1) into a box with a fix wall/gran floor, newton off,
   as in LAMMPS' examples/pour: the atoms inserted and their trajectories under
   hgrid match those under bin */

TEST(HGridPour, SameTrajectoriesAsBinWithPourAndWalls)
{
  const auto bin = run_pour("bin", {}), hgrid = run_pour("hgrid", {});
  EXPECT_TRUE(pair_list_by_hgrid(hgrid.get())) << "hgrid fell back to bin";
  const long nbin = bin->atom->natoms, nhgrid = hgrid->atom->natoms;
  const auto xbin = gather_by_tag(bin.get(), bin->atom->x);
  const auto xhgrid = gather_by_tag(hgrid.get(), hgrid->atom->x);
  EXPECT_GT(nbin, 100);
  ASSERT_EQ(nhgrid, nbin);
  double diff = 0.0;
  for (std::size_t k = 0; k < xbin.size(); k++)
    diff = std::max(diff, std::fabs(xbin[k] - xhgrid[k]));
  EXPECT_LT(diff, 1e-6);
  // poured particles (tags >= 2; tag 1 starts on the floor) reached the floor:
  // collisions with the wall and each other happened
  int landed = 0;
  for (std::size_t k = 3 + 2; k < xbin.size(); k += 3) landed += xbin[k] < 3.0;
  EXPECT_GT(landed, 20);
}
