/* ----------------------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#include "hgrid_skin_tuner.h"

#include "atom.h"
#include "comm.h"
#include "domain.h"
#include "error.h"
#include "force.h"
#include "hgrid_planner.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "pair.h"
#include "platform.h"
#include "timer.h"
#include "update.h"

#include <cmath>
#include <stdexcept>

using namespace LAMMPS_NS;

// at most this factor above the larger of the neighbor command's skin and the smallest
// particle diameter, and at most this share of the shortest box length
static constexpr double SKIN_UPPER_FACTOR = 10.0;
static constexpr double SKIN_UPPER_BOX = 0.25;
static constexpr double BIG = 1.0e20;
// builds a window needs before the skin is advised, and bins of pair gaps
static constexpr int SKIN_MIN_BUILDS = 3;
static constexpr int SKIN_GAP_BINS = 32;

/* ---------------------------------------------------------------------- */

HGridSkinTuner::HGridSkinTuner(LAMMPS *lmp, HGridPlanner *planner, int nevery, int verbose) :
    Pointers(lmp), planner(planner), nevery(nevery), verbose(verbose), skin_pending(0.0),
    skin_input(0.0), skin_moves(0), nlocal_built(-1), touched_sum(0.0)
{
  planner->skin_report.active = 1;    // compute hgrid (init before fixes) asks
}

/* ----------------------------------------------------------------------
   what skin auto needs; the neighbor command's skin at the first run
------------------------------------------------------------------------- */

void HGridSkinTuner::init()
{
  const char *why = nullptr;
  if (lmp->kokkos)
    why = "is not available with KOKKOS";
  else if (!neighbor->dist_check)
    why = "requires neigh_modify check yes";
  else if (utils::strmatch(update->integrate_style, "^respa"))
    why = "is not available with rRESPA";
  else if (!timer->has_normal())
    why = "requires timer normal or full (the default)";
  else if (!(neighbor->skin > 0.0))
    why = "requires a positive neighbor skin";
  if (why) error->all(FLERR, Error::NOLASTLINE, "Fix hgrid/tune skin auto {}", why);
  if (skin_input == 0.0) skin_input = neighbor->skin;    // the neighbor command's skin
}

/* ----------------------------------------------------------------------
   run setup: the pair style's list is measured
------------------------------------------------------------------------- */

void HGridSkinTuner::setup()
{
  if (!force->pair || !force->pair->list)
    error->all(FLERR, Error::NOLASTLINE,
               "Fix hgrid/tune skin auto requires a pair style with its own neighbor list");
  skin_pending = 0.0;
  nlocal_built = atom->nlocal;
  window.first_step = -1;    // the run resets the timers after setup: start after its first build
}

/* ----------------------------------------------------------------------
   at every rebuild, before atoms migrate: the displacement that led to the
   rebuild, then the skin advised after an earlier one
------------------------------------------------------------------------- */

void HGridSkinTuner::pre_exchange()
{
  if (window.first_step >= 0) note_rebuild();
  apply_pending_skin();
}

/* ----------------------------------------------------------------------
   the largest skin advise_skin() may choose, for the atoms and box of now
------------------------------------------------------------------------- */

double HGridSkinTuner::skin_upper_bound()
{
  double rmin = BIG, all;
  for (int i = 0; i < atom->nlocal; i++) rmin = MIN(rmin, atom->radius[i]);
  MPI_Allreduce(&rmin, &all, 1, MPI_DOUBLE, MPI_MIN, world);
  const double scale = all < BIG ? MAX(skin_input, 2.0 * all) : skin_input;
  double box = MIN(domain->xprd, domain->yprd);
  if (domain->dimension == 3) box = MIN(box, domain->zprd);
  return MIN(SKIN_UPPER_FACTOR * scale, SKIN_UPPER_BOX * box);
}

/* ----------------------------------------------------------------------
   after a rebuild: advice once the window spans N steps and a few builds
------------------------------------------------------------------------- */

void HGridSkinTuner::post_neighbor()
{
  nlocal_built = atom->nlocal;
  if (window.first_step < 0)
    start_window();
  else if (update->ntimestep - window.first_step >= nevery && window.builds >= SKIN_MIN_BUILDS)
    advise_skin();
}

