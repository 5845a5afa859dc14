/* ----------------------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#include "nbin_hgrid_kokkos.h"

#include "atom_kokkos.h"
#include "atom_masks.h"
#include "error.h"
#include "hgrid_planner.h"
#include "update.h"

using namespace LAMMPS_NS;

namespace {
// bin_atoms() status bits, set on the device and read once per build
constexpr int OWNED_OUTSIDE_WINDOW = 1;
constexpr int ABOVE_TOP_LEVEL = 2;
}    // namespace

/* ---------------------------------------------------------------------- */

template <class DeviceType>
NBinHGridKokkos<DeviceType>::NBinHGridKokkos(LAMMPS *lmp) : NBinHGrid(lmp), ncells_alloc(-1)
{
  kokkos = 1;
  d_status = typename AT::t_int_scalar("hgrid/kk:status");
  h_status = Kokkos::create_mirror_view(d_status);
}

/* ---------------------------------------------------------------------- */

template <class DeviceType> bool NBinHGridKokkos<DeviceType>::cpu_builds() const
{
  return kHostBins && !planner->kk_host_kernels();
}

/* ----------------------------------------------------------------------
   the planner reads radii on the host at run setup
------------------------------------------------------------------------- */

template <class DeviceType> void NBinHGridKokkos<DeviceType>::copy_neighbor_info()
{
  atomKK->sync(Host, RADIUS_MASK);
  NBinHGrid::copy_neighbor_info();
}

/* ---------------------------------------------------------------------- */

template <class DeviceType> void NBinHGridKokkos<DeviceType>::bin_atoms_setup(int nall)
{
  if (cpu_builds()) {
    NBinHGrid::bin_atoms_setup(nall);    // atom2cell (maxatom counts its atoms)
    return;
  }
  if (nall <= (int) d_atom2cell.extent(0)) return;
  d_atom2cell = typename AT::t_int_1d(Kokkos::NoInit("hgrid/kk:atom2cell"), nall);
  if constexpr (!kHostBins) d_slots = typename AT::t_int_1d(Kokkos::NoInit("hgrid/kk:slots"), nall);
}

/* ----------------------------------------------------------------------
   per-level windows on the host (NBinHGrid), copied to the device
------------------------------------------------------------------------- */

template <class DeviceType> void NBinHGridKokkos<DeviceType>::setup_bins(int style)
{
  NBinHGrid::setup_bins(style);
  const int nlevels = views.size();
  if ((int) d_levels.extent(0) != nlevels)
    d_levels = Kokkos::View<hgrid::LevelView *, DeviceType>("hgrid/kk:levels", nlevels);
  auto h_levels = Kokkos::create_mirror_view(d_levels);
  for (int h = 0; h < nlevels; h++) h_levels(h) = views[h];
  Kokkos::deep_copy(d_levels, h_levels);

  const int ncells = cells.num_cells();
  if (!kHostBins && ncells > ncells_alloc) {
    ncells_alloc = ncells;
    d_count = typename AT::t_int_1d("hgrid/kk:count", ncells);
    d_cell_start = typename AT::t_int_1d("hgrid/kk:cell_start", ncells + 1);
  }
}

/* ----------------------------------------------------------------------
   the grid with device pointers; cell_start has num_cells() + 1 entries
------------------------------------------------------------------------- */

template <class DeviceType> hgrid::GridView NBinHGridKokkos<DeviceType>::device_view() const
{
  hgrid::GridView g = view();
  g.levels = d_levels.data();
  if constexpr (!kHostBins) {    // else the host's cells (view())
    g.cell_start = d_cell_start.data();
    g.slots = d_slots.data();
  }
  return g;
}

/* ----------------------------------------------------------------------
   owned and ghost atoms into the global cell of their level, on the device
------------------------------------------------------------------------- */

template <class DeviceType> void NBinHGridKokkos<DeviceType>::bin_atoms()
{
  last_bin = update->ntimestep;
  if (includegroup)
    error->all(FLERR, Error::NOLASTLINE,
               "Neighbor hgrid with KOKKOS does not support neigh_modify include");
  if (cpu_builds()) {    // the CPU's binning, on the host's atom arrays
    atomKK->sync(Host, X_MASK | RADIUS_MASK);
    NBinHGrid::bin_atoms();
    return;
  }
  const int nlocal = atom->nlocal;
  const int nall = nlocal + atom->nghost;
  atomKK->sync(ExecutionSpaceFromDevice<DeviceType>::space, X_MASK | RADIUS_MASK);

  count_cells(nlocal, nall);
  Kokkos::deep_copy(h_status, d_status);
  if (h_status()) {
    // the counts and the status start from zero at the next binning (a library
    // caller may catch the error and go on)
    if constexpr (!kHostBins) Kokkos::deep_copy(d_count, 0);
    Kokkos::deep_copy(d_status, 0);
  }
  if (h_status() & ABOVE_TOP_LEVEL)
    error->one(FLERR, Error::NOLASTLINE,
               "Atom cutoff diameter exceeds the top hgrid level {:.8g}; raise the last value "
               "of neighbor hgrid levels or use fix hgrid/tune",
               planner->plan().layout.top());
  if (h_status() & OWNED_OUTSIDE_WINDOW)
    error->one(FLERR, Error::NOLASTLINE, "Neighbor hgrid: owned atom outside its grid window");
  if constexpr (kHostBins)
    cells.build(nall, d_atom2cell.data(), typename DeviceType::execution_space().concurrency());
  else
    fill_cells(nall);
}

