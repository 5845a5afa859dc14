/* ----------------------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#include "hgrid_planner.h"

#include "atom.h"
#include "comm.h"
#include "domain.h"
#include "error.h"
#include "fix.h"
#include "math_const.h"
#include "memory.h"
#include "modify.h"
#include "nbin_hgrid.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "npair.h"
#include "update.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

using namespace LAMMPS_NS;
using MathConst::MY_PI;

// bins of the radius histogram handed to the cost model
static constexpr int HISTOGRAM_BINS = 128;
// comm mode multi (ghosts by size class) where one ghost cutoff would bring at least
// this many ghosts per owned atom: below it the per-atom bookkeeping of the classes
// (every step) costs more than the ghosts they save.  Measured on 2-core runs of
// examples/benchmarks, N = 1e5, omega = 100, with the buckets of
// Neighbor::build_collection (Loop per step, mode multi against single): 2d alpha 0
// (0.019 ghosts per atom) +4 %, 2d alpha -2 (0.11) -3.5 % and 4 % less memory, 3d
// alpha 0 (0.13-0.18) within 1 % and 2-11 % less memory; N = 4e5, 2d alpha -2 (0.055)
// within 3 %, 5 % less memory.  (With the bisection alone single was 1-2 % faster at
// 0.11-0.18, and this ratio 0.3.)
static constexpr double MULTI_GHOST_RATIO = 0.05;

// all particles of one size (cutoff diameters within a relative 1e-6): one ghost size
// class, nothing for ghost cutoffs by size to save
static bool one_size(double cmin, double cmax)
{
  return !(cmax > cmin * (1.0 + 1.0e-6));
}

// diameter bound of the top atom collection: every larger atom belongs to it
static constexpr double UNBOUNDED = 1.0e300;
// cells along the longest box edge of the placeholder level of an empty box
static constexpr double EMPTY_BOX_CELLS = 16.0;

/* ---------------------------------------------------------------------- */

HGridPlanner::HGridPlanner(LAMMPS *lmp) :
    Pointers(lmp), skin_(0.0), auto_mode(-1), logged(0), build_seconds(0.0), cells_stored(0),
    phase_seconds(), phase_rebuilds(0), phase_step(-1), two_way(0)
{
}

/* ----------------------------------------------------------------------
   the planner of this LAMMPS instance, created on first use
------------------------------------------------------------------------- */

HGridPlanner *HGridPlanner::get(LAMMPS *lmp)
{
  Neighbor *neighbor = lmp->neighbor;
  if (!neighbor->hgrid_state) {
    neighbor->hgrid_state = new HGridPlanner(lmp);
    neighbor->hgrid_state_free = [](void *planner) {
      delete static_cast<HGridPlanner *>(planner);
    };
  }
  return static_cast<HGridPlanner *>(neighbor->hgrid_state);
}

HGridPlanner *HGridPlanner::find(LAMMPS *lmp)
{
  if (!lmp->neighbor) return nullptr;
  return static_cast<HGridPlanner *>(lmp->neighbor->hgrid_state);
}

/* ----------------------------------------------------------------------
   every run setup: settings, comm mode, then the plan for the atoms present
   (and the largest that fix pour / deposit may insert)
------------------------------------------------------------------------- */

void HGridPlanner::setup_run()
{
  // lists of cohesive granular pairs reach the largest pull-off distance further
  skin_ = neighbor->skin + neighbor->hgrid_margin;
  two_way = 0;    // the pair builders report it after this, in Neighbor::init()
  std::fill(phase_seconds, phase_seconds + NPHASES, 0.0);
  phase_rebuilds = 0;
  phase_step = -1;
  // triclinic boxes are refused by Neighbor::init() (core patch), before any class is chosen
  if (!atom->radius_flag)
    error->all(FLERR, Error::NOLASTLINE,
               "Neighbor style hgrid requires atoms with a radius (e.g. atom_style sphere)");
  parse_words();
  double cmin, cmax;
  cutoff_diameter_range(cmin, cmax);
  choose_comm_mode(cmin, cmax);
  const hgrid::PlanSettings s = settings();
  hgrid::SystemParams params;
  const auto f = radius_histogram(cmin, cmax, params);
  hgrid::Layout chosen;
  try {
    chosen = hgrid::layout_for_run(
        s, current.layout, cmax,
        [&] {
          return optimum(f.get(), params, s, cmax);
        },
        f.get(), params);
  } catch (std::invalid_argument &e) {
    error->all(FLERR, Error::NOLASTLINE, "Neighbor hgrid levels: {}", e.what());
  }
  if (chosen != current.layout) logged = 0;
  current = hgrid::make_plan(chosen, f.get(), params, cmin, cmax);
  new_plan_made();
  publish_collections();
  offer_sort_bins();
  log_plan(f.get(), params);
}

