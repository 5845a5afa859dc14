/* neighbor hgrid under the KOKKOS package (-k on -sf kk, the OpenMP backend here, any
   backend where built): the half size list of pair gran/hooke/history/kk, built by
   the hgrid/kk classes, against the brute-force all-pairs oracle and pair for pair
   against the Kokkos "bin" list of the same system (2d/3d, periodic and fixed,
   newton on and off, size ratios 1 to 100, any number of MPI ranks); a 1000-step
   granular run under kk hgrid against kk bin; fix hgrid/tune re-leveling under
   Kokkos mid-run; neigh_modify exclude against the oracle, include groups to kk bin. */

#include "hgrid_testing.h"

#include "KOKKOS/nbin_hgrid_kokkos.h"
#include "atom_kokkos.h"
#include "atom_masks.h"
#include "comm_kokkos.h"
#include "fix_neigh_history_kokkos.h"
#include "force.h"
#include "hgrid_planner.h"
#include "input.h"
#include "lammps.h"
#include "library.h"
#include "modify.h"
#include "neigh_list_kokkos.h"
#include "neighbor.h"
#include "npair.h"
#include "pair.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace hgrid_testing;
using LAMMPS_NS::LAMMPS;

namespace {

// the host arrays create_system() wrote are the newest copy
void host_modified(LAMMPS *lmp)
{
  lmp->atomKK->modified(LAMMPS_NS::Host, ALL_MASK);
}

// the device a test runs on: the GPU of a CUDA build, else two host threads
#ifdef KOKKOS_ENABLE_CUDA
const std::string kDevice[2] = {"g", "1"};
#else
const std::string kDevice[2] = {"t", "2"};
#endif

SystemSpec kokkos_spec(SystemSpec spec, const std::string &newton)
{
  spec.lammps_args = {"-k",  "on",     kDevice[0], kDevice[1], "-sf",    "kk",
                      "-pk", "kokkos", "neigh",    "half",     "newton", newton};
  spec.newton = newton == "on";
  spec.after_host_change = host_modified;
  return spec;
}

// the pair style's Kokkos list as host rows (dense or packed: NeighRowsKokkos)
struct KokkosList {
  ListPairs pairs;
  long entries = 0;            // neighbors stored
  long slots = 0;              // room the list holds for them
  int longest_owned = 0;       // most owned partners in one row
  int longest = 0;             // most partners in one row
  bool back_to_back = true;    // packed rows: each starts where the one before it ends
};

KokkosList kokkos_pair_list(LAMMPS *lmp)
{
  lmp->atomKK->sync(LAMMPS_NS::Host, ALL_MASK);
  auto *list = dynamic_cast<LAMMPS_NS::NeighListKokkos<LMPDeviceType> *>(lmp->force->pair->list);
  EXPECT_NE(list, nullptr) << "the pair style's list is not a device Kokkos list";
  KokkosList result;
  if (!list) return result;
  auto ilist = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list->d_ilist);
  auto numneigh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list->d_numneigh);
  auto neighbors = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list->d_neighbors);
  auto start = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list->rows.d_start);
  const bool packed = list->rows.packed;
  auto entry = [&](int i, int jj) {
    return packed ? neighbors(0, start(i) + jj) : neighbors(i, jj);
  };
  result.slots = static_cast<long>(list->d_neighbors.size());
  for (int ii = 0; ii < list->inum; ii++) {
    const int i = ilist(ii);
    if (packed && i + 1 < list->inum) result.back_to_back &= start(i) + numneigh(i) == start(i + 1);
    int owned = 0;
    for (int jj = 0; jj < numneigh(i); jj++)
      owned += (entry(i, jj) & NEIGHMASK) < lmp->atom->nlocal;
    result.longest_owned = std::max(result.longest_owned, owned);
    result.longest = std::max(result.longest, static_cast<int>(numneigh(i)));
    result.entries += numneigh(i);
  }
  result.pairs = gather_rows(lmp, list->inum, ilist.data(), numneigh.data(), entry, true);
  return result;
}

// the oracle cases; HGRID_TEST_NEIGHBOR_WORDS in the environment (ctest
// hgrid_kokkos_cell_order) appends keywords to their "neighbor SKIN hgrid" command
std::vector<NamedSystem> kokkos_cases()
{
  auto systems = accelerator_systems({false}, true, 11);
  const char *words = std::getenv("HGRID_TEST_NEIGHBOR_WORDS");
  for (auto &c : systems) {
    c.spec = kokkos_spec(c.spec, "off");
    if (words && c.spec.neighbor == "hgrid") c.spec.neighbor += std::string(" ") + words;
  }
  return systems;
}

class HGridKokkosOracle : public ::testing::TestWithParam<NamedSystem> {};

TEST_P(HGridKokkosOracle, ListEqualsOracleAndKokkosBin)
{
  const NamedSystem &c = GetParam();
  auto lmp = make_system(c.spec);
  ASSERT_TRUE(pair_list_by_hgrid(lmp.get())) << "the kk pair list was not built by hgrid/kk";
  EXPECT_EQ(LAMMPS_NS::HGridPlanner::find(lmp.get())->kk_cell_order(),
            c.spec.neighbor.find("kk/order cells") != std::string::npos);
  const KokkosList hgrid = kokkos_pair_list(lmp.get());
  const auto kind = c.spec.newton ? ListKind::HalfNewton : ListKind::HalfNewtoff;
  const PairCounts expected = oracle(lmp.get(), kind);
  EXPECT_EQ(hgrid.pairs.self_pairs, 0);
  EXPECT_EQ(hgrid.pairs.wrong_history_bits, 0);
  EXPECT_EQ(compare(expected, hgrid.pairs.counts), "") << describe(c.spec);
  EXPECT_GT(expected.size(), 0u);

  // kk bin's bins on a GPU are a whole cutoff wide (half on the host), which stock
  // NBinStandard refuses for a 2d box one unit thick at size ratio 100 ("box size <<
  // cutoff", seen on an H200): the reference gets the host's half-cutoff bins
  SystemSpec bin = c.spec;
  bin.neighbor = "bin";
  bin.neigh_modify += " binsize " + std::to_string(0.5 * lmp->neighbor->cutneighmax);
  auto lmp_bin = make_system(bin);
  EXPECT_FALSE(pair_list_by_hgrid(lmp_bin.get()));
  const KokkosList stock = kokkos_pair_list(lmp_bin.get());
  EXPECT_EQ(compare(stock.pairs.counts, hgrid.pairs.counts), "") << "kk bin vs kk hgrid";
  EXPECT_EQ(stock.pairs.entries, hgrid.pairs.entries);
}

