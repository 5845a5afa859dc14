/* ----------------------------------------------------------------------
   LAMMPS - Large-scale Atomic/Molecular Massively Parallel Simulator
   https://www.lammps.org/, Sandia National Laboratories
   LAMMPS development team: developers@lammps.org

   This software is distributed under the GNU General Public License.
   See the README file in the top-level LAMMPS directory.
------------------------------------------------------------------------- */

#include "npair_hgrid.h"

#include "atom.h"
#include "atom_vec.h"
#include "comm.h"
#include "domain.h"
#include "error.h"
#include "force.h"
#include "hgrid_planner.h"
#include "modify.h"
#include "molecule.h"
#include "my_page.h"
#include "nbin_hgrid.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "nstencil_hgrid.h"
#include "platform.h"

#include "libhgrid/threads.h"

#include <algorithm>
#include <utility>
#include <vector>

using namespace LAMMPS_NS;

// the builders search with GATHER: it copies up to 2 kGatherWidth slots past a row's end
static_assert(2 * hgrid::kGatherWidth <= hgrid::CellLists::kPadding);
// ... and reads the slot kPrefetchDistance past a cross-level candidate's
static_assert(hgrid::kPrefetchDistance <= hgrid::CellLists::kPadding);

namespace {
// positions, radii and IDs of LAMMPS atoms, as hgrid::PairSearch reads them; the
// positions through x[0] of atom->x, whose rows LAMMPS allocates contiguously (one
// dependent load less per candidate than x[j][d]: -3 to -4 % per build at N = 1e4
// and 1e5, -6 to -9 % at 1e6, 3d alpha -3 omega 100)
struct AtomArrays {
  const double *x;
  const double *r;
  const tagint *t;
  double tolerance;    // images of one atom within it count as equal coordinates
  double pos(int j, int d) const { return x[3 * j + d]; }
  double radius(int j) const { return r[j]; }
  tagint tag(int j) const { return t[j]; }
  double image_tolerance() const { return tolerance; }
  void prefetch(int j) const { HGRID_PREFETCH(x + 3 * j); }
  void prefetch_radius(int j) const { HGRID_PREFETCH(r + j); }
};

AtomArrays atom_arrays(const Atom *atom, double tolerance)
{
  return {atom->x ? atom->x[0] : nullptr, atom->radius, atom->tag, tolerance};
}
}    // namespace

/* ---------------------------------------------------------------------- */

NPairHGridBase::NPairHGridBase(LAMMPS *lmp) :
    NPair(lmp), hbin(nullptr), hstencil(nullptr), planner(HGridPlanner::get(lmp))
{
}

/* ----------------------------------------------------------------------
   run setup: the bins need a wider ghost window, and ghosts a wider cutoff, if
   this list searches both ways
------------------------------------------------------------------------- */

void NPairHGridBase::copy_neighbor_info()
{
  NPair::copy_neighbor_info();
  planner->note_pair_build(searches_both_directions());
  one_order = !modify->get_fix_by_style("^GRANULAR/MDR$").empty();
}

/* ----------------------------------------------------------------------
   get the hgrid bins and stencil once per build setup (checked casts)
------------------------------------------------------------------------- */

void NPairHGridBase::copy_bin_info()
{
  NPair::copy_bin_info();
  hbin = dynamic_cast<NBinHGrid *>(nb);
  if (!hbin) error->all(FLERR, Error::NOLASTLINE, "Neighbor hgrid pair build requires hgrid bins");
}

void NPairHGridBase::copy_stencil_info()
{
  NPair::copy_stencil_info();
  hstencil = dynamic_cast<NStencilHGrid *>(ns);
  if (!hstencil)
    error->all(FLERR, Error::NOLASTLINE, "Neighbor hgrid pair build requires an hgrid stencil");
}

/* ---------------------------------------------------------------------- */

inline NPairHGridBase::Row NPairHGridBase::row_of(int i, int history, const int *type) const
{
  Row row{i, type ? type[i] : 0, -1, 0, history, 0};
  if (molecular == Atom::TEMPLATE) {
    row.imol = atom->molindex[i];
    row.iatom = atom->molatom[i];
    row.tagprev = atom->tag[i] - row.iatom - 1;
  }
  return row;
}

