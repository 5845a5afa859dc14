/* ----------------------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#include "npair_hgrid_kokkos.h"

#include "atom_kokkos.h"
#include "atom_masks.h"
#include "comm.h"
#include "error.h"
#include "force.h"
#include "hgrid_planner.h"
#include "kokkos.h"
#include "nbin_hgrid_kokkos.h"
#include "neigh_list_kokkos.h"
#include "neighbor_kokkos.h"
#include "nstencil_hgrid.h"
#include "platform.h"
#include "transpose_helper_kokkos.h"

#include <type_traits>

using namespace LAMMPS_NS;

namespace {
// positions, radii and IDs of Kokkos atoms, as hgrid::PairSearch reads them. The views
// are held by value: a reference (DualView::view() returns one) would point into the
// host's AtomKokkos from the GPU, which no host-memory backend notices
template <class XView, class RView, class TagView> struct KokkosAtoms {
  static_assert(!std::is_reference_v<XView> && !std::is_reference_v<RView> &&
                    !std::is_reference_v<TagView>,
                "KokkosAtoms holds copies of the views, not references to the host's");
  XView x;
  RView r;
  TagView t;
  double tolerance;    // images of one atom within it count as equal coordinates
  KOKKOS_INLINE_FUNCTION double pos(int j, int d) const { return x(j, d); }
  KOKKOS_INLINE_FUNCTION double radius(int j) const { return r(j); }
  KOKKOS_INLINE_FUNCTION tagint tag(int j) const { return t(j); }
  KOKKOS_INLINE_FUNCTION double image_tolerance() const { return tolerance; }
};

// the search of one owned atom as a thread runs it: all of it (unit < 0: the atom pass)
// or one unit (the split pass), the partners stored from position n0 of the atom's row
// up to the room of the row; returns the partners found
template <class DeviceType, int NEWTON, int TRI, int EXCLUDE, class Atoms> struct RowSearch {
  typedef ArrayTypes<DeviceType> AT;
  using Search = hgrid::PairSearch<1, NEWTON, TRI>;
  hgrid::GridView g;
  Atoms atoms;
  typename AT::t_int_1d atom2cell;
  typename AT::t_neighbors_2d neighbors;
  NeighRowsKokkos<DeviceType> rows;
  typename AT::t_int_1d room;
  int maxneighs, history, nlocal;
  double skin;
  HGridExclusionsKokkos<DeviceType> ex;

  KOKKOS_INLINE_FUNCTION int room_of(int icell) const
  {
    return rows.packed ? room(g.level_of_cell(icell)) : maxneighs;
  }

  template <bool STORE>
  KOKKOS_INLINE_FUNCTION int run(int i, int unit, int n0, hgrid::SearchCounters &c) const
  {
    const int icell = atom2cell(i);
    const int irow = rows.row(i), jfirst = rows.first(i) + n0;
    const int nroom = room_of(icell) - n0;
    int n = 0;
    auto visit = [&](int j, double, double, double, double rsq, double radsum, bool within) {
      if (!within || (EXCLUDE && ex.excluded(i, j))) return;
      if (STORE && n < nroom)
        neighbors(irow, jfirst + n) = (rsq < radsum * radsum) ? (j ^ history) : j;
      n++;
    };
    if (unit < 0)
      Search::neighbors(g, atoms, i, icell, nlocal, skin, c, visit);
    else
      Search::unit(g, atoms, i, icell, nlocal, skin, unit, c, visit);
    return n;
  }
};

// the atom whose units include unit u: start(a) <= u < start(a + 1), start(0) = 0 and
// start(n) the number of units
template <class View> KOKKOS_INLINE_FUNCTION int atom_of_unit(const View &start, int n, int u)
{
  int lo = 0, hi = n;
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (start(mid) <= u)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}
}    // namespace

/* ----------------------------------------------------------------------
   run setup: on a host execution space the CPU builder gets the neighbor settings
   too (not the planner's note of the list: this class made it)
------------------------------------------------------------------------- */

