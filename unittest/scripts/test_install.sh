#!/bin/bash
# cmake --install of a build into a fresh prefix, then the prefix moved elsewhere (nothing
# may point back into the build folder), then the installed lmp runs the flagship input
# (in.hgrid.powerlaw, small) under hgrid and bin: same pairs, hgrid's planner in the log.
#   usage: test_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "cmake --install $build failed"; }
mv "$work/prefix" "$work/moved"    # relocatable: lmp finds liblammps by $ORIGIN
p=$work/moved
for f in bin/lmp share/doc/hgrid/README.md share/doc/hgrid/src/neighbor_hgrid.rst \
         share/doc/hgrid/examples/hgrid/in.hgrid.powerlaw include/lammps/library.h \
         include/lammps/libhgrid/planner.h; do
  [ -e "$p/$f" ] || fail "the install lacks $f"
done
lib=$(ls "$p"/lib*/liblammps.so* 2>/dev/null | head -1 || true)
if grep -qs '^BUILD_SHARED_LIBS:BOOL=ON' "$build/CMakeCache.txt"; then
  [ -n "$lib" ] || fail "a shared build installs no liblammps.so"
  [ -e "$p"/lib*/cmake/LAMMPS/LAMMPS_Targets.cmake ] || fail "no LAMMPS CMake package"
  resolved=$(ldd "$p/bin/lmp" | awk '$1 ~ /^liblammps/ {print $3}')
  case "$resolved" in
    "$p"/*) echo "ok   lmp loads $resolved" ;;
    *) fail "the installed lmp loads liblammps from '$resolved', not from the prefix $p" ;;
  esac
fi
cd "$work"
pairs() {    # STYLE -> the pair count of a 20-step run
  env -u LD_LIBRARY_PATH OMP_NUM_THREADS=1 "$p/bin/lmp" -in "$p/share/doc/hgrid/examples/hgrid/in.hgrid.powerlaw" \
    -log "log.$1" -screen none -nocite -var style "$1" -var n 3000 -var steps 20 >/dev/null 2>&1 ||
    fail "the installed lmp failed on in.hgrid.powerlaw with style $1 (log.$1: $(tail -3 "log.$1" 2>/dev/null))"
  sed -n 's/^Total # of neighbors = //p' "log.$1"
}
h=$(pairs hgrid) b=$(pairs bin)
grep -q "hgrid" log.hgrid || fail "no hgrid line in the installed lmp's log"
[ -n "$h" ] && [ "$h" -gt 0 ] && [ "$h" = "$b" ] || fail "pairs: hgrid '$h', bin '$b'"
echo "ok   the installed lmp (prefix moved after the install) runs in.hgrid.powerlaw: hgrid $h pairs = bin $b"
# a program of the user's built against the installed CMake package (LAMMPS::lammps, which
# links hgrid's library from the same package) runs an hgrid input through the C library API
if [ -n "$lib" ]; then
  mkdir -p "$work/user"
  cat >"$work/user/CMakeLists.txt" <<'X'
cmake_minimum_required(VERSION 3.20)
project(user_of_lammps LANGUAGES CXX C)
find_package(LAMMPS REQUIRED)
add_executable(user user.cpp)
target_link_libraries(user PRIVATE LAMMPS::lammps)
X
  cat >"$work/user/user.cpp" <<'X'
#include "library.h"
#include <cstdio>
int main()
{
  const char *args[] = {"user", "-log", "none", "-screen", "none", "-nocite"};
  const char *lines[] = {"atom_style sphere", "region b block 0 20 0 20 0 20", "create_box 1 b",
                         "create_atoms 1 random 500 7 NULL", "variable d atom 1+9*random(0,1,7)",
                         "set group all diameter v_d", "set group all density 1",
                         "comm_modify vel yes", "pair_style gran/hooke 1000 NULL 50 NULL 0.5 0",
                         "pair_coeff * *", "neighbor 0.1 hgrid", "compute hg all hgrid",
                         "run 0"};
  void *lmp = lammps_open_no_mpi(6, const_cast<char **>(args), nullptr);
  lammps_commands_list(lmp, sizeof(lines) / sizeof(lines[0]), lines);
  const int errors = lammps_has_error(lmp);
  const auto *hg = static_cast<double *>(
      lammps_extract_compute(lmp, "hg", LMP_STYLE_GLOBAL, LMP_TYPE_VECTOR));
  const int list = lammps_find_pair_neighlist(lmp, "gran/hooke", 1, 0, 0);
  const int rows = list < 0 ? 0 : lammps_neighlist_num_elements(lmp, list);
  const double levels = hg ? hg[0] : 0.0;
  std::printf("user program: %d errors, hgrid levels %g, %d list rows\n", errors, levels, rows);
  lammps_close(lmp);
  return (errors || levels < 2 || rows != 500) ? 1 : 0;
}
X
  { cmake -S "$work/user" -B "$work/user/build" -G Ninja -DCMAKE_PREFIX_PATH="$p" &&
    cmake --build "$work/user/build"; } >"$work/user.log" 2>&1 ||
    { tail -20 "$work/user.log"; fail "a program against the installed LAMMPS CMake package did not build"; }
  env -u LD_LIBRARY_PATH "$work/user/build/user" || fail "the program against the installed LAMMPS failed"
  echo "ok   a program built against the installed CMake package (find_package(LAMMPS)) runs neighbor hgrid"
fi
echo "install: all checks pass"
