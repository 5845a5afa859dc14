/* ----------------------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#include "fix_hgrid_tune.h"

#include "comm.h"
#include "domain.h"
#include "error.h"
#include "hgrid_planner.h"
#include "hgrid_skin_tuner.h"
#include "modify.h"
#include "neighbor.h"
#include "platform.h"
#include "update.h"

#include <array>
#include <stdexcept>

using namespace LAMMPS_NS;
using namespace FixConst;

// size of the output vector
static constexpr int NVALUES = 9;

/* ---------------------------------------------------------------------- */

FixHGridTune::FixHGridTune(LAMMPS *lmp, int narg, char **arg) :
    Fix(lmp, narg, arg), planner(HGridPlanner::get(lmp)), nevery(0), k_auto(0), verbose(0),
    has_layout(0), last_tune(-1), nrelevel(0), cost_current(0.0), cost_optimal(0.0), tune_time(0.0),
    relevel_time(0.0), skin_auto(0), skin(nullptr)
{
  settings.search = hgrid::Search::TopDown;    // used with "search topdown|bottomup" only
  if (narg < 4) utils::missing_cmd_args(FLERR, "fix hgrid/tune", error);
  if (igroup != 0) error->all(FLERR, 1, "Fix hgrid/tune must use group all");
  nevery = utils::inumeric(FLERR, arg[3], false, lmp);
  if (nevery <= 0) error->all(FLERR, 3, "Fix hgrid/tune N must be > 0, got {}", arg[3]);
  for (int iarg = 4; iarg < narg; iarg += 2) {
    if (iarg + 1 >= narg)
      utils::missing_cmd_args(FLERR, fmt::format("fix hgrid/tune {}", arg[iarg]), error);
    parse_option(arg[iarg], arg[iarg + 1], iarg);
  }

  if (skin_auto) skin = new HGridSkinTuner(lmp, planner, nevery, verbose);
  vector_flag = 1;
  size_vector = NVALUES;
  global_freq = 1;
  extvector = 0;
  restart_global = 1;
}

FixHGridTune::~FixHGridTune()
{
  delete skin;
  // the planner goes back to the neighbor keywords (Neighbor may already be gone)
  HGridPlanner *p = HGridPlanner::find(lmp);
  if (p) p->clear_tuning();
  if (p) p->skin_report = HGridPlanner::SkinReport();
}

/* ----------------------------------------------------------------------
   one keyword/value pair; iarg is the position of the keyword
------------------------------------------------------------------------- */

void FixHGridTune::parse_option(const std::string &key, const std::string &value, int iarg)
{
  if (key == "every") {
    nevery = utils::inumeric(FLERR, value, false, lmp);
    if (nevery <= 0) error->all(FLERR, iarg + 1, "Fix hgrid/tune every must be > 0, got {}", value);
  } else if (key == "threshold") {
    policy.threshold = utils::numeric(FLERR, value, false, lmp);
    if (policy.threshold < 0.0 || policy.threshold >= 1.0)
      error->all(FLERR, iarg + 1, "Fix hgrid/tune threshold must be in [0,1), got {}", value);
  } else if (key == "method") {
    try {
      settings.method = hgrid::method_from_name(value);
    } catch (std::invalid_argument &e) {
      error->all(FLERR, iarg + 1, "Fix hgrid/tune method: {}", e.what());
    }
  } else if (key == "search") {
    settings.auto_search = (value == "auto");
    try {
      if (!settings.auto_search) settings.search = hgrid::search_from_name(value);
    } catch (std::invalid_argument &e) {
      error->all(FLERR, iarg + 1, "Unknown fix hgrid/tune search value: {}", value);
    }
  } else if (key == "K") {
    k_auto = (value == "auto");
    if (!k_auto) settings.K = utils::numeric(FLERR, value, false, lmp);
    if (!k_auto && settings.K <= 0.0)
      error->all(FLERR, iarg + 1, "Fix hgrid/tune K must be > 0, got {}", value);
  } else if (key == "maxlevels") {
    settings.max_levels = utils::inumeric(FLERR, value, false, lmp);
    if (settings.max_levels < 1 || settings.max_levels > hgrid::kMaxLevels)
      error->all(FLERR, iarg + 1, "Fix hgrid/tune maxlevels must be 1..{}, got {}",
                 hgrid::kMaxLevels, value);
  } else if (key == "skin") {
    if (value != "auto" && value != "fixed")
      error->all(FLERR, iarg + 1, "Fix hgrid/tune skin must be auto or fixed, got {}", value);
    skin_auto = (value == "auto");
  } else if (key == "verbose") {
    verbose = utils::logical(FLERR, value, false, lmp);
  } else
    error->all(FLERR, iarg, "Unknown fix hgrid/tune keyword: {}", key);
}

