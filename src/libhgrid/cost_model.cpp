#include "cost_model.h"

#include "grid.h"

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace hgrid {

namespace {
  constexpr double PI = 3.14159265358979323846;

  double binomial(int n, int k)
  {
    double c = 1.0;
    for (int i = 1; i <= k; ++i) c = c * (n - k + i) / i;
    return c;
  }

  // int over cutoff radii rho in (lo, hi] of rho^k f for k = 0..3, with rho = r + sigma
  using Moments = std::array<double, kMaxMoment + 1>;
  Moments cutoff_moments(const RadiusDistribution &f, double sigma, double lo, double hi)
  {
    Moments m, out;
    f.moments(lo - sigma, hi - sigma, m.data());
    for (int k = 0; k <= kMaxMoment; ++k) {
      out[k] = 0.0;
      for (int i = 0; i <= k; ++i) out[k] += binomial(k, i) * int_power(sigma, k - i) * m[i];
    }
    return out;
  }

  // the fraction of particles with cutoff radius in (lo, hi]
  double cutoff_fraction(const RadiusDistribution &f, double sigma, double lo, double hi)
  {
    return f.moment(0, lo - sigma, hi - sigma);
  }

  // eq. (25) for cells of size sj and particles whose cutoff moments are m:
  // (2 rho / s_j + 2)^d averaged over them, expanded in powers of rho
  double cells_in_reach(const Moments &m, double sj, int d)
  {
    if (m[0] <= 0.0) return 0.0;
    double sum = 0.0;
    for (int k = 0; k <= d; ++k)
      sum += binomial(d, k) * int_power(2.0, d - k) * int_power(2.0 / sj, k) * m[k];
    return sum / m[0];
  }

  // V_d, the volume of the unit d-sphere (eq. 6)
  double unit_sphere_volume(int d)
  {
    return d == 2 ? PI : 4.0 / 3.0 * PI;
  }

  void check(const SystemParams &p)
  {
    if (p.dimension != 2 && p.dimension != 3)
      throw std::invalid_argument("dimension must be 2 or 3");
    if (!(p.packing > 0.0) || !std::isfinite(p.packing))
      throw std::invalid_argument("packing fraction must be positive");
    if (!(p.skin >= 0.0)) throw std::invalid_argument("skin must be >= 0");
    if (!(p.K >= 0.0)) throw std::invalid_argument("K must be >= 0");
    if (!(p.storage >= 0.0)) throw std::invalid_argument("storage cost must be >= 0");
    if (p.single_level_subdivisions < 1 || p.single_level_subdivisions > kMaxSubdivisions)
      throw std::invalid_argument("single-level subdivisions must be 1 to " +
                                  std::to_string(kMaxSubdivisions));
    if (!(p.subcell_visit_cost >= 0.0) || !(p.one_level_visit_cost >= 0.0))
      throw std::invalid_argument("sub-cell and one-level visit costs must be >= 0");
    if (!(p.check_scale > 0.0) || !std::isfinite(p.check_scale))
      throw std::invalid_argument("check scale must be positive");
  }

  // cutoff-radius interval of level h: (s_{h-1}/2, s_h/2], level 0 from 0
  double level_lo(const Layout &layout, int h)
  {
    return h == 0 ? 0.0 : 0.5 * layout.cell_sizes[h - 1];
  }
  double level_hi(const Layout &layout, int h)
  {
    return 0.5 * layout.cell_sizes[h];
  }
}    // namespace

int same_level_cells(int dimension, int subdivisions)
{
  const double edge = 1.0 / subdivisions;    // sub-cells of a level of size 1
  return stencil_cells(
      stencil_rows(dimension, subdivisions, {edge, edge, edge}, 1.0, StencilKind::Full));
}

int model_subdivisions(const Layout &layout, const SystemParams &params)
{
  // only the default of a one-level layout differs from the grid's (subdivisions_of)
  if (layout.num_levels() == 1 && layout.subdivisions == 0) return params.single_level_subdivisions;
  return subdivisions_of(layout);
}

double visit_weight(const Layout &layout, const SystemParams &params)
{
  if (model_subdivisions(layout, params) > 1) return params.subcell_visit_cost;
  return layout.num_levels() == 1 ? params.one_level_visit_cost : 1.0;
}

SystemParams SystemParams::of_dimension(int d)
{
  const MeasuredCosts &m = d == 2 ? kMeasuredCosts2d : kMeasuredCosts3d;
  SystemParams p;
  p.dimension = d;
  p.K = m.K;
  p.one_level_visit_cost = m.one_level;
  p.subcell_visit_cost = m.subcell;
  p.storage = m.storage;
  return p;
}

double cutoff_diameter_min(const RadiusDistribution &f, const SystemParams &p)
{
  return 2.0 * f.r_min() + p.skin;
}

double cutoff_diameter_max(const RadiusDistribution &f, const SystemParams &p)
{
  return 2.0 * f.r_max() + p.skin;
}

double particles_per_cell(double s_lo, double s_hi, const RadiusDistribution &f,
                          const SystemParams &params)
{
  const int d = params.dimension;
  const double fraction = cutoff_fraction(f, 0.5 * params.skin, 0.5 * s_lo, 0.5 * s_hi);
  return params.packing * int_power(s_hi, d) / (unit_sphere_volume(d) * f.moment(d)) * fraction;
}

double cross_level_cells(const Layout &layout, const RadiusDistribution &f,
                         const SystemParams &params, int j, int h)
{
  const Moments m = cutoff_moments(f, 0.5 * params.skin, level_lo(layout, h), level_hi(layout, h));
  return cells_in_reach(m, layout.cell_sizes[j], params.dimension);
}

Cost evaluate(const Layout &layout, const RadiusDistribution &f, const SystemParams &params)
{
  check(params);
  const int L = layout.num_levels();
  if (L < 1) throw std::invalid_argument("layout has no levels");
  const int d = params.dimension;
  const double sigma = 0.5 * params.skin;
  const double particle_volume = unit_sphere_volume(d) * f.moment(d);    // eq. (6)
  const bool topdown = layout.search == Search::TopDown;
  // same-level search: the half stencil of k^d sub-cells per cell (eqs. 23-24 with
  // n_c = (3^d - 1)/2 for k = 1, the (2k+1)^d block pruned by distance for k > 1)
  const int k = model_subdivisions(layout, params);
  const double subcells = int_power(k, d);
  const double nc = 0.5 * (same_level_cells(d, k) - 1);

  Cost cost;
  cost.levels.resize(L);
  std::vector<Moments> moments(L);    // cutoff moments of each level's particles
  for (int h = 0; h < L; ++h) {       // eqs. (9), (11); C_h
    LevelCost &lc = cost.levels[h];
    moments[h] = cutoff_moments(f, sigma, level_lo(layout, h), level_hi(layout, h));
    lc.fraction = moments[h][0];
    const double cell_volume_fraction =
        params.packing * int_power(layout.cell_sizes[h], d) / particle_volume;
    lc.per_cell = cell_volume_fraction * lc.fraction;
    lc.cells = subcells / cell_volume_fraction;
    cost.cells += lc.cells;
  }
  for (int h = 0; h < L; ++h) {    // eqs. (23)-(26)
    LevelCost &lc = cost.levels[h];
    if (lc.fraction <= 0.0) continue;
    double checks = (0.5 + nc) * lc.per_cell / subcells, visits = 1.0 + nc;
    const int jlo = topdown ? 0 : h + 1, jhi = topdown ? h : L;
    for (int j = jlo; j < jhi; ++j) {
      const double b = cells_in_reach(moments[h], layout.cell_sizes[j], d);    // eq. (25)
      checks += cost.levels[j].per_cell * b;
      visits += b;
    }
    lc.distance_checks = params.check_scale * lc.fraction * checks;
    lc.cell_visits = lc.fraction * visits;
    cost.distance_checks += lc.distance_checks;
    cost.cell_visits += lc.cell_visits;
  }
  cost.total = cost.distance_checks + params.K * visit_weight(layout, params) * cost.cell_visits +
      params.storage * cost.cells;    // eq. (27) and hgrid's storage term
  return cost;
}

}    // namespace hgrid
