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
#include "group.h"
#include "hgrid_planner.h"
#include "memory.h"
#include "update.h"

#include "libhgrid/threads.h"

#include <cmath>
#include <stdexcept>

using namespace LAMMPS_NS;

static constexpr double BIG = 1.0e20;

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

NBinHGrid::NBinHGrid(LAMMPS *lmp) : NBin(lmp), atom2cell(nullptr), planner(HGridPlanner::get(lmp))
{
  if (lmp->citeme) lmp->citeme->add(cite_neigh_hgrid);
  planner->attach_bins(this);
}

NBinHGrid::~NBinHGrid()
{
  memory->destroy(atom2cell);
  // the comm mode and atom sort the planner chose must not outlive neighbor style hgrid
  planner->detach_bins(this);
  planner->release();
}

/* ----------------------------------------------------------------------
   called at every run setup, before Comm::init(): the plan for this run
------------------------------------------------------------------------- */

void NBinHGrid::copy_neighbor_info()
{
  NBin::copy_neighbor_info();
  planner->setup_run();
}

/* ----------------------------------------------------------------------
   Neighbor::decide() found a rebuild due, before atoms migrate (core patch
   0007): the planner may calibrate its cost model by the last build and
   re-level (HGridPlanner::before_rebuild)
------------------------------------------------------------------------- */

