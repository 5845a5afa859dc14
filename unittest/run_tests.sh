#!/bin/bash
# README command 2: install what is missing, build LAMMPS with hgrid and all tests,
# and run the whole suite (library, oracle, parity, errors; serial and MPI) with ctest.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/src/bootstrap.sh" "$root/build" -DHGRID_ENABLE_TESTING=ON
ctest --test-dir "$root/build" --output-on-failure "$@"
