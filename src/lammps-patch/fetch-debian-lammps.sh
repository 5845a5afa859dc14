#!/bin/sh
# Download Debian's LAMMPS source tarball (orig.tar.gz only) into DIR with a
# private apt configuration: the system's apt sources are not changed; the mirror is the
# one they name (debian-mirror.sh: a local mirror or proxy is used as it is), or
# HGRID_DEBIAN_MIRROR.
#   usage: fetch-debian-lammps.sh DIR PACKAGE_VERSION SUITE
set -eu
dir=$1
version=$2
suite=${3:-forky}
mirror=$(sh "$(dirname "$0")/debian-mirror.sh")
echo "fetch-debian-lammps.sh: lammps source from $mirror ($suite)"
mkdir -p "$dir/apt/lists/partial"
echo "deb-src $mirror $suite main" > "$dir/apt/sources.list"
mkdir -p "$dir/apt/cache/archives/partial"
opts="-o Dir::Etc::SourceList=$dir/apt/sources.list -o Dir::Etc::SourceParts=/dev/null \
 -o Dir::State::Lists=$dir/apt/lists -o Dir::Cache=$dir/apt/cache"
# as root, apt would drop to user _apt, who cannot write into a private cache folder
[ "$(id -u)" -ne 0 ] || opts="$opts -o APT::Sandbox::User=root"
apt-get $opts -qq update
cd "$dir"
# any Debian revision of the pinned upstream version: the caller checks the SHA-256
apt-get $opts -qq source --download-only --tar-only lammps
ls "lammps_${version}.orig.tar.gz" >/dev/null
