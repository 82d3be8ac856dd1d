#!/bin/sh
# The runtime library must export exactly one OpenXR symbol: xrNegotiateLoaderRuntimeInterface.
set -eu
exports=$(nm -D --defined-only "$1" | awk '$3 ~ /^xr/ { print $3 }')
echo "xr* exports: $exports"
[ "$exports" = "xrNegotiateLoaderRuntimeInterface" ]