template <class DeviceType, int NEWTON, int TRI>
void NPairHGridKokkos<DeviceType, NEWTON, TRI>::copy_neighbor_info()
{
  NPairHGridBase::copy_neighbor_info();
  if constexpr (NBinHGridKokkos<DeviceType>::kHostBins) {
    if (!cpu) {
      cpu = std::make_unique<NPairHGrid<1, NEWTON, 1, TRI>>(lmp);
      cpu->own_room = true;    // rows longer than neigh_modify one, as kk bin's
    }
    cpu->NPair::copy_neighbor_info();
  }
}

/* ----------------------------------------------------------------------
   same-level rows to the device when the stencil changed (compared on the host)
------------------------------------------------------------------------- */

template <class DeviceType, int NEWTON, int TRI>
void NPairHGridKokkos<DeviceType, NEWTON, TRI>::copy_stencil_info()
{
  NPairHGridBase::copy_stencil_info();
  const auto &rows = hstencil->rows;
  const auto &level_rows = hstencil->level_rows;
  if (rows == rows_copied && level_rows == level_rows_copied) return;
  d_rows = Kokkos::View<hgrid::RowOffset *, DeviceType>("hgrid/kk:rows", rows.size());
  d_level_rows = typename AT::t_int_1d("hgrid/kk:level_rows", level_rows.size());
  auto h_rows = Kokkos::create_mirror_view(d_rows);
  auto h_level_rows = Kokkos::create_mirror_view(d_level_rows);
  for (std::size_t k = 0; k < rows.size(); k++) h_rows(k) = rows[k];
  for (std::size_t k = 0; k < level_rows.size(); k++) h_level_rows(k) = level_rows[k];
  Kokkos::deep_copy(d_rows, h_rows);
  Kokkos::deep_copy(d_level_rows, h_level_rows);
  rows_copied = rows;
  level_rows_copied = level_rows;
}

/* ----------------------------------------------------------------------
   the exclusion settings and the per-atom arrays they read, on the device
   (lists with an include group or of bonded molecules are built by kk bin:
   Neighbor::hgrid_refuses(), core patch)
------------------------------------------------------------------------- */

template <class DeviceType, int NEWTON, int TRI>
HGridExclusionsKokkos<DeviceType> NPairHGridKokkos<DeviceType, NEWTON, TRI>::exclusions() const
{
  auto *nk = static_cast<NeighborKokkos *>(neighbor);
  nk->k_ex_type.template sync<DeviceType>();
  nk->k_ex1_bit.template sync<DeviceType>();
  nk->k_ex2_bit.template sync<DeviceType>();
  nk->k_ex_mol_bit.template sync<DeviceType>();
  nk->k_ex_mol_intra.template sync<DeviceType>();
  atomKK->sync(ExecutionSpaceFromDevice<DeviceType>::space,
               TYPE_MASK | MASK_MASK | (nex_mol ? MOLECULE_MASK : 0));
  HGridExclusionsKokkos<DeviceType> ex;
  ex.nex_type = nex_type;
  ex.nex_group = nex_group;
  ex.nex_mol = nex_mol;
  ex.ex_type = nk->k_ex_type.template view<DeviceType>();
  ex.ex1_bit = nk->k_ex1_bit.template view<DeviceType>();
  ex.ex2_bit = nk->k_ex2_bit.template view<DeviceType>();
  ex.ex_mol_bit = nk->k_ex_mol_bit.template view<DeviceType>();
  ex.ex_mol_intra = nk->k_ex_mol_intra.template view<DeviceType>();
  ex.type = atomKK->k_type.view<DeviceType>();
  ex.mask = atomKK->k_mask.view<DeviceType>();
  if (nex_mol) ex.molecule = atomKK->k_molecule.view<DeviceType>();
  return ex;
}

/* ----------------------------------------------------------------------
   rows of all owned atoms, packed where the consumer reads packed rows
------------------------------------------------------------------------- */

