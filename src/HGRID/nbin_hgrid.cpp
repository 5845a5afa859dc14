/* ----------------------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#include "nbin_hgrid.h"

#include "atom.h"
#include "citeme.h"
#include "comm.h"
#include "domain.h"
#include "error.h"
#include "fix.h"
#include "fix_hgrid_tune.h"
#include "group.h"
#include "math_const.h"
#include "memory.h"
#include "modify.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "npair_hgrid.h"
#include "update.h"

#include "libhgrid/optimizer.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

using namespace LAMMPS_NS;
using MathConst::MY_PI;

// bins of the radius histogram handed to the cost model
static constexpr int HISTOGRAM_BINS = 128;
// diameter bound of the top atom collection: every larger atom belongs to it
static constexpr double UNBOUNDED = 1.0e300;

static const char cite_neigh_hgrid[] =
    "neighbor hgrid command: Krijgsman, Ogarko, Luding, Comp. Part. Mech. 1(3), 357 (2014)\n\n"
    "@Article{Krijgsman2014,\n"
    " author =  {D. Krijgsman and V. Ogarko and S. Luding},\n"
    " title =   {Optimal parameters for a hierarchical grid data structure for contact\n"
    "            detection in arbitrarily polydisperse particle systems},\n"
    " journal = {Computational Particle Mechanics},\n"
    " year =    2014,\n"
    " volume =  1,\n"
    " number =  3,\n"
    " pages =   {357--372}\n"
    "}\n\n";

/* ---------------------------------------------------------------------- */

NBinHGrid::NBinHGrid(LAMMPS *lmp) :
    NBin(lmp), atom2cell(nullptr), user_levels(0), user_search(0), skin(0.0),
    layout_printed(0), auto_mode(-1)
{
  if (lmp->citeme) lmp->citeme->add(cite_neigh_hgrid);
}

NBinHGrid::~NBinHGrid()
{
  memory->destroy(atom2cell);
  // the mode this class chose must not outlive neighbor style hgrid
  if (auto_mode >= 0 && !comm->mode_user) comm->mode = Comm::SINGLE;
}

/* ----------------------------------------------------------------------
   called at every run setup: (re)read the neighbor keywords, choose the layout
------------------------------------------------------------------------- */

void NBinHGrid::copy_neighbor_info()
{
  NBin::copy_neighbor_info();
  skin = neighbor->skin;
  if (domain->triclinic)
    error->all(FLERR, Error::NOLASTLINE,
               "Neighbor style hgrid does not support triclinic boxes; use neighbor bin or multi");
  if (!atom->radius_flag)
    error->all(FLERR, Error::NOLASTLINE,
               "Neighbor style hgrid requires atoms with a radius (e.g. atom_style sphere)");
  parse_args();
  choose_comm_mode();
  choose_layout();
}

/* ----------------------------------------------------------------------
   size-dependent ghost cutoffs by default: unless comm_modify set the mode or
   a ghost cutoff, or a list not built by hgrid needs ghosts out to the largest
   cutoff, the communication runs in mode multi with size classes as the atom
   collections (publish_collections); called before Comm::init()
------------------------------------------------------------------------- */

void NBinHGrid::choose_comm_mode()
{
  if (comm->mode_user) return;
  const int mode = (comm->cutghostuser == 0.0 && !other_binned_lists()) ? Comm::MULTI : Comm::SINGLE;
  if (mode != auto_mode) layout_printed = 0;    // log the change
  comm->mode = auto_mode = mode;
}

/* ----------------------------------------------------------------------
   true if a list is built from bins other than hgrid's (the bin fallback)
------------------------------------------------------------------------- */

bool NBinHGrid::other_binned_lists() const
{
  for (int i = 0; i < neighbor->nlist; i++) {
    const NeighList *list = neighbor->lists[i];
    if (list->bin_method > 0 && list->np && !dynamic_cast<NBinHGrid *>(list->np->nb)) return true;
  }
  return false;
}

