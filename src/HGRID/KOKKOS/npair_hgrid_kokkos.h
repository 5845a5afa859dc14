/* -*- c++ -*- ----------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#ifdef NPAIR_CLASS
// clang-format off
using NPairHGridKokkosHalfNewtonDevice = NPairHGridKokkos<LMPDeviceType, 1, 0>;
NPairStyle(half/size/hgrid/newton/kk/device,
           NPairHGridKokkosHalfNewtonDevice,
           NP_HALF | NP_SIZE | NP_HGRID | NP_NEWTON | NP_ORTHO | NP_KOKKOS_DEVICE);

using NPairHGridKokkosHalfNewtonTriDevice = NPairHGridKokkos<LMPDeviceType, 1, 1>;
NPairStyle(half/size/hgrid/newton/tri/kk/device,
           NPairHGridKokkosHalfNewtonTriDevice,
           NP_HALF | NP_SIZE | NP_HGRID | NP_NEWTON | NP_TRI | NP_KOKKOS_DEVICE);

using NPairHGridKokkosHalfNewtoffDevice = NPairHGridKokkos<LMPDeviceType, 0, 0>;
NPairStyle(half/size/hgrid/newtoff/kk/device,
           NPairHGridKokkosHalfNewtoffDevice,
           NP_HALF | NP_SIZE | NP_HGRID | NP_NEWTOFF | NP_ORTHO | NP_TRI | NP_KOKKOS_DEVICE);

using NPairHGridKokkosHalfNewtonHost = NPairHGridKokkos<LMPHostType, 1, 0>;
NPairStyle(half/size/hgrid/newton/kk/host,
           NPairHGridKokkosHalfNewtonHost,
           NP_HALF | NP_SIZE | NP_HGRID | NP_NEWTON | NP_ORTHO | NP_KOKKOS_HOST);

using NPairHGridKokkosHalfNewtonTriHost = NPairHGridKokkos<LMPHostType, 1, 1>;
NPairStyle(half/size/hgrid/newton/tri/kk/host,
           NPairHGridKokkosHalfNewtonTriHost,
           NP_HALF | NP_SIZE | NP_HGRID | NP_NEWTON | NP_TRI | NP_KOKKOS_HOST);

using NPairHGridKokkosHalfNewtoffHost = NPairHGridKokkos<LMPHostType, 0, 0>;
NPairStyle(half/size/hgrid/newtoff/kk/host,
           NPairHGridKokkosHalfNewtoffHost,
           NP_HALF | NP_SIZE | NP_HGRID | NP_NEWTOFF | NP_ORTHO | NP_TRI | NP_KOKKOS_HOST);
// clang-format on
#else

#ifndef LMP_NPAIR_HGRID_KOKKOS_H
#define LMP_NPAIR_HGRID_KOKKOS_H

#include "kokkos_type.h"
#include "neigh_list.h"
#include "npair_hgrid.h"

#include "libhgrid/pair_search.h"

#include <memory>
#include <vector>

namespace LAMMPS_NS {

template <class DeviceType> class NeighListKokkos;

/* neigh_modify exclude on the device: type pairs, group pairs, molecules (intra or
   inter), the rule of NPair::exclusion() */

template <class DeviceType> struct HGridExclusionsKokkos {
  typedef ArrayTypes<DeviceType> AT;
  int nex_type = 0, nex_group = 0, nex_mol = 0;
  typename AT::t_int_2d_const ex_type;
  typename AT::t_int_1d_const ex1_bit, ex2_bit, ex_mol_bit, ex_mol_intra;
  typename AT::t_int_1d_const type, mask;
  typename AT::t_tagint_1d_const molecule;

  KOKKOS_INLINE_FUNCTION bool excluded(int i, int j) const
  {
    if (nex_type && ex_type(type(i), type(j))) return true;
    for (int m = 0; m < nex_group; m++)
      if ((mask(i) & ex1_bit(m) && mask(j) & ex2_bit(m)) ||
          (mask(i) & ex2_bit(m) && mask(j) & ex1_bit(m)))
        return true;
    for (int m = 0; m < nex_mol; m++)
      if (mask(i) & ex_mol_bit(m) && mask(j) & ex_mol_bit(m) &&
          (ex_mol_intra(m) ? molecule(i) == molecule(j) : molecule(i) != molecule(j)))
        return true;
    return false;
  }
};

