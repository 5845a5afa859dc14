/* hgrid methods: the method registry, the all-pairs reference and the comparison of
   contact lists. */

#include "contact_method.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>

namespace hgrid {
namespace methods {

  namespace {
    /// Every pair once: n (n - 1) / 2 distance checks, the brute force both papers
    /// compare against (L&C Sect. 1: "np(np-1)/2 arithmetic operations").
    class AllPairs : public ContactMethod {
     public:
      explicit AllPairs(const MethodSettings &s) : skin_(s.skin) {}
      const char *name() const override { return "all_pairs"; }
      void build(const System &) override {}
      void search(const System &s, std::vector<Contact> &out) override
      {
        const int n = s.size();
        for (int i = 0; i < n; ++i)
          for (int j = i + 1; j < n; ++j)
            if (in_contact(s, i, j, skin_)) out.emplace_back(i, j);
        checks_ = 0.5 * n * (n - 1.0);
      }
      std::size_t memory_bytes() const override { return 0; }
      std::vector<Counter> counters() const override { return {{"distance_checks", checks_}}; }

     private:
      double skin_;
      double checks_ = 0.0;
    };
  }    // namespace

  std::unique_ptr<ContactMethod> make_all_pairs(const MethodSettings &settings)
  {
    return std::make_unique<AllPairs>(settings);
  }

  std::vector<std::string> method_names()
  {
    return {"hgrid", "linked_cell", "sorted_distance", "mr", "mmr", "all_pairs"};
  }

  std::unique_ptr<ContactMethod> make_method(const std::string &name,
                                             const MethodSettings &settings)
  {
    if (!(settings.skin >= 0.0) || !std::isfinite(settings.skin))
      throw std::invalid_argument("skin must be finite and >= 0");
    if (name == "hgrid") return make_hgrid(settings);
    if (name == "linked_cell") return make_linked_cell(settings);
    if (name == "sorted_distance") return make_sorted_distance(settings);
    if (name == "mr") return make_mr(settings);
    if (name == "mmr") return make_mmr(settings);
    if (name == "all_pairs") return make_all_pairs(settings);
    throw std::invalid_argument("unknown method '" + name +
                                "' (hgrid, linked_cell, sorted_distance, mr, mmr, all_pairs)");
  }

  bool normalize(std::vector<Contact> &contacts)
  {
    std::sort(contacts.begin(), contacts.end());
    for (const Contact &c : contacts)
      if (c.first >= c.second) return false;
    return std::adjacent_find(contacts.begin(), contacts.end()) == contacts.end();
  }

  Difference compare(const std::vector<Contact> &found, const std::vector<Contact> &reference)
  {
    Difference d;
    std::set_difference(reference.begin(), reference.end(), found.begin(), found.end(),
                        std::back_inserter(d.missing));
    std::set_difference(found.begin(), found.end(), reference.begin(), reference.end(),
                        std::back_inserter(d.extra));
    return d;
  }

}    // namespace methods
}    // namespace hgrid
