#!/usr/bin/env bash
# Installs the Debian 12 packages ASG Farm needs to build, test and run. Idempotent: packages
# already present are left alone and apt is not touched at all when nothing is missing.
# Run as root (or with sudo available).
set -euo pipefail

packages=(
  cmake g++ make pkg-config git ca-certificates
  libboost1.81-dev libboost-program-options1.81-dev libboost-filesystem1.81-dev
  nlohmann-json3-dev libeigen3-dev libstb-dev libtbb-dev zlib1g-dev libdeflate-dev libzstd-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libembree-dev libbullet-dev
  libegl-dev libgl-dev libopengl-dev libegl-mesa0 libgl1-mesa-dri
  python3 python3-jsonschema clang-format chromium
  slurm-wlm munge
)
# Node.js and npm for the tests that read recordings back with npm packages
# (tests/recording/npm/): Debian's, unless a node with its npm is already installed (NodeSource's
# nodejs bundles npm and conflicts with Debian's npm package).
if ! command -v npm >/dev/null 2>&1; then
  packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
