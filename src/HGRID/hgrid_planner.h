/* -*- c++ -*- ----------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#ifndef LMP_HGRID_PLANNER_H
#define LMP_HGRID_PLANNER_H

#include "pointers.h"

#include "libhgrid/pair_search.h"
#include "libhgrid/planner.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace LAMMPS_NS {

/* The one place where the plan of "neighbor SKIN hgrid" is made:
     settings (neighbor keywords, fix hgrid/tune) + all-rank radius histogram + box
       -> cost model (libhgrid/planner.h) -> hgrid::Plan
       -> comm: atom collections and ghost cutoffs by size class
       -> builders: NBinHGrid (cells), NStencilHGrid (rows), NPairHGrid (lists).
   Builders read plan() and report what they measured; they never see the fix, and
   fix hgrid/tune talks to this class only.  One instance per LAMMPS instance, kept in
   Neighbor::hgrid_state (deleted by Neighbor through hgrid_state_free) so that it outlives the NBin/NStencil/NPair objects. */

class HGridPlanner : protected Pointers {
 public:
  HGridPlanner(class LAMMPS *);
  static HGridPlanner *get(class LAMMPS *);
  static HGridPlanner *find(class LAMMPS *);    // nullptr if none (or Neighbor is gone)

  // run setup (NBinHGrid::copy_neighbor_info, before Comm::init)
  void setup_run();
  const hgrid::Plan &plan() const { return current; }
  double skin() const { return skin_; }    // neighbor skin + cohesion margin (pull-off)
  void release();                          // neighbor style hgrid is no longer used

  // fix hgrid/tune
  void set_tuning(const hgrid::PlanSettings &tuning);
  void clear_tuning();
  void restore_layout(const hgrid::Layout &layout);
  // re-level decision when scheduled or when an atom outgrew the top level (else none)
  std::optional<hgrid::Decision> retune(const hgrid::RelevelPolicy &policy, bool scheduled);
  // when a rebuild is due (NBinHGrid::rebuild_due()): the calibration of the model's
  // distance checks by builds of each plan (rebuilds 1, 10, 100, ...)
  void before_rebuild();
  double distance_check_scale() const { return check_scale; }
  // fix hgrid/tune skin auto: its last figures, for compute hgrid
  struct SkinReport {
    int active = 0;    // 1 while a fix hgrid/tune tunes the skin
    double optimum = 0.0, floor = 0.0, gain = 0.0, steps_per_build = 0.0, build_seconds = 0.0;
    int moves = 0;
  } skin_report;

  // what the builders are: hgrid's bins, and pair builds in which larger atoms also
  // search smaller levels (full lists, newton off); reset at every run setup
  void attach_bins(const class NBin *bins);
  void detach_bins(const class NBin *bins);
  // each pair build at run setup, after setup_run(): ghost cutoffs for its search
  void note_pair_build(bool two_way_search);
  bool two_way_search() const { return two_way; }
  bool kk_cell_order() const { return cell_order; }    // keyword kk/order cells
  // kk/host: on a host execution space the Kokkos lists are built by the device kernels
  // (true) or by the CPU builder (false, the default)
  bool kk_host_kernels() const { return host_kernels; }
  // neigh_modify one and page grown for a row longer than one (CPU lists)
  bool grow_row_room(int longest);
  static constexpr int PAGE_ROOMS = 10;       // Neighbor: page >= 10 one
  double kk_split_cells(bool on_gpu) const    // kk/split: cells, -1 for no
  {
    return split_cells != 0.0 ? split_cells : (on_gpu ? KK_SPLIT_CELLS : -1.0);
  }

  // measurements reported by the builders, and their all-rank values (collective)
  void report_build(const hgrid::SearchCounters &counters, double seconds);
  void report_cells(int ncells) { cells_stored = ncells; }
  const hgrid::SearchCounters &last_build() const { return counters; }
  double last_build_time() const { return build_seconds; }
  void counters_per_atom(double &checks, double &visits);
  void longest_thread(double &search, double &row, double &split);    // Kokkos builds; all ranks
  double cells_per_atom();

  // wall time of a rebuild's phases on this processor (the CPU builders): each atom's
  // cell, the sort into cells, the ghosts' search for owned partners (Top-Down half
  // lists) and the sort of what it found, the rows; summed over a rebuild's lists
  enum Phase { PHASE_CELLS, PHASE_SORT, PHASE_GHOSTS, PHASE_GHOST_SORT, PHASE_ROWS, NPHASES };
  void start_phases();    // a binning begins (NBinHGrid::bin_atoms): a new rebuild
  // adds the time since start to phase; returns the time now
  double end_phase(int phase, double start);
  // mean seconds per rebuild since the run's setup, the largest on any processor
  void phase_means(double *means);

