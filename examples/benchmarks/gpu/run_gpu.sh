#!/bin/bash
# One command for the GPU: builds the CUDA lmp and the Kokkos tests (HGRID_KOKKOS=CUDA,
# Hopper unless HGRID_GPU_ARCH names another Kokkos_ARCH_*), runs the Kokkos tests on the
# GPU (hgrid_kokkos: oracle cases, contact history against kk bin, restart), then the GPU
# table (gpu_table.py: kk bin and kk hgrid, N x omega), and writes to OUT:
#   build.log  kokkos-tests.log  table.log  gpu.csv  gpu.md  nvidia-smi.txt  logs.tar.gz
#   profile.tar.gz (with HGRID_GPU_PROFILE)
# Without a GPU (nvidia-smi finds none) it does every step up to the GPU run and says
# that it stops there.
#   usage: examples/benchmarks/gpu/run_gpu.sh OUT
# Sources: the kit .gpu-kit (pack_kit.sh; for a machine without network) where present,
# else HGRID_LAMMPS_SOURCE (empty: Debian's download) and HGRID_KOKKOS_SOURCE (or
# ../shared/third_party). No MPI on the machine: built with LAMMPS' serial stubs.
# With a kit packed by `pack_kit.sh --prebuilt BUILD` (lmp, test_hgrid_kokkos and the
# kernel timer built with nvcc on a machine without GPU) the GPU machine builds nothing:
# step 1 unpacks them, so its time goes to the tests and the table.
# Knobs: HGRID_GPU_N (default 1e5,1e6,1e7), HGRID_GPU_OMEGA (1,10,30,100),
# HGRID_GPU_STEPS (20), HGRID_GPU_TIMEOUT (seconds per run, 90), HGRID_GPU_BUILD (build-gpu),
# HGRID_GPU_CASES (N:OMEGA:STYLE[:TIMEOUT],... run in that order instead of N x OMEGA),
# HGRID_GPU_DEADLINE (seconds after the table starts: no run starts later),
# HGRID_GPU_PROFILE (N:OMEGA:STYLE,...: each run timed kernel by kernel, kernel_times.cpp),
# HGRID_GPU_NCU (N:OMEGA:STYLE:REGEX,...: Nsight Compute counters of one kernel),
# HGRID_GPU_ROUNDTRIPS (N:OMEGA[:bin/hgrid],...: kk bin's and kk hgrid's round trips per step),
# HGRID_GPU_TEST_WORDS (the oracle tests again with these neighbor words), HGRID_GPU_MEMCHECK
# (SECONDS[:GTEST_FILTER]: the tests under compute-sanitizer memcheck), HGRID_GPU_BEDS (the
# dense beds' folder; default the kit's beds/), and the host CPU's stages (HOSTTHREADS,
# HOSTDENSE, HOSTCPU: see them below).
# On the lent device (16 cores, H100): pack_kit.sh here, then run with carry .gpu-kit:
#   bash examples/benchmarks/gpu/run_gpu.sh $OUT
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
build=${HGRID_GPU_BUILD:-$root/build-gpu}
kit=${HGRID_GPU_KIT:-$root/.gpu-kit}
here=$root/examples/benchmarks/gpu
export PATH=$PATH:/usr/local/cuda/bin
log() { echo "hgrid gpu: $*" | tee -a "$out/build.log"; }
: >"$out/build.log"

