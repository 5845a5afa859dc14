/* hgrid: the plan of a hierarchical grid and the decisions that make it.

   A Plan is everything the builders need: the layout (levels, cell sizes, search
   direction), the cost model's prediction for it and the ghost size classes.  It is
   made in one place (the LAMMPS-facing HGridPlanner) from
     - the all-rank radius histogram and the box (SystemParams: d, nu, skin),
     - the user's settings (PlanSettings: neighbor keywords, fix hgrid/tune options),
     - measured build timings (KCalibration: the cell-access cost K of eq. 27),
   and handed one way to the bins, stencils and pair builders.

   This header holds the pure parts: the optimum and its cache key, the re-level
   decision of fix hgrid/tune (threshold, headroom) and the K fit. */

#ifndef HGRID_PLANNER_H
#define HGRID_PLANNER_H

#include "cost_model.h"
#include "layout.h"
#include "optimizer.h"
#include "radius_distribution.h"

#include <array>
#include <functional>
#include <vector>

namespace hgrid {

/// What the user asked for: the keywords after `neighbor SKIN hgrid` and, when it is
/// defined, the options of fix hgrid/tune.
struct PlanSettings {
  std::vector<double> cell_sizes;      ///< explicit levels; empty: the cost model's
  int subdivisions = 0;                ///< sub-cells of one explicit level (0: the default)
  bool auto_search = true;             ///< the model chooses the search direction
  Search search = Search::BottomUp;    ///< used when !auto_search
  Method method = Method::Optimal;     ///< how the model places the cell sizes
  int max_levels = kMaxLevels;
  /// cell access cost per distance check (eq. 27); 0: the measured one of the
  /// system's dimension (SystemParams::of_dimension)
  double K = 0.0;
  bool keep_layout = false;    ///< keep the current layout across runs while it fits