/* ----------------------------------------------------------------------
   keywords after "neighbor SKIN hgrid", parsed once per neighbor command:
     levels N s_1 ... s_N   explicit cell sizes, strictly increasing
     subcells K             one explicit level's cells split into K^d sub-cells
     search topdown|bottomup
     kk/host cpu|kernels    Kokkos on a host execution space (OpenMP, Serial): the rows
                            made by the CPU builder (cpu, the default) or by the kernels
                            a GPU runs (kernels: how the tests run those on the CPU)
     kk/order atoms|cells   which owned atom a Kokkos thread searches (NPairHGridKokkos)
     kk/split N|no|auto     Kokkos: searches that may read more than N cells are split
                            among threads; auto: KK_SPLIT_CELLS on a GPU, no on the host
                            (kk/order and kk/split set the kernels: on the host they
                            apply with kk/host kernels)
     calibrate yes|no       the model's distance checks calibrated by builds of each
                            plan (before_rebuild), default yes
------------------------------------------------------------------------- */

void HGridPlanner::parse_words()
{
  const std::vector<std::string> args(neighbor->hgrid_arg,
                                      neighbor->hgrid_arg + neighbor->hgrid_narg);
  if (args == user_words && !user_words.empty()) return;
  const int narg = args.size();
  user = hgrid::PlanSettings();
  user.auto_search = true;    // unless the search keyword is given
  cell_order = false;
  split_cells = 0.0;
  calibrate_checks = true;
  host_kernels = false;
  for (int iarg = 0; iarg < narg;) {
    const std::string &key = args[iarg];
    if (key == "levels") {
      if (iarg + 1 >= narg) error->all(FLERR, "Missing value for neighbor hgrid keyword levels");
      const int n = utils::inumeric(FLERR, args[iarg + 1], false, lmp);
      if (n < 1)
        error->all(FLERR, "Neighbor hgrid levels must be at least 1, got {}", args[iarg + 1]);
      if (iarg + 2 + n > narg)
        error->all(FLERR, "Neighbor hgrid levels {} needs {} cell sizes, found {}", n, n,
                   narg - iarg - 2);
      user.cell_sizes.clear();
      for (int h = 0; h < n; h++)
        user.cell_sizes.push_back(utils::numeric(FLERR, args[iarg + 2 + h], false, lmp));
      iarg += 2 + n;
    } else if (key == "subcells") {
      if (iarg + 1 >= narg) error->all(FLERR, "Missing value for neighbor hgrid keyword subcells");
      user.subdivisions = utils::inumeric(FLERR, args[iarg + 1], false, lmp);
      if (user.subdivisions < 1 || user.subdivisions > hgrid::kMaxSubdivisions)
        error->all(FLERR, "Neighbor hgrid subcells must be 1 to {}, got {}",
                   hgrid::kMaxSubdivisions, args[iarg + 1]);
      iarg += 2;
    } else if (key == "search") {
      if (iarg + 1 >= narg) error->all(FLERR, "Missing value for neighbor hgrid keyword search");
      try {
        user.search = hgrid::search_from_name(args[iarg + 1]);
      } catch (std::invalid_argument &e) {
        error->all(FLERR, "Unknown neighbor hgrid search direction: {}", args[iarg + 1]);
      }
      user.auto_search = false;
      iarg += 2;
    } else if (key == "kk/host") {
      if (iarg + 1 >= narg) error->all(FLERR, "Missing value for neighbor hgrid keyword kk/host");
      if (args[iarg + 1] != "cpu" && args[iarg + 1] != "kernels")
        error->all(FLERR, "Neighbor hgrid kk/host must be cpu or kernels, got {}", args[iarg + 1]);
      host_kernels = args[iarg + 1] == "kernels";
      iarg += 2;
    } else if (key == "kk/order") {
      if (iarg + 1 >= narg) error->all(FLERR, "Missing value for neighbor hgrid keyword kk/order");
      if (args[iarg + 1] != "atoms" && args[iarg + 1] != "cells")
        error->all(FLERR, "Neighbor hgrid kk/order must be atoms or cells, got {}", args[iarg + 1]);
      cell_order = args[iarg + 1] == "cells";
      iarg += 2;
    } else if (key == "kk/split") {
      if (iarg + 1 >= narg) error->all(FLERR, "Missing value for neighbor hgrid keyword kk/split");
      if (args[iarg + 1] == "no")
        split_cells = -1.0;
      else if (args[iarg + 1] == "auto")
        split_cells = 0.0;
      else {
        split_cells = utils::numeric(FLERR, args[iarg + 1], false, lmp);
        if (split_cells < 1.0)
          error->all(FLERR, "Neighbor hgrid kk/split must be auto, no or at least 1 cell, got {}",
                     args[iarg + 1]);
      }
      iarg += 2;
    } else if (key == "calibrate") {
      if (iarg + 1 >= narg) error->all(FLERR, "Missing value for neighbor hgrid keyword calibrate");
      calibrate_checks = utils::logical(FLERR, args[iarg + 1], false, lmp) == 1;
      iarg += 2;
    } else
      error->all(FLERR, "Unknown neighbor hgrid keyword: {}", key);
  }
  if (user.subdivisions && user.cell_sizes.size() != 1)
    error->all(FLERR, "Neighbor hgrid subcells needs one explicit level (levels 1 s)");
  user_words = args;
}

