#!/bin/bash
# The CUDA stage of the test command (needs nvcc, no GPU): configure BUILD_DIR with
# HGRID_KOKKOS=CUDA and compile with nvcc, for sm_90 unless you name another
# Kokkos_ARCH_*, every source hgrid adds to KOKKOS and every KOKKOS source the core
# patch changes (the list CMake writes, hgrid-cuda-checked-sources.txt), with nvcc's
# cross-execution-space warnings as errors. It fails on any compile error and on any
# cross-execution-space warning in the output (e.g. #20011, a __host__ function
# called from __host__ __device__ code, such as a functor member's copy constructor).
#   usage: unittest/cuda_check.sh KOKKOS_SOURCE [BUILD_DIR] [extra cmake arguments]
#   HGRID_CUDA_FULL=1 also builds the whole lmp and the tests (1-1.5 h cold on 2 cores).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
kokkos_source=$1
build=${2:-$root/build-cuda}
shift $(( $# < 2 ? $# : 2 ))

export CCACHE_BASEDIR="$root"
mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja -DHGRID_KOKKOS=CUDA "-DHGRID_KOKKOS_SOURCE=$kokkos_source" \
  -DHGRID_ENABLE_TESTING=ON "$@" >"$build/hgrid-cuda-configure.log" 2>&1 || {
  cat "$build/hgrid-cuda-configure.log"
  echo "hgrid: CUDA stage: configure failed"
  exit 1
}

# the object of every checked source, from ninja's own list of targets
names=$(xargs -n1 basename <"$build/hgrid-cuda-checked-sources.txt" | sed 's/\./\\./g' | paste -sd'|')
objects=$(ninja -C "$build" -t targets all | grep -oE '^[^:]+\.cpp\.o' | grep -E "/($names)\.o$")
nobj=$(echo "$objects" | wc -l)
nsrc=$(wc -l <"$build/hgrid-cuda-checked-sources.txt")
if [ "$nobj" -ne "$nsrc" ]; then
  echo "hgrid: CUDA stage: $nsrc checked sources but $nobj objects found"
  exit 1
fi
targets=$objects
[ "${HGRID_CUDA_FULL:-0}" = 1 ] && targets="all"

log="$build/hgrid-cuda-compile.log"
start=$(date +%s)
status=0
# -k 0: every checked source is compiled, so one run shows all that fail
# shellcheck disable=SC2086
ninja -C "$build" -k 0 -j "$(nproc)" $targets >"$log" 2>&1 || status=$?
seconds=$(( $(date +%s) - start ))
grep -E '^\[[0-9]+/[0-9]+\] Building' "$log" | sed 's/^.* object //' || true
crossing=$(grep -cE 'warning #200(11|14)|cross-execution|calling a __host__ function' "$log" || true)
if [ "$status" -ne 0 ] || [ "$crossing" -ne 0 ]; then
  grep -E -B2 -A6 'error|warning #200(11|14)|calling a __host__' "$log" | head -80
  echo "hgrid: CUDA stage FAILED (ninja exit $status, $crossing cross-execution-space warnings; log $log)"
  exit 1
fi
what="$nobj checked sources"
[ "$targets" = all ] && what="the whole lmp and the tests ($nobj checked sources among them)"
echo "hgrid: CUDA stage passed: $what compiled with nvcc, no error and no cross-execution-space" \
     "warning, in ${seconds} s"
