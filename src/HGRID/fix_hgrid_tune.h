/* -*- c++ -*- ----------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#ifdef FIX_CLASS
// clang-format off
FixStyle(hgrid/tune,FixHGridTune);
// clang-format on
#else

#ifndef LMP_FIX_HGRID_TUNE_H
#define LMP_FIX_HGRID_TUNE_H

#include "fix.h"

#include "libhgrid/planner.h"
#include "libhgrid/skin_model.h"

namespace LAMMPS_NS {

/* Re-levels the hierarchical grid of "neighbor ... hgrid" during a run: every N
   steps (at the next reneighboring) and immediately when a particle no longer fits
   the top level, the planner (HGridPlanner) evaluates the cost model on the current
   radius histogram for the current layout and for the optimum and re-levels by
   hgrid::decide_relevel (predicted gain above the threshold, or an overflow).
   Changes happen in pre_exchange() of a reneighboring step, before atoms migrate
   and ghosts are sent (so they go out to the new plan's cutoffs); the old list,
   from which fix neigh/history harvests contact history, is not touched, and the
   new list is built from the new plan.
   This class holds the options, the schedule, the K fit and the restart data; it
   hands settings to the planner and never touches bins or lists.
   With "skin auto" it also chooses the skin (hgrid::advise_skin): every N steps,
   after a rebuild, from the rebuild interval, build and pair time it measured since
   the last advice and the gaps of the pair list's pairs; the new skin takes effect
   at the next rebuild, before atoms migrate (Neighbor::reset_skin).  That part
   works under neighbor style bin as well. */

class FixHGridTune : public Fix {
 public:
  FixHGridTune(class LAMMPS *, int, char **);
  ~FixHGridTune() override;
  int setmask() override;
  void init() override;
  void setup(int) override;
  void setup_pre_exchange() override;
  void pre_exchange() override;
  void post_neighbor() override;
  void end_of_step() override;
  double compute_vector(int) override;
  void write_restart(FILE *) override;
  void restart(char *) override;

 private:
  class HGridPlanner *planner;
  hgrid::PlanSettings settings;    // method, search, maxlevels, K handed to the planner
  hgrid::RelevelPolicy policy;
  hgrid::KCalibration kfit;
  int nevery, k_auto, verbose;
  int has_layout;          // 1 once a layout was applied or read from a restart
  hgrid::Layout layout;    // last layout applied
  bigint last_tune;
  int nrelevel;
  double cost_current, cost_optimal;    // predicted T/N at the last evaluation
  double tune_time, relevel_time;       // seconds in all checks, in the last re-level

  // skin auto: the window of measurements since the last advice
  struct SkinWindow {
    bigint first_step = 0;
    int builds = 0, triggered = 0;                 // rebuilds, those a displacement triggered
    double neigh = 0.0, pair = 0.0, wall = 0.0;    // timer and wall clock at its start
    double max_speed = 0.0;                        // largest displacement per step seen
    // wall time of steps with and without a rebuild (end_of_step to end_of_step)
    double rebuild_wall = 0.0, plain_wall = 0.0, last_end = -1.0;
    int rebuild_steps = 0, plain_steps = 0;
    // displacement exponent: ln(d(n)/d(m)) and ln(n/m) summed over rebuilds at n steps,
    // m the last power of two before n at which the largest displacement d was probed
    double beta_num = 0.0, beta_den = 0.0, probe_disp = 0.0;
    bigint probe_lag = 0;
    bigint ndanger = 0;    // Neighbor::ndanger at its start
  } window;
  int skin_auto;
  hgrid::SkinPolicy skin_policy;
  hgrid::SkinAdvice skin_advice;
  double skin_pending;    // skin for the next rebuild, 0 if none
  double skin_input;      // skin of the neighbor command (the first run's)
  int skin_moves;
  int nlocal_built;      // owned atoms at the last build
  double touched_sum;    // keeps measure_list's reads of per-atom arrays from being dropped

  void init_skin_auto();
  double skin_upper_bound();
  void start_window();
  void note_rebuild();
  bool max_displacement(double &dmax);
  void apply_pending_skin();
  void advise_skin();
  hgrid::SkinSample skin_sample();
  double measure_list(hgrid::SkinSample &sample, double &npairs);
  double search_share();
  double rebuild_seconds(double neigh_per_build) const;
  void log_skin(const hgrid::SkinSample &sample);
  void parse_option(const std::string &key, const std::string &value, int iarg);
  void hand_settings();
  void tune(int scheduled);
  void log_relevel(const hgrid::Layout &from, const hgrid::Decision &decision);
  void calibrate_k();
};

}    // namespace LAMMPS_NS

#endif
#endif
