/* Shared helpers of the LAMMPS-level hgrid tests: build randomized polydisperse
   granular systems in a real LAMMPS instance, read neighbor lists back, and
   compare them with a brute-force all-pairs oracle over all MPI ranks. */

#ifndef HGRID_TESTING_H
#define HGRID_TESTING_H

#include "lammps.h"

#include <mpi.h>

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace hgrid_testing {

/// A randomized granular system.
struct SystemSpec {
  int dimension = 3;
  bool periodic = true;
  bool shrinkwrap = false;    // non-periodic boundaries: s instead of f
  bool newton = true;
  std::string distribution = "powerlaw";    // mono, bi, powerlaw
  double omega = 10.0;                      // r_max / r_min
  double alpha = -3.0;                      // power-law exponent of the number density
  int natoms = 800;
  int seed = 1;
  double packing = 0.4;              // volume (area) fraction of the particles
  double skin = 0.1;                 // in units of r_min = 1
  double tilt = 0.0;                 // triclinic box: xy = tilt L, xz = -yz = tilt L / 2 (3d)
  std::string neighbor = "hgrid";    // everything after "neighbor SKIN"
  std::string comm_mode;             // "single"/"multi": comm_modify mode after neighbor
  std::string neigh_modify;          // extra neigh_modify keywords
  std::string pair = "gran/hooke/history 1000.0 NULL 50.0 NULL 0.5 0";
  std::string pair_coeff = "* *";
  int ntypes = 1;           // atom types 1 + tag % ntypes
  int molecule_size = 0;    // > 0: molecule IDs (fix property/atom), this many atoms each
  // > 0: atoms with bonds (atom_style hybrid sphere bond; molecule IDs its own), room for
  // this many bonds per atom (create_box extra/bond/per/atom; 1-2 to 1-4 partners 20x)
  int bonds_per_atom = 0;
  std::vector<std::string> before_pair;    // commands after the atoms exist, before pair_style
  std::vector<std::string> after_pair;     // commands after pair_coeff (more coefficients)
  std::vector<std::string> lammps_args;    // extra command-line arguments (e.g. -k on -sf kk)
  // called after the radii are written into the host arrays (KOKKOS: mark them modified)
  std::function<void(LAMMPS_NS::LAMMPS *)> after_host_change;
};

[[nodiscard]] std::string describe(const SystemSpec &spec);

/// Radius of atom \p tag: the same on every rank and for every rank count.
[[nodiscard]] double radius_of(const SystemSpec &spec, long tag);

/// A LAMMPS instance on \p comm (default MPI_COMM_WORLD) with no screen or log output.
[[nodiscard]] LAMMPS_NS::LAMMPS *make_lammps(MPI_Comm comm = MPI_COMM_WORLD,
                                             const std::vector<std::string> &extra_args = {});

/// Run the input lines of \p spec up to "run 0 post no".
void create_system(LAMMPS_NS::LAMMPS *lmp, const SystemSpec &spec);
/// A new LAMMPS instance with the system of \p spec created in it (after "run 0").
[[nodiscard]] std::unique_ptr<LAMMPS_NS::LAMMPS> make_system(const SystemSpec &spec,
                                                             MPI_Comm comm = MPI_COMM_WORLD);
/// A system of the accelerator tests (OPENMP, KOKKOS) and its test name.
struct NamedSystem {
  std::string name;
  SystemSpec spec;
};
/// \brief Monodisperse (800), bidisperse 1:20 (800), power law omega 100 (1500) and,
/// if \p with_pl10, omega 10 (1000); 2d/3d; periodic and fixed; each newton setting of
/// \p newtons; the 1:20 and omega-100 systems also in a box tilted by 0.3.  Names
/// NAME_2d_p_newton[_tri] (p: periodic, f: fixed; newton or newtoff).
[[nodiscard]] std::vector<NamedSystem> accelerator_systems(const std::vector<bool> &newtons,
                                                           bool with_pl10, int seed);

/// Largest |a_k - b_k| over the largest |a_k| (same sizes expected).
[[nodiscard]] double relative_difference(const std::vector<double> &a,
                                         const std::vector<double> &b);

/// \p spec with bonds between the spheres whose centres lie within 2.05 (all of them
/// within reach of the list, r_a + r_b + skin >= 2.1 for radii >= 1; chains of bonds make
/// 1-2, 1-3 and 1-4 partners) and `special_bonds FACTORS` (e.g. "lj 0.0 1.0 1.0 coul
/// 1.0 1.0 1.0", examples/bpm's).
[[nodiscard]] SystemSpec bonded_system(SystemSpec spec, const std::string &factors);

/// The default power-law system (alpha = -3) with N atoms, size ratio and packing.
[[nodiscard]] SystemSpec powerlaw_system(int natoms, double omega, double packing);

/// Run the input \p lines one by one.
void commands(LAMMPS_NS::LAMMPS *lmp, const std::vector<std::string> &lines);

/// \brief Create the system of \p spec, run \p lines and "run 0 post no" in a new
/// instance: the message of the LAMMPS error this raises, or "" if all of it ran.
[[nodiscard]] std::string error_of(const SystemSpec &spec,
                                   const std::vector<std::string> &lines = {});

/// A physical pair: atom tags a <= b, periodic image shift of b, and whether the pair
/// touches (rsq < radsum^2) plus twice its special-bond bits (1-2, 1-3, 1-4 partners
/// whose special_bonds factors make LAMMPS mark the entry: neighbor->special_flag 2).
using PairKey = std::array<long, 6>;    // a, b, sx, sy, sz, touching + 2 * special bits
using PairCounts = std::map<PairKey, int>;

/// Entries of neighbor list \p list_index on all ranks, as physical pairs with counts
/// (with the special bits the entries carry).  Also counts self pairs and wrong history
/// bits (rsq < radsum^2 <=> bit set).
struct ListPairs {
  PairCounts counts;
  long self_pairs = 0;
  long wrong_history_bits = 0;
  long entries = 0;
};
[[nodiscard]] ListPairs gather_list(LAMMPS_NS::LAMMPS *lmp, int list_index, bool with_history);
/// The same for any list given by its rows: \p neighbor(i, jj) is entry jj of row i.
[[nodiscard]] ListPairs gather_rows(LAMMPS_NS::LAMMPS *lmp, int inum, const int *ilist,
                                    const int *numneigh,
                                    const std::function<int(int, int)> &neighbor,
                                    bool with_history);

/// What the oracle knows of an atom besides its position and radius.
struct AtomInfo {
  int type = 0, mask = 0;
  long molecule = 0;
};
/// True if the atom \p a is in group \p group (exclusion and include rules).
[[nodiscard]] bool in_group(LAMMPS_NS::LAMMPS *lmp, const AtomInfo &a, const std::string &group);
/// The pairs that the input's `neigh_modify exclude` settings (type, group, molecule/intra
/// and molecule/inter, read from its Neighbor) keep, as the manual defines them; empty
/// (every pair kept) if it sets none.  For an OracleRule's keep.
[[nodiscard]] std::function<bool(const AtomInfo &, const AtomInfo &)>
kept_by_exclusions(LAMMPS_NS::LAMMPS *lmp);

/// Which pairs a list holds besides the distance: within r_a + r_b + skin + margin
/// (cohesive pairs: the largest pull-off distance), and kept by \p keep (exclusions,
/// include groups, pair hybrid sub-styles; all pairs if empty).  Special bonds always
/// apply, as LAMMPS defines them: a 1-2, 1-3 or 1-4 partner (the first of these in
/// the atom's special list) is left out where its special_bonds factors are both 0,
/// marked where they are not both 1, unless its image is beyond half the box
/// (Domain::minimum_image_check: then it is a plain pair).
struct OracleRule {
  double margin = 0.0;
  std::function<bool(const AtomInfo &, const AtomInfo &)> keep;
  bool may_be_empty = false;    // no pair at all is right (a box before its pour)
  // pairs this close to the cutoff (relative) may be listed or not: a lattice with
  // pairs exactly at r_a + r_b + skin, whose periodic images differ by round-off
  double tie_band = 0.0;
  bool any_builder = false;    // the list may come from a stock builder (bin after a skin change)
};

/// How many times each pair within r_a + r_b + skin must appear in a list (a negative
/// count -n: pair in the rule's tie band, n times or not at all).
enum class ListKind { HalfNewton, HalfNewtoff, Full };
[[nodiscard]] PairCounts oracle(LAMMPS_NS::LAMMPS *lmp, ListKind kind, const OracleRule &rule = {});

/// Human-readable differences (at most \p max_lines), empty if equal.
[[nodiscard]] std::string compare(const PairCounts &expected, const PairCounts &found,
                                  int max_lines = 10);

/// \brief Expect neighbor list \p index to be built by hgrid and to hold exactly the
/// pairs of the all-pairs oracle of \p kind: no misses, no duplicates, no self pairs,
/// history bits right if \p history. \p what names the list in failure messages.
void expect_list_matches(LAMMPS_NS::LAMMPS *lmp, int index, ListKind kind, bool history,
                         const std::string &what, const OracleRule &rule = {});

/// \brief Expect the half list of pair gran/hooke/history (newton on or off) to match
/// the oracle as the last run built it, alone (ghost cutoffs for its search only; fix
/// neigh/history has taken the history bits).  Only right after "run 0": later
/// steps move atoms, resize or deform after the last build.
void expect_pair_list_matches_oracle(LAMMPS_NS::LAMMPS *lmp, bool newton,
                                     const std::string &what = "", const OracleRule &rule = {});

/// \brief Request a full size list (which rebuilds the pair style's list too, with its
/// history bits still set) and expect it and the half list of pair gran/hooke/history
/// (newton on or off) to match the oracle.
void expect_lists_match_oracle(LAMMPS_NS::LAMMPS *lmp, bool newton, const std::string &what = "",
                               const OracleRule &rule = {});

/// Per-atom values (\p width per atom) of all ranks, ordered by tag.
[[nodiscard]] std::vector<double> gather_by_tag(LAMMPS_NS::LAMMPS *lmp, double **values,
                                                int width = 3);

/// The poured granular column of LAMMPS' examples/pour: newton off, p p fm, gravity,
/// a wall/gran floor and an insertion region "slab"; without neighbor and fix pour.
extern const std::vector<std::string> pour_column;

/// Unit spheres on a lattice (24^3, newton off) and two intruders of diameter 20, each
/// overlapping about 4800 of them, moving with contact history (gran/hooke/history,
/// nve/sphere, list rebuilt every step) under "neighbor 0.2 hgrid" and
/// "neigh_modify ... \p neigh_modify": rows longer than neigh_modify one's default;
/// without a run command.
[[nodiscard]] std::vector<std::string> intruders_input(const std::string &neigh_modify,
                                                       const std::string &newton = "off");

/// A grid of millions of cells for few particles (hgrid::CellLists sorts it bucket by
/// bucket): 3000 spheres (diameters 2 to ~6.3, f(r) ~ r^-3) in a cube of side 50 and an
/// intruder of diameter 30 at its centre, in a periodic cube of side \p side with
/// "newton \p newton", gran/hooke/history and "neighbor 0.1 hgrid levels 3 2.2 6.5 30.1"
/// (a fine first level: about (side / 2.2)^3 cells and the ghost window's); ends with
/// "run 0 post no".
[[nodiscard]] std::vector<std::string> large_grid_input(bool newton, int side);

/// Run the lmp executable \p lmp (with extra command-line \p args) on \p input, written
/// to NAME.in, logging to NAME.log; returns the log. For what must be a process of its
/// own (a continuation from a restart file, the log of a whole run); one MPI rank only.
[[nodiscard]] std::string run_lmp(const std::string &lmp, const std::string &name,
                                  const std::string &input, const std::string &args = "");

/// The values of a dump file's last ATOMS section, row by row.
[[nodiscard]] std::vector<double> read_dump(const std::string &file);

/// \brief A run of the column with "neighbor 0.2 \p neighbor", one small particle present
/// from the start, the \p extra commands, and fix pour of 5:1 polydisperse particles.
[[nodiscard]] std::unique_ptr<LAMMPS_NS::LAMMPS>
run_pour(const std::string &neighbor, const std::vector<std::string> &extra, int steps = 6000);

/// What a fix external callback (check_at_rebuild) checks: list \p list of kind \p kind
/// against the oracle right after every rebuild of a run, steps that are multiples of
/// \p skip_every left out (> 0: a fix changes the radii after those steps' builds).
struct RebuildCheck {
  LAMMPS_NS::LAMMPS *lmp;
  int list;
  ListKind kind = ListKind::HalfNewton;
  int skip_every = 0;
  int checks = 0;    // lists checked so far
};
/// fix external pf/callback for a RebuildCheck (\p ptr): zero external forces, and the
/// list checked if it was built this step (until the test's first failure)
void check_at_rebuild(void *ptr, int64_t step, int nlocal, int *ids, double **x, double **f);

/// True if list \p list_index is built by an hgrid NPair class.
[[nodiscard]] bool built_by_hgrid(LAMMPS_NS::LAMMPS *lmp, int list_index);
/// True if the pair style's list is built by an hgrid NPair class.
[[nodiscard]] bool pair_list_by_hgrid(LAMMPS_NS::LAMMPS *lmp);

}    // namespace hgrid_testing

#endif
