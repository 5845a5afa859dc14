/* hgrid: cell-size distributions and the choice of the number of levels
   (Krijgsman, Ogarko & Luding 2014, Sect. 5).  All sizes are cutoff diameters:
   s_0 = 2 r_min + skin and s_L = 2 r_max + skin. */

#ifndef HGRID_OPTIMIZER_H
#define HGRID_OPTIMIZER_H

#include "cost_model.h"
#include "layout.h"
#include "radius_distribution.h"

#include <string>

namespace hgrid {

/// How the cell sizes of L levels are placed between s_0 and s_L.
enum class Method {
  Linear,           ///< s_h = s_0 + h (s_L - s_0)/L                          (eq. 34)
  Exponential,      ///< s_h = s_0 (s_L/s_0)^(h/L)                            (eq. 36)
  ConstantRatio,    ///< m_{h+1} = q m_h, solved numerically                  (eqs. 37-38)
  Optimal           ///< sizes minimizing T (eq. 27), s_h increasing
};

/// Ratio q of particles per cell on adjacent levels recommended by the paper (q = 1).
constexpr double kDefaultParticlesPerCellRatio = 1.0;

/// Largest number of levels the automatic choice considers.
constexpr int kMaxLevels = 64;

[[nodiscard]] const char *method_name(Method method);
/// \throws std::invalid_argument for an unknown name.
[[nodiscard]] Method method_from_name(const std::string &name);

/// \brief L levels by \p method between the cutoff diameters of \p f.
/// \throws std::invalid_argument for L < 1.
[[nodiscard]] Layout make_layout(Method method, int levels, Search search,
                                 const RadiusDistribution &f, const SystemParams &params,
                                 double q = kDefaultParticlesPerCellRatio);

/// \brief Minimize T over s_1..s_{L-1} (s_L fixed, sizes increasing), starting from
/// \p start; the result is never worse than \p start.
[[nodiscard]] Layout optimize_sizes(const Layout &start, const RadiusDistribution &f,
                                    const SystemParams &params);

/// A layout with its predicted cost.
struct Choice {
  Layout layout;
  Cost cost;
};

/// \brief \p layout with its cost; a one-level layout with the k (cells split into k^d
/// sub-cells, k = 1..params.single_level_subdivisions) of the lowest cost.
[[nodiscard]] Choice scored(Layout layout, const RadiusDistribution &f, const SystemParams &params);

/// \brief The number of levels (1..max_levels) and, if \p both_searches, the search
/// direction with the lowest T for \p method; otherwise \p search is kept.
[[nodiscard]] Choice best_layout(Method method, const RadiusDistribution &f,
                                 const SystemParams &params, Search search = Search::TopDown,
                                 bool both_searches = true, int max_levels = kMaxLevels,
                                 double q = kDefaultParticlesPerCellRatio);

/// \brief Re-level from \p near (the running layout): only 1..max_levels levels within
/// one of near's count and, if \p both_searches, both directions (else near's), each
/// started from near's sizes mapped onto the new range of cutoff diameters and
/// optimized (Method::Optimal).  Far cheaper than best_layout() while the
/// distribution drifts; the caller compares its cost with the current layout's.
/// \throws std::invalid_argument if \p near has no levels.
[[nodiscard]] Choice refine_layout(const Layout &near, const RadiusDistribution &f,
                                   const SystemParams &params, bool both_searches = true,
                                   int max_levels = kMaxLevels);

}    // namespace hgrid

#endif