/* ----------------------------------------------------------------------
   the neighbor keywords, with fix hgrid/tune's options where it is defined
------------------------------------------------------------------------- */

hgrid::PlanSettings HGridPlanner::settings() const
{
  hgrid::PlanSettings s = user;
  if (tuning) {
    s = *tuning;
    s.cell_sizes = user.cell_sizes;    // explicit levels come from the neighbor command only
    s.subdivisions = user.subdivisions;
  }
  // the Kokkos kernels search Bottom-Up, which stores each cross-level pair in the
  // smaller particle's row (unless the user chose a direction): each thread writes its
  // own atom's row.  The CPU builder (Kokkos on the host, kk/host cpu) keeps the model's
  if (s.auto_search && kernel_bins()) {
    s.search = hgrid::Search::BottomUp;
    s.auto_search = false;
  }
  return s;
}

bool HGridPlanner::kernel_bins() const
{
  for (const NBin *b : bins)
    if (!static_cast<const NBinHGrid *>(b)->cpu_builds()) return true;
  return false;
}

void HGridPlanner::set_tuning(const hgrid::PlanSettings &t)
{
  tuning = t;
}

void HGridPlanner::clear_tuning()
{
  tuning.reset();
}

void HGridPlanner::restore_layout(const hgrid::Layout &layout)
{
  current.layout = layout;
  logged = 0;
}

/* ----------------------------------------------------------------------
   fix hgrid/tune: the model's optimum for the running distribution and the
   decision to re-level; a new plan takes effect at once (pre_exchange of a
   reneighboring step, before atoms migrate): ghost classes, comm setup, bins
   and stencils
------------------------------------------------------------------------- */

std::optional<hgrid::Decision> HGridPlanner::retune(const hgrid::RelevelPolicy &policy,
                                                    bool scheduled)
{
  double cmin, cmax;
  cutoff_diameter_range(cmin, cmax);
  return retune(policy, scheduled, cmin, cmax);
}

/* ----------------------------------------------------------------------
   the same for the cutoff diameters cmin..cmax of all atoms, already gathered
------------------------------------------------------------------------- */

std::optional<hgrid::Decision> HGridPlanner::retune(const hgrid::RelevelPolicy &policy,
                                                    bool scheduled, double cmin, double cmax)
{
  if (!scheduled && !hgrid::overflows(current.layout, cmax)) return std::nullopt;
  const double ctop = hgrid::planned_top(current.layout, cmin, cmax, policy);
  const Refinement r = refine(cmin, ctop);
  const hgrid::Decision decision =
      hgrid::decide_relevel(current.layout, r.best, r.f.get(), r.params, cmax, policy);
  if (decision.action == hgrid::Relevel::None) return decision;

  adopt(r, cmin, ctop);
  return decision;
}

/* ----------------------------------------------------------------------
   on every rank when Neighbor::decide() finds a rebuild due, before atoms
   migrate (NBinHGrid::rebuild_due(), core patch 0007): the 1st, 10th, 100th,
   ... rebuild after a plan of the cost model (a first build may see the
   lattice atoms were created on, a bed may form later) compares the last
   build's distance checks per cell visit with the prediction
   (hgrid::calibrated_check_scale) and,
   where they differ (a packed bed: small particles crowd into the gaps between
   large ones, 1.7-2.1x the checks of random positions), refines the layout
   with the measured scale (its level count +-1, as fix hgrid/tune: 3-5 ms at
   10^5 atoms, the whole optimum 25-38 ms) and re-levels where the calibrated
   model predicts a gain
------------------------------------------------------------------------- */