# --- 1. configure and build (every step a machine without GPU can do) ---------------------
# unittest/cuda_check.sh: the checked sources, then lmp and test_hgrid_kokkos, each
# failing on an error or a cross-execution-space warning, and lmp -h's CUDA API
build_here() {
  local args=("-DKokkos_ARCH_${HGRID_GPU_ARCH:-HOPPER90}=ON") status=0
  local lammps=${HGRID_LAMMPS_SOURCE:-} kokkos=${HGRID_KOKKOS_SOURCE:-}
  [ -z "$lammps" ] && [ -f "$kit/lammps.tar.gz" ] && lammps=$kit/lammps.tar.gz
  [ -z "$kokkos" ] && [ -f "$kit/kokkos.tar.gz" ] && kokkos=$kit/kokkos.tar.gz
  [ -z "$kokkos" ] && kokkos=$(ls "$root"/../shared/third_party/kokkos-*.tar.gz 2>/dev/null | head -1 || true)
  if [ -z "$kokkos" ]; then
    log "no Kokkos source: set HGRID_KOKKOS_SOURCE or pack a kit (pack_kit.sh)"
    exit 1
  fi
  [ -n "$lammps" ] && args+=("-DHGRID_LAMMPS_SOURCE=$lammps")
  if ! command -v mpicxx >/dev/null; then
    args+=(-DHGRID_MPI=OFF)
    log "no MPI here: LAMMPS with its serial MPI stubs (no test on several ranks)"
  fi
  if [ ! -f /usr/include/gtest/gtest.h ] && [ -d "$kit/gtest" ]; then
    args+=("-DGTEST_ROOT=$kit/gtest")
  fi
  if ! command -v nvcc >/dev/null; then
    log "no nvcc on PATH or in /usr/local/cuda/bin: a CUDA build needs the CUDA toolkit"
    exit 1
  fi
  log "build $build with Kokkos $kokkos: ${args[*]}"
  HGRID_CUDA_FULL=1 "$root/unittest/cuda_check.sh" "$kokkos" "$build" "${args[@]}" \
    >>"$out/build.log" 2>&1 || status=$?
  grep '^hgrid: CUDA stage' "$out/build.log" || true
  [ "$status" -eq 0 ] || { log "build FAILED (see build.log)"; exit 1; }
  mkdir -p "$build/runtime"
  "$here/build_kernel_times.sh" "$build/runtime/libkernel_times.so"
}

# the binaries pack_kit.sh --prebuilt packed: the test binary runs lmp by the path it
# was built with; the runtime libraries (CUDA's runtime, OpenMP) go on the library
# path only where this machine lacks one of them
unpack_prebuilt() {
  rm -rf "$build" && mkdir -p "$build"
  tar xzf "$kit/prebuilt.tar.gz" -C "$build"
  local lmp_path
  lmp_path=$(cat "$build/lmp_path")
  if [ "$lmp_path" != "$build/lmp" ] && [ ! -e "$lmp_path" ]; then
    mkdir -p "$(dirname "$lmp_path")" && ln -s "$build/lmp" "$lmp_path"
  fi
  if ldd "$build/lmp" | grep -q 'not found'; then
    export LD_LIBRARY_PATH="$build/runtime${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  fi
  log "prebuilt binaries from the kit: $(cat "$build/built_on")"
  ldd "$build/lmp" | grep 'not found' | sed 's/^/hgrid gpu: still missing: /' || true
}

prebuilt=0
if [ -f "$kit/prebuilt.tar.gz" ]; then
  prebuilt=1
  build=${HGRID_GPU_BUILD:-$root/build-gpu-prebuilt}    # never a build of this checkout
  unpack_prebuilt
else
  build_here
  # HGRID_GPU_SAVE_KIT=DIR: the binaries just built packed there as a prebuilt kit (with the
  # kit's beds), so that a second call on the same, still warm machine builds nothing
  if [ -n "${HGRID_GPU_SAVE_KIT:-}" ]; then
    HGRID_GPU_KIT_BEDS= HGRID_KIT_ALLOW_MPI=1 "$here/pack_kit.sh" --prebuilt "$build" "$HGRID_GPU_SAVE_KIT" >>"$out/build.log" 2>&1 &&
      { [ ! -d "$kit/beds" ] || cp -r "$kit/beds" "$HGRID_GPU_SAVE_KIT/"; } || log "saving the kit failed"
  fi
fi

