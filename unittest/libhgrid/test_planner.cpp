/* The plan and the decisions that make it (libhgrid/planner.h): the layout chosen at
   run setup, fix hgrid/tune's re-level decision (no re-level on sampling noise, a
   re-level when a 10x larger particle appears or the distribution widens) and the
   least-squares K fit on synthetic build timings. */

#include "libhgrid/planner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

using namespace hgrid;

namespace {

// radii of a truncated power law r^alpha on [1, omega] (inverse transform), with the
// extremes included so that every sample spans the same range
std::vector<double> powerlaw_radii(double alpha, double omega, int n, unsigned seed)
{
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double a1 = alpha + 1.0;
  std::vector<double> radii{1.0, omega};
  while (static_cast<int>(radii.size()) < n)
    radii.push_back(std::pow(1.0 + u(rng) * (std::pow(omega, a1) - 1.0), 1.0 / a1));
  return radii;
}

SystemParams params3d()
{
  SystemParams p;
  p.packing = 0.3;
  p.skin = 0.1;
  return p;
}

double cmax_of(const std::vector<double> &radii, const SystemParams &p)
{
  double r = 0.0;
  for (double x : radii) r = std::max(r, x);
  return 2.0 * r + p.skin;
}

}    // namespace

TEST(Relevel, NoRelevelOnSamplingNoise)
{
  const SystemParams p = params3d();
  const PlanSettings s;
  const RelevelPolicy policy;
  const auto first = powerlaw_radii(-3.0, 30.0, 20000, 1);
  const Histogram f1 = Histogram::from_radii(first, 128);
  const Layout current = optimal_layout(&f1, p, s, cmax_of(first, p));
  ASSERT_GT(current.num_levels(), 1);
  for (unsigned seed = 2; seed < 7; ++seed) {
    const auto again = powerlaw_radii(-3.0, 30.0, 20000, seed);
    const Histogram f2 = Histogram::from_radii(again, 128);
    const double cmax = cmax_of(again, p);
    const Layout optimal = optimal_layout(&f2, p, s, cmax);
    const Decision d = decide_relevel(current, optimal, &f2, p, cmax, policy);
    EXPECT_EQ(d.action, Relevel::None) << "seed " << seed;
    EXPECT_GT(d.cost_current, 0.0);
    EXPECT_LE(d.cost_optimal, d.cost_current * (1.0 + 1e-9)) << "the optimum is no worse";
    EXPECT_GT(d.cost_optimal, (1.0 - policy.threshold) * d.cost_current);
  }
}

TEST(Relevel, ParticleTenTimesLargerForcesRelevelWithHeadroom)
{
  const SystemParams p = params3d();
  const PlanSettings s;
  const RelevelPolicy policy;
  auto radii = powerlaw_radii(-3.0, 10.0, 20000, 3);
  const Histogram f1 = Histogram::from_radii(radii, 128);
  const double cmin = 2.0 + p.skin;
  const Layout current = optimal_layout(&f1, p, s, cmax_of(radii, p));

  radii.push_back(100.0);    // 10 x the largest radius
  const double cmax = cmax_of(radii, p);
  ASSERT_TRUE(overflows(current, cmax));
  const double top = planned_top(current, cmin, cmax, policy);
  EXPECT_NEAR(top, cmin + (cmax - cmin) * (1.0 + policy.headroom), 1e-12 * top);
  const Histogram f2 = Histogram::from_radii(radii, 128);
  const Layout optimal = optimal_layout(&f2, p, s, top);
  EXPECT_GE(optimal.top(), top);
  const Decision d = decide_relevel(current, optimal, &f2, p, cmax, policy);
  EXPECT_EQ(d.action, Relevel::Overflow);
  EXPECT_EQ(d.cost_current, 0.0) << "the current layout cannot hold the particle";
  EXPECT_GT(d.cost_optimal, 0.0);
  EXPECT_GE(level_of(optimal, cmax), 0);
  // without an overflow the top is the largest cutoff diameter itself
  EXPECT_EQ(planned_top(optimal, cmin, cmax, policy), cmax);
}