INSTANTIATE_TEST_SUITE_P(Systems, HGridKokkosOracle, ::testing::ValuesIn(kokkos_cases()),
                         [](const auto &info) {
                           return info.param.name;
                         });

// Bottom-Up stores each cross-level pair of owned atoms in the smaller atom's row: the
// most owned partners in one kk hgrid row at size ratio 100 are far fewer than in a
// kk bin row, which holds about half of a large particle's partners.  (With newton off
// an owned large particle still lists its small ghost partners: see the docs.)
TEST(HGridKokkos, ShortRowsAndPackedStorageAtSizeRatio100)
{
  SystemSpec s = kokkos_spec(powerlaw_system(2000, 100.0, 0.5), "off");
  s.neighbor = "hgrid kk/host kernels";    // the kernels' rows, on a host backend too
  auto lmp = make_system(s);
  ASSERT_TRUE(pair_list_by_hgrid(lmp.get()));
  EXPECT_EQ(LAMMPS_NS::HGridPlanner::find(lmp.get())->plan().layout.search,
            hgrid::Search::BottomUp);
  const KokkosList hgrid = kokkos_pair_list(lmp.get());
  s.neighbor = "bin";
  auto lmp_bin = make_system(s);
  const KokkosList stock = kokkos_pair_list(lmp_bin.get());
  EXPECT_EQ(compare(stock.pairs.counts, hgrid.pairs.counts), "");
  EXPECT_LT(3 * hgrid.longest_owned, stock.longest_owned)
      << "owned partners per row: hgrid " << hgrid.longest_owned << ", bin " << stock.longest_owned;
  // packed rows without free room (searched into room by level, then moved back to
  // back): a slot per pair, not atoms x the longest row of any atom
  EXPECT_LT(5 * hgrid.slots, stock.slots)
      << "list slots: hgrid " << hgrid.slots << ", bin " << stock.slots << " for " << stock.entries
      << " neighbors";
  EXPECT_EQ(hgrid.entries, stock.entries);
  EXPECT_TRUE(hgrid.back_to_back);
  EXPECT_LE(hgrid.slots, hgrid.entries + hgrid.entries / 5 + 1);
}

// a granular run (nve/sphere, list rebuilt every step) after `velocity`, then `run`
std::unique_ptr<LAMMPS> run_granular(const SystemSpec &s, const std::string &velocity,
                                     const std::vector<std::string> &run)
{
  auto lmp = make_system(s);
  commands(lmp.get(),
           {velocity, "fix integrate all nve/sphere", "timestep 0.002",
            "neigh_modify every 1 delay 0 check no"});
  commands(lmp.get(), run);
  if (!s.lammps_args.empty()) lmp->atomKK->sync(LAMMPS_NS::Host, ALL_MASK);
  return lmp;
}

// a dilute granular gas: positions after 1000 steps under kk hgrid or kk bin
std::vector<double> run_gas(const std::string &neighbor, long &touching)
{
  SystemSpec s = kokkos_spec(powerlaw_system(600, 10.0, 0.08), "off");
  s.neighbor = neighbor;
  auto lmp = run_granular(s, "velocity all create 0.5 4928459 loop geom", {"run 1000 post no"});
  EXPECT_EQ(pair_list_by_hgrid(lmp.get()), neighbor == "hgrid");
  touching = kokkos_pair_list(lmp.get()).pairs.counts.size();
  return gather_by_tag(lmp.get(), lmp->atom->x);
}

// a dense granular gas: many lasting contacts, atoms crossing between MPI ranks
std::vector<double> run_contacts(const SystemSpec &s, const std::vector<std::string> &run)
{
  auto lmp = run_granular(s, "velocity all create 2.0 87287 loop geom", run);
  return gather_by_tag(lmp.get(), lmp->atom->x);
}

// fix neigh/history/kk keeps each atom's partners in one pool (core patch): the
// history it carries across rebuilds, sorts and exchanges matches the CPU fix
TEST(HGridKokkos, ContactHistoryMatchesCpuRun)
{
  SystemSpec cpu = powerlaw_system(800, 10.0, 0.45);
  cpu.newton = false;
  const std::vector<std::string> run = {"atom_modify sort 50 0.0", "run 400 post no"};
  const auto xcpu = run_contacts(cpu, run);
  const auto xkk = run_contacts(kokkos_spec(cpu, "off"), run);
  EXPECT_LT(relative_difference(xcpu, xkk), 1e-8);
}

// fix neigh/history/kk walks the list one entry at a time and finds each contact's
// old partner by a linear scan (stock) up to FixNeighHistory::lookup_linear_max
// partners, beyond it through a hash table of the atom's partners (core patch 0011).
// Positions under two threads are not reproducible bit for bit (the pair's atomic
// force sums), so the remap is compared on one state: after each of five runs of a
// dense gas, post_neighbor() on the same list and partner pool, once with the scan for
// every atom and once with the tables for every atom, gives the same flags and values
struct Remap {
  std::vector<int> flags;
  std::vector<double> values;
};

Remap remap_with(LAMMPS_NS::FixNeighHistoryKokkos<LMPDeviceType> *fix, int linear_max)
{
  LAMMPS_NS::FixNeighHistory::lookup_linear_max = linear_max;
  fix->post_neighbor();
  fix->k_firstflag.sync_host();
  fix->k_firstvalue.sync_host();
  const auto f = fix->k_firstflag.view_host();
  const auto v = fix->k_firstvalue.view_host();
  return {std::vector<int>(f.data(), f.data() + f.size()),
          std::vector<double>(v.data(), v.data() + v.size())};
}
// the ghosts of this rank as sorted (tag, x, y, z)
std::vector<std::array<double, 4>> ghost_set(LAMMPS *lmp)
{
  if (lmp->kokkos) lmp->atomKK->sync(LAMMPS_NS::Host, X_MASK | TAG_MASK);
  const int nlocal = lmp->atom->nlocal, nall = nlocal + lmp->atom->nghost;
  std::vector<std::array<double, 4>> ghosts;
  for (int i = nlocal; i < nall; i++) {
    const double *x = lmp->atom->x[i];
    ghosts.push_back({static_cast<double>(lmp->atom->tag[i]), x[0], x[1], x[2]});
  }
  std::sort(ghosts.begin(), ghosts.end());
  return ghosts;
}

