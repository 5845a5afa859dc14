/* ----------------------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#include "fix_hgrid_tune.h"

#include "comm.h"
#include "error.h"
#include "modify.h"
#include "nbin_hgrid.h"
#include "neighbor.h"
#include "npair_hgrid.h"
#include "update.h"

#include "libhgrid/cost_model.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

using namespace LAMMPS_NS;
using namespace FixConst;

// size of the output vector
static constexpr int NVALUES = 7;
// default relative predicted gain needed to re-level (hysteresis)
static constexpr double DEFAULT_THRESHOLD = 0.1;
// weight of older builds in the K calibration (exponential forgetting)
static constexpr double K_MEMORY = 0.9;
// accepted range of a calibrated K
static constexpr double K_MIN = 0.01, K_MAX = 10.0;
// the two-parameter fit is used only if the samples are this far from collinear
static constexpr double K_MIN_CONDITION = 1.0e-6;
// a re-level forced by a particle above the top level makes the new top this much
// larger than the largest cutoff diameter, so that growing particles do not force a
// re-level at every reneighboring
static constexpr double OVERFLOW_HEADROOM = 0.25;

/* ---------------------------------------------------------------------- */

FixHGridTune::FixHGridTune(LAMMPS *lmp, int narg, char **arg) :
    Fix(lmp, narg, arg), method(hgrid::Method::Optimal), auto_search(1),
    search(hgrid::Search::TopDown), maxlevels(hgrid::kMaxLevels),
    K(hgrid::kHGridCellAccessCostRatio), has_layout(0), nevery(0), threshold(DEFAULT_THRESHOLD),
    k_auto(0), verbose(0), last_tune(-1), nrelevel(0), cost_current(0.0), cost_optimal(0.0),
    ksums{0.0, 0.0, 0.0, 0.0, 0.0}
{
  if (narg < 4) utils::missing_cmd_args(FLERR, "fix hgrid/tune", error);
  if (igroup != 0) error->all(FLERR, 1, "Fix hgrid/tune must use group all");
  nevery = utils::inumeric(FLERR, arg[3], false, lmp);
  if (nevery <= 0) error->all(FLERR, 3, "Fix hgrid/tune N must be > 0, got {}", arg[3]);

  for (int iarg = 4; iarg < narg; iarg += 2) {
    const std::string key = arg[iarg];
    if (iarg + 1 >= narg) utils::missing_cmd_args(FLERR, "fix hgrid/tune " + key, error);
    const std::string value = arg[iarg + 1];
    if (key == "every") {
      nevery = utils::inumeric(FLERR, value, false, lmp);
      if (nevery <= 0) error->all(FLERR, iarg + 1, "Fix hgrid/tune every must be > 0, got {}", value);
    } else if (key == "threshold") {
      threshold = utils::numeric(FLERR, value, false, lmp);
      if (threshold < 0.0 || threshold >= 1.0)
        error->all(FLERR, iarg + 1, "Fix hgrid/tune threshold must be in [0,1), got {}", value);
    } else if (key == "method") {
      try {
        method = hgrid::method_from_name(value);
      } catch (std::invalid_argument &e) {
        error->all(FLERR, iarg + 1, "Fix hgrid/tune method: {}", e.what());
      }
    } else if (key == "search") {
      if (value == "auto") auto_search = 1;
      else if (value == "topdown") auto_search = 0, search = hgrid::Search::TopDown;
      else if (value == "bottomup") auto_search = 0, search = hgrid::Search::BottomUp;
      else error->all(FLERR, iarg + 1, "Unknown fix hgrid/tune search value: {}", value);
    } else if (key == "K") {
      if (value == "auto") k_auto = 1;
      else {
        k_auto = 0;
        K = utils::numeric(FLERR, value, false, lmp);
        if (K <= 0.0) error->all(FLERR, iarg + 1, "Fix hgrid/tune K must be > 0, got {}", value);
      }
    } else if (key == "maxlevels") {
      maxlevels = utils::inumeric(FLERR, value, false, lmp);
      if (maxlevels < 1 || maxlevels > hgrid::kMaxLevels)
        error->all(FLERR, iarg + 1, "Fix hgrid/tune maxlevels must be 1..{}, got {}",
                   hgrid::kMaxLevels, value);
    } else if (key == "verbose") {
      verbose = utils::logical(FLERR, value, false, lmp);
    } else
      error->all(FLERR, iarg, "Unknown fix hgrid/tune keyword: {}", key);
  }

  vector_flag = 1;
  size_vector = NVALUES;
  global_freq = 1;
  extvector = 0;
  restart_global = 1;
}

