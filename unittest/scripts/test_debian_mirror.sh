#!/bin/sh
# debian-mirror.sh on apt source sets written here (one-line and deb822, disabled
# stanzas, security archives, inline keys, options in brackets) and on none: it must print
# the Debian mirror a machine's apt sources name, or fail with a message naming the setting.
#   usage: test_debian_mirror.sh PATH/TO/debian-mirror.sh
set -u
script=$1
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fails=0
expect() {    # NAME WANTED (empty: must fail with the message)
  got=$(sh "$script" "$t/$1" 2>"$t/err")
  status=$?
  if [ -n "$2" ] && { [ $status -ne 0 ] || [ "$got" != "$2" ]; }; then
    echo "FAIL $1: got '$got' (exit $status), wanted '$2'"; fails=$((fails + 1))
  elif [ -z "$2" ] && { [ $status -eq 0 ] || ! grep -q HGRID_DEBIAN_MIRROR "$t/err"; }; then
    echo "FAIL $1: got '$got' (exit $status), wanted a failure naming HGRID_DEBIAN_MIRROR"
    fails=$((fails + 1))
  else
    echo "ok   $1: ${got:-$(cut -c1-60 "$t/err")}"
  fi
}
mkdir -p "$t/oneline/sources.list.d" "$t/deb822/sources.list.d" "$t/none/sources.list.d"
cat >"$t/oneline/sources.list" <<'X'
# the security archive comes first and is skipped
deb [arch=amd64 signed-by=/usr/share/keyrings/k.gpg] http://mirror.example.org/debian-security bookworm-security main
deb http://apt-cacher.cluster:3142/debian/ bookworm-updates main contrib
deb http://apt-cacher.cluster:3142/debian/ bookworm main
X
cat >"$t/deb822/sources.list.d/debian.sources" <<'X'
Types: deb
URIs: http://disabled.example/debian
Suites: trixie
Components: main
Enabled: no

Types: deb deb-src
URIs: https://mirror.site.local/debian
Suites: trixie trixie-updates
Components: main non-free-firmware
Signed-By:
 -----BEGIN PGP PUBLIC KEY BLOCK-----
 .
 -----END PGP PUBLIC KEY BLOCK-----
X
cat >"$t/deb822/sources.list.d/other.list" <<'X'
deb https://packages.cloud.example/apt cloud-sdk main
X
cat >"$t/none/sources.list" <<'X'
deb http://archive.ubuntu.com/ubuntu jammy main
deb http://security.debian.org/debian-security bookworm-security main
X
expect oneline http://apt-cacher.cluster:3142/debian
expect deb822 https://mirror.site.local/debian
expect none ""
got=$(HGRID_DEBIAN_MIRROR=http://given/debian sh "$script" "$t/none")
[ "$got" = http://given/debian ] || { echo "FAIL HGRID_DEBIAN_MIRROR: got '$got'"; fails=$((fails + 1)); }
[ $fails -eq 0 ] && echo "debian-mirror.sh: all cases pass"
exit $fails