/* ----------------------------------------------------------------------
   the wall time of each step, with or without a rebuild
------------------------------------------------------------------------- */

void HGridSkinTuner::end_of_step()
{
  // the largest displacement at 1, 2, 4, ... steps after a build
  const bigint lag = update->ntimestep - neighbor->lastcall;
  if (window.first_step >= 0 && lag > 0 && (lag & (lag - 1)) == 0) {
    double dmax;
    if (max_displacement(dmax)) {
      window.probe_disp = dmax;
      window.probe_lag = lag;
    }
  }
  const double now = platform::walltime();
  if (window.first_step >= 0 && window.last_end >= 0.0) {
    if (neighbor->lastcall == update->ntimestep) {
      window.rebuild_wall += now - window.last_end;
      window.rebuild_steps++;
    } else {
      window.plain_wall += now - window.last_end;
      window.plain_steps++;
    }
  }
  window.last_end = now;
}

/* ---------------------------------------------------------------------- */

void HGridSkinTuner::start_window()
{
  window.first_step = update->ntimestep;
  window.builds = window.triggered = 0;
  window.neigh = timer->get_wall(Timer::NEIGH);
  window.pair = timer->get_wall(Timer::PAIR);
  window.wall = platform::walltime();
  window.max_speed = 0.0;
  window.ndanger = neighbor->ndanger;
  window.rebuild_wall = window.plain_wall = 0.0;
  window.rebuild_steps = window.plain_steps = 0;
  window.last_end = -1.0;    // this step was partly before the window
  window.beta_num = window.beta_den = window.probe_disp = 0.0;
  window.probe_lag = 0;
}

/* ----------------------------------------------------------------------
   the largest displacement of any atom since the last build (collective);
   false if an atom was added or removed on any rank since (indices may have
   moved, e.g. fix evaporate)
------------------------------------------------------------------------- */

bool HGridSkinTuner::max_displacement(double &dmax)
{
  double local[2] = {atom->nlocal != nlocal_built ? 1.0 : 0.0, 0.0}, all[2];
  if (local[0] == 0.0) {
    double **x = atom->x;
    double **xhold = neighbor->get_xhold();
    for (int i = 0; i < atom->nlocal; i++) {
      const double dx = x[i][0] - xhold[i][0], dy = x[i][1] - xhold[i][1],
                   dz = x[i][2] - xhold[i][2];
      local[1] = MAX(local[1], dx * dx + dy * dy + dz * dz);
    }
  }
  MPI_Allreduce(local, all, 2, MPI_DOUBLE, MPI_MAX, world);
  dmax = sqrt(all[1]);
  return all[0] == 0.0;
}

/* ----------------------------------------------------------------------
   at a rebuild: the largest displacement per step and whether it triggered the
   rebuild (else it was forced, e.g. by fix pour); with the displacement probed
   at the last power of two of steps before, the local exponent of d(n)
------------------------------------------------------------------------- */

void HGridSkinTuner::note_rebuild()
{
  const bigint steps = update->ntimestep - neighbor->lastcall;
  if (steps <= 0) return;
  window.builds++;
  double dmax;
  const bool valid = max_displacement(dmax);
  const bigint probed = window.probe_lag;
  window.probe_lag = 0;
  if (!valid) return;
  window.max_speed = MAX(window.max_speed, dmax / steps);
  if (dmax * dmax > 0.25 * neighbor->skin * neighbor->skin) window.triggered++;
  if (probed > 0 && steps > probed && window.probe_disp > 0.0 && dmax > window.probe_disp) {
    window.beta_num += log(dmax / window.probe_disp);
    window.beta_den += log(static_cast<double>(steps) / probed);
  }
}

/* ----------------------------------------------------------------------
   the new skin: Neighbor's cutoffs (Neighbor::reset_skin; hgrid's bins plan
   again for the new cutoff diameters there, as at a run setup, which may change
   its size classes and comm mode), then ghosts and bins
------------------------------------------------------------------------- */

