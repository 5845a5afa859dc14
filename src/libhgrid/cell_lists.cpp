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
  if (static_cast<int>(scratch_.size()) < nthreads) scratch_.resize(nthreads);
  if (nthreads <= 1) {
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
  std::fill(start + lo, start + hi, 0);
  each([start](int g, int) {
    ++start[g];
  });
  return fill_cells(lo, hi, first_slot, each_back);
}

/// sort_cells() after the count (start[g] the particles of cell g): the prefix sum and
/// the fill.
template <class EachBack>
int CellLists::fill_cells(int lo, int hi, int first_slot, const EachBack &each_back)
{
  int *start = start_.data();
  int *slots = slots_.data();
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
  const auto each = [n, cell](auto f) {
    for (int i = 0; i < n; ++i)
      if (cell[i] >= 0) f(cell[i], i);
  };
  if (ncells >= kBucketedMinCells) {
    start_[ncells] = sort_bucketed(0, ncells, 0, each, scratch_[0]);
    return;
  }
  start_[ncells] = sort_cells(0, ncells, 0, each, [n, cell](auto f) {
    for (int i = n - 1; i >= 0; --i)
      if (cell[i] >= 0) f(cell[i], i);
  });
}

/// sort_cells() one bucket of 2^kBucketShift cells of [\p lo, \p hi) at a time, the
/// particles first put in the order of their bucket (index order within it, as \p
/// each gives them) in \p scratch; a bucket's slots begin after those of the buckets
/// before it.  Returns the end of the cells' slots.
template <class Each>
int CellLists::sort_bucketed(int lo, int hi, int first_slot, const Each &each, Scratch &scratch)
{
  const int nbuckets = ((hi - lo - 1) >> kBucketShift) + 1;
  scratch.bucket_start.assign(static_cast<std::size_t>(nbuckets) + 1, 0);
  int *bstart = scratch.bucket_start.data();
  each([bstart, lo](int g, int) {
    ++bstart[((g - lo) >> kBucketShift) + 1];
  });
  for (int b = 0; b < nbuckets; ++b) bstart[b + 1] += bstart[b];
  const int total = bstart[nbuckets];
  if (static_cast<int>(scratch.entries.size()) < total) scratch.entries.resize(total);
  Entry *entries = scratch.entries.data();
  each([bstart, entries, lo](int g, int i) {
    entries[bstart[(g - lo) >> kBucketShift]++] = {g, i};
  });
  // bstart[b] is now the end of bucket b, the start of bucket b + 1.  Buckets from the
  // last: the first cells, where the search starts, stay in the cache
  for (int b = nbuckets - 1; b >= 0; --b) {
    const int first = b > 0 ? bstart[b - 1] : 0, last = bstart[b];
    sort_cells(
        lo + (b << kBucketShift), std::min(lo + ((b + 1) << kBucketShift), hi), first_slot + first,
        [entries, first, last](auto f) {
          for (int k = first; k < last; ++k) f(entries[k].cell, entries[k].particle);
        },
        [entries, first, last](auto f) {
          for (int k = last - 1; k >= first; --k) f(entries[k].cell, entries[k].particle);
        });
  }
  return first_slot + total;
}

