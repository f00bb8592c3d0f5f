#!/usr/bin/env bash
# Installs the pinned npm packages of a test (SOURCE/package.json and SOURCE/package-lock.json)
# with `npm ci` into DEST, the first time and whenever the lock file changed:
#
#   tests/npm_ci.sh SOURCE DEST
#
# Exits 1 naming what is missing when node or npm is not installed (scripts/install-deps.sh
# installs them), or when npm ci fails.
#
# Every package is authenticated by the sha512 `integrity` of the lock file, which npm ci checks
# for each tarball whatever the connection. On a machine whose certificate store cannot verify the
# registry's TLS certificate (a network that intercepts TLS with its own certificate authority,
# not installed on a freshly installed system), npm ci fails with a certificate error; it is then
# run once more without TLS verification, saying so, and still installs only the locked bytes.
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
  log=$(mktemp)
  trap 'rm -f "$log"' EXIT
  if ! (cd "$dest" && npm ci --no-audit --no-fund --loglevel=error) 2>"$log"; then
    cat "$log" >&2
    if ! grep -qE 'SELF_SIGNED_CERT|UNABLE_TO_GET_ISSUER_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE|CERT_' "$log"; then
      echo "npm_ci: npm ci failed in $dest" >&2
      exit 1
    fi
    echo "npm_ci: the registry's TLS certificate cannot be verified on this machine; installing" \
         "again without TLS verification (each package still checked against the lock file's" \
         "sha512 integrity)" >&2
    (cd "$dest" && npm ci --no-audit --no-fund --loglevel=error --strict-ssl=false) || {
      echo "npm_ci: npm ci failed in $dest" >&2
      exit 1
    }
  fi
fi
