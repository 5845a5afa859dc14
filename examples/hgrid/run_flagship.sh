#!/bin/bash
# README command 1: install what is missing, build LAMMPS with hgrid, and run the
# flagship example (20000 polydisperse spheres, size ratio 20) under neighbor bin,
# multi and hgrid, printing a comparison table.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# the tests are not needed here, but a build folder the test command configured keeps
# them: turning them off would leave their old executables for ctest to run
testing=OFF
grep -qs '^HGRID_ENABLE_TESTING:BOOL=ON' "$root/build/CMakeCache.txt" && testing=ON
"$root/src/bootstrap.sh" "$root/build" -DHGRID_ENABLE_TESTING=$testing
mkdir -p "$root/build/flagship"
python=python3
[ -x /usr/bin/python3 ] && python=/usr/bin/python3    # Debian's, with matplotlib
"$python" "$here/compare_styles.py" --lmp "$root/build/lmp" --input "$here/in.hgrid.powerlaw" \
  --workdir "$root/build/flagship" --same-pairs "$@"