/* ---------------------------------------------------------------------- */

int FixHGridTune::setmask()
{
  return PRE_NEIGHBOR;
}

void FixHGridTune::init()
{
  if (neighbor->style != Neighbor::HGRID)
    error->all(FLERR, Error::NOLASTLINE, "Fix hgrid/tune requires neighbor style hgrid");
  if (modify->get_fix_by_style("^hgrid/tune$").size() > 1)
    error->all(FLERR, Error::NOLASTLINE, "Only one fix hgrid/tune may be defined");
}

/* ----------------------------------------------------------------------
   the hgrid bins of the pair style's list (or of the first hgrid list)
------------------------------------------------------------------------- */

NBinHGrid *FixHGridTune::find_bins() const
{
  NPairHGridBase *np = NPairHGridBase::find(lmp);
  return np ? dynamic_cast<NBinHGrid *>(np->nb) : nullptr;
}

/* ---------------------------------------------------------------------- */

void FixHGridTune::setup_pre_neighbor()
{
  // a stored layout too small for this run (e.g. a new, larger fix pour stage) was
  // replaced by neighbor hgrid at run setup: that is a re-level as well
  NBinHGrid *nb = find_bins();
  if (nb && has_layout && nb->get_layout() != layout) {
    if (comm->me == 0)
      utils::logmesg(lmp, "hgrid/tune: step {} re-level at run setup (particle exceeds top level "
                     "{:.4g}): {} level(s), top {:.4g}\n", update->ntimestep, layout.top(),
                     nb->get_layout().num_levels(), nb->get_layout().top());
    nrelevel++;
  }
  tune(1);
}

void FixHGridTune::pre_neighbor()
{
  if (k_auto) calibrate_k();
  tune(update->ntimestep - last_tune >= nevery ? 1 : 0);
}

/* ----------------------------------------------------------------------
   evaluate the model for the current layout and the optimum; re-level if the
   top level is too small (always) or, when forced by the schedule, if the
   predicted relative gain exceeds the threshold
------------------------------------------------------------------------- */

void FixHGridTune::tune(int scheduled)
{
  NBinHGrid *nb = find_bins();
  if (!nb) return;    // no list served by hgrid

  double cmin, cmax;
  nb->range_of_cutoff_diameters(cmin, cmax);
  const hgrid::Layout current = nb->get_layout();
  const bool too_small = hgrid::level_of(current, cmax) < 0;
  if (!scheduled && !too_small) return;
  last_tune = update->ntimestep;

  const double ctop = too_small ? cmin + (cmax - cmin) * (1.0 + OVERFLOW_HEADROOM) : cmax;
  hgrid::SystemParams params;
  const auto f = nb->radius_histogram(cmin, ctop, params);
  const hgrid::Layout optimal = nb->model_layout(f.get(), params, ctop);
  const hgrid::Cost optimal_cost = f ? hgrid::evaluate(optimal, *f, params) : hgrid::Cost();
  cost_optimal = optimal_cost.total;
  cost_current = (f && !too_small) ? hgrid::evaluate(current, *f, params).total : 0.0;

  const bool gain = cost_current > 0.0 && cost_optimal < (1.0 - threshold) * cost_current;
  const bool relevel = optimal != current && (too_small || gain);
  if (verbose && comm->me == 0)
    utils::logmesg(lmp, "hgrid/tune: step {} predicted T/N current {:.4g} optimal {:.4g}{}\n",
                   update->ntimestep, cost_current, cost_optimal, relevel ? " -> re-level" : "");
  if (relevel) {
    if (comm->me == 0) {
      std::string from, to;
      for (double s : current.cell_sizes) from += fmt::format(" {:.4g}", s);
      for (double s : optimal.cell_sizes) to += fmt::format(" {:.4g}", s);
      utils::logmesg(lmp, "hgrid/tune: step {} re-level ({}): {} level(s){} {} -> {} level(s){} {}"
                     " (predicted T/N {} -> {:.4g})\n", update->ntimestep,
                     too_small ? "particle exceeds top level" : "predicted gain",
                     current.num_levels(), from, hgrid::search_name(current.search),
                     optimal.num_levels(), to, hgrid::search_name(optimal.search),
                     too_small ? std::string("n/a") : fmt::format("{:.4g}", cost_current),
                     cost_optimal);
    }
    nb->set_layout(optimal, optimal_cost, cmin);
    neighbor->setup_bins();
    nrelevel++;
  }
  layout = nb->get_layout();
  has_layout = 1;
}

