/* hgrid: the analytical cost of a hierarchical-grid contact search
   (Krijgsman, Ogarko & Luding 2014, Sect. 3 and appendix 8).

   For N particles at random positions, volume fraction nu, radius density f(r):
     V_p   = V_d int r^d f dr                                    (6)
     N_h   = N F_h,  F_h = int_{level h} f dr                      (9)
     m_h   = nu s_h^d / V_p F_h         particles per cell         (11)
     b(j,h)= int_{level h} (2 r / s_j + 2)^d f dr / F_h            (16, exact form)
     T^cd_h= N_h [ (1/2 + n_c) m_h / k^d + sum_j m_j b(j,h) ]      (23) / (25)
     T^ca_h= N_h [ 1 + n_c + sum_j b(j,h) ]                        (24) / (26)
     T     = sum_h T^cd_h + K T^ca_h                               (27)
   with j < h for Top-Down and j > h for Bottom-Up, n_c = (3^d - 1)/2.
   hgrid extension: a one-level grid may split its cells into k^d sub-cells
   (Layout::subdivisions, the optimizer's choice among k = 1..
   SystemParams::single_level_subdivisions); the same-level search then scans the half
   of the (2k+1)^d sub-cell block, n_c = (same_level_cells(d, k) - 1)/2, each sub-cell
   holding m_h / k^d particles, and a sub-cell visit costs
   SystemParams::subcell_visit_cost K (its stencil rows are read as contiguous
   ranges).  For k = 1 this is the paper's n_c; a cell visit of one level of cells
   costs SystemParams::one_level_visit_cost K (1 in 3d, less in 2d:
   kMeasuredCosts2d).

   hgrid extension (not in the paper, whose grids are hashed): hgrid stores every
   level as a dense array of cells over the box, which each build clears and
   prefix-sums and which costs memory.  Level h has C_h = k^d V_p / (nu s_h^d) cells
   per particle (box volume N V_p / nu; k sub-cells per edge, subdivisions_of), so
     T_hgrid = T + K_s sum_h C_h N
   keeps the optimizer away from fine levels over large boxes holding few particles
   (K_s = 0 is the paper's model).

   hgrid extension: eqs. (23)/(25) count the distance checks of particles at uniformly
   random positions.  In a packed bed (no overlaps) the small particles fill the gaps
   between the large ones at a higher density than the box average, and a build makes
   1.8-2.1x the predicted checks (3d, alpha -3, omega 100, nu 0.6-0.8) while its cell
   visits stay within 3 % of eqs. (24)/(26).  SystemParams::check_scale multiplies the
   checks (T^cd_h) by a factor measured on a build (planner.h, calibrated_check_scale).

   Neighbor lists add a skin: a particle of radius r has cutoff radius r + skin/2,
   is inserted on the lowest level with 2 r + skin <= s_h, and searches other levels
   with the box half-width r + skin/2 + s_j/2.  The model therefore runs on cutoff
   radii rho = r + skin/2 (levels hold rho in (s_{h-1}/2, s_h/2]); the particle
   volume V_p uses the true radii.  With skin = 0 it is the paper's model. */

#ifndef HGRID_COST_MODEL_H
#define HGRID_COST_MODEL_H

#include "layout.h"
#include "radius_distribution.h"

#include <vector>

