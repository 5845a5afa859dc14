#!/bin/bash
# Shared setup of the two README commands: install the Debian packages the build
# needs (only those missing), then configure and build hgrid + LAMMPS in BUILD_DIR.
#   usage: src/bootstrap.sh BUILD_DIR [extra cmake arguments]
# Environment: HGRID_LAMMPS_SOURCE=<LAMMPS folder or tarball> uses your own LAMMPS.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$1
shift

packages=(cmake ninja-build g++ ccache patch python3 python3-matplotlib libopenmpi-dev openmpi-bin libgtest-dev
          python3-venv python3-setuptools python3-wheel python3-numpy
          apt ca-certificates)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "hgrid: installing Debian packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# ccache (cache outside the checkout, ~/.cache/ccache) with paths relative to the
# checkout, so that every clone of the project shares the cached objects
export CCACHE_BASEDIR="$root"
args=(-S "$root" -B "$build" -G Ninja)
[ -n "${HGRID_LAMMPS_SOURCE:-}" ] && args+=("-DHGRID_LAMMPS_SOURCE=$HGRID_LAMMPS_SOURCE")
cmake "${args[@]}" "$@"
cmake --build "$build" -j "$(nproc)"