/* ----------------------------------------------------------------------
   K auto: least-squares fit t = a * checks + b * visits over the recent builds
   of all ranks (older builds weighted down), K = b / a
------------------------------------------------------------------------- */

void FixHGridTune::calibrate_k()
{
  NPairHGridBase *np = NPairHGridBase::find(lmp);
  if (!np || np->counters.build_time <= 0.0) return;
  const double c = np->counters.distance_checks, v = np->counters.cells_visited;
  const double t = np->counters.build_time;
  double local[5] = {c * c, c * v, v * v, t * c, t * v}, sums[5];
  MPI_Allreduce(local, sums, 5, MPI_DOUBLE, MPI_SUM, world);
  for (int k = 0; k < 5; k++) ksums[k] = K_MEMORY * ksums[k] + sums[k];

  const double det = ksums[0] * ksums[2] - ksums[1] * ksums[1];
  if (!(det > K_MIN_CONDITION * ksums[0] * ksums[2])) return;
  const double a = (ksums[3] * ksums[2] - ksums[4] * ksums[1]) / det;
  const double b = (ksums[0] * ksums[4] - ksums[1] * ksums[3]) / det;
  if (a > 0.0 && b > 0.0) K = MIN(MAX(b / a, K_MIN), K_MAX);
}

/* ----------------------------------------------------------------------
   1 levels, 2 predicted T/N of the current layout, 3 of the optimal layout
   (last evaluation), 4 distance checks and 5 cell visits per atom in the last
   build, 6 number of re-levels, 7 current K
------------------------------------------------------------------------- */

double FixHGridTune::compute_vector(int n)
{
  if (n == 0) return has_layout ? layout.num_levels() : 0.0;
  if (n == 1) return cost_current;
  if (n == 2) return cost_optimal;
  if (n == 5) return nrelevel;
  if (n == 6) return K;
  NPairHGridBase *np = NPairHGridBase::find(lmp);
  if (!np) return 0.0;
  double checks, visits;
  np->counters_per_atom(checks, visits);
  return n == 3 ? checks : visits;
}

/* ----------------------------------------------------------------------
   restart: layout, search, K, re-level count, last tune step
------------------------------------------------------------------------- */

void FixHGridTune::write_restart(FILE *fp)
{
  std::vector<double> list;
  list.push_back(has_layout);
  list.push_back(layout.num_levels());
  for (double s : layout.cell_sizes) list.push_back(s);
  list.push_back(layout.search == hgrid::Search::TopDown ? 1.0 : 0.0);
  list.push_back(K);
  list.push_back(nrelevel);
  list.push_back(ubuf(last_tune).d);
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
  has_layout = static_cast<int>(list[n++]);
  const int nlevels = static_cast<int>(list[n++]);
  layout.cell_sizes.assign(list + n, list + n + nlevels);
  n += nlevels;
  layout.search = list[n++] > 0.5 ? hgrid::Search::TopDown : hgrid::Search::BottomUp;
  K = list[n++];
  nrelevel = static_cast<int>(list[n++]);
  last_tune = static_cast<bigint>(ubuf(list[n++]).i);
  if (nlevels < 1) has_layout = 0;
}