void NBinHGrid::rebuild_due()
{
  planner->before_rebuild();
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
   per-level cell geometry: global cells fill the box exactly (a triclinic box:
   its bounding box, so cells repeat with the box along z only); the local window
   of level l covers my subdomain plus the ghost shell that searches into level l
   can reach: the k cells (k*edge >= s_l) of the same-level stencil, which also
   hold the reach of searches from smaller levels (delta = (c_i + s_l)/2 < s_l),
   or (s_top + s_l)/2 when larger atoms search level l (Top-Down, full lists,
   newton off).  Ghosts beyond it are not binned.
------------------------------------------------------------------------- */

void NBinHGrid::setup_bins(int /*style*/)
{
  const hgrid::Layout &layout = planner->plan().layout;
  hgrid::Box box;
  box.dimension = domain->dimension;
  for (int d = 0; d < 3; d++) {
    box.lo[d] = bboxlo[d];
    box.hi[d] = bboxhi[d];
  }
  // larger atoms search smaller levels for ghost partners only in full or newton-off
  // lists (their pair builders tell the planner at run setup); half newton-on lists
  // find pairs with ghosts from the smaller particle (hgrid::PairSearch)
  const bool downward = planner->two_way_search();
  const int subdivisions = hgrid::subdivisions_of(layout);

  grids.clear();
  views.clear();
  std::vector<int> ncells;
  int first_cell = 0;
  try {
    for (double s : layout.cell_sizes) {
      // same-level and upward searches reach < s <= the k cells LevelGrid adds
      const double reach = downward ? 0.5 * (layout.top() + s) : 0.0;
      std::array<double, 3> wlo{}, whi{};
      window(reach, wlo, whi);
      grids.emplace_back(s, box, wlo, whi, subdivisions);
      views.push_back(grids.back().view(first_cell));
      if (!triclinic) views.back().set_interior(domain->sublo, domain->subhi);
      ncells.push_back(grids.back().num_cells());
      first_cell += ncells.back();
    }
  } catch (std::invalid_argument &e) {
    error->one(FLERR, Error::NOLASTLINE, "Neighbor hgrid: {}", e.what());
  }
  cells.set_levels(ncells);
  planner->report_cells(cells.num_cells());
}

/* ----------------------------------------------------------------------
   my subdomain extended by reach (at most the ghost cutoff); in a triclinic
   box the bounding box of that extension, made in lamda coordinates (as
   NBinStandard bins a triclinic box: cells over the bounding box of the box)
------------------------------------------------------------------------- */

void NBinHGrid::window(double reach, std::array<double, 3> &lo, std::array<double, 3> &hi) const
{
  const double *cutghost = comm->cutghost;
  if (!triclinic) {
    for (int d = 0; d < 3; d++) {
      lo[d] = domain->sublo[d] - MIN(reach, cutghost[d]);
      hi[d] = domain->subhi[d] + MIN(reach, cutghost[d]);
    }
    return;
  }
  // lamda units per unit length along each lamda direction (as CommBrick::setup)
  const double *h_inv = domain->h_inv;
  const double per_length[3] = {
      sqrt(h_inv[0] * h_inv[0] + h_inv[5] * h_inv[5] + h_inv[4] * h_inv[4]),
      sqrt(h_inv[1] * h_inv[1] + h_inv[3] * h_inv[3]), h_inv[2]};
  double lamda_lo[3], lamda_hi[3];
  for (int d = 0; d < 3; d++) {
    const double extend = MIN(reach * per_length[d], cutghost[d]);
    lamda_lo[d] = domain->sublo_lamda[d] - extend;
    lamda_hi[d] = domain->subhi_lamda[d] + extend;
  }
  domain->bbox(lamda_lo, lamda_hi, lo.data(), hi.data());
}

/* ----------------------------------------------------------------------
   the grid as the pair kernels read it
------------------------------------------------------------------------- */

hgrid::GridView NBinHGrid::view() const
{
  hgrid::GridView g;
  g.nlevels = views.size();
  g.topdown = planner->plan().layout.search == hgrid::Search::TopDown;
  g.levels = views.data();
  g.cell_start = cells.starts();
  g.slots = cells.particles();
  return g;
}

/* ----------------------------------------------------------------------
   put owned and ghost atoms into the global cell of their level (on the OPENMP
   package's threads, if it gives more than one), then sort them by cell
------------------------------------------------------------------------- */

void NBinHGrid::bin_atoms()
{
  last_bin = update->ntimestep;
  planner->start_phases();
  double time = platform::walltime();

  const int nlocal = atom->nlocal;
  const int nall = nlocal + atom->nghost;
  const int nowned = includegroup ? atom->nfirst : nlocal;
  const int nthreads = comm->nthreads;
  scans.assign(nthreads, Scan::none());    // a region may get fewer threads
  // each thread its part of the owned atoms and its part of the ghosts, as the cell
  // lists read them
  hgrid::on_threads(nthreads, [&](int t, int nt) {
    const hgrid::SplitShare s = hgrid::split_share_of(nall, nlocal, t, nt);
    scans[t] = bin_share(s.part[0].lo, s.part[0].hi);
    scans[t].merge(bin_share(s.part[1].lo, s.part[1].hi));
  });
  time = planner->end_phase(HGridPlanner::PHASE_CELLS, time);
  Scan all = scans[0];
  for (int t = 1; t < nthreads; t++) all.merge(scans[t]);
  const int outgrown = all.outgrown, outside = all.outside;
  const double *radius = atom->radius;
  if (outgrown >= 0) exceeds_top_level(radius[outgrown]);
  if (outside >= 0)
    error->one(FLERR, Error::NOLASTLINE, "Neighbor hgrid: owned atom outside its grid window");
  cells.build(nall, nlocal, atom2cell, nthreads);
  planner->end_phase(HGridPlanner::PHASE_SORT, time);
  // a ghost's search for owned partners reads only the cells of owned atoms
  // (PairSearch::owned_below); triclinic boxes keep every cell
  if (!triclinic)
    for (auto &v : views) v.set_owned(all.lo, all.hi, nowned > 0);
  for (int h = 0; h < num_levels(); h++)
    hgrid::set_row_density(views[h], grids[h].subdivisions(), cells.level_count(h));
}

/* ----------------------------------------------------------------------
   atoms first..last-1 into their cells (atom2cell), -1 for those not binned.
   The owned atoms, the owned ones outside the include group and the ghosts in
   loops of their own, the cells stored through a restrict pointer (so the level
   views stay in registers): N = 1e5, omega 100, this phase 0.77-0.82 -> 0.62-0.66
   ms on one thread, 0.61-0.65 -> 0.32-0.33 ms on two (four interleaved pairs
   each; Neigh -3 to -7 % on two threads), against one loop testing each atom;
   positions through x[0] (as the pair search reads them), not x[i]: N = 1e6, this
   phase -4 to -6 % (three interleaved rounds, one and two threads)
------------------------------------------------------------------------- */

NBinHGrid::Scan NBinHGrid::bin_share(int first, int last)
{
  // positions through x[0]: LAMMPS allocates the rows of atom->x contiguously
  const double *x = atom->x ? atom->x[0] : nullptr;
  const double *radius = atom->radius;
  const int *mask = atom->mask;
  const int nlocal = atom->nlocal;
  const int nowned = includegroup ? atom->nfirst : nlocal;
  const int bitmask = includegroup ? group->bitmask[includegroup] : 0;
  const hgrid::Layout &layout = planner->plan().layout;
  const double skin = planner->skin();
  const hgrid::LevelView *level_view = views.data();
  // restrict: the stores of cells do not change the views, which stay in registers
  int *__restrict cell_of = atom2cell;
  Scan scan = Scan::none();
  // the global cell of atom i, -1 (noted in scan) above the top level or off its window
  const auto bin = [&](int i) {
    const int level = hgrid::level_of(layout, 2.0 * radius[i] + skin);
    if (level < 0) {
      scan.outgrown = i;
      return -1;
    }
    const int cell = level_view[level].index_of(x + 3 * i);
    if (cell >= 0) return level_view[level].first_cell + cell;
    if (i < nlocal) scan.outside = i;
    return -1;
  };
  const int owned_end = MIN(last, nowned);
  for (int i = first; i < owned_end; i++) {
    for (int d = 0; d < 3; d++) {
      scan.lo[d] = MIN(scan.lo[d], x[3 * i + d]);
      scan.hi[d] = MAX(scan.hi[d], x[3 * i + d]);
    }
    cell_of[i] = bin(i);
  }
  // owned atoms outside the include group are not binned
  for (int i = MAX(first, nowned); i < MIN(last, nlocal); i++) cell_of[i] = -1;
  for (int i = MAX(first, nlocal); i < last; i++)
    cell_of[i] = (includegroup && !(mask[i] & bitmask)) ? -1 : bin(i);
  return scan;
}

NBinHGrid::Scan NBinHGrid::Scan::none()
{
  return {{BIG, BIG, BIG}, {-BIG, -BIG, -BIG}, -1, -1};
}

void NBinHGrid::Scan::merge(const Scan &other)
{
  for (int d = 0; d < 3; d++) {
    lo[d] = MIN(lo[d], other.lo[d]);
    hi[d] = MAX(hi[d], other.hi[d]);
  }
  outgrown = MAX(outgrown, other.outgrown);
  outside = MAX(outside, other.outside);
}

/* ----------------------------------------------------------------------
   stop: an atom of radius r does not fit the top level (eq. 3, cutoff diameter
   2r + skin)
------------------------------------------------------------------------- */

void NBinHGrid::exceeds_top_level(double r) const
{
  error->one(FLERR, Error::NOLASTLINE,
             "Atom cutoff diameter {:.8g} (radius {:.8g} + skin) exceeds the top hgrid "
             "level {:.8g}; raise the last value of neighbor hgrid levels or use fix hgrid/tune",
             2.0 * r + planner->skin(), r, planner->plan().layout.top());
}

/* ---------------------------------------------------------------------- */

double NBinHGrid::memory_usage()
{
  return (double) maxatom * sizeof(int) + cells.memory_bytes();
}
