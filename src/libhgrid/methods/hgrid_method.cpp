/* hgrid methods: this library's hierarchical grid (Krijgsman, Ogarko & Luding 2014)
   as one contact method among others.

   prepare(): the plan, once per system, as neighbor hgrid makes it: the radius
   histogram (Histogram::from_radii), the system's dimension, its volume fraction over
   the box and the skin (SystemParams) and optimal_layout() with the default settings,
   i.e. levels, cell sizes and search direction minimizing the cost T of eq. (27).
   build(): one LevelGrid per level over the box, the half stencil rows and the
   particles counting-sorted into cells (CellLists), each on the lowest level whose
   size holds its cutoff diameter 2 r + skin (eq. 3).
   search(): PairSearch<HALF, NEWTON> over all particles with no ghosts (nlocal = N):
   every pair once, the same-level linked-cell search plus the cross-level boxes of
   eqs. (4)-(5). */

#include "../cell_lists.h"
#include "../cost_model.h"
#include "../pair_search.h"
#include "../planner.h"
#include "../radius_distribution.h"
#include "contact_method.h"

#include <cstdio>

namespace hgrid {
namespace methods {

  namespace {
    /// The particles as PairSearch reads them (no ghosts, so IDs are the indices).
    struct Atoms {
      const System &s;
      double pos(int i, int d) const { return s.x[i][d]; }
      double radius(int i) const { return s.r[i]; }
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
        params_.dimension = s.dimension;
        params_.packing = s.box_packing();
        params_.skin = skin_;
        const double cmax = 2.0 * s.r_max() + skin_;
        layout_ = optimal_layout(&hist, params_, PlanSettings(), cmax);
        predicted_ = evaluate(layout_, hist, params_);
      }

      void build(const System &s) override
      {
        if (layout_.num_levels() == 0) prepare(s);
        grids_.clear();
        views_.clear();
        rows_.clear();
        level_rows_.assign(1, 0);
        std::vector<int> ncells;
        int first = 0;
        for (double size : layout_.cell_sizes) {
          grids_.emplace_back(size, s.box, s.box.lo, s.box.hi, subdivisions_of(layout_));
          const LevelGrid &grid = grids_.back();
          views_.push_back(grid.view(first));
          for (const StencilRow &r : same_level_rows(grid, StencilKind::Half))
            rows_.push_back(row_offset(grid, r));
          level_rows_.push_back(static_cast<int>(rows_.size()));
          ncells.push_back(grid.num_cells());
          first += ncells.back();
        }
        cells_.set_levels(ncells);
        cell_of_.resize(s.size());
        for (int i = 0; i < s.size(); ++i) {
          const LevelView &v = views_[level_of(layout_, 2.0 * s.r[i] + skin_)];
          cell_of_[i] = v.first_cell + v.index_of(s.x[i].data());
        }
        cells_.build(s.size(), cell_of_.data());
      }

      void search(const System &s, std::vector<Contact> &out) override
      {
        GridView g;
        g.nlevels = layout_.num_levels();
        g.topdown = layout_.search == Search::TopDown;
        g.levels = views_.data();
        g.level_rows = level_rows_.data();
        g.rows = rows_.data();
        g.cell_start = cells_.starts();
        g.slots = cells_.particles();
        count_ = SearchCounters();
        const int n = s.size();
        const Atoms atoms{s};
        for (int i = 0; i < n; ++i) {
          auto visit = [&out, i](int j, double, double, double, double, double) {
            out.emplace_back(i < j ? i : j, i < j ? j : i);
          };
          PairSearch<true, true>::neighbors(g, atoms, i, cell_of_[i], n, skin_, count_, visit);
        }
      }

      std::size_t memory_bytes() const override
      {
        return cells_.memory_bytes() +
            sizeof(int) * (cell_of_.capacity() + level_rows_.capacity()) +
            sizeof(LevelView) * views_.capacity() + sizeof(RowOffset) * rows_.capacity() +
            sizeof(LevelGrid) * grids_.capacity();
      }
      std::vector<Counter> counters() const override
      {
        return {{"distance_checks", static_cast<double>(count_.distance_checks)},
                {"cells_visited", static_cast<double>(count_.cells_visited)},
                {"cells", static_cast<double>(cells_.num_cells())},
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
        return text;
      }

     private:
      double skin_;
      SystemParams params_;
      Layout layout_;
      Cost predicted_;
      std::vector<LevelGrid> grids_;
      std::vector<LevelView> views_;
      std::vector<RowOffset> rows_;
      std::vector<int> level_rows_, cell_of_;
      CellLists cells_;
      SearchCounters count_;
    };
  }    // namespace

  std::unique_ptr<ContactMethod> make_hgrid(const MethodSettings &settings)
  {
    return std::make_unique<HGrid>(settings);
  }

}    // namespace methods
}    // namespace hgrid