template <class DeviceType, int NEWTON, int TRI>
void NPairHGridKokkos<DeviceType, NEWTON, TRI>::build(NeighList *list_)
{
  const double start_time = platform::walltime();
  auto *list = static_cast<NeighListKokkos<DeviceType> *>(list_);
  const int nlocal = atom->nlocal;
  list->grow(nlocal);

  atomKK->sync(ExecutionSpaceFromDevice<DeviceType>::space,
               X_MASK | RADIUS_MASK | (TRI ? TAG_MASK : 0));
  hgrid::SearchCounters count;
  if (build_by_cpu(list, nlocal, count))
    ;
  else if (list->packed_ok)
    build_packed(list, nlocal, count);
  else
    build_dense(list, nlocal, count);
  list->inum = nlocal;
  list->gnum = 0;
  list->k_ilist.template modify<DeviceType>();
  if (!list->occasional) planner->report_build(count, platform::walltime() - start_time);
}

/* ----------------------------------------------------------------------
   a host execution space whose bins the CPU binned (NBinHGridKokkos::cpu_builds):
   the CPU builder's rows copied into the list; false elsewhere
------------------------------------------------------------------------- */

template <class DeviceType, int NEWTON, int TRI>
bool NPairHGridKokkos<DeviceType, NEWTON, TRI>::build_by_cpu(NeighListKokkos<DeviceType> *list,
                                                             int nlocal,
                                                             hgrid::SearchCounters &count)
{
  if constexpr (!NBinHGridKokkos<DeviceType>::kHostBins) {
    return false;
  } else {
    if (!hbin->cpu_builds()) return false;
    if (!cpu_list || cpu_list_threads != comm->nthreads) {    // a page per thread
      cpu_list = std::make_unique<NeighList>(lmp);
      cpu_list->setup_pages(neighbor->pgsize, neighbor->oneatom);
      cpu_list_threads = comm->nthreads;
    }
    cpu_list->history = list->history;
    cpu_list->grow(nlocal, nlocal + atom->nghost);
    cpu->nb = nb;
    cpu->ns = ns;
    cpu->build_setup();
    if (exclude)    // positions, radii (and IDs) are the host's already (build())
      atomKK->sync(Host, TYPE_MASK | MASK_MASK | (atom->molecule_flag ? MOLECULE_MASK : 0));
    count = cpu->build_threaded(cpu_list.get());
    copy_cpu_rows(list, nlocal);
    return true;
  }
}

/* ----------------------------------------------------------------------
   the CPU builder's rows into the list: packed back to back for consumers that
   read them so, else dense (widened to 1.2x the longest row if it overflows)
------------------------------------------------------------------------- */

template <class DeviceType, int NEWTON, int TRI>
void NPairHGridKokkos<DeviceType, NEWTON, TRI>::copy_cpu_rows(NeighListKokkos<DeviceType> *list,
                                                              int nlocal)
{
  if constexpr (NBinHGridKokkos<DeviceType>::kHostBins) {    // host memory only
    const int *cpu_numneigh = cpu_list->numneigh;
    int *const *cpu_rows = cpu_list->firstneigh;
    const auto numneigh = list->d_numneigh;
    const auto ilist = list->d_ilist;
    if (list->packed_ok) {
      list->rows.packed = 1;
      place_tight(
          Kokkos::View<const int *, DeviceType, Kokkos::MemoryUnmanaged>(cpu_numneigh, nlocal),
          nlocal);
      const auto start = d_tight_start;
      const auto to = d_tight_rows;
      Kokkos::parallel_for(
          "hgrid/kk:cpu_rows", Kokkos::RangePolicy<DeviceType>(0, nlocal),
          KOKKOS_LAMBDA(const int i) {
            const int n = cpu_numneigh[i], first = start(i);
            for (int k = 0; k < n; k++) to(0, first + k) = cpu_rows[i][k];
            numneigh(i) = n;
            ilist(i) = i;
          });
      list->d_neighbors = d_tight_rows;
      list->rows.d_start = d_tight_start;
      return;
    }
    list->rows.packed = 0;
    int longest = 0;
    for (int i = 0; i < nlocal; i++) longest = MAX(longest, cpu_numneigh[i]);
    if (longest > list->maxneighs) {
      list->maxneighs = static_cast<int>(longest * 1.2) + 1;
      list->grow(nlocal);
    }
    const auto to = list->d_neighbors;
    Kokkos::parallel_for(
        "hgrid/kk:cpu_rows", Kokkos::RangePolicy<DeviceType>(0, nlocal),
        KOKKOS_LAMBDA(const int i) {
          const int n = cpu_numneigh[i];
          for (int k = 0; k < n; k++) to(i, k) = cpu_rows[i][k];
          numneigh(i) = n;
          ilist(i) = i;
        });
    if (lmp->kokkos->neigh_transpose)
      TransposeHelperKokkos<DeviceType, typename AT::t_neighbors_2d,
                            typename AT::t_neighbors_2d_lr>(list->d_neighbors,
                                                            list->d_neighbors_transpose);
  }
}