  /// K for a system of dimension \p d: K, else the dimension's measured one
  [[nodiscard]] double cell_access_cost(int d) const
  {
    return K > 0.0 ? K : SystemParams::of_dimension(d).K;
  }
};

/// The plan all builders work from.
struct Plan {
  Layout layout;
  Cost predicted;                      ///< model prediction (total 0: no model applies)
  std::vector<double> ghost_bounds;    ///< ghost size classes, ghost_classes(layout, cmin)
  double cmin = 0.0, cmax = 0.0;       ///< smallest and largest cutoff diameter planned for
};

/// Ratio of the top level to the finest above which atoms are best sorted along a Morton
/// curve of the finest cells: LAMMPS' own sort bins (half the largest cutoff, i.e. ~half
/// the top level) then hold >= 4^d fine cells in no order, and a large particle's
/// partners span many rows of fine cells.  Measured (examples/benchmarks/in.bench, 3d,
/// N = 1e5-1e6, against atom_modify sort with LAMMPS' default bin size): top/finest 20
/// -> pair time -20 to -30 %, 7 -> -3 %, 4 or one level -> +3 to +12 % (LAMMPS'
/// row-by-row bins are better there).
inline constexpr double kMortonSortRatio = 8.0;

/// \brief Size of the bins of the Morton-order atom sort hgrid offers for \p layout (its
/// finest cell size), or 0 where LAMMPS' own sort suits it better (kMortonSortRatio).
[[nodiscard]] double sort_bin_size(const Layout &layout);

/// \brief Complete a plan for \p layout: the prediction on \p f (none if null) and the
/// ghost classes from \p cmin.
[[nodiscard]] Plan make_plan(const Layout &layout, const Histogram *f, const SystemParams &params,
                             double cmin, double cmax);

/// \brief The model's optimal layout (eq. 27 minimized over levels, sizes and, if
/// settings.auto_search, the search direction) with a top level of at least \p cmax;
/// one level of size \p cmax when \p f is null (monodisperse or empty system).
/// With \p near (a running layout) and the optimal method, the optimum near it
/// (refine_layout: its level count +-1), for re-levels during a run.
[[nodiscard]] Layout optimal_layout(const Histogram *f, const SystemParams &params,
                                    const PlanSettings &settings, double cmax,
                                    const Layout *near = nullptr);

/// Everything optimal_layout() depends on, as a cache key.
[[nodiscard]] std::vector<double> optimum_key(const Histogram *f, const SystemParams &params,
                                              const PlanSettings &settings, double cmax,
                                              const Layout *near = nullptr);

/// \brief The search direction the model predicts the cheaper for the cell sizes of
/// \p layout on \p f (eq. 27); the layout's own direction when \p f is null.
[[nodiscard]] Search cheaper_search(const Layout &layout, const Histogram *f,
                                    const SystemParams &params);

/// \brief Layout for a run setup: the current one if settings.keep_layout and it fits
/// \p cmax, else the explicit levels (validated; with settings.auto_search in the
/// direction cheaper_search() finds for them on \p f), else optimum() (called only then).
/// \throws std::invalid_argument for explicit levels that do not fit.
[[nodiscard]] Layout layout_for_run(const PlanSettings &settings, const Layout &current,
                                    double cmax, const std::function<Layout()> &optimum,
                                    const Histogram *f, const SystemParams &params);

/// When fix hgrid/tune replaces the layout during a run.
struct RelevelPolicy {
  double threshold = 0.1;    ///< relative predicted gain needed (hysteresis against noise)
  double headroom = 0.25;    ///< after an overflow the new top exceeds cmax by this much of
                             ///< the size range, so growing particles do not force a
                             ///< re-level at every reneighboring
};

enum class Relevel { None, Overflow, Gain };

struct Decision {
  Relevel action = Relevel::None;
  double cost_current = 0.0;    ///< predicted T/N of the current layout (0: it does not fit)
  double cost_optimal = 0.0;    ///< predicted T/N of the optimum
};

/// True if a particle of cutoff diameter \p cmax no longer fits the top level.
[[nodiscard]] bool overflows(const Layout &current, double cmax);

/// \brief The top cutoff diameter the optimum is planned for: \p cmax, or with the
/// policy's headroom above it when \p current overflows.
[[nodiscard]] double planned_top(const Layout &current, double cmin, double cmax,
                                 const RelevelPolicy &policy);

/// \brief Re-level decision: always when \p current overflows (and \p optimal differs),
/// otherwise only if \p optimal is predicted faster than \p current by more than the
/// threshold on \p f.
[[nodiscard]] Decision decide_relevel(const Layout &current, const Layout &optimal,
                                      const Histogram *f, const SystemParams &params, double cmax,
                                      const RelevelPolicy &policy);

/// \brief SystemParams::check_scale after a build of a layout whose prediction
/// \p predicted was made with scale \p current: the build's distance checks and cell
/// visits per particle (\p checks, \p visits) against the prediction.  Checks are
/// compared relative to visits, which eqs. (24)/(26) predict within a few per cent for
/// any arrangement of the particles, so that what multiplies both (lists that search
/// both ways, ghost atoms) cancels.  \p current while that ratio is within
/// kCheckScaleTolerance of 1 (random gases measure 0.97-1.03) or nothing was counted,
/// else \p current times it, within [kMinCheckScale, kMaxCheckScale].
[[nodiscard]] double calibrated_check_scale(double checks, double visits, const Cost &predicted,
                                            double current);
constexpr double kCheckScaleTolerance = 0.25;
constexpr double kMinCheckScale = 0.5, kMaxCheckScale = 8.0;

/// \brief Least-squares fit of measured build times, t = a checks + b visits, with
/// exponential forgetting; K = b / a (eq. 27's ratio of a cell access to a check).
class KCalibration {
 public:
  /// Weight of the previous sums when a build is added.
  static constexpr double kMemory = 0.9;
  /// Accepted range of a fitted K.
  static constexpr double kMin = 0.01, kMax = 10.0;
  /// The fit is used only if the samples are this far from collinear.
  static constexpr double kMinCondition = 1.0e-6;

  /// The products {c c, c v, v v, t c, t v} of one build (summed over ranks by the caller).
  [[nodiscard]] static std::array<double, 5> products(double checks, double visits, double time);
  /// Add one build's (rank-summed) products.
  void add(const std::array<double, 5> &products);
  /// \brief Fitted K in [kMin, kMax]; false (and \p K unchanged) while the fit is
  /// ill-conditioned or a coefficient is not positive.
  bool estimate(double &K) const;

 private:
  std::array<double, 5> sums_{};
};

}    // namespace hgrid

#endif