/* ----------------------------------------------------------------------
   cell of every atom and the number of atoms per cell (atomic increments; a host
   execution space only the cells, kHostBins).
   The counts and the status are zero here, with no fill kernel of their own
   (each a blocking round trip on a GPU): a new view is zero, fill_cells() counts
   every cell back down to zero, and a non-zero status stopped the binning after
   resetting both (bin_atoms)
------------------------------------------------------------------------- */

template <class DeviceType> void NBinHGridKokkos<DeviceType>::count_cells(int nlocal, int nall)
{
  const auto x = atomKK->k_x.view<DeviceType>();
  const auto radius = atomKK->k_radius.view<DeviceType>();
  const auto atom2cell = d_atom2cell;
  const auto count = d_count;
  const auto status = d_status;
  const hgrid::GridView g = device_view();
  const double skin = planner->skin();

  Kokkos::parallel_for(
      "hgrid/kk:count_cells", Kokkos::RangePolicy<DeviceType>(0, nall), KOKKOS_LAMBDA(const int i) {
        const double xi[3] = {x(i, 0), x(i, 1), x(i, 2)};
        const int h = g.level_of_diameter(2.0 * radius(i) + skin);
        int cell = -1;
        if (h < 0)
          Kokkos::atomic_or(&status(), ABOVE_TOP_LEVEL);
        else {
          const int local = g.levels[h].index_of(xi);
          if (local >= 0)
            cell = g.levels[h].first_cell + local;
          else if (i < nlocal)
            Kokkos::atomic_or(&status(), OWNED_OUTSIDE_WINDOW);
        }
        atom2cell(i) = cell;
        if (!kHostBins && cell >= 0) Kokkos::atomic_inc(&count(cell));
      });
}

/* ----------------------------------------------------------------------
   exclusive scan of the counts, fill, and each cell sorted by atom index
------------------------------------------------------------------------- */

template <class DeviceType> void NBinHGridKokkos<DeviceType>::fill_cells(int nall)
{
  const int ncells = cells.num_cells();
  const auto atom2cell = d_atom2cell;
  const auto count = d_count;
  const auto start = d_cell_start;
  const auto slots = d_slots;

  Kokkos::parallel_scan(
      "hgrid/kk:cell_starts", Kokkos::RangePolicy<DeviceType>(0, ncells + 1),
      KOKKOS_LAMBDA(const int c, int &sum, const bool final) {
        const int n = c < ncells ? count(c) : 0;
        if (final) start(c) = sum;
        sum += n;
      });
  // each atom takes the slot of its cell's count, counted down: the counts end at zero
  Kokkos::parallel_for(
      "hgrid/kk:fill_cells", Kokkos::RangePolicy<DeviceType>(0, nall), KOKKOS_LAMBDA(const int i) {
        const int cell = atom2cell(i);
        if (cell >= 0) slots(start(cell) + Kokkos::atomic_fetch_sub(&count(cell), 1) - 1) = i;
      });
  // cells hold a few atoms (cell edge >= the level's cutoff diameter / 2)
  Kokkos::parallel_for(
      "hgrid/kk:sort_cells", Kokkos::RangePolicy<DeviceType>(0, ncells),
      KOKKOS_LAMBDA(const int c) {
        const int first = start(c), last = start(c + 1);
        for (int s = first + 1; s < last; s++) {
          const int v = slots(s);
          int t = s;
          for (; t > first && slots(t - 1) > v; t--) slots(t) = slots(t - 1);
          slots(t) = v;
        }
      });
}

/* ---------------------------------------------------------------------- */

template <class DeviceType> double NBinHGridKokkos<DeviceType>::memory_usage()
{
  const double levels = d_levels.extent(0) * sizeof(hgrid::LevelView);
  const double atoms = (double) d_atom2cell.extent(0) * sizeof(int);
  if constexpr (kHostBins) return NBinHGrid::memory_usage() + atoms + levels;
  return 2.0 * atoms + (2.0 * ncells_alloc + 1) * sizeof(int) + levels;
}

namespace LAMMPS_NS {
template class NBinHGridKokkos<LMPDeviceType>;
#ifdef LMP_KOKKOS_GPU
template class NBinHGridKokkos<LMPHostType>;
#endif
}    // namespace LAMMPS_NS
