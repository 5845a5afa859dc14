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

void CellLists::build(int n, const int *cell)
{
  std::fill(start_.begin(), start_.end(), 0);
  for (int i = 0; i < n; ++i)
    if (cell[i] >= 0) ++start_[cell[i]];
  // inclusive prefix sum: start_[g] = end of cell g; start_[ncells] = total
  int total = 0;
  for (int &s : start_) {
    total += s;
    s = total;
  }
  if (static_cast<int>(slots_.size()) < total) slots_.resize(total);
  // decreasing index order: each end walks back to its cell's first slot
  for (int i = n - 1; i >= 0; --i)
    if (cell[i] >= 0) slots_[--start_[cell[i]]] = i;
}

std::size_t CellLists::memory_bytes() const
{
  return sizeof(int) * (offset_.capacity() + start_.capacity() + slots_.capacity());
}

}    // namespace hgrid
