/* fix neigh/history finds an atom's old contacts by tag after each rebuild (core patch
   0010): by a linear scan of the atom's partners, as stock LAMMPS does, up to
   FixNeighHistory::lookup_linear_max partners, and through a hash table of the
   partners beyond it. Both must carry the same history: a dense polydisperse run with contacts
   that last and break, 1000 steps with the list rebuilt every step, gives bit for bit
   the same positions and per-contact history values whichever way every atom takes
   (newton on and off, serial and -sf omp on 2 threads, 1 and more MPI ranks). The
   harvest of the contacts before a rebuild (core patch 0015) gives the same partners
   and history with newton on and off, serially and on threads.
   Rows longer than neigh_modify one: hgrid grows one and page and the fix's pages
   follow (core patch 0014), the run equal to one with the room typed by hand. */

#include "hgrid_testing.h"

#include "atom.h"
#include "exceptions.h"
#include "fix_neigh_history.h"
#include "input.h"
#include "lammps.h"
#include "modify.h"
#include "neighbor.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <memory>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

using namespace hgrid_testing;
using LAMMPS_NS::FixNeighHistory;
using LAMMPS_NS::LAMMPS;

namespace {

// one contact's history as the fix holds it after a run: atom, partner, values
using Contact = std::tuple<long, long, std::vector<double>>;

struct RunResult {
  std::vector<double> x;            // positions by tag
  std::vector<Contact> contacts;    // this rank's partner lists, sorted
  int most_partners = 0;            // largest partner count of an atom (all ranks)
};

// the history fix of the granular pair style
FixNeighHistory *history_fix(LAMMPS *lmp)
{
  auto fixes = lmp->modify->get_fix_by_style("^NEIGH_HISTORY");
  EXPECT_EQ(fixes.size(), 1u);
  return fixes.empty() ? nullptr : dynamic_cast<FixNeighHistory *>(fixes.front());
}

// the largest partner count of an atom, all ranks (after a run: post_run() harvested)
int most_partners(LAMMPS *lmp)
{
  const FixNeighHistory *fix = history_fix(lmp);
  int mine = 0, most = 0;
  for (int i = 0; fix && i < lmp->atom->nlocal; i++) mine = std::max(mine, fix->get_npartner()[i]);
  MPI_Allreduce(&mine, &most, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return most;
}

// the dense granular gas's run (contacts last and break, the list rebuilt every step)
void run_gas(LAMMPS *lmp, int steps)
{
  commands(lmp,
           {"velocity all create 2.0 87287 loop geom", "fix integrate all nve/sphere",
            "timestep 0.002", "neigh_modify every 1 delay 0 check no", "atom_modify sort 50 0.0",
            "run " + std::to_string(steps) + " post no"});
}

// a dense granular gas run with every atom's partners searched linearly up to
// linear_max partners
RunResult run_dense(SystemSpec spec, int linear_max, int steps = 1000)
{
  const int saved = FixNeighHistory::lookup_linear_max;
  FixNeighHistory::lookup_linear_max = linear_max;
  auto lmp = make_system(spec);
  run_gas(lmp.get(), steps);
  FixNeighHistory::lookup_linear_max = saved;

  RunResult r;
  r.x = gather_by_tag(lmp.get(), lmp->atom->x);
  FixNeighHistory *fix = history_fix(lmp.get());
  if (!fix) return r;
  // post_run() harvested the last list's contacts into the per-atom partner lists
  const int nlocal = lmp->atom->nlocal;
  const int dnum = fix->get_dnum();
  for (int i = 0; i < nlocal; i++) {
    const int np = fix->get_npartner()[i];
    for (int m = 0; m < np; m++) {
      const double *v = &fix->get_valuepartner()[i][dnum * m];
      r.contacts.emplace_back(static_cast<long>(lmp->atom->tag[i]),
                              static_cast<long>(fix->get_partner()[i][m]),
                              std::vector<double>(v, v + dnum));
    }
  }
  std::sort(r.contacts.begin(), r.contacts.end());
  r.most_partners = most_partners(lmp.get());
  return r;
}

struct Case {
  std::string name;
  bool newton;
  int threads;
};

void PrintTo(const Case &c, std::ostream *os)
{
  *os << c.name;
}

class PartnerLookup : public ::testing::TestWithParam<Case> {};

TEST_P(PartnerLookup, CarriesTheHistoryOfTheLinearScan)
{
  const Case &c = GetParam();
  SystemSpec spec = powerlaw_system(900, 20.0, 0.5);
  spec.newton = c.newton;
  if (c.threads > 1) spec.lammps_args = {"-sf", "omp", "-pk", "omp", std::to_string(c.threads)};

  const RunResult stock = run_dense(spec, INT_MAX);    // the linear scan for every atom
  const RunResult hashed = run_dense(spec, 0);         // the hash table for every atom
  const RunResult mixed = run_dense(spec, FixNeighHistory::lookup_linear_max);

  // the large particles touch far more than the linear scan's limit, so both ways ran
  EXPECT_GT(stock.most_partners, 3 * FixNeighHistory::lookup_linear_max);
  long mine = static_cast<long>(stock.contacts.size()), contacts = 0;
  MPI_Allreduce(&mine, &contacts, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  ASSERT_GT(contacts, 1000);
  // bit for bit: the same partner found for every contact
  EXPECT_TRUE(hashed.x == stock.x)
      << "largest relative difference " << relative_difference(stock.x, hashed.x);
  EXPECT_TRUE(mixed.x == stock.x) << "largest relative difference "
                                  << relative_difference(stock.x, mixed.x);
  EXPECT_TRUE(hashed.contacts == stock.contacts);
  EXPECT_TRUE(mixed.contacts == stock.contacts);
}

INSTANTIATE_TEST_SUITE_P(History, PartnerLookup,
                         ::testing::Values(Case{"newton_on", true, 1}, Case{"newton_off", false, 1},
                                           Case{"newton_on_omp2", true, 2},
                                           Case{"newton_off_omp2", false, 2}),
                         [](const ::testing::TestParamInfo<Case> &info) {
                           return info.param.name;
                         });

// the history really is carried: with it dropped at every rebuild (every partner
// "not found") the run differs, so equal runs above mean equal partners found
TEST(PartnerLookupControl, DroppedHistoryChangesTheRun)
{
  SystemSpec spec = powerlaw_system(900, 12.0, 0.45);
  spec.newton = false;
  const RunResult kept = run_dense(spec, 0);
  spec.pair = "gran/hooke 1000.0 NULL 50.0 NULL 0.5 0";    // the same forces, no history
  auto lmp = make_system(spec);
  run_gas(lmp.get(), 1000);
  const auto x = gather_by_tag(lmp.get(), lmp->atom->x);
  EXPECT_GT(relative_difference(kept.x, x), 1e-6);
}

// the harvest (pre_exchange: newton off reads the list's contacts per rank, newton on
// adds the ghosts' partners by reverse communication; serial, or -sf omp threads each a
// block of rows and of atoms, core patch 0015) gives every owned atom the same partners
// and history values whichever way: the same contacts after 100 steps with the list
// rebuilt every step, values and positions equal to round-off (the force sums differ)
TEST(Harvest, SameHistoryWithNewtonOnAndOffAndThreads)
{
  std::vector<RunResult> runs;
  for (const Case &c : {Case{"newton_on", true, 1}, Case{"newton_off", false, 1},
                        Case{"newton_on_omp2", true, 2}, Case{"newton_off_omp2", false, 2}}) {
    SystemSpec spec = powerlaw_system(900, 20.0, 0.5);
    spec.newton = c.newton;
    if (c.threads > 1) spec.lammps_args = {"-sf", "omp", "-pk", "omp", std::to_string(c.threads)};
    runs.push_back(run_dense(spec, FixNeighHistory::lookup_linear_max, 100));
  }
  const RunResult &ref = runs.front();
  ASSERT_GT(ref.contacts.size(), 100u);
  double largest = 0.0;
  for (const Contact &c : ref.contacts)
    for (double v : std::get<2>(c)) largest = std::max(largest, std::fabs(v));
  ASSERT_GT(largest, 0.0);    // the contacts carry history
  for (std::size_t k = 1; k < runs.size(); k++) {
    const RunResult &run = runs[k];
    EXPECT_LT(relative_difference(ref.x, run.x), 1e-9) << "run " << k;
    ASSERT_EQ(run.contacts.size(), ref.contacts.size()) << "run " << k;
    for (std::size_t m = 0; m < ref.contacts.size(); m++) {
      const Contact &a = ref.contacts[m], &b = run.contacts[m];
      ASSERT_EQ(std::get<0>(a), std::get<0>(b)) << "run " << k << ", contact " << m;
      ASSERT_EQ(std::get<1>(a), std::get<1>(b)) << "run " << k << ", contact " << m;
      for (std::size_t d = 0; d < std::get<2>(a).size(); d++)
        EXPECT_NEAR(std::get<2>(a)[d], std::get<2>(b)[d], 1e-9 * largest)
            << "run " << k << ", contact " << m;
    }
  }
}

}    // namespace

namespace {

// unit spheres on a lattice and two intruders of diameter 20, each overlapping about
// 4800 of them (rows longer than neigh_modify one's default 2000), moving with
// contact history; the positions by tag after 20 steps, or the error; \p most: the
// largest partner count of an atom after the run
std::vector<double> run_intruders(const std::vector<std::string> &args,
                                  const std::string &neigh_modify, std::string &error, int &oneatom,
                                  const std::string &newton = "off", int *most = nullptr)
{
  std::unique_ptr<LAMMPS> lmp(make_lammps(MPI_COMM_WORLD, args));
  try {
    commands(lmp.get(), intruders_input(neigh_modify, newton));
    commands(lmp.get(), {"run 20 post no"});
  } catch (LAMMPS_NS::LAMMPSException &e) {
    error = e.what();
    return {};
  }
  oneatom = lmp->neighbor->oneatom;
  if (most) *most = most_partners(lmp.get());
  return gather_by_tag(lmp.get(), lmp->atom->x);
}

}    // namespace

// rows longer than neigh_modify one under hgrid, which grows one and page, builds
// again and logs it (and fix neigh/history's pages follow, core patch 0014): the run
// is the one with one typed by hand, bit for bit, serial and -sf omp; one or page set
// by hand keep the stock overflow error
TEST(RowRoom, GrowsWithTheRowsUnlessSetByHand)
{
  for (const auto &args :
       std::vector<std::vector<std::string>>{{}, {"-sf", "omp", "-pk", "omp", "2"}}) {
    const std::string what = args.empty() ? "serial" : "omp 2 threads";
    std::string error;
    int grown = 0, typed = 0;
    const auto x = run_intruders(args, "", error, grown);
    EXPECT_EQ(error, "") << what;
    EXPECT_GT(grown, 2000) << what << ": neigh_modify one did not grow";
    const auto by_hand = run_intruders(args, "one 20000 page 200000", error, typed);
    EXPECT_EQ(error, "") << what;
    EXPECT_EQ(typed, 20000);
    ASSERT_FALSE(x.empty());
    EXPECT_EQ(x, by_hand) << what;

    run_intruders(args, "one 1000 page 100000", error, typed);
    EXPECT_NE(error.find("Neighbor list overflow, boost neigh_modify one"), std::string::npos)
        << what << ": " << error;
  }
}

// an atom with more partners than neigh_modify one where no list row is that long (core
// patch 0018): each intruder's ~4600 contacts, with newton on, sit in the small spheres'
// rows, and on two ranks the rank holding an intruder as a ghost counts its share of
// them (stock stopped there with "Neighbor history overflow, boost neigh_modify one");
// the run equals the one with the room typed by hand, bit for bit, newton on and off
TEST(RowRoom, PartnersBeyondOneOnEveryRank)
{
  for (const std::string newton : {"on", "off"}) {
    const std::string what = "newton " + newton;
    std::string error;
    int oneatom = 0, most = 0, most_typed = 0;
    const auto grown = run_intruders({}, "", error, oneatom, newton, &most);
    EXPECT_EQ(error, "") << what;
    const auto typed =
        run_intruders({}, "one 20000 page 200000", error, oneatom, newton, &most_typed);
    EXPECT_EQ(error, "") << what;
    EXPECT_GT(most, 4000) << what << ": the intruders' contacts";
    EXPECT_EQ(most, most_typed) << what;
    ASSERT_FALSE(grown.empty());
    EXPECT_EQ(grown, typed) << what;
  }
}

// the same intruders continued from a restart file by a second lmp process, as a user
// restarts (neigh_modify one is 2000 there, below the partners it reads: stock wrote
// them through a null chunk, core patch 0018), and written after a run in which hgrid
// grew one (the write_restart command's init() made the lists anew and the contact
// history was harvested again from the empty pair list: the file and the next run held
// none, core patch 0019): the run that wrote the file and its continuation equal a run
// without write_restart (the continuation bit for bit with newton on)
TEST(RowRoom, ContactHistoryOfGrownRowsSurvivesARestart)
{
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me != 0) return;
  for (const std::string newton : {"on", "off"}) {
    std::string setup;
    for (const auto &line : intruders_input("", newton)) setup += line + "\n";
    auto dump_as = [](const std::string &name) {
      return "write_dump all custom hgrid_partners_" + name +
          ".dump id x y z vx vy vz omegax omegay omegaz modify sort id format float %.17g\n";
    };
    const std::string a =
        run_lmp(HGRID_LMP, "hgrid_partners_a",
                setup + "run 10\nwrite_restart hgrid_partners.restart\nrun 10\n" + dump_as("a"));
    const std::string c =
        run_lmp(HGRID_LMP, "hgrid_partners_c", setup + "run 10\nrun 10\n" + dump_as("c"));
    const std::string b = run_lmp(HGRID_LMP, "hgrid_partners_b",
                                  "read_restart hgrid_partners.restart\nneighbor 0.2 hgrid\n"
                                  "neigh_modify every 1 delay 0 check no\n"
                                  "fix integrate all nve/sphere\ntimestep 0.001\nrun 10\n" +
                                      dump_as("b"));
    EXPECT_NE(a.find("outgrew neigh_modify one"), std::string::npos)
        << "newton " << newton << ": one did not grow";
    EXPECT_EQ(b.find("ERROR"), std::string::npos) << "newton " << newton << ": " << b;
    const auto xa = read_dump("hgrid_partners_a.dump"), xb = read_dump("hgrid_partners_b.dump"),
               xc = read_dump("hgrid_partners_c.dump");
    ASSERT_GT(xc.size(), 10000u);
    // the run that wrote the file, and its continuation, against the run that did not
    EXPECT_EQ(xa, xc) << "newton " << newton << ": write_restart changed the run";
    ASSERT_EQ(xb.size(), xc.size());
    double apart = 0.0;
    for (std::size_t k = 0; k < xc.size(); k++) apart = std::max(apart, std::fabs(xb[k] - xc[k]));
    // newton off: a restarted run's ghosts come in another order, so that forces sum in
    // another order (1e-12 here); a lost contact history moves atoms by 1e-3 and more
    EXPECT_LE(apart, newton == "on" ? 0.0 : 1e-9) << "newton " << newton;
  }
  for (const char *run : {"a", "b", "c"})
    for (const char *ext : {".in", ".log", ".dump"})
      std::remove((std::string("hgrid_partners_") + run + ext).c_str());
  std::remove("hgrid_partners.restart");
}
