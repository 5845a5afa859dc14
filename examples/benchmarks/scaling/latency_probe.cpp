// latency_probe KB [KB ...]: the latency of one dependent load, in ns, when a core reads
// a working set of KB kibibytes in random order (a pointer chase over one random cycle
// through its cache lines), one line "KB ns" per size.  The steps of that curve are the
// caches this core actually gets: a virtual machine may give a core far less of the last
// level than lscpu names.  A neighbor build at N atoms reads ~70 N bytes (positions,
// radii, cell starts, slots, list), and its candidates are loads at the end of a chain
// (cell start -> slot -> position): where the build's arrays outgrow a step, each of
// those loads costs the next step's latency.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

namespace {
constexpr std::size_t kLine = 64;
constexpr std::size_t kSlotsPerLine = kLine / sizeof(std::size_t);

// ns per load of a chase through kib KiB, one slot per cache line (the lines in one
// random cycle), timed over at least 0.1 s after one pass to warm the caches
double chase_ns(std::size_t kib)
{
  const std::size_t lines = std::max<std::size_t>(2, kib * 1024 / kLine);
  std::vector<std::size_t> order(lines);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin() + 1, order.end(), std::mt19937_64(12345));
  std::vector<std::size_t> next(lines * kSlotsPerLine);
  for (std::size_t k = 0; k < lines; k++)
    next[order[k] * kSlotsPerLine] = order[(k + 1) % lines] * kSlotsPerLine;

  std::size_t p = 0;
  for (std::size_t k = 0; k < lines; k++) p = next[p];    // warm-up pass
  using clock = std::chrono::steady_clock;
  std::size_t loads = 0;
  const auto start = clock::now();
  double seconds = 0.0;
  do {
    for (std::size_t k = 0; k < lines; k++) p = next[p];
    loads += lines;
    seconds = std::chrono::duration<double>(clock::now() - start).count();
  } while (seconds < 0.1);
  if (p == static_cast<std::size_t>(-1)) std::puts("");    // keep the chase
  return 1e9 * seconds / static_cast<double>(loads);
}
}    // namespace

int main(int argc, char **argv)
{
  if (argc < 2) {
    std::fprintf(stderr, "usage: latency_probe KB [KB ...]\n");
    return 2;
  }
  for (int a = 1; a < argc; a++) {
    char *end = nullptr;
    const unsigned long long kib = std::strtoull(argv[a], &end, 10);
    if (*end != '\0' || kib == 0) {
      std::fprintf(stderr, "latency_probe: not a size in KiB: %s\n", argv[a]);
      return 2;
    }
    std::printf("%llu %.2f\n", kib, chase_ns(kib));
    std::fflush(stdout);
  }
  return 0;
}
