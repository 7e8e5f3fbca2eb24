#!/usr/bin/env bash
# The Android App Links half of issue 22: Android opens a share link in the app only when the
# site's /.well-known/assetlinks.json lists the SHA-256 fingerprint of the certificate the app
# is signed with. web/well-known.mjs writes that file from the repository variable
# HUARONG_ANDROID_CERT_SHA256; this script (mobile.yml, after signing) prints the fingerprint of
# the signed release APKs and fails when the variable is set but does not list it.
#
#   app-links-cert.sh OUT_DIR     # OUT_DIR: what android-collect.sh wrote (signed *-release.apk)
#
# Without the variable it only prints the value to set (a GitHub warning). With Play App
# Signing, Google re-signs what users install: list the app-signing key's fingerprint (Play
# Console > App integrity) as well as this upload key's. APKSIGNER overrides the apksigner used.
set -euo pipefail

out=${1:?usage: app-links-cert.sh OUT_DIR}
if [[ -z "${APKSIGNER:-}" ]]; then
    build_tools=$(find "${ANDROID_HOME:?}/build-tools" -mindepth 1 -maxdepth 1 -type d | sort -V | tail -n1)
    APKSIGNER="$build_tools/apksigner"
fi
mapfile -t apks < <(find "$out" -maxdepth 1 -name '*-release.apk' | sort)
if [[ ${#apks[@]} -eq 0 ]]; then
    echo "app-links-cert: no signed *-release.apk in $out" >&2
    exit 1
fi

listed=$(printf '%s' "${HUARONG_ANDROID_CERT_SHA256:-}" | tr '[:lower:]' '[:upper:]' | tr -d ' ')
seen=""
for apk in "${apks[@]}"; do
    digest=$("$APKSIGNER" verify --print-certs "$apk" |
        sed -n 's/^Signer #1 certificate SHA-256 digest: *\([0-9a-fA-F]\{64\}\)$/\1/p' | head -n1)
    if [[ -z "$digest" ]]; then
        echo "app-links-cert: apksigner printed no SHA-256 certificate digest for $apk" >&2
        exit 1
    fi
    fp=$(printf '%s' "$digest" | tr '[:lower:]' '[:upper:]' | sed 's/../&:/g; s/:$//')
    if [[ -n "$seen" && "$fp" != "$seen" ]]; then
        echo "app-links-cert: $apk is signed with $fp, the others with $seen" >&2
        exit 1
    fi
    seen=$fp
done
echo "app-links-cert: release APKs signed with SHA-256 $seen"
if [[ -z "$listed" ]]; then
    echo "::warning::HUARONG_ANDROID_CERT_SHA256 is not set: App Links will not verify (set it to $seen, plus the Play app-signing key's fingerprint)"
elif [[ ",$listed," != *",$seen,"* ]]; then
    echo "app-links-cert: HUARONG_ANDROID_CERT_SHA256 does not list $seen, the certificate these APKs are signed with: the site's assetlinks.json would not let them open links" >&2
    exit 1
else
    echo "app-links-cert: listed in HUARONG_ANDROID_CERT_SHA256 (assetlinks.json)"
fi
