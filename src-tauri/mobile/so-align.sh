#!/usr/bin/env bash
# Fails unless every native library in the built Android packages is ready for 16 KB memory
# pages (Google Play requires it for apps targeting Android 15+). Two checks:
#  1. zip alignment: each APK passes `zipalign -c -P 16 -v 4` (every uncompressed .so starts on
#     a 16 KiB boundary inside the APK, so Android can map it in place);
#  2. ELF alignment: every LOAD segment of every 64-bit library (arm64-v8a, x86_64) in the APKs
#     and AABs is aligned to at least 16 KiB (`llvm-readelf -l` from the NDK). 32-bit ABIs
#     (armeabi-v7a, x86) have no 16 KB-page devices: their alignment is printed, not required
#     (NDK r28 links only the 64-bit ABIs 16 KB-aligned by default, and the Tauri CLI owns
#     CARGO_TARGET_*_RUSTFLAGS, so a linker flag cannot be added for them from here).
#
#   so-align.sh DIR        DIR = the folder android-collect.sh filled (.apk, .aab)
# Needs ANDROID_HOME (build-tools 35 or newer, for zipalign -P), NDK_HOME (llvm-readelf), unzip.
set -euo pipefail

dir=${1:?usage: so-align.sh DIR}
build_tools=$(find "${ANDROID_HOME:?}/build-tools" -mindepth 1 -maxdepth 1 -type d | sort -V | tail -n1)
zipalign="$build_tools/zipalign"
readelf=$(find "${NDK_HOME:?}/toolchains/llvm/prebuilt" -path '*/bin/llvm-readelf' | head -n1)
[[ -x "$zipalign" ]] || { echo "no zipalign under $ANDROID_HOME/build-tools" >&2; exit 1; }
[[ -n "$readelf" ]] || { echo "no llvm-readelf under $NDK_HOME" >&2; exit 1; }
usage=$("$zipalign" -h 2>&1 || true) # it prints its usage and exits non-zero
if ! grep -q -- '-P' <<<"$usage"; then
    echo "$zipalign has no -P option: install build-tools 35 or newer" >&2
    exit 1
fi

mapfile -t packages < <(find "$dir" -maxdepth 1 \( -name '*.apk' -o -name '*.aab' \) | sort)
[[ ${#packages[@]} -gt 0 ]] || { echo "no APK or AAB in $dir" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bad=0
for pkg in "${packages[@]}"; do
    name=$(basename "$pkg")
    if [[ $name == *.apk ]]; then
        if "$zipalign" -c -P 16 -v 4 "$pkg" >"$work/zipalign.log" 2>&1; then
            echo "ok   zip 16 KiB  $name"
        else
            grep -v '(OK' "$work/zipalign.log" | tail -n 20
            echo "FAIL zip 16 KiB  $name"
            bad=$((bad + 1))
        fi
    fi
    rm -rf "$work/x"
    mkdir "$work/x"
    unzip -q -o "$pkg" 'lib/*.so' 'base/lib/*.so' -d "$work/x" 2>/dev/null || true
    mapfile -t libs < <(find "$work/x" -name '*.so' | sort)
    if [[ ${#libs[@]} -eq 0 ]]; then
        echo "FAIL no native library in $name (the Rust library is missing)"
        bad=$((bad + 1))
        continue
    fi
    for so in "${libs[@]}"; do
        abi=$(basename "$(dirname "$so")")
        min=
        while read -r align; do
            value=$((16#${align#0x}))
            if [[ -z $min || $value -lt $min ]]; then min=$value; fi
        done < <("$readelf" -lW "$so" | awk '$1 == "LOAD" { print $NF }')
        if [[ -z $min ]]; then
            echo "FAIL no LOAD segment in $name:$abi/$(basename "$so")"
            bad=$((bad + 1))
            continue
        fi
        case $abi in
        arm64-v8a | x86_64)
            if [[ $min -ge 16384 ]]; then
                echo "ok   ELF $min   $name:$abi/$(basename "$so")"
            else
                echo "FAIL ELF $min (< 16384) $name:$abi/$(basename "$so")"
                bad=$((bad + 1))
            fi
            ;;
        *) echo "info ELF $min   $name:$abi/$(basename "$so") (32-bit: 4 KB pages only)" ;;
        esac
    done
done
if [[ $bad -gt 0 ]]; then
    echo "$bad problem(s): not ready for 16 KB pages" >&2
    exit 1
fi
echo "every native library is 16 KB-page ready (${#packages[@]} packages)"
