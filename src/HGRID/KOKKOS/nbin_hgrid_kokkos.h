/* -*- c++ -*- ----------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#ifdef NBIN_CLASS
// clang-format off
NBinStyle(hgrid/kk/host,
          NBinHGridKokkos<LMPHostType>,
          NB_HGRID | NB_KOKKOS_HOST);

NBinStyle(hgrid/kk/device,
          NBinHGridKokkos<LMPDeviceType>,
          NB_HGRID | NB_KOKKOS_DEVICE);
// clang-format on
#else

#ifndef LMP_NBIN_HGRID_KOKKOS_H
#define LMP_NBIN_HGRID_KOKKOS_H

#include "kokkos_type.h"
#include "nbin_hgrid.h"

#include <type_traits>

namespace LAMMPS_NS {

/* Binning of "neighbor SKIN hgrid" for Kokkos lists, in the execution space of
   DeviceType.  The plan and the per-level windows are made on the host, as for
   NBinHGrid (setup_bins, once per re-level or box change); the per-level views are
   then copied to the device.  Every build bins on the device with a counting sort
   (count per cell, exclusive scan, fill, then each cell sorted by atom index so that
   lists are the same whatever the thread schedule; on a host execution space the
   host's hgrid::CellLists sorts them, without atomics: kHostBins).
   Memory is reallocated only when the number of cells or atoms grows. */

template <class DeviceType> class NBinHGridKokkos : public NBinHGrid {
 public:
  typedef ArrayTypes<DeviceType> AT;

  NBinHGridKokkos(class LAMMPS *);

  void copy_neighbor_info() override;
  void bin_atoms_setup(int) override;
  void setup_bins(int) override;
  void bin_atoms() override;
  double memory_usage() override;

  // the binned grid with device pointers, without stencil rows
  hgrid::GridView device_view() const;

  typename AT::t_int_1d d_atom2cell;    // global cell of each atom, -1 if not binned

  // the two device passes of bin_atoms() (public: CUDA lambdas need it)
  void count_cells(int nlocal, int nall);
  void fill_cells(int nall);

  // a host execution space sorts the atoms into cells with the CPU's hgrid::CellLists
  // (each thread its share of the cells, no atomics; a locked increment per atom waits
  // for its cache line: 2.8 ms of a 41 ms build at N = 1e5), whose arrays the search reads
  static constexpr bool kHostBins =
      std::is_same_v<typename DeviceType::execution_space, Kokkos::DefaultHostExecutionSpace>;
  // a host execution space whose lists the CPU builder makes (neighbor hgrid kk/host
  // cpu, the default): the CPU's binning, NBinHGrid::bin_atoms() on the host arrays
  bool cpu_builds() const override;

 private:
  Kokkos::View<hgrid::LevelView *, DeviceType> d_levels;
  typename AT::t_int_1d d_count;         // atoms per cell, counted down by the fill
  typename AT::t_int_1d d_cell_start;    // ncells + 1 slot offsets
  typename AT::t_int_1d d_slots;         // atom indices sorted by (cell, index)
  typename AT::t_int_scalar d_status;
  HAT::t_int_scalar h_status;
  int ncells_alloc;
};

}    // namespace LAMMPS_NS

#endif
#endif
