#!/bin/sh
# Runs Debian's hello_xr against the simulated runtime. hello_xr quits on any key, so its stdin is a
# FIFO that this script holds open for writing (no key, no EOF) until hello_xr exits by itself.
# Usage: run_hello_xr.sh HELLO_XR SCRIPT.json [hello_xr options...]; XR_RUNTIME_JSON etc. from the env.
set -u
hello_xr=$1
script=$2
shift 2
validation_file=${XR_CORE_VALIDATION_FILE_NAME:-}
[ -n "$validation_file" ] && rm -f "$validation_file"
[ -n "${STAGGER_SIMXR_SUMMARY:-}" ] && rm -f "$STAGGER_SIMXR_SUMMARY"
dir=$(mktemp -d)
mkfifo "$dir/stdin"
exec 3<>"$dir/stdin"
STAGGER_SIMXR_SCRIPT=$script "$hello_xr" "$@" <&3
rc=$?
exec 3>&-
rm -rf "$dir"
if [ -n "${STAGGER_SIMXR_SUMMARY:-}" ] && [ -f "$STAGGER_SIMXR_SUMMARY" ]; then
  grep -E '"frames_(submitted|total)"' "$STAGGER_SIMXR_SUMMARY"
  # Frames run, and frames with a picture: the first two come before the session is VISIBLE
  # (SimXR, like real runtimes, synchronises on the app's first ended frame), so they have none.
  total=$(sed -n 's/.*"frames_total": *\([0-9]*\).*/\1/p' "$STAGGER_SIMXR_SUMMARY")
  submitted=$(sed -n 's/.*"frames_submitted": *\([0-9]*\).*/\1/p' "$STAGGER_SIMXR_SUMMARY")
  if [ "$rc" -eq 0 ] && { [ "${STAGGER_EXPECT_FRAMES:-0}" -gt "${total:-0}" ] ||
                          [ $(( ${STAGGER_EXPECT_FRAMES:-0} - 2 )) -gt "${submitted:-0}" ]; }; then
    echo "expected $STAGGER_EXPECT_FRAMES frames, $(( ${STAGGER_EXPECT_FRAMES:-0} - 2 )) with a picture; got ${total:-none}, ${submitted:-none}"
    rc=1
  fi
fi
# The core validation layer writes its file only when it has something to report.
if [ -n "$validation_file" ] && [ -s "$validation_file" ]; then
  echo "core validation reported:"
  cat "$validation_file"
  rc=1
fi
echo "hello_xr exit code: $rc"
exit $rc