 private:
  hgrid::PlanSettings user;               // from the neighbor command's keywords
  std::vector<std::string> user_words;    // the words user was parsed from
  bool cell_order = false;                // kk/order cells (Kokkos threads' order)
  bool host_kernels = false;              // kk/host kernels
  // a Kokkos search on a GPU that may read more cells of other levels than this is split
  // among threads (kk/split auto): about 12x the mean search at size ratio 100 (80 cells
  // + checks). On the host (OpenMP backend) splitting cost 9 % of the build (10^5
  // atoms, size ratio 100, newton off, 1 and 2 threads): auto does not split there
  static constexpr double KK_SPLIT_CELLS = 1024.0;
  double split_cells = 0.0;              // kk/split: 0 auto, -1 no, else cells
  bool calibrate_checks = true;          // calibrate yes|no (before_rebuild)
  int grown_room = 0, grown_page = 0;    // grow_row_room(): what it set, 0 before
  // Neighbor's defaults of neigh_modify one and page: a user who changed them keeps them
  static constexpr int LAMMPS_ONEATOM = 2000, LAMMPS_PGSIZE = 100000;
  std::optional<hgrid::PlanSettings> tuning;    // fix hgrid/tune's, while it is defined
  double skin_;
  hgrid::Plan current;
  int auto_mode;    // comm mode this class chose last, -1 if none
  int logged;       // 1 once the current plan was logged
  std::vector<double> optimum_key;
  hgrid::Layout optimum_result;
  hgrid::SearchCounters counters;
  double build_seconds;
  int cells_stored;
  double phase_seconds[NPHASES];
  bigint phase_rebuilds, phase_step;
  // the model's checks calibrated by a build (hgrid::calibrated_check_scale), kept across
  // runs; the rebuilds number 1, 10, 100, ... (CALIBRATION_SPACING) after each new plan
  // (plan_id) that was built (built_plan) calibrate again
  double check_scale = 1.0;
  int plan_id = 0, built_plan = -1;
  bigint plan_rebuilds = 0, next_calibration = 1, due_step = -1;
  static constexpr bigint CALIBRATION_SPACING = 10;
  // least predicted gain of a re-level after a calibration: the model counts the
  // build only, and the finer layout of a calibrated bed costs the pair style 5-10 %
  // more (more pairs across levels; pressed bed at omega 100: build -4.5 %, Pair +6 %
  // for a predicted gain of 3.4 %; a bed under empty space: build -19 % for 19 %)
  static constexpr double CALIBRATION_GAIN = 0.10;
  // fewer atoms are not calibrated: their builds are short, and the model's infinite
  // system fits a small box less well than a crowded bed misfits it
  static constexpr bigint CALIBRATION_ATOMS = 5000;
  std::vector<const class NBin *> bins;    // NBinHGrid instances
  int two_way;

  struct Refinement {
    std::unique_ptr<hgrid::Histogram> f;
    hgrid::SystemParams params;
    hgrid::Layout best;
  };
  Refinement refine(double cmin, double ctop);
  std::optional<hgrid::Decision> retune(const hgrid::RelevelPolicy &policy, bool scheduled,
                                        double cmin, double cmax);
  void relevel_outgrown();
  bool calibrate_check_scale(Refinement &r, double cmin, double ctop);
  void new_plan_made();
  void adopt(const Refinement &r, double cmin, double ctop);

  void parse_words();
  hgrid::PlanSettings settings() const;
  void cutoff_diameter_range(double &cmin, double &cmax);
  std::unique_ptr<hgrid::Histogram> radius_histogram(double cmin, double cmax,
                                                     hgrid::SystemParams &params);
  hgrid::Layout optimum(const hgrid::Histogram *f, const hgrid::SystemParams &params,
                        const hgrid::PlanSettings &s, double cmax,
                        const hgrid::Layout *near = nullptr);
  void choose_comm_mode(double cmin, double cmax);
  double ghost_shell_ratio() const;
  bool other_binned_lists() const;
  bool kernel_bins() const;
  void publish_collections();
  void offer_sort_bins();
  void log_plan(const hgrid::Histogram *f, const hgrid::SystemParams &params);
  std::string ghost_cutoffs_description() const;
};

}    // namespace LAMMPS_NS

#endif
