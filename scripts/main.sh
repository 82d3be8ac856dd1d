#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: install dependencies, build, check the sample levels
# and play the courtyard (`stagger play --mode auto`: VR if an OpenXR runtime answers, else a
# window if there is a display, else headless). Extra arguments go to `stagger play`; without
# any it plays 60 seconds of game time.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
./build/release/app/stagger check levels/data/*.json levels/data/*.gltf
args=("$@")
if [ ${#args[@]} -eq 0 ]; then args=(--seconds 60); fi
./build/release/app/stagger play courtyard "${args[@]}"
