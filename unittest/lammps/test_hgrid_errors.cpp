/* Input errors and fallbacks of "neighbor SKIN hgrid": bad layout keywords give a
   LAMMPS error naming the keyword or value; requests hgrid does not serve fall back
   to the standard bin classes; list overflow asks for neigh_modify one. */

#include "hgrid_testing.h"

#include "atom.h"
#include "comm.h"
#include "input.h"
#include "lammps.h"
#include "library.h"
#include "neighbor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <regex>

using namespace hgrid_testing;
using LAMMPS_NS::LAMMPS;

namespace {

// a small polydisperse system (radii 1..5, skin 0.1) with the given neighbor arguments
SystemSpec small_system(const std::string &neighbor = "hgrid")
{
  SystemSpec spec;
  spec.natoms = 200;
  spec.omega = 5.0;
  spec.neighbor = neighbor;
  return spec;
}

// its error message, or "" if the run succeeded
std::string error_of(const std::string &neighbor)
{
  return hgrid_testing::error_of(small_system(neighbor));
}

#define EXPECT_ERROR(message, pattern)                                            \
  do {                                                                            \
    const std::string msg_ = (message);                                           \
    EXPECT_TRUE(std::regex_search(msg_, std::regex(pattern)))                     \
        << "error message '" << msg_ << "' does not match '" << (pattern) << "'"; \
  } while (0)

}    // namespace

TEST(HGridErrors, ValidLayoutsRun)
{
  EXPECT_EQ(error_of("hgrid"), "");
  EXPECT_EQ(error_of("hgrid levels 2 3.0 10.1"), "");
  EXPECT_EQ(error_of("hgrid search topdown levels 1 12"), "");
  EXPECT_EQ(error_of("hgrid calibrate no"), "");
  EXPECT_EQ(error_of("hgrid calibrate off"), "");    // any LAMMPS boolean
}

TEST(HGridErrors, BadLayoutKeywords)
{
  EXPECT_ERROR(error_of("hgrid levels 0"), "levels must be at least 1, got 0");
  EXPECT_ERROR(error_of("hgrid levels 3 2.0 5.0"), "levels 3 needs 3 cell sizes, found 2");
  EXPECT_ERROR(error_of("hgrid levels 2 5.0 3.0"), "cell sizes must increase strictly: level 2");
  EXPECT_ERROR(error_of("hgrid levels 2 5.0 5.0"), "cell sizes must increase strictly");
  EXPECT_ERROR(error_of("hgrid levels 2 -1.0 11.0"), "level 1 .* must be positive");
  EXPECT_ERROR(error_of("hgrid levels 2 2.0 5.0"),
               "top level cell size 5.* smaller than the largest "
               "cutoff diameter");
  EXPECT_ERROR(error_of("hgrid levels"), "Missing value for neighbor hgrid keyword levels");
  EXPECT_ERROR(error_of("hgrid levels two 1 2"), "Expected integer parameter instead of 'two'");
  EXPECT_ERROR(error_of("hgrid search sideways"),
               "Unknown neighbor hgrid search direction: sideways");
  EXPECT_ERROR(error_of("hgrid bogus 1"), "Unknown neighbor hgrid keyword: bogus");
  EXPECT_ERROR(error_of("hgrid calibrate maybe"),
               "Expected boolean parameter instead of 'maybe' in input script or data file");
  EXPECT_ERROR(error_of("hgrid calibrate"), "Missing value for neighbor hgrid keyword calibrate");
  EXPECT_ERROR(error_of("hgrid levels 1 30.0 subcells 0"),
               "Neighbor hgrid subcells must be 1 to 4, got 0");
  EXPECT_ERROR(error_of("hgrid levels 1 30.0 subcells"),
               "Missing value for neighbor hgrid keyword subcells");
  EXPECT_ERROR(error_of("hgrid subcells 1"), "subcells needs one explicit level \\(levels 1 s\\)");
  EXPECT_ERROR(error_of("hgrid levels 2 10.0 30.0 subcells 1"),
               "subcells needs one explicit level \\(levels 1 s\\)");
}

TEST(HGridErrors, ListOverflowAsksForNeighModifyOne)
{
  // create_system sets a large "one", so the small value is set after setup
  EXPECT_ERROR(hgrid_testing::error_of(small_system(), {"neigh_modify one 1 page 100000"}),
               "Neighbor list overflow, boost neigh_modify one");
}

