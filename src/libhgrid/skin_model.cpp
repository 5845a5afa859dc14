#include "skin_model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hgrid {

SkinModel::SkinModel(const SkinSample &sample) : m_(sample)
{
  if (!(m_.skin > 0.0)) throw std::invalid_argument("skin model needs a positive skin");
  if (!(m_.steps_per_build > 0.0))
    throw std::invalid_argument("skin model needs a positive rebuild interval");
  if (m_.gap_counts.empty()) throw std::invalid_argument("skin model needs gap bins");
  if (!(m_.displacement_exponent >= 0.5 && m_.displacement_exponent <= 1.0))
    throw std::invalid_argument("skin model displacement exponent must be in [1/2, 1]");
  if (m_.dimension != 2 && m_.dimension != 3)
    throw std::invalid_argument("skin model dimension must be 2 or 3");
  m_.min_interval = std::max(1, m_.min_interval);
  cumulative_.assign(1, m_.overlapping_pairs);
  for (double c : m_.gap_counts) cumulative_.push_back(cumulative_.back() + c);
  // g beyond s0: its mean over the upper half of the measured gaps
  const int nbins = static_cast<int>(m_.gap_counts.size());
  const int half = nbins / 2;
  const double upper_pairs = cumulative_[nbins] - cumulative_[half];
  const double width = m_.skin * (nbins - half) / nbins;
  tail_density_ = upper_pairs / width;
  tail_gap_ = m_.skin - 0.5 * width;
  pairs0_ = cumulative_[nbins];
}

double SkinModel::pairs(double s) const
{
  const int nbins = static_cast<int>(m_.gap_counts.size());
  if (s >= m_.skin) {    // int_s0^s g, g(x) = g(tail) ((a + x)/(a + tail))^(d-1)
    const double a = m_.pair_distance, d = m_.dimension;
    const double shell = (std::pow(a + s, d) - std::pow(a + m_.skin, d)) / d;
    return cumulative_[nbins] + tail_density_ * shell / std::pow(a + tail_gap_, d - 1.0);
  }
  if (s <= 0.0) return cumulative_[0];
  const double x = s / m_.skin * nbins;    // linear within a bin
  const int b = std::min(static_cast<int>(x), nbins - 1);
  return cumulative_[b] + (x - b) * m_.gap_counts[b];
}

double SkinModel::interval(double s) const
{
  return std::max(static_cast<double>(m_.min_interval),
                  m_.steps_per_build * std::pow(s / m_.skin, 1.0 / m_.displacement_exponent));
}

double SkinModel::search_volume(double s) const
{
  return std::pow(m_.search_diameter + s, m_.dimension);
}

double SkinModel::build_seconds(double s) const
{
  const double psi = m_.build_volume_share;
  return m_.build_seconds * (1.0 - psi + psi * search_volume(s) / search_volume(m_.skin));
}

double SkinModel::step_seconds(double s) const
{
  const double phi = pairs0_ > 0.0 ? m_.pair_list_share : 0.0;
  const double pair =
      m_.pair_seconds * (1.0 - phi + (pairs0_ > 0.0 ? phi * pairs(s) / pairs0_ : 0.0));
  return pair + build_seconds(s) * std::max(1.0 / interval(s), m_.forced_rate) + m_.other_seconds;
}

double SkinModel::safe_floor(double safety) const
{
  return 2.0 * safety * m_.max_speed * m_.min_interval;
}

SkinAdvice advise_skin(const SkinSample &sample, const SkinPolicy &policy)
{
  if (!(policy.upper > 0.0)) throw std::invalid_argument("skin policy needs an upper bound");
  const SkinModel model(sample);
  const double s0 = sample.skin;
  SkinAdvice a;
  a.floor = model.safe_floor(policy.safety);
  const double lo = std::max(a.floor, 1.0e-6 * s0);
  const double hi = std::max(policy.upper, lo);
  a.current_step_seconds = model.step_seconds(s0);
  a.optimum = lo;
  a.optimum_step_seconds = model.step_seconds(lo);
  for (int k = 1; k <= kSkinScanPoints; ++k) {
    const double s = lo + (hi - lo) * k / kSkinScanPoints;
    const double t = model.step_seconds(s);
    if (t < a.optimum_step_seconds) {
      a.optimum = s;
      a.optimum_step_seconds = t;
    }
  }
  if (s0 < a.floor)
    a.next = a.floor;    // exactness first, however far
  else if (a.gain() < policy.min_gain)
    a.next = s0;
  else
    a.next = std::clamp(a.optimum, std::max(lo, s0 / (1.0 + policy.max_step)),
                        s0 * (1.0 + policy.max_step));
  a.next_step_seconds = model.step_seconds(a.next);
  return a;
}

}    // namespace hgrid