void HGridSkinTuner::apply_pending_skin()
{
  if (skin_pending <= 0.0) return;
  const double old_skin = neighbor->skin;
  neighbor->reset_skin(skin_pending);
  if (neighbor->style == Neighbor::HGRID) comm->init();
  comm->setup();
  neighbor->setup_bins();
  skin_moves++;
  planner->skin_report.moves = skin_moves;
  if (comm->me == 0)
    utils::logmesg(lmp, "hgrid/tune: step {} skin {:.6g} -> {:.6g}\n", update->ntimestep, old_skin,
                   skin_pending);
  skin_pending = 0.0;
  window.first_step = -1;    // costs are measured at the new skin, after this build
}

/* ----------------------------------------------------------------------
   hgrid::advise_skin on this window; a dangerous build in it raises the skin
   by the largest step at least
------------------------------------------------------------------------- */

void HGridSkinTuner::advise_skin()
{
  hgrid::SkinSample sample = skin_sample();
  skin_policy.upper = skin_upper_bound();
  try {
    skin_advice = hgrid::advise_skin(sample, skin_policy);
  } catch (std::invalid_argument &) {
    start_window();    // nothing to learn from this window (e.g. no rebuild interval)
    return;
  }
  if (neighbor->ndanger > window.ndanger)
    skin_advice.next = MAX(skin_advice.next, sample.skin * (1.0 + skin_policy.max_step));
  if (skin_advice.next != sample.skin) skin_pending = skin_advice.next;
  HGridPlanner::SkinReport &r = planner->skin_report;
  r.optimum = skin_advice.optimum;
  r.floor = skin_advice.floor;
  r.gain = skin_advice.gain();
  r.steps_per_build = sample.steps_per_build;
  r.build_seconds = sample.build_seconds;
  if (verbose || skin_pending > 0.0) log_skin(sample);
  start_window();
}

/* ----------------------------------------------------------------------
   what this window measured (the slowest rank's times), and the list's gaps
------------------------------------------------------------------------- */

hgrid::SkinSample HGridSkinTuner::skin_sample()
{
  const double steps = update->ntimestep - window.first_step;
  double local[3] = {timer->get_wall(Timer::NEIGH) - window.neigh,
                     timer->get_wall(Timer::PAIR) - window.pair,
                     platform::walltime() - window.wall};
  double all[3];
  MPI_Allreduce(local, all, 3, MPI_DOUBLE, MPI_MAX, world);
  hgrid::SkinSample s;
  s.dimension = domain->dimension;
  s.skin = neighbor->skin;
  s.steps_per_build = steps / MAX(window.triggered, 1);
  if (window.beta_den > 0.0)
    s.displacement_exponent = MAX(0.5, MIN(1.0, window.beta_num / window.beta_den));
  s.forced_rate = (window.builds - window.triggered) / steps;
  s.min_interval = MAX(neighbor->every, neighbor->delay);
  s.max_speed = window.max_speed;
  const double neigh_per_build = all[0] / window.builds;
  s.build_seconds = rebuild_seconds(neigh_per_build);
  s.pair_seconds = all[1] / steps;
  s.other_seconds = MAX(0.0, (all[2] - all[0]) / steps - s.pair_seconds);
  // the list's gaps and what a pair added to it costs: the shares of the pair time
  // and of a rebuild (its candidate checks) that grow with the skin
  double npairs;
  const double per_pair = measure_list(s, npairs);
  if (neighbor->style == Neighbor::BIN)
    s.search_diameter = neighbor->cutneighmax - neighbor->skin;
  else
    s.search_diameter = s.pair_distance;
  if (s.pair_seconds > 0.0)
    s.pair_list_share = MIN(1.0, per_pair * npairs / comm->nprocs / s.pair_seconds);
  if (s.build_seconds > 0.0)
    s.build_volume_share = MIN(1.0, neigh_per_build * search_share() / s.build_seconds);
  return s;
}

/* ----------------------------------------------------------------------
   the share of a list build (Neigh time) that grows with the search volume:
   hgrid's distance checks, with a cell visit as dear as a check (K = 1, as
   measured for hgrid's cells; a sub-cell of one level less, hgrid::visit_weight);
   all of it for bin, whose bins and stencils follow the largest cutoff
------------------------------------------------------------------------- */

double HGridSkinTuner::search_share()
{
  if (neighbor->style != Neighbor::HGRID) return 1.0;
  double checks, visits;
  planner->counters_per_atom(checks, visits);
  visits *= hgrid::visit_weight(planner->plan().layout, hgrid::SystemParams());
  return checks + visits > 0.0 ? checks / (checks + visits) : 1.0;
}

