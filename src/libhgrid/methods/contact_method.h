/* hgrid methods: contact-detection methods on the same particles, for comparison.

   Every method finds all pairs i < j with |x_i - x_j| <= r_i + r_j + skin
   (methods::in_contact) in two phases, timed separately by the benchmark:
     build()   the mapping phase: cells, sorted lists (every time step)
     search()  the contact-detection phase: pairs appended as (i, j), i < j
   and prepare() once per system for work a simulation does once (hgrid: its plan).

   Methods (one source file each):
     hgrid            this library: levels and cell sizes from the cost model
                      (Krijgsman, Ogarko & Luding 2014), pair_search.h's kernel
     linked_cell      one grid of cells >= the largest cutoff diameter, header and
                      linked-list arrays (Leszczynski & Ciesielski, Sect. 2.1)
     sorted_distance  distances to a corner sorted, swept with a break (L&C, Sect. 2.2)
     mr               Munjiza & Rougier's MR: cells of the largest diameter, a list
                      sorted by cell (eq. 7), the MR search with its contact mask (Sect. 5)
     mmr              multi-step MR for different sizes (M&R, Sect. 7, eqs. 30-31)
     all_pairs        every pair, the reference
   Counters name each paper's own measures of work; memory_bytes() is the capacity of a
   method's own data structures (not the particles, not the contacts found). */

#ifndef HGRID_METHODS_CONTACT_METHOD_H
#define HGRID_METHODS_CONTACT_METHOD_H

#include "system.h"

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace hgrid {
namespace methods {

  /// A contact (i, j), i < j.
  using Contact = std::pair<int, int>;

  /// One named measure of work of the last build() + search().
  struct Counter {
    std::string name;
    double value;
  };

  /// MMR's default ratio of consecutive bounding-box sizes, eq. (32).
  constexpr double kMmrDefaultRatio = 2.0;

  struct MethodSettings {
    double skin = 0.0;                      ///< added to every contact distance
    double mmr_ratio = kMmrDefaultRatio;    ///< alpha of eq. (30), > 1
  };

  class ContactMethod {
   public:
    virtual ~ContactMethod() = default;
    [[nodiscard]] virtual const char *name() const = 0;
    /// Once per system, before the first build (default: nothing).
    virtual void prepare(const System &) {}
    /// The mapping phase for the current positions.
    virtual void build(const System &system) = 0;
    /// Append every contact (i, j), i < j, once to \p out (which is not cleared).
    virtual void search(const System &system, std::vector<Contact> &out) = 0;
    /// Bytes of the method's data structures after the last build and search.
    [[nodiscard]] virtual std::size_t memory_bytes() const = 0;
    /// The method's own measures of work of the last build and search.
    [[nodiscard]] virtual std::vector<Counter> counters() const = 0;
    /// Free text on the method's set-up (hgrid: its levels), for reports.
    [[nodiscard]] virtual std::string details() const { return ""; }
  };

  /// Names of all methods, in the benchmark's order.
  [[nodiscard]] std::vector<std::string> method_names();

  /// \brief The method called \p name with \p settings.
  /// \throws std::invalid_argument for an unknown name or bad settings.
  [[nodiscard]] std::unique_ptr<ContactMethod> make_method(const std::string &name,
                                                           const MethodSettings &settings);

  std::unique_ptr<ContactMethod> make_hgrid(const MethodSettings &settings);
  std::unique_ptr<ContactMethod> make_linked_cell(const MethodSettings &settings);
  std::unique_ptr<ContactMethod> make_sorted_distance(const MethodSettings &settings);
  std::unique_ptr<ContactMethod> make_mr(const MethodSettings &settings);
  std::unique_ptr<ContactMethod> make_mmr(const MethodSettings &settings);
  std::unique_ptr<ContactMethod> make_all_pairs(const MethodSettings &settings);

  /// Sort \p contacts; true if no pair occurs twice and every pair has i < j.
  bool normalize(std::vector<Contact> &contacts);

  /// Pairs of one sorted list missing from the other.
  struct Difference {
    std::vector<Contact> missing;    ///< in the reference, not found
    std::vector<Contact> extra;      ///< found, not in the reference
    [[nodiscard]] bool empty() const { return missing.empty() && extra.empty(); }
  };
  /// \brief Compare sorted \p found with sorted \p reference.
  [[nodiscard]] Difference compare(const std::vector<Contact> &found,
                                   const std::vector<Contact> &reference);

}    // namespace methods
}    // namespace hgrid

#endif
