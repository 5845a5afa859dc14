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

void CellLists::build(int n, int nfirst, const int *cell, int nthreads)
{
  // every particle has one slot at most
  if (static_cast<int>(slots_.size()) < n + kPadding) slots_.resize(n + kPadding);
  if (nthreads <= 1) {
    if (num_cells() >= kBucketedMinCells)
      build_bucketed(n, cell);
    else
      build_serial(n, cell);
    return;
  }
  if (static_cast<int>(outbox_.size()) < nthreads * nthreads) outbox_.resize(nthreads * nthreads);
  share_sum_.assign(nthreads, 0);
  share_lo_.resize(nthreads + 1);
  on_threads(nthreads, [&](int t, int nt) {
    build_share(n, nfirst, cell, t, nt);
  });
}

/// The passes of a counting sort on the cells [\p lo, \p hi), whose slots begin at \p
/// first_slot: clear, count, prefix sum, and the fill in decreasing index order (each end
/// walks back to its cell's first slot).  \p each(f) calls f(cell, particle) for the
/// cells' particles in increasing index order, \p each_back in decreasing.  Returns the
/// end of the cells' slots.
template <class Each, class EachBack>
int CellLists::sort_cells(int lo, int hi, int first_slot, const Each &each,
                          const EachBack &each_back)
{
  int *start = start_.data();
  int *slots = slots_.data();
  std::fill(start + lo, start + hi, 0);
  each([start](int g, int) {
    ++start[g];
  });
  int run = first_slot;
  for (int g = lo; g < hi; ++g) start[g] = run += start[g];    // start[g] = end of cell g
  each_back([start, slots](int g, int i) {
    slots[--start[g]] = i;
  });
  return run;
}

/// All cells at once, reading the particles' cells where they are.
void CellLists::build_serial(int n, const int *cell)
{
  const int ncells = num_cells();
  start_[ncells] = sort_cells(
      0, ncells, 0,
      [n, cell](auto f) {
        for (int i = 0; i < n; ++i)
          if (cell[i] >= 0) f(cell[i], i);
      },
      [n, cell](auto f) {
        for (int i = n - 1; i >= 0; --i)
          if (cell[i] >= 0) f(cell[i], i);
      });
}

/// One bucket of 2^kBucketShift cells at a time, the particles first put in the order of
/// their bucket (index order within it); a bucket's slots begin after those of the
/// buckets before it
void CellLists::build_bucketed(int n, const int *cell)
{
  const int ncells = num_cells();
  const int nbuckets = ((ncells - 1) >> kBucketShift) + 1;
  bucket_start_.assign(static_cast<std::size_t>(nbuckets) + 1, 0);
  int *bstart = bucket_start_.data();
  for (int i = 0; i < n; ++i)
    if (cell[i] >= 0) ++bstart[(cell[i] >> kBucketShift) + 1];
  for (int b = 0; b < nbuckets; ++b) bstart[b + 1] += bstart[b];
  const int total = bstart[nbuckets];
  if (static_cast<int>(entries_.size()) < total) entries_.resize(total);
  Entry *entries = entries_.data();
  for (int i = 0; i < n; ++i)
    if (cell[i] >= 0) entries[bstart[cell[i] >> kBucketShift]++] = {cell[i], i};
  // bstart[b] is now the end of bucket b, the start of bucket b + 1.  Buckets from the
  // last: the first cells, where the search starts, stay in the cache
  for (int b = nbuckets - 1; b >= 0; --b) {
    const int lo = b << kBucketShift;
    const int hi = std::min(lo + (1 << kBucketShift), ncells);
    const int first = b > 0 ? bstart[b - 1] : 0, last = bstart[b];
    sort_cells(
        lo, hi, first,
        [entries, first, last](auto f) {
          for (int k = first; k < last; ++k) f(entries[k].cell, entries[k].particle);
        },
        [entries, first, last](auto f) {
          for (int k = last - 1; k >= first; --k) f(entries[k].cell, entries[k].particle);
        });
  }
  start_[ncells] = total;
}

