#include "optimizer.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace hgrid {

namespace {

  // levels beyond the best one tried before the search over L stops
  constexpr int kLevelPatience = 6;
  // golden-section steps per coordinate and coordinate-descent sweeps
  constexpr int kGoldenSteps = 30;
  constexpr int kMaxSweeps = 200;
  // sweeps stop when T improved by less than this (relative)
  constexpr double kSweepTolerance = 1e-8;
  // the optimal layout is searched within this many levels of the constant-ratio optimum
  constexpr int kOptimalLevelWindow = 3;
  constexpr double kBisectionSteps = 200;
  // relative gap kept between neighbouring optimized sizes (strictly increasing)
  constexpr double kMinSizeGap = 1e-9;
  // an extra level must lower T by this relative amount to be chosen
  constexpr double kLevelGainTolerance = 1e-6;
  // cutoff diameters closer than this (relative) count as one size
  constexpr double kMonodisperseTolerance = 1e-6;

  Layout linear(int L, double s0, double sL)
  {
    Layout layout;
    for (int h = 1; h < L; ++h) layout.cell_sizes.push_back(s0 + h * (sL - s0) / L);
    layout.cell_sizes.push_back(sL);
    return layout;
  }

  Layout exponential(int L, double s0, double sL)
  {
    Layout layout;
    for (int h = 1; h < L; ++h) layout.cell_sizes.push_back(s0 * std::pow(sL / s0, double(h) / L));
    layout.cell_sizes.push_back(sL);
    return layout;
  }

  // eqs. (37)-(38): sizes with m_{h+1} = q m_h, by bisection on m_1
  Layout constant_ratio(int L, double q, double s0, double sL, const RadiusDistribution &f,
                        const SystemParams &p)
  {
    auto m = [&](double lo, double hi) {
      return particles_per_cell(lo, hi, f, p);
    };
    // sizes s_1..s_{L-1} for m_1 = mu; residual m_L - q^{L-1} mu (< 0: mu too large)
    auto chain = [&](double mu, std::vector<double> &s) {
      s.clear();
      double lo = s0, target = mu;
      for (int h = 0; h < L - 1; ++h) {
        if (m(lo, sL) < target) return -1.0;
        double a = lo, b = sL;
        for (int it = 0; it < kBisectionSteps && b - a > 1e-14 * sL; ++it) {
          const double mid = 0.5 * (a + b);
          (m(lo, mid) < target ? a : b) = mid;
        }
        s.push_back(b);
        lo = b;
        target *= q;
      }
      return m(lo, sL) - target;
    };
    std::vector<double> sizes;
    double lo = -60.0, hi = 30.0;    // log(mu)
    for (int it = 0; it < kBisectionSteps && hi - lo > 1e-13; ++it) {
      const double mid = 0.5 * (lo + hi);
      (chain(std::exp(mid), sizes) < 0.0 ? hi : lo) = mid;
    }
    chain(std::exp(lo), sizes);
    Layout layout;
    layout.cell_sizes = sizes;
    layout.cell_sizes.push_back(sL);
    return layout;
  }

  double total(const Layout &layout, const RadiusDistribution &f, const SystemParams &p)
  {
    return evaluate(layout, f, p).total;
  }

}    // namespace

Choice scored(Layout layout, const RadiusDistribution &f, const SystemParams &params)
{
  if (layout.num_levels() != 1) {
    const Cost cost = evaluate(layout, f, params);
    return {std::move(layout), cost};
  }
  Choice best;    // one level: the cheapest k of cells split into k^d sub-cells
  best.cost.total = HUGE_VAL;
  for (int k = 1; k <= params.single_level_subdivisions; ++k) {
    layout.subdivisions = k;
    const Cost cost = evaluate(layout, f, params);
    if (cost.total < best.cost.total) best = {layout, cost};
  }
  return best;
}

const char *method_name(Method method)
{
  switch (method) {
    case Method::Linear:
      return "linear";
    case Method::Exponential:
      return "exponential";
    case Method::ConstantRatio:
      return "constant";
    case Method::Optimal:
      return "optimal";
  }
  return "unknown";
}

Method method_from_name(const std::string &name)
{
  for (Method m : {Method::Linear, Method::Exponential, Method::ConstantRatio, Method::Optimal})
    if (name == method_name(m)) return m;
  throw std::invalid_argument("unknown cell-size method '" + name +
                              "' (linear, exponential, constant, optimal)");
}

Layout make_layout(Method method, int levels, Search search, const RadiusDistribution &f,
                   const SystemParams &params, double q)
{
  if (levels < 1) throw std::invalid_argument("number of levels must be at least 1");
  const double s0 = cutoff_diameter_min(f, params), sL = cutoff_diameter_max(f, params);
  Layout layout;
  if (levels == 1 || !(sL > s0 * (1.0 + kMonodisperseTolerance)))
    layout.cell_sizes = {sL};
  else if (method == Method::Linear)
    layout = linear(levels, s0, sL);
  else if (method == Method::Exponential)
    layout = exponential(levels, s0, sL);
  else if (method == Method::ConstantRatio)
    layout = constant_ratio(levels, q, s0, sL, f, params);
  else {
    layout = constant_ratio(levels, kDefaultParticlesPerCellRatio, s0, sL, f, params);
    layout.search = search;
    layout = optimize_sizes(layout, f, params);
  }
  layout.search = search;
  return layout;
}