namespace hgrid {

/// Ratio K of the time of one cell access to one distance check (eq. 27);
/// the paper measured 0.2 for spheres (MercuryDPM's hashed linked lists).
constexpr double kCellAccessCostRatio = 0.2;

/// K measured for hgrid's own cells (the default of SystemParams): least-squares
/// fit t = t_0 + a checks + b visits over 90 layouts of random 3d systems (alpha 0,
/// -2, -3; omega 10, 30, 100; nu 0.3; N = 1e5; best of 2 runs each) gave K = b/a =
/// 1.07 (median error 9 %).  A visit costs as much as a check here: reading a
/// cell's slot range from a large cell array misses the cache like reading x[j].
constexpr double kHGridCellAccessCostRatio = 1.0;

/// Cost K_s of one cell of hgrid's dense cell arrays per build, in distance checks
/// (the T_hgrid term above). Measured on the development machine: a layout with
/// 1580 cells per particle took 0.6 us per particle more per build than layouts with
/// 3-4 cells and the same checks, with a distance check costing about 3.6 ns (the
/// fit of kHGridCellAccessCostRatio): K_s = 0.6 us / 1580 / 3.6 ns ~ 0.1.
constexpr double kCellStorageCostRatio = 0.1;

/// Cost of one sub-cell visit of a one-level grid split into k^d sub-cells (k > 1)
/// relative to one cell visit (K).  A sub-cell row of the same-level stencil is one
/// contiguous slot range, read with its first and last cell's bounds, so its cells
/// cost less than the cells of cross-level search boxes, each of which starts with
/// the box of its own level.  Measured: least-squares fits t = t_0 + a checks + b
/// visits (levels > 1) + c sub-cell visits (one level) over 15 random systems in
/// 3d and 2d (alpha -3 to 0, omega 2 to 100, N = 1e5, each under the model's layout
/// and under one level) gave c/b = 0.35-0.39.  Since the model also offers one level
/// of cells of the level size (k = 1), its choice between k = 1 and 2 decides: in
/// LAMMPS (in.bench, monodisperse, N = 1e5, skin 0.05) k = 1 is faster at nu = 0.3
/// (0.122 vs 0.142 s per 20 builds) and k = 2 at nu = 0.6 (0.149 vs 0.200 s), which
/// the model reproduces for c/b in (0.29, 0.32) only (crossover near nu = 0.44).
constexpr double kSubCellVisitCostRatio = 0.3;

/// The model's cost ratios for hgrid's cells in one dimension, in distance checks
/// (SystemParams::of_dimension).
struct MeasuredCosts {
  double K;            ///< a cell visit of a hierarchy of levels (eq. 27)
  double one_level;    ///< a cell visit of one level of cells (k = 1), relative to K
  double subcell;      ///< a sub-cell visit of one level of sub-cells, relative to K
  double storage;      ///< K_s, one stored cell per build
};

/// 3d: the fits above (K, K_s) and the sub-cell crossover; one level's cells cost as
/// the hierarchy's.
constexpr MeasuredCosts kMeasuredCosts3d{kHGridCellAccessCostRatio, 1.0, kSubCellVisitCostRatio,
                                         kCellStorageCostRatio};

/// 2d, refitted: least-squares fit t = t_0 + a checks + b_1 visits (one level of
/// cells) + b_2 visits (sub-cells) + b visits (hierarchies) + c cells stored, over 66
/// layouts of random 2d systems in LAMMPS (in.bench: alpha 0 and -3; omega 3, 10,
/// 30; nu 0.1, 0.3, 0.6; N = 1e4; one level with k = 1 and 2, two and three levels;
/// the fastest of three runs each; median error 3.6 %): K = b/a = 2.29, b_1/b = 0.80,
/// b_2/b = 0.29, K_s = c/a = 0.15: a visit costs more checks than in 3d.  The 3d values in 2d
/// chose sub-cells for sparse gases (2d, alpha 0, omega 3, nu 0.1: 20 % slower than
/// k = 1 and than LAMMPS' bin) and two levels where one level of sub-cells is 30 %
/// faster (alpha -3, omega 3, nu 0.6); with these the model's layout was within the
/// noise of the fastest of the four in all 18 systems.
constexpr MeasuredCosts kMeasuredCosts2d{2.29, 0.80, 0.29, 0.15};

/// The system the model describes, besides its radius distribution.
struct SystemParams {
  int dimension = 3;                         ///< d = 2 or 3
  double packing = 0.5;                      ///< volume (area) fraction nu of the particles
  double skin = 0.0;                         ///< neighbor skin, added to every cutoff diameter
  double K = kHGridCellAccessCostRatio;      ///< cell access cost per distance check
  double storage = kCellStorageCostRatio;    ///< K_s, cost of one stored cell per build
  /// k of a one-level grid split into k^d sub-cells, for a layout that does not set
  /// its own (Layout::subdivisions 0); the optimizer tries 1..k for one level and
  /// keeps the cheapest (the paper's model: 1)
  int single_level_subdivisions = kSingleLevelSubdivisions;
  /// cost of a sub-cell visit relative to K (kSubCellVisitCostRatio in 3d; the paper:
  /// no sub-cells)
  double subcell_visit_cost = kSubCellVisitCostRatio;
  /// cost of a cell visit of one level of cells (k = 1) relative to K (the paper: 1)
  double one_level_visit_cost = 1.0;
  /// distance checks of the system per check of eqs. (23)/(25): 1 for particles at
  /// uniformly random positions (the paper's assumption), more where small particles
  /// crowd into the gaps of a packed bed (measured, calibrated_check_scale())
  double check_scale = 1.0;

