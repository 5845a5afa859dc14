/* hgrid methods: the sorted-distance method of Leszczynski & Ciesielski, Sect. 2.2,
   Algorithm 1.
     Step 1: x_0 = the box's lower corner (all coordinates relative to it positive);
             l_i = |x_i - x_0| - r_i                                            (eq. 3)
     Step 2: sort the l_i (the paper names QuickSort; std::sort, an introsort), giving
             the index array nl
     Step 3: for each i in sorted order, test j = i+1, i+2, ... until
             l_{nl_j} - l_{nl_i} > 2 r_{nl_i}, then break.
   The break is exact: by the triangle inequality a contact |x_j - x_i| <= r_i + r_j
   gives l_j + r_j <= l_i + r_i + r_i + r_j, i.e. l_j - l_i <= 2 r_i; with the skin
   the bound is 2 r_i + skin.  Every later j in the sorted order is further still.
   Memory: the two arrays nl and l of np entries (the paper's "two one-dimensional
   matrices"). */

#include "contact_method.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace hgrid {
namespace methods {

  namespace {
    /// Relative slack of the break test, so that round-off in the square roots of
    /// eq. (3) never breaks off before a pair touching exactly at r_i + r_j + skin.
    constexpr double kRoundOff = 1.0e-12;

    class SortedDistance : public ContactMethod {
     public:
      explicit SortedDistance(const MethodSettings &s) : skin_(s.skin) {}
      const char *name() const override { return "sorted_distance"; }

      void build(const System &s) override
      {
        const int n = s.size();
        key_.resize(n);
        for (int i = 0; i < n; ++i) {    // step 1, eq. (3)
          double sq = 0.0;
          for (int d = 0; d < 3; ++d) {
            const double del = s.x[i][d] - s.box.lo[d];
            sq += del * del;
          }
          key_[i] = std::sqrt(sq) - s.r[i];
        }
        nl_.resize(n);    // step 2
        std::iota(nl_.begin(), nl_.end(), 0);
        std::sort(nl_.begin(), nl_.end(), [this](int a, int b) {
          return key_[a] < key_[b] || (key_[a] == key_[b] && a < b);
        });
        l_.resize(n);
        for (int k = 0; k < n; ++k) l_[k] = key_[nl_[k]];
      }

      void search(const System &s, std::vector<Contact> &out) override
      {
        checks_ = comparisons_ = 0;
        const int n = s.size();
        for (int a = 0; a + 1 < n; ++a) {    // step 3
          const int i = nl_[a];
          const double reach = 2.0 * s.r[i] + skin_ + kRoundOff * (std::fabs(l_[a]) + s.r[i]);
          for (int b = a + 1; b < n; ++b) {
            ++comparisons_;
            if (l_[b] - l_[a] > reach) break;
            const int j = nl_[b];
            ++checks_;
            if (in_contact(s, i, j, skin_)) out.emplace_back(std::min(i, j), std::max(i, j));
          }
        }
      }

      std::size_t memory_bytes() const override
      {
        return sizeof(int) * nl_.capacity() + sizeof(double) * (l_.capacity() + key_.capacity());
      }
      std::vector<Counter> counters() const override
      {
        return {{"distance_checks", static_cast<double>(checks_)},
                {"sorted_comparisons", static_cast<double>(comparisons_)},
                {"sorted_items", static_cast<double>(nl_.size())}};
      }

     private:
      double skin_;
      std::vector<double> key_, l_;    // l_i by particle, and in sorted order
      std::vector<int> nl_;            // particle indices sorted by l
      long long checks_ = 0, comparisons_ = 0;
    };
  }    // namespace

  std::unique_ptr<ContactMethod> make_sorted_distance(const MethodSettings &settings)
  {
    return std::make_unique<SortedDistance>(settings);
  }

}    // namespace methods
}    // namespace hgrid