/* ----------------------------------------------------------------------
   dense rows (NPairKokkos layout): widen to 1.2x the longest row on overflow
------------------------------------------------------------------------- */

template <class DeviceType, int NEWTON, int TRI>
void NPairHGridKokkos<DeviceType, NEWTON, TRI>::build_dense(NeighListKokkos<DeviceType> *list,
                                                            int nlocal,
                                                            hgrid::SearchCounters &count)
{
  list->rows.packed = 0;
  const int excess = search_any(list, nlocal, count);
  if (excess > 0) {
    list->maxneighs = static_cast<int>((list->maxneighs + excess) * 1.2);
    list->grow(nlocal);    // reallocates the rows (and their transpose) at the new width
    count = hgrid::SearchCounters();
    search_any(list, nlocal, count);
  }
  if (lmp->kokkos->neigh_transpose)
    TransposeHelperKokkos<DeviceType, typename AT::t_neighbors_2d, typename AT::t_neighbors_2d_lr>(
        list->d_neighbors, list->d_neighbors_transpose);
}

/* ----------------------------------------------------------------------
   packed rows: room by level, rows placed by a scan, one packed row of slots;
   a level whose longest row overflowed gets 1.2x that row and the search reruns
------------------------------------------------------------------------- */

template <class DeviceType, int NEWTON, int TRI>
void NPairHGridKokkos<DeviceType, NEWTON, TRI>::build_packed(NeighListKokkos<DeviceType> *list,
                                                             int nlocal,
                                                             hgrid::SearchCounters &count)
{
  reset_room();
  list->rows.packed = 1;
  if ((int) d_room_start.extent(0) < atom->nmax)
    d_room_start = typename AT::t_int_1d("hgrid/kk:row_start", atom->nmax);
  list->rows.d_start = d_room_start;
  for (int pass = 0; pass < 2; pass++) {
    const int slots = place_rows(list, nlocal);
    if (d_room_rows.extent(0) != 1 || (int) d_room_rows.extent(1) < slots)
      d_room_rows = typename AT::t_neighbors_2d(Kokkos::NoInit("hgrid/kk:room_rows"), 1,
                                                slots + slots / 5 + 1);
    list->d_neighbors = d_room_rows;
    if (search_any(list, nlocal, count) <= 0) {
      pack_tight(list, nlocal);
      return;
    }
    for (int level = 0; level < static_cast<int>(room.size()); level++) {
      const int longest = longest_row(list, nlocal, level);
      if (longest > room[level]) room[level] = longest + longest / 5 + 1;
    }
    Kokkos::deep_copy(d_room, Kokkos::View<int *, Kokkos::HostSpace>(room.data(), room.size()));
    count = hgrid::SearchCounters();
  }
  error->one(FLERR, "Neighbor hgrid/kk rows overflowed twice in one build");
}

/* ----------------------------------------------------------------------
   the rows moved back to back without their free room (the list and the contact
   history parallel to it then take as many slots as there are pairs)
------------------------------------------------------------------------- */

template <class DeviceType, int NEWTON, int TRI>
void NPairHGridKokkos<DeviceType, NEWTON, TRI>::pack_tight(NeighListKokkos<DeviceType> *list,
                                                           int nlocal)
{
  const auto numneigh = list->d_numneigh;
  place_tight(numneigh, nlocal);
  const auto tight_start = d_tight_start;
  const auto from = d_room_rows;
  const auto from_start = d_room_start;
  const auto to = d_tight_rows;

  // one thread a row: a long row (a large particle's ghost partners, newton off) is one
  // thread's copy. A team per 64 rows sharing each row among its threads cost 0.1 ms
  // more per build on the host (intruder benchmark); on a GPU not yet measured.

  Kokkos::parallel_for(
      "hgrid/kk:pack_tight", Kokkos::RangePolicy<DeviceType>(0, nlocal),
      KOKKOS_LAMBDA(const int i) {
        const int a = from_start(i);
        const int b = tight_start(i);
        for (int k = 0; k < numneigh(i); k++) to(0, b + k) = from(0, a + k);
      });
  list->d_neighbors = d_tight_rows;
  list->rows.d_start = d_tight_start;
}