// ranks whose ghosts differ between two instances on the same ranks
int ranks_with_other_ghosts(LAMMPS *a, LAMMPS *b)
{
  int differ = ghost_set(a) != ghost_set(b), total = 0;
  MPI_Allreduce(&differ, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

// comm mode multi under KOKKOS (core patch 0012): hgrid's size-class ghosts are sent
// from the device (-pk kokkos comm device), each atom's class found from its radius in
// the border kernel, with no switch to CommBrick's host exchange and borders.  Each
// rank's ghosts equal CommBrick's for the same atoms, at the start and after a run
// (atoms moved, exchanged and sorted: the CPU instance reads kk's positions back), and
// the list equals the oracle's
TEST(HGridKokkos, SizeClassGhostsAreSentFromTheDevice)
{
  SystemSpec cpu = powerlaw_system(3000, 30.0, 0.3);
  cpu.newton = false;
  cpu.neighbor = "hgrid search bottomup";    // kk's direction: the same ghost classes
  SystemSpec kk = kokkos_spec(cpu, "off");
  kk.lammps_args.insert(kk.lammps_args.end(), {"comm", "device"});
  auto lmp = make_system(kk);
  auto *comm = dynamic_cast<LAMMPS_NS::CommKokkos *>(lmp->comm);
  ASSERT_NE(comm, nullptr);
  ASSERT_EQ(comm->mode, LAMMPS_NS::Comm::MULTI) << "hgrid chose one ghost cutoff";
  EXPECT_GT(lmp->neighbor->ncollections, 2);
  auto lmp_cpu = make_system(cpu);
  ASSERT_EQ(lmp_cpu->comm->mode, LAMMPS_NS::Comm::MULTI);
  EXPECT_FALSE(comm->exchange_comm_legacy) << "comm mode multi switched KOKKOS to the host";
  EXPECT_EQ(ranks_with_other_ghosts(lmp.get(), lmp_cpu.get()), 0) << "at the start";
  EXPECT_GT(lmp->atom->nghost, 0);

  commands(lmp.get(),
           {"velocity all create 2.0 87287 loop geom", "fix integrate all nve/sphere",
            "timestep 0.002", "neigh_modify every 1 delay 0 check no", "run 200 post no"});
  EXPECT_FALSE(comm->exchange_comm_legacy) << "comm mode multi switched KOKKOS to the host";
  const std::string data = "hgrid_kk_ghosts_np" + std::to_string(lmp->comm->nprocs) + ".data";
  commands(lmp.get(), {"write_data " + data, "run 0 post no"});
  commands(lmp_cpu.get(),
           {"delete_atoms group all", "read_data " + data + " add merge", "run 0 post no"});
  EXPECT_EQ(lmp_cpu->atom->natoms, lmp->atom->natoms);
  EXPECT_EQ(ranks_with_other_ghosts(lmp.get(), lmp_cpu.get()), 0) << "after 200 steps";
  EXPECT_EQ(
      compare(oracle(lmp.get(), ListKind::HalfNewtoff), kokkos_pair_list(lmp.get()).pairs.counts),
      "");
  EXPECT_FALSE(comm->exchange_comm_legacy);
}

TEST(HGridKokkos, HashedPartnersCarryTheHistoryOfTheLinearScan)
{
  const int saved = LAMMPS_NS::FixNeighHistory::lookup_linear_max;
  const SystemSpec s = kokkos_spec(powerlaw_system(900, 20.0, 0.5), "off");
  auto lmp =
      run_granular(s, "velocity all create 2.0 87287 loop geom", {"atom_modify sort 50 0.0"});
  auto fixes = lmp->modify->get_fix_by_style("^NEIGH_HISTORY");
  ASSERT_EQ(fixes.size(), 1u);
  auto *fix = dynamic_cast<LAMMPS_NS::FixNeighHistoryKokkos<LMPDeviceType> *>(fixes.front());
  ASSERT_NE(fix, nullptr);
  for (int run = 0; run < 5; run++) {
    commands(lmp.get(), {"run 200 post no"});    // post_run(): the pool holds the contacts
    const Remap stock = remap_with(fix, INT_MAX);
    const Remap hashed = remap_with(fix, 0);
    const Remap mixed = remap_with(fix, saved);
    LAMMPS_NS::FixNeighHistory::lookup_linear_max = saved;
    long mine = std::count(stock.flags.begin(), stock.flags.end(), 1);    // not const: STUBS
    long found = 0;
    MPI_Allreduce(&mine, &found, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_GT(found, 500) << "run " << run << ": " << found << " contacts found of "
                          << stock.flags.size();
    EXPECT_TRUE(hashed.flags == stock.flags) << "run " << run;
    EXPECT_TRUE(hashed.values == stock.values) << "run " << run;
    EXPECT_TRUE(mixed.flags == stock.flags) << "run " << run;
    EXPECT_TRUE(mixed.values == stock.values) << "run " << run;
  }
  // the large particles touch far more partners than the scan's limit, so the default
  // took both ways (maxpartner: the most partners of an atom, grown in 20 % steps)
  int mine = fix->get_maxpartner();    // not const: STUBS' MPI_Allreduce takes void *
  int most = 0;
  MPI_Allreduce(&mine, &most, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_GT(most, 3 * saved);
}

// fix neigh/history/kk's post_neighbor() writes a flag for every entry and values only
// for the contacts it finds; pair gran/hooke/history/kk starts an entry of flag 0 from
// zero history without reading its values (core patch 0011). With every contact
// dropped before a remap and the values of the list (all of flag 0) poisoned with NaN,
// the force computes that follow without a rebuild first read none of them
TEST(HGridKokkos, ValuesOfEntriesWithoutHistoryAreNotRead)
{
  const SystemSpec s = kokkos_spec(powerlaw_system(900, 20.0, 0.5), "off");
  auto lmp = run_granular(s, "velocity all create 2.0 87287 loop geom", {"run 100 post no"});
  auto fixes = lmp->modify->get_fix_by_style("^NEIGH_HISTORY");
  ASSERT_EQ(fixes.size(), 1u);
  auto *fix = dynamic_cast<LAMMPS_NS::FixNeighHistoryKokkos<LMPDeviceType> *>(fixes.front());
  ASSERT_NE(fix, nullptr);
  fix->k_firstflag.sync_host();
  const auto before = fix->k_firstflag.view_host();
  std::fill(before.data(), before.data() + before.size(), 0);
  fix->k_firstflag.modify_host();
  fix->pre_exchange();    // harvests no contact
  fix->post_neighbor();
  fix->k_firstflag.sync_host();
  fix->k_firstvalue.sync_host();
  const auto flags = fix->k_firstflag.view_host();
  const auto values = fix->k_firstvalue.view_host();
  EXPECT_EQ(std::count(flags.data(), flags.data() + flags.size(), 0), (long) flags.size());
  std::fill(values.data(), values.data() + values.size(), std::nan(""));
  fix->k_firstvalue.modify_host();

  // the setup of a run (its remap harvests no contact, its force compute updates no
  // shear) flags the touching entries and leaves them values to read (zero); the steps
  // after it keep them finite

  commands(lmp.get(), {"run 0 post no"});
  fix->k_firstflag.sync_host();
  fix->k_firstvalue.sync_host();
  const auto flag = fix->k_firstflag.view_host();
  const auto value = fix->k_firstvalue.view_host();
  const int dnum = static_cast<int>(value.size() / flag.size());
  long mine = 0, finite = 0;
  for (size_t k = 0; k < flag.size(); k++) {
    if (flag.data()[k] != 1) continue;
    mine++;
    for (int d = 0; d < dnum; d++) finite += std::isfinite(value.data()[dnum * k + d]);
  }
  EXPECT_EQ(finite, dnum * mine);
  long touching = 0;    // mine not const: STUBS' MPI_Allreduce takes void *
  MPI_Allreduce(&mine, &touching, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_GT(touching, 500);
  commands(lmp.get(), {"run 20 pre no post no"});
  lmp->atomKK->sync(LAMMPS_NS::Host, X_MASK);
  const auto x = gather_by_tag(lmp.get(), lmp->atom->x);
  ASSERT_FALSE(x.empty());
  EXPECT_TRUE(std::all_of(x.begin(), x.end(), [](double v) {
    return std::isfinite(v);
  }));
}

// the partner pool goes into the restart file in the CPU fix's format and back: an
// lmp process runs a settled column with contact history, writes a restart and goes
// on; a second process continues from the file (two processes, as a user restarts:
// the history fix's ID carries the pair's instance number within one process)
// positions an lmp process under -sf kk dumps at the end of `input`
std::vector<double> kokkos_lmp_dump(const std::string &name, const std::string &input)
{
  (void) run_lmp(HGRID_LMP, name,
                 input + "write_dump all custom " + name +
                     ".dump id x y z modify sort id format float %20.15g\n",
                 "-k on " + kDevice[0] + " " + kDevice[1] +
                     " -sf kk -pk kokkos neigh half newton off");
  auto values = read_dump(name + ".dump");
  for (const auto &ext : {".in", ".log", ".dump"}) std::remove((name + ext).c_str());
  return values;
}

TEST(HGridKokkos, RestartKeepsContactHistory)
{
  int nprocs = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (nprocs > 1) GTEST_SKIP() << "runs lmp processes of its own";
  const std::string run = "neighbor 0.2 hgrid\nneigh_modify every 1 delay 0 check no\n"
                          "fix 1 all nve/sphere\nfix 2 all gravity 1.0 spherical 0.0 -180.0\n"
                          "fix zlower all wall/gran/kk hooke/history 2000.0 NULL 50.0 NULL 0.5 0 "
                          "zplane 0.0 2000.0\ntimestep 0.001\n";
  std::string setup;
  for (const auto &line : pour_column)
    if (line.rfind("fix", 0) != 0 && line.rfind("timestep", 0) != 0) setup += line + "\n";
  const auto straight =
      kokkos_lmp_dump("hgrid_kk_restart_a",
                      setup + run +
                          "region low block -9.0 9.0 -9.0 9.0 0.3 3.0 units box\n"
                          "create_atoms 1 random 1500 300719 low overlap 0.6 maxtry 100\n"
                          "variable d atom 0.4+0.1*(id%3)\nset group all diameter v_d\n"
                          "run 2000\nwrite_restart hgrid_kk_restart.bin\nrun 300\n");
  const auto restarted = kokkos_lmp_dump("hgrid_kk_restart_b",
                                         "read_restart hgrid_kk_restart.bin\npair_style gran/hooke/"
                                         "history 2000.0 NULL 50.0 NULL 0.5 0\npair_coeff * *\n" +
                                             run + "run 300\n");
  std::remove("hgrid_kk_restart.bin");
  ASSERT_GT(straight.size(), 400u);
  EXPECT_LT(relative_difference(straight, restarted), 1e-10);
}

TEST(HGridKokkos, GranularRunMatchesKokkosBin)
{
  long pairs_bin = 0, pairs_hgrid = 0;
  const auto xbin = run_gas("bin", pairs_bin);
  const auto xhgrid = run_gas("hgrid", pairs_hgrid);
  ASSERT_EQ(xbin.size(), xhgrid.size());
  EXPECT_LT(relative_difference(xbin, xhgrid), 1e-10);
  EXPECT_EQ(pairs_bin, pairs_hgrid);
  EXPECT_GT(pairs_bin, 0);
}

// fix hgrid/tune under Kokkos: particles grow (fix adapt) past the top level mid-run,
// the grid is re-leveled on the host and the list stays exact on the device
TEST(HGridKokkos, RelevelMidRunKeepsListExact)
{
  SystemSpec s = kokkos_spec(powerlaw_system(600, 5.0, 0.2), "off");
  auto lmp = make_system(s);
  const double top0 = LAMMPS_NS::HGridPlanner::find(lmp.get())->plan().layout.top();
  commands(lmp.get(),
           {"comm_modify cutoff 40 vel yes", "fix tune all hgrid/tune 100000",
            "variable s equal ramp(1.0,1.6)", "fix integrate all nve/sphere",
            "fix grow all adapt 5 atom diameter v_s scale yes",
            "neigh_modify every 1 delay 0 check no", "run 100 post no", "unfix grow",
            "run 0 post no"});
  const double top1 = LAMMPS_NS::HGridPlanner::find(lmp.get())->plan().layout.top();
  EXPECT_GT(top1, top0) << "no re-level happened";
  ASSERT_TRUE(pair_list_by_hgrid(lmp.get()));
  const KokkosList hgrid = kokkos_pair_list(lmp.get());
  EXPECT_EQ(hgrid.pairs.wrong_history_bits, 0);
  EXPECT_EQ(compare(oracle(lmp.get(), ListKind::HalfNewtoff), hgrid.pairs.counts), "");
}

// neigh_modify exclude (type, group, molecule) under kk hgrid: the list holds exactly
// the oracle's pairs less the excluded ones; an include group goes to kk bin
TEST(HGridKokkos, ExclusionsMatchOracle)
{
  struct Variant {
    std::string name, setup, neigh_modify;
    std::function<bool(LAMMPS *, const AtomInfo &, const AtomInfo &)> keep;
  };
  const std::vector<Variant> variants = {{"type", "", "exclude type 1 2",
                                          [](LAMMPS *, const AtomInfo &a, const AtomInfo &b) {
                                            return a.type == b.type;
                                          }},
                                         {"group", "group low id 1:300", "exclude group low all",
                                          [](LAMMPS *lmp, const AtomInfo &a, const AtomInfo &b) {
                                            return !in_group(lmp, a, "low") &&
                                                !in_group(lmp, b, "low");
                                          }},
                                         {"molecule/intra", "", "exclude molecule/intra all",
                                          [](LAMMPS *, const AtomInfo &a, const AtomInfo &b) {
                                            return a.molecule != b.molecule;
                                          }}};
  for (const auto &v : variants) {
    SystemSpec s = kokkos_spec(powerlaw_system(800, 10.0, 0.35), "off");
    s.ntypes = 2;
    s.molecule_size = 6;
    if (!v.setup.empty()) s.before_pair = {v.setup};
    s.neigh_modify = v.neigh_modify;
    auto lmp = make_system(s);
    ASSERT_TRUE(pair_list_by_hgrid(lmp.get())) << v.name;
    const KokkosList hgrid = kokkos_pair_list(lmp.get());
    OracleRule rule;
    rule.keep = [&](const AtomInfo &a, const AtomInfo &b) {
      return v.keep(lmp.get(), a, b);
    };
    const PairCounts expected = oracle(lmp.get(), ListKind::HalfNewtoff, rule);
    EXPECT_LT(expected.size(), oracle(lmp.get(), ListKind::HalfNewtoff).size()) << v.name;
    EXPECT_GT(expected.size(), 0u) << v.name;
    EXPECT_EQ(compare(expected, hgrid.pairs.counts), "") << "exclude " << v.name;
  }
  SystemSpec s = kokkos_spec(powerlaw_system(300, 10.0, 0.3), "off");
  s.before_pair = {"group inner id 1:200", "atom_modify first inner"};
  s.neigh_modify = "include inner";
  auto lmp = make_system(s);
  EXPECT_FALSE(pair_list_by_hgrid(lmp.get())) << "an include group under KOKKOS is kk bin's";
}

}    // namespace

// the threads' order (neighbor hgrid kk/order atoms, the default, or cells) changes no
// pair of the list, which equals the oracle's either way; any other value is refused by
// name, and without KOKKOS the keyword is accepted (one input runs with and without -sf kk)
TEST(HGridKokkos, AtomOrderAndCellOrderBuildTheSameRows)
{
  SystemSpec s = kokkos_spec(powerlaw_system(3000, 30.0, 0.3), "off");
  PairCounts expected;
  auto rows_of = [&](const char *order) {
    s.neighbor = std::string("hgrid kk/host kernels kk/order ") + order;
    auto lmp = make_system(s);
    EXPECT_TRUE(pair_list_by_hgrid(lmp.get()));
    EXPECT_EQ(LAMMPS_NS::HGridPlanner::find(lmp.get())->kk_cell_order(),
              std::string(order) == "cells");
    expected = oracle(lmp.get(), ListKind::HalfNewtoff);
    return kokkos_pair_list(lmp.get());
  };
  const KokkosList cells = rows_of("cells");
  EXPECT_EQ(compare(expected, cells.pairs.counts), "") << "cell order vs the oracle";
  const KokkosList atoms = rows_of("atoms");
  EXPECT_EQ(compare(expected, atoms.pairs.counts), "") << "atom order vs the oracle";
  EXPECT_EQ(cells.pairs.entries, atoms.pairs.entries);
  EXPECT_GT(cells.pairs.entries, 0);

  s.neighbor = "hgrid kk/order warps";
  std::string msg = error_of(s, {});
  EXPECT_NE(msg.find("Neighbor hgrid kk/order must be atoms or cells, got warps"),
            std::string::npos)
      << msg;
  s.neighbor = "hgrid kk/order";
  msg = error_of(s, {});
  EXPECT_NE(msg.find("Missing value for neighbor hgrid keyword kk/order"), std::string::npos)
      << msg;

  SystemSpec cpu = powerlaw_system(600, 30.0, 0.3);
  cpu.neighbor = "hgrid kk/order cells";
  auto lmp = make_system(cpu);
  EXPECT_TRUE(LAMMPS_NS::HGridPlanner::find(lmp.get())->kk_cell_order());
  EXPECT_EQ(
      compare(oracle(lmp.get(), ListKind::HalfNewton), gather_list(lmp.get(), 0, false).counts),
      "");
}

// the rows of the pair style's Kokkos list by owned atom: partner tags and history
// bits, in the order the builder stored them
std::map<long, std::vector<long>> kokkos_rows(LAMMPS *lmp)
{
  auto *list = dynamic_cast<LAMMPS_NS::NeighListKokkos<LMPDeviceType> *>(lmp->force->pair->list);
  std::map<long, std::vector<long>> rows;
  if (!list) return rows;
  lmp->atomKK->sync(LAMMPS_NS::Host, TAG_MASK);
  auto ilist = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list->d_ilist);
  auto numneigh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list->d_numneigh);
  auto neighbors = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list->d_neighbors);
  auto start = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list->rows.d_start);
  const auto *tag = lmp->atom->tag;
  for (int ii = 0; ii < list->inum; ii++) {
    const int i = ilist(ii);
    auto &row = rows[tag[i]];
    for (int jj = 0; jj < numneigh(i); jj++) {
      const int j = list->rows.packed ? neighbors(0, start(i) + jj) : neighbors(i, jj);
      row.push_back(2 * tag[j & NEIGHMASK] + (j >> SBBITS & 3));
    }
  }
  return rows;
}