void HGridPlanner::before_rebuild()
{
  // each hgrid bin class calls this (NBinHGrid::rebuild_due): once per rebuild
  if (update->ntimestep == due_step) return;
  due_step = update->ntimestep;
  relevel_outgrown();
  if (built_plan != plan_id || ++plan_rebuilds < next_calibration) return;
  next_calibration *= CALIBRATION_SPACING;
  if (!calibrate_checks || neighbor->style != Neighbor::HGRID || !user.cell_sizes.empty() ||
      atom->natoms < CALIBRATION_ATOMS)
    return;
  const double start_time = platform::walltime();
  double cmin, cmax;
  cutoff_diameter_range(cmin, cmax);
  const double ctop = MAX(cmax, current.cmax);
  Refinement r;
  const double before = check_scale;
  if (!calibrate_check_scale(r, cmin, ctop)) return;
  // full and newton-off lists bin each level's ghosts out to (s_l + s_L)/2, which the
  // model does not count: a finer layout built them 6-8 % slower at omega 100
  std::string outcome = "layout kept (lists that search ghosts both ways)";
  bool relevel = false;
  if (!two_way) {
    r.best = optimum(r.f.get(), r.params, settings(), ctop, &current.layout);
    hgrid::RelevelPolicy policy;
    policy.threshold = CALIBRATION_GAIN;
    const hgrid::Decision d =
        hgrid::decide_relevel(current.layout, r.best, r.f.get(), r.params, cmax, policy);
    relevel = d.action != hgrid::Relevel::None;
    outcome = relevel
        ? fmt::format("re-level, predicted T/N {:.4g} -> {:.4g}", d.cost_current, d.cost_optimal)
        : "layout kept";
  }
  if (comm->me == 0)
    utils::logmesg(lmp,
                   "Neighbor hgrid: step {} distance checks per cell visit {:.3g}x the cost "
                   "model's (check scale {:.3g} -> {:.3g}): {}\n",
                   update->ntimestep, check_scale / before, before, check_scale, outcome);
  if (relevel) {
    adopt(r, cmin, ctop);
    logged = 0;
    log_plan(r.f.get(), r.params);
  }
  if (comm->me == 0)
    utils::logmesg(lmp, "Neighbor hgrid: calibration took {:.3g} s\n",
                   platform::walltime() - start_time);
}

/* ----------------------------------------------------------------------
   an atom outgrew the top level during the run (its radius grows: fix adapt,
   pair granular's mdr model) and no fix hgrid/tune re-levels: the model's
   layout for the running distribution, as the fix's re-level for a particle
   that exceeds the top level (its headroom above the largest particle), with a
   log line, before this step's ghosts are sent.  Stock bin lists keep running
   there (for pairs within their cutoff); hgrid stopped with an error instead.
   Explicit levels keep the error of NBinHGrid::bin_atoms(): the user chose the top
------------------------------------------------------------------------- */

void HGridPlanner::relevel_outgrown()
{
  if (tuning || !user.cell_sizes.empty() || neighbor->style != Neighbor::HGRID ||
      current.layout.num_levels() == 0)
    return;
  double cmin, cmax;
  cutoff_diameter_range(cmin, cmax);
  const double top = current.layout.top();
  const auto decision = retune(hgrid::RelevelPolicy(), false, cmin, cmax);    // none: it fits
  if (!decision || decision->action == hgrid::Relevel::None) return;
  if (comm->me == 0)
    utils::logmesg(lmp,
                   "Neighbor hgrid: step {} an atom of cutoff diameter {:.8g} outgrew the top "
                   "level {:.8g}: re-levelled for the running size distribution "
                   "(fix hgrid/tune re-levels it as it changes)\n",
                   update->ntimestep, cmax, top);
  logged = 0;
  log_plan(nullptr, hgrid::SystemParams());
}

/* ----------------------------------------------------------------------
   a new plan (setup_run, adopt): the calibration schedule starts again at the
   plan's first rebuild
------------------------------------------------------------------------- */

void HGridPlanner::new_plan_made()
{
  plan_id++;
  plan_rebuilds = 0;
  next_calibration = 1;
  due_step = -1;    // a new run may start at a step that rebuilt before (reset_timestep)
}

/* ----------------------------------------------------------------------
   the check scale measured by the last build against the prediction for its
   atoms (their radii may have changed since the plan: fix adapt), with the
   scale in use; the histogram and system of now in r, and the running plan's
   prediction with the new scale.  False if the scale stays.
------------------------------------------------------------------------- */

bool HGridPlanner::calibrate_check_scale(Refinement &r, double cmin, double ctop)
{
  r.f = radius_histogram(cmin, ctop, r.params);
  if (!r.f) return false;
  double checks, visits;
  counters_per_atom(checks, visits);
  const double before = check_scale;
  const hgrid::Cost built = hgrid::evaluate(current.layout, *r.f, r.params);
  check_scale = hgrid::calibrated_check_scale(checks, visits, built, before);
  if (check_scale == before) return false;
  r.params.check_scale = check_scale;
  current.predicted = hgrid::evaluate(current.layout, *r.f, r.params);
  return true;
}

