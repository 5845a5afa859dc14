#!/bin/bash
# Packs what run_gpu.sh needs on a GPU machine that reaches no network into KIT (default
# .gpu-kit in the checkout, ignored by git; ~9 MB): the LAMMPS source trimmed to what a
# CUDA granular build compiles (cmake/, src/'s own files, GRANULAR, KOKKOS, MOLECULE,
# STUBS, fmt, nlohmann and the other files the core patch changes), the Kokkos source,
# and GoogleTest's headers and static libraries (Debian's libgtest-dev).
#   usage: examples/benchmarks/gpu/pack_kit.sh [KIT]
#          examples/benchmarks/gpu/pack_kit.sh --prebuilt BUILD [KIT]
#          examples/benchmarks/gpu/pack_kit.sh --cpu BUILD [KIT]
# --prebuilt packs instead the binaries of a CUDA build made here (cuda_check.sh with
# -DHGRID_MPI=OFF: the GPU machine has no MPI) into KIT/prebuilt.tar.gz (~25 MB): lmp,
# test_hgrid_kokkos, the kernel timer (kernel_times.cpp) and the runtime libraries the
# GPU machine may lack (libcudart, libgomp); run_gpu.sh then builds nothing there.
# --cpu adds KIT/cpu-lmp.tar.gz (~6 MB): the lmp of a CPU build without MPI and with the
# OPENMP package (cmake -DHGRID_MPI=OFF -DBUILD_SHARED_LIBS=OFF -DHGRID_ENABLE_TESTING=OFF),
# for the host CPU's serial and threaded builds on the GPU machine (run_gpu.sh's
# HGRID_GPU_HOSTCPU and HGRID_GPU_HOSTTHREADS).
# The LAMMPS source is HGRID_LAMMPS_SOURCE (a folder) or the one a configured build of
# this checkout used (none: pristine_lammps.sh configures build-source, compiling
# nothing); the Kokkos source HGRID_KOKKOS_SOURCE or the snapshot beside the project
# (../shared/third_party).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)

# the dense beds of dense/make_beds.py named in HGRID_GPU_KIT_BEDS (file names in the bed
# cache, comma-separated), gzipped into KIT/beds: the variant bed of gpu_table.py
pack_beds() {    # KIT
  [ -n "${HGRID_GPU_KIT_BEDS:-}" ] || return 0
  mkdir -p "$1/beds"
  for bed in ${HGRID_GPU_KIT_BEDS//,/ }; do
    gzip -c "${HGRID_BEDS_CACHE:-$HOME/.cache/hgrid/beds}/$bed" >"$1/beds/$bed.gz"
    # its statistics, which run_dense.py reads (host_dense.sh)
    cp "${HGRID_BEDS_CACHE:-$HOME/.cache/hgrid/beds}/$bed.json" "$1/beds/" 2>/dev/null || true
  done
}

pack_prebuilt() {    # BUILD KIT
  local build kit=$2 stage lib
  build=$(cd "$1" && pwd)
  for f in lmp unittest/test_hgrid_kokkos; do
    [ -x "$build/$f" ] || { echo "pack_kit.sh: no $build/$f: build it with cuda_check.sh" >&2; exit 1; }
  done
  # (HGRID_KIT_ALLOW_MPI=1: a kit for the machine that built it, run_gpu.sh's HGRID_GPU_SAVE_KIT)
  if [ -z "${HGRID_KIT_ALLOW_MPI:-}" ] && ldd "$build/lmp" | grep -q libmpi; then
    echo "pack_kit.sh: $build/lmp links MPI, which the GPU machine lacks: build with -DHGRID_MPI=OFF" >&2
    exit 1
  fi
  if ! "$root/unittest/kokkos_api.sh" "$build/lmp" | grep -q CUDA; then
    echo "pack_kit.sh: $build/lmp is not a CUDA build (lmp -h names no CUDA API)" >&2
    exit 1
  fi
  stage=$(mktemp -d)
  mkdir -p "$stage/unittest" "$stage/runtime"
  cp "$build/lmp" "$stage/"
  cp "$build/unittest/test_hgrid_kokkos" "$stage/unittest/"
  echo "$build/lmp" >"$stage/lmp_path"
  echo "$(hostname) $(date -u +%FT%TZ), commit $(git -C "$root" rev-parse --short HEAD)$(
    git -C "$root" diff --quiet HEAD -- src unittest || echo ' + uncommitted changes')" >"$stage/built_on"
  for lib in libcudart.so.13 libgomp.so.1; do
    cp -L "$(ldd "$build/lmp" | awk -v l=$lib '$1 == l {print $3}')" "$stage/runtime/$lib"
  done
  "$root/examples/benchmarks/gpu/build_kernel_times.sh" "$stage/runtime/libkernel_times.so"
  g++ -O2 -std=c++17 -shared -fPIC -o "$stage/runtime/libkp_roundtrips.so" \
    "$root/examples/benchmarks/gpu/roundtrips/kp_roundtrips.cpp"
  fresh_kit "$kit"
  tar czf "$kit/prebuilt.tar.gz" -C "$stage" .
  pack_beds "$kit"
  rm -rf "$stage"
  echo "pack_kit.sh: wrote $kit/prebuilt.tar.gz ($(du -sh "$kit/prebuilt.tar.gz" | cut -f1)) from $build"
}