/* ----------------------------------------------------------------------
   rows of counts(i) slots placed back to back (d_tight_start, an exclusive scan)
   and d_tight_rows with room for them
------------------------------------------------------------------------- */

template <class DeviceType, int NEWTON, int TRI>
template <class Counts>
void NPairHGridKokkos<DeviceType, NEWTON, TRI>::place_tight(const Counts &counts, int nlocal)
{
  if ((int) d_tight_start.extent(0) < atom->nmax)
    d_tight_start = typename AT::t_int_1d("hgrid/kk:tight_start", atom->nmax);
  const auto start = d_tight_start;
  long long pairs = 0;
  Kokkos::parallel_scan(
      "hgrid/kk:tight_start", Kokkos::RangePolicy<DeviceType>(0, nlocal),
      KOKKOS_LAMBDA(const int i, long long &sum, const bool final) {
        if (final) start(i) = static_cast<int>(sum);
        sum += counts(i);
      },
      pairs);
  if (pairs > MAXSMALLINT)
    error->one(FLERR, "Neighbor hgrid/kk list needs more than 2^31 slots on one MPI rank");
  if ((int) d_tight_rows.extent(1) < pairs)
    d_tight_rows = typename AT::t_neighbors_2d(Kokkos::NoInit("neighlist:neighbors"), 1,
                                               pairs + pairs / 5 + 1);
}

/* ----------------------------------------------------------------------
   room per level is kept while the level sizes stay; a new layout starts small
------------------------------------------------------------------------- */

template <class DeviceType, int NEWTON, int TRI>
void NPairHGridKokkos<DeviceType, NEWTON, TRI>::reset_room()
{
  std::vector<double> sizes(hbin->num_levels());
  for (int level = 0; level < hbin->num_levels(); level++)
    sizes[level] = hbin->get_grid(level).nominal_size();
  if (sizes == room_levels) return;
  room_levels = sizes;
  room.assign(sizes.size(), 1);    // measured by the first build (one more search)
  d_room = typename AT::t_int_1d("hgrid/kk:room", room.size());
  Kokkos::deep_copy(d_room, Kokkos::View<int *, Kokkos::HostSpace>(room.data(), room.size()));
}

/* ----------------------------------------------------------------------
   start of each owned atom's packed row (exclusive scan of its level's room);
   returns the number of slots
------------------------------------------------------------------------- */

template <class DeviceType, int NEWTON, int TRI>
int NPairHGridKokkos<DeviceType, NEWTON, TRI>::place_rows(NeighListKokkos<DeviceType> *list,
                                                          int nlocal)
{
  auto *kbin = static_cast<NBinHGridKokkos<DeviceType> *>(hbin);
  const hgrid::GridView g = kbin->device_view();
  const auto atom2cell = kbin->d_atom2cell;
  const auto start = list->rows.d_start;
  const auto d_room_ = d_room;
  long long slots = 0;
  Kokkos::parallel_scan(
      "hgrid/kk:place_rows", Kokkos::RangePolicy<DeviceType>(0, nlocal),
      KOKKOS_LAMBDA(const int i, long long &sum, const bool final) {
        if (final) start(i) = static_cast<int>(sum);
        sum += d_room_(g.level_of_cell(atom2cell(i)));
      },
      slots);
  if (slots > MAXSMALLINT)
    error->one(FLERR, "Neighbor hgrid/kk list needs more than 2^31 slots on one MPI rank");
  return static_cast<int>(slots);
}

/* ----------------------------------------------------------------------
   longest row of the owned atoms of one level, after an overflow
------------------------------------------------------------------------- */

