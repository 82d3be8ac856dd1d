#!/usr/bin/env bash
# Installs every build and test dependency of Stagger from Debian 12's own packages.
# Idempotent: packages already present are left alone, and it is safe to run again.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config git clang-format
  # physics
  libbullet-dev
  # command line, data formats
  libcli11-dev nlohmann-json3-dev rapidjson-dev libtinygltf-dev libtinyobjloader-dev libpng-dev libstb-dev
  # navigation
  librecast-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev
  # the API reference (the stagger_docs target and its test; HTML only, no graphviz)
  doxygen
  # VR and rendering: OpenXR loader, Vulkan (Vulkan-Hpp headers, lavapipe), shaders, desktop window
  libopenxr-dev libopenxr-loader1 libvulkan-dev mesa-vulkan-drivers glslang-tools libglfw3-dev
  # VR and rendering tests: a display server, the OpenXR validation layer, hello_xr
  xvfb xauth xdotool openxr-layer-corevalidation vulkan-validationlayers libopenxr-utils
  # videos of runs (`--video`: ffmpeg encodes the frames) and their tests (ffprobe)
  ffmpeg
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
