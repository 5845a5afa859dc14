#include "planner.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hgrid {

Plan make_plan(const Layout &layout, const Histogram *f, const SystemParams &params, double cmin,
               double cmax)
{
  Plan plan;
  plan.layout = layout;
  if (f) plan.predicted = evaluate(layout, *f, params);
  plan.ghost_bounds = ghost_classes(layout, cmin);
  plan.cmin = cmin;
  plan.cmax = cmax;
  return plan;
}

double sort_bin_size(const Layout &layout)
{
  if (layout.num_levels() < 2) return 0.0;
  const double finest = layout.cell_sizes.front();
  return layout.top() >= kMortonSortRatio * finest ? finest : 0.0;
}

Layout optimal_layout(const Histogram *f, const SystemParams &params, const PlanSettings &settings,
                      double cmax, const Layout *near)
{
  Layout chosen{{cmax}, settings.search};
  if (f && near && near->num_levels() > 0 && settings.method == Method::Optimal)
    chosen = refine_layout(*near, *f, params, settings.auto_search, settings.max_levels).layout;
  else if (f)
    chosen = best_layout(settings.method, *f, params, settings.search, settings.auto_search,
                         settings.max_levels)
                 .layout;
  chosen.cell_sizes.back() = std::max(chosen.cell_sizes.back(), cmax);
  return chosen;
}

std::vector<double> optimum_key(const Histogram *f, const SystemParams &params,
                                const PlanSettings &settings, double cmax, const Layout *near)
{
  std::vector<double> key = f ? f->weights() : std::vector<double>();
  if (f) key.insert(key.end(), f->edges().begin(), f->edges().end());
  key.insert(key.end(),
             {cmax, params.skin, params.packing, params.K, params.storage,
              params.subcell_visit_cost, params.one_level_visit_cost, params.check_scale,
              double(params.single_level_subdivisions), double(params.dimension),
              double(settings.method), double(settings.auto_search), double(settings.search),
              double(settings.max_levels)});
  if (near) {    // refined from it
    key.push_back(double(near->search));
    key.push_back(double(subdivisions_of(*near)));    // as Layout's ==: ignored for a hierarchy
    key.insert(key.end(), near->cell_sizes.begin(), near->cell_sizes.end());
  }
  return key;
}

Search cheaper_search(const Layout &layout, const Histogram *f, const SystemParams &params)
{
  if (!f || layout.num_levels() < 2) return layout.search;
  const Layout topdown{layout.cell_sizes, Search::TopDown};
  const Layout bottomup{layout.cell_sizes, Search::BottomUp};
  return evaluate(topdown, *f, params).total <= evaluate(bottomup, *f, params).total
      ? Search::TopDown
      : Search::BottomUp;
}

Layout layout_for_run(const PlanSettings &settings, const Layout &current, double cmax,
                      const std::function<Layout()> &optimum, const Histogram *f,
                      const SystemParams &params)
{
  if (settings.keep_layout && current.num_levels() > 0 && level_of(current, cmax) >= 0)
    return current;    // kept across runs and restarts; fix hgrid/tune re-evaluates it
  if (!settings.cell_sizes.empty()) {
    Layout user{settings.cell_sizes, settings.search, settings.subdivisions};
    validate(user, cmax);
    if (settings.auto_search) user.search = cheaper_search(user, f, params);
    return user;
  }
  return optimum();
}

bool overflows(const Layout &current, double cmax)
{
  return level_of(current, cmax) < 0;
}

double planned_top(const Layout &current, double cmin, double cmax, const RelevelPolicy &policy)
{
  return overflows(current, cmax) ? cmin + (cmax - cmin) * (1.0 + policy.headroom) : cmax;
}

Decision decide_relevel(const Layout &current, const Layout &optimal, const Histogram *f,
                        const SystemParams &params, double cmax, const RelevelPolicy &policy)
{
  Decision d;
  const bool overflow = overflows(current, cmax);
  if (f) {
    d.cost_optimal = evaluate(optimal, *f, params).total;
    if (!overflow) d.cost_current = evaluate(current, *f, params).total;
  }
  const bool gain =
      d.cost_current > 0.0 && d.cost_optimal < (1.0 - policy.threshold) * d.cost_current;
  if (optimal != current && overflow)
    d.action = Relevel::Overflow;
  else if (optimal != current && gain)
    d.action = Relevel::Gain;
  return d;
}

std::array<double, 5> KCalibration::products(double checks, double visits, double time)
{
  return {checks * checks, checks * visits, visits * visits, time * checks, time * visits};
}

double calibrated_check_scale(double checks, double visits, const Cost &predicted, double current)
{
  if (!(checks > 0.0 && visits > 0.0 && predicted.distance_checks > 0.0 &&
        predicted.cell_visits > 0.0))
    return current;
  const double ratio = (checks / predicted.distance_checks) / (visits / predicted.cell_visits);
  if (std::abs(ratio - 1.0) <= kCheckScaleTolerance) return current;
  return std::clamp(current * ratio, kMinCheckScale, kMaxCheckScale);
}

void KCalibration::add(const std::array<double, 5> &products)
{
  for (int k = 0; k < 5; ++k) sums_[k] = kMemory * sums_[k] + products[k];
}

bool KCalibration::estimate(double &K) const
{
  const auto &s = sums_;
  const double det = s[0] * s[2] - s[1] * s[1];
  if (!(det > kMinCondition * s[0] * s[2])) return false;
  const double a = (s[3] * s[2] - s[4] * s[1]) / det;
  const double b = (s[0] * s[4] - s[1] * s[3]) / det;
  if (!(a > 0.0 && b > 0.0)) return false;
  K = std::min(std::max(b / a, kMin), kMax);
  return true;
}

}    // namespace hgrid
