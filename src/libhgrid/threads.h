/* hgrid: the OpenMP regions of the host builders (binning, cell lists, pair search).

   on_threads(n, body) runs body(t, nt) on each thread t of a parallel region of n
   threads, or once as body(0, 1) on the calling thread when n <= 1 or without
   OpenMP.  A region under "if (n > 1)" is not free when n is 1: libgomp still makes
   a team of one thread for it and frees it afterwards (a malloc, a free and futex
   calls per region), and a worksharing loop outside a region allocates its work
   share.  A serial build entered six such regions: 2d, N = 1000, 1e4 steps with a
   rebuild every step, libgomp and the allocator took 9 % of the run.
   dynamic_for(nt, n, f) is the loop f(0) .. f(n-1) shared among the nt threads of
   the enclosing region (a dynamic schedule), or a plain loop when nt is 1. */

#ifndef HGRID_THREADS_H
#define HGRID_THREADS_H

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

template <class F> void dynamic_for(int nt, int n, const F &f)
{
#if defined(_OPENMP)
  if (nt > 1) {
#pragma omp for schedule(dynamic)
    for (int k = 0; k < n; ++k) f(k);
    return;
  }
#endif
  (void) nt;
  for (int k = 0; k < n; ++k) f(k);
}

/// Thread \p t's part [lo, hi) of 0 .. n-1 split in \p nt contiguous parts.
struct Share {
  int lo, hi;
};
inline Share share_of(long long n, int t, int nt)
{
  return {static_cast<int>(n * t / nt), static_cast<int>(n * (t + 1) / nt)};
}

}    // namespace hgrid

#endif