// neighbor hgrid kk/split: the searches of large particles (newton off: their ghost
// partners on the finest levels) are split into rows of cells, one thread each, and
// give the rows of one thread per particle, partner for partner, in the same order
TEST(HGridKokkos, SplitSearchesBuildTheSameRows)
{
  SystemSpec s = kokkos_spec(powerlaw_system(4000, 100.0, 0.3), "off");
  s.packing = 0.5;
  // the same local atom order in every instance: KOKKOS' sort on a GPU (BinSort) leaves
  // the order inside a bin to its atomics (an H200 gave rows in another partner order)
  s.before_pair.push_back("atom_modify sort 0 0.0");
  double split = 0.0, longest = 0.0, row = 0.0;
  auto rows_of = [&](const std::string &words) {
    s.neighbor = "hgrid kk/host kernels " + words;
    auto lmp = make_system(s);
    EXPECT_TRUE(pair_list_by_hgrid(lmp.get()));
    EXPECT_EQ(
        compare(oracle(lmp.get(), ListKind::HalfNewtoff), kokkos_pair_list(lmp.get()).pairs.counts),
        "")
        << words;
    LAMMPS_NS::HGridPlanner::find(lmp.get())->longest_thread(longest, row, split);
    return kokkos_rows(lmp.get());
  };
  const auto whole = rows_of("kk/split no");
  EXPECT_EQ(split, 0.0);
  const double longest_whole = longest;
  for (const char *words : {"kk/split 16", "kk/split 1024 kk/order cells", "kk/split 1"}) {
    EXPECT_EQ(rows_of(words), whole) << words;
    EXPECT_GT(split, 0.0) << words << ": no search was split";
    EXPECT_LT(longest, longest_whole) << words;
  }
#ifndef LMP_KOKKOS_GPU
  rows_of("kk/split auto");    // the default: no split on the host
  EXPECT_EQ(split, 0.0);
#endif

  s.neighbor = "hgrid kk/split 0.5";
  std::string msg = error_of(s, {});
  EXPECT_NE(msg.find("Neighbor hgrid kk/split must be auto, no or at least 1 cell, got 0.5"),
            std::string::npos)
      << msg;
  s.neighbor = "hgrid kk/split";
  msg = error_of(s, {});
  EXPECT_NE(msg.find("Missing value for neighbor hgrid keyword kk/split"), std::string::npos)
      << msg;
}

