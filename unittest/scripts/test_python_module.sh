#!/bin/bash
# The Python route (issue 43): the LAMMPS module with hgrid installed into a virtual
# environment of the build (src/python/install_python.sh), then check_python_module.py
# run by it. Exit status 77 (ctest: skipped) with the installer's message when a
# prerequisite (Debian's python3-venv, -setuptools, -wheel, -numpy; a shared build) is missing.
#   usage: test_python_module.sh BUILD_DIR
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$1
venv=$build/python-venv
"$here/../../src/python/install_python.sh" "$build" "$venv" || exit $?
cd "$(mktemp -d)" && "$venv/bin/python" "$here/check_python_module.py"
