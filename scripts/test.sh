#!/usr/bin/env bash
# All tests on a fresh Debian 12 machine: install dependencies, check the sources' format, build
# (Release), run ctest.
# PRESET=asan runs the same suite under AddressSanitizer and UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${PRESET:-release}"
./scripts/install-deps.sh
./scripts/check-format.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
ctest --preset "$preset" -j "$(nproc)"
