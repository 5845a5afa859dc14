#include "radius_distribution.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hgrid {

namespace {
  // int_lo^hi r^p dr for lo <= hi, p real (log for p = -1)
  double power_integral(double p, double lo, double hi)
  {
    if (hi <= lo) return 0.0;
    if (std::fabs(p + 1.0) < 1e-12) return std::log(hi / lo);
    return (std::pow(hi, p + 1.0) - std::pow(lo, p + 1.0)) / (p + 1.0);
  }

  // int_lo^hi r^k dr for an integer k >= 0
  double int_power_integral(int k, double lo, double hi)
  {
    if (hi <= lo) return 0.0;
    return (int_power(hi, k + 1) - int_power(lo, k + 1)) / (k + 1);
  }

  void check_power(int k)
  {
    if (k < 0 || k > kMaxMoment) throw std::invalid_argument("moment order must be 0..3");
  }
}    // namespace

PowerLaw::PowerLaw(double alpha, double r_min, double r_max) :
    alpha_(alpha), rmin_(r_min), rmax_(r_max), c_(0.0)
{
  if (!(r_min > 0.0) || !(r_max >= r_min) || !std::isfinite(r_max) || !std::isfinite(alpha))
    throw std::invalid_argument("power law needs 0 < r_min <= r_max and a finite exponent");
  if (r_max == r_min) {
    // degenerate: treat as a narrow uniform band so that integrals stay finite
    rmax_ = r_min * (1.0 + 1e-9);
  }
  c_ = 1.0 / power_integral(alpha_, rmin_, rmax_);
}

double PowerLaw::moment(int k, double a, double b) const
{
  check_power(k);
  return c_ * power_integral(alpha_ + k, std::max(a, rmin_), std::min(b, rmax_));
}

Histogram::Histogram(std::vector<double> edges, std::vector<double> weights) :
    edges_(std::move(edges)), weights_(std::move(weights))
{
  if (edges_.size() < 2 || weights_.size() + 1 != edges_.size())
    throw std::invalid_argument("histogram needs n+1 edges for n weights");
  double total = 0.0;
  for (std::size_t i = 0; i < weights_.size(); ++i) {
    if (!(edges_[i + 1] > edges_[i]) || !(edges_[i] > 0.0))
      throw std::invalid_argument("histogram edges must be positive and increasing");
    if (!(weights_[i] >= 0.0)) throw std::invalid_argument("histogram weights must be >= 0");
    total += weights_[i];
  }
  if (!(total > 0.0)) throw std::invalid_argument("histogram has no weight");
  for (double &w : weights_) w /= total;
  for (int k = 0; k <= kMaxMoment; ++k) {
    cumulative_[k].assign(1, 0.0);
    for (std::size_t i = 0; i < weights_.size(); ++i) {
      const double density = weights_[i] / (edges_[i + 1] - edges_[i]);
      cumulative_[k].push_back(cumulative_[k].back() +
                               density * int_power_integral(k, edges_[i], edges_[i + 1]));
    }
  }
}

double Histogram::cumulative(int k, double x) const
{
  if (x <= edges_.front()) return 0.0;
  if (x >= edges_.back()) return cumulative_[k].back();
  const std::size_t i = std::upper_bound(edges_.begin(), edges_.end(), x) - edges_.begin() - 1;
  const double density = weights_[i] / (edges_[i + 1] - edges_[i]);
  return cumulative_[k][i] + density * int_power_integral(k, edges_[i], x);
}

void Histogram::cumulatives(double x, double out[kMaxMoment + 1]) const
{
  if (x <= edges_.front() || x >= edges_.back()) {
    for (int k = 0; k <= kMaxMoment; ++k)
      out[k] = x <= edges_.front() ? 0.0 : cumulative_[k].back();
    return;
  }
  const std::size_t i = std::upper_bound(edges_.begin(), edges_.end(), x) - edges_.begin() - 1;
  const double density = weights_[i] / (edges_[i + 1] - edges_[i]);
  double lo = edges_[i], hi = x;    // lo^(k+1), hi^(k+1) built up with k
  for (int k = 0; k <= kMaxMoment; ++k) {
    out[k] = cumulative_[k][i] + density * (hi - lo) / (k + 1);
    lo *= edges_[i];
    hi *= x;
  }
}

LogBinning::LogBinning(double r_min, double r_max, int bins) : bins_(bins)
{
  if (!(r_min > 0.0) || !(r_max >= r_min)) throw std::invalid_argument("radii must be positive");
  if (bins < 1) throw std::invalid_argument("histogram needs at least one bin");
  lo_ = r_min * (1.0 - 1e-9);
  logratio_ = std::log(r_max * (1.0 + 1e-9) / lo_);
}

int LogBinning::index(double r) const
{
  return std::clamp(static_cast<int>(std::log(r / lo_) / logratio_ * bins_), 0, bins_ - 1);
}

std::vector<double> LogBinning::edges() const
{
  std::vector<double> edges(bins_ + 1);
  for (int i = 0; i <= bins_; ++i) edges[i] = lo_ * std::exp(logratio_ * i / bins_);
  return edges;
}

Histogram Histogram::from_radii(const std::vector<double> &radii, int bins)
{
  if (radii.empty()) throw std::invalid_argument("no radii");
  const auto [mn, mx] = std::minmax_element(radii.begin(), radii.end());
  const LogBinning binning(*mn, *mx, bins);
  std::vector<double> weights(bins, 0.0);
  for (double r : radii) weights[binning.index(r)] += 1.0;
  return Histogram(binning.edges(), std::move(weights));
}

double Histogram::moment(int k, double a, double b) const
{
  check_power(k);
  if (b <= a) return 0.0;
  return cumulative(k, b) - cumulative(k, a);
}

void Histogram::moments(double a, double b, double out[kMaxMoment + 1]) const
{
  if (b <= a) {
    for (int k = 0; k <= kMaxMoment; ++k) out[k] = 0.0;
    return;
  }
  double lo[kMaxMoment + 1];
  cumulatives(a, lo);
  cumulatives(b, out);
  for (int k = 0; k <= kMaxMoment; ++k) out[k] -= lo[k];
}

void RadiusDistribution::moments(double a, double b, double out[kMaxMoment + 1]) const
{
  for (int k = 0; k <= kMaxMoment; ++k) out[k] = moment(k, a, b);
}

}    // namespace hgrid
