#!/bin/bash
# Builds the kernel timer (kernel_times.cpp, a Kokkos Tools library) into OUT.so; needs
# CUDA's headers and runtime (/usr/local/cuda), no GPU.
#   usage: examples/benchmarks/gpu/build_kernel_times.sh OUT.so
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
g++ -O2 -shared -fPIC -I/usr/local/cuda/include "$here/kernel_times.cpp" \
  -L/usr/local/cuda/lib64 -lcudart -o "$1"
