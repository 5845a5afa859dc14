/* ----------------------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#include "npair_hgrid_omp.h"

#include "comm.h"
#include "neigh_list.h"
#include "platform.h"

#include "omp_compat.h"
#if defined(_OPENMP)
#include <omp.h>
#endif

#include <algorithm>

using namespace LAMMPS_NS;

/* ----------------------------------------------------------------------
   owned atoms a thread takes at a time: BLOCKS_PER_THREAD contiguous blocks per
   thread, at least MIN_CHUNK atoms
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
int NPairHGridOmp<HALF, NEWTON, ATOMONLY, TRI>::chunk_size(int nlocal, int nthreads)
{
  const int blocks = BLOCKS_PER_THREAD * std::max(nthreads, 1);
  return std::max(MIN_CHUNK, (nlocal + blocks - 1) / blocks);
}

/* ----------------------------------------------------------------------
   chunks of owned atoms to the threads; counters summed over the threads
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
void NPairHGridOmp<HALF, NEWTON, ATOMONLY, TRI>::build(NeighList *list)
{
  const double start_time = platform::walltime();
  const int nlocal = this->owned_atoms();
  hgrid::SearchCounters ghosts;
  this->find_ghost_partners(ghosts);
  this->fit_pages(list);
  long long visited, checks;
  int longest;
  const int chunk = chunk_size(nlocal, this->comm->nthreads);
  do {
    visited = ghosts.cells_visited;
    checks = ghosts.distance_checks;
    longest = 0;
    this->start_moves((nlocal + chunk - 1) / chunk);
    build_threads(list, nlocal, chunk, visited, checks, longest);
    longest = std::max(longest, this->moved_partners_room(list));
  } while (this->grow_pages(list, longest));
  hgrid::SearchCounters total;
  total.cells_visited = visited;
  total.distance_checks = checks;
  this->finish_build(list, total, start_time);
}

/* ----------------------------------------------------------------------
   the rows of all owned atoms, chunks taken in turn by the threads
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
void NPairHGridOmp<HALF, NEWTON, ATOMONLY, TRI>::build_threads(NeighList *list, int nlocal,
                                                               int chunk, long long &visited,
                                                               long long &checks, int &longest)
{
#if defined(_OPENMP)
  omp_set_num_threads(this->comm->nthreads);
#pragma omp parallel reduction(+ : visited, checks) reduction(max : longest)
#endif
  {
#if defined(_OPENMP)
    const int tid = omp_get_thread_num();
#else
    const int tid = 0;
#endif
    MyPage<int> &ipage = list->ipage[tid];
    ipage.reset();
    hgrid::SearchCounters count;
#if defined(_OPENMP)
#pragma omp for schedule(dynamic)
#endif
    for (int first = 0; first < nlocal; first += chunk)
      longest = std::max(longest,
                         this->build_rows(list, first, std::min(first + chunk, nlocal), ipage,
                                          count, this->chunk_moves[first / chunk]));
    visited += count.cells_visited;
    checks += count.distance_checks;
  }
}

namespace LAMMPS_NS {
template class NPairHGridOmp<1, 1, 0>;
template class NPairHGridOmp<1, 0, 0>;
template class NPairHGridOmp<0, 1, 0>;
template class NPairHGridOmp<1, 1, 1>;
template class NPairHGridOmp<1, 0, 1>;
template class NPairHGridOmp<0, 1, 1>;
template class NPairHGridOmp<1, 1, 0, 1>;
template class NPairHGridOmp<1, 1, 1, 1>;
}    // namespace LAMMPS_NS