/* ----------------------------------------------------------------------
   during a run: the running layout refined (its level count +-1) for the
   cutoff diameters cmin..ctop, with the histogram and system it was made for
------------------------------------------------------------------------- */

HGridPlanner::Refinement HGridPlanner::refine(double cmin, double ctop)
{
  Refinement r;
  const hgrid::PlanSettings s = settings();
  r.f = radius_histogram(cmin, ctop, r.params);
  r.best = optimum(r.f.get(), r.params, s, ctop, &current.layout);
  return r;
}

/* ----------------------------------------------------------------------
   the refined layout becomes the plan; the size classes of comm mode multi
   follow it (fix hgrid/tune logs the change itself).  Called before atoms
   migrate (fix hgrid/tune's pre_exchange, before_rebuild): this step's ghosts
   go out to the new plan's cutoffs.  Comm::init() re-sizes the per-collection
   arrays, Comm::setup() sets the ghost cutoffs, as a box change does here.
------------------------------------------------------------------------- */

void HGridPlanner::adopt(const Refinement &r, double cmin, double ctop)
{
  current = hgrid::make_plan(r.best, r.f.get(), r.params, cmin, ctop);
  logged = 1;
  new_plan_made();
  publish_collections();
  offer_sort_bins();
  if (comm->mode == Comm::MULTI) comm->init();
  comm->setup();
  neighbor->setup_bins();
}

/* ----------------------------------------------------------------------
   smallest and largest cutoff diameter 2*r+skin over all atoms, including
   particles that fix pour / fix deposit may insert later
------------------------------------------------------------------------- */

void HGridPlanner::cutoff_diameter_range(double &cmin, double &cmax)
{
  double rlocal[2] = {-1.0e300, -1.0e300};    // {-rmin, rmax}
  const double *radius = atom->radius;
  for (int i = 0; i < atom->nlocal; i++) {
    rlocal[0] = MAX(rlocal[0], -radius[i]);
    rlocal[1] = MAX(rlocal[1], radius[i]);
  }
  double rall[2];
  MPI_Allreduce(rlocal, rall, 2, MPI_DOUBLE, MPI_MAX, world);

  double rmax = rall[1];
  for (auto &ifix : modify->get_fix_list()) {
    if (!utils::strmatch(ifix->style, "^pour") && !utils::strmatch(ifix->style, "^deposit"))
      continue;
    for (int itype = 1; itype <= atom->ntypes; itype++) {
      int dim = itype;
      auto *rinsert = (double *) ifix->extract("radius", dim);
      if (rinsert) rmax = MAX(rmax, *rinsert);
    }
  }

  if (rmax < 0.0) {
    // no atom yet and none announced (an empty box before balance, run 0 or a later
    // fix pour): one placeholder level, planned again at the next run setup
    cmin = cmax = MAX(skin_, MAX(domain->xprd, MAX(domain->yprd, domain->zprd)) / EMPTY_BOX_CELLS);
    return;
  }
  cmax = 2.0 * rmax + skin_;
  cmin = -2.0 * rall[0] + skin_;
  if (rall[1] < 0.0) cmin = cmax;    // no atoms yet, fix pour / deposit announced them
  if (!(cmax > 0.0))
    error->all(FLERR, Error::NOLASTLINE,
               "Neighbor style hgrid needs particles with a radius or a positive skin");
  if (!(cmin > 0.0)) cmin = cmax;
}

/* ----------------------------------------------------------------------
   histogram of the radii of all atoms (evenly spaced in log r, up to the largest
   radius fix pour/deposit may insert; one narrow bin for one particle size, whose
   sub-cells the model chooses), packing fraction, skin and cell-access cost K for
   the model (the settings' K, else the dimension's measured one,
   PlanSettings::cell_access_cost); nullptr for an empty system
------------------------------------------------------------------------- */