/* ----------------------------------------------------------------------
   keywords after "neighbor SKIN hgrid":
     levels N s_1 ... s_N   explicit cell sizes, strictly increasing
     search topdown|bottomup
------------------------------------------------------------------------- */

void NBinHGrid::parse_args()
{
  const auto &args = neighbor->hgrid_args;
  const int narg = args.size();
  user_levels = user_search = 0;
  user_layout = hgrid::Layout();

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
      for (int h = 0; h < n; h++)
        user_layout.cell_sizes.push_back(utils::numeric(FLERR, args[iarg + 2 + h], false, lmp));
      user_levels = 1;
      iarg += 2 + n;
    } else if (key == "search") {
      if (iarg + 1 >= narg) error->all(FLERR, "Missing value for neighbor hgrid keyword search");
      if (args[iarg + 1] == "topdown")
        user_layout.search = hgrid::Search::TopDown;
      else if (args[iarg + 1] == "bottomup")
        user_layout.search = hgrid::Search::BottomUp;
      else
        error->all(FLERR, "Unknown neighbor hgrid search direction: {}", args[iarg + 1]);
      user_search = 1;
      iarg += 2;
    } else
      error->all(FLERR, "Unknown neighbor hgrid keyword: {}", key);
  }
}

/* ----------------------------------------------------------------------
   smallest and largest cutoff diameter 2*r+skin over all atoms, including
   particles that fix pour / fix deposit may insert later
------------------------------------------------------------------------- */

void NBinHGrid::range_of_cutoff_diameters(double &cmin, double &cmax)
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

  cmax = 2.0 * rmax + skin;
  cmin = -2.0 * rall[0] + skin;
  if (rall[1] < 0.0) cmin = cmax;    // no atoms yet
  if (!(cmax > 0.0))
    error->all(FLERR, Error::NOLASTLINE,
               "Neighbor style hgrid needs particles with a radius or a positive skin");
  if (!(cmin > 0.0)) cmin = cmax;
}

/* ----------------------------------------------------------------------
   explicit layout, or the cost model's optimum; prediction for the layout used
------------------------------------------------------------------------- */

void NBinHGrid::choose_layout()
{
  double cmin, cmax;
  range_of_cutoff_diameters(cmin, cmax);
  hgrid::SystemParams params;
  const auto f = radius_histogram(cmin, cmax, params);

  FixHGridTune *tune = find_tune();
  hgrid::Layout chosen;
  try {
    if (tune && tune->has_layout && hgrid::level_of(tune->layout, cmax) >= 0) {
      chosen = tune->layout;    // kept across runs and restarts; the fix re-evaluates it
    } else if (user_levels) {
      hgrid::validate(user_layout, cmax);
      chosen = user_layout;
    } else {
      chosen = model_layout(f.get(), params, cmax);
    }
  } catch (std::invalid_argument &e) {
    error->all(FLERR, Error::NOLASTLINE, "Neighbor hgrid levels: {}", e.what());
  }
  predicted = f ? hgrid::evaluate(chosen, *f, params) : hgrid::Cost();

  if (chosen != layout) layout_printed = 0;
  layout = chosen;
  publish_collections(cmin);
  if (!layout_printed && comm->me == 0) {
    if (f) {
      const double single = hgrid::evaluate(hgrid::Layout{{layout.top()}, layout.search}, *f,
                                            params).total;
      utils::logmesg(lmp, "HGrid cost model: packing fraction {:.4g}, predicted work per "
                     "particle {:.4g} (one level: {:.4g}, speed-up {:.3g})\n", params.packing,
                     predicted.total, single, single / predicted.total);
    }
    utils::logmesg(lmp, "HGrid layout: {} level(s), search {}, cutoff diameters {:.8g} to {:.8g}\n{}",
                   layout.num_levels(), hgrid::search_name(layout.search), cmin, cmax,
                   hgrid::describe(layout));
    utils::logmesg(lmp, "HGrid ghost cutoffs: {}\n", ghost_cutoffs_description());
  }
  layout_printed = 1;
}

