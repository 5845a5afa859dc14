/* -*- c++ -*- ----------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#ifndef LMP_HGRID_SKIN_TUNER_H
#define LMP_HGRID_SKIN_TUNER_H

#include "pointers.h"

#include "libhgrid/skin_model.h"

namespace LAMMPS_NS {

/* The skin choice of "fix hgrid/tune ... skin auto" (hgrid::advise_skin): every N
   steps, after a rebuild, from the rebuild interval, build and pair time it measured
   since the last advice and the gaps of the pair list's pairs; the new skin takes
   effect at the next rebuild, before atoms migrate (Neighbor::reset_skin).  Works
   under neighbor style bin as well.  FixHGridTune owns it and calls it from its
   schedule (pre_exchange, post_neighbor, end_of_step); it reports to the planner's
   SkinReport (compute hgrid). */

class HGridSkinTuner : protected Pointers {
 public:
  HGridSkinTuner(class LAMMPS *, class HGridPlanner *, int nevery, int verbose);
  void init();             // what skin auto needs; errors name what is missing
  void setup();            // run setup
  void pre_exchange();     // at a rebuild: note it, apply a skin advised earlier
  void post_neighbor();    // after a rebuild: start a window or advise
  void end_of_step();      // wall time of the step, displacement probes

 private:
  class HGridPlanner *planner;
  int nevery, verbose;

  // the window of measurements since the last advice
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
  hgrid::SkinPolicy skin_policy;
  hgrid::SkinAdvice skin_advice;
  double skin_pending;    // skin for the next rebuild, 0 if none
  double skin_input;      // skin of the neighbor command (the first run's)
  int skin_moves;
  int nlocal_built;      // owned atoms at the last build
  double touched_sum;    // keeps measure_list's reads of per-atom arrays from being dropped

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
};

}    // namespace LAMMPS_NS

#endif
