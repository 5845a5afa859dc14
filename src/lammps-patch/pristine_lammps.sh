#!/bin/bash
# Prints the pristine LAMMPS source folder of this checkout: HGRID_LAMMPS_SOURCE if it is
# a folder, else the one a configured build (build*/) copied and patched (a tarball or
# Debian's download is unpacked by the build first). Exits 1, saying why, if none.
#   usage: src/lammps-patch/pristine_lammps.sh
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if [ -d "${HGRID_LAMMPS_SOURCE:-}" ]; then
  cd "$HGRID_LAMMPS_SOURCE" && pwd
  exit 0
fi
for stamp in "$root"/build*/lammps-patched/.hgrid-stamp; do
  [ -f "$stamp" ] && cut -d'|' -f1 "$stamp" && exit 0
done
echo "no LAMMPS source folder: set HGRID_LAMMPS_SOURCE to one, or configure a build first" \
     "(bash unittest/run_tests.sh)" >&2
exit 1
