/* hgrid methods: Munjiza & Rougier's MR contact detection (Sects. 2, 5) and its
   multi-step extension MMR for particles of different sizes (Sect. 7).

   MR.  Every particle gets a spherical bounding box of the same diameter d, the
   largest particle's (here its cutoff diameter 2 r_max + skin).  Space [x_min, x_max]
   is divided into n_x n_y n_z cubic cells of size d, n_x = (x_max - x_min)/d + 1
   (eq. 4); a box maps to the cell i_x = Int((x - x_min)/d) (eq. 5).  No cell array is
   stored: the boxes form one list sorted by the ordering criterion (7), i.e. by
   (i_z, i_y, i_x), here the key (i_z n_y + i_y) n_x + i_x.  The MR search (Sect. 5)
   parses that list once: for each contactor box it reads the targets in the cells of
   its contact mask, 4 neighbouring cells in 2 rows (2d, Fig. 14) or 13 in 5 rows (3d,
   Fig. 17): the rest of its own cell and the cell to its right, then rows of three
   cells above it.  Each row's targets are one range of the sorted list, from its
   "beginning" box (first >= the row's first cell) to its "ending" box (first > the
   row's last cell), eq. (22); both only move forward as the contactor advances, so the
   search is linear in N (eq. 23).

   Sorting.  The paper sorts the list either by quick sort (Sect. 3; N ln N) or, from
   the previous time step's nearly sorted list, by the MR-linear sort (Sect. 4), which
   needs temporal coherence: every box moved at most one cell since the last sort.  A
   single contact detection on a new system has no previous list, so this
   implementation always uses the quick-sort path (std::sort, an introsort, on an
   array instead of the doubly linked list of Fig. 4).  The MR-linear sort is not
   implemented.

   MMR (Sect. 7).  Particles are grouped by size: group k holds the bounding boxes of
   size d_k = d / alpha^k (eq. 30), i.e. cutoff diameters in (d_k / alpha, d_k].  Step
   k maps the particles of groups >= k (groups < k removed) onto cells of size d_k and
   searches contacts of the group-k particles (contactors) with themselves (the MR
   search above) and with all smaller remaining particles (targets, a separate list,
   read through the full 3^d mask since a target may lie in any neighbouring cell).
   Any pair is found in the step of its larger particle's group, once.  The number of
   steps follows from eq. (31): d_max / d_min <= alpha^n. */

#include "contact_method.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace hgrid {
namespace methods {

  namespace {
    /// One bounding box of the MR list: the key of criterion (7), its integerized
    /// coordinates (eq. 5) and the particle.
    struct MrBox {
      long long key;
      int id;
      int c[3];
    };

    /// The space of eq. (4): the bounds of the particle centres.
    struct Bounds {
      double lo[3], hi[3];
      explicit Bounds(const System &s)
      {
        for (int k = 0; k < 3; ++k) {
          lo[k] = hi[k] = s.x[0][k];
          for (const auto &x : s.x) {
            lo[k] = std::min(lo[k], x[k]);
            hi[k] = std::max(hi[k], x[k]);
          }
        }
      }
    };

    /// Cells of size d over the particles' space, eqs. (3)-(5).
    class MrSpace {
     public:
      // kCellSafety (grid.h): round-off never puts two touching boxes two cells apart
      MrSpace(const Bounds &space, double d) : d_(d * (1.0 + kCellSafety))
      {
        for (int k = 0; k < 3; ++k) {
          lo_[k] = space.lo[k];
          n_[k] = static_cast<long long>((space.hi[k] - space.lo[k]) / d_) + 1;    // eq. (4)
        }
        if (static_cast<double>(n_[0]) * n_[1] * n_[2] > 4.0e18)
          throw std::invalid_argument("MR: too many cells for a 64-bit key");
      }
      /// Key of criterion (7): i_z most significant, i_x least.
      long long key(long long cx, long long cy, long long cz) const
      {
        return (cz * n_[1] + cy) * n_[0] + cx;
      }
      MrBox box(const System &s, int i) const
      {
        MrBox b;
        b.id = i;
        for (int k = 0; k < 3; ++k) {    // eq. (5), clamped against round-off at x_max
          const long long c = static_cast<long long>((s.x[i][k] - lo_[k]) / d_);
          b.c[k] = static_cast<int>(std::min(c, n_[k] - 1));
        }
        b.key = key(b.c[0], b.c[1], b.c[2]);
        return b;
      }
      long long n(int k) const { return n_[k]; }
      double cells() const { return static_cast<double>(n_[0]) * n_[1] * n_[2]; }

     private:
      double d_;
      double lo_[3];
      long long n_[3];
    };

