#include "cell_lists.h"

#include "threads.h"

#include <algorithm>

namespace hgrid {

void CellLists::set_levels(const std::vector<int> &cells_per_level)
{
  offset_.assign(1, 0);
  for (int n : cells_per_level) offset_.push_back(offset_.back() + n);
  start_.assign(static_cast<std::size_t>(offset_.back()) + 1, 0);
  slots_.clear();
}

void CellLists::build(int n, const int *cell, int nthreads)
{
  clear_counts(nthreads);
  int *start = start_.data();
  // each thread counts and fills the cells of its own range of cells, reading all
  // particles: the slots are those of one thread, in the same order
  on_threads(nthreads, [&](int t, int nt) {
    const CellShare mine = cell_share(t, nt);
    for (int i = 0; i < n; ++i)
      if (mine.holds(cell[i])) ++start[cell[i]];
  });
  prefix_sum(nthreads);    // start_[g] = end of cell g; start_[ncells] = total
  const int total = start_.back();
  if (static_cast<int>(slots_.size()) < total + kPadding) slots_.resize(total + kPadding);
  int *slots = slots_.data();
  on_threads(nthreads, [&](int t, int nt) {
    // decreasing index order: each end walks back to its cell's first slot
    const CellShare mine = cell_share(t, nt);
    for (int i = n - 1; i >= 0; --i)
      if (mine.holds(cell[i])) slots[--start[cell[i]]] = i;
  });
}

/// Thread \p t's share of the cells, of \p nt threads.
CellLists::CellShare CellLists::cell_share(int t, int nt) const
{
  const Share s = share_of(num_cells(), t, nt);
  return {s.lo, s.hi};
}

void CellLists::clear_counts(int nthreads)
{
  int *start = start_.data();
  const long long size = static_cast<long long>(start_.size());
  on_threads(nthreads, [&](int t, int nt) {
    const Share s = share_of(size, t, nt);
    std::fill(start + s.lo, start + s.hi, 0);
  });
}

/// Blocks of cells in turn: each sums its block, the block sums are scanned, then
/// each block is scanned from its offset.
void CellLists::prefix_sum(int nthreads)
{
  const int size = static_cast<int>(start_.size());
  int *start = start_.data();
#if defined(_OPENMP)
  if (nthreads > 1 && size >= 2 * nthreads) {
    std::vector<int> offset(nthreads + 1, 0);
#pragma omp parallel num_threads(nthreads)
    {
      const int t = omp_get_thread_num(), nt = omp_get_num_threads();
      const int lo = static_cast<int>(static_cast<long long>(size) * t / nt);
      const int hi = static_cast<int>(static_cast<long long>(size) * (t + 1) / nt);
      int sum = 0;
      for (int g = lo; g < hi; ++g) sum += start[g];
      offset[t + 1] = sum;
#pragma omp barrier
#pragma omp single
      for (int b = 0; b < nt; ++b) offset[b + 1] += offset[b];
      int run = offset[t];
      for (int g = lo; g < hi; ++g) {
        run += start[g];
        start[g] = run;
      }
    }
    return;
  }
#endif
  (void) nthreads;
  int total = 0;
  for (int g = 0; g < size; ++g) {
    total += start[g];
    start[g] = total;
  }
}

std::size_t CellLists::memory_bytes() const
{
  return sizeof(int) * (offset_.capacity() + start_.capacity() + slots_.capacity());
}

}    // namespace hgrid