/* ----------------------------------------------------------------------
   in comm mode multi the atom collections are size classes of ratio <= 1.25
   between the smallest cutoff diameter and the top level (hgrid::ghost_classes,
   not the levels: the search needs ghosts only within r_i + r_j + skin of an
   owned atom, wherever they are binned).  An atom of class k is sent out to
   max_j (b_k + b_j)/2 = (b_k + s_top)/2, at most 12.5 % of its cutoff diameter
   beyond the farthest any atom can reach it (collection2cut bounds 2r = c - skin).
------------------------------------------------------------------------- */

void NBinHGrid::publish_collections(double cmin)
{
  if (comm->mode != Comm::MULTI) return;
  const std::vector<double> bounds = hgrid::ghost_classes(layout, cmin);
  const int n = bounds.size();
  // lists of the bin fallback need ghosts out to their (the largest) cutoff
  const double floor = other_binned_lists() ? neighbor->cutneighmax : 0.0;
  neighbor->ncollections = n;
  neighbor->finite_cut_flag = 1;
  memory->grow(neighbor->collection2cut, n, "neigh:collection2cut");
  memory->grow(neighbor->cutcollectionsq, n, n, "neigh:cutcollectionsq");
  for (int i = 0; i < n; i++) {
    // the largest 2r of class i (with level_of()'s round-off); an atom that outgrew
    // the top level is in the top collection until re-leveled
    neighbor->collection2cut[i] =
        (i == n - 1) ? UNBOUNDED : bounds[i] * (1.0 + hgrid::kSizeTolerance) - skin;
    for (int j = 0; j < n; j++) {
      const double reach = MAX(0.5 * (bounds[i] + bounds[j]), floor);
      neighbor->cutcollectionsq[i][j] = reach * reach;
    }
  }
}

std::string NBinHGrid::ghost_cutoffs_description() const
{
  if (comm->mode == Comm::MULTI)
    return fmt::format("by particle size, {} classes ({})", neighbor->ncollections,
                       comm->mode_user ? "comm_modify mode multi"
                                       : "default; comm_modify mode single for one cutoff");
  if (comm->mode_user) return "one for all levels (comm_modify mode single)";
  if (comm->cutghostuser > 0.0) return "one for all levels (comm_modify cutoff)";
  return "one for all levels (lists of other pair styles or computes need it)";
}

/* ----------------------------------------------------------------------
   histogram of the radii of all atoms (evenly spaced in log r, up to the largest
   radius fix pour/deposit may insert), packing fraction and skin for the model;
   nullptr for a monodisperse or empty system
------------------------------------------------------------------------- */

std::unique_ptr<hgrid::Histogram> NBinHGrid::radius_histogram(double cmin, double cmax,
                                                               hgrid::SystemParams &params)
{
  const double rmin = 0.5 * (cmin - skin), rmax = 0.5 * (cmax - skin);
  const int dim = domain->dimension;
  const double box_volume = domain->xprd * domain->yprd * (dim == 3 ? domain->zprd : 1.0);
  params = hgrid::SystemParams();
  FixHGridTune *tune = find_tune();
  if (tune) params.K = tune->K;
  params.dimension = dim;
  params.skin = skin;
  if (!(rmin > 0.0) || !(rmax > rmin * (1.0 + 1.0e-6))) return nullptr;

  // counts per bin and, in the last entry, the particle volume, over all ranks
  const hgrid::LogBinning binning(rmin, rmax, HISTOGRAM_BINS);
  std::vector<double> local(HISTOGRAM_BINS + 1, 0.0), counts(HISTOGRAM_BINS + 1);
  const double *radius = atom->radius;
  for (int i = 0; i < atom->nlocal; i++) {
    if (!(radius[i] > 0.0)) continue;
    local[binning.index(radius[i])] += 1.0;
    local[HISTOGRAM_BINS] += (dim == 3 ? 4.0 / 3.0 * radius[i] : 1.0) * MY_PI * radius[i] * radius[i];
  }
  MPI_Allreduce(local.data(), counts.data(), HISTOGRAM_BINS + 1, MPI_DOUBLE, MPI_SUM, world);
  params.packing = counts.back() / box_volume;
  counts.pop_back();
  if (!(params.packing > 0.0)) return nullptr;
  return std::make_unique<hgrid::Histogram>(binning.edges(), counts);
}

