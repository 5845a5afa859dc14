#!/bin/bash
# Flat CPU profile (perf, Debian package linux-perf) of the neighbor-build benchmark
# (../in.bench) under one or more LAMMPS binaries, one case per line of CASES below.
#   usage: profile.sh OUTDIR LABEL=LMP [LABEL=LMP ...]
#   e.g.   profile.sh results before=/tmp/old/build/lmp after=build/lmp
# For each binary and case it writes OUTDIR/LABEL_CASE.txt: the Neigh/Comm/Loop
# lines of LAMMPS' timing breakdown and the top symbols by self time (perf report
# --no-children); HGRID_PROFILE_N atoms (default 10^5), HGRID_PROFILE_STEPS builds
# (40).  The list is rebuilt every step, atoms at rest (in.bench), so the
# profile is that of the list build plus the pair and communication of the steps.
set -euo pipefail
[ $# -ge 2 ] || { sed -n 2,9p "$0"; exit 2; }
out=$1
shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$out"
command -v perf > /dev/null || { echo "profile.sh: perf not found (apt-get install linux-perf)"; exit 1; }

# name  style  in.bench variables
CASES=(
  "3d_mono_bin      bin   -var dim 3 -var nu 0.3 -var alpha -3 -var omega 1"
  "3d_a-3_w100      hgrid -var dim 3 -var nu 0.3 -var alpha -3 -var omega 100"
  "2d_a0_w100       hgrid -var dim 2 -var nu 0.6 -var alpha 0 -var omega 100"
)
steps=${HGRID_PROFILE_STEPS:-40}
natoms=${HGRID_PROFILE_N:-100000}    # e.g. 1000000 for the profiles at 10^6 atoms

for spec in "$@"; do
  label=${spec%%=*}
  lmp=$(realpath "${spec#*=}")
  for c in "${CASES[@]}"; do
    read -r name style vars <<< "$c"
    # the stock style profiles the same way under any binary: once is enough
    if [ "$style" = bin ] && [ -e "$out/$name.txt" ]; then continue; fi
    file=$out/${label}_$name.txt
    [ "$style" = bin ] && file=$out/$name.txt
    data=$(mktemp)
    # shellcheck disable=SC2086
    perf record -q -o "$data" -F 2000 -- "$lmp" -in "$here/../in.bench" -log none -echo none \
      -screen "$data.screen" -var style "$style" -var n "$natoms" -var steps "$steps" $vars > /dev/null
    {
      echo "# $lmp, style $style,$vars, N $natoms, $steps builds"
      grep -E "^(Loop time|Neigh |Comm |Pair )" "$data.screen"
      echo
      perf report -q -i "$data" --no-children --sort symbol --percent-limit 0.7 --stdio 2> /dev/null |
        sed -e 's/[[:space:]]*-[[:space:]]*-[[:space:]]*$//' -e 's/[[:space:]]*$//' | grep -v '^$' |
        cut -c1-150
    } > "$file"
    rm -f "$data" "$data.old" "$data.screen"
    echo "profile.sh: $file"
  done
done