// the share of the owned pairs of the pair style's Kokkos list whose two atoms are
// fewer than \p near places apart in memory
double near_in_memory(LAMMPS *lmp, int near)
{
  auto *list = dynamic_cast<LAMMPS_NS::NeighListKokkos<LMPDeviceType> *>(lmp->force->pair->list);
  if (!list) return 0.0;
  auto ilist = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list->d_ilist);
  auto numneigh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list->d_numneigh);
  auto neighbors = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list->d_neighbors);
  auto start = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), list->rows.d_start);
  long pairs = 0, close = 0;
  for (int ii = 0; ii < list->inum; ii++) {
    const int i = ilist(ii);
    for (int jj = 0; jj < numneigh(i); jj++) {
      const int j =
          (list->rows.packed ? neighbors(0, start(i) + jj) : neighbors(i, jj)) & NEIGHMASK;
      if (j >= lmp->atom->nlocal) continue;
      pairs++;
      close += std::abs(i - j) < near;
    }
  }
  return pairs ? static_cast<double>(close) / pairs : 0.0;
}

// under KOKKOS the atom sort (AtomKokkos::sort_device, core patch) uses bins of
// hgrid's finest level in Morton order where hgrid offers them: a particle's partners
// lie closer in memory than in the stock order (bins of half the largest cutoff, kept
// by atom_modify sort with that bin size).  (The oracle cases at size ratio 100 check
// the lists of atoms in this order.)
TEST(HGridKokkos, DeviceSortPutsPartnersCloseInMemory)
{
  SystemSpec s = kokkos_spec(powerlaw_system(6000, 100.0, 0.3), "off");
  auto morton = make_system(s);
  ASSERT_GT(morton->neighbor->hgrid_sortbin, 0.0) << "hgrid offers no sort bins at omega 100";
  const double stock_bin = 0.5 * morton->neighbor->cutneighmax;
  s.before_pair.push_back("atom_modify sort 1000 " + std::to_string(stock_bin));
  auto stock = make_system(s);
  const double near_morton = near_in_memory(morton.get(), 32);
  const double near_stock = near_in_memory(stock.get(), 32);
  std::printf("owned pairs fewer than 32 atoms apart: Morton bins %.3f, stock bins %.3f\n",
              near_morton, near_stock);
  EXPECT_GT(near_morton, 1.5 * near_stock);
}

