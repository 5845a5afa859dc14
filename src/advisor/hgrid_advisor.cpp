// hgrid_advisor: the cost model of Krijgsman, Ogarko & Luding (2014) from the
// command line.  For a truncated power law (alpha, omega) or a file of radii it
// prints the optimal hierarchical-grid layout, its predicted work per particle,
// that of a single level (linked cells) and the speed-up, and can write the
// work versus the number of levels for the four cell-size methods (CSV, PNG).

#include "libhgrid/cost_model.h"
#include "libhgrid/optimizer.h"
#include "libhgrid/radius_distribution.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace hgrid;

namespace {

const char usage[] =
    "usage: hgrid_advisor [options]\n"
    "  --alpha A       power-law exponent of f(r) ~ r^A            (default -3)\n"
    "  --omega W       size ratio r_max/r_min                      (default 100)\n"
    "  --rmin R        smallest radius                             (default 1)\n"
    "  --radii FILE    radii (one per line) instead of a power law\n"
    "  --nu NU         volume (area) fraction                      (default 0.3)\n"
    "  --dim D         dimension, 2 or 3                           (default 3)\n"
    "  --skin S        neighbor skin                               (default 0)\n"
    "  --K K           cell access / distance check cost ratio     (default: measured,\n"
    "                  1 in 3d, 2.29 in 2d; paper 0.2)\n"
    "  --Ks KS         stored cell / distance check cost ratio     (default: measured,\n"
    "                  0.1 in 3d, 0.15 in 2d; 0: paper)\n"
    "  --sub K         most sub-cells per edge a one-level grid may take (default 2; 1: paper)\n"
    "  --search S      topdown, bottomup or auto                   (default auto)\n"
    "  --maxlevels L   largest number of levels in the table/plot  (default 30)\n"
    "  --csv FILE      write T/N versus L for the four methods\n"
    "  --png FILE      plot it (needs python3 with matplotlib)\n";

struct Options {
  // K, Ks < 0: the measured ones of the dimension (SystemParams::of_dimension)
  double alpha = -3.0, omega = 100.0, rmin = 1.0, nu = 0.3, skin = 0.0, K = -1.0, Ks = -1.0;
  int dim = 3, maxlevels = 30, sub = kSingleLevelSubdivisions;
  std::string radii, search = "auto", csv, png;
};

Options parse(int argc, char **argv)
{
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string key = argv[i];
    if (key == "-h" || key == "--help") {
      std::fputs(usage, stdout);
      std::exit(0);
    }
    if (i + 1 >= argc) throw std::invalid_argument("missing value for " + key);
    const std::string value = argv[++i];
    if (key == "--alpha")
      o.alpha = std::stod(value);
    else if (key == "--omega")
      o.omega = std::stod(value);
    else if (key == "--rmin")
      o.rmin = std::stod(value);
    else if (key == "--radii")
      o.radii = value;
    else if (key == "--nu")
      o.nu = std::stod(value);
    else if (key == "--dim")
      o.dim = std::stoi(value);
    else if (key == "--skin")
      o.skin = std::stod(value);
    else if (key == "--K")
      o.K = std::stod(value);
    else if (key == "--Ks")
      o.Ks = std::stod(value);
    else if (key == "--sub")
      o.sub = std::stoi(value);
    else if (key == "--search")
      o.search = value;
    else if (key == "--maxlevels")
      o.maxlevels = std::stoi(value);
    else if (key == "--csv")
      o.csv = value;
    else if (key == "--png")
      o.png = value;
    else
      throw std::invalid_argument("unknown option " + key);
  }
  if (o.search != "auto") (void) search_from_name(o.search);    // throws for a bad name
  if (o.maxlevels < 1 || o.maxlevels > kMaxLevels)
    throw std::invalid_argument("--maxlevels must be 1.." + std::to_string(kMaxLevels));
  return o;
}

std::unique_ptr<RadiusDistribution> distribution(const Options &o)
{
  if (o.radii.empty()) return std::make_unique<PowerLaw>(o.alpha, o.rmin, o.rmin * o.omega);
  std::ifstream in(o.radii);
  if (!in) throw std::invalid_argument("cannot read " + o.radii);
  std::vector<double> radii;
  for (double r; in >> r;) radii.push_back(r);
  return std::make_unique<Histogram>(Histogram::from_radii(radii));
}

