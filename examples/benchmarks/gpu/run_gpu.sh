#!/bin/bash
# One command for the GPU: builds the CUDA lmp and the Kokkos tests (HGRID_KOKKOS=CUDA,
# Hopper unless HGRID_GPU_ARCH names another Kokkos_ARCH_*), runs the Kokkos tests on the
# GPU (hgrid_kokkos: oracle cases, contact history against kk bin, restart), then the GPU
# table (gpu_table.py: kk bin and kk hgrid, N x omega), and writes to OUT:
#   build.log  kokkos-tests.log  table.log  gpu.csv  gpu.md  nvidia-smi.txt  logs.tar.gz
# Without a GPU (nvidia-smi finds none) it does every step up to the GPU run and says
# that it stops there.
#   usage: examples/benchmarks/gpu/run_gpu.sh OUT
# Sources: the kit .gpu-kit (pack_kit.sh; for a machine without network) where present,
# else HGRID_LAMMPS_SOURCE (empty: Debian's download) and HGRID_KOKKOS_SOURCE (or
# ../shared/third_party). No MPI on the machine: built with LAMMPS' serial stubs.
# Knobs: HGRID_GPU_N (default 1e5,1e6,1e7), HGRID_GPU_OMEGA (1,10,30,100),
# HGRID_GPU_STEPS (20), HGRID_GPU_TIMEOUT (seconds per run, 90), HGRID_GPU_BUILD (build-gpu).
# On the lent device (16 cores, H100): pack_kit.sh here, then run with carry .gpu-kit:
#   bash examples/benchmarks/gpu/run_gpu.sh $OUT
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
build=${HGRID_GPU_BUILD:-$root/build-gpu}
kit=${HGRID_GPU_KIT:-$root/.gpu-kit}
export PATH=$PATH:/usr/local/cuda/bin
log() { echo "hgrid gpu: $*" | tee -a "$out/build.log"; }
: >"$out/build.log"

# --- 1. configure and build (every step a machine without GPU can do) ---------------------
# unittest/cuda_check.sh: the checked sources, then lmp and test_hgrid_kokkos, each
# failing on an error or a cross-execution-space warning, and lmp -h's CUDA API
args=("-DKokkos_ARCH_${HGRID_GPU_ARCH:-HOPPER90}=ON")
lammps=${HGRID_LAMMPS_SOURCE:-}
kokkos=${HGRID_KOKKOS_SOURCE:-}
[ -z "$lammps" ] && [ -f "$kit/lammps.tar.gz" ] && lammps=$kit/lammps.tar.gz
[ -z "$kokkos" ] && [ -f "$kit/kokkos.tar.gz" ] && kokkos=$kit/kokkos.tar.gz
[ -z "$kokkos" ] && kokkos=$(ls "$root"/../shared/third_party/kokkos-*.tar.gz 2>/dev/null | head -1 || true)
if [ -z "$kokkos" ]; then
  log "no Kokkos source: set HGRID_KOKKOS_SOURCE or pack a kit (pack_kit.sh)"
  exit 1
fi
[ -n "$lammps" ] && args+=("-DHGRID_LAMMPS_SOURCE=$lammps")
if ! command -v mpicxx >/dev/null; then
  args+=(-DHGRID_MPI=OFF)
  log "no MPI here: LAMMPS with its serial MPI stubs (no test on several ranks)"
fi
if [ ! -f /usr/include/gtest/gtest.h ] && [ -d "$kit/gtest" ]; then
  args+=("-DGTEST_ROOT=$kit/gtest")
fi
if ! command -v nvcc >/dev/null; then
  log "no nvcc on PATH or in /usr/local/cuda/bin: a CUDA build needs the CUDA toolkit"
  exit 1
fi
log "build $build with Kokkos $kokkos: ${args[*]}"
status=0
HGRID_CUDA_FULL=1 "$root/unittest/cuda_check.sh" "$kokkos" "$build" "${args[@]}" >>"$out/build.log" 2>&1 ||
  status=$?
grep '^hgrid: CUDA stage' "$out/build.log" || true
[ "$status" -eq 0 ] || { log "build FAILED (see build.log)"; exit 1; }

# --- 2. the GPU ---------------------------------------------------------------------------
if ! nvidia-smi -L >"$out/nvidia-smi.txt" 2>&1 || ! grep -q GPU "$out/nvidia-smi.txt"; then
  log "no GPU on this machine (nvidia-smi finds none): the CUDA lmp and the Kokkos tests are" \
      "built; stopping here, before the GPU run (Kokkos tests on the GPU, GPU table)"
  exit 0
fi
nvidia-smi >>"$out/nvidia-smi.txt"
log "GPU: $(head -1 "$out/nvidia-smi.txt")"

tests=0
ctest --test-dir "$build" -L kokkos --output-on-failure --timeout 900 >"$out/kokkos-tests.log" 2>&1 || tests=$?
log "Kokkos tests on the GPU: $(grep -E 'tests passed|tests failed' "$out/kokkos-tests.log" || echo 'no summary')"

table=0
python3 "$root/examples/benchmarks/gpu/gpu_table.py" --lmp "$build/lmp" --out "$out" \
  --workdir "$build/gpu-logs" --n "${HGRID_GPU_N:-1e5,1e6,1e7}" \
  --omega "${HGRID_GPU_OMEGA:-1,10,30,100}" --steps "${HGRID_GPU_STEPS:-20}" \
  --timeout "${HGRID_GPU_TIMEOUT:-90}" >"$out/table.log" 2>&1 || table=$?
tar czf "$out/logs.tar.gz" -C "$build" gpu-logs 2>/dev/null || true
cat "$out/gpu.md" 2>/dev/null || tail -20 "$out/table.log"
log "done: Kokkos tests exit $tests, table exit $table; files in $out"
[ "$tests" -eq 0 ] && [ "$table" -eq 0 ]
