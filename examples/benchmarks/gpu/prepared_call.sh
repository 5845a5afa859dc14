#!/bin/bash
# The prepared device call (issue "GPU measured"): one command on the lent GPU machine
# with the prebuilt kit (pack_kit.sh --prebuilt build-gpu, with the dense beds), the most
# wanted first, each stage with a deadline so that the call ends inside ~9 minutes:
#   device run, carry [".gpu-kit"], timeout_s 590:  bash examples/benchmarks/gpu/prepared_call.sh
# Everything run_gpu.sh writes is packed into $OUT/gpu-session.tar.gz (the device tool
# brings back at most 8 files); gpu.md, build.log and gpu.csv come back beside it.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
out=${OUT:-/tmp/gpu-out}
work=/tmp/gpu-session && rm -rf "$work" && mkdir -p "$work"
# 1. the Kokkos tests, again with split searches on small systems, then memcheck
export HGRID_GPU_TEST_TIMEOUT=75 HGRID_GPU_TEST_WORDS="kk/split 16"
export HGRID_GPU_MEMCHECK="70:HGridKokkos.RestartKeepsContactHistory:HGridKokkos.SplitSearchesBuildTheSameRows:HGridKokkos.DeviceSortPutsPartnersCloseInMemory:*pl100_3d_p_newtoff:*pl100_2d_f_newtoff"
# 2. the table (50 steps, 45 s a run, no run starts after 250 s): N = 1e6 at every omega,
# the dense beds, N = 1e5 and 1e7 at omega = 100, then the split pass and the atom sort
export HGRID_GPU_STEPS=50 HGRID_GPU_TIMEOUT=45 HGRID_GPU_DEADLINE=250
c=1e6:1:bin,1e6:1:hgrid,1e6:10:bin,1e6:10:hgrid,1e6:30:bin,1e6:30:hgrid,1e6:100:hgrid
c+=,1e5:100:hgrid+bed,1e5:30:bin+bed,1e5:30:hgrid+bed,1e5:10:bin+bed,1e5:10:hgrid+bed
c+=,1e4:100:hgrid+bed_p1e-4,1e4:100:bin+bed_p1e-4:30
c+=,1e5:1:bin,1e5:1:hgrid,1e5:100:hgrid,1e7:100:hgrid:120
c+=,1e6:100:hgrid+splitno,1e6:100:hgrid+sort50,1e5:10:bin,1e5:10:hgrid,1e5:30:bin,1e5:30:hgrid
export HGRID_GPU_CASES=$c
# 3. the kernel timer and the round trips at omega = 30 and 100
export HGRID_GPU_PROFILE=1000000:100:hgrid,1000000:30:hgrid,1000000:30:bin
export HGRID_GPU_ROUNDTRIPS=1e5:30,1e5:100:hgrid
status=0
timeout "${HGRID_GPU_CALL_TIMEOUT:-560}" bash "$root/examples/benchmarks/gpu/run_gpu.sh" "$work" || status=$?
mkdir -p "$out"
cp "$work"/gpu.md "$work"/gpu.csv "$work"/build.log "$out"/ 2>/dev/null
tar czf "$out/gpu-session.tar.gz" -C "$work" .
echo "prepared_call.sh: run_gpu.sh exit $status; $(du -sh "$out/gpu-session.tar.gz" | cut -f1) packed"
exit $status