# the kit's CPU lmp (pack_kit.sh --cpu: no MPI, the OPENMP package), for the host CPU's
# builds below; kept in a kit saved on this machine
cpu_lmp=""
if [ -f "$kit/cpu-lmp.tar.gz" ]; then
  mkdir -p "$build/cpu" && tar xzf "$kit/cpu-lmp.tar.gz" -C "$build/cpu" && cpu_lmp=$build/cpu/lmp
  log "CPU lmp from the kit: $(cat "$build/cpu/built_on" 2>/dev/null)"
  if [ -n "${HGRID_GPU_SAVE_KIT:-}" ] && [ -d "$HGRID_GPU_SAVE_KIT" ]; then
    cp "$kit/cpu-lmp.tar.gz" "$HGRID_GPU_SAVE_KIT/"
  fi
fi

# --- 2. the GPU ---------------------------------------------------------------------------
if ! nvidia-smi -L >"$out/nvidia-smi.txt" 2>&1 || ! grep -q GPU "$out/nvidia-smi.txt"; then
  log "no GPU on this machine (nvidia-smi finds none): the CUDA lmp and the Kokkos tests are" \
      "built; stopping here, before the GPU run (Kokkos tests on the GPU, GPU table)"
  exit 0
fi
nvidia-smi >>"$out/nvidia-smi.txt"
log "GPU: $(head -1 "$out/nvidia-smi.txt")"

# --- 3. the Kokkos tests on the GPU ---------------------------------------------------------
# kokkos_tests LOG SECONDS COMMAND...: COMMAND (the test binary, or a tool running it) in
# BUILD/test-run with 2 OpenMP threads, its output in OUT/LOG; its exit status
test_binary=$build/unittest/test_hgrid_kokkos
kokkos_tests() {
  local log=$1 seconds=$2
  shift 2
  mkdir -p "$build/test-run"
  (cd "$build/test-run" && OMP_PROC_BIND=false OMP_NUM_THREADS=2 timeout "$seconds" "$@") \
    >"$out/$log" 2>&1
}
# GoogleTest's summary lines (and memcheck's) of OUT/LOG on one line
summary() {
  grep -E '^\[  (PASSED|FAILED)  \]|ERROR SUMMARY' "$out/$1" | sort | uniq -c | tr '\n' ' ' ||
    echo 'no summary'
}
tests=0
start=$(date +%s)
if [ -n "${HGRID_GPU_SKIP_TESTS:-}" ]; then
  log "Kokkos tests skipped (HGRID_GPU_SKIP_TESTS)"
elif [ "$prebuilt" -eq 1 ]; then    # ctest's files name the paths of the build machine
  kokkos_tests kokkos-tests.log "${HGRID_GPU_TEST_TIMEOUT:-600}" "$test_binary" || tests=$?
  log "Kokkos tests on the GPU (exit $tests, $(( $(date +%s) - start )) s): $(summary kokkos-tests.log)"
else
  timeout "${HGRID_GPU_TEST_TIMEOUT:-900}" ctest --test-dir "$build" -L kokkos --output-on-failure --timeout 300 \
    -j 4 >"$out/kokkos-tests.log" 2>&1 || tests=$?
  log "Kokkos tests on the GPU: $(grep -E 'tests passed|tests failed' "$out/kokkos-tests.log" || echo 'no summary')"
fi

# HGRID_GPU_TEST_WORDS="WORDS": the oracle suite once more with these neighbor hgrid words
# (as the ctest hgrid_kokkos_split, which a build made here runs already, with "kk/split 16")
if [ -n "${HGRID_GPU_TEST_WORDS:-}" ] && [ "$prebuilt" -eq 1 ] && [ -z "${HGRID_GPU_SKIP_TESTS:-}" ]; then
  start=$(date +%s) status=0
  HGRID_TEST_NEIGHBOR_WORDS="$HGRID_GPU_TEST_WORDS" kokkos_tests kokkos-tests-words.log \
    "${HGRID_GPU_TEST_TIMEOUT:-600}" "$test_binary" --gtest_filter='Systems/*' || status=$?
  [ "$status" -eq 0 ] || tests=$status
  log "Kokkos oracle tests with '$HGRID_GPU_TEST_WORDS' (exit $status, $(( $(date +%s) - start )) s):" \
      "$(summary kokkos-tests-words.log)"
