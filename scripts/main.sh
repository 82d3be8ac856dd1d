#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: install dependencies, build, check the sample levels
# and run `stagger sim` on the courtyard, printing its summary. Extra arguments go to `stagger sim`.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
./build/release/app/stagger check levels/data/*.json levels/data/*.gltf
./build/release/app/stagger sim levels/data/courtyard.json "$@"