std::unique_ptr<hgrid::Histogram> HGridPlanner::radius_histogram(double cmin, double cmax,
                                                                 hgrid::SystemParams &params)
{
  const double rmin = 0.5 * (cmin - skin_), rmax = 0.5 * (cmax - skin_);
  const int dim = domain->dimension;
  const double box_volume = domain->xprd * domain->yprd * (dim == 3 ? domain->zprd : 1.0);
  params = hgrid::SystemParams::of_dimension(dim);
  params.K = settings().cell_access_cost(dim);
  params.check_scale = check_scale;
  params.skin = skin_;
  if (!(rmin > 0.0)) return nullptr;

  // counts per bin and, in the last entry, the particle volume, over all ranks
  const hgrid::LogBinning binning(rmin, rmax, HISTOGRAM_BINS);
  std::vector<double> local(HISTOGRAM_BINS + 1, 0.0), counts(HISTOGRAM_BINS + 1);
  const double *radius = atom->radius;
  for (int i = 0; i < atom->nlocal; i++) {
    if (!(radius[i] > 0.0)) continue;
    local[binning.index(radius[i])] += 1.0;
    local[HISTOGRAM_BINS] +=
        (dim == 3 ? 4.0 / 3.0 * radius[i] : 1.0) * MY_PI * radius[i] * radius[i];
  }
  MPI_Allreduce(local.data(), counts.data(), HISTOGRAM_BINS + 1, MPI_DOUBLE, MPI_SUM, world);
  params.packing = counts.back() / box_volume;
  counts.pop_back();
  if (!(params.packing > 0.0)) return nullptr;
  return std::make_unique<hgrid::Histogram>(binning.edges(), counts);
}

/* ----------------------------------------------------------------------
   the model's optimum (hgrid::optimal_layout; near the running layout for
   fix hgrid/tune): rank 0 decides, all ranks get the same layout; cached on
   everything it depends on
------------------------------------------------------------------------- */

hgrid::Layout HGridPlanner::optimum(const hgrid::Histogram *f, const hgrid::SystemParams &params,
                                    const hgrid::PlanSettings &s, double cmax,
                                    const hgrid::Layout *near)
{
  std::vector<double> key = hgrid::optimum_key(f, params, s, cmax, near);
  if (key == optimum_key) return optimum_result;

  hgrid::Layout chosen;
  if (comm->me == 0) chosen = hgrid::optimal_layout(f, params, s, cmax, near);
  int header[3] = {chosen.num_levels(), chosen.search == hgrid::Search::TopDown,
                   chosen.subdivisions};
  MPI_Bcast(header, 3, MPI_INT, 0, world);
  const int nlevels = header[0], topdown = header[1];
  chosen.subdivisions = header[2];
  chosen.cell_sizes.resize(nlevels);
  MPI_Bcast(chosen.cell_sizes.data(), nlevels, MPI_DOUBLE, 0, world);
  chosen.search = topdown ? hgrid::Search::TopDown : hgrid::Search::BottomUp;
  optimum_key = std::move(key);
  optimum_result = chosen;
  return chosen;
}

/* ----------------------------------------------------------------------
   size-dependent ghost cutoffs by default: unless comm_modify set the mode or
   a ghost cutoff, or a list not built by hgrid needs ghosts out to the largest
   cutoff, or all atoms have one size (cutoff diameters cmin = cmax: one class),
   or one cutoff brings few ghosts anyway (ghost_shell_ratio), the communication
   runs in mode multi with the ghost size classes as the atom collections
   (publish_collections); called before Comm::init().  Under KOKKOS, CommKokkos
   sends the size classes from the device too (core patch 0012: each atom's
   collection from its radius in the border kernel), on a GPU as on the host
------------------------------------------------------------------------- */

void HGridPlanner::choose_comm_mode(double cmin, double cmax)
{
  if (comm->mode_user) return;
  const int mode = (comm->cutghostuser == 0.0 && !other_binned_lists() && !one_size(cmin, cmax) &&
                    ghost_shell_ratio() >= MULTI_GHOST_RATIO)
      ? Comm::MULTI
      : Comm::SINGLE;
  if (mode != auto_mode) logged = 0;    // log the change
  comm->mode = auto_mode = mode;
}

/* ----------------------------------------------------------------------
   ghosts per owned atom one ghost cutoff (the largest neighbor cutoff) would
   bring at uniform density: (1 + 2 c / l)^d - 1 for subdomain edges l
------------------------------------------------------------------------- */

double HGridPlanner::ghost_shell_ratio() const
{
  double shell = 1.0;
  for (int d = 0; d < domain->dimension; d++) {
    const double edge = domain->prd[d] / comm->procgrid[d];
    shell *= 1.0 + 2.0 * neighbor->cutneighmax / edge;
  }
  return shell - 1.0;
}

/* ----------------------------------------------------------------------
   neighbor style hgrid is no longer used (~NBinHGrid): the comm mode and the
   atom sort it chose go with it
------------------------------------------------------------------------- */

void HGridPlanner::release()
{
  if (auto_mode >= 0 && !comm->mode_user) comm->mode = Comm::SINGLE;
  auto_mode = -1;
  neighbor->hgrid_sortbin = 0.0;
}

/* ----------------------------------------------------------------------
   the atom sort hgrid offers Atom::sort() (core patch): bins of its finest
   level in Morton order where the plan says so (hgrid::sort_bin_size), and
   AtomKokkos::sort_device() bins of about that size in Morton order (at most
   about 4 per atom); a bin size set with atom_modify sort wins.  A re-level
   during a run takes effect at the next run setup (Atom::setup).
------------------------------------------------------------------------- */

