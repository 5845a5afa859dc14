/* -*- c++ -*- ----------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#ifdef NBIN_CLASS
// clang-format off
NBinStyle(hgrid,
          NBinHGrid,
          NB_HGRID);
// clang-format on
#else

#ifndef LMP_NBIN_HGRID_H
#define LMP_NBIN_HGRID_H

#include "nbin.h"

#include "libhgrid/cell_lists.h"
#include "libhgrid/cost_model.h"
#include "libhgrid/grid.h"
#include "libhgrid/layout.h"
#include "libhgrid/radius_distribution.h"

#include <memory>
#include <string>
#include <vector>

namespace LAMMPS_NS {

/* Binning for "neighbor SKIN hgrid": every atom (owned and ghost) is put on the
   level of a hierarchical grid whose cell fits its cutoff diameter 2*r + skin, and
   into that level's cell.  The layout (levels and cell sizes) comes from the
   keywords of the neighbor command or, by default, from the cost model of
   Krijgsman et al. evaluated on the histogram of all radii (libhgrid/optimizer.h);
   it is chosen in copy_neighbor_info() (every run setup), the per-level cell
   geometry in setup_bins() (run setup and box changes). */

class NBinHGrid : public NBin {
 public:
  NBinHGrid(class LAMMPS *);
  ~NBinHGrid() override;

  void copy_neighbor_info() override;
  void bin_atoms_setup(int) override;
  void setup_bins(int) override;
  void bin_atoms() override;
  double memory_usage() override;

  const hgrid::Layout &get_layout() const { return layout; }
  // cost model's prediction for the current layout (total 0 if not applicable)
  const hgrid::Cost &get_predicted() const { return predicted; }
  const hgrid::LevelGrid &get_grid(int level) const { return grids[level]; }
  const hgrid::CellLists &get_cells() const { return cells; }
  double get_skin() const { return skin; }

  int *atom2cell;    // global cell (CellLists numbering) of each atom, -1 if not binned

  // cost-model access for fix hgrid/tune
  void range_of_cutoff_diameters(double &cmin, double &cmax);
  std::unique_ptr<hgrid::Histogram> radius_histogram(double cmin, double cmax,
                                                     hgrid::SystemParams &params);
  hgrid::Layout model_layout(const hgrid::Histogram *f, const hgrid::SystemParams &params,
                             double cmax);
  // cmin: smallest cutoff diameter (range_of_cutoff_diameters), for the ghost classes
  void set_layout(const hgrid::Layout &new_layout, const hgrid::Cost &new_prediction,
                  double cmin);

 protected:
  hgrid::Layout layout;               // current levels and cell sizes
  hgrid::Cost predicted;              // model prediction for layout
  hgrid::Layout user_layout;          // explicit layout from the neighbor command, if any
  int user_levels;                    // 1 if the neighbor command gave cell sizes
  int user_search;                    // 1 if the neighbor command gave the search direction
  double skin;                        // neighbor skin, part of every cutoff diameter
  std::vector<hgrid::LevelGrid> grids;
  hgrid::CellLists cells;
  int layout_printed;                 // 1 once the current layout was logged

  void parse_args();
  bool searched_from_above() const;
  int level_of_atom(double radius) const;
  void publish_collections(double cmin);
  int auto_mode;                      // comm mode this class chose last, -1 if none
  void choose_comm_mode();
  bool other_binned_lists() const;
  std::string ghost_cutoffs_description() const;
  void choose_layout();
  class FixHGridTune *find_tune() const;
  std::vector<double> model_key;      // inputs of the last model_layout() call
  hgrid::Layout model_result;         // and its result
};

}    // namespace LAMMPS_NS

#endif
#endif
