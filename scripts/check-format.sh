#!/usr/bin/env bash
# Checks that every tracked C++ source is formatted by the repository's .clang-format (Debian 12's
# clang-format 14). Prints the offending files and exits 1 if any is not; `--fix` formats them.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t sources < <(git ls-files '*.cpp' '*.h')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${sources[@]}"
  exit 0
fi
report="$(mktemp)"
trap 'rm -f "$report"' EXIT
if ! clang-format --dry-run -Werror "${sources[@]}" 2>"$report"; then
  grep -oE '^[^ :]+:[0-9]+:[0-9]+: (error|warning)' "$report" | cut -d: -f1 | sort -u |
    sed 's/^/not formatted: /' >&2
  echo "check-format: run scripts/check-format.sh --fix" >&2
  exit 1
fi
echo "check-format: ${#sources[@]} files formatted"