fi

# HGRID_GPU_MEMCHECK=SECONDS[:GTEST_FILTER]: the Kokkos tests again under compute-sanitizer's
# memcheck (every device access checked: ~10-50x slower, hence the time limit and filter)
if [ -n "${HGRID_GPU_MEMCHECK:-}" ] && command -v compute-sanitizer >/dev/null; then
  IFS=: read -r seconds filter <<<"$HGRID_GPU_MEMCHECK"
  start=$(date +%s) status=0
  kokkos_tests memcheck.log "$seconds" compute-sanitizer --tool memcheck --target-processes all \
    --print-limit 20 "$test_binary" --gtest_filter="${filter:-*}" || status=$?
  log "memcheck (exit $status, $(( $(date +%s) - start )) s, filter ${filter:-*}): $(summary memcheck.log)"
fi

# --- 4. the table, then the kernel profile ---------------------------------------------------
# the dense beds (variant bed): the kit's beds/*.data.gz, unpacked, or HGRID_GPU_BEDS
beds=${HGRID_GPU_BEDS:-}
if [ -z "$beds" ] && [ -d "$kit/beds" ]; then
  beds=$build/beds && mkdir -p "$beds"
  for f in "$kit"/beds/*.data.gz; do gunzip -c "$f" >"$beds/$(basename "$f" .gz)"; done
  cp "$kit"/beds/*.json "$beds/" 2>/dev/null || true    # the beds' statistics (host_dense.sh)
fi
table=0
cases=()
[ -n "${HGRID_GPU_CASES:-}" ] && cases=(--cases "$HGRID_GPU_CASES")
# HGRID_GPU_END=EPOCH_SECONDS: no table run starts later than HGRID_GPU_RESERVE (90) s
# before it (the time the profile and the round trips need)
if [ -n "${HGRID_GPU_END:-}" ]; then
  HGRID_GPU_DEADLINE=$(( HGRID_GPU_END - $(date +%s) - ${HGRID_GPU_RESERVE:-90} ))
  [ "$HGRID_GPU_DEADLINE" -gt 0 ] || HGRID_GPU_DEADLINE=1
  log "table: no run starts after $HGRID_GPU_DEADLINE s"
fi
[ -n "${HGRID_GPU_DEADLINE:-}" ] && cases+=(--deadline "$HGRID_GPU_DEADLINE")
[ -n "$beds" ] && cases+=(--beds "$beds")
python3 "$here/gpu_table.py" --lmp "$build/lmp" --out "$out" \
  --workdir "$build/gpu-logs" --n "${HGRID_GPU_N:-1e5,1e6,1e7}" \
  --omega "${HGRID_GPU_OMEGA:-1,10,30,100}" --steps "${HGRID_GPU_STEPS:-20}" \
  --timeout "${HGRID_GPU_TIMEOUT:-90}" "${cases[@]}" >"$out/table.log" 2>&1 || table=$?
tar czf "$out/logs.tar.gz" -C "$build" gpu-logs 2>/dev/null || true
cat "$out/gpu.md" 2>/dev/null || tail -20 "$out/table.log"

if [ -n "${HGRID_GPU_PROFILE:-}" ]; then
  mkdir -p "$build/profile"
  for item in ${HGRID_GPU_PROFILE//,/ }; do
    IFS=: read -r n omega style <<<"$item"
    name="$style.n$n.w$omega"
    (cd "$build/profile" && KOKKOS_TOOLS_LIBS="$build/runtime/libkernel_times.so" \
      KERNEL_TIMES_OUT="times.$name.tsv" timeout 120 "$build/lmp" -in "$root/examples/benchmarks/in.bench" \
      -log "log.$name" -screen none -nocite -var style "$style" -var n "$n" -var omega "$omega" \
      -var steps "${HGRID_GPU_STEPS:-20}" -var newton off -var history yes \
      -k on g 1 -sf kk -pk kokkos neigh half newton off) || log "profile $name: exit $?"
    log "profile $name: $(grep -E '^Neigh ' "$build/profile/log.$name" 2>/dev/null || echo 'no Neigh line')"
  done
fi
# HGRID_GPU_NCU=N:OMEGA:STYLE:REGEX,...: Nsight Compute's counters of the 4th kernel
# whose demangled name matches REGEX (e.g. 'search<' for kk hgrid's search, 'NPairKokkos'
# for kk bin's): time, threads active per warp instruction, cache hit rates
if [ -n "${HGRID_GPU_NCU:-}" ] && command -v ncu >/dev/null; then
  mkdir -p "$build/profile"
  metrics=gpu__time_duration.sum,smsp__thread_inst_executed_per_inst_executed.ratio
  metrics+=,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct
  metrics+=,sm__throughput.avg.pct_of_peak_sustained_elapsed
  metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
  for item in ${HGRID_GPU_NCU//,/ }; do
    IFS=: read -r n omega style regex <<<"$item"
    name="$style.n$n.w$omega"
    (cd "$build/profile" && timeout 120 ncu --kernel-name-base demangled -k "regex:$regex" \
      --launch-skip 3 --launch-count 1 --metrics "$metrics" "$build/lmp" \
      -in "$root/examples/benchmarks/in.bench" -log "log.ncu.$name" -screen none -nocite \
      -var style "$style" -var n "$n" -var omega "$omega" -var steps 10 -var newton off \
      -var history yes -k on g 1 -sf kk -pk kokkos neigh half newton off) \
      >"$build/profile/ncu.$name.txt" 2>&1 || log "ncu $name: exit $?"
  done
fi
# HGRID_GPU_ROUNDTRIPS=N:OMEGA[:STYLES],...: fences and copies per step of kk bin and kk
# hgrid (STYLES: bin/hgrid, the default, or one of them) on the GPU (roundtrips/run_roundtrips.py with the kp_roundtrips Kokkos Tools library, built
# here with the host compiler), into $out/roundtrips.N.wOMEGA/
if [ -n "${HGRID_GPU_ROUNDTRIPS:-}" ]; then
  for item in ${HGRID_GPU_ROUNDTRIPS//,/ }; do
    IFS=: read -r n omega styles <<<"$item"
    styles=${styles:-bin/hgrid}
    rt=(--styles "${styles//\//,}" --timeout 90)
    [ -f "$build/runtime/libkp_roundtrips.so" ] && rt+=(--lib "$build/runtime/libkp_roundtrips.so")
    timeout 300 python3 "$here/roundtrips/run_roundtrips.py" --lmp "$build/lmp" --device "g 1" "${rt[@]}" --n "$n" --omegas "$omega" --mem-gb 0 --out "$out/roundtrips.$n.w$omega"       >"$out/roundtrips.$n.w$omega.log" 2>&1 || log "roundtrips $item: exit $?"
    log "roundtrips $item: $(grep -E '^round trips/step' "$out/roundtrips.$n.w$omega.log" || echo none)"
  done
fi
# seconds left before HGRID_GPU_END - 10 s (at least 1), or 900 without an end
seconds_left() {
  local left=900
  [ -n "${HGRID_GPU_END:-}" ] && left=$(( HGRID_GPU_END - $(date +%s) - 10 ))
  echo $(( left > 1 ? left : 1 ))
}
# HGRID_GPU_HOSTTHREADS=T[,T...]: with the kit's CPU lmp, the build on 1 and T threads of
# the host, for each T in turn (threads/run_threads.py, one sample: each of the T cores
# alone, then T threads; hgrid on the omega = 100 gas and stock bin on the monodisperse
# one, N = 1e5), into hostthreads.T.csv and hostthreads.T.log
if [ -n "${HGRID_GPU_HOSTTHREADS:-}" ] && [ -n "$cpu_lmp" ]; then
  for threads in ${HGRID_GPU_HOSTTHREADS//,/ }; do
    threads=$(( threads < $(nproc) ? threads : $(nproc) ))
    timeout "$(seconds_left)" python3 "$root/examples/benchmarks/threads/run_threads.py" \
      --lmp "$cpu_lmp" --threads "$threads" --samples 1 --steps 50 --csv "$out/hostthreads.$threads.csv" \
      --workdir "$build/hostthreads" >"$out/hostthreads.$threads.log" 2>&1 || log "host CPU threads $threads: exit $?"
    log "host CPU threads $threads: $(grep 'median speed-up' "$out/hostthreads.$threads.log" | tr '\n' ' ')"
  done
fi
# HGRID_GPU_HOSTDENSE=BED: with the kit's CPU lmp, the kit's 10^5 bed BED (a file name
# in its beds, JSON beside it) tiled to 10^6 atoms and the best multi against hgrid on it,
# serial and on 1 and 2 threads, with and without history (host_dense.sh: issue 42's
# 10x-multi goal on a server's cores), into hostdense.md/.csv/.log; at most
# HGRID_GPU_HOSTDENSE_S (240) seconds of what is left
if [ -n "${HGRID_GPU_HOSTDENSE:-}" ] && [ -n "$cpu_lmp" ]; then
  if [ -z "$beds" ] || [ ! -f "$beds/$HGRID_GPU_HOSTDENSE" ]; then
    log "host dense: not run (no bed $HGRID_GPU_HOSTDENSE in the kit)"
  else
    cap=${HGRID_GPU_HOSTDENSE_S:-240} left=$(seconds_left)
    [ "$left" -lt "$cap" ] && cap=$left
    log "$(bash "$here/host_dense.sh" "$cpu_lmp" "$beds/$HGRID_GPU_HOSTDENSE" "$out" \
      "$build/hostdense" "$cap" 2>&1 | tail -1)"
  fi
fi
# HGRID_GPU_HOSTCPU=N,N,...: the serial CPU build of this machine's host against N
# (the kit's CPU lmp, else the CUDA lmp's plain styles, run without -k on), hgrid
# against stock bin on one pinned core, with the core's latency curve
# (scaling/run_scaling.py: issue 42's CPU goals on a second machine); no run goes past
# HGRID_GPU_END - 10 s
if [ -n "${HGRID_GPU_HOSTCPU:-}" ]; then
  hostcpu=(--n "$HGRID_GPU_HOSTCPU" --samples "${HGRID_GPU_HOSTCPU_SAMPLES:-2}")
  [ -n "${HGRID_GPU_END:-}" ] && hostcpu+=(--deadline "$(seconds_left)")
  python3 "$root/examples/benchmarks/scaling/run_scaling.py" --lmp "${cpu_lmp:-$build/lmp}" "${hostcpu[@]}" \
    --workdir "$build/hostcpu" --csv "$out/hostcpu.csv" --md "$out/hostcpu.md" \
    >"$out/hostcpu.log" 2>&1 || log "host CPU scaling: exit $?"
  rows=$(grep -c '^| [0-9]' "$out/hostcpu.md" 2>/dev/null) || true
  log "host CPU scaling: ${rows:-0} rows of N (hostcpu.md)"
fi
[ -d "$build/profile" ] && tar czf "$out/profile.tar.gz" -C "$build" profile
log "done: Kokkos tests exit $tests, table exit $table; files in $out"
[ "$tests" -eq 0 ] && [ "$table" -eq 0 ]