template <class DeviceType, int NEWTON, int TRI>
int NPairHGridKokkos<DeviceType, NEWTON, TRI>::longest_row(NeighListKokkos<DeviceType> *list,
                                                           int nlocal, int level)
{
  auto *kbin = static_cast<NBinHGridKokkos<DeviceType> *>(hbin);
  const hgrid::GridView g = kbin->device_view();
  const auto atom2cell = kbin->d_atom2cell;
  const auto numneigh = list->d_numneigh;
  int longest = 0;
  Kokkos::parallel_reduce(
      "hgrid/kk:longest_row", Kokkos::RangePolicy<DeviceType>(0, nlocal),
      KOKKOS_LAMBDA(const int i, int &most) {
        if (g.level_of_cell(atom2cell(i)) == level && numneigh(i) > most) most = numneigh(i);
      },
      Kokkos::Max<int>(longest));
  return longest;
}

/* ----------------------------------------------------------------------
   the first level whose atoms' searches are split among threads: a search from
   it may read more than kk/split cells of other levels (the ghost-side search
   of a large particle, newton off, on the finest levels)
------------------------------------------------------------------------- */

template <class DeviceType, int NEWTON, int TRI>
int NPairHGridKokkos<DeviceType, NEWTON, TRI>::first_split_level() const
{
  const hgrid::GridView g = hbin->view();    // host views of the levels
#ifdef LMP_KOKKOS_GPU
  constexpr bool on_gpu = std::is_same_v<DeviceType, LMPDeviceType>;
#else
  constexpr bool on_gpu = false;
#endif
  const double most = planner->kk_split_cells(on_gpu);
  if (most < 0.0) return g.nlevels;
  for (int h = 0; h < g.nlevels; h++)
    if (hgrid::PairSearch<1, NEWTON, TRI>::most_cells_searched(g, h) > most) return h;
  return g.nlevels;
}

/* ----------------------------------------------------------------------
   the search with exclusions only where neigh_modify exclude set some: the
   atom pass, then the split pass for the units of the atoms it left
------------------------------------------------------------------------- */

template <class DeviceType, int NEWTON, int TRI>
int NPairHGridKokkos<DeviceType, NEWTON, TRI>::search_any(NeighListKokkos<DeviceType> *list,
                                                          int nlocal, hgrid::SearchCounters &count)
{
  if (exclude) return search<1>(list, nlocal, count);
  return search<0>(list, nlocal, count);
}

template <class DeviceType, int NEWTON, int TRI>
template <int EXCLUDE>
int NPairHGridKokkos<DeviceType, NEWTON, TRI>::search(NeighListKokkos<DeviceType> *list, int nlocal,
                                                      hgrid::SearchCounters &count)
{
  auto *kbin = static_cast<NBinHGridKokkos<DeviceType> *>(hbin);
  hgrid::GridView g = kbin->device_view();
  g.level_rows = d_level_rows.data();
  g.rows = d_rows.data();
  const auto atoms = KokkosAtoms<std::decay_t<decltype(atomKK->k_x.view<DeviceType>())>,
                                 std::decay_t<decltype(atomKK->k_radius.view<DeviceType>())>,
                                 std::decay_t<decltype(atomKK->k_tag.view<DeviceType>())>>{
      atomKK->k_x.view<DeviceType>(), atomKK->k_radius.view<DeviceType>(),
      atomKK->k_tag.view<DeviceType>(), IMAGE_TOLERANCE * force->angstrom};
  const RowSearch<DeviceType, NEWTON, TRI, EXCLUDE, std::decay_t<decltype(atoms)>> k{
      g,
      atoms,
      kbin->d_atom2cell,
      list->d_neighbors,
      list->rows,
      d_room,
      list->maxneighs,
      list->history ? (1 << HISTBITS) : 0,
      nlocal,
      planner->skin(),
      EXCLUDE ? exclusions() : HGridExclusionsKokkos<DeviceType>()};

  const int first_split = first_split_level();
  if (first_split < g.nlevels && (int) d_units.extent(0) < nlocal + 1) {
    d_units = typename AT::t_int_1d(Kokkos::NoInit("hgrid/kk:units"), atom->nmax + 1);
    d_unit_start = typename AT::t_int_1d(Kokkos::NoInit("hgrid/kk:unit_start"), atom->nmax + 1);
  }
  long long nunits = 0;
  const int excess = planner->kk_cell_order()
      ? search_atoms<1>(list, k, first_split, count, nunits)
      : search_atoms<0>(list, k, first_split, count, nunits);
  if (nunits == 0) return excess;
  if (nunits > MAXSMALLINT)
    error->one(FLERR, "Neighbor hgrid/kk split searches need more than 2^31 units on one MPI rank");
  const int split_excess = search_split(list, k, static_cast<int>(nunits), count);
  return excess > split_excess ? excess : split_excess;
}

