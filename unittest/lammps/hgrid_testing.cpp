#include "hgrid_testing.h"

#include "atom.h"
#include "atom_vec.h"
#include "domain.h"
#include "exceptions.h"
#include "force.h"
#include "group.h"
#include "input.h"
#include "library.h"
#include "molecule.h"
#include "neigh_list.h"
#include "neighbor.h"
#include "npair_hgrid.h"
#include "pair.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <sstream>

using namespace LAMMPS_NS;

namespace hgrid_testing {

static constexpr double PI = 3.14159265358979323846;

std::string describe(const SystemSpec &s)
{
  std::ostringstream out;
  out << s.dimension << "d "
      << (s.periodic         ? "periodic"
              : s.shrinkwrap ? "shrink-wrapped"
                             : "fixed")
      << " newton " << (s.newton ? "on" : "off") << " " << s.distribution << " omega=" << s.omega
      << " alpha=" << s.alpha << (s.tilt != 0.0 ? " triclinic tilt=" + std::to_string(s.tilt) : "")
      << " N=" << s.natoms << " seed=" << s.seed << " neighbor " << s.skin << " " << s.neighbor
      << (s.comm_mode.empty() ? "" : " + comm_modify mode " + s.comm_mode);
  return out.str();
}

// per-tag random stream: identical on every rank and for every rank count
static std::mt19937_64 stream(const SystemSpec &spec, long tag, int purpose)
{
  std::seed_seq seq{spec.seed, static_cast<int>(tag), purpose};
  return std::mt19937_64(seq);
}

double radius_of(const SystemSpec &spec, long tag)
{
  auto rng = stream(spec, tag, 1);
  const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  const double rmin = 1.0, rmax = spec.omega;
  if (spec.distribution == "mono") return rmin;
  if (spec.distribution == "bi") return u < 0.9 ? rmin : rmax;    // 10 % large by number
  // truncated power law f(r) ~ r^alpha on [rmin, rmax], sampled by inverse CDF
  if (std::fabs(spec.alpha + 1.0) < 1e-12) return rmin * std::pow(rmax / rmin, u);
  const double a1 = spec.alpha + 1.0;
  const double lo = std::pow(rmin, a1), hi = std::pow(rmax, a1);
  return std::pow(lo + u * (hi - lo), 1.0 / a1);
}

LAMMPS *make_lammps(MPI_Comm comm, const std::vector<std::string> &extra_args)
{
  LAMMPS::argv args = {"hgrid_test", "-log", "none", "-screen", "none", "-nocite"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  return new LAMMPS(args, comm);
}

static double box_length(const SystemSpec &spec)
{
  double volume = 0.0;
  for (long tag = 1; tag <= spec.natoms; tag++) {
    const double r = radius_of(spec, tag);
    volume += spec.dimension == 3 ? 4.0 / 3.0 * PI * r * r * r : PI * r * r;
  }
  return std::pow(volume / spec.packing, 1.0 / spec.dimension);
}

void create_system(LAMMPS *lmp, const SystemSpec &spec)
{
  const double length = box_length(spec);
  auto cmd = [lmp](const std::string &line) {
    lmp->input->one(line);
  };
  if (spec.dimension == 2) cmd("dimension 2");
  // dynamic radius: fix adapt may change it
  cmd(spec.bonds_per_atom > 0 ? "atom_style hybrid sphere 1 bond" : "atom_style sphere 1");
  const std::string np = spec.shrinkwrap ? "s" : "f";
  cmd("boundary " +
      (spec.periodic ? std::string("p p p")
                     : np + " " + np + " " + (spec.dimension == 2 ? "p" : np)));
  cmd("comm_modify vel yes");
  cmd(spec.newton ? "newton on" : "newton off");
  const std::string zrange = spec.dimension == 2 ? "-0.5 0.5" : "0 " + std::to_string(length);
  // a triclinic box: tilt factors xy = tilt L, xz = yz = tilt L / 2 (3d)
  const double xy = spec.tilt * length, xz = spec.dimension == 3 ? 0.5 * xy : 0.0;
  const std::string lengths =
      "0 " + std::to_string(length) + " 0 " + std::to_string(length) + " " + zrange;
  if (spec.tilt == 0.0)
    cmd("region box block " + lengths);
  else
    cmd("region box prism " + lengths + " " + std::to_string(xy) + " " + std::to_string(xz) + " " +
        std::to_string(-xz));
  const std::string nb = std::to_string(spec.bonds_per_atom);
  cmd("create_box " + std::to_string(spec.ntypes) + " box" +
      (spec.bonds_per_atom > 0 ? " bond/types 1 extra/bond/per/atom " + nb +
               " extra/special/per/atom " + std::to_string(20 * spec.bonds_per_atom)
                               : ""));
  if (spec.molecule_size > 0 && !spec.bonds_per_atom)
    cmd("fix molecule_ids all property/atom mol ghost yes");

  // positions drawn per tag (uniform, overlaps allowed), created on the owning rank
  std::vector<double> x(3 * spec.natoms);
  std::vector<tagint> ids(spec.natoms);
  std::vector<int> types(spec.natoms, 1);
  for (long tag = 1; tag <= spec.natoms; tag++) {
    auto rng = stream(spec, tag, 2);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    double lamda[3] = {0.0, 0.0, 0.0};
    for (int d = 0; d < spec.dimension; d++) lamda[d] = u(rng);
    const double *h = lmp->domain->h, *lo = lmp->domain->boxlo;
    x[3 * (tag - 1) + 0] = lo[0] + h[0] * lamda[0] + h[5] * lamda[1] + h[4] * lamda[2];
    x[3 * (tag - 1) + 1] = lo[1] + h[1] * lamda[1] + h[3] * lamda[2];
    x[3 * (tag - 1) + 2] = spec.dimension == 3 ? lo[2] + h[2] * lamda[2] : 0.0;
    ids[tag - 1] = tag;
    types[tag - 1] = 1 + static_cast<int>(tag % spec.ntypes);
  }
  lammps_create_atoms(lmp, spec.natoms, ids.data(), types.data(), x.data(), nullptr, nullptr, 0);

  Atom *atom = lmp->atom;
  for (int i = 0; i < atom->nlocal; i++) {
    const double r = radius_of(spec, atom->tag[i]);
    atom->radius[i] = r;
    atom->rmass[i] = 4.0 / 3.0 * PI * r * r * r;
    if (spec.molecule_size > 0) atom->molecule[i] = (atom->tag[i] - 1) / spec.molecule_size + 1;
  }
  if (spec.after_host_change) spec.after_host_change(lmp);
  commands(lmp, spec.before_pair);
  cmd("pair_style " + spec.pair);
  cmd("pair_coeff " + spec.pair_coeff);
  commands(lmp, spec.after_pair);
  cmd("neighbor " + std::to_string(spec.skin) + " " + spec.neighbor);
  cmd("neigh_modify one 20000 page 400000 " + spec.neigh_modify);
  if (!spec.comm_mode.empty()) cmd("comm_modify mode " + spec.comm_mode + " vel yes");
  cmd("run 0 post no");
}

std::unique_ptr<LAMMPS> make_system(const SystemSpec &spec, MPI_Comm comm)
{
  std::unique_ptr<LAMMPS> lmp(make_lammps(comm, spec.lammps_args));
  create_system(lmp.get(), spec);
  return lmp;
}

SystemSpec bonded_system(SystemSpec spec, const std::string &factors)
{
  spec.bonds_per_atom = 16;
  spec.after_pair.insert(spec.after_pair.end(),
                         {"bond_style zero", "bond_coeff *", "create_bonds many all all 1 0.0 2.05",
                          "special_bonds " + factors});
  return spec;
}

SystemSpec powerlaw_system(int natoms, double omega, double packing)
{
  SystemSpec spec;
  spec.natoms = natoms;
  spec.omega = omega;
  spec.packing = packing;
  return spec;
}

void commands(LAMMPS *lmp, const std::vector<std::string> &lines)
{
  for (const auto &line : lines) lmp->input->one(line);
}

std::string error_of(const SystemSpec &spec, const std::vector<std::string> &lines)
{
  std::unique_ptr<LAMMPS> lmp(make_lammps(MPI_COMM_WORLD, spec.lammps_args));
  try {
    create_system(lmp.get(), spec);
    commands(lmp.get(), lines);
    lmp->input->one("run 0 post no");
  } catch (LAMMPS_NS::LAMMPSException &e) {
    return e.what();
  }
  return "";
}

/* ---------------------------------------------------------------------- */

namespace {
  struct AtomTable {    // owned atoms of all ranks, by tag - 1 (owner -1: no such tag)
    std::vector<double> x, radius;
    std::vector<int> owner;
    std::vector<AtomInfo> info;
    // molecular systems, for the oracle (gather_special): (partner tag, 1-2/1-3/1-4
    // level) of each atom's special list; empty otherwise
    std::vector<std::vector<std::pair<long, int>>> special;
  };

  // every rank's \p mine, in rank order, on every rank
  std::vector<long> gathered(const std::vector<long> &mine)
  {
    int nprocs;
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    int nmine = mine.size();
    std::vector<int> sizes(nprocs), displs(nprocs, 0);
    MPI_Allgather(&nmine, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD);
    for (int p = 1; p < nprocs; p++) displs[p] = displs[p - 1] + sizes[p - 1];
    std::vector<long> all(displs[nprocs - 1] + sizes[nprocs - 1]);
    // STUBS' MPI_Allgatherv takes a non-const send buffer
    MPI_Allgatherv(const_cast<long *>(mine.data()), nmine, MPI_LONG, all.data(), sizes.data(),
                   displs.data(), MPI_LONG, MPI_COMM_WORLD);
    return all;
  }

  // the special list of owned atom \p i: its own, or its molecule template's
  std::vector<std::pair<long, int>> special_partners(const Atom *atom, int i)
  {
    const tagint *list = nullptr;
    const int *n = nullptr;
    tagint offset = 0;
    if (atom->molecular == Atom::MOLECULAR) {
      list = atom->special[i];
      n = atom->nspecial[i];
    } else if (atom->molecular == Atom::TEMPLATE && atom->molindex[i] >= 0) {
      const LAMMPS_NS::Molecule *mol = atom->avec->onemols[atom->molindex[i]];
      if (!mol->specialflag) return {};
      list = mol->special[atom->molatom[i]];
      n = mol->nspecial[atom->molatom[i]];
      offset = atom->tag[i] - atom->molatom[i] - 1;
    }
    std::vector<std::pair<long, int>> partners;
    if (!list) return partners;
    for (int k = 0; k < n[2]; k++)
      partners.emplace_back(list[k] + offset, k < n[0] ? 1 : k < n[1] ? 2 : 3);
    return partners;
  }

  // every rank's special lists, by tag - 1 (\p table sized already; none in an atomic
  // system)
  void gather_special(LAMMPS *lmp, AtomTable &table)
  {
    const Atom *atom = lmp->atom;
    if (atom->molecular == Atom::ATOMIC) return;
    table.special.assign(table.radius.size(), {});
    std::vector<long> mine;    // (tag, partner, level) triples
    for (int i = 0; i < atom->nlocal; i++)
      for (const auto &[partner, level] : special_partners(atom, i))
        mine.insert(mine.end(), {static_cast<long>(atom->tag[i]), partner, level});
    const std::vector<long> all = gathered(mine);
    for (std::size_t k = 0; k < all.size(); k += 3)
      table.special[all[k] - 1].emplace_back(all[k + 1], static_cast<int>(all[k + 2]));
  }

  // the special bits of pair (a, b) (tags) at displacement \p del, -1 if the list
  // leaves it out (NPairBin's rule with find_special: the first entry of b in a's list)
  int special_bits(LAMMPS *lmp, const AtomTable &table, long a, long b, const double *del)
  {
    if (table.special.empty()) return 0;
    for (const auto &[partner, level] : table.special[a - 1]) {
      if (partner != b) continue;
      const int flag = lmp->neighbor->special_flag[level];
      if (flag == 1 || lmp->domain->minimum_image_check(del[0], del[1], del[2])) return 0;
      return flag == 0 ? -1 : level;
    }
    return 0;
  }

  AtomTable gather_atoms(LAMMPS *lmp)
  {
    constexpr int W = 8;    // x, radius, owner, type, mask, molecule
    Atom *atom = lmp->atom;
    // the largest tag, not natoms: lost or deleted atoms leave gaps
    long maxtag = 0, mytag = 0;
    for (int i = 0; i < atom->nlocal; i++) mytag = std::max<long>(mytag, atom->tag[i]);
    MPI_Allreduce(&mytag, &maxtag, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    const int natoms = static_cast<int>(maxtag);
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    std::vector<double> mine(W * natoms, 0.0), all(W * natoms);
    for (int i = 0; i < atom->nlocal; i++) {
      const long t = atom->tag[i] - 1;
      for (int d = 0; d < 3; d++) mine[W * t + d] = atom->x[i][d];
      mine[W * t + 3] = atom->radius[i];
      mine[W * t + 4] = me + 1;
      mine[W * t + 5] = atom->type[i];
      mine[W * t + 6] = atom->mask[i];
      mine[W * t + 7] = atom->molecule ? atom->molecule[i] : 0;
    }
    MPI_Allreduce(mine.data(), all.data(), W * natoms, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    AtomTable table;
    table.x.resize(3 * natoms);
    table.radius.resize(natoms);
    table.owner.resize(natoms);
    table.info.resize(natoms);
    for (int t = 0; t < natoms; t++) {
      for (int d = 0; d < 3; d++) table.x[3 * t + d] = all[W * t + d];
      table.radius[t] = all[W * t + 3];
      table.owner[t] = static_cast<int>(all[W * t + 4]) - 1;
      table.info[t] = {static_cast<int>(all[W * t + 5]), static_cast<int>(all[W * t + 6]),
                       static_cast<long>(all[W * t + 7])};
    }
    return table;
  }

  // the displacement of periodic image shift s = (na, nb, nc): na a + nb b + nc c with
  // the box edge vectors a = (xprd, 0, 0), b = (xy, yprd, 0), c = (xz, yz, zprd)
  std::array<double, 3> image_displacement(const Domain *domain, const std::array<long, 3> &s)
  {
    const double *h = domain->h;
    return {s[0] * h[0] + s[1] * h[5] + s[2] * h[4], s[1] * h[1] + s[2] * h[3], s[2] * h[2]};
  }

  // the image shift whose displacement is nearest to \p del (per periodic dimension)
  std::array<long, 3> image_shift(const Domain *domain, const double *del)
  {
    const double *h = domain->h;
    std::array<long, 3> s{0, 0, 0};
    if (domain->zperiodic) s[2] = std::lround(del[2] / h[2]);
    if (domain->yperiodic) s[1] = std::lround((del[1] - s[2] * h[3]) / h[1]);
    if (domain->xperiodic) s[0] = std::lround((del[0] - s[1] * h[5] - s[2] * h[4]) / h[0]);
    return s;
  }

  // order (a, b, shift) so that a < b, or a == b with the first non-zero shift positive
  PairKey normalized(long a, long b, std::array<long, 3> s, long touching)
  {
    bool flip = a > b;
    if (a == b) {
      for (int d = 0; d < 3; d++)
        if (s[d] != 0) {
          flip = s[d] < 0;
          break;
        }
    }
    if (flip) return {b, a, -s[0], -s[1], -s[2], touching};
    return {a, b, s[0], s[1], s[2], touching};
  }
}    // namespace

ListPairs gather_list(LAMMPS *lmp, int list_index, bool with_history)
{
  NeighList *list = lmp->neighbor->lists[list_index];
  return gather_rows(
      lmp, list->inum, list->ilist, list->numneigh,
      [list](int i, int jj) {
        return list->firstneigh[i][jj];
      },
      with_history);
}

ListPairs gather_rows(LAMMPS *lmp, int inum, const int *ilist, const int *numneigh,
                      const std::function<int(int, int)> &neighbor, bool with_history)
{
  Atom *atom = lmp->atom;
  Domain *domain = lmp->domain;
  const AtomTable table = gather_atoms(lmp);

  ListPairs result;
  std::vector<long> keys;
  long counters[3] = {0, 0, 0};
  for (int ii = 0; ii < inum; ii++) {
    const int i = ilist[ii];
    for (int jj = 0; jj < numneigh[i]; jj++) {
      const int raw = neighbor(i, jj);
      const int j = raw & NEIGHMASK;
      const long bit = (raw >> HISTBITS) & 1;
      counters[0]++;
      if (j == i) counters[1]++;
      double del[3], rsq = 0.0;
      for (int d = 0; d < 3; d++) {
        del[d] = atom->x[i][d] - atom->x[j][d];
        rsq += del[d] * del[d];
      }
      const double radsum = atom->radius[i] + atom->radius[j];
      const long touching = rsq < radsum * radsum;
      if (with_history && bit != touching) counters[2]++;
      if (!with_history && bit) counters[2]++;
      const long special = (raw >> SBBITS) & 3;
      const long a = atom->tag[i], b = atom->tag[j];
      double image[3];    // x_j - x_i beyond the owned positions of a and b
      for (int d = 0; d < 3; d++)
        image[d] =
            atom->x[j][d] - atom->x[i][d] - (table.x[3 * (b - 1) + d] - table.x[3 * (a - 1) + d]);
      const std::array<long, 3> s = image_shift(domain, image);
      const PairKey key = normalized(a, b, s, touching + 2 * special);
      keys.insert(keys.end(), key.begin(), key.end());
    }
  }
  MPI_Allreduce(counters, &result.entries, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(counters + 1, &result.self_pairs, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(counters + 2, &result.wrong_history_bits, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);

  const std::vector<long> all = gathered(keys);
  for (std::size_t k = 0; k < all.size(); k += 6)
    result.counts[{all[k], all[k + 1], all[k + 2], all[k + 3], all[k + 4], all[k + 5]}]++;
  return result;
}

PairCounts oracle(LAMMPS *lmp, ListKind kind, const OracleRule &rule)
{
  Domain *domain = lmp->domain;
  AtomTable table = gather_atoms(lmp);
  gather_special(lmp, table);
  const long n = table.radius.size();
  const double skin = lmp->neighbor->skin;

  PairCounts expected;
  // lamda units per unit length along each lamda direction
  const double *h_inv = domain->h_inv;
  const double per_length[3] = {
      std::sqrt(h_inv[0] * h_inv[0] + h_inv[5] * h_inv[5] + h_inv[4] * h_inv[4]),
      std::sqrt(h_inv[1] * h_inv[1] + h_inv[3] * h_inv[3]), h_inv[2]};
  for (long a = 0; a < n; a++)
    for (long b = a; b < n; b++) {
      if (table.owner[a] < 0 || table.owner[b] < 0) continue;
      if (rule.keep && !rule.keep(table.info[a], table.info[b])) continue;
      const double radsum = table.radius[a] + table.radius[b];
      const double cut = (radsum + skin + rule.margin) * (1.0 + rule.tie_band);
      const double sure = (radsum + skin + rule.margin) * (1.0 - rule.tie_band);
      // image shifts s with |x_b + image(s) - x_a| <= cut possible along each lamda
      // direction d: |lamda_b - lamda_a + s_d| <= cut * per_length[d]
      double del[3], dl[3];
      for (int d = 0; d < 3; d++) del[d] = table.x[3 * b + d] - table.x[3 * a + d];
      dl[0] = h_inv[0] * del[0] + h_inv[5] * del[1] + h_inv[4] * del[2];
      dl[1] = h_inv[1] * del[1] + h_inv[3] * del[2];
      dl[2] = h_inv[2] * del[2];
      int slo[3] = {0, 0, 0}, shi[3] = {0, 0, 0};
      for (int d = 0; d < domain->dimension; d++) {
        if (!domain->periodicity[d]) continue;
        slo[d] = static_cast<int>(std::ceil(-cut * per_length[d] - dl[d]));
        shi[d] = static_cast<int>(std::floor(cut * per_length[d] - dl[d]));
      }
      for (int sx = slo[0]; sx <= shi[0]; sx++)
        for (int sy = slo[1]; sy <= shi[1]; sy++)
          for (int sz = slo[2]; sz <= shi[2]; sz++) {
            std::array<long, 3> s{sx, sy, sz};
            if (a == b && (sx == 0 && sy == 0 && sz == 0)) continue;
            if (a == b && normalized(a, b, s, 0) != PairKey{a, b, sx, sy, sz, 0}) continue;
            const auto shift = image_displacement(domain, s);
            double rsq = 0.0, dx[3];
            for (int d = 0; d < 3; d++) {
              dx[d] = table.x[3 * a + d] - (table.x[3 * b + d] + shift[d]);
              rsq += dx[d] * dx[d];
            }
            if (rsq > cut * cut) continue;
            const int special = special_bits(lmp, table, a + 1, b + 1, dx);
            if (special < 0) continue;
            const PairKey key = normalized(a + 1, b + 1, s, (rsq < radsum * radsum) + 2 * special);
            int count = 1;
            if (kind == ListKind::Full) count = 2;
            if (kind == ListKind::HalfNewtoff)
              count = (sx == 0 && sy == 0 && sz == 0 && table.owner[a] == table.owner[b]) ? 1 : 2;
            expected[key] = rsq < sure * sure ? count : -count;
          }
    }
  return expected;
}

std::string compare(const PairCounts &expected, const PairCounts &found, int max_lines)
{
  std::ostringstream out;
  int lines = 0;
  auto line = [&](const PairKey &k, int want, int got) {
    if (lines++ < max_lines)
      out << "  pair " << k[0] << "-" << k[1] << " shift (" << k[2] << "," << k[3] << "," << k[4]
          << ") touching " << k[5] % 2 << " special " << k[5] / 2 << ": expected " << want
          << ", found " << got << "\n";
  };
  for (const auto &[key, want] : expected) {
    auto it = found.find(key);
    const int got = it == found.end() ? 0 : it->second;
    if (got != want && !(want < 0 && (got == 0 || got == -want))) line(key, want, got);
  }
  for (const auto &[key, got] : found)
    if (!expected.count(key)) line(key, 0, got);
  if (lines > max_lines) out << "  ... " << lines - max_lines << " more\n";
  return out.str();
}

void expect_list_matches(LAMMPS *lmp, int index, ListKind kind, bool history,
                         const std::string &what, const OracleRule &rule)
{
  ASSERT_GE(index, 0) << what;
  // a skip list (pair hybrid) or a copy (occasional list of a compute) is derived
  // from a list that hgrid must build
  const NeighList *list = lmp->neighbor->lists[index];
  while (list->listskip || list->listcopy) list = list->listskip ? list->listskip : list->listcopy;
  const int built = list->index;
  if (!rule.any_builder)
    EXPECT_TRUE(built_by_hgrid(lmp, built)) << what << " is not built by hgrid";
  const ListPairs found = gather_list(lmp, index, history);
  const PairCounts expected = oracle(lmp, kind, rule);
  EXPECT_EQ(found.self_pairs, 0) << what;
  EXPECT_EQ(found.wrong_history_bits, 0) << what;
  const std::string diff = compare(expected, found.counts);
  EXPECT_TRUE(diff.empty()) << what << " differs from the all-pairs oracle:\n" << diff;
  long want = 0;    // pairs in the tie band count as found
  for (const auto &[key, count] : expected) {
    const auto it = found.counts.find(key);
    want += count >= 0 ? count : it == found.counts.end() ? 0 : it->second;
  }
  EXPECT_EQ(found.entries, want) << what;
  if (!rule.may_be_empty) EXPECT_GT(want, 0) << what << ": degenerate test system without pairs";
}

void expect_pair_list_matches_oracle(LAMMPS *lmp, bool newton, const std::string &what,
                                     const OracleRule &rule)
{
  const int half = lammps_find_pair_neighlist(lmp, "gran/hooke/history", 1, 0, 0);
  expect_list_matches(lmp, half, newton ? ListKind::HalfNewton : ListKind::HalfNewtoff, false,
                      "half list of pair gran/hooke/history as run " + what, rule);
}

void expect_lists_match_oracle(LAMMPS *lmp, bool newton, const std::string &what,
                               const OracleRule &rule)
{
  const int full = lammps_request_single_neighlist(
      lmp, "oracle", NeighConst::REQ_FULL | NeighConst::REQ_SIZE, -1.0);
  const int half = lammps_find_pair_neighlist(lmp, "gran/hooke/history", 1, 0, 0);
  expect_list_matches(lmp, half, newton ? ListKind::HalfNewton : ListKind::HalfNewtoff, true,
                      "half list of pair gran/hooke/history " + what, rule);
  expect_list_matches(lmp, full, ListKind::Full, false, "full size list " + what, rule);
}

bool in_group(LAMMPS *lmp, const AtomInfo &a, const std::string &group)
{
  return (a.mask & lmp->group->bitmask[lmp->group->find(group)]) != 0;
}

std::function<bool(const AtomInfo &, const AtomInfo &)> kept_by_exclusions(LAMMPS *lmp)
{
  const LAMMPS_NS::Neighbor *nb = lmp->neighbor;
  if (!nb->exclude) return {};
  struct Rule {
    enum { TYPES, GROUPS, SAME_MOLECULE, OTHER_MOLECULES } kind;
    int a, b;    // the types or the group bits (molecule rules: one group, a = b)
  };
  std::vector<Rule> rules;
  for (int m = 0; m < nb->nex_type; m++)
    rules.push_back({Rule::TYPES, nb->ex1_type[m], nb->ex2_type[m]});
  for (int m = 0; m < nb->nex_group; m++)
    rules.push_back({Rule::GROUPS, nb->ex1_bit[m], nb->ex2_bit[m]});
  for (int m = 0; m < nb->nex_mol; m++)
    rules.push_back({nb->ex_mol_intra[m] ? Rule::SAME_MOLECULE : Rule::OTHER_MOLECULES,
                     nb->ex_mol_bit[m], nb->ex_mol_bit[m]});
  return [rules](const AtomInfo &p, const AtomInfo &q) {
    for (const Rule &r : rules) {
      bool excluded = false;
      switch (r.kind) {
        case Rule::TYPES:
          excluded = (p.type == r.a && q.type == r.b) || (p.type == r.b && q.type == r.a);
          break;
        case Rule::GROUPS:
          excluded = ((p.mask & r.a) && (q.mask & r.b)) || ((p.mask & r.b) && (q.mask & r.a));
          break;
        default:
          excluded = (p.mask & r.a) && (q.mask & r.a) &&
              ((p.molecule == q.molecule) == (r.kind == Rule::SAME_MOLECULE));
      }
      if (excluded) return false;
    }
    return true;
  };
}

std::vector<NamedSystem> accelerator_systems(const std::vector<bool> &newtons, bool with_pl10,
                                             int seed)
{
  struct Dist {
    std::string name, kind;
    double omega;
    int natoms;
  };
  std::vector<Dist> dists = {
      {"mono", "mono", 1.0, 800}, {"bi20", "bi", 20.0, 800}, {"pl100", "powerlaw", 100.0, 1500}};
  if (with_pl10) dists.push_back({"pl10", "powerlaw", 10.0, 1000});
  std::vector<NamedSystem> systems;
  for (const auto &d : dists)
    for (int dim : {2, 3})
      for (bool periodic : {true, false})
        for (bool newton : newtons)
          for (double tilt : {0.0, 0.3}) {
            if (tilt > 0.0 && d.name != "bi20" && d.name != "pl100") continue;
            SystemSpec s;
            s.distribution = d.kind;
            s.omega = d.omega;
            s.natoms = d.natoms;
            s.dimension = dim;
            s.periodic = periodic;
            s.newton = newton;
            s.tilt = tilt;
            s.packing = dim == 2 ? 0.5 : 0.4;
            s.seed = seed + dim;
            systems.push_back({d.name + "_" + std::to_string(dim) + "d_" + (periodic ? "p" : "f") +
                                   (newton ? "_newton" : "_newtoff") + (tilt > 0.0 ? "_tri" : ""),
                               s});
          }
  return systems;
}

double relative_difference(const std::vector<double> &a, const std::vector<double> &b)
{
  EXPECT_EQ(a.size(), b.size());
  double scale = 0.0, diff = 0.0;
  for (std::size_t k = 0; k < std::min(a.size(), b.size()); k++) {
    scale = std::max(scale, std::fabs(a[k]));
    diff = std::max(diff, std::fabs(a[k] - b[k]));
  }
  return diff / scale;
}

std::vector<double> gather_by_tag(LAMMPS *lmp, double **values, int width)
{
  Atom *atom = lmp->atom;
  std::vector<double> mine(width * atom->natoms, 0.0), all(mine.size());
  for (int i = 0; i < atom->nlocal; i++)
    for (int d = 0; d < width; d++) mine[width * (atom->tag[i] - 1) + d] = values[i][d];
  MPI_Allreduce(mine.data(), all.data(), all.size(), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return all;
}

const std::vector<std::string> pour_column = {
    "atom_style sphere 1",
    "atom_modify map array",
    "boundary p p fm",
    "newton off",
    "comm_modify vel yes",
    "region reg block -10 10 -10 10 -0.5 16 units box",
    "create_box 1 reg",
    "neigh_modify delay 0",
    "pair_style gran/hooke/history 2000.0 NULL 50.0 NULL 0.5 0",
    "pair_coeff * *",
    "timestep 0.001",
    "fix 1 all nve/sphere",
    "fix 2 all gravity 1.0 spherical 0.0 -180.0",
    "fix zlower all wall/gran hooke/history 2000.0 NULL 50.0 NULL 0.5 0 zplane 0.0 2000.0",
    "region slab block -9.0 9.0 -9.0 9.0 10.0 15.0 units box"};

void check_at_rebuild(void *ptr, int64_t step, int nlocal, int *, double **, double **f)
{
  auto *c = static_cast<RebuildCheck *>(ptr);
  for (int i = 0; i < nlocal; i++) f[i][0] = f[i][1] = f[i][2] = 0.0;
  if (c->lmp->neighbor->lastcall != step || ::testing::Test::HasFailure()) return;
  if (c->skip_every > 0 && step % c->skip_every == 0) return;
  expect_list_matches(c->lmp, c->list, c->kind, false,
                      "list built at step " + std::to_string(step));
  c->checks++;
}

std::vector<std::string> large_grid_input(bool newton, int side)
{
  const std::string l = std::to_string(side);
  return {std::string("newton ") + (newton ? "on" : "off"),
          "atom_style sphere 1",
          "comm_modify vel yes",
          "region box block 0 " + l + " 0 " + l + " 0 " + l,
          "create_box 1 box",
          "region cluster block 125 175 125 175 125 175",
          "create_atoms 1 random 3000 4711 cluster",
          "variable d atom 2.0*(1.0-random(0,1,815)*0.9)^(-0.5)",
          "set group all diameter v_d",
          "create_atoms 1 single 150 150 150",
          "variable n equal count(all)",
          "set atom ${n} diameter 30",
          "pair_style gran/hooke/history 1000.0 NULL 50.0 NULL 0.5 0",
          "pair_coeff * *",
          "neighbor 0.1 hgrid levels 3 2.2 6.5 30.1",
          "run 0 post no"};
}

std::vector<std::string> intruders_input(const std::string &neigh_modify, const std::string &newton)
{
  return {"units lj",
          "atom_style sphere 1",
          "boundary p p p",
          "newton " + newton,
          "comm_modify vel yes",
          "region box block 0 24.48 0 24.48 0 24.48 units box",
          "create_box 2 box",
          "lattice sc $(1.0/1.02^3)",
          "create_atoms 1 box",
          "create_atoms 2 random 2 77 NULL",
          "set type 1 diameter 1.0",
          "set type 2 diameter 20.0",
          "set group all density 1.0",
          "pair_style gran/hooke/history 1000.0 NULL 50.0 NULL 0.5 0",
          "pair_coeff * *",
          "neighbor 0.2 hgrid",
          "neigh_modify every 1 delay 0 check no " + neigh_modify,
          "velocity all create 0.5 4712 loop geom",
          "fix integrate all nve/sphere",
          "timestep 0.001"};
}

std::unique_ptr<LAMMPS> run_pour(const std::string &neighbor, const std::vector<std::string> &extra,
                                 int steps)
{
  std::unique_ptr<LAMMPS> lmp(make_lammps());
  lmp->input->one("neighbor 0.2 " + neighbor);
  for (const auto &line : pour_column) lmp->input->one(line);
  lmp->input->one("create_atoms 1 single 0 0 0.2 units box");    // smallest size from the start
  lmp->input->one("set atom 1 diameter 0.4 density 1.0");
  for (const auto &line : extra) lmp->input->one(line);
  lmp->input->one(
      "fix ins all pour 1500 1 300719 vol 0.4 50 region slab diam poly 2 0.4 0.6 2.0 0.4");
  lmp->input->one("run " + std::to_string(steps) + " post no");
  return lmp;
}

bool built_by_hgrid(LAMMPS *lmp, int list_index)
{
  if (list_index < 0 || list_index >= lmp->neighbor->nlist) return false;
  return dynamic_cast<NPairHGridBase *>(lmp->neighbor->lists[list_index]->np) != nullptr;
}

bool pair_list_by_hgrid(LAMMPS *lmp)
{
  const auto *pair = lmp->force->pair;
  return pair && pair->list && dynamic_cast<NPairHGridBase *>(pair->list->np) != nullptr;
}

std::string run_lmp(const std::string &lmp, const std::string &name, const std::string &input,
                    const std::string &args)
{
  {
    std::ofstream in(name + ".in");
    in << input;
  }
  const std::string cmd =
      lmp + " " + args + " -in " + name + ".in -log " + name + ".log -screen none -nocite";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream log(name + ".log");
  return std::string(std::istreambuf_iterator<char>(log), {});
}

std::vector<double> read_dump(const std::string &file)
{
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line) && line.rfind("ITEM: ATOMS", 0) != 0) {}
  std::vector<double> values;
  for (double v; in >> v;) values.push_back(v);
  return values;
}

}    // namespace hgrid_testing
