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

#include "libhgrid/layout.h"
#include "libhgrid/optimizer.h"

namespace LAMMPS_NS {

/* Re-levels the hierarchical grid of "neighbor ... hgrid" during a run: every N
   steps (at the next reneighboring) and immediately when a particle no longer fits
   the top level, the cost model is evaluated on the current radius histogram for
   the current layout and for the optimum; the optimum replaces the current layout
   when its predicted gain exceeds the threshold, or when the top level is too
   small.  Changes happen in pre_neighbor(), i.e. after fix neigh/history has
   harvested contact history from the old list and before the new list is built.
   NBinHGrid asks this fix for the layout and model settings at every run setup. */

class FixHGridTune : public Fix {
 public:
  FixHGridTune(class LAMMPS *, int, char **);
  int setmask() override;
  void init() override;
  void setup_pre_neighbor() override;
  void pre_neighbor() override;
  double compute_vector(int) override;
  void write_restart(FILE *) override;
  void restart(char *) override;

  // settings NBinHGrid uses when it chooses a layout
  hgrid::Method method;
  int auto_search;           // 1: the model chooses the search direction
  hgrid::Search search;      // used if auto_search = 0
  int maxlevels;
  double K;                  // cell visit cost per distance check (eq. 27)
  int has_layout;            // 1 once a layout was applied or read from a restart
  hgrid::Layout layout;      // last layout applied

 private:
  int nevery;
  double threshold;          // relative predicted gain needed to re-level
  int k_auto, verbose;
  bigint last_tune;
  int nrelevel;
  double cost_current, cost_optimal;    // predicted T/N at the last evaluation
  double ksums[5];                      // sums of c*c, c*v, v*v, t*c, t*v over builds

  class NBinHGrid *find_bins() const;
  void tune(int forced);
  void calibrate_k();
};

}    // namespace LAMMPS_NS

#endif
#endif