/// Thread \p t of \p nt: its own share of the particles (two parts, split_share_of())
/// read once, those in other threads' cells sent to them; then the sort of its cells
/// (sort_cells(), or sort_bucketed() for a share of kBucketedMinCells cells or more) over
/// its particles in them and those sent to it, in index order: of each part, the earlier
/// threads' (their outboxes), its own, the later threads'.
void CellLists::build_share(int n, int nfirst, const int *cell, int t, int nt)
{
  const CellShare mine = cell_share(t, nt);
  const SplitShare atoms = split_share_of(n, nfirst, t, nt);
  // a plain sort counts its cells' particles as it reads them, not in a pass of its own
  // (the buckets cannot): 10^5 gas, omega 100, two threads, the sort -10 to -15 % (a
  // stand-alone run of a build's cells, three pairs; LAMMPS, four rounds)
  const bool bucketed = mine.hi - mine.lo >= kBucketedMinCells;
  int count = route_share(cell, atoms, mine, t, nt, !bucketed);
  barrier(nt);
  for (int u = 0; u < nt; ++u)
    if (u != t) {
      count += outbox(u, t, nt).atoms.size();
      if (!bucketed)
        for (int i : outbox(u, t, nt).atoms) ++start_[cell[i]];
    }
  share_sum_[t] = count;
  barrier(nt);
  int run = 0;    // my cells' slots come after the earlier shares'
  for (int u = 0; u < t; ++u) run += share_sum_[u];

  // my particles: (part, thread) pieces in index order, or in reverse
  const auto piece = [&](int p, int u, bool back, auto f) {
    if (u == t) {
      const Share own = atoms.part[p];
      if (back) {
        for (int i = own.hi - 1; i >= own.lo; --i)
          if (mine.holds(cell[i])) f(cell[i], i);
      } else {
        for (int i = own.lo; i < own.hi; ++i)
          if (mine.holds(cell[i])) f(cell[i], i);
      }
      return;
    }
    const Outbox &box = outbox(u, t, nt);
    const int *from = box.atoms.data() + (p == 0 ? 0 : box.nfirst);
    const int *to = box.atoms.data() + (p == 0 ? box.nfirst : box.atoms.size());
    if (back)
      for (const int *k = to; k != from;) --k, f(cell[*k], *k);
    else
      for (const int *k = from; k != to; ++k) f(cell[*k], *k);
  };
  const auto each = [&](auto f) {
    for (int p = 0; p < 2; ++p)
      for (int u = 0; u < nt; ++u) piece(p, u, false, f);
  };
  int end;
  if (bucketed) {
    end = sort_bucketed(mine.lo, mine.hi, run, each, scratch_[t]);
  } else {
    end = fill_cells(mine.lo, mine.hi, run, [&](auto f) {
      for (int p = 1; p >= 0; --p)
        for (int u = nt - 1; u >= 0; --u) piece(p, u, true, f);
    });
  }
  if (t == nt - 1) start_[num_cells()] = end;
}

/// Thread \p t of \p nt: its particles \p atoms in other threads' cells into their
/// outboxes (in index order, nfirst of them from the first part); returns how many lie
/// in its own cells \p mine, and with \p count_cells counts them per cell (start_).
int CellLists::route_share(const int *cell, const SplitShare &atoms, const CellShare &mine, int t,
                           int nt, bool count_cells)
{
  int *start = start_.data();
  if (count_cells) std::fill(start + mine.lo, start + mine.hi, 0);
  for (int u = 0; u < nt; ++u) outbox(t, u, nt).atoms.clear();
  if (t == 0)    // the first cell of every thread's share, for owner()
    for (int u = 0; u <= nt; ++u) share_lo_[u] = share_of(num_cells(), u, nt).lo;
  barrier(nt);
  int count = 0;
  for (int p = 0; p < 2; ++p) {
    for (int i = atoms.part[p].lo; i < atoms.part[p].hi; ++i) {
      const int g = cell[i];
      if (mine.holds(g)) {
        ++count;
        if (count_cells) ++start[g];
      } else if (g >= 0)
        outbox(t, owner(g, nt), nt).atoms.push_back(i);
    }
    if (p == 0)
      for (int u = 0; u < nt; ++u) outbox(t, u, nt).nfirst = outbox(t, u, nt).atoms.size();
  }
  return count;
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
       share_lo_.capacity());
  for (const Outbox &box : outbox_) bytes += sizeof(Outbox) + sizeof(int) * box.atoms.capacity();
  for (const Scratch &s : scratch_)
    bytes += sizeof(Scratch) + sizeof(int) * s.bucket_start.capacity() +
        sizeof(Entry) * s.entries.capacity();
  return bytes;
}

}    // namespace hgrid
