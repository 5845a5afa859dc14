#!/bin/bash
# Reruns every benchmark table of examples/benchmarks/README.md, one run_bench.py invocation
# per table (CSV and plot in OUTDIR), then prints each table (summarize.py) and, for
# the scaling run (10⁴ to 10⁷ atoms), microseconds per atom per build.  15-20 minutes on
# 2 cores (14.5 on 26 Nov 2026); run it on an otherwise idle machine (the timings are
# wall-clock).
#   usage: examples/benchmarks/run_all.sh [LMP [OUTDIR]]   (default build/lmp, results)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lmp=$(realpath "${1:-$here/../../build/lmp}")
out=${2:-$here/results}
mkdir -p "$out"
py=/usr/bin/python3    # Debian's python3 (matplotlib for the plots)
bench() { "$py" "$here/run_bench.py" --lmp "$lmp" --n 100000 --steps 5 --workdir "$out/work" "$@"; }

bench --dim 3 --nu 0.3 --alpha=-3,-2,0 --omega 1,10,100 \
  --csv "$out/bench_3d_nu0.3_N1e5.csv" --png "$out/bench_3d_nu0.3_N1e5.png"
bench --dim 3 --nu 0.6 --alpha=-3,-2,0 --omega 1,100 \
  --csv "$out/bench_3d_nu0.6_N1e5.csv" --png "$out/bench_3d_nu0.6_N1e5.png"
bench --dim 2 --nu 0.6 --alpha=0,-2,-3 --omega 1,100 \
  --csv "$out/bench_2d_nu0.6_N1e5.csv" --png "$out/bench_2d_nu0.6_N1e5.png"
bench --dim 3 --nu 0.3 --alpha=-2,-3 --omega 100 --np 2 \
  --styles "bin,multi x4,hgrid,hgrid comm single" --csv "$out/bench_3d_nu0.3_N1e5_np2.csv"
bench --dim 3 --nu 0.3 --alpha=-3 --omega 100 --n 10000,100000,1000000,10000000 \
  --styles "hgrid,hgrid omp 2" --csv "$out/bench_3d_scaling.csv"
rm -rf "$out/work"

for t in 3d_nu0.3_N1e5 3d_nu0.6_N1e5 3d_nu0.3_N1e5_np2 2d_nu0.6_N1e5; do
  echo
  echo "$t:"
  "$py" "$here/summarize.py" "$out/bench_$t.csv"
done
echo
echo "scaling (us per atom per build, ratio to the monodisperse bin build of the same N;"
echo "memory: LAMMPS' figure and the peak resident memory, ratios to the monodisperse run's):"
"$py" - "$out/bench_3d_scaling.csv" << 'EOF'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("  N %-8s %-12s %s us (%s)  %s MB (%s), peak %s MB (%s)" % (
        r["n"], r["style"], r["us_per_atom"], r["vs_mono_bin"], r["mem_mb"], r["mem_vs_mono"],
        r["peak_rss_mb"], r["rss_vs_mono"]))
EOF