  /// The defaults of dimension \p d: the measured costs kMeasuredCosts2d / 3d (a
  /// default-constructed SystemParams holds those of 3d).
  [[nodiscard]] static SystemParams of_dimension(int d);
};

/// Predicted work per level, per particle of the whole system.
struct LevelCost {
  double fraction = 0.0;           ///< F_h = N_h / N
  double per_cell = 0.0;           ///< m_h
  double distance_checks = 0.0;    ///< T^cd_h / N
  double cell_visits = 0.0;        ///< T^ca_h / N
  double cells = 0.0;              ///< C_h, cells of the level per particle
};

/// Predicted work per particle: T/N = checks + K visits + K_s cells (a one-level grid
/// of sub-cells: K subcell_visit_cost per visit).
struct Cost {
  double total = 0.0;              ///< T_hgrid / N (eq. 27 with the storage term)
  double distance_checks = 0.0;    ///< sum_h T^cd_h / N
  double cell_visits = 0.0;        ///< sum_h T^ca_h / N
  double cells = 0.0;              ///< sum_h C_h
  std::vector<LevelCost> levels;
};

/// \brief Cells of the full same-level stencil a particle scans when each cell is split
/// into \p subdivisions^d sub-cells: 3^d for 1, the (2k+1)^d block pruned by distance
/// (hgrid::stencil_rows) otherwise.
[[nodiscard]] int same_level_cells(int dimension, int subdivisions);

/// Largest number of sub-cells per cell edge the model accepts.
constexpr int kMaxSubdivisions = 4;

/// \brief k of \p layout as the model reads it: 1 for a hierarchy, else the layout's
/// own Layout::subdivisions or, if it sets none, params.single_level_subdivisions.
[[nodiscard]] int model_subdivisions(const Layout &layout, const SystemParams &params);

/// \brief Cost of one cell visit of \p layout relative to K: subcell_visit_cost for a
/// one-level grid of sub-cells, one_level_visit_cost for one level of cells, else 1
/// (eq. 27 as hgrid weighs T^ca).
[[nodiscard]] double visit_weight(const Layout &layout, const SystemParams &params);

/// \brief Evaluate eqs. (6)-(27) for \p layout on \p f.
/// \throws std::invalid_argument for a bad dimension, packing or layout.
[[nodiscard]] Cost evaluate(const Layout &layout, const RadiusDistribution &f,
                            const SystemParams &params);

/// \brief Mean number of level-j cells a level-h particle scans, b(j,h) (eq. 16,
/// exact integral), 0-based levels; 0 for an empty level h.
[[nodiscard]] double cross_level_cells(const Layout &layout, const RadiusDistribution &f,
                                       const SystemParams &params, int j, int h);

/// \brief Particles per cell m (eq. 11) of a level with cell size \p s_hi holding the
/// cutoff diameters in (\p s_lo, \p s_hi].
[[nodiscard]] double particles_per_cell(double s_lo, double s_hi, const RadiusDistribution &f,
                                        const SystemParams &params);

/// Smallest and largest cutoff diameter 2 r + skin of \p f.
[[nodiscard]] double cutoff_diameter_min(const RadiusDistribution &f, const SystemParams &p);
[[nodiscard]] double cutoff_diameter_max(const RadiusDistribution &f, const SystemParams &p);

}    // namespace hgrid

#endif
