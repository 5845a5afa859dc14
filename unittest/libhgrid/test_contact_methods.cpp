/* The contact-detection methods of libhgrid/methods (hgrid, linked cell, sorted
   distance, MR, MMR) against all pairs on small randomized polydisperse systems:
   2d and 3d, power laws with omega 1, 10 and 100, bidisperse, uniform and sieve
   radii, low and high volume fractions, random and settled packings, with and without
   a skin.  Each must find exactly the all-pairs contact set, each pair once as
   (i, j) with i < j, and report sensible counters. */

#include "libhgrid/methods/contact_method.h"
#include "libhgrid/methods/system.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace hgrid::methods;

namespace {

SystemSpec spec(int dim, SizeDistribution dist, double alpha, double omega, double nu,
                Packing packing, int n, unsigned seed)
{
  return system_spec(dim, dist, alpha, omega, nu, n, packing, seed);
}

std::string describe(const SystemSpec &s)
{
  return std::to_string(s.dimension) + "d " + distribution_name(s.distribution) + " alpha " +
      std::to_string(s.alpha) + " omega " + std::to_string(s.omega) + " nu " +
      std::to_string(s.nu) + " " + packing_name(s.packing) + " seed " + std::to_string(s.seed);
}

std::vector<Contact> contacts(const std::string &name, const System &s,
                              const MethodSettings &settings,
                              std::vector<Counter> *counters = nullptr)
{
  auto method = make_method(name, settings);
  method->prepare(s);
  std::vector<Contact> out;
  for (int rep = 0; rep < 2; ++rep) {    // a second build must not keep state of the first
    out.clear();
    method->build(s);
    method->search(s, out);
  }
  EXPECT_TRUE(normalize(out)) << name << " reports a pair twice or unordered";
  EXPECT_GT(method->memory_bytes(), name == "all_pairs" ? -1.0 : 0.0) << name;
  if (counters) *counters = method->counters();
  return out;
}

double counter(const std::vector<Counter> &counters, const std::string &name)
{
  for (const Counter &c : counters)
    if (c.name == name) return c.value;
  ADD_FAILURE() << "no counter " << name;
  return 0.0;
}

std::vector<SystemSpec> test_systems()
{
  const auto P = SizeDistribution::PowerLaw;
  const auto R = Packing::Random, S = Packing::Settled;
  std::vector<SystemSpec> systems;
  unsigned seed = 11;
  for (int dim : {2, 3}) {
    const int n = dim == 3 ? 1500 : 1000;
    for (double omega : {1.0, 10.0, 100.0}) {
      systems.push_back(spec(dim, P, -3.0, omega, 0.3, R, n, ++seed));
      systems.push_back(spec(dim, P, -2.0, omega, 0.6, S, n, ++seed));
    }
    systems.push_back(spec(dim, P, 0.0, 10.0, 0.1, R, n, ++seed));
    systems.push_back(spec(dim, SizeDistribution::Bidisperse, 0.0, 10.0, 0.5, R, n, ++seed));
    systems.push_back(spec(dim, SizeDistribution::Bidisperse, 0.0, 4.0, 0.3, S, n, ++seed));
    systems.push_back(spec(dim, SizeDistribution::Uniform, 0.0, 3.0, 0.6, R, n, ++seed));
    systems.push_back(spec(dim, SizeDistribution::Sieve, 0.0, 32.0, 0.5, S, n, ++seed));
  }
  return systems;
}

}    // namespace

TEST(ContactMethods, EveryMethodEqualsAllPairs)
{
  for (double skin : {0.0, 0.25}) {
    MethodSettings settings;
    settings.skin = skin;
    for (const SystemSpec &sp : test_systems()) {
      const System s = generate(sp);
      const std::vector<Contact> reference = contacts("all_pairs", s, settings);
      // every system has contacts, and not all pairs touch
      EXPECT_GT(reference.size(), static_cast<std::size_t>(s.size() / 20)) << describe(sp);
      EXPECT_LT(reference.size(), static_cast<std::size_t>(s.size()) * 20) << describe(sp);
      for (const std::string &name : method_names()) {
        if (name == "all_pairs") continue;
        std::vector<Counter> counters;
        const std::vector<Contact> found = contacts(name, s, settings, &counters);
        const Difference d = compare(found, reference);
        EXPECT_TRUE(d.empty()) << name << " on " << describe(sp) << " skin " << skin << ": "
                               << d.missing.size() << " missing, " << d.extra.size() << " extra";
        // each contact was distance-checked, no pair twice (a small box of omega 10 may
        // be one cell of linked_cell and mr: then they check every pair)
        const double checks = counter(counters, "distance_checks");
        EXPECT_GE(checks, static_cast<double>(reference.size())) << name << " " << describe(sp);
        EXPECT_LE(checks, 0.5 * s.size() * (s.size() - 1.0)) << name << " " << describe(sp);
        if (name == "hgrid" || name == "mmr") {
          EXPECT_LT(checks, 0.1 * s.size() * (s.size() - 1.0)) << name << " " << describe(sp);
        }
      }
    }
  }
}

