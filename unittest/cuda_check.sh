#!/bin/bash
# The CUDA stage of the test command (needs nvcc, no GPU): configure BUILD_DIR with
# HGRID_KOKKOS=CUDA and compile with nvcc, for sm_90 unless you name another
# Kokkos_ARCH_*, every source hgrid adds to KOKKOS and every KOKKOS source the core
# patch changes (the list CMake writes, hgrid-cuda-checked-sources.txt), with nvcc's
# cross-execution-space warnings as errors. It fails on any compile error and on any
# cross-execution-space warning in the output (e.g. #20011, a __host__ function
# called from __host__ __device__ code, such as a functor member's copy constructor).
# Then it builds and links the whole CUDA lmp and test_hgrid_kokkos (~21 min cold on 2
# cores, ccache makes a rebuild fast), again failing on any such warning, and checks
# that lmp -h reports the CUDA API (read through CUDA's libcuda stub where no driver
# is installed); HGRID_CUDA_FULL=0 stops after the checked sources.
#   usage: unittest/cuda_check.sh KOKKOS_SOURCE [BUILD_DIR] [extra cmake arguments]
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
# one ninja run: its exit status, its log, the Building lines; fails the stage on an
# error or a cross-execution-space warning
compile() {    # label, targets...
  local label=$1 log="$build/hgrid-cuda-$1.log" start status=0 crossing
  shift
  start=$(date +%s)
  # -k 0: every target is tried, so one run shows all that fail
  ninja -C "$build" -k 0 -j "$(nproc)" "$@" >"$log" 2>&1 || status=$?
  seconds=$(( $(date +%s) - start ))
  crossing=$(grep -cE 'warning #200(11|14)|cross-execution|calling a __host__ function' "$log" || true)
  if [ "$status" -ne 0 ] || [ "$crossing" -ne 0 ]; then
    grep -E -B2 -A6 'error|warning #200(11|14)|calling a __host__' "$log" | head -80
    echo "hgrid: CUDA stage FAILED in $label (ninja exit $status, $crossing cross-execution-space" \
         "warnings; log $log)"
    exit 1
  fi
}

# shellcheck disable=SC2086
compile checked $objects
grep -E '^\[[0-9]+/[0-9]+\] Building' "$build/hgrid-cuda-checked.log" | sed 's/^.* object //' || true
echo "hgrid: CUDA stage: $nobj checked sources compiled with nvcc, no error and no" \
     "cross-execution-space warning, in ${seconds} s"
[ "${HGRID_CUDA_FULL:-1}" = 0 ] && exit 0

compile whole lmp test_hgrid_kokkos
api=$("$root/unittest/kokkos_api.sh" "$build/lmp")
if [[ "$api" != *CUDA* ]]; then
  echo "hgrid: CUDA stage FAILED: lmp -h reports '${api:-no KOKKOS package API}', not CUDA"
  exit 1
fi
echo "hgrid: CUDA stage passed: the whole lmp and test_hgrid_kokkos built and linked with nvcc in" \
     "${seconds} s, no error and no cross-execution-space warning; lmp -h: $api"