/* ----------------------------------------------------------------------
   the list entry of pair (i,j) within the cutoff, false if it is not stored:
   type/group/molecule exclusions, the history bit of touching pairs
   (rsq < radsum^2) and special-bond bits, as in NPairBin
------------------------------------------------------------------------- */

template <int ATOMONLY>
bool NPairHGridBase::neighbor_word(const Row &row, int j, double delx, double dely, double delz,
                                   double rsq, double radsum, int &word) const
{
  const int i = row.i;
  if (exclude && exclusion(i, j, row.itype, atom->type[j], atom->mask, atom->molecule))
    return false;
  word = history_word(row, j, rsq, radsum);
  if (ATOMONLY || molecular == Atom::ATOMIC) return true;

  int which = 0;
  if (molecular != Atom::TEMPLATE)
    which = find_special(atom->special[i], atom->nspecial[i], atom->tag[j]);
  else if (row.imol >= 0 && atom->avec->onemols[row.imol]->special) {
    Molecule *mol = atom->avec->onemols[row.imol];
    which =
        find_special(mol->special[row.iatom], mol->nspecial[row.iatom], atom->tag[j] - row.tagprev);
  }
  if (which == 0 || domain->minimum_image_check(delx, dely, delz)) return true;
  if (which < 0) return false;
  word ^= which << SBBITS;
  return true;
}