TEST(HGridErrors, NonSizeListsFallBackToBin)
{
  // a Lennard-Jones pair style asks for a plain cutoff list: hgrid leaves it to bin
  std::unique_ptr<LAMMPS> lmp(make_lammps());
  auto cmd = [&](const std::string &line) {
    lmp->input->one(line);
  };
  cmd("atom_style atomic");
  cmd("region box block 0 10 0 10 0 10");
  cmd("create_box 1 box");
  cmd("create_atoms 1 random 200 12345 NULL");
  cmd("mass 1 1.0");
  cmd("pair_style lj/cut 2.5");
  cmd("pair_coeff * * 1.0 1.0");
  cmd("neighbor 0.3 hgrid");
  ASSERT_NO_THROW(cmd("run 0 post no"));
  const int idx = lammps_find_pair_neighlist(lmp.get(), "lj/cut", 1, 0, 0);
  ASSERT_GE(idx, 0);
  EXPECT_FALSE(built_by_hgrid(lmp.get(), idx));

  // and the bin list it gets is complete: every pair within 2.5 + 0.3 (periodic box
  // of 10, minimum image), counted by brute force
  const long nhgrid = lmp->neighbor->get_nneigh_half();
  long brute = 0;
  double **x = lmp->atom->x;
  const int n = lmp->atom->nlocal;
  ASSERT_EQ(n, 200) << "one rank";
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double rsq = 0.0;
      for (int d = 0; d < 3; d++) {
        double del = x[i][d] - x[j][d];
        del -= 10.0 * std::round(del / 10.0);
        rsq += del * del;
      }
      brute += rsq <= 2.8 * 2.8;
    }
  EXPECT_GT(brute, 0);
  EXPECT_EQ(nhgrid, brute);
}

TEST(HGridErrors, MixedRequestsServeSizeListsWithHGrid)
{
  // a granular pair plus an occasional non-size list (compute rdf): both work
  SystemSpec spec;
  spec.natoms = 300;
  spec.omega = 4.0;
  auto lmp = make_system(spec);
  ASSERT_NO_THROW(lmp->input->one("compute rdf all rdf 20"));
  ASSERT_NO_THROW(lmp->input->one("fix rdf all ave/time 1 1 1 c_rdf[*] mode vector"));
  ASSERT_NO_THROW(lmp->input->one("run 1 post no"));
  const int idx = lammps_find_pair_neighlist(lmp.get(), "gran/hooke/history", 1, 0, 0);
  ASSERT_GE(idx, 0);
  EXPECT_TRUE(built_by_hgrid(lmp.get(), idx));
  // the hgrid list stays exact beside the bin-built occasional list, with one ghost cutoff
  expect_lists_match_oracle(lmp.get(), spec.newton, "beside compute rdf");
  EXPECT_EQ(lmp->comm->mode, LAMMPS_NS::Comm::SINGLE);
}

// an input written for neighbor multi runs under hgrid by changing the style word:
// collection keywords and reduce/multi are ignored (a log line says so), the list is exact
TEST(HGridErrors, MultiInputsRunByOneWord)
{
  SystemSpec spec = small_system();
  spec.comm_mode = "multi";
  EXPECT_EQ(hgrid_testing::error_of(spec), "");    // comm multi alone runs
  spec.neigh_modify = "collection/interval 3 1.5 3 30";
  auto lmp = make_system(spec);
  commands(lmp.get(),
           {"comm_modify mode multi vel yes reduce/multi", "neigh_modify collection/type 1 *",
            "run 0 post no"});
  EXPECT_TRUE(pair_list_by_hgrid(lmp.get()));
  expect_lists_match_oracle(lmp.get(), spec.newton, "multi input under hgrid");
  spec.neigh_modify = "collection/interval 3 1.5 3";
  EXPECT_ERROR(hgrid_testing::error_of(spec),
               "Invalid neigh_modify collection/interval keyword: expected N and N values");
  spec.neigh_modify = "";
  // hgrid's default size-class ghost cutoffs (mode multi chosen by hgrid, reset to single
  // while comm_modify is parsed), not a user's mode multi
  spec.comm_mode = "";
  EXPECT_ERROR(hgrid_testing::error_of(spec, {"comm_modify reduce/multi"}),
               "Use reduce/multi in mode multi only");
  EXPECT_EQ(hgrid_testing::error_of(spec, {"fix tune all hgrid/tune 10"}), "");
}
