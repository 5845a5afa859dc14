#include "system.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace hgrid {
namespace methods {

  namespace {
    constexpr double kPi = 3.14159265358979323846;

    /// V_d: volume of the unit sphere (d = 3) or area of the unit disk (d = 2), eq. (6)
    double unit_volume(int dimension)
    {
      return dimension == 3 ? 4.0 * kPi / 3.0 : kPi;
    }

    /// uniform in [0, 1) from the raw 64-bit output (portable, unlike the std distributions)
    double uniform(std::mt19937_64 &rng)
    {
      return static_cast<double>(rng() >> 11) * 0x1.0p-53;
    }

    /// inverse transform of the truncated power law f ~ r^alpha on [a, b] at quantile u
    double power_law_radius(double alpha, double a, double b, double u)
    {
      if (b <= a) return a;
      const double k = alpha + 1.0;
      if (std::fabs(k) < 1.0e-12) return a * std::pow(b / a, u);    // f ~ 1/r
      const double ak = std::pow(a, k), bk = std::pow(b, k);
      return std::pow(ak + u * (bk - ak), 1.0 / k);
    }

    double draw_radius(const SystemSpec &s, std::mt19937_64 &rng)
    {
      const double a = s.r_min, b = s.omega * s.r_min, u = uniform(rng);
      switch (s.distribution) {
        case SizeDistribution::PowerLaw:
          return power_law_radius(s.alpha, a, b, u);
        case SizeDistribution::Uniform:
          return power_law_radius(0.0, a, b, u);
        case SizeDistribution::Sieve:
          return power_law_radius(-(s.dimension + 1.0), a, b, u);
        case SizeDistribution::Bidisperse: {
          // equal volumes: a fraction 1/(1 + omega^d) of the particles is large
          const double large = 1.0 / (1.0 + std::pow(s.omega, s.dimension));
          return u < large ? b : a;
        }
      }
      return a;
    }

    /// height in [0, H) with density 2 (1 - z/H) / H (the settled bed), inverse transform
    double settled_height(double H, double u)
    {
      return H * (1.0 - std::sqrt(1.0 - u));
    }
  }    // namespace

  const char *distribution_name(SizeDistribution dist)
  {
    switch (dist) {
      case SizeDistribution::PowerLaw:
        return "powerlaw";
      case SizeDistribution::Uniform:
        return "uniform";
      case SizeDistribution::Bidisperse:
        return "bidisperse";
      case SizeDistribution::Sieve:
        return "sieve";
    }
    return "?";
  }

  SizeDistribution distribution_from_name(const std::string &name)
  {
    for (auto d : {SizeDistribution::PowerLaw, SizeDistribution::Uniform,
                   SizeDistribution::Bidisperse, SizeDistribution::Sieve})
      if (name == distribution_name(d)) return d;
    throw std::invalid_argument("unknown distribution '" + name +
                                "' (powerlaw, uniform, bidisperse or sieve)");
  }

  const char *packing_name(Packing packing)
  {
    return packing == Packing::Random ? "random" : "settled";
  }

  Packing packing_from_name(const std::string &name)
  {
    if (name == "random") return Packing::Random;
    if (name == "settled") return Packing::Settled;
    throw std::invalid_argument("unknown packing '" + name + "' (random or settled)");
  }

  SystemSpec system_spec(int dimension, SizeDistribution distribution, double alpha, double omega,
                         double nu, int n, Packing packing, unsigned seed)
  {
    SystemSpec s;
    s.dimension = dimension;
    s.distribution = distribution;
    s.alpha = alpha;
    s.omega = omega;
    s.nu = nu;
    s.n = n;
    s.packing = packing;
    s.seed = seed;
    return s;
  }

  void validate(const SystemSpec &s)
  {
    if (s.dimension != 2 && s.dimension != 3)
      throw std::invalid_argument("dimension must be 2 or 3");
    if (!(s.omega >= 1.0) || !std::isfinite(s.omega))
      throw std::invalid_argument("omega must be finite and >= 1");
    if (!(s.nu > 0.0 && s.nu < 1.0)) throw std::invalid_argument("nu must lie in (0, 1)");
    if (!(s.r_min > 0.0) || !std::isfinite(s.r_min))
      throw std::invalid_argument("r_min must be positive");
    if (s.n < 2) throw std::invalid_argument("n must be at least 2");
    if (!std::isfinite(s.alpha)) throw std::invalid_argument("alpha must be finite");
  }

  double System::r_min() const
  {
    return r.empty() ? 0.0 : *std::min_element(r.begin(), r.end());
  }
  double System::r_max() const
  {
    return r.empty() ? 0.0 : *std::max_element(r.begin(), r.end());
  }

  double System::box_packing() const
  {
    double volume = 0.0;
    for (double ri : r) volume += unit_volume(dimension) * std::pow(ri, dimension);
    double box_volume = 1.0;
    for (int d = 0; d < dimension; ++d) box_volume *= box.hi[d] - box.lo[d];
    return volume / box_volume;
  }

  System generate(const SystemSpec &spec)
  {
    validate(spec);
    std::mt19937_64 rng(spec.seed);
    System s;
    s.dimension = spec.dimension;
    s.r.resize(spec.n);
    double volume = 0.0;
    for (double &ri : s.r) {
      ri = draw_radius(spec, rng);
      volume += unit_volume(spec.dimension) * std::pow(ri, spec.dimension);
    }
    // edge of the filled cube (square): L^d = total particle volume / nu
    const double L = std::pow(volume / spec.nu, 1.0 / spec.dimension);
    const int up = spec.dimension - 1;    // the vertical axis of a settled bed
    s.box.dimension = spec.dimension;
    s.box.lo = {0.0, 0.0, spec.dimension == 3 ? 0.0 : -0.5};
    s.box.hi = {L, L, spec.dimension == 3 ? L : 0.5};
    if (spec.packing == Packing::Settled) s.box.hi[up] = 2.0 * L;
    s.x.resize(spec.n);
    for (auto &xi : s.x) {
      xi = {0.0, 0.0, 0.0};
      for (int d = 0; d < spec.dimension; ++d) {
        const double u = uniform(rng);
        xi[d] = spec.packing == Packing::Settled && d == up ? settled_height(L, u) : L * u;
      }
    }
    s.fill_nu = volume / std::pow(L, spec.dimension);
    return s;
  }

}    // namespace methods
}    // namespace hgrid
