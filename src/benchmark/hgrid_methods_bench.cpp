// hgrid_methods_bench: contact detection by several methods on the same particles.
// Generates a polydisperse system (libhgrid/methods/system.h), runs hgrid, linked
// cells, sorted distances (Leszczynski & Ciesielski), MR and MMR (Munjiza & Rougier)
// and, for N <= 2e4, all pairs; checks that all find the same contacts (a mismatch
// is an error, exit status 1) and reports time per particle, memory and each method's
// counters, as a table and as CSV; --sweep runs the standard table of systems.

#include "libhgrid/methods/contact_method.h"
#include "libhgrid/methods/system.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef HGRID_PYTHON
#define HGRID_PYTHON "/usr/bin/python3"
#endif
#ifndef HGRID_PLOT_SCRIPT
#define HGRID_PLOT_SCRIPT "src/benchmark/plot_methods.py"
#endif

using namespace hgrid::methods;

namespace {

const char usage[] =
    "usage: hgrid_methods_bench [options]\n"
    "  --dim D         dimension, 2 or 3                                (default 3)\n"
    "  --dist NAME     powerlaw, uniform, bidisperse or sieve           (default powerlaw)\n"
    "  --alpha A       power-law exponent of f(r) ~ r^A                 (default -3)\n"
    "  --omega W       size ratio r_max/r_min                           (default 10)\n"
    "  --nu NU         volume (area) fraction of the filled part        (default 0.3)\n"
    "  --n N           number of particles                              (default 10000)\n"
    "  --packing P     random or settled                                (default random)\n"
    "  --seed S        random seed                                      (default 1)\n"
    "  --skin S        contact distance r_i + r_j + S, in units of r_min (default 0)\n"
    "  --mmr-ratio A   MMR size ratio alpha of consecutive groups       (default 2)\n"
    "  --methods LIST  comma-separated: hgrid,linked_cell,sorted_distance,mr,mmr,all_pairs\n"
    "                  or all                                           (default all)\n"
    "  --reps R        repetitions, the best one is reported            (default 3)\n"
    "  --sweep         run the standard table of systems instead of one\n"
    "  --csv FILE      write one row per system and method\n"
    "  --png FILE      plot the CSV (time per particle vs omega, N, nu; needs matplotlib)\n"
    "all_pairs is skipped above N = 20000. Exit status: 0 all methods agree, 1 a method\n"
    "found other contacts than the reference (all_pairs, else hgrid), 2 bad options.\n";

/// Largest N all_pairs runs on.
constexpr int kAllPairsMaxN = 20000;

struct Options {
  SystemSpec spec;
  std::vector<std::string> methods = method_names();
  MethodSettings settings;
  int reps = 3;
  bool sweep = false;
  std::string csv, png;
};

std::vector<std::string> split(const std::string &list)
{
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

double number(const std::string &key, const std::string &value)
{
  std::size_t used = 0;
  double x = 0.0;
  try {
    x = std::stod(value, &used);
  } catch (std::exception &) {
    used = 0;
  }
  if (used != value.size())
    throw std::invalid_argument(key + " needs a number, not '" + value + "'");
  return x;
}

int integer(const std::string &key, const std::string &value)
{
  const double x = number(key, value);
  if (x != static_cast<int>(x)) throw std::invalid_argument(key + " needs an integer");
  return static_cast<int>(x);
}

Options parse(int argc, char **argv)
{
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string key = argv[i];
    if (key == "-h" || key == "--help") {
      std::fputs(usage, stdout);
      std::exit(0);
    }
    if (key == "--sweep") {
      o.sweep = true;
      continue;
    }
    if (i + 1 >= argc) throw std::invalid_argument("missing value for " + key);
    const std::string value = argv[++i];
    if (key == "--dim")
      o.spec.dimension = integer(key, value);
    else if (key == "--dist")
      o.spec.distribution = distribution_from_name(value);
    else if (key == "--alpha")
      o.spec.alpha = number(key, value);
    else if (key == "--omega")
      o.spec.omega = number(key, value);
    else if (key == "--nu")
      o.spec.nu = number(key, value);
    else if (key == "--n")
      o.spec.n = integer(key, value);
    else if (key == "--packing")
      o.spec.packing = packing_from_name(value);
    else if (key == "--seed")
      o.spec.seed = static_cast<unsigned>(integer(key, value));
    else if (key == "--skin")
      o.settings.skin = number(key, value);
    else if (key == "--mmr-ratio")
      o.settings.mmr_ratio = number(key, value);
    else if (key == "--methods")
      o.methods = value == "all" ? method_names() : split(value);
    else if (key == "--reps")
      o.reps = integer(key, value);
    else if (key == "--csv")
      o.csv = value;
    else if (key == "--png")
      o.png = value;
    else
      throw std::invalid_argument("unknown option " + key);
  }
  validate(o.spec);
  if (o.reps < 1) throw std::invalid_argument("--reps must be at least 1");
  if (o.methods.empty()) throw std::invalid_argument("--methods names no method");
  for (const std::string &m : o.methods) (void) make_method(m, o.settings);    // throws
  if (o.png.size() && o.csv.empty()) o.csv = o.png + ".csv";
  return o;
}

/// One system of a run and the methods to skip on it, with the reason.
struct Case {
  SystemSpec spec;
  std::vector<std::pair<std::string, std::string>> skip;
};

/// The result of one method on one system.
struct Row {
  std::string method, status = "ok", details;
  double prepare = 0.0, build = 0.0, search = 0.0;
  std::size_t memory = 0;
  std::vector<Counter> counters;
  std::vector<Contact> contacts;
};

double now()
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Run \p name \p reps times on \p s; keep the repetition with the least build + search.
Row measure(const std::string &name, const System &s, const MethodSettings &settings, int reps)
{
  Row row;
  row.method = name;
  auto method = make_method(name, settings);
  double t0 = now();
  method->prepare(s);
  row.prepare = now() - t0;
  double best = 1e300;
  for (int rep = 0; rep < reps; ++rep) {
    row.contacts.clear();
    t0 = now();
    method->build(s);
    const double t1 = now();
    method->search(s, row.contacts);
    const double t2 = now();
    if (t2 - t0 < best) {
      best = t2 - t0;
      row.build = t1 - t0;
      row.search = t2 - t1;
      row.counters = method->counters();
    }
  }
  row.memory = method->memory_bytes();
  row.details = method->details();
  return row;
}

double counter(const Row &row, const std::string &name)
{
  for (const Counter &c : row.counters)
    if (c.name == name) return c.value;
  return 0.0;
}

/// Compare every method's contacts with the reference; print the check line.
bool check(std::vector<Row> &rows)
{
  const Row *reference = nullptr;
  for (const char *name : {"all_pairs", "hgrid", "linked_cell"})
    for (const Row &r : rows)
      if (!reference && r.status == "ok" && r.method == name) reference = &r;
  for (Row &r : rows)
    if (r.status == "ok" && !normalize(r.contacts)) {
      std::printf("check: FAIL %s reports a pair twice or as (i, j) with i >= j\n",
                  r.method.c_str());
      return false;
    }
  if (!reference) reference = &rows.front();
  bool ok = true;
  int compared = 0;
  for (const Row &r : rows) {
    if (r.status != "ok") continue;
    ++compared;
    const Difference d = compare(r.contacts, reference->contacts);
    if (d.empty()) continue;
    ok = false;
    std::printf("check: FAIL %s differs from %s: %zu missing, %zu extra", r.method.c_str(),
                reference->method.c_str(), d.missing.size(), d.extra.size());
    const Contact &c = d.missing.empty() ? d.extra.front() : d.missing.front();
    std::printf(" (first: %d %d)\n", c.first, c.second);
  }
  if (ok)
    std::printf("check: PASS %d methods agree on %zu contacts (reference %s)\n", compared,
                reference->contacts.size(), reference->method.c_str());
  return ok;
}

std::string counters_text(const Row &r)
{
  std::string text;
  char buffer[96];
  for (const Counter &c : r.counters) {
    std::snprintf(buffer, sizeof(buffer), "%s%s=%.6g", text.empty() ? "" : ";", c.name.c_str(),
                  c.value);
    text += buffer;
  }
  return text;
}

const char csv_header[] =
    "dim,distribution,alpha,omega,nu,packing,n,method,status,us_per_particle,build_s,search_s,"
    "prepare_s,memory_bytes,contacts,distance_checks,checks_per_particle,details,counters\n";

void write_rows(std::FILE *csv, const SystemSpec &spec, const std::vector<Row> &rows)
{
  for (const Row &r : rows) {
    const bool ok = r.status == "ok";
    const double checks = counter(r, "distance_checks");
    std::fprintf(csv, "%d,%s,%g,%g,%g,%s,%d,%s,%s,", spec.dimension,
                 distribution_name(spec.distribution), spec.alpha, spec.omega, spec.nu,
                 packing_name(spec.packing), spec.n, r.method.c_str(), r.status.c_str());
    if (ok)
      std::fprintf(csv, "%.6g,%.6g,%.6g,%.6g,%zu,%zu,%.6g,%.6g,\"%s\",\"%s\"\n",
                   1e6 * (r.build + r.search) / spec.n, r.build, r.search, r.prepare, r.memory,
                   r.contacts.size(), checks, checks / spec.n, r.details.c_str(),
                   counters_text(r).c_str());
    else
      std::fprintf(csv, ",,,,,,,,,\n");
  }
  std::fflush(csv);
}

void print_rows(const SystemSpec &spec, const System &s, const std::vector<Row> &rows)
{
  std::printf("\n%dd %s alpha=%g omega=%g nu=%g %s N=%d (box nu %.3g, r %.3g..%.3g)\n",
              spec.dimension, distribution_name(spec.distribution), spec.alpha, spec.omega, spec.nu,
              packing_name(spec.packing), spec.n, s.box_packing(), s.r_min(), s.r_max());
  std::printf("  %-16s %10s %9s %9s %9s %10s %10s  %s\n", "method", "us/particle", "build_s",
              "search_s", "MB", "contacts", "checks/N", "details");
  for (const Row &r : rows) {
    if (r.status != "ok") {
      std::printf("  %-16s %s\n", r.method.c_str(), r.status.c_str());
      continue;
    }
    std::printf("  %-16s %10.4g %9.3g %9.3g %9.3g %10zu %10.4g  %s\n", r.method.c_str(),
                1e6 * (r.build + r.search) / spec.n, r.build, r.search, r.memory / 1048576.0,
                r.contacts.size(), counter(r, "distance_checks") / spec.n, r.details.c_str());
  }
}

/// Run the methods of \p o on the system of \p c; false on a mismatch.
bool run_case(const Case &c, const Options &o, std::FILE *csv)
{
  const System s = generate(c.spec);
  std::vector<Row> rows;
  for (const std::string &m : o.methods) {
    Row row;
    row.method = m;
    for (const auto &[name, reason] : c.skip)
      if (name == m) row.status = "skipped: " + reason;
    if (m == "all_pairs" && c.spec.n > kAllPairsMaxN) row.status = "skipped: N > 2e4";
    if (row.status == "ok") row = measure(m, s, o.settings, o.reps);
    rows.push_back(std::move(row));
  }
  print_rows(c.spec, s, rows);
  const bool ok = check(rows);
  if (csv) write_rows(csv, c.spec, rows);
  return ok;
}

/// \brief The standard table (examples/benchmarks/methods): time per particle vs omega,
/// vs N, vs nu, other distributions, 2d and settled beds.  Methods whose work grows
/// beyond a few seconds per repetition are skipped, with the reason in the CSV.
std::vector<Case> sweep_cases(unsigned seed)
{
  const auto P = SizeDistribution::PowerLaw;
  std::vector<Case> cases;
  // vs omega: 3d, alpha = -3, nu = 0.3, N = 2e4 (all pairs as reference)
  for (double omega : {1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0})
    cases.push_back({system_spec(3, P, -3.0, omega, 0.3, 20000), {}});
  // vs omega at N = 2e5 (less of the box near its boundary); linked_cell and mr check
  // about 4e4 pairs per particle at omega = 100 (one cell holds ~3000 particles)
  for (double omega : {1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0}) {
    Case c{system_spec(3, P, -3.0, omega, 0.3, 200000), {}};
    if (omega >= 100.0)
      for (const char *m : {"linked_cell", "mr"})
        c.skip.push_back({m, "~1e10 distance checks (cells of the largest diameter)"});
    cases.push_back(c);
  }
  // vs N: MR's linearity claim, similar sizes (omega 2) and omega 10
  for (int n : {10000, 100000, 1000000}) {
    Case c{system_spec(3, P, -3.0, 2.0, 0.3, n), {}};
    if (n > 100000) c.skip.push_back({"sorted_distance", "O(N^5/3) in 3d, minutes at N = 1e6"});
    cases.push_back(c);
  }
  for (int n : {10000, 100000, 1000000}) {
    Case c{system_spec(3, P, -3.0, 10.0, 0.3, n), {}};
    if (n > 100000) c.skip.push_back({"sorted_distance", "O(N^5/3) in 3d, minutes at N = 1e6"});
    cases.push_back(c);
  }
  // vs nu: MR's independence of packing density
  for (double nu : {0.1, 0.2, 0.4, 0.5, 0.6})
    cases.push_back({system_spec(3, P, -3.0, 2.0, nu, 100000), {}});
  // other distributions, 3d and 2d, random and settled, N = 2e4
  for (int dim : {3, 2}) {
    cases.push_back({system_spec(dim, P, -2.0, 10.0, 0.3, 20000), {}});
    cases.push_back({system_spec(dim, P, 0.0, 10.0, 0.3, 20000), {}});
    cases.push_back({system_spec(dim, SizeDistribution::Bidisperse, 0.0, 10.0, 0.3, 20000), {}});
    cases.push_back({system_spec(dim, SizeDistribution::Sieve, 0.0, 32.0, 0.5, 20000), {}});
    cases.push_back({system_spec(dim, P, -3.0, 10.0, 0.1, 20000), {}});
    cases.push_back({system_spec(dim, P, -3.0, 10.0, 0.6, 20000), {}});
    cases.push_back({system_spec(dim, P, -3.0, 10.0, 0.3, 20000, Packing::Settled), {}});
    cases.push_back({system_spec(dim, P, -3.0, 100.0, 0.3, 20000, Packing::Settled), {}});
  }
  for (Case &c : cases) c.spec.seed = seed;
  return cases;
}

}    // namespace