/* ----------------------------------------------------------------------
   the atom pass: one thread per owned atom below the first split level, each
   row stored up to its room; an atom of a split level gets its number of
   units (num_units). Returns the largest excess of a row over its room
   (<= 0: every row fits), nunits the units of the split pass.
   CELL_ORDER: thread s takes the atom of slot s (atoms by cell, cells by level;
   ghosts and slots past the binned atoms leave their thread idle)
------------------------------------------------------------------------- */

template <class DeviceType, int NEWTON, int TRI>
template <int CELL_ORDER, class Kernel>
int NPairHGridKokkos<DeviceType, NEWTON, TRI>::search_atoms(NeighListKokkos<DeviceType> *list,
                                                            const Kernel &k, int first_split,
                                                            hgrid::SearchCounters &count,
                                                            long long &nunits)
{
  using Search = typename Kernel::Search;
  const int nlocal = k.nlocal;
  const auto numneigh = list->d_numneigh;
  const auto ilist = list->d_ilist;
  const auto units = d_units;
  const bool split = first_split < k.g.nlevels;
  const int *slots = k.g.slots;
  const int nthreads = CELL_ORDER ? atom->nlocal + atom->nghost : nlocal;
  const int nbinned = CELL_ORDER ? hbin->get_cells().num_cells() : 0;
  const int *cell_start = k.g.cell_start;

  long long visited = 0, checks = 0, longest = 0, nsplit = 0;
  int excess = 0, longest_row = 0;
  nunits = 0;
  Kokkos::parallel_reduce(
      "hgrid/kk:search", Kokkos::RangePolicy<DeviceType>(0, nthreads),
      KOKKOS_LAMBDA(const int s, long long &nvisit, long long &ncheck, int &most,
                    long long &nlongest, int &nrow, long long &nunit, long long &natoms) {
        const int i = !CELL_ORDER ? s : (s < cell_start[nbinned] ? slots[s] : nlocal);
        if (CELL_ORDER && i >= nlocal) return;
        ilist(i) = i;
        if (split) {
          const int icell = k.atom2cell(i);
          const int u = k.g.level_of_cell(icell) < first_split
              ? 0
              : Search::num_units(k.g, k.atoms, i, icell, nlocal, k.skin);
          units(i) = u;
          if (u > 0) {
            nunit += u;
            natoms++;
            return;
          }
        }
        hgrid::SearchCounters c;
        const int n = k.template run<true>(i, -1, 0, c);
        numneigh(i) = n;
        nvisit += c.cells_visited;
        ncheck += c.distance_checks;
        if (n - k.room_of(k.atom2cell(i)) > most) most = n - k.room_of(k.atom2cell(i));
        if (c.cells_visited + c.distance_checks > nlongest)
          nlongest = c.cells_visited + c.distance_checks;
        if (n > nrow) nrow = n;
      },
      Kokkos::Sum<long long>(visited), Kokkos::Sum<long long>(checks), Kokkos::Max<int>(excess),
      Kokkos::Max<long long>(longest), Kokkos::Max<int>(longest_row),
      Kokkos::Sum<long long>(nunits), Kokkos::Sum<long long>(nsplit));
  count.cells_visited = visited;
  count.distance_checks = checks;
  count.longest_search = longest;
  count.longest_row = longest_row;
  count.split_searches = nsplit;
  return excess;
}

/* ----------------------------------------------------------------------
   the split pass: one thread per unit of the atoms the atom pass left (a
   same-level stencil row or a row of cells of another level), so that no
   thread's work grows with one particle's size. The units are placed (a scan
   of the units per atom), counted, their partners placed in the atom's row
   (a scan of the counts) and searched again to store them: the row is the
   atom pass's, in the same order. Returns the largest excess of a row.
------------------------------------------------------------------------- */