/* ---------------------------------------------------------------------- */

int FixHGridTune::setmask()
{
  return PRE_EXCHANGE | (skin_auto ? POST_NEIGHBOR | END_OF_STEP : 0);
}

void FixHGridTune::init()
{
  if (neighbor->style != Neighbor::HGRID && !(skin_auto && neighbor->style == Neighbor::BIN))
    error->all(FLERR, Error::NOLASTLINE,
               "Fix hgrid/tune requires neighbor style hgrid (or bin with skin auto)");
  if (modify->get_fix_by_style("^hgrid/tune$").size() > 1)
    error->all(FLERR, Error::NOLASTLINE, "Only one fix hgrid/tune may be defined");
  if (skin) skin->init();
  if (neighbor->style == Neighbor::HGRID) hand_settings();    // before this run's plan
}

/* ----------------------------------------------------------------------
   the planner uses these options, and keeps the applied layout across runs
------------------------------------------------------------------------- */

void FixHGridTune::hand_settings()
{
  settings.keep_layout = has_layout;
  planner->set_tuning(settings);
}

/* ---------------------------------------------------------------------- */

void FixHGridTune::setup(int /*vflag*/)
{
  if (skin) skin->setup();
}

/* ---------------------------------------------------------------------- */

void FixHGridTune::setup_pre_exchange()
{
  // a stored layout too small for this run (e.g. a new, larger fix pour stage) was
  // replaced by the planner at run setup: that is a re-level as well
  const hgrid::Layout &now = planner->plan().layout;
  if (has_layout && now.num_levels() > 0 && now != layout) {
    if (comm->me == 0)
      utils::logmesg(lmp,
                     "hgrid/tune: step {} re-level at run setup (particle exceeds top level "
                     "{:.4g}): {} level(s), top {:.4g}\n",
                     update->ntimestep, layout.top(), now.num_levels(), now.top());
    nrelevel++;
  }
  tune(1);
}

/* ----------------------------------------------------------------------
   at every rebuild, before atoms migrate and ghosts are sent: skin auto (the
   displacement that led to the rebuild, then the skin advised after an earlier
   one; HGridSkinTuner), then the re-level decision, so that this step's ghosts already go out
   to the cutoffs of the new plan (HGridPlanner::retune sets up Comm and the bins)
------------------------------------------------------------------------- */

void FixHGridTune::pre_exchange()
{
  if (skin) skin->pre_exchange();
  if (neighbor->style != Neighbor::HGRID) return;
  if (k_auto) calibrate_k();
  tune(update->ntimestep - last_tune >= nevery ? 1 : 0);
}

/* ----------------------------------------------------------------------
   skin auto: after a rebuild and at the end of every step
------------------------------------------------------------------------- */

void FixHGridTune::post_neighbor()
{
  skin->post_neighbor();
}

void FixHGridTune::end_of_step()
{
  skin->end_of_step();
}

/* ----------------------------------------------------------------------
   when scheduled, or at once if an atom outgrew the top level: the planner's
   decision (hgrid::decide_relevel), applied by the planner
------------------------------------------------------------------------- */

void FixHGridTune::tune(int scheduled)
{
  if (planner->plan().layout.num_levels() == 0) return;    // no list served by hgrid
  const double start_time = platform::walltime();
  const hgrid::Layout before = planner->plan().layout;
  const auto decision = planner->retune(policy, scheduled);
  const double seconds = platform::walltime() - start_time;
  tune_time += seconds;
  if (!decision) return;
  last_tune = update->ntimestep;
  cost_current = decision->cost_current;
  cost_optimal = decision->cost_optimal;
  const bool relevel = decision->action != hgrid::Relevel::None;
  if (verbose && comm->me == 0)
    utils::logmesg(lmp, "hgrid/tune: step {} predicted T/N current {:.4g} optimal {:.4g}{}\n",
                   update->ntimestep, cost_current, cost_optimal, relevel ? " -> re-level" : "");
  if (relevel) {
    relevel_time = seconds;
    log_relevel(before, *decision);
    nrelevel++;
  }
  layout = planner->plan().layout;
  if (!has_layout) {
    has_layout = 1;
    hand_settings();    // keep this layout across runs from now on
  }
}