TEST(Relevel, WiderDistributionRelevelsForGainOnly)
{
  const SystemParams p = params3d();
  const PlanSettings s;
  RelevelPolicy policy;
  // one level sized for the largest particle, then the same range filled with a
  // power law: the optimum (several levels) is predicted far faster
  const auto radii = powerlaw_radii(-3.0, 20.0, 20000, 5);
  const double cmax = cmax_of(radii, p);
  const Histogram f = Histogram::from_radii(radii, 128);
  const Layout one{{cmax}, Search::BottomUp};
  const Layout optimal = optimal_layout(&f, p, s, cmax);
  ASSERT_GT(optimal.num_levels(), 1);
  Decision d = decide_relevel(one, optimal, &f, p, cmax, policy);
  EXPECT_EQ(d.action, Relevel::Gain);
  EXPECT_LT(d.cost_optimal, 0.5 * d.cost_current);
  // a threshold above the predicted gain keeps the layout; the same layout never re-levels
  policy.threshold = 1.0 - 0.99 * d.cost_optimal / d.cost_current;
  EXPECT_EQ(decide_relevel(one, optimal, &f, p, cmax, policy).action, Relevel::None);
  EXPECT_EQ(decide_relevel(optimal, optimal, &f, p, cmax, RelevelPolicy()).action, Relevel::None);
}

TEST(KCalibration, ConvergesOnSyntheticTimings)
{
  // t = a checks + b visits with a = 3 ns, b = 1.5 ns: K = 0.5, within 2 % of noise
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> checks(1e5, 1e6), visits(2e5, 4e6), noise(0.98, 1.02);
  KCalibration fit;
  double K = -1.0;
  EXPECT_FALSE(fit.estimate(K)) << "no builds yet";
  EXPECT_EQ(K, -1.0);
  for (int build = 0; build < 50; ++build) {
    const double c = checks(rng), v = visits(rng);
    fit.add(KCalibration::products(c, v, (3e-9 * c + 1.5e-9 * v) * noise(rng)));
  }
  ASSERT_TRUE(fit.estimate(K));
  EXPECT_NEAR(K, 0.5, 0.05);
}

TEST(KCalibration, RejectsCollinearSamplesAndClampsK)
{
  KCalibration collinear;    // visits always 2 x checks: a and b are not separable
  for (double c : {1e5, 2e5, 4e5}) collinear.add(KCalibration::products(c, 2 * c, 1e-9 * c));
  double K = 1.0;
  EXPECT_FALSE(collinear.estimate(K));
  EXPECT_EQ(K, 1.0);

  KCalibration costly;    // b / a = 100: clamped to kMax
  for (double c : {1e5, 3e5, 2e5})
    for (double v : {1e5, 5e5}) costly.add(KCalibration::products(c, v, 1e-11 * c + 1e-9 * v));
  ASSERT_TRUE(costly.estimate(K));
  EXPECT_EQ(K, KCalibration::kMax);

  KCalibration negative;    // time falls with visits: no positive b, K unchanged
  for (double c : {1e5, 3e5, 2e5})
    for (double v : {1e5, 5e5})
      negative.add(KCalibration::products(c, v, 1e-9 * c + 1e-3 - 1e-9 * v));
  K = 0.7;
  EXPECT_FALSE(negative.estimate(K));
  EXPECT_EQ(K, 0.7);
}

TEST(Planner, LayoutForRunKeepsExplicitOrOptimal)
{
  PlanSettings s;
  const SystemParams p;    // no histogram: explicit levels keep their direction
  const Layout current{{3.0, 10.0}, Search::TopDown};
  int calls = 0;
  const Layout model{{2.5, 6.0, 12.0}, Search::BottomUp};
  auto optimum = [&] {
    ++calls;
    return model;
  };
  EXPECT_EQ(layout_for_run(s, current, 9.0, optimum, nullptr, p), model) << "no keep: the model";
  EXPECT_EQ(calls, 1);
  s.keep_layout = true;
  EXPECT_EQ(layout_for_run(s, current, 9.0, optimum, nullptr, p), current) << "kept while it fits";
  EXPECT_EQ(layout_for_run(s, current, 11.0, optimum, nullptr, p), model) << "too small: replaced";
  EXPECT_EQ(calls, 2);
  s.keep_layout = false;
  s.cell_sizes = {4.0, 12.0};
  s.search = Search::TopDown;
  EXPECT_EQ(layout_for_run(s, current, 9.0, optimum, nullptr, p),
            (Layout{{4.0, 12.0}, Search::TopDown}));
  EXPECT_EQ(calls, 2) << "explicit levels need no model";
  EXPECT_THROW((void) layout_for_run(s, current, 13.0, optimum, nullptr, p), std::invalid_argument);
}