    /// The list of the particles \p ids sorted by criterion (7) (quick-sort path).
    void mr_sort(const MrSpace &space, const System &s, const int *ids, int count,
                 std::vector<MrBox> &list)
    {
      list.resize(count);
      for (int k = 0; k < count; ++k) list[k] = space.box(s, ids[k]);
      std::sort(list.begin(), list.end(), [](const MrBox &a, const MrBox &b) {
        return a.key < b.key || (a.key == b.key && a.id < b.id);
      });
    }

    /// A row of three cells (i_x - 1 .. i_x + 1, i_y + dy, i_z + dz) of a contact mask.
    struct MaskRow {
      int dy, dz;
    };

    /// \brief Rows of the contact mask: the half mask of MR (Figs. 14, 17; the central
    /// row, own cell and right neighbour, is handled apart) or the full 3^d block.
    std::vector<MaskRow> mask_rows(int dimension, bool half)
    {
      std::vector<MaskRow> rows;
      const int kz = dimension == 3 ? 1 : 0;
      for (int dz = half ? 0 : -kz; dz <= kz; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
          if (!half || dz > 0 || dy > 0) rows.push_back({dy, dz});
      return rows;
    }

    struct MrWork {
      long long checks = 0;    ///< distance checks (target boxes in a contactor's mask)
      long long steps = 0;     ///< forward moves of the beginning and ending pointers
    };

    /// \brief The MR search of sorted \p contactors against sorted \p targets: the same
    /// list with the half mask (\p self), or another list with the full mask.
    void mr_search(const MrSpace &space, const System &s, const std::vector<MrBox> &contactors,
                   const std::vector<MrBox> &targets, bool self, double skin, MrWork &work,
                   std::vector<Contact> &out)
    {
      const std::vector<MaskRow> rows = mask_rows(s.dimension, self);
      std::vector<std::size_t> begin(rows.size(), 0), end(rows.size(), 0);
      std::size_t central_end = 0;
      const std::size_t ntargets = targets.size();
      auto scan = [&](int i, std::size_t from, std::size_t to) {
        for (std::size_t q = from; q < to; ++q) {
          const int j = targets[q].id;
          ++work.checks;
          if (in_contact(s, i, j, skin)) out.emplace_back(std::min(i, j), std::max(i, j));
        }
      };
      for (std::size_t p = 0; p < contactors.size(); ++p) {
        const MrBox &b = contactors[p];
        const long long x0 = std::max(b.c[0] - 1, 0);
        const long long x1 = std::min<long long>(b.c[0] + 1, space.n(0) - 1);
        if (self) {    // the boxes after b in its own cell and in the cell to its right
          const long long last = space.key(x1, b.c[1], b.c[2]);
          central_end = std::max(central_end, p + 1);
          for (; central_end < ntargets && targets[central_end].key <= last; ++central_end)
            ++work.steps;
          scan(b.id, p + 1, central_end);
        }
        for (std::size_t r = 0; r < rows.size(); ++r) {
          const long long cy = b.c[1] + rows[r].dy, cz = b.c[2] + rows[r].dz;
          if (cy < 0 || cy >= space.n(1) || cz < 0 || cz >= space.n(2)) continue;
          const long long first = space.key(x0, cy, cz), last = space.key(x1, cy, cz);
          for (; begin[r] < ntargets && targets[begin[r]].key < first; ++begin[r]) ++work.steps;
          end[r] = std::max(end[r], begin[r]);
          for (; end[r] < ntargets && targets[end[r]].key <= last; ++end[r]) ++work.steps;
          scan(b.id, begin[r], end[r]);    // eq. (22): beginning <= target < ending
        }
      }
    }

    double seconds_since(std::chrono::steady_clock::time_point t0)
    {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    class Mr : public ContactMethod {
     public:
      explicit Mr(const MethodSettings &s) : skin_(s.skin) {}
      const char *name() const override { return "mr"; }

      void build(const System &s) override
      {
        space_ = std::make_unique<MrSpace>(Bounds(s), 2.0 * s.r_max() + skin_);
        ids_.resize(s.size());
        for (int i = 0; i < s.size(); ++i) ids_[i] = i;
        mr_sort(*space_, s, ids_.data(), s.size(), list_);
      }
      void search(const System &s, std::vector<Contact> &out) override
      {
        work_ = MrWork();
        mr_search(*space_, s, list_, list_, true, skin_, work_, out);
      }
      std::size_t memory_bytes() const override { return sizeof(MrBox) * list_.capacity(); }
      std::vector<Counter> counters() const override
      {
        return {{"distance_checks", static_cast<double>(work_.checks)},
                {"list_steps", static_cast<double>(work_.steps)},
                {"sorted_items", static_cast<double>(list_.size())},
                {"cells", space_ ? space_->cells() : 0.0}};
      }

     private:
      double skin_;
      std::unique_ptr<MrSpace> space_;
      std::vector<int> ids_;    // 0..N-1 (all particles are contactors and targets)
      std::vector<MrBox> list_;
      MrWork work_;
    };

    class Mmr : public ContactMethod {
     public:
      explicit Mmr(const MethodSettings &s) : skin_(s.skin), ratio_(s.mmr_ratio)
      {
        if (!(ratio_ > 1.0) || !std::isfinite(ratio_))
          throw std::invalid_argument("mmr: the size ratio alpha of eq. (30) must exceed 1");
      }
      const char *name() const override { return "mmr"; }

      /// Group of every particle (eq. 30) and the particles ordered by group.
      void build(const System &s) override
      {
        d0_ = 2.0 * s.r_max() + skin_;
        groups_ = 0;
        group_.resize(s.size());
        for (int i = 0; i < s.size(); ++i) {
          group_[i] = group_of(2.0 * s.r[i] + skin_);
          groups_ = std::max(groups_, group_[i] + 1);
        }
        // counting sort by group: first_[k] .. first_[k+1]-1 hold group k
        first_.assign(groups_ + 1, 0);
        for (int g : group_) ++first_[g + 1];
        for (int k = 0; k < groups_; ++k) first_[k + 1] += first_[k];
        by_group_.resize(s.size());
        std::vector<int> next(first_.begin(), first_.end() - 1);
        for (int i = 0; i < s.size(); ++i) by_group_[next[group_[i]]++] = i;
      }

      /// Steps 0 .. n-1: group k against itself and against the smaller groups.
      void search(const System &s, std::vector<Contact> &out) override
      {
        work_ = MrWork();
        steps_ = 0;
        sorted_ = 0;
        sort_seconds_ = 0.0;
        const int n = s.size();
        const Bounds bounds(s);
        for (int k = 0; k < groups_; ++k) {
          const int ncon = first_[k + 1] - first_[k];
          if (ncon == 0) continue;    // an empty group: nothing to search from
          ++steps_;
          const auto t0 = std::chrono::steady_clock::now();
          const MrSpace space(bounds, d0_ / std::pow(ratio_, k));
          mr_sort(space, s, by_group_.data() + first_[k], ncon, contactors_);
          mr_sort(space, s, by_group_.data() + first_[k + 1], n - first_[k + 1], targets_);
          sorted_ += n - first_[k];
          sort_seconds_ += seconds_since(t0);
          mr_search(space, s, contactors_, contactors_, true, skin_, work_, out);
          if (!targets_.empty())
            mr_search(space, s, contactors_, targets_, false, skin_, work_, out);
        }
      }

      std::size_t memory_bytes() const override
      {
        return sizeof(MrBox) * (contactors_.capacity() + targets_.capacity()) +
            sizeof(int) * (group_.capacity() + by_group_.capacity() + first_.capacity());
      }
      std::vector<Counter> counters() const override
      {
        return {{"distance_checks", static_cast<double>(work_.checks)},
                {"list_steps", static_cast<double>(work_.steps)},
                {"sorted_items", static_cast<double>(sorted_)},
                {"groups", static_cast<double>(groups_)},
                {"steps", static_cast<double>(steps_)},
                {"sort_seconds", sort_seconds_}};
      }
      std::string details() const override
      {
        return "alpha " + std::to_string(ratio_).substr(0, 4) + ", " + std::to_string(groups_) +
            " groups";
      }

     private:
      /// group k of a cutoff diameter c: d_0 / alpha^(k+1) < c <= d_0 / alpha^k
      int group_of(double c) const
      {
        int k = static_cast<int>(std::floor(std::log(d0_ / c) / std::log(ratio_)));
        k = std::max(k, 0);
        while (k > 0 && c > d0_ / std::pow(ratio_, k)) --k;
        while (c <= d0_ / std::pow(ratio_, k + 1)) ++k;
        return k;
      }

      double skin_, ratio_, d0_ = 0.0;
      int groups_ = 0, steps_ = 0;
      long long sorted_ = 0;
      double sort_seconds_ = 0.0;
      std::vector<int> group_, first_, by_group_;
      std::vector<MrBox> contactors_, targets_;
      MrWork work_;
    };
  }    // namespace

  std::unique_ptr<ContactMethod> make_mr(const MethodSettings &settings)
  {
    return std::make_unique<Mr>(settings);
  }
  std::unique_ptr<ContactMethod> make_mmr(const MethodSettings &settings)
  {
    return std::make_unique<Mmr>(settings);
  }

}    // namespace methods
}    // namespace hgrid
