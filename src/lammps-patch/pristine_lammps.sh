#!/bin/bash
# Prints the pristine LAMMPS source folder of this checkout: HGRID_LAMMPS_SOURCE if it is
# a folder, else the one a configured build (build*/) copied and patched (a tarball or
# Debian's download is unpacked by the build first). A checkout without a configured
# build gets one, configured only (build-source: the download and unpacking, under a
# minute; nothing compiled). Exits 1, saying why, if that fails.
#   usage: src/lammps-patch/pristine_lammps.sh
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if [ -d "${HGRID_LAMMPS_SOURCE:-}" ]; then
  cd "$HGRID_LAMMPS_SOURCE" && pwd
  exit 0
fi
stamped() {
  for stamp in "$root"/build*/lammps-patched/.hgrid-stamp; do
    [ -f "$stamp" ] && cut -d'|' -f1 "$stamp" && return 0
  done
  return 1
}
stamped && exit 0
echo "pristine_lammps.sh: no configured build: configuring $root/build-source for the LAMMPS source" >&2
mkdir -p "$root/build-source"
if ! cmake -S "$root" -B "$root/build-source" -DHGRID_ENABLE_TESTING=OFF -DHGRID_MPI=OFF \
     >"$root/build-source/configure.log" 2>&1 || ! stamped; then
  tail -20 "$root/build-source/configure.log" >&2
  echo "no LAMMPS source folder: set HGRID_LAMMPS_SOURCE to one, or configure a build first" \
       "(bash unittest/run_tests.sh)" >&2
  exit 1
fi
