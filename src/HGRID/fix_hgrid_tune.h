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
   With "skin auto" it also owns the skin's tuner (HGridSkinTuner), which it calls on
   the same schedule; that part works under neighbor style bin as well. */

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

  int skin_auto;
  class HGridSkinTuner *skin;    // skin auto's tuner, nullptr without skin auto
  void parse_option(const std::string &key, const std::string &value, int iarg);
  void hand_settings();
  void tune(int scheduled);
  void log_relevel(const hgrid::Layout &from, const hgrid::Decision &decision);
  void calibrate_k();
};

}    // namespace LAMMPS_NS

#endif
#endif