// the kk binning's counting sort (on a host execution space each thread counts and
// fills its share of the cells without atomics; on a GPU atomics, then a sort per cell)
// leaves every cell's atoms in index order and the counts at zero for the next build:
// after builds of moving atoms the bins are those the atoms' cells give.  On a host
// backend the same for the CPU's binning (kk/host cpu, the default), whose atom2cell
// is the host array of NBinHGrid
TEST(HGridKokkos, BinsHoldEachCellsAtomsInIndexOrder)
{
  for (const char *host : {"kernels", "cpu"}) {
    SystemSpec s = kokkos_spec(powerlaw_system(3000, 100.0, 0.3), "off");
    s.neighbor = std::string("hgrid kk/host ") + host;
    auto lmp = make_system(s);
    commands(lmp.get(),
             {"velocity all create 1.0 4928459 loop geom", "fix integrate all nve/sphere",
              "neigh_modify every 1 delay 0 check no", "run 20 post no"});
    ASSERT_TRUE(pair_list_by_hgrid(lmp.get()));
    auto *bins =
        dynamic_cast<LAMMPS_NS::NBinHGridKokkos<LMPDeviceType> *>(lmp->force->pair->list->np->nb);
    ASSERT_NE(bins, nullptr) << "the pair list's bins are not hgrid/kk's";
    const hgrid::GridView g = bins->device_view();
    const int ncells = bins->get_cells().num_cells();
    const int nall = lmp->atom->nlocal + lmp->atom->nghost;
    using Unmanaged = Kokkos::View<const int *, LMPDeviceType, Kokkos::MemoryUnmanaged>;
    auto start = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(),
                                                     Unmanaged(g.cell_start, ncells + 1));
    auto slots = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Unmanaged(g.slots, nall));
    std::vector<int> cell(nall);
    if (bins->cpu_builds()) {
      std::copy(bins->atom2cell, bins->atom2cell + nall, cell.begin());
    } else {
      auto d_cell = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bins->d_atom2cell);
      ASSERT_GE(static_cast<int>(d_cell.extent(0)), nall);
      std::copy(d_cell.data(), d_cell.data() + nall, cell.begin());
    }
