#!/usr/bin/env bash
# Collects what `tauri android build` left in gen/android/app/build/outputs into one folder,
# signing the release APKs and AABs when a keystore is given (used by
# .github/workflows/mobile.yml, works the same on a developer's machine).
#
#   android-collect.sh OUT_DIR                 # debug APKs as built, release ones left unsigned
#   android-collect.sh OUT_DIR KEYSTORE_FILE   # release APKs zipaligned + apksigner-signed,
#                                              # AABs jarsigner-signed
# zipalign -P 16: uncompressed .so files stay on 16 KiB boundaries (16 KB pages; needs
# build-tools 35 or newer; -p would re-align them to 4 KiB).
# With a keystore, these variables are read (never put on a command line):
#   ANDROID_KEYSTORE_PASSWORD, ANDROID_KEY_ALIAS, ANDROID_KEY_PASSWORD
# Needs ANDROID_HOME (for build-tools' zipalign and apksigner) and a JDK (jarsigner).
set -euo pipefail

out=${1:?usage: android-collect.sh OUT_DIR [KEYSTORE_FILE]}
keystore=${2:-}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
outputs="$root/src-tauri/gen/android/app/build/outputs"
mkdir -p "$out"

mapfile -t debug_apks < <(find "$outputs/apk" -name '*-debug.apk' | sort)
mapfile -t release_apks < <(find "$outputs/apk" -name '*-release-unsigned.apk' | sort)
mapfile -t aabs < <(find "$outputs/bundle" -name '*-release.aab' 2>/dev/null | sort)
if [[ ${#debug_apks[@]} -eq 0 && ${#release_apks[@]} -eq 0 && ${#aabs[@]} -eq 0 ]]; then
    echo "no APK or AAB under $outputs: run tauri android build first" >&2
    exit 1
fi

for apk in "${debug_apks[@]}"; do
    cp "$apk" "$out/"
done

if [[ -z "$keystore" ]]; then
    for f in "${release_apks[@]}" "${aabs[@]}"; do
        base=$(basename "$f")
        case $base in
        *-unsigned.apk) cp "$f" "$out/$base" ;;
        *) cp "$f" "$out/${base%.aab}-unsigned.aab" ;;
        esac
    done
else
    : "${ANDROID_KEYSTORE_PASSWORD:?}" "${ANDROID_KEY_ALIAS:?}" "${ANDROID_KEY_PASSWORD:?}"
    build_tools=$(find "${ANDROID_HOME:?}/build-tools" -mindepth 1 -maxdepth 1 -type d | sort -V | tail -n1)
    for apk in "${release_apks[@]}"; do
        name=$(basename "$apk" -unsigned.apk)
        "$build_tools/zipalign" -f -P 16 4 "$apk" "$out/$name-aligned.apk"
        "$build_tools/apksigner" sign --ks "$keystore" \
            --ks-pass env:ANDROID_KEYSTORE_PASSWORD --ks-key-alias "$ANDROID_KEY_ALIAS" \
            --key-pass env:ANDROID_KEY_PASSWORD --out "$out/$name.apk" "$out/$name-aligned.apk"
        rm "$out/$name-aligned.apk"
        "$build_tools/apksigner" verify "$out/$name.apk"
    done
    for aab in "${aabs[@]}"; do
        jarsigner -keystore "$keystore" -storepass:env ANDROID_KEYSTORE_PASSWORD \
            -keypass:env ANDROID_KEY_PASSWORD -sigalg SHA256withRSA -digestalg SHA-256 \
            -signedjar "$out/$(basename "$aab")" "$aab" "$ANDROID_KEY_ALIAS"
    done
fi

ls -l "$out"