Layout optimize_sizes(const Layout &start, const RadiusDistribution &f, const SystemParams &params)
{
  Layout best = start;
  double best_cost = total(best, f, params);
  const int L = best.num_levels();
  const double s0 = cutoff_diameter_min(f, params);
  const double golden = 0.5 * (std::sqrt(5.0) - 1.0);

  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    const double sweep_start = best_cost;
    for (int h = 0; h < L - 1; ++h) {
      // golden section in log s_h between the neighbouring sizes
      const double lo0 =
          std::log(h == 0 ? std::min(s0, best.cell_sizes[0]) : best.cell_sizes[h - 1]);
      const double hi0 = std::log(best.cell_sizes[h + 1]);
      Layout trial = best;
      auto cost_at = [&](double u) {
        trial.cell_sizes[h] = std::exp(u);
        return total(trial, f, params);
      };
      double a = lo0, b = hi0;
      double c = b - golden * (b - a), e = a + golden * (b - a);
      double fc = cost_at(c), fe = cost_at(e);
      for (int it = 0; it < kGoldenSteps; ++it) {
        if (fc < fe) {
          b = e, e = c, fe = fc;
          c = b - golden * (b - a);
          fc = cost_at(c);
        } else {
          a = c, c = e, fc = fe;
          e = a + golden * (b - a);
          fe = cost_at(e);
        }
      }
      const double u = 0.5 * (a + b);
      const double value = cost_at(u);
      const double size = std::exp(u);
      if (value < best_cost && size > std::exp(lo0) * (1.0 + kMinSizeGap) &&
          size < std::exp(hi0) * (1.0 - kMinSizeGap)) {
        best.cell_sizes[h] = size;
        best_cost = value;
      }
    }
    if (!(best_cost < sweep_start * (1.0 - kSweepTolerance))) break;
  }
  return best;
}

Choice best_layout(Method method, const RadiusDistribution &f, const SystemParams &params,
                   Search search, bool both_searches, int max_levels, double q)
{
  Choice best;
  best.cost.total = HUGE_VAL;
  for (Search s : {Search::TopDown, Search::BottomUp}) {
    if (!both_searches && s != search) continue;
    // the optimal sizes are sought near the constant-ratio optimum (cheap, close)
    int first = 1, last = max_levels;
    if (method == Method::Optimal) {
      const int Lc =
          best_layout(Method::ConstantRatio, f, params, s, false, max_levels).layout.num_levels();
      first = std::max(1, Lc - kOptimalLevelWindow);
      last = std::min(max_levels, Lc + kOptimalLevelWindow);
    }
    int best_levels = first;
    double search_best = HUGE_VAL;
    for (int L = first; L <= last && L <= best_levels + kLevelPatience; ++L) {
      Choice c = scored(make_layout(method, L, s, f, params, q), f, params);
      if (c.cost.total < search_best * (1.0 - kLevelGainTolerance)) {
        search_best = c.cost.total;
        best_levels = L;
        if (c.cost.total < best.cost.total * (1.0 - kLevelGainTolerance)) best = c;
      }
      if (c.layout.num_levels() < L) break;    // monodisperse: one level only
    }
  }
  return best;
}

namespace {
  // L sizes between s0 and sL at the relative log-positions of near's levels (near's
  // smallest cutoff diameter taken as s0, its levels resampled when L differs)
  Layout mapped(const Layout &near, int L, double s0, double sL)
  {
    const std::vector<double> &c = near.cell_sizes;
    const int n = near.num_levels();
    const double base = std::min(s0, c.front()) * (1.0 - 1e-12);
    auto position = [&](int h) {    // log-position in (0, 1] of near's level h
      return std::log(c[h] / base) / std::log(c.back() / base);
    };
    Layout layout;
    for (int h = 1; h < L; ++h) {
      const double x = double(h) * n / L - 1.0;    // fractional index into near's levels
      const int k = std::clamp(static_cast<int>(std::floor(x)), -1, n - 2);
      const double lo = k < 0 ? 0.0 : position(k), hi = position(k + 1);
      const double t = lo + (x - k) * (hi - lo);
      layout.cell_sizes.push_back(s0 * std::pow(sL / s0, t));
    }
    layout.cell_sizes.push_back(sL);
    for (int h = L - 2; h >= 0; --h)    // strictly increasing
      layout.cell_sizes[h] =
          std::min(layout.cell_sizes[h], layout.cell_sizes[h + 1] * (1.0 - kMinSizeGap));
    return layout;
  }
}    // namespace

Choice refine_layout(const Layout &near, const RadiusDistribution &f, const SystemParams &params,
                     bool both_searches, int max_levels)
{
  if (near.num_levels() < 1) throw std::invalid_argument("layout has no levels");
  const double s0 = cutoff_diameter_min(f, params), sL = cutoff_diameter_max(f, params);
  Choice best;
  best.cost.total = HUGE_VAL;
  const int Lnear = near.num_levels();
  for (Search s : {Search::TopDown, Search::BottomUp}) {
    if (!both_searches && s != near.search) continue;
    for (int L = std::max(1, Lnear - 1); L <= std::min(max_levels, Lnear + 1); ++L) {
      Layout layout;
      if (L == 1 || !(sL > s0 * (1.0 + kMonodisperseTolerance)))
        layout.cell_sizes = {sL};
      else
        layout = mapped(near, L, s0, sL);
      layout.search = s;
      if (layout.num_levels() > 1) layout = optimize_sizes(layout, f, params);
      Choice c = scored(layout, f, params);
      if (c.cost.total < best.cost.total * (1.0 - kLevelGainTolerance)) best = c;
    }
  }
  return best;
}

}    // namespace hgrid
