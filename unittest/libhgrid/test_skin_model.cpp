/* The skin model of fix hgrid/tune "skin auto" (libhgrid/skin_model.h): its parts
   against hand-computed values, the safe floor, and convergence of
   repeated advice on a synthetic run whose true costs differ from the model's forms
   (a pair-gap density that grows with the gap, a build with a fixed part, pair time
   mostly per contact). */

#include "libhgrid/skin_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

using namespace hgrid;

namespace {

// A synthetic run in 3d: pairs per unit gap grow as the shell area (R + x)^2,
// atoms move at most v per step, a build costs a fixed part plus a search volume
// part, a pair of the list costs p.
struct SyntheticRun {
  double contacts = 2.0e4, density = 4.0e5, R = 1.0;    // pairs per unit gap at x = 0
  double v = 0.002, p = 2.0e-8, p_contact = 0.0, other = 1.0e-3;
  double build_fixed = 2.0e-3, build_volume = 6.0e-3, c = 1.0;
  int every = 1;

  double pairs(double s) const    // N_c + int_0^s density (1 + x/R)^2 dx
  {
    return contacts + density * R / 3.0 * (std::pow(1.0 + s / R, 3) - 1.0);
  }
  double interval(double s) const { return std::max<double>(every, s / (2.0 * v)); }
  double build(double s) const { return build_fixed + build_volume * std::pow(c + s, 3); }
  double pair_time(double s) const { return p * pairs(s) + p_contact * contacts; }
  double step(double s) const { return pair_time(s) + build(s) / interval(s) + other; }

  SkinSample sample(double s, int nbins = 16) const
  {
    SkinSample m;
    m.skin = s;
    m.steps_per_build = interval(s);
    m.min_interval = every;
    m.max_speed = v;
    m.build_seconds = build(s);
    m.pair_seconds = pair_time(s);
    m.other_seconds = other;
    m.search_diameter = c;
    m.pair_distance = R;
    m.overlapping_pairs = contacts;
    for (int b = 0; b < nbins; ++b)
      m.gap_counts.push_back(pairs(s * (b + 1) / nbins) - pairs(s * b / nbins));
    return m;
  }
  double best_skin(double lo, double hi) const    // by a fine scan of the true step time
  {
    double best = lo;
    for (int k = 0; k <= 100000; ++k) {
      const double s = lo + (hi - lo) * k / 100000;
      if (step(s) < step(best)) best = s;
    }
    return best;
  }
};

SkinPolicy policy(double upper)
{
  SkinPolicy p;
  p.upper = upper;
  return p;
}

}    // namespace

TEST(SkinModel, PartsFollowTheMeasuredSample)
{
  SkinSample m;
  m.dimension = 2;
  m.skin = 0.4;
  m.steps_per_build = 20.0;
  m.min_interval = 5;
  m.build_seconds = 0.01;
  m.pair_seconds = 0.003;
  m.search_diameter = 0.6;
  m.pair_distance = 0.7;
  m.overlapping_pairs = 100.0;
  m.gap_counts = {10.0, 20.0, 30.0, 40.0};    // bins of width 0.1
  const SkinModel model(m);
  EXPECT_DOUBLE_EQ(model.pairs(0.0), 100.0);
  EXPECT_DOUBLE_EQ(model.pairs(0.15), 100.0 + 10.0 + 10.0);    // half of the second bin
  EXPECT_DOUBLE_EQ(model.pairs(0.4), 200.0);
  // beyond s0: the mean density of the upper half, 70 pairs per 0.2 at gap 0.3, growing
  // as the shell area (a + x)^(d-1) of pairs at distance a = 0.7
  EXPECT_DOUBLE_EQ(model.pairs(0.6), 200.0 + 350.0 * (1.3 * 1.3 - 1.1 * 1.1) / 2.0 / 1.0);
  EXPECT_DOUBLE_EQ(model.interval(0.2), 10.0);
  EXPECT_DOUBLE_EQ(model.interval(0.05), 5.0);               // never below max(every, delay)
  EXPECT_DOUBLE_EQ(model.build_seconds(1.4), 0.01 * 4.0);    // ((0.6 + 1.4)/(0.6 + 0.4))^2
  EXPECT_DOUBLE_EQ(model.step_seconds(0.4), 0.003 + 0.01 / 20.0);
  // diffusive atoms: twice the skin lasts four times as long
  m.displacement_exponent = 0.5;
  EXPECT_DOUBLE_EQ(SkinModel(m).interval(0.8), 80.0);
  m.displacement_exponent = 1.0;
  // with shares: a third of the pair time and half of the build follow the skin
  m.pair_list_share = 1.0 / 3.0;
  m.build_volume_share = 0.5;
  const SkinModel shares(m);
  EXPECT_DOUBLE_EQ(shares.build_seconds(1.4), 0.01 * (0.5 + 0.5 * 4.0));
  EXPECT_NEAR(shares.step_seconds(0.6) - shares.step_seconds(0.4),
              0.003 / 3.0 * (shares.pairs(0.6) / 200.0 - 1.0) +
                  (shares.build_seconds(0.6) / 30.0 - 0.01 / 20.0),
              1e-15);
}