/* Half size lists of "neighbor SKIN hgrid" for Kokkos pair styles
   (gran/hooke/history/kk): one thread per owned atom runs hgrid::PairSearch (the
   kernel of the serial builder) over the device cells of NBinHGridKokkos and the
   same-level rows of NStencilHGrid (copied to the device when the stencil changes).
   With a Kokkos list the planner searches Bottom-Up unless the user chose otherwise:
   a cross-level pair is stored in the smaller particle's row.

   Thread i takes owned atom i, up to the levels whose search may read more than
   kk/split cells of other levels (neighbor hgrid keyword, default 1024) (with newton off, a large particle's search for
   its small ghost partners reads its whole box on the finest levels near a subdomain
   or periodic edge): their atoms are split into units, a same-level stencil row or a
   row of cells of another level each, one thread a unit, in a second pass that
   counts, places and stores them in the atom's row, in the atom pass's order
   (PairSearch::num_units). No thread's work then grows with one particle's size.
   The keyword kk/order cells of neighbor hgrid makes the
   threads take the atoms in the order of their cells instead (levels one after the
   other, NBinHGridKokkos' slots), so that a warp searches one level and neighboring
   cells: measured slower on an H200 (10^6 atoms, omega 100: 9.5 ms per build against
   5.4 ms by atom index), kept for side-by-side benchmarks.

   On a host execution space (OpenMP, Serial backends) the CPU builder makes the rows
   (NPairHGrid::build_threaded: Top-Down where the model says so, gathered same-level
   rows, pairs of a large and a small atom in the small one's row, ghosts searched from
   the ghost side) into pages of its own, and they are copied into the Kokkos list:
   the kernels above check about 4x the cells and 2x the distances of that builder per
   atom there (N = 1e5, omega 100, newton off: 29.5 / 39.9 against 7.0 / 21.6), one
   thread per atom in Bottom-Up order.  neighbor hgrid kk/host kernels runs the kernels
   on the host instead (the tests of the GPU path on the CPU).

   Rows are packed (NeighRowsKokkos) for consumers that read them so (packed_ok:
   gran/hooke/history/kk and fix neigh/history/kk): each row gets the room of its
   level (the longest row seen on that level, +20%), placed by a scan, and the search
   writes them there; then the rows are moved back to back without their free room
   (pack_tight), so that the list and the contact history parallel to it take one slot
   per pair instead of atoms x the longest row of any atom (a level's room is its
   longest row: 3.3x its mean on the intruder benchmark; the history arrays are 7x the
   list's bytes per slot).  Other consumers get dense rows, as
   NPairKokkos writes them.  Either way a build whose rows overflow widens the room
   and is searched once more. */

// TRI: triclinic box (the ID tie-break of newton-on lists, hgrid::PairSearch)
template <class DeviceType, int NEWTON, int TRI = 0>
class NPairHGridKokkos : public NPairHGridBase {
 public:
  typedef ArrayTypes<DeviceType> AT;

  using NPairHGridBase::NPairHGridBase;
  void build(class NeighList *) override;

  // the device passes (public: CUDA lambdas need it)
  template <int EXCLUDE>
  int search(NeighListKokkos<DeviceType> *list, int nlocal, hgrid::SearchCounters &count);
  template <int CELL_ORDER, class Kernel>
  int search_atoms(NeighListKokkos<DeviceType> *list, const Kernel &k, int first_split,
                   hgrid::SearchCounters &count, long long &nunits);
  template <class Kernel>
  int search_split(NeighListKokkos<DeviceType> *list, const Kernel &k, int nunits,
                   hgrid::SearchCounters &count);
  int place_rows(NeighListKokkos<DeviceType> *list, int nlocal);
  int longest_row(NeighListKokkos<DeviceType> *list, int nlocal, int level);
  void pack_tight(NeighListKokkos<DeviceType> *list, int nlocal);
  template <class Counts> void place_tight(const Counts &counts, int nlocal);
  void copy_cpu_rows(NeighListKokkos<DeviceType> *list, int nlocal);

 protected:
  bool searches_both_directions() const override { return !NEWTON; }
  void copy_neighbor_info() override;
  void copy_stencil_info() override;

 private:
  Kokkos::View<hgrid::RowOffset *, DeviceType> d_rows;
  typename AT::t_int_1d d_level_rows;
  std::vector<hgrid::RowOffset> rows_copied;    // host copies of what d_rows and
  std::vector<int> level_rows_copied;           // d_level_rows hold
  std::vector<int> room;                        // packed rows: slots per row, by level
  std::vector<double> room_levels;              // the level sizes room was measured on
  typename AT::t_int_1d d_room;
  // packed rows: searched into rows with room, then moved back to back
  typename AT::t_neighbors_2d d_room_rows, d_tight_rows;
  typename AT::t_int_1d d_room_start, d_tight_start;
  // the split pass: units per owned atom and their scan, partners per unit and theirs
  typename AT::t_int_1d d_units, d_unit_start, d_unit_found, d_unit_first;
  int first_split_level() const;
  HGridExclusionsKokkos<DeviceType> exclusions() const;
  int search_any(NeighListKokkos<DeviceType> *list, int nlocal, hgrid::SearchCounters &count);
  void build_dense(NeighListKokkos<DeviceType> *list, int nlocal, hgrid::SearchCounters &count);
  void build_packed(NeighListKokkos<DeviceType> *list, int nlocal, hgrid::SearchCounters &count);
  void reset_room();
  // a host execution space: the CPU builder, its list (rows in its pages, a page per
  // thread of comm->nthreads when made)
  std::unique_ptr<NPairHGrid<1, NEWTON, 1, TRI>> cpu;
  std::unique_ptr<NeighList> cpu_list;
  int cpu_list_threads = 0;
  bool build_by_cpu(NeighListKokkos<DeviceType> *list, int nlocal, hgrid::SearchCounters &count);
};

}    // namespace LAMMPS_NS

#endif
#endif
