#!/usr/bin/env bash
# Installs the pinned npm packages of a test (SOURCE/package.json and SOURCE/package-lock.json)
# with `npm ci` into DEST, the first time and whenever the lock file changed:
#
#   tests/npm_ci.sh SOURCE DEST
#
# Exits 1 naming what is missing when node or npm is not installed (scripts/install-deps.sh
# installs them), or when npm ci fails.
set -euo pipefail
source=${1:?usage: npm_ci.sh SOURCE DEST}
dest=${2:?usage: npm_ci.sh SOURCE DEST}
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "npm_ci: node and npm are needed (scripts/install-deps.sh installs them)" >&2
  exit 1
fi
if ! cmp -s "$source/package-lock.json" "$dest/package-lock.json" ||
   [[ ! -d $dest/node_modules ]]; then
  mkdir -p "$dest"
  cp "$source/package.json" "$source/package-lock.json" "$dest/"
  (cd "$dest" && npm ci --no-audit --no-fund --loglevel=error) || {
    echo "npm_ci: npm ci failed in $dest" >&2
    exit 1
  }
fi