TEST(SkinModel, RejectsSamplesItCannotUse)
{
  SkinSample m;
  m.skin = 0.1;
  EXPECT_THROW(SkinModel{m}, std::invalid_argument);    // no gap bins
  m.gap_counts = {1.0};
  m.skin = 0.0;
  EXPECT_THROW(SkinModel{m}, std::invalid_argument);
  m.skin = 0.1;
  m.steps_per_build = 0.0;
  EXPECT_THROW(SkinModel{m}, std::invalid_argument);
  m.steps_per_build = 1.0;
  m.displacement_exponent = 0.3;
  EXPECT_THROW(SkinModel{m}, std::invalid_argument);
  m.displacement_exponent = 1.0;
  EXPECT_NO_THROW(SkinModel{m});
  EXPECT_THROW((void) advise_skin(m, SkinPolicy{}), std::invalid_argument);    // no upper bound
}

TEST(SkinModel, ContactBoundPairTimeMovesTheOptimumUp)
{
  // the same run with most pair time per contact and a build partly independent of
  // the skin: with the shares measured at each skin (as fix hgrid/tune does),
  // repeated advice reaches the larger optimum
  SyntheticRun run;
  run.p = 2.0e-9;
  run.p_contact = 2.0e-7;
  const double best = run.best_skin(1.0e-3, 1.0);
  double s = 0.05;
  for (int k = 0; k < 40; ++k) {
    SkinSample m = run.sample(s);
    m.pair_list_share = run.p * run.pairs(s) / run.pair_time(s);
    m.build_volume_share = 1.0 - run.build_fixed / run.build(s);
    s = advise_skin(m, policy(1.0)).next;
  }
  EXPECT_NEAR(s, best, 0.1 * best);
  SyntheticRun listbound;
  EXPECT_GT(best, 1.5 * listbound.best_skin(1.0e-3, 1.0));
}

TEST(SkinModel, SkinBelowTheSafeFloorIsRaisedAtOnce)
{
  SyntheticRun run;
  run.every = 10;
  SkinSample m = run.sample(0.01);
  m.max_speed = 0.005;    // 2 f v n_min = 2 * 2 * 0.005 * 10 = 0.2
  const SkinAdvice a = advise_skin(m, policy(1.0));
  EXPECT_DOUBLE_EQ(a.floor, 0.2);
  EXPECT_DOUBLE_EQ(a.next, 0.2);    // 20x the skin in one move: exactness first
  EXPECT_GE(a.optimum, a.floor);
}

TEST(SkinModel, NoMoveForAGainBelowTheThreshold)
{
  SyntheticRun run;
  const double best = run.best_skin(1.0e-3, 1.0);
  const SkinAdvice a = advise_skin(run.sample(best), policy(1.0));
  EXPECT_LT(a.gain(), kSkinMinGain);
  EXPECT_DOUBLE_EQ(a.next, best);
}

TEST(SkinModel, RepeatedAdviceConvergesOnASyntheticRun)
{
  SyntheticRun run;
  const double upper = 1.0;
  const double best = run.best_skin(1.0e-3, upper);
  ASSERT_GT(best, 0.02);    // an interior optimum, not a bound
  ASSERT_LT(best, 0.5);
  for (double start : {0.005, 0.9}) {    // from far below and far above
    double s = start;
    for (int k = 0; k < 40; ++k) {
      const SkinAdvice a = advise_skin(run.sample(s), policy(upper));
      EXPECT_GE(a.next, a.floor);
      if (s >= a.floor) {    // bounded moves once safe
        EXPECT_LE(a.next, s * (1.0 + kSkinMaxStep) * (1.0 + 1e-12));
        EXPECT_GE(a.next, s / (1.0 + kSkinMaxStep) * (1.0 - 1e-12));
      }
      s = a.next;
    }
    // within 10 % of the true optimum, and its step time within 1 % of the best
    EXPECT_NEAR(s, best, 0.1 * best) << "from " << start;
    EXPECT_LT(run.step(s), 1.01 * run.step(best)) << "from " << start;
  }
}

TEST(SkinModel, RebuildsForcedMoreOftenThanDisplacementsNeedShrinkTheSkin)
{
  // fix pour-like rebuilds every 10 steps, whatever the skin: a larger skin only costs
  SyntheticRun run;
  SkinSample m = run.sample(0.2);
  m.forced_rate = 0.1;
  const SkinModel model(m);
  EXPECT_DOUBLE_EQ(model.step_seconds(0.2) - model.step_seconds(0.1),
                   run.p * (run.pairs(0.2) - run.pairs(0.1)) +
                       0.1 * (model.build_seconds(0.2) - model.build_seconds(0.1)));
  const SkinAdvice a = advise_skin(m, policy(1.0));
  EXPECT_LT(a.optimum, 0.2);
  EXPECT_LT(a.next, 0.2);
}

TEST(SkinModel, RebuildsAtTheMinimumIntervalPushTheSkinUp)
{
  // every build comes at the first step allowed: the floor is above the skin
  SyntheticRun run;
  run.every = 5;
  SkinSample m = run.sample(0.01);
  m.steps_per_build = 5.0;
  const SkinAdvice a = advise_skin(m, policy(1.0));
  EXPECT_GT(a.next, 0.01);
  EXPECT_GE(a.next, 2.0 * kSkinSafetyFactor * run.v * run.every * (1.0 - 1e-12));
}