TEST(Planner, ExplicitLevelsTakeTheCheaperSearch)
{
  const SystemParams p = params3d();
  const auto radii = powerlaw_radii(-3.0, 100.0, 20000, 7);
  const Histogram f = Histogram::from_radii(radii, 128);
  const double cmax = cmax_of(radii, p);
  const Layout best = optimal_layout(&f, p, PlanSettings(), cmax);    // direction chosen too
  ASSERT_GT(best.num_levels(), 1);
  const Search other = best.search == Search::TopDown ? Search::BottomUp : Search::TopDown;
  const Layout given{best.cell_sizes, other};
  EXPECT_EQ(cheaper_search(given, &f, p), best.search) << "the optimum's direction";
  EXPECT_LT(evaluate(best, f, p).total, evaluate(given, f, p).total);
  EXPECT_EQ(cheaper_search(given, nullptr, p), other) << "no histogram: the layout's own";

  // layout_for_run: explicit levels in the cheaper direction unless the search was given
  PlanSettings s;
  s.cell_sizes = best.cell_sizes;
  s.search = other;
  auto optimum = [] {
    return Layout{{1.0}, Search::BottomUp};
  };
  EXPECT_EQ(layout_for_run(s, Layout(), cmax, optimum, &f, p), best);
  s.auto_search = false;
  EXPECT_EQ(layout_for_run(s, Layout(), cmax, optimum, &f, p), given) << "search given";
}

TEST(Planner, PlanCarriesPredictionAndGhostClasses)
{
  const SystemParams p = params3d();
  const auto radii = powerlaw_radii(-2.0, 10.0, 5000, 11);
  const Histogram f = Histogram::from_radii(radii, 64);
  const Layout layout{{5.0, 20.1}, Search::TopDown};
  const Plan plan = make_plan(layout, &f, p, 2.1, 20.1);
  EXPECT_EQ(plan.layout, layout);
  EXPECT_EQ(plan.ghost_bounds, ghost_classes(layout, 2.1));
  EXPECT_EQ(plan.ghost_bounds.back(), 20.1);
  EXPECT_DOUBLE_EQ(plan.predicted.total, evaluate(layout, f, p).total);
  EXPECT_EQ(make_plan(layout, nullptr, p, 2.1, 20.1).predicted.total, 0.0) << "no model";
  // the optimum for a monodisperse system (no histogram) is one level of its size
  EXPECT_EQ(optimal_layout(nullptr, p, PlanSettings(), 3.1), (Layout{{3.1}, Search::BottomUp}));
}

TEST(Planner, OptimumKeyChangesWithEveryInput)
{
  const SystemParams p = params3d();
  const auto radii = powerlaw_radii(-2.0, 10.0, 5000, 11);
  const Histogram f = Histogram::from_radii(radii, 64);
  const PlanSettings s;
  const auto key = optimum_key(&f, p, s, 20.1);
  EXPECT_EQ(key, optimum_key(&f, p, s, 20.1));
  EXPECT_NE(key, optimum_key(&f, p, s, 20.2));
  EXPECT_NE(key, optimum_key(nullptr, p, s, 20.1));
  SystemParams q = p;
  q.K = 0.5;
  EXPECT_NE(key, optimum_key(&f, q, s, 20.1));
  PlanSettings t = s;
  t.max_levels = 3;
  EXPECT_NE(key, optimum_key(&f, p, t, 20.1));
  t = s;
  t.method = Method::Exponential;
  EXPECT_NE(key, optimum_key(&f, p, t, 20.1));
}