/* ----------------------------------------------------------------------
   optimal layout of the cost model (eq. 27 minimized over levels, sizes and,
   unless given, the search direction); rank 0 decides, the result is cached
------------------------------------------------------------------------- */

hgrid::Layout NBinHGrid::model_layout(const hgrid::Histogram *f, const hgrid::SystemParams &params,
                                      double cmax)
{
  // settings: fix hgrid/tune's, else the optimal method and the neighbor keywords
  FixHGridTune *tune = find_tune();
  const hgrid::Method method = tune ? tune->method : hgrid::Method::Optimal;
  const int auto_search = tune ? tune->auto_search : !user_search;
  const hgrid::Search search = tune ? tune->search : user_layout.search;
  const int maxlevels = tune ? tune->maxlevels : hgrid::kMaxLevels;

  std::vector<double> key = f ? f->weights() : std::vector<double>();
  key.insert(key.end(), {cmax, skin, params.packing, params.K, params.storage, (double) params.dimension,
                         (double) method, (double) auto_search, (double) search,
                         (double) maxlevels});
  if (key == model_key) return model_result;

  hgrid::Layout chosen{{cmax}, search};
  if (f) {
    if (comm->me == 0)
      chosen = hgrid::best_layout(method, *f, params, search, auto_search, maxlevels).layout;
    int nlevels = chosen.num_levels(), topdown = chosen.search == hgrid::Search::TopDown;
    MPI_Bcast(&nlevels, 1, MPI_INT, 0, world);
    MPI_Bcast(&topdown, 1, MPI_INT, 0, world);
    chosen.cell_sizes.resize(nlevels);
    MPI_Bcast(chosen.cell_sizes.data(), nlevels, MPI_DOUBLE, 0, world);
    chosen.search = topdown ? hgrid::Search::TopDown : hgrid::Search::BottomUp;
  }
  chosen.cell_sizes.back() = MAX(chosen.cell_sizes.back(), cmax);
  model_key = key;
  model_result = chosen;
  return chosen;
}

/* ----------------------------------------------------------------------
   layout chosen by fix hgrid/tune during a run; the caller re-runs setup_bins()
------------------------------------------------------------------------- */

void NBinHGrid::set_layout(const hgrid::Layout &new_layout, const hgrid::Cost &new_prediction,
                           double cmin)
{
  layout = new_layout;
  predicted = new_prediction;
  if (comm->mode != Comm::MULTI) return;

  // the ghost cutoffs follow the new top level from the next exchange on.  This
  // step's ghosts were sent out to (b_k + s_top)/2 of the old layout, at least
  // (c_j + c_max)/2, the reach of any pair, unless an atom outgrew the old top
  // level (then one cutoff is short as well, see fix hgrid/tune).  Comm::init()
  // re-sizes the per-collection arrays; the swaps this step's forward and reverse
  // communication use depend only on the largest cutoff, which is not changed.
  publish_collections(cmin);
  comm->init();
  comm->setup();
}

FixHGridTune *NBinHGrid::find_tune() const
{
  auto fixes = modify->get_fix_by_style("^hgrid/tune$");
  return fixes.empty() ? nullptr : dynamic_cast<FixHGridTune *>(fixes.front());
}

/* ---------------------------------------------------------------------- */

void NBinHGrid::bin_atoms_setup(int nall)
{
  if (nall > maxatom) {
    maxatom = nall;
    memory->destroy(atom2cell);
    memory->create(atom2cell, maxatom, "neigh:atom2cell");
  }
}

/* ----------------------------------------------------------------------
   per-level cell geometry: global cells fill the box exactly; the local window
   of level l covers my subdomain plus the ghost shell that searches into level l
   can reach: the k cells (k*edge >= s_l) of the same-level stencil, which also
   hold the reach of searches from smaller levels (delta = (c_i + s_l)/2 < s_l),
   or (s_top + s_l)/2 when larger atoms search level l (Top-Down, full lists,
   newton off).  Ghosts beyond it are not binned.
------------------------------------------------------------------------- */