/* ----------------------------------------------------------------------
   what a rebuild adds to a step: the mean wall time of steps with a rebuild
   minus that of steps without (it includes migration, ghosts, fix
   neigh/history and sorting, not only the list build of the Neigh timer), the
   slowest rank's; at least \p neigh_per_build
------------------------------------------------------------------------- */

double HGridSkinTuner::rebuild_seconds(double neigh_per_build) const
{
  double local = 0.0, all;
  if (window.rebuild_steps > 0 && window.plain_steps > 0)
    local = window.rebuild_wall / window.rebuild_steps - window.plain_wall / window.plain_steps;
  MPI_Allreduce(&local, &all, 1, MPI_DOUBLE, MPI_MAX, world);
  return MAX(all, neigh_per_build);
}

/* ----------------------------------------------------------------------
   the pairs of a list as rows of atom indices (a copy that can be trimmed)
------------------------------------------------------------------------- */

namespace {
struct PairRows {
  std::vector<int> atoms, start, partners;    // row k: atoms[k], partners [start[k], start[k+1])
};

PairRows rows_of(const NeighList *list)
{
  PairRows rows;
  rows.start.push_back(0);
  for (int ii = 0; ii < list->inum; ii++) {
    const int i = list->ilist[ii];
    for (int jj = 0; jj < list->numneigh[i]; jj++)
      rows.partners.push_back(list->firstneigh[i][jj] & NEIGHMASK);
    rows.atoms.push_back(i);
    rows.start.push_back(static_cast<int>(rows.partners.size()));
  }
  return rows;
}

// visit(n, rsq, r_i + r_j) for every pair n of rows
template <class Visit>
void for_each_pair(const PairRows &rows, double **x, const double *radius, Visit &&visit)
{
  for (std::size_t k = 0; k < rows.atoms.size(); k++) {
    const int i = rows.atoms[k];
    const double xi = x[i][0], yi = x[i][1], zi = x[i][2], ri = radius[i];
    for (int n = rows.start[k]; n < rows.start[k + 1]; n++) {
      const int j = rows.partners[n];
      const double dx = xi - x[j][0], dy = yi - x[j][1], dz = zi - x[j][2];
      visit(n, dx * dx + dy * dy + dz * dz, ri + radius[j]);
    }
  }
}

// the pairs of rows within r_i + r_j + reach
PairRows rows_within(const PairRows &rows, double **x, const double *radius, double reach)
{
  std::vector<char> keep(rows.partners.size());
  for_each_pair(rows, x, radius, [&](int n, double rsq, double radsum) {
    keep[n] = rsq <= (radsum + reach) * (radsum + reach);
  });
  PairRows near;
  near.atoms = rows.atoms;
  near.start.push_back(0);
  for (std::size_t k = 0; k < rows.atoms.size(); k++) {
    for (int n = rows.start[k]; n < rows.start[k + 1]; n++)
      if (keep[n]) near.partners.push_back(rows.partners[n]);
    near.start.push_back(static_cast<int>(near.partners.size()));
  }
  return near;
}

// read the per-atom arrays a time step reads besides positions; their sum
double read_step_arrays(Atom *atom)
{
  double sum = 0.0;
  for (double **a : {atom->v, atom->f, atom->omega, atom->torque})
    if (a)
      for (int i = 0; i < atom->nlocal; i++) sum += a[i][0] + a[i][1] + a[i][2];
  return sum;
}

/* what one more pair of the list costs a step (this rank): a pass that does what a
   granular pair style does with a pair out of contact (distance, compare; with
   \p history, clear the pair's history) over the list's pairs \p all and over those
   within half the \p skin, timed (the fastest of three each); the difference per pair
   is the cost of the pairs a larger skin adds, which are mostly near atoms already in
   cache (less than the mean cost of a pair).  Before each pass the per-atom arrays a
   step also reads are read (their sum into \p sink), as the integrator and other
   fixes do between two pair computations */
double seconds_per_added_pair(const PairRows &all, Atom *atom, double skin, int history,
                              double &sink)
{
  double **x = atom->x;
  const double *radius = atom->radius;
  const PairRows half = rows_within(all, x, radius, 0.5 * skin);
  std::vector<int> touch(all.partners.size());
  std::vector<double> shear(history ? 3 * all.partners.size() : 0);
  double seconds[2] = {0.0, 0.0};
  for (int pass = 0; pass < 3; pass++)
    for (int k = 0; k < 2; k++) {
      sink += read_step_arrays(atom);
      const double start = platform::walltime();
      for_each_pair(k == 0 ? all : half, x, radius, [&](int n, double rsq, double radsum) {
        touch[n] = rsq <= radsum * radsum;
        if (history && !touch[n]) shear[3 * n] = shear[3 * n + 1] = shear[3 * n + 2] = 0.0;
      });
      const double elapsed = platform::walltime() - start;
      seconds[k] = pass == 0 ? elapsed : MIN(seconds[k], elapsed);
    }
  const double added = all.partners.size() - half.partners.size();
  return added > 0.0 ? MAX(0.0, seconds[0] - seconds[1]) / added : 0.0;
}
}    // namespace

