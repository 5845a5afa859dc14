#!/bin/bash
# The LAMMPS Python module (import lammps) with hgrid, from a shared build of this tree,
# into a virtual environment made from Debian's packages, with no package index: the
# module's wheel is built from LAMMPS' own python/ folder and the build's liblammps.so
# (as LAMMPS' install-python target does, whose wheel step downloads its build tools),
# with the system's setuptools and wheel, and installed into VENV.
#   usage: src/python/install_python.sh [BUILD_DIR] [VENV]     (build, BUILD_DIR/python-venv)
# Needs: a build with -DBUILD_SHARED_LIBS=ON (the default), Debian's python3-venv,
# python3-setuptools, python3-wheel and python3-numpy (lmp.numpy), and /usr/bin/python3
# (or HGRID_PYTHON) whose site packages hold them. Then:
#   VENV/bin/python -c 'from lammps import lammps; lmp = lammps(); lmp.file("in.hgrid.powerlaw")'
# Exit status 77 with a message when a prerequisite is missing.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
venv=${2:-$build/python-venv}
python=${HGRID_PYTHON:-/usr/bin/python3}
missing() { echo "install_python.sh: $*" >&2; exit 77; }

[ -x "$python" ] || missing "no $python: set HGRID_PYTHON to a python3 with venv, setuptools, wheel, numpy"
grep -qs '^BUILD_SHARED_LIBS:BOOL=ON' "$build/CMakeCache.txt" ||
  missing "$build is not a shared build: configure it with -DBUILD_SHARED_LIBS=ON (the module loads liblammps.so)"
lib=$(ls "$build"/liblammps*.so 2>/dev/null | head -1 || true)
[ -n "$lib" ] || missing "no liblammps.so in $build: build it first (cmake --build $build)"
for module in venv ensurepip setuptools wheel numpy; do
  "$python" -c "import $module" 2>/dev/null ||
    missing "$python cannot import $module: install Debian's python3-venv python3-setuptools python3-wheel python3-numpy (sudo apt-get install ...)"
done
lammps=$build/lammps-patched    # the build's patched LAMMPS tree (src/lammps-patch)
[ -f "$lammps/python/lammps/__init__.py" ] || missing "no LAMMPS python/ folder in $lammps (reconfigure $build)"

# the wheel: LAMMPS' python/ folder with liblammps.so inside the package (setup.py takes
# the library's name from LAMMPS_SHARED_LIB and the version from LAMMPS_VERSION_FILE)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp -r "$lammps/python" "$stage/python"
cp "$lib" "$stage/python/lammps/"
"$python" -m venv --system-site-packages "$venv"
(cd "$stage/python" && LAMMPS_SHARED_LIB=$(basename "$lib") LAMMPS_VERSION_FILE=$lammps/src/version.h \
  "$venv/bin/python" -m pip wheel --no-index --no-build-isolation --no-deps -q -w "$stage/wheel" .)
"$venv/bin/python" -m pip install --no-index --no-deps --force-reinstall -q "$stage"/wheel/lammps-*.whl
echo "install_python.sh: the LAMMPS module with hgrid ($(basename "$lib") of $build) is in $venv:" \
     "$venv/bin/python -c 'import lammps'"