void HGridPlanner::offer_sort_bins()
{
  neighbor->hgrid_sortbin = hgrid::sort_bin_size(current.layout);
}

/* ----------------------------------------------------------------------
   true if a list is built from bins other than hgrid's (the bin fallback)
------------------------------------------------------------------------- */

bool HGridPlanner::other_binned_lists() const
{
  for (int i = 0; i < neighbor->nlist; i++) {
    const NeighList *list = neighbor->lists[i];
    if (list->bin_method > 0 && list->np && list->np->nb &&
        std::find(bins.begin(), bins.end(), list->np->nb) == bins.end())
      return true;
  }
  return false;
}

/* ----------------------------------------------------------------------
   called by each hgrid pair build at run setup, after setup_run() and before
   Comm::setup(): the collections again, now that the search directions are known
------------------------------------------------------------------------- */

void HGridPlanner::note_pair_build(bool two_way_search)
{
  if (two_way_search) two_way = 1;
  publish_collections();
}

/* ----------------------------------------------------------------------
   in comm mode multi the atom collections are the plan's ghost size classes
   (ratio <= 1.25 between the smallest cutoff diameter and the top level,
   hgrid::ghost_classes, independent of the levels: the search needs ghosts only
   within r_i + r_j + skin of an owned atom, wherever they are binned).  An atom of
   class k is sent out to max_j (b_k + b_j)/2 = (b_k + s_top)/2, at most 12.5 % of
   its cutoff diameter beyond the farthest any atom can reach it (collection2cut
   bounds 2r = c - skin).  When only atoms of its own or smaller levels search it
   for ghosts (no full or newton-off list) at most (b_k + s_L)/2, s_L its level
   (hgrid::ghost_searcher_size), also while fix hgrid/tune may re-level: it does so
   before this step's ghosts are sent (its pre_exchange).
------------------------------------------------------------------------- */

void HGridPlanner::publish_collections()
{
  if (comm->mode != Comm::MULTI) return;
  const std::vector<double> &bounds = current.ghost_bounds;
  const int n = bounds.size();
  // lists of the bin fallback need ghosts out to their (the largest) cutoff
  const double floor = other_binned_lists() ? neighbor->cutneighmax : 0.0;
  // pairs with ghosts are found from their smaller particle by half newton-on lists
  // in either direction (hgrid::PairSearch); full and newton-off lists search both ways
  const bool upward_only = !two_way;
  neighbor->ncollections = n;
  neighbor->finite_cut_flag = 1;
  memory->grow(neighbor->collection2cut, n, "neigh:collection2cut");
  memory->grow(neighbor->cutcollectionsq, n, n, "neigh:cutcollectionsq");
  for (int i = 0; i < n; i++) {
    // the largest 2r of class i (with level_of()'s round-off); an atom that outgrew
    // the top level is in the top collection until re-leveled
    neighbor->collection2cut[i] = (i == n - 1) ? UNBOUNDED
                                               : bounds[i] * (1.0 + hgrid::kSizeTolerance) - skin_;
    const double searcher = hgrid::ghost_searcher_size(current.layout, bounds[i], upward_only);
    for (int j = 0; j < n; j++) {
      const double reach = MAX(0.5 * (bounds[i] + MIN(bounds[j], searcher)), floor);
      neighbor->cutcollectionsq[i][j] = reach * reach;
    }
  }
}

/* ---------------------------------------------------------------------- */

void HGridPlanner::log_plan(const hgrid::Histogram *f, const hgrid::SystemParams &params)
{
  if (logged) return;
  logged = 1;
  if (comm->me != 0) return;
  const hgrid::Layout &layout = current.layout;
  if (f) {
    const double single =
        hgrid::evaluate(hgrid::Layout{{layout.top()}, layout.search}, *f, params).total;
    utils::logmesg(lmp,
                   "HGrid cost model: packing fraction {:.4g}, predicted work per particle "
                   "{:.4g} (one level: {:.4g}, speed-up {:.3g})\n",
                   params.packing, current.predicted.total, single,
                   single / current.predicted.total);
  }
  utils::logmesg(lmp, "HGrid layout: {} level(s), search {}, cutoff diameters {:.8g} to {:.8g}\n{}",
                 layout.num_levels(), hgrid::search_name(layout.search), current.cmin, current.cmax,
                 hgrid::describe(layout));
  if (neighbor->hgrid_margin > 0.0)
    utils::logmesg(lmp,
                   "HGrid cohesion: lists reach r_i + r_j + skin + {:.8g} (largest pull-off)\n",
                   neighbor->hgrid_margin);
  utils::logmesg(lmp, "HGrid ghost cutoffs: {}\n", ghost_cutoffs_description());
}