int main(int argc, char **argv)
{
  Options o;
  try {
    o = parse(argc, argv);
  } catch (std::exception &e) {
    std::fprintf(stderr, "hgrid_methods_bench: %s\n%s", e.what(), usage);
    return 2;
  }
  std::FILE *csv = nullptr;
  if (!o.csv.empty()) {
    csv = std::fopen(o.csv.c_str(), "w");
    if (!csv) {
      std::fprintf(stderr, "hgrid_methods_bench: cannot write %s\n", o.csv.c_str());
      return 2;
    }
    std::fputs(csv_header, csv);
  }
  std::printf("skin %g, MMR ratio %g, best of %d repetition(s); all methods on one core\n",
              o.settings.skin, o.settings.mmr_ratio, o.reps);
  const std::vector<Case> cases = o.sweep ? sweep_cases(o.spec.seed)
                                          : std::vector<Case>{{o.spec, {}}};
  bool ok = true;
  try {
    for (const Case &c : cases) ok = run_case(c, o, csv) && ok;
  } catch (std::exception &e) {
    std::fprintf(stderr, "hgrid_methods_bench: %s\n", e.what());
    return 2;
  }
  if (csv) {
    std::fclose(csv);
    std::printf("wrote %s\n", o.csv.c_str());
  }
  if (!o.png.empty()) {
    const std::string cmd =
        std::string(HGRID_PYTHON) + " '" + HGRID_PLOT_SCRIPT + "' '" + o.csv + "' '" + o.png + "'";
    if (std::system(cmd.c_str()) != 0) {
      std::fprintf(stderr, "hgrid_methods_bench: plotting failed: %s\n", cmd.c_str());
      return 2;
    }
    std::printf("wrote %s\n", o.png.c_str());
  }
  std::printf(ok ? "hgrid_methods_bench: all checks passed\n"
                 : "hgrid_methods_bench: CONTACT MISMATCH (see the check lines above)\n");
  return ok ? 0 : 1;
}