/* ----------------------------------------------------------------------
   one row per owned atom (hgrid::PairSearch decides which cells and levels it
   searches for this list variant); counters and time go to the planner
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
void NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::build(NeighList *list)
{
  const double start_time = platform::walltime();
  const hgrid::SearchCounters count = build_threaded(list);
  finish_build(list, count, start_time);
}

/* ----------------------------------------------------------------------
   the rows by comm->nthreads threads, in chunks of owned atoms (one thread: one
   chunk, the rows in atom order)
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
hgrid::SearchCounters NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::build_threaded(NeighList *list)
{
  const int nlocal = owned_atoms();
  // the phases' times go to the planner for the lists it counts (not occasional ones)
  const bool timed = !list->occasional;
  double time = platform::walltime();
  hgrid::SearchCounters ghosts;
  if (find_ghost_partners(ghosts)) {
    if (timed) time = planner->end_phase(HGridPlanner::PHASE_GHOSTS, time);
    sort_ghost_partners(nlocal);
    if (timed) time = planner->end_phase(HGridPlanner::PHASE_GHOST_SORT, time);
  }
  fit_pages(list);
  long long visited, checks;
  int longest;
  const int chunk = chunk_size(nlocal, comm->nthreads);
  do {
    visited = ghosts.cells_visited;
    checks = ghosts.distance_checks;
    longest = 0;
    start_moves((nlocal + chunk - 1) / chunk);
    build_threads(list, nlocal, chunk, visited, checks, longest);
    longest = std::max(longest, moved_partners_room(list));
  } while (grow_pages(list, longest));
  if (timed) planner->end_phase(HGridPlanner::PHASE_ROWS, time);
  hgrid::SearchCounters total;
  total.cells_visited = visited;
  total.distance_checks = checks;
  return total;
}

/* ----------------------------------------------------------------------
   owned atoms a thread takes at a time: BLOCKS_PER_THREAD contiguous blocks per
   thread, at least MIN_CHUNK atoms
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
int NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::chunk_size(int nlocal, int nthreads)
{
  if (nthreads <= 1) return std::max(nlocal, 1);    // one chunk: the serial build
  const int blocks = BLOCKS_PER_THREAD * nthreads;
  return std::max(MIN_CHUNK, (nlocal + blocks - 1) / blocks);
}

/* ----------------------------------------------------------------------
   the rows of all owned atoms by chunks: each thread takes the chunks of its own
   contiguous share of the atoms first, as LAMMPS' OpenMP styles split them (the
   pair style then reads rows its own thread wrote), then helps with the chunks
   left in the others' shares (rows of large particles cost more; a core may be
   slower).  2 threads, N = 1e5, omega 100, cores on two dies of a VM (a cache
   line's round trip 580-680 ns): build -4 to -13 % against chunks in turn
   (dynamic schedule), six interleaved pairs; one thread unchanged.  Counters
   summed over the threads
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
void NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::build_threads(NeighList *list, int nlocal, int chunk,
                                                            long long &visited, long long &checks,
                                                            int &longest)
{
  const int nthreads = comm->nthreads;
  thread_work.assign(nthreads, ThreadWork());    // a region may get fewer threads
  chunk_queue.reset((nlocal + chunk - 1) / chunk, nthreads);
  hgrid::on_threads(nthreads, [&](int tid, int) {
    MyPage<int> &ipage = list->ipage[tid];
    ipage.reset();
    ThreadWork &work = thread_work[tid];
    chunk_queue.run(tid, [&](int c) {
      const int first = c * chunk;
      work.longest = std::max(work.longest,
                              build_rows(list, first, std::min(first + chunk, nlocal), ipage,
                                         work.count, chunk_moves[c]));
    });
  });
  for (const ThreadWork &work : thread_work) {
    visited += work.count.cells_visited;
    checks += work.count.distance_checks;
    longest = std::max(longest, work.longest);
  }
}

/* ----------------------------------------------------------------------
   the list's pages take neigh_modify one/page grown since they were made
   (by another list's build)
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
void NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::fit_pages(NeighList *list)
{
  if (list->oneatom >= neighbor->oneatom && list->pgsize >= neighbor->pgsize) return;
  list->oneatom = own_room ? MAX(list->oneatom, neighbor->oneatom) : neighbor->oneatom;
  list->pgsize = own_room ? MAX(list->pgsize, neighbor->pgsize) : neighbor->pgsize;
  init_pages(list);
}

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
void NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::init_pages(NeighList *list)
{
  for (int t = 0; t < comm->nthreads; t++)
    list->ipage[t].init(list->oneatom, list->pgsize, PAGE_DELTA);
}

/* ----------------------------------------------------------------------
   a row of \p longest partners outgrew the pages (neigh_modify one): with
   one and page as LAMMPS or hgrid set them the planner grows them to 1.2x
   the row and the build runs again (true), so that a dense polydisperse bed
   needs no neigh_modify line; a room the user set gets the stock error.  A
   list of its own room (own_room) grows it to 1.2x the row by itself
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
bool NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::grow_pages(NeighList *list, int longest)
{
  if (longest <= list->oneatom) return false;
  if (own_room) {
    list->oneatom = longest + longest / 5 + 1;
    list->pgsize = MAX(list->pgsize, HGridPlanner::PAGE_ROOMS * list->oneatom);
    init_pages(list);
    return true;
  }
  if (!planner->grow_row_room(longest))
    error->one(FLERR, Error::NOLASTLINE,
               "Neighbor list overflow, boost neigh_modify one" + utils::errorurl(36));
  fit_pages(list);
  return true;
}

/* ----------------------------------------------------------------------
   every owned atom has its row; counters and time go to the planner
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
void NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::finish_build(NeighList *list,
                                                           const hgrid::SearchCounters &count,
                                                           double start_time)
{
  list->inum = owned_atoms();
  if (!HALF) list->gnum = 0;
  if (!list->occasional) planner->report_build(count, platform::walltime() - start_time);
}

/* ---------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
int NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::owned_atoms() const
{
  return includegroup ? atom->nfirst : atom->nlocal;
}

/* ----------------------------------------------------------------------
   the grid of the bins with the same-level rows of the stencil
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
hgrid::GridView NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::search_grid() const
{
  hgrid::GridView grid = hbin->view();
  grid.level_rows = hstencil->level_rows.data();
  grid.rows = hstencil->rows.data();
  grid.ghosts_searched_down = HALF && grid.topdown && grid.nlevels > 1;
  return grid;
}

/* ----------------------------------------------------------------------
   Top-Down half lists (newton on or off): every binned ghost above the lowest level
   searches the levels below it for owned partners (hgrid::PairSearch::owned_below);
   the pairs, sorted by owned atom (sort_ghost_partners), join those rows in
   build_rows.  False (and no pairs) for other lists
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
bool NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::find_ghost_partners(hgrid::SearchCounters &count)
{
  ghost_start.clear();
  const hgrid::GridView grid = search_grid();
  if (!grid.ghosts_searched_down) return false;
  const int nlocal = owned_atoms();
  const int nall = atom->nlocal + atom->nghost;
  const AtomArrays atoms = atom_arrays(atom, IMAGE_TOLERANCE * force->angstrom);
  const int *atom2cell = hbin->atom2cell;
  const double skin = planner->skin();
  // contiguous ranges of ghosts taken in turn by the threads (package omp), joined in
  // range order: the same pairs in the same order for any number of threads.  Each
  // thread takes the ranges of its own share first (hgrid::AffineQueue), so that a
  // range, and its pair vector kept between builds, goes to the same core in every
  // build.  N = 1e5, omega 100, 2 threads on cores 580-590 ns apart, eight interleaved
  // pairs against OpenMP's dynamic schedule: this phase -7 to -20 % in every pair (the
  // whole build within the VM's noise: lower in six pairs)
  const int nthreads = comm->nthreads;
  const int nranges = nthreads > 1 ? 8 * nthreads : 1;
  // (owned atom, ghost) pairs of each range; kept between builds, as the arrays below
  ghost_found.resize(nranges);
  for (auto &range : ghost_found) range.clear();
  range_work.assign(nranges, hgrid::SearchCounters());
  const auto search_range = [&](int t) {
    const int nghost = nall - atom->nlocal;
    const int first = atom->nlocal + static_cast<int>((long long) nghost * t / nranges);
    const int last = atom->nlocal + static_cast<int>((long long) nghost * (t + 1) / nranges);
    hgrid::SearchCounters c;    // in registers, not in range_work shared with other threads
    for (int g = first; g < last; g++) {
      const int cell = atom2cell[g];
      if (cell < 0 || cell < grid.levels[1].first_cell) continue;    // unbinned or lowest level
      auto visit = [&](int j, double, double, double, double, double, bool within) {
        if (within) ghost_found[t].emplace_back(j, g);
      };
      hgrid::PairSearch<HALF, NEWTON, TRI, true>::owned_below(grid, atoms, g, cell, nlocal, skin, c,
                                                              visit);
    }
    range_work[t] = c;
  };
  ghost_queue.reset(nranges, nthreads);
  hgrid::on_threads(nthreads, [&](int t, int) {
    ghost_queue.run(t, search_range);
  });
  for (const auto &c : range_work) {
    count.cells_visited += c.cells_visited;
    count.distance_checks += c.distance_checks;
  }
  return true;
}

/* ----------------------------------------------------------------------
   the pairs find_ghost_partners() found, by owned atom: a counting sort, the
   ranges in order: counts, their inclusive prefix sums (each atom's end), then
   the pairs in reverse order, each end moved back to the atom's first partner
   (no copy of the ends: at N = 1e7 it was 40 MB a build)
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
void NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::sort_ghost_partners(int nlocal)
{
  ghost_start.assign(nlocal + 1, 0);
  for (const auto &range : ghost_found)
    for (const auto &p : range) ghost_start[p.first]++;
  for (int i = 1; i <= nlocal; i++) ghost_start[i] += ghost_start[i - 1];
  ghost_partner.resize(ghost_start[nlocal]);
  for (auto range = ghost_found.rbegin(); range != ghost_found.rend(); ++range)
    for (auto p = range->rbegin(); p != range->rend(); ++p)
      ghost_partner[--ghost_start[p->first]] = p->second;
}

/* ----------------------------------------------------------------------
   rows of the owned atoms [ifrom, ito), each at ilist[i] = i, appended to ipage
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
int NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::build_rows(NeighList *list, int ifrom, int ito,
                                                        MyPage<int> &ipage,
                                                        hgrid::SearchCounters &count,
                                                        ChunkMoves &moves)
{
  const int nlocal = owned_atoms();
  const hgrid::GridView grid = search_grid();
  const AtomArrays atoms = atom_arrays(atom, IMAGE_TOLERANCE * force->angstrom);
  const int *atom2cell = hbin->atom2cell;
  const double skin = planner->skin();
  // without exclusions or special bonds a candidate's entry is written before its
  // distance is known and kept by advancing n (no branch on the distance); past the
  // room of a row (an overflow, reported below) into a spill word.  Measured per build
  // at N = 1e5: -17 to -21 % in 2d (one level), -7 to -10 % in 2d (four levels), -13 %
  // in 3d at omega 1; 3d alpha -3 omega 100 (several levels) unchanged at 1e5, up to 5 %
  // slower at 1e6
  const bool plain = !exclude && (ATOMONLY || molecular == Atom::ATOMIC);
  const bool move = rows_of_smaller(grid);
  const int first_above = move ? grid.levels[1].first_cell : 0;    // first cell above level 0
  const int room = list->oneatom;
  int spill, longest = 0;
  // the counters, and the visitor's row length n, stay in registers: nothing the
  // visitor captures is passed to a function that is not inlined (HGRID_FORCE_INLINE)
  hgrid::SearchCounters local;

  // the list's arrays in locals: the rows' stores (int) could alias its int fields, so
  // each atom reloaded them; a plain list's rows read no types
  const int history = list->history ? 1 : 0;
  const int *const types = plain ? nullptr : atom->type;
  int *const ilist = list->ilist;
  int **const firstneigh = list->firstneigh;
  int *const numneigh = list->numneigh;

  for (int i = ifrom; i < ito; i++) {
    int n = 0;
    int *neighptr = ipage.vget();
    const Row row = row_of(i, history, types);
    auto visit = [&](int j, double delx, double dely, double delz, double rsq, double radsum,
                     bool within) {
      if (plain) {
        *(n < room ? neighptr + n : &spill) = history_word(row, j, rsq, radsum);
        n += within;
        return;
      }
      int word;
      if (within && neighbor_word<ATOMONLY>(row, j, delx, dely, delz, rsq, radsum, word)) {
        *(n < room ? neighptr + n : &spill) = word;
        n++;
      }
    };
    hgrid::PairSearch<HALF, NEWTON, TRI, true>::neighbors(grid, atoms, i, atom2cell[i], nlocal,
                                                          skin, local, visit);
    // i above the lowest level: its partners below whose rows come later move there
    if (move && atom2cell[i] >= first_above && n <= room)
      n = move_to_later_rows(i, ito, grid.levels[grid.level_of_cell(atom2cell[i])].first_cell,
                             neighptr, n, moves);
    // the larger partners that found i earlier in this chunk
    if (move && pending_head[i] >= 0) n = take_pending(i, neighptr, n, room, moves);
    // the larger ghost partners find_ghost_partners() found for i
    if (!ghost_start.empty())
      for (int k = ghost_start[i]; k < ghost_start[i + 1]; k++) {
        const int j = ghost_partner[k];
        const double delx = atoms.pos(i, 0) - atoms.pos(j, 0);
        const double dely = atoms.pos(i, 1) - atoms.pos(j, 1);
        const double delz = atoms.pos(i, 2) - atoms.pos(j, 2);
        visit(j, delx, dely, delz, delx * delx + dely * dely + delz * delz,
              atoms.radius(i) + atoms.radius(j), true);
      }
    ilist[i] = i;
    firstneigh[i] = neighptr;
    numneigh[i] = n;
    longest = MAX(longest, n);
    ipage.vgot(n < room ? n : room);
  }
  count.cells_visited += local.cells_visited;
  count.distance_checks += local.distance_checks;
  return longest;
}

/* ----------------------------------------------------------------------
   Top-Down half lists store a pair of owned atoms on different levels in the
   smaller atom's row: the pair style then reads the smaller atom's data where it
   reads its row, and the larger atom's, which all its partners want, stays in the
   caches (in the larger atom's row each partner's position, velocity and force was
   a cache miss of its own).  Measured per step (N = 1e5, omega 10-100, gases and
   beds, examples/benchmarks/rows): Pair -27 % (one thread,
   median), build +5 %; the step -15 % with a rebuild every 10 steps
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
bool NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::rows_of_smaller(const hgrid::GridView &grid) const
{
  return grid.ghosts_searched_down && !one_order;
}

/* ----------------------------------------------------------------------
   the row of atom i above the lowest level (n entries): its partners on lower
   levels (in cells before below, its level's first cell) whose rows come later
   in this chunk [i+1, ito) wait for them in moves; ghosts and rows already
   written stay (the pair style reads them right after those rows).  Returns the
   entries kept
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
int NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::move_to_later_rows(int i, int ito, int below, int *row,
                                                                int n, ChunkMoves &moves)
{
  const int *atom2cell = hbin->atom2cell;
  int kept = 0, npending = 0;
  for (int k = 0; k < n; k++) {
    const int word = row[k], j = word & NEIGHMASK;
    if (j > i && j < ito && atom2cell[j] < below) {
      if (moves.count == static_cast<int>(moves.word.size())) moves.grow();
      moves.next[moves.count] = pending_head[j];
      moves.word[moves.count] = (word & ~NEIGHMASK) | i;    // the pair's bits are symmetric
      pending_head[j] = moves.count++;
      npending++;
    } else {
      row[kept++] = word;
    }
  }
  if (npending) moves.moved.emplace_back(i, npending);
  return kept;
}

/* ----------------------------------------------------------------------
   the entries waiting for row i appended to its n entries (past the room of
   the row into a spill word, as build_rows); returns the row's length
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
int NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::take_pending(int i, int *row, int n, int room,
                                                          ChunkMoves &moves)
{
  int spill;
  for (int k = pending_head[i]; k >= 0; k = moves.next[k]) {
    *(n < room ? row + n : &spill) = moves.word[k];
    n++;
  }
  pending_head[i] = -1;
  return n;
}

/* ----------------------------------------------------------------------
   before the rows: nchunks chunks of rows, no pending partner
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
void NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::start_moves(int nchunks)
{
  chunk_moves.resize(nchunks);
  if (!rows_of_smaller(search_grid())) return;
  // every row takes its pending entries (take_pending), so a build leaves them all -1:
  // only new atoms' heads are set here.  Set every build by the first thread, they were
  // read and written in the rows by the other threads from its cache (2 threads on cores
  // ~590 ns apart, N = 1e5, omega 100: rows -1.4 to -2 %, three runs of 6-8 interleaved
  // rounds; one thread unchanged).  The ghosts' pairs sorted the same way, each thread
  // those of its rows' atoms, made the rows 4 % slower and that sort 50 % (two runs)
  if (static_cast<int>(pending_head.size()) < owned_atoms()) pending_head.resize(owned_atoms(), -1);
  for (auto &c : chunk_moves) {
    c.count = 0;
    c.moved.clear();
  }
}

/* ----------------------------------------------------------------------
   after the rows, with history: the most partners of one atom that moved some of
   its partners to later rows, which fix neigh/history keeps in one page chunk
------------------------------------------------------------------------- */

template <int HALF, int NEWTON, int ATOMONLY, int TRI>
int NPairHGrid<HALF, NEWTON, ATOMONLY, TRI>::moved_partners_room(NeighList *list) const
{
  int most = 0;
  if (list->history)
    for (const auto &c : chunk_moves)
      for (const auto &p : c.moved) most = MAX(most, list->numneigh[p.first] + p.second);
  return most;
}

namespace LAMMPS_NS {
template class NPairHGrid<1, 1, 0>;
template class NPairHGrid<1, 0, 0>;
template class NPairHGrid<0, 1, 0>;
template class NPairHGrid<1, 1, 1>;
template class NPairHGrid<1, 0, 1>;
template class NPairHGrid<0, 1, 1>;
template class NPairHGrid<1, 1, 0, 1>;
template class NPairHGrid<1, 1, 1, 1>;
}    // namespace LAMMPS_NS
