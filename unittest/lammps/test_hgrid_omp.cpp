/* neighbor hgrid under the OPENMP package (-sf omp -pk omp 2, every third oracle case
   3): the pair style's half list (gran/hooke/history/omp) is built by the /omp hgrid
   classes and equals the
   brute-force all-pairs oracle (mono, bidisperse 1:20, power law omega = 100; 2d/3d;
   periodic and fixed; newton on and off; orthogonal and triclinic), on 1, 2 and 4
   ranks; bonded spheres with special bonds marked or left out; a full size list of
   the same run too; and a dense granular run with contact history under 2 threads
   follows the serial run (positions within 1e-8 after 300 steps), under hgrid as under
   bin (the core patch fixes the threaded history fix, which crashed with more than one
   thread under any neighbor style).  A grid of 2^21 to 3 * 2^20 cells on 2 and 3
   threads: each thread's share of the cells sorted bucket by bucket (2 threads) or
   not (3), the lists equal to the oracle's. */

#include "hgrid_testing.h"

#include "atom.h"
#include "comm.h"
#include "force.h"
#include "lammps.h"
#include "library.h"
#include "nbin_hgrid.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "npair.h"
#include "pair.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <memory>
#include <string>
#include <typeinfo>

using namespace hgrid_testing;
using LAMMPS_NS::LAMMPS;

namespace {

SystemSpec omp_spec(SystemSpec spec, int threads)
{
  spec.lammps_args = {"-sf", "omp", "-pk", "omp", std::to_string(threads)};
  return spec;
}

// built by one of the NPairHGridOmp classes (src/HGRID/OPENMP)
bool built_by_hgrid_omp(LAMMPS *lmp, int index)
{
  if (!built_by_hgrid(lmp, index)) return false;
  const LAMMPS_NS::NPair *np = lmp->neighbor->lists[index]->np;
  return std::string(typeid(*np).name()).find("NPairHGridOmp") != std::string::npos;
}

// 2 threads, every third case 3 (shares of the atoms and cells whose boundaries fall
// elsewhere in the threaded sort into cells)
std::vector<NamedSystem> omp_cases()
{
  auto systems = accelerator_systems({true, false}, false, 21);
  for (std::size_t k = 0; k < systems.size(); k++)
    systems[k].spec = omp_spec(systems[k].spec, k % 3 == 2 ? 3 : 2);
  return systems;
}

class HGridOmpOracle : public ::testing::TestWithParam<NamedSystem> {};

// a dense granular run with contact history: positions at the end
std::vector<double> positions_after_run(const SystemSpec &s)
{
  auto lmp = make_system(s);
  commands(lmp.get(),
           {"velocity all create 2.0 87287 loop geom", "fix integrate all nve/sphere",
            "timestep 0.002", "neigh_modify every 1 delay 0 check no", "atom_modify sort 50 0.0",
            "run 300 post no"});
  EXPECT_EQ(pair_list_by_hgrid(lmp.get()), s.neighbor == "hgrid");
  return gather_by_tag(lmp.get(), lmp->atom->x);
}

}    // namespace

TEST_P(HGridOmpOracle, ListsEqualOracle)
{
  const NamedSystem &c = GetParam();
  auto lmp = make_system(c.spec);
  const std::string what = describe(c.spec) + " -sf omp -pk omp " + c.spec.lammps_args.back();
  const int half = lammps_find_pair_neighlist(lmp.get(), "gran/hooke/history/omp", 1, 0, 0);
  ASSERT_GE(half, 0) << what;
  EXPECT_TRUE(built_by_hgrid_omp(lmp.get(), half)) << what;
  const ListKind kind = c.spec.newton ? ListKind::HalfNewton : ListKind::HalfNewtoff;
  expect_list_matches(lmp.get(), half, kind, false, "half list " + what);

  const int full = lammps_request_single_neighlist(
      lmp.get(), "oracle", LAMMPS_NS::NeighConst::REQ_FULL | LAMMPS_NS::NeighConst::REQ_SIZE, -1.0);
  EXPECT_TRUE(built_by_hgrid_omp(lmp.get(), full)) << what;
  expect_list_matches(lmp.get(), full, ListKind::Full, false, "full size list " + what);
}

INSTANTIATE_TEST_SUITE_P(Systems, HGridOmpOracle, ::testing::ValuesIn(omp_cases()),
                         [](const auto &info) {
                           return info.param.name;
                         });