std::string HGridPlanner::ghost_cutoffs_description() const
{
  if (comm->mode == Comm::MULTI)
    return fmt::format("by particle size, {} classes ({})", neighbor->ncollections,
                       comm->mode_user ? "comm_modify mode multi"
                                       : "default; comm_modify mode single for one cutoff");
  if (comm->mode_user) return "one for all levels (comm_modify mode single)";
  if (comm->cutghostuser > 0.0) return "one for all levels (comm_modify cutoff)";
  if (other_binned_lists())
    return "one for all levels (lists of other pair styles or computes need it)";
  if (one_size(current.cmin, current.cmax))
    return "one for all levels (one particle size at the start of the run)";
  return fmt::format("one for all levels (it brings {:.2g} ghosts per atom, < {}: size "
                     "classes would not pay; comm_modify mode multi for them)",
                     ghost_shell_ratio(), MULTI_GHOST_RATIO);
}

void HGridPlanner::attach_bins(const NBin *b)
{
  bins.push_back(b);
}

void HGridPlanner::detach_bins(const NBin *b)
{
  bins.erase(std::remove(bins.begin(), bins.end(), b), bins.end());
}

/* ----------------------------------------------------------------------
   measurements of the builders
------------------------------------------------------------------------- */

/* ----------------------------------------------------------------------
   a row of \p longest partners outgrew the room of a list row: neigh_modify
   one becomes 1.2x that row and page at least PAGE_ROOMS rooms (LAMMPS' rule),
   with a log line (on the rank where it happened), unless the user set one
   or page (false: the stock overflow error). The history fix's pages follow
   (core patch 0014); lists made later get the room from the start.
------------------------------------------------------------------------- */

bool HGridPlanner::grow_row_room(int longest)
{
  if (neighbor->oneatom != MAX(grown_room, LAMMPS_ONEATOM) ||
      neighbor->pgsize != MAX(grown_page, LAMMPS_PGSIZE))
    return false;
  const int room = longest + longest / 5 + 1;
  if (room <= neighbor->oneatom) return true;
  utils::logmesg(lmp,
                 "Neighbor hgrid: a row of {} partners outgrew neigh_modify one {}: one {} "
                 "from now on (a room set with neigh_modify one/page is kept)\n",
                 longest, neighbor->oneatom, room);
  grown_room = neighbor->oneatom = room;
  grown_page = neighbor->pgsize = MAX(neighbor->pgsize, PAGE_ROOMS * room);
  return true;
}

void HGridPlanner::report_build(const hgrid::SearchCounters &c, double seconds)
{
  counters = c;
  build_seconds = seconds;
  built_plan = plan_id;
}

void HGridPlanner::longest_thread(double &search, double &row, double &split)
{
  double local[2] = {(double) counters.longest_search, (double) counters.longest_row};
  double global[2];
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, world);
  search = global[0];
  row = global[1];
  double nsplit = (double) counters.split_searches;
  MPI_Allreduce(&nsplit, &split, 1, MPI_DOUBLE, MPI_SUM, world);
}

void HGridPlanner::counters_per_atom(double &checks, double &visits)
{
  double local[2] = {(double) counters.distance_checks, (double) counters.cells_visited};
  double global[2];
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_SUM, world);
  const double natoms = MAX(1.0, (double) atom->natoms);
  checks = global[0] / natoms;
  visits = global[1] / natoms;
}

double HGridPlanner::cells_per_atom()
{
  double local = cells_stored, global = 0.0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, world);
  return global / MAX(1.0, (double) atom->natoms);
}

/* ----------------------------------------------------------------------
   phases of the rebuilds during a run (as LAMMPS' Neigh time: not the setup's
   build, which also allocates): a binning at a new step starts a rebuild, the
   lists built at that step add to it
------------------------------------------------------------------------- */

void HGridPlanner::start_phases()
{
  if (update->setupflag || update->ntimestep == phase_step) return;
  phase_step = update->ntimestep;
  phase_rebuilds++;
}

double HGridPlanner::end_phase(int phase, double start)
{
  const double now = platform::walltime();
  if (!update->setupflag) phase_seconds[phase] += now - start;
  return now;
}

void HGridPlanner::phase_means(double *means)
{
  double local[NPHASES];
  const double rebuilds = MAX(1.0, (double) phase_rebuilds);
  for (int p = 0; p < NPHASES; p++) local[p] = phase_seconds[p] / rebuilds;
  MPI_Allreduce(local, means, NPHASES, MPI_DOUBLE, MPI_MAX, world);
}
