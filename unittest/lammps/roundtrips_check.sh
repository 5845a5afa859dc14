#!/bin/bash
# The round-trip counter works: builds the kp_roundtrips Kokkos Tools library
# (examples/benchmarks/gpu/roundtrips/kp_roundtrips.cpp) with g++ (or $CXX) in a
# temporary folder, runs a tiny in.bench case with kk hgrid (list rebuilt every step; the
# device kernels on a host backend too, kk/host kernels)
# for 5 and for 10 steps with KOKKOS_TOOLS_LIBS set, and fails unless both runs write a
# JSON summary that parses, the kernel launches per step (10-step run minus 5-step run,
# divided by 5) are > 0, hgrid/kk's kernels are among them, fences are counted, and
# none of them is the "Kokkos Profile Tool Fence" (the library asks Kokkos for no
# fencing around its callbacks).
#   usage: unittest/lammps/roundtrips_check.sh LMP [DEVICE...]
#   DEVICE: -k on's device words, default "t 1" (OpenMP); "g 1" for a CUDA lmp
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
lmp=${1:-}
shift
device=("$@")
[ ${#device[@]} -eq 0 ] && device=(t 1)

fail() {
  echo "roundtrips_check: FAILED: $*"
  exit 1
}

[ -n "$lmp" ] && [ -x "$lmp" ] || fail "usage: $0 LMP [DEVICE...] (no executable lmp '$lmp')"
lmp=$(cd "$(dirname "$lmp")" && pwd)/$(basename "$lmp")    # the runs start in a temporary folder
work=$(mktemp -d "${TMPDIR:-/tmp}/roundtrips_check.XXXXXX") || fail "no temporary folder"
trap 'rm -rf "$work"' EXIT

# the library, without any Kokkos header or build tree
${CXX:-g++} -O2 -std=c++17 -shared -fPIC -o "$work/libkp_roundtrips.so" \
  "$root/examples/benchmarks/gpu/roundtrips/kp_roundtrips.cpp" >"$work/build.log" 2>&1 ||
  { cat "$work/build.log"; fail "the tool library did not compile"; }

# one total of the tool's JSON: "totals": {"kernels": N, "fences": N, ...} is one line
total() {
  grep -m1 '"totals"' "$1" | grep -o "\"$2\": [0-9]*" | grep -o '[0-9]*$'
}

for steps in 5 10; do
  (cd "$work" &&
   env KOKKOS_TOOLS_LIBS="$work/libkp_roundtrips.so" KP_ROUNDTRIPS_OUT="$work/rt$steps.json" \
     KP_ROUNDTRIPS_TOP=5 OMP_PROC_BIND=false OMP_NUM_THREADS=1 \
     "$lmp" -in "$root/examples/benchmarks/in.bench" -log "$work/log.$steps" -screen none -nocite \
     -var style hgrid -var n 500 -var omega 10 -var steps $steps \
     -var newton off -var history yes -var kkhost kernels \
     -k on "${device[@]}" -sf kk -pk kokkos neigh half newton off) >"$work/out.$steps" 2>&1
  rc=$?
  [ $rc -eq 0 ] || { tail -20 "$work/out.$steps"; fail "lmp exited with $rc ($steps steps)"; }
  [ -s "$work/rt$steps.json" ] ||
    { tail -20 "$work/out.$steps"; fail "no JSON from the tool ($steps steps): was it loaded?"; }
  # the whole summary parses, where a Python is at hand
  py=$(command -v "${PYTHON:-python3}" || true)
  if [ -n "$py" ]; then
    "$py" -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["tool"] == "kp_roundtrips"' \
      "$work/rt$steps.json" || fail "the JSON of the $steps-step run does not parse"
  fi
  grep -q "^Neighbor list builds = $steps\$" "$work/log.$steps" ||
    fail "the $steps-step run did not rebuild its list every step"
done

k5=$(total "$work/rt5.json" kernels)
k10=$(total "$work/rt10.json" kernels)
f5=$(total "$work/rt5.json" fences)
f10=$(total "$work/rt10.json" fences)
c10=$(total "$work/rt10.json" deep_copies)
for v in "$k5" "$k10" "$f5" "$f10" "$c10"; do
  [[ "$v" =~ ^[0-9]+$ ]] || fail "the totals line does not parse: $(grep -m1 '"totals"' "$work/rt10.json")"
done
kps=$(( (k10 - k5) / 5 ))
fps=$(( (f10 - f5) / 5 ))
echo "roundtrips_check: kk hgrid, per step: $kps kernel launches, $fps fences" \
     "(10 steps: $k10 kernels, $f10 fences, $c10 deep copies)"
[ "$kps" -gt 0 ] || fail "no kernel launches per step ($k5 in 5 steps, $k10 in 10)"
[ "$f10" -gt 0 ] && [ "$fps" -gt 0 ] || fail "no fences counted per step ($f5 in 5 steps, $f10 in 10)"
grep -q '"for: hgrid/kk:count_cells"' "$work/rt10.json" ||
  fail "hgrid/kk's kernels are not among the counted ones (kk hgrid did not run?)"
if grep -q "Kokkos Profile Tool Fence" "$work/rt10.json"; then
  fail "Kokkos fenced around the tool's callbacks (kokkosp_request_tool_settings not honoured)"
fi
echo "roundtrips_check: passed"
