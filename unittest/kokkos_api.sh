#!/bin/bash
# Prints the "KOKKOS package API: ..." line of `LMP -h` (nothing if there is none).
# Without an NVIDIA driver a CUDA lmp cannot start (no libcuda.so.1); then CUDA's stub
# library answers for -h, which initialises no device.
#   usage: unittest/kokkos_api.sh LMP
lmp=$1
api=$("$lmp" -h 2>/dev/null | grep -E "KOKKOS package API")
if [ -z "$api" ] && [ -f /usr/local/cuda/lib64/stubs/libcuda.so ]; then
  stub=$(mktemp -d)
  ln -s /usr/local/cuda/lib64/stubs/libcuda.so "$stub/libcuda.so.1"
  api=$(LD_LIBRARY_PATH=$stub "$lmp" -h 2>/dev/null | grep -E "KOKKOS package API")
  rm -rf "$stub"
fi
echo "$api"
