#!/bin/bash
# Packs what run_gpu.sh needs on a GPU machine that reaches no network into KIT (default
# .gpu-kit in the checkout, ignored by git; ~9 MB): the LAMMPS source trimmed to what a
# CUDA granular build compiles (cmake/, src/'s own files, GRANULAR, KOKKOS, MOLECULE,
# STUBS, fmt, nlohmann and the other files the core patch changes), the Kokkos source,
# and GoogleTest's headers and static libraries (Debian's libgtest-dev).
#   usage: examples/benchmarks/gpu/pack_kit.sh [KIT]
# The LAMMPS source is HGRID_LAMMPS_SOURCE (a folder) or the one a configured build of
# this checkout used; the Kokkos source HGRID_KOKKOS_SOURCE or the snapshot
# beside the project (../shared/third_party).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
kit=${1:-$root/.gpu-kit}

# --- LAMMPS: the pristine tree a build was patched from, or the folder you name --------
lammps=$("$root/src/lammps-patch/pristine_lammps.sh")

# --- Kokkos ------------------------------------------------------------------------------
kokkos=${HGRID_KOKKOS_SOURCE:-$(ls "$root"/../shared/third_party/kokkos-*.tar.gz 2>/dev/null | head -1 || true)}
if [ -z "$kokkos" ] || [ ! -e "$kokkos" ]; then
  echo "pack_kit.sh: no Kokkos source: set HGRID_KOKKOS_SOURCE to a Kokkos folder or tarball" >&2
  exit 1
fi

rm -rf "$kit"
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
echo "pack_kit.sh: wrote $kit ($(du -sh "$kit" | cut -f1)): LAMMPS from $lammps, Kokkos from $kokkos"
