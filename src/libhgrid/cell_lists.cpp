#include "cell_lists.h"

#include <algorithm>

namespace hgrid {

void CellLists::set_levels(const std::vector<int> &cells_per_level)
{
  offset_.assign(1, 0);
  for (int n : cells_per_level) offset_.push_back(offset_.back() + n);
  start_.assign(static_cast<std::size_t>(offset_.back()) + 1, 0);
  slots_.clear();
}

void CellLists::build(int n, const int *level, const int *cell)
{
  std::fill(start_.begin(), start_.end(), 0);
  if (static_cast<int>(slot_.size()) < n) slot_.resize(n);

  // count particles per global cell, shifted by one for the prefix sum
  for (int i = 0; i < n; ++i)
    if (level[i] >= 0 && cell[i] >= 0) ++start_[offset_[level[i]] + cell[i] + 1];
  for (std::size_t c = 1; c < start_.size(); ++c) start_[c] += start_[c - 1];
  if (static_cast<int>(slots_.size()) < start_.back()) slots_.resize(start_.back());

  // fill in increasing index order; start_[g] walks forward and is restored below
  for (int i = 0; i < n; ++i) {
    if (level[i] < 0 || cell[i] < 0) continue;
    const int g = offset_[level[i]] + cell[i];
    slot_[i] = start_[g];
    slots_[start_[g]++] = i;
  }
  // start_[g] now holds the end of cell g = begin of cell g+1: shift back by one
  for (std::size_t c = start_.size() - 1; c > 0; --c) start_[c] = start_[c - 1];
  start_[0] = 0;
}

std::size_t CellLists::memory_bytes() const
{
  return sizeof(int) * (offset_.capacity() + start_.capacity() + slots_.capacity() +
                        slot_.capacity());
}

}    // namespace hgrid