#ifndef LMP_KOKKOS_GPU
    EXPECT_EQ(bins->cpu_builds(), std::string(host) == "cpu");
#endif

    std::vector<std::vector<int>> expected(ncells);
    int binned = 0;
    for (int i = 0; i < nall; i++)
      if (cell[i] >= 0) {
        ASSERT_LT(cell[i], ncells);
        expected[cell[i]].push_back(i);
        binned++;
      }
    EXPECT_GT(binned, lmp->atom->nlocal - 1) << host;
    ASSERT_EQ(start(ncells), binned);
    int mismatched = 0;
    for (int c = 0; c < ncells; c++) {
      const std::vector<int> held(slots.data() + start(c), slots.data() + start(c + 1));
      mismatched += held != expected[c];
    }
    EXPECT_EQ(mismatched, 0) << host << ": cells whose slots are not their atoms in index order";
    EXPECT_EQ(
        compare(oracle(lmp.get(), ListKind::HalfNewtoff), kokkos_pair_list(lmp.get()).pairs.counts),
        "")
        << host;
  }
}

// on a host execution space (kk/host cpu, the default) the Kokkos list is the CPU
// builder's: the model's search direction (not the kernels' Bottom-Up), the CPU run's
// cells and distance checks for the same atoms, its pairs, packed back to back; a
// value other than cpu or kernels is refused by name.  (Newton off: the granular
// history fix of KOKKOS requires it.)
TEST(HGridKokkos, HostListsAreTheCpuBuilders)
{
#ifdef LMP_KOKKOS_GPU
  GTEST_SKIP() << "a GPU build's Kokkos lists are the device kernels'";
#endif
  for (const char *newton : {"off"}) {
    SystemSpec cpu = powerlaw_system(3000, 100.0, 0.3);
    cpu.newton = std::string(newton) == "on";
    const SystemSpec kk = kokkos_spec(cpu, newton);
    auto lmp = make_system(kk);
    auto lmp_cpu = make_system(cpu);
    ASSERT_TRUE(pair_list_by_hgrid(lmp.get()));
    const auto *planner = LAMMPS_NS::HGridPlanner::find(lmp.get());
    const auto *planner_cpu = LAMMPS_NS::HGridPlanner::find(lmp_cpu.get());
    EXPECT_FALSE(planner->kk_host_kernels());
    EXPECT_EQ(planner->plan().layout.search, planner_cpu->plan().layout.search) << newton;
    EXPECT_EQ(planner->plan().layout.search, hgrid::Search::TopDown) << newton;
    EXPECT_EQ(planner->last_build().cells_visited, planner_cpu->last_build().cells_visited)
        << newton;
    EXPECT_EQ(planner->last_build().distance_checks, planner_cpu->last_build().distance_checks)
        << newton;
    const KokkosList rows = kokkos_pair_list(lmp.get());
    const auto kind = cpu.newton ? ListKind::HalfNewton : ListKind::HalfNewtoff;
    EXPECT_EQ(compare(oracle(lmp.get(), kind), rows.pairs.counts), "") << newton;
    EXPECT_EQ(compare(gather_list(lmp_cpu.get(), 0, true).counts, rows.pairs.counts), "")
        << newton << ": kk hgrid vs the CPU run";
    EXPECT_EQ(rows.pairs.wrong_history_bits, 0);
    EXPECT_TRUE(rows.back_to_back);
    EXPECT_LE(rows.slots, rows.entries + rows.entries / 5 + 1);

    SystemSpec kernels = kk;
    kernels.neighbor = "hgrid kk/host kernels";
    auto lmp_kernels = make_system(kernels);
    EXPECT_EQ(LAMMPS_NS::HGridPlanner::find(lmp_kernels.get())->plan().layout.search,
              hgrid::Search::BottomUp);
    EXPECT_EQ(compare(rows.pairs.counts, kokkos_pair_list(lmp_kernels.get()).pairs.counts), "")
        << newton << ": the CPU builder vs the kernels";
  }
  SystemSpec s = kokkos_spec(powerlaw_system(200, 5.0, 0.2), "off");
  s.neighbor = "hgrid kk/host gpu";
  std::string msg = error_of(s, {});
  EXPECT_NE(msg.find("Neighbor hgrid kk/host must be cpu or kernels, got gpu"), std::string::npos)
      << msg;
  s.neighbor = "hgrid kk/host";
  msg = error_of(s, {});
  EXPECT_NE(msg.find("Missing value for neighbor hgrid keyword kk/host"), std::string::npos) << msg;
}

namespace {
// the global scalar of compute \p id
double compute_scalar(LAMMPS *lmp, const char *id)
{
  return *static_cast<double *>(lammps_extract_compute(lmp, id, LMP_STYLE_GLOBAL, LMP_TYPE_SCALAR));
}

// the host list of compute contact/atom "contacts" (a copy of the pair style's Kokkos
// list, newton off) against the oracle, with the history bits the pair list carries
void expect_contacts_copy_matches_oracle(LAMMPS *lmp, const std::string &what)
{
  lmp->atomKK->sync(LAMMPS_NS::Host, ALL_MASK);
  expect_list_matches(lmp, lammps_find_compute_neighlist(lmp, "contacts", 0), ListKind::HalfNewtoff,
                      true, "the copy of compute contact/atom " + what);
}
}    // namespace

