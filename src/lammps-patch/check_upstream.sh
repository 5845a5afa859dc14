#!/bin/bash
# Shows that each reproducer of upstream/ fails on stock LAMMPS 4 Jul 2026 and passes with
# its own patch of the series alone: builds lmp (GRANULAR, GRANSURF, ASPHERE, OPENMP,
# MOLECULE, MPI; no hgrid) from the pristine LAMMPS source, unpatched and once per
# stock-fix patch, and runs upstream/run_upstream.py with each (ccache makes the patched
# builds incremental).
#   usage: src/lammps-patch/check_upstream.sh [BUILD_ROOT [PATCH ...]]
#          BUILD_ROOT default build-upstream; PATCH: the numbers of the patches to check
#          (e.g. 0034; default all of them), stock is always built and checked
# The LAMMPS source is HGRID_LAMMPS_SOURCE (a folder) or the one a configured build of
# this checkout was patched from. Prints one line per build and case; exits 1 if any
# case does not fail on stock or does not pass with its patch. The reproducers of 0018
# and 0019 (neigh_history_partners, neigh_history_write_restart) fail on stock here;
# those patches need the ones before them (0014-0017), so they pass with the whole
# series (ctest upstream_neigh_history_*), not alone.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/build-upstream}
shift || true
mkdir -p "$out"
out=$(cd "$out" && pwd)

lammps=$("$here/pristine_lammps.sh")

# variant name -> the patch it applies ("" for stock) and the case it must pass
declare -A patch_of=([stock]="" [0001]=0001-gran-hooke-history-limit-damping-after-restart.patch
                     [0002]=0002-fix-neigh-history-omp-threads.patch
                     [0003]=0003-fix-granular-mdr-history-fix-lookup.patch
                     [0004]=0004-neighbor-init-pair-error-leaves-nothing-stale.patch
                     [0025]=0025-granular-model-classic-undamped.patch
                     [0026]=0026-compute-reduce-sumabs-vector.patch
                     [0027]=0027-granular-history-fix-id-survives-restart.patch
                     [0028]=0028-granular-restart-keeps-cutoffs.patch
                     [0029]=0029-granular-rolling-twisting-history-transfer.patch
                     [0030]=0030-comm-tiled-reverse-comm-variable.patch
                     [0031]=0031-granular-history-size-change-refused.patch
                     [0033]=0033-fix-surface-local-border-size.patch
                     [0034]=0034-granular-superellipsoid-history-transfer.patch)
declare -A case_of=([0001]=limit_damping_restart [0002]=neigh_history_omp [0003]=granular_mdr
                    [0004]=init_pair_error [0025]=wall_gran_undamped
                    [0026]=compute_reduce_sumabs [0027]=history_restart_id
                    [0028]=granular_restart_cutoff [0029]=granular_history_transfer
                    [0030]=comm_tiled_history_newton [0031]=granular_history_size
                    [0033]=surface_local_borders [0034]=superellipsoid_history_transfer)

build() {    # variant -> $out/variant/build/lmp
  local v=$1 dir=$out/$1
  if [ ! -x "$dir/build/lmp" ]; then
    rm -rf "$dir/lammps"
    mkdir -p "$dir/lammps"
    cp -r "$lammps/cmake" "$lammps/src" "$dir/lammps/"
    [ -n "${patch_of[$v]}" ] && patch -d "$dir/lammps" -p1 --batch --quiet -i "$here/${patch_of[$v]}"
    CCACHE_BASEDIR=$dir cmake -S "$dir/lammps/cmake" -B "$dir/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DPKG_GRANULAR=on -DPKG_GRANSURF=on -DPKG_ASPHERE=on -DPKG_OPENMP=on -DBUILD_OMP=on -DPKG_MOLECULE=on -DBUILD_MPI=on \
      -DWITH_JPEG=off -DWITH_PNG=off -DWITH_GZIP=off -DWITH_FFMPEG=off -DWITH_CURL=off \
      -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >"$dir/configure.log" 2>&1
    local start=$(date +%s)
    CCACHE_BASEDIR=$dir cmake --build "$dir/build" -j "$(nproc)" --target lmp >"$dir/build.log" 2>&1
    echo "check_upstream.sh: built $v in $(( $(date +%s) - start )) s"
  fi
}

# upstream/init_pair_error.cpp, a library caller, against a build's liblammps.a; its
# exit status with MALLOC_PERTURB_=1 (0 = correct)
library_caller() {
  local dir=$out/$1
  mpicxx -std=c++17 -O1 -fopenmp -I"$dir/lammps/src" "$here/upstream/init_pair_error.cpp" \
    "$dir/build/liblammps.a" -ldl -o "$dir/init_pair_error"
  (cd "$dir" && MALLOC_PERTURB_=1 ./init_pair_error >/dev/null 2>&1)
}

variants=("$@")
[ "${#variants[@]}" -eq 0 ] && mapfile -t variants < <(printf '%s\n' "${!case_of[@]}" | sort)
for v in "${variants[@]}"; do
  if [ -z "${case_of[$v]:-}" ]; then
    echo "check_upstream.sh: no reproducer for patch '$v' (one of: ${!case_of[*]})" >&2
    exit 2
  fi
done

status=0
build stock
echo "== stock LAMMPS: every case must fail"
python3 "$here/upstream/run_upstream.py" --lmp "$out/stock/build/lmp" --workdir "$out/stock/run" \
  --expect fail || status=1
# the cases that need GRANSURF and MPI, or ASPHERE, not in run_upstream.py's default set
python3 "$here/upstream/run_upstream.py" --lmp "$out/stock/build/lmp" --workdir "$out/stock/run" \
  --case surface_local_borders --case superellipsoid_history_transfer --expect fail || status=1
rc=0
library_caller stock || rc=$?
if [ "$rc" -eq 0 ]; then
  echo "PASS init_pair_error (unexpected on stock)"
  status=1
else
  echo "FAIL init_pair_error: the library caller exited $rc"
fi
for v in "${variants[@]}"; do
  build "$v"
  echo "== stock + ${patch_of[$v]}: ${case_of[$v]} must pass"
  if [ "$v" = 0004 ]; then
    rc=0
    library_caller "$v" || rc=$?
    if [ "$rc" -eq 0 ]; then echo "PASS init_pair_error"; else
      echo "FAIL init_pair_error: the library caller exited $rc"
      status=1
    fi
  else
    python3 "$here/upstream/run_upstream.py" --lmp "$out/$v/build/lmp" --workdir "$out/$v/run" \
      --case "${case_of[$v]}" --expect pass || status=1
  fi
done
[ "$status" -eq 0 ] && echo "check_upstream.sh: every reproducer fails on stock and passes with its patch (${variants[*]})"
exit "$status"
