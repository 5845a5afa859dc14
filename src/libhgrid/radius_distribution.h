/* hgrid: particle radius distributions for the cost model.

   The model (Krijgsman, Ogarko & Luding 2014, Sects. 3-4) needs only integrals
   of the normalized density f(r) (eq. 28) times small powers of r over radius
   intervals: moment(k, a, b) = int_a^b r^k f(r) dr for k = 0..3. */

#ifndef HGRID_RADIUS_DISTRIBUTION_H
#define HGRID_RADIUS_DISTRIBUTION_H

#include <vector>

namespace hgrid {

/// Highest power of r the model needs (d = 3).
constexpr int kMaxMoment = 3;

/// A normalized radius density f(r) with support [r_min, r_max].
class RadiusDistribution {
 public:
  virtual ~RadiusDistribution() = default;
  /// \brief int_a^b r^k f(r) dr, 0 <= k <= kMaxMoment; the interval is clipped to
  /// the support and an empty interval gives 0.
  [[nodiscard]] virtual double moment(int k, double a, double b) const = 0;
  [[nodiscard]] virtual double r_min() const = 0;
  [[nodiscard]] virtual double r_max() const = 0;
  /// int r^k f(r) dr over the whole support.
  [[nodiscard]] double moment(int k) const { return moment(k, r_min(), r_max()); }
  /// \brief moment(k, a, b) for k = 0..kMaxMoment at once, into \p out (the cost
  /// model needs them together; a histogram finds each bound's bin once).
  virtual void moments(double a, double b, double out[kMaxMoment + 1]) const;
};

/// x^n for a small n >= 0 by multiplication (the model's powers are integers <= 4).
[[nodiscard]] inline double int_power(double x, int n)
{
  double p = 1.0;
  for (int i = 0; i < n; ++i) p *= x;
  return p;
}

/// Truncated power law f(r) = C r^alpha on [r_min, r_max] (eqs. 29-30); any alpha,
/// including alpha = -1 and alpha = -k-1 (logarithmic integrals).
class PowerLaw : public RadiusDistribution {
 public:
  /// \throws std::invalid_argument unless 0 < r_min <= r_max.
  PowerLaw(double alpha, double r_min, double r_max);
  using RadiusDistribution::moment;
  [[nodiscard]] double moment(int k, double a, double b) const override;
  [[nodiscard]] double r_min() const override { return rmin_; }
  [[nodiscard]] double r_max() const override { return rmax_; }
  [[nodiscard]] double alpha() const { return alpha_; }
  /// normalization constant C of eq. (30)
  [[nodiscard]] double normalization() const { return c_; }

 private:
  double alpha_, rmin_, rmax_, c_;
};

/// Bins evenly spaced in log r over [r_min, r_max], widened by a relative 1e-9 so that
/// the extreme radii fall inside and equal radii still give a non-empty range.
class LogBinning {
 public:
  /// \throws std::invalid_argument unless 0 < r_min <= r_max and bins >= 1.
  LogBinning(double r_min, double r_max, int bins);
  /// bin of radius \p r, clamped to 0..bins-1
  [[nodiscard]] int index(double r) const;
  [[nodiscard]] std::vector<double> edges() const;
  [[nodiscard]] int bins() const { return bins_; }

 private:
  double lo_, logratio_;
  int bins_;
};

/// Empirical distribution: a histogram of radii, uniform density inside each bin.
/// Monodisperse data (all radii equal) becomes one narrow bin around the radius.
class Histogram : public RadiusDistribution {
 public:
  /// \brief Bins [edges[i], edges[i+1]) with weights[i] >= 0 (normalized here).
  /// \throws std::invalid_argument for unsorted edges, size mismatch or zero weight.
  Histogram(std::vector<double> edges, std::vector<double> weights);
  /// \brief Histogram of \p radii with \p bins bins evenly spaced in log r.
  [[nodiscard]] static Histogram from_radii(const std::vector<double> &radii, int bins = 256);

  using RadiusDistribution::moment;
  [[nodiscard]] double moment(int k, double a, double b) const override;
  void moments(double a, double b, double out[kMaxMoment + 1]) const override;
  [[nodiscard]] double r_min() const override { return edges_.front(); }
  [[nodiscard]] double r_max() const override { return edges_.back(); }
  [[nodiscard]] const std::vector<double> &edges() const { return edges_; }
  [[nodiscard]] const std::vector<double> &weights() const { return weights_; }

 private:
  std::vector<double> edges_, weights_;
  std::vector<double> cumulative_[kMaxMoment + 1];    // int_{r_min}^{edge_i} r^k f(r) dr
  // one moment: the hot path of the constant-ratio bisection (moment(0, ...))
  [[nodiscard]] double cumulative(int k, double x) const;
  // cumulative(k, x) for every k, one bin search (the cost model's evaluate())
  void cumulatives(double x, double out[kMaxMoment + 1]) const;
};

}    // namespace hgrid

#endif