# a kit packed again keeps its CPU lmp (pack_kit.sh --cpu), whichever part is packed
fresh_kit() {    # KIT: emptied, but for cpu-lmp.tar.gz
  local keep=""
  if [ -f "$1/cpu-lmp.tar.gz" ]; then
    keep=$(mktemp -d)
    cp -p "$1/cpu-lmp.tar.gz" "$keep/"
  fi
  rm -rf "$1" && mkdir -p "$1"
  if [ -n "$keep" ]; then
    cp -p "$keep/cpu-lmp.tar.gz" "$1/" && rm -rf "$keep"
  fi
}

# the CPU lmp of BUILD into KIT/cpu-lmp.tar.gz: one file, no MPI, the OPENMP package
pack_cpu() {    # BUILD KIT
  local lmp=$1/lmp stage
  [ -x "$lmp" ] || { echo "pack_kit.sh: no $lmp" >&2; exit 1; }
  if ldd "$lmp" | grep -qE 'libmpi|liblammps'; then
    echo "pack_kit.sh: $lmp links MPI or a shared liblammps: configure with -DHGRID_MPI=OFF -DBUILD_SHARED_LIBS=OFF" >&2
    exit 1
  fi
  if ! "$lmp" -h | grep -A2 '^Installed packages:' | grep -qw OPENMP; then
    echo "pack_kit.sh: $lmp has no OPENMP package" >&2
    exit 1
  fi
  # the benchmark scripts travel with the working tree: an lmp older than hgrid's sources
  # may lack what they read (compute hgrid's phases)
  if [ -n "$(find "$root/src/HGRID" "$root/src/libhgrid" -newer "$lmp" -type f -print -quit)" ]; then
    echo "pack_kit.sh: $lmp is older than src/HGRID or src/libhgrid: build it again" >&2
    exit 1
  fi
  stage=$(mktemp -d)
  cp "$lmp" "$stage/"
  echo "$(hostname) $(date -u +%FT%TZ), commit $(git -C "$root" rev-parse --short HEAD)" >"$stage/built_on"
  mkdir -p "$2"
  tar czf "$2/cpu-lmp.tar.gz" -C "$stage" .
  rm -rf "$stage"
  echo "pack_kit.sh: wrote $2/cpu-lmp.tar.gz ($(du -sh "$2/cpu-lmp.tar.gz" | cut -f1)) from $1"
}

if [ "${1:-}" = "--cpu" ]; then
  pack_cpu "${2:?usage: pack_kit.sh --cpu BUILD [KIT]}" "${3:-$root/.gpu-kit}"
  exit 0
fi
if [ "${1:-}" = "--prebuilt" ]; then
  pack_prebuilt "${2:?usage: pack_kit.sh --prebuilt BUILD [KIT]}" "${3:-$root/.gpu-kit}"
  exit 0
fi
kit=${1:-$root/.gpu-kit}

# --- LAMMPS: the pristine tree a build was patched from, or the folder you name --------
lammps=$("$root/src/lammps-patch/pristine_lammps.sh")    # (a fresh checkout: configured only)

# --- Kokkos ------------------------------------------------------------------------------
kokkos=${HGRID_KOKKOS_SOURCE:-$(ls "$root"/../shared/third_party/kokkos-*.tar.gz 2>/dev/null | head -1 || true)}
if [ -z "$kokkos" ] || [ ! -e "$kokkos" ]; then
  echo "pack_kit.sh: no Kokkos source: set HGRID_KOKKOS_SOURCE to a Kokkos folder or tarball" >&2
  exit 1
fi

fresh_kit "$kit"
mkdir -p "$kit/gtest/include" "$kit/gtest/lib"
folders="GRANULAR KOKKOS MOLECULE STUBS fmt nlohmann"
# the patched files outside these folders and outside src/'s own files (each path once:
# a tarball that holds a file twice does not unpack)
patched=$(cat "$root"/src/lammps-patch/0*.patch | grep -oE '^\+\+\+ b/src/[^[:space:]]+/[^[:space:]]+' |
  cut -c7- | grep -vE "^src/($(echo $folders | tr ' ' '|'))/" || true)
files=$(cd "$lammps" && {
  echo cmake
  find src -maxdepth 1 -type f
  for d in $folders; do echo "src/$d"; done
  echo "$patched"
} | sort -u)
# shellcheck disable=SC2086
tar czf "$kit/lammps.tar.gz" -C "$(dirname "$lammps")" --transform "s,^$(basename "$lammps"),lammps," \
  $(for f in $files; do echo "$(basename "$lammps")/$f"; done)
if [ -d "$kokkos" ]; then
  tar czf "$kit/kokkos.tar.gz" -C "$(dirname "$kokkos")" --exclude .git "$(basename "$kokkos")"
else
  cp "$kokkos" "$kit/kokkos.tar.gz"
fi
cp -r /usr/include/gtest "$kit/gtest/include/"
cp /usr/lib/*/libgtest.a /usr/lib/*/libgtest_main.a "$kit/gtest/lib/"
pack_beds "$kit"
echo "pack_kit.sh: wrote $kit ($(du -sh "$kit" | cut -f1)): LAMMPS from $lammps, Kokkos from $kokkos"
