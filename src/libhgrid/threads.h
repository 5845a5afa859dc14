/* hgrid: the OpenMP regions of the host builders (binning, cell lists, pair search).

   on_threads(n, body) runs body(t, nt) on each thread t of a parallel region of n
   threads, or once as body(0, 1) on the calling thread when n <= 1 or without
   OpenMP.  A region under "if (n > 1)" is not free when n is 1: libgomp still makes
   a team of one thread for it and frees it afterwards (a malloc, a free and futex
   calls per region), and a worksharing loop outside a region allocates its work
   share.  A serial build entered six such regions: 2d, N = 1000, 1e4 steps with a
   rebuild every step, libgomp and the allocator took 9 % of the run.
   barrier(nt) waits for the other threads of the region. */

#ifndef HGRID_THREADS_H
#define HGRID_THREADS_H

#include <atomic>
#include <memory>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace hgrid {

template <class Body> void on_threads(int nthreads, const Body &body)
{
#if defined(_OPENMP)
  if (nthreads > 1) {
#pragma omp parallel num_threads(nthreads)
    body(omp_get_thread_num(), omp_get_num_threads());
    return;
  }
#endif
  (void) nthreads;
  body(0, 1);
}

/// A barrier of the on_threads() region of \p nt threads that calls it (none for one).
inline void barrier(int nt)
{
#if defined(_OPENMP)
  if (nt > 1) {
#pragma omp barrier
  }
#endif
  (void) nt;
}

/// Thread \p t's part [lo, hi) of 0 .. n-1 split in \p nt contiguous parts.
struct Share {
  int lo, hi;
};
inline Share share_of(long long n, int t, int nt)
{
  return {static_cast<int>(n * t / nt), static_cast<int>(n * (t + 1) / nt)};
}

/// Thread \p t's parts of 0 .. n-1 split at \p nfirst, each range shared among the \p nt
/// threads as by share_of(): its part of 0 .. nfirst-1 (owned atoms), then its part of
/// nfirst .. n-1 (ghosts), so that every thread has some of both.
struct SplitShare {
  Share part[2];
};
inline SplitShare split_share_of(long long n, long long nfirst, int t, int nt)
{
  const Share a = share_of(nfirst, t, nt), b = share_of(n - nfirst, t, nt);
  const int offset = static_cast<int>(nfirst);
  return {{a, {offset + b.lo, offset + b.hi}}};
}

/// Items 0 .. n-1 shared among the nt threads of a region by affinity: thread t first
/// takes the items of its own contiguous share, in order, then helps the other threads
/// with what is left of theirs (from their next item on).  A thread thus works on the
/// same part of the items in every call (the same atoms in every list build, as
/// LAMMPS' OpenMP styles split the atoms: what it wrote stays in its own core's cache)
/// and the threads still finish together where one is slower or has the costlier part.
/// reset() before the region, run() by every thread in it.
class AffineQueue {
 public:
  void reset(int n, int nt)
  {
    if (nt > size_) {
      next_ = std::make_unique<Next[]>(nt);
      size_ = nt;
    }
    for (int t = 0; t < nt; ++t) {
      const Share s = share_of(n, t, nt);
      next_[t].item.store(s.lo, std::memory_order_relaxed);
      next_[t].end = s.hi;
    }
    shares_ = nt;
  }
  /// by thread t of the region (a region of fewer threads than reset() was told still
  /// takes every share)
  template <class F> void run(int t, const F &f)
  {
    for (int u = 0; u < shares_; ++u) {
      Next &q = next_[(t + u) % shares_];
      for (int k; (k = q.item.fetch_add(1, std::memory_order_relaxed)) < q.end;) f(k);
    }
  }

 private:
  struct alignas(64) Next {    // a cache line per thread: each takes from its own
    std::atomic<int> item{0};
    int end = 0;
  };
  std::unique_ptr<Next[]> next_;
  int size_ = 0, shares_ = 0;
};

}    // namespace hgrid

#endif
