#!/bin/bash
# The dense 10^6 bed on this machine's CPU: issue 42's goal "hgrid >= 10x the best multi
# per build at omega = 100 on dense beds", at N = 1e6, where the development VM measured
# 7.4-7.9x (pressed bed, newton on, no history).
#   usage: host_dense.sh CPU_LMP BED OUT WORKDIR SECONDS
# BED, a 10^5 bed of dense/make_beds.py with its JSON beside it (a GPU kit's beds), is
# tiled 5 x 2 x 1 next to it (make_beds.py --tile: LAMMPS' replicate, seconds), then
# dense/run_dense.py runs its multi and hgrid rows on the tiled bed: without history and
# with history (newton on), serial and with -sf omp on 1 and 2 threads, 5 steps with the
# list rebuilt every step; rows in OUT/hostdense.csv and OUT/hostdense.md (written after
# every run), its output in OUT/hostdense.log. Nothing runs past SECONDS. Fails (exit 3,
# run_dense.py's check) if two runs found different pairs; the last line gives the exit
# status and each hgrid row's ratio.
# Used by run_gpu.sh (HGRID_GPU_HOSTDENSE) on the lent GPU machine's host; runs anywhere.
set -uo pipefail
if [ $# -ne 5 ]; then
  echo "usage: host_dense.sh CPU_LMP BED OUT WORKDIR SECONDS" >&2
  exit 2
fi
lmp=$1 bed=$2 out=$3 work=$4 seconds=$5
dense=$(cd "$(dirname "${BASH_SOURCE[0]}")/../dense" && pwd)
end=$(( $(date +%s) + seconds ))
mkdir -p "$out" "$work"
tiled=$(timeout "$seconds" python3 "$dense/make_beds.py" --lmp "$lmp" --tile "$bed" --replicate 5,2,1) || {
  echo "host dense: tiling $bed failed"
  exit 1
}
left=$(( end - $(date +%s) ))
[ "$left" -gt 1 ] || { echo "host dense: no time left after tiling"; exit 1; }
status=0
timeout "$left" python3 "$dense/run_dense.py" --lmp "$lmp" --beds "$tiled" --styles multi,hgrid \
  --steps 5 --history-newton on --timeout 120 --workdir "$work" --csv "$out/hostdense.csv" \
  --md "$out/hostdense.md" >"$out/hostdense.log" 2>&1 || status=$?
# each hgrid row's ratio to the best multi per build (the md's column 13)
ratios=$(awk -F'|' '$5 ~ /hgrid/ && $14 ~ /×/ {gsub(/^ +| +$/, "", $5); gsub(/ /, "", $14); printf "%s %s; ", $5, $14}' \
  "$out/hostdense.md" 2>/dev/null)
echo "host dense (exit $status): ${ratios:-no hgrid row against multi}$(grep -m1 '^ERROR' "$out/hostdense.log")"
exit $status
