/* hgrid methods: this library's hierarchical grid (Krijgsman, Ogarko & Luding 2014)
   as one contact method among others.

   prepare(): the plan, once per system, as neighbor hgrid makes it: the radius
   histogram (Histogram::from_radii), the system's dimension, its volume fraction over
   the box and the skin (SystemParams) and optimal_layout() with the default settings,
   i.e. levels, cell sizes and search direction minimizing the cost T of eq. (27).
   build(): the grid of that layout over the box with its half stencil rows, the
   particles counting-sorted into cells, each on the lowest level whose size holds
   its cutoff diameter 2 r + skin (eq. 3) (BinnedGrid).
   search(): PairSearch<HALF, NEWTON, !TRI, GATHER>, the kernel of LAMMPS' host builders
   for half newton-on lists, over all particles with no ghosts (nlocal = N), in cell
   order: every pair once, the same-level linked-cell search plus the cross-level
   boxes of eqs. (4)-(5). */

#include "../binned_grid.h"
#include "../cost_model.h"
#include "../planner.h"
#include "../radius_distribution.h"
#include "contact_method.h"

#include <cstdio>
#include <optional>

namespace hgrid {
namespace methods {

  namespace {
    /// The particles as PairSearch reads them (no ghosts, so IDs are the indices).
    struct Atoms {
      const System &s;
      double pos(int i, int d) const { return s.x[i][d]; }
      double radius(int i) const { return s.r[i]; }
      void prefetch(int i) const { HGRID_PREFETCH(s.x[i].data()); }
      void prefetch_radius(int i) const { HGRID_PREFETCH(&s.r[i]); }
      long long tag(int i) const { return i; }
      double image_tolerance() const { return 0.0; }
    };

    class HGrid : public ContactMethod {
     public:
      explicit HGrid(const MethodSettings &s) : skin_(s.skin) {}
      const char *name() const override { return "hgrid"; }

      void prepare(const System &s) override
      {
        const Histogram hist = Histogram::from_radii(s.r);
        params_ = SystemParams::of_dimension(s.dimension);
        params_.packing = s.box_packing();
        params_.skin = skin_;
        const double cmax = 2.0 * s.r_max() + skin_;
        layout_ = optimal_layout(&hist, params_, PlanSettings(), cmax);
        predicted_ = evaluate(layout_, hist, params_);
      }

      void build(const System &s) override
      {
        if (layout_.num_levels() == 0) prepare(s);
        grid_.emplace(layout_, s.box, StencilKind::Half, s.box.lo, s.box.hi);
        grid_->bin(s.x, s.r, skin_);
      }

      void search(const System &s, std::vector<Contact> &out) override
      {
        GridView g = grid_->view();
        // no ghosts: a Top-Down search has no larger ghost partners to look up from the
        // smaller particle (vacuously found already), so no level above is scanned
        g.ghosts_searched_down = true;
        count_ = SearchCounters();
        const int n = s.size();
        const Atoms atoms{s};
        // in cell order (the slots), as linked cells visit their cells: consecutive
        // particles share stencil rows and partners, which then stay in the caches
        const int nslots = g.cell_start[grid_->num_cells()];
        for (int slot = 0; slot < nslots; ++slot) {
          const int i = g.slots[slot];
          auto visit = [&out, i](int j, double, double, double, double, double, bool within) {
            if (within) out.emplace_back(i < j ? i : j, i < j ? j : i);
          };
          PairSearch<true, true, false, true>::neighbors(g, atoms, i, grid_->cell_of(i), n, skin_,
                                                         count_, visit);
        }
      }

      std::size_t memory_bytes() const override { return grid_ ? grid_->memory_bytes() : 0; }
      std::vector<Counter> counters() const override
      {
        return {{"distance_checks", static_cast<double>(count_.distance_checks)},
                {"cells_visited", static_cast<double>(count_.cells_visited)},
                {"cells", static_cast<double>(grid_ ? grid_->num_cells() : 0)},
                {"levels", static_cast<double>(layout_.num_levels())},
                {"predicted_checks_per_particle", predicted_.distance_checks},
                {"predicted_visits_per_particle", predicted_.cell_visits}};
      }
      std::string details() const override
      {
        std::string text = search_name(layout_.search);
        char buffer[32];
        for (double size : layout_.cell_sizes) {
          std::snprintf(buffer, sizeof(buffer), " %.4g", size);
          text += buffer;
        }
        if (layout_.num_levels() == 1)    // cells split into k^d sub-cells
          text += " /" + std::to_string(subdivisions_of(layout_));
        return text;
      }

     private:
      double skin_;
      SystemParams params_;
      Layout layout_;
      Cost predicted_;
      std::optional<BinnedGrid> grid_;
      SearchCounters count_;
    };
  }    // namespace

  std::unique_ptr<ContactMethod> make_hgrid(const MethodSettings &settings)
  {
    return std::make_unique<HGrid>(settings);
  }

}    // namespace methods
}    // namespace hgrid
