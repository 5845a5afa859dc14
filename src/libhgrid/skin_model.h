/* hgrid: the neighboring distance (skin) chosen from what a run measures.

   A Verlet list reaches r_i + r_j + s.  A larger skin s makes rebuilds rarer (an
   atom must move s/2 before the list is stale) and every step dearer (more pairs in
   the list, and a larger search per build).  Rocky DEM's two-stage contact detection
   names the same trade-off ("neighboring distance") and chooses it internally; here
   it follows from what the run measures at the running skin s0:

     n0   steps between rebuilds,
     B0   seconds a rebuild adds to a step (the list build, and the migration,
          ghosts and history harvesting that come with it),
     P0   pair seconds per step, over N0 pairs in the list, N_c of them overlapping,
     g(x) the list's pairs by gap x = |x_i - x_j| - r_i - r_j in [0, s0],

   and a model of each as a function of s:

     list pairs     N(s) = N_c + int_0^s g           (N_c: overlapping pairs; beyond s0
                                                      g grows as the shell area of a pair,
                                                      (a + x)^(d-1), from its mean over
                                                      [s0/2, s0]; a: mean r_i + r_j)
     pair time      P(s) = P0 (1 - phi + phi N(s)/N0) (phi: the share of P0 that goes
                                                      with the list's pairs; the rest goes
                                                      with atoms and contacts)
     rebuild every  n(s) = max(n_min, n0 (s/s0)^(1/beta))
                                                     (the largest displacement grows as
                                                      n^beta with the steps n since a build:
                                                      1 ballistic, 1/2 diffusive, measured;
                                                      n_min = max(every, delay))
     build time     B(s) = B0 (1 - psi + psi V(s)/V(s0)), V(s) = (c + s)^d
                                                     (psi: the share of B0 that goes with
                                                      the search volume of a particle of
                                                      cutoff diameter c + s in d dimensions)
     step time      T(s) = P(s) + B(s) max(1/n(s), F) + O
                                                     (O: the rest of a step; F: rebuilds per
                                                      step that no displacement triggered,
                                                      e.g. fix pour inserting atoms)

   phi and psi are measured in place (fix hgrid/tune: phi = t N0 / P0 with t the
   cost of a pair a larger skin adds, from timed passes over the list; psi = the
   search's share of the Neigh time, over B0); 1 is the cautious guess (all of P0
   and B0 grows with the skin).  A fit
   over windows at different skins would confuse the skin's effect with the run's
   own drift (a cooling gas has fewer contacts and a smaller skin later).
   advise_skin() minimises T over s and moves the skin toward the optimum by at most
   a factor (1 + max_step) per call.  It never goes below the safe floor
   s_min = 2 f v_max n_min (v_max: the largest displacement per step seen, f the
   safety factor): an atom then needs f times n_min steps to cover s/2, so no list
   is stale before LAMMPS checks it (a "dangerous build"). */

#ifndef HGRID_SKIN_MODEL_H
#define HGRID_SKIN_MODEL_H

#include <vector>

namespace hgrid {

/// Largest relative change of the skin per advice: s0/(1 + step) .. s0 (1 + step).
constexpr double kSkinMaxStep = 0.25;
/// s_min = 2 f v_max n_min: f, the margin on the largest displacement per step seen.
constexpr double kSkinSafetyFactor = 2.0;
/// The skin moves only for a predicted gain of at least this share of the step time.
constexpr double kSkinMinGain = 0.002;
/// Skins tried between the floor and the upper bound when minimising T(s).
constexpr int kSkinScanPoints = 400;

/// What a run measured at its current skin (averages over the last window of builds).
struct SkinSample {
  int dimension = 3;
  double skin = 0.0;                     ///< s0
  double steps_per_build = 1.0;          ///< n0, of the rebuilds a displacement triggered
  double displacement_exponent = 1.0;    ///< beta in d_max ~ n^beta, in [1/2, 1]
  double forced_rate = 0.0;              ///< F, other rebuilds per step
  int min_interval = 1;                  ///< n_min = max(every, delay), at least 1
  double max_speed = 0.0;                ///< v_max, largest displacement per step
  double build_seconds = 0.0;            ///< B0, what a rebuild adds to a step
  double pair_seconds = 0.0;             ///< P0, per step
  double pair_list_share = 1.0;          ///< phi, the share of P0 that follows N(s)
  double build_volume_share = 1.0;       ///< psi, the share of B0 that follows V(s)
  double other_seconds = 0.0;            ///< O, per step
  double search_diameter = 0.0;          ///< c in B(s) (bin: largest cutoff; hgrid: mean r_i + r_j)
  double overlapping_pairs = 0.0;        ///< N_c, list pairs with gap <= 0
  double pair_distance = 0.0;            ///< a, mean r_i + r_j of the list's pairs
  std::vector<double> gap_counts;        ///< list pairs by gap, equal bins over (0, s0]
};

/// Bounds of the skin and of its moves.
struct SkinPolicy {
  double max_step = kSkinMaxStep;
  double safety = kSkinSafetyFactor;
  double min_gain = kSkinMinGain;
  double upper = 0.0;    ///< largest skin allowed (> 0)
};

/// The model of the header comment, evaluated at a skin \p s.
class SkinModel {
 public:
  /// \throws std::invalid_argument for a sample without a positive skin, interval or gap bins.
  explicit SkinModel(const SkinSample &sample);
  [[nodiscard]] double pairs(double s) const;              ///< N(s)
  [[nodiscard]] double interval(double s) const;           ///< n(s)
  [[nodiscard]] double build_seconds(double s) const;      ///< B(s)
  [[nodiscard]] double step_seconds(double s) const;       ///< T(s)
  [[nodiscard]] double safe_floor(double safety) const;    ///< s_min

 private:
  SkinSample m_;
  std::vector<double> cumulative_;    // N(s) at the bin edges, from N_c
  double tail_density_ = 0.0;         // pairs per unit gap at tail_gap_
  double tail_gap_ = 0.0;             // 3 s0 / 4, the middle of [s0/2, s0]
  double pairs0_ = 0.0;               // N(s0)

  [[nodiscard]] double search_volume(double s) const;    // V(s)
};

/// The advice for the next window.
struct SkinAdvice {
  double optimum = 0.0;                 ///< argmin T(s) over [floor, upper]
  double next = 0.0;                    ///< the skin to use next (bounded move; s0 if not worth it)
  double floor = 0.0;                   ///< s_min
  double current_step_seconds = 0.0;    ///< T(s0)
  double optimum_step_seconds = 0.0;    ///< T(optimum)
  double next_step_seconds = 0.0;       ///< T(next)
  /// predicted gain of the optimum, (T(s0) - T(optimum)) / T(s0)
  [[nodiscard]] double gain() const
  {
    return current_step_seconds > 0.0 ? 1.0 - optimum_step_seconds / current_step_seconds : 0.0;
  }
};

/// \brief Minimise T(s) of \p sample and take a bounded step toward the optimum; a
/// skin below the safe floor is raised at once (to the floor, however far).
/// \throws std::invalid_argument as SkinModel, or for a policy without an upper bound.
[[nodiscard]] SkinAdvice advise_skin(const SkinSample &sample, const SkinPolicy &policy);

}    // namespace hgrid

#endif