// fix hgrid/tune re-levels by refining the running layout (its level count +-1) instead
// of the full search: while the distribution drifts (growing size ratio, steeper or
// flatter power law, 2d and 3d) the refined layout is, step after step, within 1 % of
// the full optimum's predicted cost, and it follows the optimum's level count
TEST(Planner, RefinedLayoutFollowsADriftingDistribution)
{
  for (int dim : {2, 3})
    for (double alpha : {-3.0, -2.0}) {
      SystemParams p = params3d();
      p.dimension = dim;
      const PlanSettings s;
      auto radii = powerlaw_radii(alpha, 5.0, 20000, 3);
      Histogram f0 = Histogram::from_radii(radii, 128);
      Layout running = optimal_layout(&f0, p, s, cmax_of(radii, p));
      int changes = 0;
      for (double omega = 6.0; omega <= 200.0; omega *= 1.25) {
        radii = powerlaw_radii(alpha, omega, 20000, 3);
        const Histogram f = Histogram::from_radii(radii, 128);
        const double cmax = cmax_of(radii, p);
        const Layout full = optimal_layout(&f, p, s, cmax);
        const Layout refined = optimal_layout(&f, p, s, cmax, &running);
        const double tfull = evaluate(full, f, p).total, tref = evaluate(refined, f, p).total;
        EXPECT_LT(tref, 1.01 * tfull) << "d " << dim << " alpha " << alpha << " omega " << omega;
        EXPECT_GE(refined.cell_sizes.back(), cmax);
        changes += refined.num_levels() != running.num_levels();
        running = refined;
      }
      EXPECT_GT(changes, 0) << "the level count never followed the drift";
      EXPECT_NE(optimum_key(&f0, p, s, 20.1), optimum_key(&f0, p, s, 20.1, &running));
    }
}

// the Morton-order atom sort is offered only where the finest cells are at least
// kMortonSortRatio times smaller than the top level, with bins of the finest level
TEST(SortBins, FinestCellWhereTheTopIsMuchLarger)
{
  EXPECT_EQ(sort_bin_size(Layout{{1.5}, Search::TopDown}), 0.0);
  EXPECT_EQ(sort_bin_size(Layout{{1.5, 6.0}, Search::TopDown}), 0.0);
  EXPECT_EQ(sort_bin_size(Layout{{1.5, 3.0, 11.9}, Search::BottomUp}), 0.0);
  EXPECT_EQ(sort_bin_size(Layout{{1.5, 3.0, 12.0}, Search::BottomUp}), 1.5);
  EXPECT_EQ(sort_bin_size(Layout{{4.9, 15.6, 37.7, 75.2, 98.4}, Search::TopDown}), 4.9);
  EXPECT_EQ(sort_bin_size(Layout{{2.0, 40.0}, Search::TopDown}), 2.0);
}

// the build's checks per cell visit against the prediction's: within the tolerance (a
// random gas) the scale stays; a packed bed's 2x multiplies it; a second calibration
// of a plan made with that scale finds it (ratio 1); clamped; nothing counted: kept
TEST(CheckScale, CalibratedFromChecksPerCellVisit)
{
  Cost predicted;
  predicted.distance_checks = 40.0;
  predicted.cell_visits = 100.0;
  EXPECT_EQ(calibrated_check_scale(42.0, 102.0, predicted, 1.0), 1.0) << "gas";
  EXPECT_EQ(calibrated_check_scale(30.0, 100.0, predicted, 1.0), 1.0) << "within 25 %";
  // the build visits 10 % more cells than predicted (ghosts): only checks per visit count
  EXPECT_NEAR(calibrated_check_scale(88.0, 110.0, predicted, 1.0), 2.0, 1e-12) << "bed";
  EXPECT_NEAR(calibrated_check_scale(88.0, 110.0, predicted, 1.5), 3.0, 1e-12) << "compounds";
  predicted.distance_checks = 80.0;    // a plan made with scale 2
  EXPECT_EQ(calibrated_check_scale(88.0, 110.0, predicted, 2.0), 2.0) << "found again";
  EXPECT_EQ(calibrated_check_scale(8000.0, 100.0, predicted, 2.0), kMaxCheckScale);
  EXPECT_EQ(calibrated_check_scale(1.0, 100.0, predicted, 1.0), kMinCheckScale);
  for (double zero : {0.0, -1.0}) {
    EXPECT_EQ(calibrated_check_scale(zero, 100.0, predicted, 1.7), 1.7);
    EXPECT_EQ(calibrated_check_scale(40.0, zero, predicted, 1.7), 1.7);
  }
  EXPECT_EQ(calibrated_check_scale(40.0, 100.0, Cost(), 1.7), 1.7) << "no prediction";
}
