#!/bin/bash
# Apply clang-format (settings: .clang-format at the top, LAMMPS style) in place to
# hgrid's own C++ sources: src/HGRID, src/libhgrid, src/advisor, src/benchmark and
# unittest. Not touched: LAMMPS itself, the patch, build folders. Regions between
# `// clang-format off` and `// clang-format on` (the style registration macros in the
# src/HGRID headers) are left as they are; clang-format itself honours these comments.
#   usage: src/format.sh           reformat the files
#          src/format.sh --check   change nothing, list what would change (exit 1 if any)
# Environment: CLANG_FORMAT=<program> (default clang-format; Debian: apt-get install clang-format)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cf=${CLANG_FORMAT:-clang-format}
command -v "$cf" >/dev/null || { echo "format.sh: $cf not found (apt-get install clang-format)" >&2; exit 2; }
mapfile -d '' files < <(cd "$root" && find src/HGRID src/libhgrid src/advisor src/benchmark unittest -type f \
                          \( -name '*.cpp' -o -name '*.h' \) -print0 | sort -z)
cd "$root"
if [ "${1:-}" = --check ]; then
  "$cf" --style=file --dry-run -Werror "${files[@]}"
else
  "$cf" --style=file -i "${files[@]}"
  echo "format.sh: formatted ${#files[@]} files"
fi
