#!/bin/bash
# README command 2: install what is missing, build LAMMPS with hgrid and all tests,
# and run the whole suite (library, oracle, parity, errors; serial and MPI) with ctest;
# then, if a Kokkos source is found, the same LAMMPS with KOKKOS (OpenMP) and its tests,
# its sources checked against LAMMPS' serial MPI stubs (unittest/stubs_check.sh, as the
# GPU kit builds them), and, if nvcc is found too, the CUDA stage (unittest/cuda_check.sh: every hgrid and
# patched KOKKOS source compiled with nvcc for sm_90; no GPU needed).
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
    # neighbor hgrid under KOKKOS (OpenMP backend, build-kokkos): needs a Kokkos source,
    # HGRID_KOKKOS_SOURCE or the snapshot beside the project (../shared/third_party)
    kokkos_source=${HGRID_KOKKOS_SOURCE:-$(ls "$root"/../shared/third_party/kokkos-*.tar.gz 2>/dev/null | head -1 || true)}
    if [ -n "$kokkos_source" ]; then
      "$root/src/bootstrap.sh" "$root/build-kokkos" -DHGRID_ENABLE_TESTING=ON -DHGRID_KOKKOS=OpenMP \
        "-DHGRID_KOKKOS_SOURCE=$kokkos_source"
      ctest --test-dir "$root/build-kokkos" --output-on-failure -L kokkos "$@"
      # the GPU kit builds against LAMMPS' serial MPI stubs (no MPI on the GPU machine)
      "$root/unittest/stubs_check.sh" "$root/build-kokkos"
      if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
        PATH=$PATH:/usr/local/cuda/bin "$root/unittest/cuda_check.sh" "$kokkos_source" "$root/build-cuda"
      else
        echo "hgrid: CUDA stage skipped (no nvcc on PATH or in /usr/local/cuda/bin)"
      fi
    else
      echo "hgrid: Kokkos tests skipped (set HGRID_KOKKOS_SOURCE to a Kokkos source folder or tarball)"
    fi
    ;;
esac