void NBinHGrid::setup_bins(int /*style*/)
{
  hgrid::Box box;
  box.dimension = domain->dimension;
  for (int d = 0; d < 3; d++) {
    box.lo[d] = bboxlo[d];
    box.hi[d] = bboxhi[d];
  }
  const bool downward = searched_from_above();
  const int subdivisions = hgrid::subdivisions_of(layout);

  grids.clear();
  std::vector<int> ncells;
  try {
    for (double s : layout.cell_sizes) {
      // same-level and upward searches reach < s <= the k cells LevelGrid adds
      const double reach = downward ? 0.5 * (layout.top() + s) : 0.0;
      std::array<double, 3> wlo{}, whi{};
      for (int d = 0; d < 3; d++) {
        wlo[d] = domain->sublo[d] - MIN(reach, comm->cutghost[d]);
        whi[d] = domain->subhi[d] + MIN(reach, comm->cutghost[d]);
      }
      grids.emplace_back(s, box, wlo, whi, subdivisions);
      ncells.push_back(grids.back().num_cells());
    }
  } catch (std::invalid_argument &e) {
    error->one(FLERR, Error::NOLASTLINE, "Neighbor hgrid: {}", e.what());
  }
  cells.set_levels(ncells);
}

/* ----------------------------------------------------------------------
   true if any list built from these bins has larger atoms search smaller levels
------------------------------------------------------------------------- */

bool NBinHGrid::searched_from_above() const
{
  const bool topdown = layout.search == hgrid::Search::TopDown;
  for (int i = 0; i < neighbor->nlist; i++) {
    auto *np = dynamic_cast<NPairHGridBase *>(neighbor->lists[i]->np);
    if (np && np->nb == this && (topdown || np->searches_both_directions())) return true;
  }
  return false;
}

/* ----------------------------------------------------------------------
   put owned and ghost atoms into the global cell of their level, then sort them
------------------------------------------------------------------------- */

void NBinHGrid::bin_atoms()
{
  last_bin = update->ntimestep;

  double **x = atom->x;
  const double *radius = atom->radius;
  const int *mask = atom->mask;
  const int nlocal = atom->nlocal;
  const int nall = nlocal + atom->nghost;
  const int nowned = includegroup ? atom->nfirst : nlocal;
  const int bitmask = includegroup ? group->bitmask[includegroup] : 0;

  for (int i = 0; i < nall; i++) {
    atom2cell[i] = -1;
    if (i >= nowned && i < nlocal) continue;
    if (i >= nlocal && includegroup && !(mask[i] & bitmask)) continue;

    const int level = level_of_atom(radius[i]);
    const int cell = grids[level].index_of(x[i]);
    if (cell >= 0)
      atom2cell[i] = cells.global_cell(level, cell);
    else if (i < nlocal)
      error->one(FLERR, Error::NOLASTLINE, "Neighbor hgrid: owned atom outside its grid window");
  }
  cells.build(nall, atom2cell);
}

/* ----------------------------------------------------------------------
   level of an atom of radius r (eq. 3 with the cutoff diameter 2r + skin)
------------------------------------------------------------------------- */

int NBinHGrid::level_of_atom(double r) const
{
  const double cutdiam = 2.0 * r + skin;
  const int level = hgrid::level_of(layout, cutdiam);
  if (level < 0)
    error->one(FLERR, Error::NOLASTLINE,
               "Atom cutoff diameter {:.8g} (radius {:.8g} + skin) exceeds the top hgrid "
               "level {:.8g}; raise the last value of neighbor hgrid levels or use fix hgrid/tune",
               cutdiam, r, layout.top());
  return level;
}

/* ---------------------------------------------------------------------- */

double NBinHGrid::memory_usage()
{
  return (double) maxatom * sizeof(int) + cells.memory_bytes();
}
