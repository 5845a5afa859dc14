/* hgrid methods: the single-level linked-cell method as Leszczynski & Ciesielski,
   Sect. 2.1, describe it (after Allen & Tildesley): m_k cells along axis k of edge
   a_k = L_k / m_k >= d_max (eq. 2, here the largest cutoff diameter 2 r_max + skin),
   a "header" array of n_cell entries and a "linked-list" array of np entries.  Each
   particle is checked against the later particles of its own cell and every particle
   of half of the neighbouring cells (13 in 3d, 4 in 2d), so every pair of cells once:
   about 13.5 np p_avg (3d) or 4.5 np p_avg (2d) checks, p_avg = np / n_cell. */

#include "contact_method.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <stdexcept>

namespace hgrid {
namespace methods {

  namespace {
    class LinkedCell : public ContactMethod {
     public:
      explicit LinkedCell(const MethodSettings &s) : skin_(s.skin) {}
      const char *name() const override { return "linked_cell"; }

      void build(const System &s) override
      {
        const double dmax = 2.0 * s.r_max() + skin_;    // eq. (2): min_k a_k >= d_max
        double ncell = 1.0;
        for (int d = 0; d < 3; ++d) {
          const double length = s.box.hi[d] - s.box.lo[d];
          m_[d] = d < s.dimension
              ? std::max(1, static_cast<int>(length / (dmax * (1.0 + kCellSafety))))
              : 1;
          lo_[d] = s.box.lo[d];
          inv_[d] = m_[d] / length;
          ncell *= m_[d];
        }
        if (ncell > INT_MAX / 2) throw std::invalid_argument("linked_cell: too many cells");
        header_.assign(static_cast<std::size_t>(ncell), -1);
        list_.resize(s.size());
        // grouping: each particle is pushed onto its cell's list (np t_cell)
        for (int i = 0; i < s.size(); ++i) {
          const int c = cell_of(s, i);
          list_[i] = header_[c];
          header_[c] = i;
        }
      }

      void search(const System &s, std::vector<Contact> &out) override
      {
        checks_ = visits_ = 0;
        const int kz = s.dimension == 3 ? 1 : 0;
        for (int cz = 0; cz < m_[2]; ++cz)
          for (int cy = 0; cy < m_[1]; ++cy)
            for (int cx = 0; cx < m_[0]; ++cx) {
              const int c = index(cx, cy, cz);
              if (header_[c] < 0) continue;
              ++visits_;
              own_cell(s, c, out);
              // the half of the 3^d neighbours "above" the cell: dz > 0, or dz = 0 and
              // dy > 0, or dz = dy = 0 and dx > 0
              for (int dz = 0; dz <= kz; ++dz)
                for (int dy = dz > 0 ? -1 : 0; dy <= 1; ++dy)
                  for (int dx = (dz > 0 || dy > 0) ? -1 : 1; dx <= 1; ++dx) {
                    const int nx = cx + dx, ny = cy + dy, nz = cz + dz;
                    if (nx < 0 || nx >= m_[0] || ny < 0 || ny >= m_[1] || nz >= m_[2]) continue;
                    ++visits_;
                    two_cells(s, c, index(nx, ny, nz), out);
                  }
            }
      }

      std::size_t memory_bytes() const override
      {
        return sizeof(int) * (header_.capacity() + list_.capacity());
      }
      std::vector<Counter> counters() const override
      {
        return {{"distance_checks", static_cast<double>(checks_)},
                {"cells_visited", static_cast<double>(visits_)},
                {"cells", static_cast<double>(header_.size())}};
      }
      std::string details() const override
      {
        return "cells " + std::to_string(m_[0]) + "x" + std::to_string(m_[1]) + "x" +
            std::to_string(m_[2]);
      }

     private:
      int index(int cx, int cy, int cz) const { return (cz * m_[1] + cy) * m_[0] + cx; }
      int coord(int d, double x) const
      {
        const int c = static_cast<int>((x - lo_[d]) * inv_[d]);
        return c < 0 ? 0 : (c >= m_[d] ? m_[d] - 1 : c);
      }
      int cell_of(const System &s, int i) const
      {
        return index(coord(0, s.x[i][0]), coord(1, s.x[i][1]), coord(2, s.x[i][2]));
      }
      void test(const System &s, int i, int j, std::vector<Contact> &out)
      {
        ++checks_;
        if (in_contact(s, i, j, skin_)) out.emplace_back(std::min(i, j), std::max(i, j));
      }
      void own_cell(const System &s, int c, std::vector<Contact> &out)
      {
        for (int i = header_[c]; i >= 0; i = list_[i])
          for (int j = list_[i]; j >= 0; j = list_[j]) test(s, i, j, out);
      }
      void two_cells(const System &s, int c, int nc, std::vector<Contact> &out)
      {
        for (int i = header_[c]; i >= 0; i = list_[i])
          for (int j = header_[nc]; j >= 0; j = list_[j]) test(s, i, j, out);
      }

      double skin_;
      int m_[3] = {1, 1, 1};
      double lo_[3] = {0, 0, 0}, inv_[3] = {1, 1, 1};
      std::vector<int> header_, list_;
      long long checks_ = 0, visits_ = 0;
    };
  }    // namespace

  std::unique_ptr<ContactMethod> make_linked_cell(const MethodSettings &settings)
  {
    return std::make_unique<LinkedCell>(settings);
  }

}    // namespace methods
}    // namespace hgrid