void FixHGridTune::log_relevel(const hgrid::Layout &from, const hgrid::Decision &decision)
{
  if (comm->me != 0) return;
  const hgrid::Layout &to = planner->plan().layout;
  const bool overflow = decision.action == hgrid::Relevel::Overflow;
  std::string sfrom, sto;
  for (double s : from.cell_sizes) sfrom += fmt::format(" {:.4g}", s);
  for (double s : to.cell_sizes) sto += fmt::format(" {:.4g}", s);
  if (from.num_levels() == 1) sfrom += fmt::format(" /{}", hgrid::subdivisions_of(from));
  if (to.num_levels() == 1) sto += fmt::format(" /{}", hgrid::subdivisions_of(to));
  utils::logmesg(lmp,
                 "hgrid/tune: step {} re-level ({}): {} level(s){} {} -> {} level(s){} {}"
                 " (predicted T/N {} -> {:.4g})\n",
                 update->ntimestep, overflow ? "particle exceeds top level" : "predicted gain",
                 from.num_levels(), sfrom, hgrid::search_name(from.search), to.num_levels(), sto,
                 hgrid::search_name(to.search),
                 overflow ? std::string("n/a") : fmt::format("{:.4g}", decision.cost_current),
                 decision.cost_optimal);
}

/* ----------------------------------------------------------------------
   K auto: the last build's checks, visits and time of every rank into the
   least-squares fit (hgrid::KCalibration); the planner uses the new K
------------------------------------------------------------------------- */

void FixHGridTune::calibrate_k()
{
  const hgrid::SearchCounters &c = planner->last_build();
  // sub-cell visits of a one-level grid cost less than cell visits (hgrid::visit_weight)
  const double visit = hgrid::visit_weight(planner->plan().layout,
                                           hgrid::SystemParams::of_dimension(domain->dimension));
  // not const: LAMMPS' serial MPI stubs (HGRID_MPI=OFF) take a non-const send buffer
  auto local = hgrid::KCalibration::products((double) c.distance_checks, visit * c.cells_visited,
                                             planner->last_build_time());
  std::array<double, 5> sums{};
  MPI_Allreduce(local.data(), sums.data(), 5, MPI_DOUBLE, MPI_SUM, world);
  kfit.add(sums);
  if (kfit.estimate(settings.K)) hand_settings();
}

/* ----------------------------------------------------------------------
   1 levels, 2 predicted T/N of the current layout, 3 of the optimal layout
   (last evaluation), 4 distance checks and 5 cell visits per atom in the last
   build, 6 number of re-levels, 7 current K, 8 seconds spent in checks and
   re-levels so far, 9 seconds of the last re-level (wall time of this rank)
------------------------------------------------------------------------- */

double FixHGridTune::compute_vector(int n)
{
  if (n == 0) return has_layout ? layout.num_levels() : 0.0;
  if (n == 1) return cost_current;
  if (n == 2) return cost_optimal;
  if (n == 5) return nrelevel;
  if (n == 6) return settings.cell_access_cost(domain->dimension);
  if (n == 7) return tune_time;
  if (n == 8) return relevel_time;
  double checks, visits;
  planner->counters_per_atom(checks, visits);
  return n == 3 ? checks : visits;
}

/* ----------------------------------------------------------------------
   restart: layout, search, K, re-level count, last tune step
------------------------------------------------------------------------- */

void FixHGridTune::write_restart(FILE *fp)
{
  std::vector<double> list;
  // has_layout 2: the layout's sub-cells follow last_tune (1: a restart without them)
  list.push_back(has_layout ? 2 : 0);
  list.push_back(layout.num_levels());
  for (double s : layout.cell_sizes) list.push_back(s);
  list.push_back(layout.search == hgrid::Search::TopDown ? 1.0 : 0.0);
  list.push_back(settings.K);
  list.push_back(nrelevel);
  list.push_back(ubuf(last_tune).d);
  list.push_back(layout.subdivisions);
  if (comm->me == 0) {
    int size = list.size() * sizeof(double);
    fwrite(&size, sizeof(int), 1, fp);
    fwrite(list.data(), sizeof(double), list.size(), fp);
  }
}

void FixHGridTune::restart(char *buf)
{
  auto *list = (double *) buf;
  int n = 0;
  const int format = static_cast<int>(list[n++]);
  has_layout = format > 0;
  const int nlevels = static_cast<int>(list[n++]);
  layout.cell_sizes.assign(list + n, list + n + nlevels);
  n += nlevels;
  layout.search = list[n++] > 0.5 ? hgrid::Search::TopDown : hgrid::Search::BottomUp;
  settings.K = list[n++];
  nrelevel = static_cast<int>(list[n++]);
  last_tune = static_cast<bigint>(ubuf(list[n++]).i);
  layout.subdivisions = format > 1 ? static_cast<int>(list[n++]) : 0;
  if (nlevels < 1) has_layout = 0;
  if (has_layout) planner->restore_layout(layout);
}
