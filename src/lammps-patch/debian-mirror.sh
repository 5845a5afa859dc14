#!/bin/sh
# Print the Debian archive mirror this machine's apt sources name (a URI such as
# http://deb.debian.org/debian or a local mirror / proxy), for fetch-debian-lammps.sh.
#   usage: debian-mirror.sh [APT_ETC_DIR]      (default /etc/apt)
# Read, in apt's order: APT_ETC_DIR/sources.list and sources.list.d/*.list (one-line
# "deb [options] URI SUITE COMPONENTS...") and sources.list.d/*.sources (deb822
# stanzas: Types, URIs, Suites, Components, Enabled). The mirror is the first URI of a
# "deb" or "deb-src" entry with component main whose suite is a Debian release
# (bookworm, trixie, forky, sid, stable, testing, unstable, ... and their -updates,
# -backports, -proposed-updates) and not a security archive (suite -security or a URI
# containing "security"). HGRID_DEBIAN_MIRROR, when set, wins and nothing is read.
# Exit status 1, with a message on stderr, when no source names a Debian mirror.
set -eu
if [ -n "${HGRID_DEBIAN_MIRROR:-}" ]; then
  echo "$HGRID_DEBIAN_MIRROR"
  exit 0
fi
etc=${1:-/etc/apt}
files=""
[ -f "$etc/sources.list" ] && files="$etc/sources.list"
for f in "$etc"/sources.list.d/*.list "$etc"/sources.list.d/*.sources; do
  [ -f "$f" ] && files="$files $f"
done
mirror=""
if [ -n "$files" ]; then
  # shellcheck disable=SC2086
  mirror=$(awk '
    function release(s) {    # a Debian suite of the main archive
      sub(/-(updates|backports|proposed-updates|backports-sloppy)$/, "", s)
      return s ~ /^(buster|bullseye|bookworm|trixie|forky|duke|sid|oldoldstable|oldstable|stable|testing|unstable|experimental)$/
    }
    function consider(types, uris, suites, comps,    t, u, s, c, nt, nu, ns, nc, T, U, S, C, main) {
      nt = split(types, T, " "); nu = split(uris, U, " "); ns = split(suites, S, " ")
      nc = split(comps, C, " ")
      main = 0
      for (c = 1; c <= nc; c++) if (C[c] == "main") main = 1
      if (!main || found != "") return
      for (t = 1; t <= nt; t++) {
        if (T[t] != "deb" && T[t] != "deb-src") continue
        for (u = 1; u <= nu; u++) {
          if (U[u] ~ /security/ || U[u] !~ /^(https?|ftp|file):/) continue
          for (s = 1; s <= ns; s++)
            if (release(S[s])) { found = U[u]; return }
        }
      }
    }
    function flush() {    # the deb822 stanza read so far
      if (stanza && enabled != "no") consider(types, uris, suites, comps)
      stanza = 0; types = uris = suites = comps = ""; enabled = "yes"
    }
    FNR == 1 { flush(); deb822 = (FILENAME ~ /\.sources$/) }
    deb822 {
      if ($0 ~ /^[ \t]*$/) { flush(); next }
      if ($0 ~ /^[ \t]*#/) next
      if ($0 ~ /^[ \t]/) next    # a continuation line (e.g. an inline key): no field we read
      key = tolower($1); sub(/:$/, "", key)
      val = $0; sub(/^[^:]*:[ \t]*/, "", val)
      stanza = 1
      if (key == "types") types = val
      else if (key == "uris") uris = val
      else if (key == "suites") suites = val
      else if (key == "components") comps = val
      else if (key == "enabled") enabled = tolower(val)
      next
    }
    {
      line = $0; sub(/#.*/, "", line)
      if (line ~ /^[ \t]*$/) next
      gsub(/\[[^]]*\]/, "", line)    # [arch=amd64 signed-by=...]
      n = split(line, F, " ")
      if (n < 4) next
      comps = ""
      for (i = 4; i <= n; i++) comps = comps " " F[i]
      consider(F[1], F[2], F[3], comps)
    }
    END { flush(); if (found != "") print found }
  ' $files)
fi
if [ -z "$mirror" ]; then
  echo "debian-mirror.sh: no Debian mirror in the apt sources under $etc (a deb or deb-src entry" \
       "for a Debian release with component main): set HGRID_DEBIAN_MIRROR=URI (e.g." \
       "http://deb.debian.org/debian or your local mirror), or give the LAMMPS source with" \
       "-DHGRID_LAMMPS_SOURCE=<folder or tarball>" >&2
  exit 1
fi
echo "${mirror%/}"