template <class DeviceType, int NEWTON, int TRI>
template <class Kernel>
int NPairHGridKokkos<DeviceType, NEWTON, TRI>::search_split(NeighListKokkos<DeviceType> *list,
                                                            const Kernel &k, int nunits,
                                                            hgrid::SearchCounters &count)
{
  const int nlocal = k.nlocal;
  if ((int) d_unit_found.extent(0) < nunits + 1) {
    d_unit_found =
        typename AT::t_int_1d(Kokkos::NoInit("hgrid/kk:unit_found"), nunits + nunits / 5 + 1);
    d_unit_first =
        typename AT::t_int_1d(Kokkos::NoInit("hgrid/kk:unit_first"), nunits + nunits / 5 + 1);
  }
  const auto units = d_units;
  const auto start = d_unit_start;
  const auto found = d_unit_found;
  const auto first = d_unit_first;
  const auto numneigh = list->d_numneigh;

  Kokkos::parallel_scan(
      "hgrid/kk:split_place", Kokkos::RangePolicy<DeviceType>(0, nlocal + 1),
      KOKKOS_LAMBDA(const int i, int &sum, const bool final) {
        if (final) start(i) = sum;
        if (i < nlocal) sum += units(i);
      });
  Kokkos::parallel_for(
      "hgrid/kk:split_count", Kokkos::RangePolicy<DeviceType>(0, nunits),
      KOKKOS_LAMBDA(const int u) {
        const int i = atom_of_unit(start, nlocal, u);
        hgrid::SearchCounters c;
        found(u) = k.template run<false>(i, u - start(i), 0, c);
      });
  Kokkos::parallel_scan(
      "hgrid/kk:split_rows", Kokkos::RangePolicy<DeviceType>(0, nunits + 1),
      KOKKOS_LAMBDA(const int u, int &sum, const bool final) {
        if (final) first(u) = sum;
        if (u < nunits) sum += found(u);
      });

  long long visited = 0, checks = 0, longest = 0;
  int excess = 0, longest_row = 0;
  Kokkos::parallel_reduce(
      "hgrid/kk:split_search", Kokkos::RangePolicy<DeviceType>(0, nunits),
      KOKKOS_LAMBDA(const int u, long long &nvisit, long long &ncheck, int &most,
                    long long &nlongest, int &nrow) {
        const int i = atom_of_unit(start, nlocal, u);
        const int u0 = start(i);
        hgrid::SearchCounters c;
        k.template run<true>(i, u - u0, first(u) - first(u0), c);
        nvisit += c.cells_visited;
        ncheck += c.distance_checks;
        if (c.cells_visited + c.distance_checks > nlongest)
          nlongest = c.cells_visited + c.distance_checks;
        if (u == u0) {
          const int n = first(start(i + 1)) - first(u0);
          numneigh(i) = n;
          if (n - k.room_of(k.atom2cell(i)) > most) most = n - k.room_of(k.atom2cell(i));
          if (n > nrow) nrow = n;
        }
      },
      Kokkos::Sum<long long>(visited), Kokkos::Sum<long long>(checks), Kokkos::Max<int>(excess),
      Kokkos::Max<long long>(longest), Kokkos::Max<int>(longest_row));
  count.cells_visited += visited;
  count.distance_checks += checks;
  if (longest > count.longest_search) count.longest_search = longest;
  if (longest_row > count.longest_row) count.longest_row = longest_row;
  return excess;
}

namespace LAMMPS_NS {
template class NPairHGridKokkos<LMPDeviceType, 0, 0>;
template class NPairHGridKokkos<LMPDeviceType, 1, 0>;
template class NPairHGridKokkos<LMPDeviceType, 1, 1>;
#ifdef LMP_KOKKOS_GPU
template class NPairHGridKokkos<LMPHostType, 0, 0>;
template class NPairHGridKokkos<LMPHostType, 1, 0>;
template class NPairHGridKokkos<LMPHostType, 1, 1>;
#endif
}    // namespace LAMMPS_NS
