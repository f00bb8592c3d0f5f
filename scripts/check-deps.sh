#!/usr/bin/env bash
# Fails when the build uses a system file that no package of scripts/install-deps.sh brings in,
# i.e. a file that is on this machine only by chance (a fresh Debian 12 machine would not have it).
#
#   scripts/check-deps.sh BUILD_DIR
#
# What the build uses: every library under /usr that a target links (the build's link.txt
# files) and the CMake package folders find_package read (*_DIR entries of CMakeCache.txt). Each
# must belong to a package in the closure of install-deps.sh's list under Depends and
# Pre-Depends (Recommends are not installed: install-deps.sh uses --no-install-recommends).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: check-deps.sh BUILD_DIR}
[[ -f "$build/CMakeCache.txt" ]] || { echo "check-deps: $build is not a configured build" >&2; exit 2; }

# The package list of install-deps.sh, read from the script itself.
mapfile -t listed < <(sed -n '/^packages=(/,/^)/p' "$root/scripts/install-deps.sh" |
                        sed '1d;$d' | tr ' ' '\n' | sed '/^$/d')

# Their closure under Depends / Pre-Depends, among installed packages ("pkg:arch" -> "pkg").
closure=$(apt-cache depends --recurse --installed --no-recommends --no-suggests --no-conflicts \
            --no-breaks --no-replaces --no-enhances "${listed[@]}" 2>/dev/null |
          grep -v '^ ' | sed 's/:.*$//' | sort -u)

mapfile -t used < <(
  { find "$build" -name link.txt -print0 | xargs -0 cat |
      grep -oE '/usr/lib/[^ ;]+\.(so|a)(\.[0-9]+)*' || true
    grep -E '^[A-Za-z0-9_]+_DIR:PATH=/usr/' "$build/CMakeCache.txt" | sed 's/^[^=]*=//' || true
  } | sort -u)

missing=0
for path in "${used[@]}"; do
  [[ -e "$path" ]] || continue
  real=$(readlink -f "$path")
  owners=$( (dpkg -S "$path" 2>/dev/null; dpkg -S "$real" 2>/dev/null) | grep -v '^diversion' |
            sed 's/: .*$//' | tr ', ' '\n\n' | sed 's/:.*$//' | sed '/^$/d' | sort -u || true)
  if [[ -z "$owners" ]]; then
    echo "check-deps: $path belongs to no Debian package"
    missing=$((missing + 1))
    continue
  fi
  covered=0
  for owner in $owners; do
    grep -qx "$owner" <<<"$closure" && covered=1
  done
  if [[ $covered -eq 0 ]]; then
    echo "check-deps: $path comes from $(echo $owners | tr '\n' ' ')which scripts/install-deps.sh does not install"
    missing=$((missing + 1))
  fi
done
echo "check-deps: ${#used[@]} system files used by the build, $missing not covered by install-deps.sh"
[[ $missing -eq 0 ]]
