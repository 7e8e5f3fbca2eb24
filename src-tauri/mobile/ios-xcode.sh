#!/usr/bin/env bash
# The iOS job's toolchain, on the macOS runner before anything is built:
#  1. Xcode 26: App Store Connect takes only uploads built with Xcode 26 and the iOS 26 SDK.
#     Keeps the runner's default Xcode when it is 26.x, else selects the newest non-beta
#     /Applications/Xcode_26*.app; then requires the iOS SDK to be 26 or newer.
#  2. An iOS simulator runtime for that SDK: Xcode 26 needs one to compile asset catalogs and
#     for simulator builds, and a runner image can ship an Xcode without its runtime. Downloads
#     it (xcodebuild -downloadPlatform iOS) when missing, then checks again.
#   ios-xcode.sh [MAJOR]      MAJOR defaults to 26
set -euo pipefail

want=${1:-26}
major() { xcodebuild -version | awk 'NR == 1 { split($2, v, "."); print v[1] }'; }

if [[ "$(major)" != "$want" ]]; then
    candidate=$(find /Applications -maxdepth 1 -name "Xcode_${want}*.app" ! -iname '*beta*' | sort -V | tail -n1)
    if [[ -z $candidate ]]; then
        echo "no Xcode $want on this runner:" >&2
        find /Applications -maxdepth 1 -name 'Xcode*.app' >&2
        exit 1
    fi
    sudo xcode-select -s "$candidate/Contents/Developer"
fi
xcodebuild -version
if [[ "$(major)" != "$want" ]]; then
    echo "Xcode $want is not the selected Xcode" >&2
    exit 1
fi
sdk=$(xcrun --sdk iphoneos --show-sdk-version)
if [[ ${sdk%%.*} -lt $want ]]; then
    echo "iOS SDK $sdk is older than $want" >&2
    exit 1
fi

sim_sdk=$(xcrun --sdk iphonesimulator --show-sdk-version)
has_runtime() { # an available iOS runtime whose major.minor is the simulator SDK's
    xcrun simctl list runtimes --json | python3 -c '
import json, sys
want = sys.argv[1].split(".")[:2]
rts = json.load(sys.stdin).get("runtimes", [])
ok = [r for r in rts if r.get("isAvailable")
      and (r.get("platform") == "iOS" or str(r.get("name", "")).startswith("iOS "))
      and str(r.get("version", "")).split(".")[:2] == want]
for r in ok:
    print("simulator runtime:", r.get("name"), r.get("identifier"))
sys.exit(0 if ok else 1)
' "$sim_sdk"
}
if ! has_runtime; then
    echo "no iOS $sim_sdk simulator runtime: downloading it"
    xcodebuild -downloadPlatform iOS
    if ! has_runtime; then
        echo "still no iOS $sim_sdk simulator runtime:" >&2
        xcrun simctl list runtimes >&2
        exit 1
    fi
fi
echo "Xcode $(major) with iOS SDK $sdk and an iOS $sim_sdk simulator runtime"
