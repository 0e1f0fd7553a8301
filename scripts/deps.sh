#!/usr/bin/env bash
# Installs the Debian bookworm packages Trident builds and tests with.
# Idempotent and silent when everything is present; needs root (or sudo) otherwise.
set -euo pipefail

packages=(
  cmake ninja-build g++ ccache git pkgconf
  doctest-dev libboost-dev
  llvm-19-dev llvm-19-tools lld-19 liblld-19-dev
  spirv-tools libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers
  rocm-device-libs
  python3-dev pybind11-dev python3-numpy
  clang-19 libclang-rt-19-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
