/* hgrid methods: the particle systems of the contact-detection benchmark.

   A system is N spheres (disks in 2d) given by centre and radius, deterministic by
   seed.  The generator follows Krijgsman, Ogarko & Luding 2014, Sect. 3 (the cost
   model's assumptions): random radii from a density f(r) on [r_min, omega r_min] and
   random centres "without excluded volume effects", i.e. particles may overlap.  This
   is also what makes nu = 0.6 reachable at all; Leszczynski & Ciesielski (Sect. 3)
   place their particles at random positions in the same way.  Munjiza & Rougier's
   MMR test (Sect. 7) relaxes overlaps away, which a contact-detection benchmark does
   not need; its size distribution is available as SizeDistribution::Sieve.

   Boundary convention: a non-periodic box [lo, hi] holding every centre (particles may
   stick out of it); contacts are only between particles, there are no walls.

   Packings:
     Random   centres uniform in the cube (square) of edge L, L^d = sum V_d r^d / nu.
     Settled  the same particles in a box twice as tall (the last axis: z in 3d, y in 2d),
              the heights drawn from a density falling linearly from 2 nu at the floor
              to 0 at height L, so the lower half holds them at mean fraction nu and
              the upper half is empty (a "settled-like" bed, denser at the bottom).
   Volume fraction nu is that of the filled part, sum V_d r^d / L^d. */

#ifndef HGRID_METHODS_SYSTEM_H
#define HGRID_METHODS_SYSTEM_H

#include "../grid.h"

#include <array>
#include <string>
#include <vector>

namespace hgrid {
namespace methods {

  /// Radius densities of the benchmark systems.
  enum class SizeDistribution {
    PowerLaw,      ///< f(r) ~ r^alpha on [r_min, omega r_min] (Krijgsman et al., eqs. 29-30)
    Uniform,       ///< f(r) constant on [r_min, omega r_min] (the power law with alpha = 0)
    Bidisperse,    ///< radii r_min and omega r_min, equal total volume of both species
    Sieve          ///< MMR's "uniform" grading, eq. (36): the volume passing a sieve is
                   ///< uniform in log d, i.e. f(r) ~ r^-(d+1)
  };

  enum class Packing { Random, Settled };

  [[nodiscard]] const char *distribution_name(SizeDistribution dist);
  /// \throws std::invalid_argument for an unknown name.
  [[nodiscard]] SizeDistribution distribution_from_name(const std::string &name);
  [[nodiscard]] const char *packing_name(Packing packing);
  /// \throws std::invalid_argument for an unknown name.
  [[nodiscard]] Packing packing_from_name(const std::string &name);

  /// Everything that defines a generated system.
  struct SystemSpec {
    int dimension = 3;
    SizeDistribution distribution = SizeDistribution::PowerLaw;
    double alpha = -3.0;    ///< exponent of the power law (PowerLaw only)
    double omega = 10.0;    ///< size ratio r_max / r_min
    double nu = 0.3;        ///< volume (area) fraction of the filled part of the box
    double r_min = 1.0;
    int n = 10000;
    Packing packing = Packing::Random;
    unsigned seed = 1;
  };

  /// A spec with r_min = 1.
  [[nodiscard]] SystemSpec system_spec(int dimension, SizeDistribution distribution, double alpha,
                                       double omega, double nu, int n,
                                       Packing packing = Packing::Random, unsigned seed = 1);

  /// \brief Check a spec: dimension 2 or 3, omega >= 1, 0 < nu < 1, r_min > 0, n >= 2.
  /// \throws std::invalid_argument naming the offending field.
  void validate(const SystemSpec &spec);

  /// Particles and their box.
  struct System {
    int dimension = 3;
    Box box;                                 ///< holds every centre; 2d: z in [-0.5, 0.5]
    std::vector<std::array<double, 3>> x;    ///< centres (z = 0 in 2d)
    std::vector<double> r;                   ///< radii
    double fill_nu = 0.0;                    ///< volume fraction of the filled part

    [[nodiscard]] int size() const { return static_cast<int>(r.size()); }
    [[nodiscard]] double r_min() const;
    [[nodiscard]] double r_max() const;
    /// volume fraction of the particles in the whole box (the cost model's nu)
    [[nodiscard]] double box_packing() const;
  };

  /// \brief The system of \p spec, the same for the same spec on every machine
  /// (std::mt19937_64, radii and positions from its raw output).
  [[nodiscard]] System generate(const SystemSpec &spec);

  /// Contact criterion of every method: |x_i - x_j| <= r_i + r_j + skin.
  [[nodiscard]] inline bool in_contact(const System &s, int i, int j, double skin)
  {
    const double dx = s.x[i][0] - s.x[j][0], dy = s.x[i][1] - s.x[j][1];
    const double dz = s.x[i][2] - s.x[j][2];
    const double cut = s.r[i] + s.r[j] + skin;
    return dx * dx + dy * dy + dz * dz <= cut * cut;
  }

}    // namespace methods
}    // namespace hgrid

#endif
