/* hgrid: hierarchical-grid contact detection for polydisperse particles.
   Pure library: no LAMMPS, MPI or Kokkos headers.

   Layout of a hierarchical grid (Krijgsman, Ogarko & Luding 2014, Sect. 2.1):
   L levels h = 1..L with cell sizes s_1 < s_2 < ... < s_L.  A particle is inserted
   on the lowest level whose cell fits its *cutoff diameter* c = 2 r + skin
   (eq. 3 with the neighbor skin included, so that the same-level search stays
   a 3^d linked-cell search for neighbor lists with a skin).

   Levels are 0-based in the code (level 0 is the paper's h = 1). */

#ifndef HGRID_LAYOUT_H
#define HGRID_LAYOUT_H

#include "portability.h"

#include <string>
#include <vector>

namespace hgrid {

/// Direction of the cross-level search (paper Sect. 2.2).
enum class Search {
  TopDown,    ///< a particle searches the levels below its own (smaller particles)
  BottomUp    ///< a particle searches the levels above its own (larger particles)
};

/// Relative tolerance used when comparing cutoff diameters with cell sizes, so that
/// a particle whose cutoff diameter equals a cell size up to round-off fits that level.
constexpr double kSizeTolerance = 1.0e-12;

/// Default sub-cells per cell edge of a one-level grid: cells of half the level size
/// searched with the 5^d stencil, the bin size LAMMPS' `bin` style uses for the same
/// reason (about 0.58x the distance checks of 3^d cells).  The cost model chooses
/// between this and 1 (cells of the level size, the 3^d stencil of linked cells).
constexpr int kSingleLevelSubdivisions = 2;

/// The number of levels and the cell sizes of a hierarchical grid.
struct Layout {
  std::vector<double> cell_sizes;      ///< s_h, strictly increasing, in length units
  Search search = Search::BottomUp;    ///< cross-level search direction
  /// sub-cells per cell edge if the layout has one level (ignored for a hierarchy);
  /// 0: kSingleLevelSubdivisions (read it through subdivisions_of())
  int subdivisions = 0;

  [[nodiscard]] int num_levels() const { return static_cast<int>(cell_sizes.size()); }
  [[nodiscard]] double top() const { return cell_sizes.back(); }
};

/// \brief Check a layout: at least one level, sizes positive, finite and strictly
/// increasing, and the top level at least \p max_cutoff_diameter.
/// \throws std::invalid_argument naming the offending level or size.
void validate(const Layout &layout, double max_cutoff_diameter);

/// \brief Level of insertion (eq. 3): the lowest level h with c <= s_h, with the
/// sizes read as \p size_of(h) for h < \p nlevels (the layout's, or a device copy's).
/// \return 0-based level, or -1 when \p cutoff_diameter exceeds the top level.
template <class SizeOf>
[[nodiscard]] HGRID_INLINE int first_level_holding(int nlevels, const SizeOf &size_of,
                                                   double cutoff_diameter)
{
  const double c = cutoff_diameter * (1.0 - kSizeTolerance);
  for (int h = 0; h < nlevels; ++h)
    if (!(size_of(h) < c)) return h;
  return -1;
}

/// The same for \p layout (inline: the binning calls it for every particle).
[[nodiscard]] inline int level_of(const Layout &layout, double cutoff_diameter)
{
  const double *size = layout.cell_sizes.data();
  return first_level_holding(
      layout.num_levels(),
      [size](int h) {
        return size[h];
      },
      cutoff_diameter);
}

/// \brief Sub-cells per cell edge of every level of \p layout: 1 for a hierarchy (the
/// cost model's cell sizes are used as they are); for a single level its own
/// Layout::subdivisions, else kSingleLevelSubdivisions.
[[nodiscard]] inline int subdivisions_of(const Layout &layout)
{
  if (layout.num_levels() != 1) return 1;
  return layout.subdivisions > 0 ? layout.subdivisions : kSingleLevelSubdivisions;
}

/// Same levels, search direction and (one level) sub-cells.
inline bool operator==(const Layout &a, const Layout &b)
{
  return a.cell_sizes == b.cell_sizes && a.search == b.search &&
      subdivisions_of(a) == subdivisions_of(b);
}
inline bool operator!=(const Layout &a, const Layout &b)
{
  return !(a == b);
}

/// Largest ratio of consecutive ghost size classes: a particle of cutoff diameter c is
/// sent as a ghost out to (b + s_L)/2 with its class bound b < kGhostClassRatio * c,
/// at most 12.5 % of c beyond (c + s_L)/2, the farthest a particle of the top level
/// can reach it (while the class count is below kMaxGhostClasses).
constexpr double kGhostClassRatio = 1.25;
/// Upper limit on the number of ghost size classes: for a size range above
/// kGhostClassRatio^31 (~1000) all classes widen equally.
constexpr int kMaxGhostClasses = 32;

/// \brief Upper cutoff-diameter bounds of the size classes in which particles are
/// communicated as ghosts: b_k = cmin q^k, equal steps in log size with the fewest
/// steps q <= kGhostClassRatio (at most kMaxGhostClasses classes), the last bound the
/// top level.  A particle of class k is needed as a ghost at most
/// (b_k + s_L)/2 away.  Independent of the levels: the search needs ghosts only
/// within r_i + r_j + skin of owned particles, wherever they are binned.
[[nodiscard]] std::vector<double> ghost_classes(const Layout &layout, double cmin);

/// \brief The largest cutoff diameter of the particles that may search a particle of
/// ghost class bound \p bk: the top level, or, if only smaller or same-level particles
/// search it (\p upward_only: a one-way Bottom-Up search, half lists with newton on),
/// the size of the highest level a particle of the class can be on.  Class k is then
/// needed as a ghost by class j out to (bk + min(bj, searcher))/2 (the reduce/multi of
/// LAMMPS' multi lists, for upward_only).
[[nodiscard]] double ghost_searcher_size(const Layout &layout, double bk, bool upward_only);

/// Lower-case name of a search direction, as used in input scripts.
[[nodiscard]] const char *search_name(Search search);
/// \brief The search direction named \p name ("topdown" or "bottomup").
/// \throws std::invalid_argument for any other name.
[[nodiscard]] Search search_from_name(const std::string &name);

/// \brief One line per level: index, cell size and the range of cutoff diameters it holds.
[[nodiscard]] std::string describe(const Layout &layout);

}    // namespace hgrid

#endif
