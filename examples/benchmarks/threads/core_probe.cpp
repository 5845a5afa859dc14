// core_probe A B: the round trip of one cache line between the cores A and B, in ns
// (median of 5 rounds of up to 20000 hand-overs or 0.2 s: a thread on A writes a
// flag, a thread on B waits for it and answers).  On a machine whose cores share a
// last-level cache it is tens of ns; across dies or sockets hundreds.  Data one thread
// writes and another reads costs the reader about half of it per cache line, which is
// what a threaded neighbor build pays where the threads' data are not their own.
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {
alignas(64) std::atomic<int> flag{0};

void pin(int core)
{
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(core, &set);
  pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

// the process may run on cores a and b, and they differ (two threads spinning on one
// core would hand the flag over once per scheduler tick)
bool usable(int a, int b)
{
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return false;
  const auto allowed = [&](int c) { return c >= 0 && c < CPU_SETSIZE && CPU_ISSET(c, &set); };
  return a != b && allowed(a) && allowed(b);
}

// rounds hand-overs, or as many as fit in budget_s seconds (a core that other processes
// share hands the flag over once per scheduler tick): ns per hand-over
double round_trip_ns(int a, int b, int rounds, double budget_s)
{
  flag.store(0);
  std::thread other([&] {
    pin(b);
    for (int k = 0;; k++) {
      int v;
      while ((v = flag.load(std::memory_order_acquire)) != 2 * k + 1)
        if (v < 0) return;
      flag.store(2 * k + 2, std::memory_order_release);
    }
  });
  pin(a);
  const auto start = std::chrono::steady_clock::now();
  const auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  int k = 0;
  for (; k < rounds && (k % 256 != 255 || seconds() < budget_s); k++) {
    flag.store(2 * k + 1, std::memory_order_release);
    while (flag.load(std::memory_order_acquire) != 2 * k + 2) {}
  }
  const double elapsed = seconds();
  flag.store(-1, std::memory_order_release);
  other.join();
  return 1e9 * elapsed / k;
}
}    // namespace

int main(int argc, char **argv)
{
  const int a = argc > 1 ? std::atoi(argv[1]) : 0;
  const int b = argc > 2 ? std::atoi(argv[2]) : 1;
  if (!usable(a, b)) {
    std::fprintf(stderr, "core_probe: cores %d and %d are not two cores this process may use\n",
                 a, b);
    return 1;
  }
  std::vector<double> t;
  for (int r = 0; r < 5; r++) t.push_back(round_trip_ns(a, b, 20000, 0.2));
  std::sort(t.begin(), t.end());
  std::printf("%.0f\n", t[2]);
  return 0;
}