void write_table(const Options &o, const RadiusDistribution &f, const SystemParams &p, Search s)
{
  std::FILE *out = std::fopen(o.csv.c_str(), "w");
  if (!out) throw std::invalid_argument("cannot write " + o.csv);
  std::fprintf(out, "levels,linear,exponential,constant,optimal\n");
  for (int L = 1; L <= o.maxlevels; ++L) {
    std::fprintf(out, "%d", L);
    for (Method m : {Method::Linear, Method::Exponential, Method::ConstantRatio, Method::Optimal})
      std::fprintf(out, ",%.6g", evaluate(make_layout(m, L, s, f, p), f, p).total);
    std::fprintf(out, "\n");
  }
  std::fclose(out);
}

}    // namespace

int main(int argc, char **argv)
{
  try {
    const Options o = parse(argc, argv);
    const auto f = distribution(o);
    SystemParams p = SystemParams::of_dimension(o.dim);
    p.packing = o.nu;
    p.skin = o.skin;
    if (o.K >= 0.0) p.K = o.K;
    if (o.Ks >= 0.0) p.storage = o.Ks;
    p.single_level_subdivisions = o.sub;

    const bool both = o.search == "auto";
    const Search fixed = both ? Search::TopDown : search_from_name(o.search);
    const Choice best = best_layout(Method::Optimal, *f, p, fixed, both);
    // linked cells: one level of cells of the largest cutoff diameter, the 3^d stencil
    const Cost single = evaluate(Layout{{best.layout.top()}, best.layout.search, 1}, *f, p);

    std::printf("radii %g..%g, d = %d, nu = %g, skin = %g, K = %g, K_s = %g\n", f->r_min(),
                f->r_max(), o.dim, o.nu, o.skin, p.K, p.storage);
    std::printf("optimal layout: %d level(s), search %s\n", best.layout.num_levels(),
                search_name(best.layout.search));
    std::printf("%s", describe(best.layout).c_str());
    std::printf("predicted work per particle  T/N = %.4g  (distance checks %.4g + K * cell visits "
                "%.4g + K_s * cells %.4g)\n",
                best.cost.total, best.cost.distance_checks, best.cost.cell_visits, best.cost.cells);
    std::printf("single level (linked cell)   T/N = %.4g\n", single.total);
    std::printf("speed-up over a single level     = %.4g\n", single.total / best.cost.total);
    std::printf("neighbor command: neighbor %g hgrid levels %d", o.skin, best.layout.num_levels());
    for (double s : best.layout.cell_sizes) std::printf(" %.6g", s);
    if (best.layout.num_levels() == 1) std::printf(" subcells %d", subdivisions_of(best.layout));
    std::printf(" search %s\n", search_name(best.layout.search));

    if (!o.csv.empty() || !o.png.empty()) {
      Options table = o;
      if (table.csv.empty()) table.csv = o.png + ".csv";
      write_table(table, *f, p, best.layout.search);
      std::printf("wrote %s\n", table.csv.c_str());
      if (!o.png.empty()) {
        const std::string title = "d=" + std::to_string(o.dim) +
            " nu=" + std::to_string(o.nu).substr(0, 4) +
            (o.radii.empty() ? " alpha=" + std::to_string(o.alpha).substr(0, 5) +
                     " omega=" + std::to_string(o.omega).substr(0, 6)
                             : " radii from " + o.radii) +
            " " + search_name(best.layout.search);
        const std::string cmd = std::string(HGRID_PYTHON) + " '" + HGRID_PLOT_SCRIPT + "' '" +
            table.csv + "' '" + o.png + "' '" + title + "'";
        if (std::system(cmd.c_str()) != 0) {
          std::fprintf(stderr, "plotting failed: %s\n", cmd.c_str());
          return 1;
        }
        std::printf("wrote %s\n", o.png.c_str());
      }
    }
  } catch (std::exception &e) {
    std::fprintf(stderr, "hgrid_advisor: %s\n%s", e.what(), usage);
    return 2;
  }
  return 0;
}
