#!/usr/bin/env bash
# Fails when the arm64 release APK (what a phone downloads) exceeds the 15 MB budget.
#   apk-budget.sh DIR   (the folder android-collect.sh filled)
set -euo pipefail

dir=${1:?usage: apk-budget.sh DIR}
budget=15000000 # 15 MB, decimal
mapfile -t apks < <(find "$dir" -name '*arm64*release*.apk' | sort)
if [[ ${#apks[@]} -eq 0 ]]; then
    echo "no arm64 release APK in $dir" >&2
    exit 1
fi
status=0
for apk in "${apks[@]}"; do
    size=$(stat -c %s "$apk")
    awk -v n="$(basename "$apk")" -v s="$size" -v b="$budget" \
        'BEGIN { printf "%s: %d bytes (%.2f MB of %d MB)\n", n, s, s / 1e6, b / 1e6 }'
    if [[ $size -gt $budget ]]; then
        echo "over budget" >&2
        status=1
    fi
done
exit $status
