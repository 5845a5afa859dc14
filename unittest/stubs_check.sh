#!/bin/bash
# The serial-MPI check of the test command: the GPU machine has no MPI, so its kit
# (examples/benchmarks/gpu) builds LAMMPS against its serial stubs (src/STUBS/mpi.h),
# whose functions take non-const buffers (MPI_Allreduce(void *, ...)); CI builds with
# Open MPI. This compiles, syntax only, every source the kit builds that this project
# wrote or patched (src/, unittest/lammps/, the LAMMPS files of the patch series)
# with BUILD_DIR's own compile commands, the stubs' mpi.h first and Open MPI's headers
# left out, so that a call the stubs do not accept fails here, not on a lent device.
#   usage: unittest/stubs_check.sh BUILD_DIR [TARGET]    (TARGET: unittest/test_hgrid_kokkos)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "$1" && pwd)
target=${2:-unittest/test_hgrid_kokkos}
stubs="$build/lammps-patched/src/STUBS"
[ -f "$stubs/mpi.h" ] || { echo "hgrid: stubs check: no $stubs/mpi.h"; exit 1; }

# the LAMMPS files the patch series changes (written by the configure step)
patched=$(sed "s|^|$build/lammps-patched/|" "$build/hgrid-patched-files.txt")
commands=$(mktemp)
trap 'rm -f "$commands"' EXIT
ninja -C "$build" -t commands "$target" | grep -E ' -c [^ ]+\.cpp' | while read -r line; do
  src=$(grep -oE ' -c [^ ]+' <<<"$line" | cut -c5-)
  case "$src" in
    "$root"/src/* | "$root"/unittest/lammps/*) ;;
    *) grep -qxF "$src" <<<"$patched" || continue ;;
  esac
  # -o OBJ and -c SRC become -fsyntax-only SRC, no dependency file; the stubs' folder
  # goes before the first include folder, Open MPI's are dropped
  sed -E -e 's| -o [^ ]+| |' -e 's| -c ([^ ]+)| -fsyntax-only \1|' -e 's# -M(D|T [^ ]+|F [^ ]+)##g' \
    -e 's|-isystem [^ ]*openmpi[^ ]*||g' -e "s| -I| -I$stubs -I|" <<<"$line"
done >"$commands"
n=$(wc -l <"$commands")
[ "$n" -gt 0 ] || { echo "hgrid: stubs check: no source of $target found in $build"; exit 1; }
start=$(date +%s)
# one shell per command line, run in the build folder as ninja runs them
if ! (cd "$build" && xargs -d '\n' -P "$(nproc)" -n 1 bash -c <"$commands") \
  >"$build/hgrid-stubs-check.log" 2>&1; then
  grep -E -A4 'error' "$build/hgrid-stubs-check.log" | head -60 ||
    tail -20 "$build/hgrid-stubs-check.log"
  echo "hgrid: stubs check FAILED: a source does not compile against LAMMPS' serial MPI stubs" \
       "(log $build/hgrid-stubs-check.log)"
  exit 1
fi
echo "hgrid: stubs check: $n sources compile against LAMMPS' serial MPI stubs, in" \
     "$(( $(date +%s) - start )) s"
