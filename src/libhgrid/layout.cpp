#include "layout.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace hgrid {

void validate(const Layout &layout, double max_cutoff_diameter)
{
  const auto &s = layout.cell_sizes;
  if (s.empty()) throw std::invalid_argument("a hierarchical grid needs at least one level");
  if (layout.subdivisions < 0)
    throw std::invalid_argument("sub-cells per cell edge (" + std::to_string(layout.subdivisions) +
                                ") must be at least 1");
  for (std::size_t h = 0; h < s.size(); ++h) {
    if (!std::isfinite(s[h]) || s[h] <= 0.0)
      throw std::invalid_argument("cell size of level " + std::to_string(h + 1) + " (" +
                                  std::to_string(s[h]) + ") must be positive and finite");
    if (h > 0 && s[h] <= s[h - 1])
      throw std::invalid_argument("cell sizes must increase strictly: level " +
                                  std::to_string(h + 1) + " (" + std::to_string(s[h]) +
                                  ") is not larger than level " + std::to_string(h) + " (" +
                                  std::to_string(s[h - 1]) + ")");
  }
  if (level_of(layout, max_cutoff_diameter) < 0)
    throw std::invalid_argument("top level cell size " + std::to_string(s.back()) +
                                " is smaller than the largest cutoff diameter 2*r+skin = " +
                                std::to_string(max_cutoff_diameter));
}

std::vector<double> ghost_classes(const Layout &layout, double cmin)
{
  const double top = layout.top();
  std::vector<double> bounds;
  if (cmin > 0.0 && cmin < top) {
    // steps of at most kGhostClassRatio from cmin to the top, equal in log size
    const double span = std::log(top / cmin) / std::log(kGhostClassRatio);
    const int steps = std::clamp(static_cast<int>(std::ceil(span * (1.0 - kSizeTolerance))), 1,
                                 kMaxGhostClasses - 1);
    const double ratio = std::pow(top / cmin, 1.0 / steps);
    for (int k = 0; k < steps; ++k) bounds.push_back(cmin * std::pow(ratio, k));
  }
  bounds.push_back(top);
  return bounds;
}

double ghost_searcher_size(const Layout &layout, double bk, bool upward_only)
{
  if (!upward_only) return layout.top();
  // the highest level of the class, with level_of()'s round-off to spare
  const int level = level_of(layout, bk * (1.0 + 2.0 * kSizeTolerance));
  return level < 0 ? layout.top() : layout.cell_sizes[level];
}

const char *search_name(Search search)
{
  return search == Search::TopDown ? "topdown" : "bottomup";
}

Search search_from_name(const std::string &name)
{
  if (name == "topdown") return Search::TopDown;
  if (name == "bottomup") return Search::BottomUp;
  throw std::invalid_argument("unknown search direction '" + name +
                              "' (expected topdown or bottomup)");
}

std::string describe(const Layout &layout)
{
  std::string out;
  char line[160];
  double lower = 0.0;
  for (int h = 0; h < layout.num_levels(); ++h) {
    const double s = layout.cell_sizes[h];
    std::snprintf(line, sizeof(line), "  level %d: cell size %g, cutoff diameters (%g, %g]\n",
                  h + 1, s, lower, s);
    out += line;
    lower = s;
  }
  if (subdivisions_of(layout) > 1) {
    std::snprintf(line, sizeof(line), "  cells split into %d^d sub-cells\n",
                  subdivisions_of(layout));
    out += line;
  }
  return out;
}

}    // namespace hgrid
