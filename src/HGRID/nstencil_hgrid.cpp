/* ----------------------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#include "nstencil_hgrid.h"

#include "domain.h"
#include "error.h"
#include "nbin_hgrid.h"
#include "update.h"

using namespace LAMMPS_NS;

/* ---------------------------------------------------------------------- */

NStencilHGrid::NStencilHGrid(LAMMPS *lmp, int half_in) : NStencil(lmp), half(half_in) {}

/* ----------------------------------------------------------------------
   replaces NStencil::create_setup(): no bin-sized stencil array is needed
------------------------------------------------------------------------- */

void NStencilHGrid::create_setup()
{
  if (!dynamic_cast<NBinHGrid *>(nb))
    error->all(FLERR, Error::NOLASTLINE, "Neighbor hgrid stencil requires the hgrid binning");
  last_stencil = update->ntimestep;
}

/* ---------------------------------------------------------------------- */

void NStencilHGrid::create()
{
  auto *hb = dynamic_cast<NBinHGrid *>(nb);
  const int nlevels = hb->num_levels();

  // nstencil (copied by NPair, not used by the hgrid build): the largest level stencil
  rows.clear();
  level_rows.assign(1, 0);
  nstencil = 0;
  using Kind = hgrid::StencilKind;
  const Kind kind = !half ? Kind::Full : (domain->triclinic ? Kind::Planes : Kind::Half);
  for (int h = 0; h < nlevels; h++) {
    const hgrid::LevelGrid &grid = hb->get_grid(h);
    const auto level = hgrid::same_level_rows(grid, kind);
    for (const auto &r : level) rows.push_back(hgrid::row_offset(grid, r));
    level_rows.push_back(rows.size());
    nstencil = MAX(nstencil, hgrid::stencil_cells(level));
  }
}