// unit spheres on a lattice and two intruders of diameter 20, each overlapping about
// 4800 of them, under -sf kk with neigh_modify one 1000: the rows of the intruders
// outgrow one.  Kokkos lists grow past it (kk bin's do: not run here, its rows as wide
// as the longest take minutes to allocate with the history arrays), and so do kk
// hgrid's, the CPU builder's on a host backend too (a room of its own), with their
// pairs equal to the oracle's and the user's one unchanged; the CPU classes keep the
// stock error (RowRoom test)
TEST(HGridKokkos, RowsOutgrowNeighModifyOneAsKokkosBinsDo)
{
  std::unique_ptr<LAMMPS> lmp(make_lammps(MPI_COMM_WORLD,
                                          {"-k", "on", kDevice[0], kDevice[1], "-sf", "kk", "-pk",
                                           "kokkos", "neigh", "half", "newton", "off"}));
  commands(lmp.get(), intruders_input("one 1000 page 100000"));
  // a host compute's copy of the list (stock: "Neighbor list overflow" for kk bin, a
  // write past the page's end for kk hgrid) follows the rows too
  commands(lmp.get(),
           {"compute contacts all contact/atom", "compute most all reduce max c_contacts",
            "thermo_style custom step c_most", "run 2 post no"});
  ASSERT_TRUE(pair_list_by_hgrid(lmp.get()));
  const KokkosList rows = kokkos_pair_list(lmp.get());
  EXPECT_EQ(compare(oracle(lmp.get(), ListKind::HalfNewtoff), rows.pairs.counts), "");
  int mine = rows.longest, longest = 0;    // on any rank: an intruder is owned by one
  MPI_Allreduce(&mine, &longest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_GT(longest, 1000) << "no row outgrew neigh_modify one";
  EXPECT_EQ(lmp->neighbor->oneatom, 1000) << "the user's one changed";
  EXPECT_GT(compute_scalar(lmp.get(), "most"), 1000.0);
  expect_contacts_copy_matches_oracle(lmp.get(), "");
}

// a host compute of a kk run (compute contact/atom: an occasional list copied from
// the pair style's Kokkos list) reads kk hgrid's packed rows: the copy holds the
// oracle's pairs with their history bits and the compute counts the contacts of kk
// bin's run, for the CPU builder's rows and the kernels' (the stock copy read packed
// rows as dense ones: wrong rows on one rank, a segfault on two)
TEST(HGridKokkos, HostCopiesOfPackedRowsHoldTheOraclesPairs)
{
  SystemSpec s = kokkos_spec(powerlaw_system(2000, 30.0, 0.5), "off");
  s.after_pair = {"compute contacts all contact/atom", "compute sum all reduce sum c_contacts",
                  "thermo_style custom step c_sum"};
  s.neighbor = "bin";
  auto lmp_bin = make_system(s);
  const double expected = compute_scalar(lmp_bin.get(), "sum");
  EXPECT_GT(expected, 100.0) << "the test needs contacts";
  for (const std::string host : {"cpu", "kernels"}) {
    s.neighbor = "hgrid kk/host " + host;
    auto lmp = make_system(s);
    ASSERT_TRUE(pair_list_by_hgrid(lmp.get())) << host;
    EXPECT_TRUE(
        static_cast<LAMMPS_NS::NeighListKokkos<LMPDeviceType> *>(
            lmp->neighbor
                ->lists[lammps_find_pair_neighlist(lmp.get(), "gran/hooke/history/kk", 1, 0, 0)])
            ->rows.packed)
        << host << ": the test is of packed rows";
    EXPECT_EQ(compute_scalar(lmp.get(), "sum"), expected) << host;
    expect_contacts_copy_matches_oracle(lmp.get(), host);
    // moved atoms and a run at the same timestep: the copy is made anew (stock
    // NeighborKokkos kept the one of the old positions: patch 0022)
    commands(lmp.get(), {"displace_atoms all random 0.3 0.3 0.3 7211 units box", "run 0 post no"});
    expect_contacts_copy_matches_oracle(lmp.get(), host + " after displace_atoms");
  }
}

// a granular-model wall (fix wall/gran granular ...) becomes fix wall/gran/kk under
// -sf kk, whose kernels compute hooke/history only: refused before the run with the
// style named (stock: no wall at all, patch 0023), while the host fix (suffix off) and
// the kk fix's own style run
TEST(HGridKokkos, WallGranStylesTheKernelsLackAreRefused)
{
  const SystemSpec s = kokkos_spec(powerlaw_system(200, 5.0, 0.2), "off");
  const std::string granular =
      "wall/gran granular hooke 1000.0 50.0 tangential linear_history 700.0 1.0 0.5 zplane 0 NULL";
  const std::string floor = "change_box all boundary p p f";
  const std::string msg = error_of(s, {floor, "fix w all " + granular});
  EXPECT_NE(msg.find("Fix wall/gran/kk supports the hooke/history style only, not granular"),
            std::string::npos)
      << msg;
  EXPECT_EQ(error_of(s, {floor, "suffix off", "fix w all " + granular, "suffix on"}), "");
  EXPECT_EQ(error_of(s,
                     {floor,
                      "fix w all wall/gran hooke/history 1000.0 NULL 50.0 NULL 0.5 0 "
                      "zplane 0 NULL"}),
            "");
}

// compute pair/local force calls the pair's single(), which gran/hooke/history/kk
// inherits from the CPU pair and which reads host list rows and host history the
// Kokkos pair does not keep: refused with the stock error (stock: a segfault, patch
// 0024); the distances, which need no single(), are computed
TEST(HGridKokkos, ContactForcesOfComputePairLocalAreRefused)
{
  const SystemSpec s = kokkos_spec(powerlaw_system(200, 5.0, 0.4), "off");
  const std::string msg = error_of(s,
                                   {"compute forces all pair/local force cutoff radius",
                                    "compute total all reduce sum c_forces inputs local",
                                    "thermo_style custom step c_total"});
  EXPECT_NE(msg.find("Pair style does not support compute pair/local"), std::string::npos) << msg;
  EXPECT_EQ(error_of(s,
                     {"compute dist all pair/local dist cutoff radius",
                      "compute total all reduce sum c_dist inputs local",
                      "thermo_style custom step c_total"}),
            "");
}

// fix hgrid/tune skin auto changes Neighbor's cutoffs on the host only: refused under
// Kokkos with its reason, while the layout tuning of the same fix runs
TEST(HGridKokkos, SkinAutoIsRefused)
{
  const SystemSpec s = kokkos_spec(powerlaw_system(200, 5.0, 0.2), "off");
  const std::string msg = error_of(s, {"fix tune all hgrid/tune 100 skin auto"});
  EXPECT_NE(msg.find("Fix hgrid/tune skin auto is not available with KOKKOS"), std::string::npos)
      << msg;
  EXPECT_EQ(error_of(s, {"fix tune all hgrid/tune 100"}), "");
}