TEST(ContactMethods, MmrRatiosAndGroups)
{
  // MMR with other size ratios of eq. (30) still equals all pairs; with alpha = 2 and
  // omega = 100 it needs at least log2(100) groups, one for omega = 1 (then it is MR)
  const System s =
      generate(spec(3, SizeDistribution::PowerLaw, -3.0, 100.0, 0.3, Packing::Random, 2000, 3));
  const std::vector<Contact> reference = contacts("all_pairs", s, MethodSettings());
  for (double ratio : {1.5, 2.0, 4.0}) {
    MethodSettings settings;
    settings.mmr_ratio = ratio;
    std::vector<Counter> counters;
    EXPECT_TRUE(compare(contacts("mmr", s, settings, &counters), reference).empty()) << ratio;
    const double omega = s.r_max() / s.r_min();
    EXPECT_GE(counter(counters, "groups"), std::floor(std::log(omega) / std::log(ratio)));
  }
  const System mono =
      generate(spec(3, SizeDistribution::PowerLaw, -3.0, 1.0, 0.3, Packing::Random, 2000, 4));
  std::vector<Counter> mmr, mr;
  const auto a = contacts("mmr", mono, MethodSettings(), &mmr);
  const auto b = contacts("mr", mono, MethodSettings(), &mr);
  EXPECT_EQ(a, b);
  EXPECT_EQ(counter(mmr, "groups"), 1.0);
  EXPECT_EQ(counter(mmr, "distance_checks"), counter(mr, "distance_checks"));
}

TEST(ContactMethods, CountersFollowThePapers)
{
  // omega = 100: MR's single cell size (the largest diameter) costs far more checks
  // than MMR's groups and hgrid's levels (M&R Sect. 7, Krijgsman et al. Sect. 5)
  const System s =
      generate(spec(3, SizeDistribution::PowerLaw, -3.0, 100.0, 0.3, Packing::Random, 3000, 5));
  std::vector<Counter> mr, mmr, hg, lc;
  (void) contacts("mr", s, MethodSettings(), &mr);
  (void) contacts("mmr", s, MethodSettings(), &mmr);
  (void) contacts("hgrid", s, MethodSettings(), &hg);
  (void) contacts("linked_cell", s, MethodSettings(), &lc);
  EXPECT_GT(counter(mr, "distance_checks"), 5.0 * counter(mmr, "distance_checks"));
  EXPECT_GT(counter(lc, "distance_checks"), 5.0 * counter(hg, "distance_checks"));
  EXPECT_GT(counter(hg, "levels"), 1.0);
  EXPECT_GT(counter(mmr, "steps"), 1.0);
  // MR's list pointers move forward only: at most (rows + 1) passes over the list
  EXPECT_LE(counter(mr, "list_steps"), 6.0 * s.size());
}

TEST(ContactMethods, AWrongCriterionDiffers)
{
  // the comparison is sharp: a slightly larger contact distance finds other pairs
  const System s =
      generate(spec(3, SizeDistribution::PowerLaw, -3.0, 10.0, 0.5, Packing::Random, 2000, 6));
  MethodSettings wider;
  wider.skin = 0.05;
  const auto exact = contacts("all_pairs", s, MethodSettings());
  for (const char *name : {"hgrid", "mr", "sorted_distance"}) {
    const Difference d = compare(contacts(name, s, wider), exact);
    EXPECT_TRUE(d.missing.empty()) << name;
    EXPECT_FALSE(d.extra.empty()) << name;
  }
}

TEST(ContactMethods, SystemsAreDeterministicAndAsSpecified)
{
  const SystemSpec sp =
      spec(3, SizeDistribution::PowerLaw, -3.0, 10.0, 0.4, Packing::Settled, 5000, 9);
  const System a = generate(sp), b = generate(sp);
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.r, b.r);
  EXPECT_NEAR(a.fill_nu, 0.4, 1e-12);
  EXPECT_NEAR(a.box_packing(), 0.2, 1e-12);    // settled: a box twice as tall
  EXPECT_GE(a.r_min(), 1.0);
  EXPECT_LE(a.r_max(), 10.0);
  // density 2 (1 - z/L) / L on [0, L), L = half the box: 3/4 of the particles below L/2
  int lower = 0;
  for (const auto &x : a.x) {
    EXPECT_GE(x[2], a.box.lo[2]);
    EXPECT_LT(x[2], a.box.hi[2]);
    if (x[2] < 0.25 * a.box.hi[2]) ++lower;
  }
  EXPECT_NEAR(lower / 5000.0, 0.75, 0.03);
  EXPECT_THROW(generate(spec(4, SizeDistribution::PowerLaw, 0, 1, 0.3, Packing::Random, 10, 1)),
               std::invalid_argument);
  EXPECT_THROW((void) make_method("quadtree", MethodSettings()), std::invalid_argument);
  MethodSettings bad;
  bad.mmr_ratio = 1.0;
  EXPECT_THROW((void) make_method("mmr", bad), std::invalid_argument);
}