/* ----------------------------------------------------------------------
   one pass over a copy of the pair style's list (at the positions of this
   build): its pairs by gap |x_i - x_j| - r_i - r_j and their mean r_i + r_j
   into sample; npairs, all ranks; returns what one more pair costs a step,
   the slowest rank's (seconds_per_added_pair())
------------------------------------------------------------------------- */

double HGridSkinTuner::measure_list(hgrid::SkinSample &s, double &npairs)
{
  const PairRows rows = rows_of(force->pair->list);
  std::vector<double> local(SKIN_GAP_BINS + 3, 0.0), all(SKIN_GAP_BINS + 3);
  const double scale = SKIN_GAP_BINS / s.skin;
  for_each_pair(rows, atom->x, atom->radius, [&](int, double rsq, double radsum) {
    if (rsq <= radsum * radsum)
      local[SKIN_GAP_BINS] += 1.0;
    else
      local[MIN(SKIN_GAP_BINS - 1, static_cast<int>((sqrt(rsq) - radsum) * scale))] += 1.0;
    local[SKIN_GAP_BINS + 1] += radsum;
  });
  local[SKIN_GAP_BINS + 2] = rows.partners.size();
  MPI_Allreduce(local.data(), all.data(), SKIN_GAP_BINS + 3, MPI_DOUBLE, MPI_SUM, world);
  s.gap_counts.assign(all.begin(), all.begin() + SKIN_GAP_BINS);
  s.overlapping_pairs = all[SKIN_GAP_BINS];
  npairs = all[SKIN_GAP_BINS + 2];
  s.pair_distance = npairs > 0.0 ? all[SKIN_GAP_BINS + 1] / npairs : 0.0;
  touched_sum = 0.0;    // the reads of the step's arrays must happen
  // not const: LAMMPS' serial MPI stubs (HGRID_MPI=OFF) take a non-const send buffer
  double local_cost =
      seconds_per_added_pair(rows, atom, neighbor->skin, force->pair->list->history, touched_sum);
  double slowest;
  MPI_Allreduce(&local_cost, &slowest, 1, MPI_DOUBLE, MPI_MAX, world);
  return slowest;
}

void HGridSkinTuner::log_skin(const hgrid::SkinSample &s)
{
  if (comm->me != 0) return;
  const hgrid::SkinAdvice &a = skin_advice;
  utils::logmesg(lmp,
                 "hgrid/tune: step {} skin {:.6g}: rebuild every {:.3g} steps (d ~ n^{:.2f}), "
                 "rebuild {:.4g} ms, "
                 "pair {:.4g} ms/step ({:.0f}% with the list, {:.0f}% of the rebuild with the "
                 "search); optimum {:.6g} (floor {:.6g}), "
                 "predicted {:.4g} -> {:.4g} ms/step ({:.1f}% gain); next skin {:.6g}\n",
                 update->ntimestep, s.skin, s.steps_per_build, s.displacement_exponent,
                 1e3 * s.build_seconds, 1e3 * s.pair_seconds, 100.0 * s.pair_list_share,
                 100.0 * s.build_volume_share, a.optimum, a.floor, 1e3 * a.current_step_seconds,
                 1e3 * a.optimum_step_seconds, 100.0 * a.gain(),
                 skin_pending > 0.0 ? skin_pending : s.skin);
}