// bonded spheres (examples/bpm's special_bonds: 1-2 partners marked; LAMMPS' default:
// all left out) on 2 threads: the same special bits and omissions as the oracle
TEST(HGridOmp, SpecialBondsListEqualsOracle)
{
  for (const std::string factors : {"lj 0.0 1.0 1.0 coul 1.0 1.0 1.0", "lj/coul 0.0 0.0 0.0"})
    for (bool newton : {true, false}) {
      SystemSpec spec = powerlaw_system(800, 10.0, 0.35);
      spec.newton = newton;
      spec = omp_spec(bonded_system(spec, factors), 2);
      auto lmp = make_system(spec);
      const std::string what = "special_bonds " + factors + ", " + describe(spec) + " -sf omp";
      const int half = lammps_find_pair_neighlist(lmp.get(), "gran/hooke/history/omp", 1, 0, 0);
      ASSERT_GE(half, 0) << what;
      EXPECT_TRUE(built_by_hgrid_omp(lmp.get(), half)) << what;
      expect_list_matches(lmp.get(), half, newton ? ListKind::HalfNewton : ListKind::HalfNewtoff,
                          false, "half list " + what);
    }
}

// the threaded pair style and history fix with 2 threads follow the serial run
TEST(HGridOmp, ContactHistoryRunMatchesSerial)
{
  for (bool newton : {true, false}) {
    SystemSpec serial = powerlaw_system(800, 10.0, 0.45);
    serial.newton = newton;
    const auto x1 = positions_after_run(serial);
    const auto x2 = positions_after_run(omp_spec(serial, 2));
    EXPECT_LT(relative_difference(x1, x2), 1e-8) << "hgrid, newton " << newton;
    serial.neighbor = "bin";
    const auto xbin = positions_after_run(omp_spec(serial, 2));
    EXPECT_LT(relative_difference(x1, xbin), 1e-8) << "bin -sf omp, newton " << newton;
  }
}

// a grid of 2 to 3 times CellLists::kBucketedMinCells cells (large_grid_input, as
// HGridOracle.LargeGridsSortedBucketByBucket): on 2 threads each thread's share of the
// cells is sorted bucket by bucket (CellLists::sort_bucketed over the particles it
// reads and those routed to it), on 3 plainly; newton on and off, the half and a full
// size list equal the oracle's (on 2 and 4 ranks the shares are smaller)
TEST(HGridOmp, LargeGridsSortedBucketByBucketOnThreads)
{
  for (const int threads : {2, 3})
    for (const bool newton : {true, false}) {
      const std::string what =
          std::to_string(threads) + " threads, newton " + (newton ? "on" : "off");
      // newton off: a wider window of ghost cells
      const int side = newton ? 300 : 270;
      std::unique_ptr<LAMMPS> lmp(
          make_lammps(MPI_COMM_WORLD, {"-sf", "omp", "-pk", "omp", std::to_string(threads)}));
      ASSERT_NO_THROW(commands(lmp.get(), large_grid_input(newton, side))) << what;
      const int half = lammps_find_pair_neighlist(lmp.get(), "gran/hooke/history/omp", 1, 0, 0);
      ASSERT_GE(half, 0) << what;
      EXPECT_TRUE(built_by_hgrid_omp(lmp.get(), half)) << what;
      auto *bins = dynamic_cast<LAMMPS_NS::NBinHGrid *>(lmp->neighbor->lists[half]->np->nb);
      ASSERT_NE(bins, nullptr) << what;
      // one rank: shares of kBucketedMinCells cells or more on 2 threads, fewer on 3
      const int ncells = bins->get_cells().num_cells();
      if (lmp->comm->nprocs == 1) {
        EXPECT_GE(ncells, 2 * hgrid::CellLists::kBucketedMinCells) << what;
        EXPECT_LT(ncells, 3 * hgrid::CellLists::kBucketedMinCells) << what;
      }
      expect_list_matches(lmp.get(), half, newton ? ListKind::HalfNewton : ListKind::HalfNewtoff,
                          false, "large grid, half list, " + what);
      const int full = lammps_request_single_neighlist(
          lmp.get(), "oracle", LAMMPS_NS::NeighConst::REQ_FULL | LAMMPS_NS::NeighConst::REQ_SIZE,
          -1.0);
      EXPECT_TRUE(built_by_hgrid_omp(lmp.get(), full)) << what;
      expect_list_matches(lmp.get(), full, ListKind::Full, false, "large grid, full list, " + what);
    }
}
