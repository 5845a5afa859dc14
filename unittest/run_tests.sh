#!/bin/bash
# README command 2: install what is missing, build LAMMPS with hgrid and all tests,
# and run the whole suite (library, oracle, parity, errors; serial and MPI) with ctest.
#   HGRID_SANITIZE=1 bash unittest/run_tests.sh   the same suite with ASan + UBSan, built
#                                                  in build-asan (-DHGRID_SANITIZE=ON); the
#                                                  build sets ASAN_OPTIONS/UBSAN_OPTIONS for
#                                                  ctest unless you set them yourself
# Extra arguments go to ctest (e.g. -R oracle).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
case "${HGRID_SANITIZE:-0}" in
  1|ON|on|yes|true)
    export HGRID_SANITIZE=1    # also tells examples/benchmarks/run_bench.py
    "$root/src/bootstrap.sh" "$root/build-asan" -DHGRID_ENABLE_TESTING=ON -DHGRID_SANITIZE=ON
    ctest --test-dir "$root/build-asan" --output-on-failure "$@"
    ;;
  *)
    "$root/src/bootstrap.sh" "$root/build" -DHGRID_ENABLE_TESTING=ON
    ctest --test-dir "$root/build" --output-on-failure "$@"
    ;;
esac