/// Thread \p t of \p nt: the passes of build_serial() on its own cells, reading its own
/// share of the particles (two parts, split_share_of()) and the outboxes sent to it.
void CellLists::build_share(int n, int nfirst, const int *cell, int t, int nt)
{
  int *start = start_.data();
  int *slots = slots_.data();
  const CellShare mine = cell_share(t, nt);
  const SplitShare atoms = split_share_of(n, nfirst, t, nt);
  std::fill(start + mine.lo, start + mine.hi, 0);
  for (int u = 0; u < nt; ++u) outbox(t, u, nt).atoms.clear();
  if (t == 0)    // the first cell of every thread's share, for owner()
    for (int u = 0; u <= nt; ++u) share_lo_[u] = share_of(num_cells(), u, nt).lo;
  barrier(nt);
  for (int p = 0; p < 2; ++p) {
    for (int i = atoms.part[p].lo; i < atoms.part[p].hi; ++i) {
      const int g = cell[i];
      if (mine.holds(g))
        ++start[g];
      else if (g >= 0)
        outbox(t, owner(g, nt), nt).atoms.push_back(i);
    }
    if (p == 0)
      for (int u = 0; u < nt; ++u) outbox(t, u, nt).nfirst = outbox(t, u, nt).atoms.size();
  }
  barrier(nt);
  for (int u = 0; u < nt; ++u)
    if (u != t)
      for (int i : outbox(u, t, nt).atoms) ++start[cell[i]];

  // prefix sum: the particles in my cells, then my cells' ends after the earlier shares'
  int sum = 0;
  for (int g = mine.lo; g < mine.hi; ++g) sum += start[g];
  share_sum_[t] = sum;
  barrier(nt);
  int run = 0;
  for (int u = 0; u < t; ++u) run += share_sum_[u];
  for (int g = mine.lo; g < mine.hi; ++g) start[g] = run += start[g];
  if (t == nt - 1) start[num_cells()] = run;
  fill_back(cell, atoms, mine, t, nt);
}

/// The fill of thread \p t's cells \p mine in decreasing index order: of each part (the
/// second first), the later threads' particles in it (their outboxes), my own, the
/// earlier threads'.
void CellLists::fill_back(const int *cell, const SplitShare &atoms, const CellShare &mine, int t,
                          int nt)
{
  int *start = start_.data();
  int *slots = slots_.data();
  const auto fill = [&](const int *begin, const int *end) {
    for (const int *k = end; k != begin;) {
      --k;
      slots[--start[cell[*k]]] = *k;
    }
  };
  for (int p = 1; p >= 0; --p)
    for (int u = nt - 1; u >= 0; --u) {
      if (u == t) {
        for (int i = atoms.part[p].hi - 1; i >= atoms.part[p].lo; --i)
          if (mine.holds(cell[i])) slots[--start[cell[i]]] = i;
        continue;
      }
      const Outbox &box = outbox(u, t, nt);
      const int *first = box.atoms.data();
      if (p == 0)
        fill(first, first + box.nfirst);
      else
        fill(first + box.nfirst, first + box.atoms.size());
    }
}

/// Thread \p t's share of the cells, of \p nt threads.
CellLists::CellShare CellLists::cell_share(int t, int nt) const
{
  const Share s = share_of(num_cells(), t, nt);
  return {s.lo, s.hi};
}

/// The thread of \p nt whose share holds cell \p g: the number of later shares' first
/// cells at or below g (share_lo_ set for nt threads).
int CellLists::owner(int g, int nt) const
{
  const auto first = share_lo_.begin() + 1;
  return static_cast<int>(std::upper_bound(first, first + (nt - 1), g) - first);
}

std::size_t CellLists::memory_bytes() const
{
  std::size_t bytes = sizeof(int) *
          (offset_.capacity() + start_.capacity() + slots_.capacity() + share_sum_.capacity() +
           share_lo_.capacity() + bucket_start_.capacity()) +
      sizeof(Entry) * entries_.capacity();
  for (const Outbox &box : outbox_) bytes += sizeof(Outbox) + sizeof(int) * box.atoms.capacity();
  return bytes;
}

}    // namespace hgrid
