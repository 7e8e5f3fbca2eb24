#!/usr/bin/env bash
# Huarong developer entry point: the README's two commands.
#   ./dev.sh play   build and open the app (installs missing Debian/Ubuntu packages first)
#   ./dev.sh test   run every test: format, lints, layers, unit, integration, kill, end-to-end and wasm tests
#   ./dev.sh check  the fast loop: format, lints, layers, docs, unit and integration tests; no
#                   browser, no app window (HUARONG_E2E=0), nothing installed
#   ./dev.sh web [build|serve|measure]   the web page (web/): build web/dist, serve it on
#                   http://127.0.0.1:8790/ (the default), or print its performance figures
# Both install what a fresh Debian 12 / Ubuntu machine lacks (with sudo when not root).
set -euo pipefail
cd "$(dirname "$0")"

APP_PKGS=(build-essential pkg-config curl file libwebkit2gtk-4.1-dev libssl-dev
          libayatana-appindicator3-dev librsvg2-dev libxdo-dev fonts-noto-cjk)
TEST_PKGS=(webkit2gtk-driver xvfb xauth dbus-daemon zbar-tools python3-pip python3-venv locales chromium)

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

sudo_if_needed() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

ensure_apt() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing system packages: ${missing[*]}"
    sudo_if_needed apt-get update -qq
    sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

# The E2E suite starts the app under en_US and zh_CN (the default language follows the system).
ensure_locales() {
  local missing=()
  for l in en_US.UTF-8 zh_CN.UTF-8; do
    locale -a 2>/dev/null | grep -qix "${l%.UTF-8}.utf8" || missing+=("$l")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "generating locales: ${missing[*]}"
  if [ -f /etc/locale.gen ]; then # Debian: locale-gen reads this file
    for l in "${missing[@]}"; do
      sudo_if_needed sed -i "s/^# *\(${l} UTF-8\)/\1/" /etc/locale.gen
      grep -q "^${l} UTF-8" /etc/locale.gen || echo "${l} UTF-8" | sudo_if_needed tee -a /etc/locale.gen >/dev/null
    done
  fi
  sudo_if_needed locale-gen "${missing[@]}" >/dev/null # Ubuntu: takes them as arguments
}

ensure_rust() {
  if ! command -v cargo >/dev/null 2>&1; then
    [ -x "$HOME/.cargo/bin/cargo" ] || { echo "Rust is missing: install it from rustup first" >&2; exit 1; }
    export PATH="$HOME/.cargo/bin:$PATH"
  fi
}

ensure_tauri_driver() {
  export PATH="$HOME/.cargo/bin:$PATH"
  if ! command -v tauri-driver >/dev/null 2>&1; then
    say "installing tauri-driver (cargo install tauri-driver --locked)"
    cargo install tauri-driver --locked --quiet
  fi
}

# The Chromium touch suite (tests/tests/chromium_touch.rs) drives Debian's chromium (TEST_PKGS)
# with playwright-core from tests/chromium; playwright-core never downloads a browser.
ensure_chromium_driver() {
  command -v npm >/dev/null 2>&1 || ensure_apt nodejs npm
  say "npm ci in tests/chromium (playwright-core for the Chromium touch suite)"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefix tests/chromium --no-audit --no-fund --loglevel=error
}

# The wasm smoke test (crates/web, tests/wasm/): the wasm32 target, wasm-bindgen-cli of exactly
# the version crates/web pins (the JS glue must match the crate), and Node.
ensure_wasm() {
  local want
  want=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' crates/web/Cargo.toml)
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "rustup target add wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
  if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $want" ]; then
    say "installing wasm-bindgen-cli $want (cargo install --locked)"
    # --locked first; where the registry lacks a locked dependency's exact version (webpki-roots
    # 1.0.11 for 0.2.130), the same version resolved against what the registry has.
    cargo install wasm-bindgen-cli --version "$want" --locked --quiet ||
      cargo install wasm-bindgen-cli --version "$want" --quiet
  fi
  command -v node >/dev/null 2>&1 || ensure_apt nodejs
}

# The web page's build tools: wasm-opt from the npm package binaryen and esbuild, pinned in
# web/package.json.
ensure_web_tools() {
  command -v npm >/dev/null 2>&1 || ensure_apt nodejs npm
  if [ ! -x web/node_modules/.bin/wasm-opt ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
    say "npm ci in web/ (binaryen's wasm-opt for the web build)"
    npm ci --prefix web --no-audit --no-fund --loglevel=error
  fi
}

# wasm-opt's features: exactly what rustc's wasm32-unknown-unknown output uses (its
# target_features section), never --all-features (that emits stringref, which Node 20 and
# older browsers reject).
WASM_FEATURES=(--enable-bulk-memory --enable-bulk-memory-opt --enable-call-indirect-overlong
               --enable-multivalue --enable-mutable-globals --enable-nontrapping-float-to-int
               --enable-reference-types --enable-sign-ext)

# web/dist: the first core (crates/web-first: a shared board before the core arrives) and the
# app core for wasm32 in the `web` profile (Cargo.toml), without the embedded 4×4
# tables, the core built twice: the board's wasm (no `full` feature: rules, codes, slots, journal,
# records) and the full one (+ searches, generators, the share card); their JS glue
# (wasm-bindgen --target web), wasm-opt -Os, then ui/ and the rest bundled by esbuild
# (web/build.mjs). See ARCHITECTURE.md, "The web shell".
web_build() {
  ensure_rust
  ensure_wasm
  ensure_web_tools
  rm -rf target/wasm-web
  local build features dir crate
  for build in first board full; do
    # Each build in its own target directory: with one, every build would link both again.
    features=(--no-default-features) dir=target crate=huarong_web
    [ "$build" = first ] && dir=target/web-first crate=huarong_web_first
    [ "$build" = board ] && dir=target/web-board
    [ "$build" = full ] && features+=(--features full)
    say "web: the app core for wasm32, the $build build (profile web, no embedded 4x4 tables)"
    cargo build --profile web --target wasm32-unknown-unknown -p "${crate//_/-}" "${features[@]}" \
      --target-dir "$dir" --quiet
    wasm-bindgen --target web --out-dir "target/wasm-web/$build" \
      "$dir/wasm32-unknown-unknown/web/$crate.wasm"
    # wasm-opt takes minutes on a busy machine: its output is kept for the same input.
    local sum cached="target/wasm-web-opt/$build"
    sum=$(sha256sum "target/wasm-web/$build/${crate}_bg.wasm" | cut -d' ' -f1)
    if [ "$(cat "$cached/input.sha256" 2>/dev/null)" != "$sum" ]; then
      say "web: wasm-opt -Os ($build)"
      mkdir -p "$cached"
      web/node_modules/.bin/wasm-opt -Os "${WASM_FEATURES[@]}" \
        "target/wasm-web/$build/${crate}_bg.wasm" -o "$cached/${crate}_bg.wasm"
      echo "$sum" >"$cached/input.sha256"
    fi
    cp "$cached/${crate}_bg.wasm" "target/wasm-web/$build/${crate}_bg.wasm"
  done
  node web/build.mjs target/wasm-web web/dist
}

cmd_web() {
  case "${1:-serve}" in
    build) web_build ;;
    serve)
      web_build
      say "serving web/dist on http://127.0.0.1:8790/ (Ctrl-C stops)"
      exec node web/serve.mjs web/dist 8790 ;;
    measure)
      web_build
      ensure_chromium_driver
      if [ ! -x tests/web/lighthouse/node_modules/.bin/lighthouse ] ||
        [ tests/web/lighthouse/package-lock.json -nt tests/web/lighthouse/node_modules/.package-lock.json ]; then
        say "npm ci in tests/web/lighthouse (Lighthouse for the measurements; no browser download)"
        PUPPETEER_SKIP_DOWNLOAD=1 npm ci --prefix tests/web/lighthouse --no-audit --no-fund --loglevel=error
      fi
      say "web: the measurements (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
      CHROME_PATH=/usr/bin/chromium node tests/web/measure.mjs ;;
    *) echo "usage: ./dev.sh web [build|serve|measure]" >&2; exit 2 ;;
  esac
}

cmd_play() {
  ensure_apt "${APP_PKGS[@]}"
  ensure_rust
  say "building and opening Huarong 华容"
  exec cargo run -p huarong-app -- "$@"
}

# What needs no build of the app: format, lints, layers, documents (both loops start with it).
static_checks() {
  say "cargo fmt --check"
  cargo fmt --all -- --check
  say "cargo clippy (warnings are errors)"
  cargo clippy --workspace --all-targets --quiet -- -D warnings
  say "the engine's, the app core's and the UI's layers: no import cycle, no upward import (crates/app/layers.py)"
  python3 crates/app/layers.py --self-test
  say "the documents: README and ARCHITECTURE short, every link between them resolves (tests/docs/check.py)"
  # `|| exit 1`: under `set -e` a failing command before `&&` would not stop the script.
  python3 tests/docs/check.py --self-test && python3 tests/docs/check.py || exit 1
}

# The fast loop a contributor runs after every change: what needs no browser and no window.
cmd_check() {
  ensure_rust
  static_checks
  say "unit and integration tests (HUARONG_E2E=0: the browser and app-window suites skip)"
  HUARONG_E2E=0 cargo test --workspace --quiet -- --test-threads="${HUARONG_TEST_THREADS:-2}"
}

cmd_test() {
  ensure_apt "${APP_PKGS[@]}" "${TEST_PKGS[@]}"
  ensure_locales
  ensure_rust
  ensure_tauri_driver
  ensure_chromium_driver
  ensure_wasm
  static_checks
  say "building the app binary the end-to-end tests drive"
  cargo build -p huarong-app --quiet
  if [ -x src-tauri/mobile/check.sh ]; then
    say "mobile configuration checks"
    src-tauri/mobile/check.sh
  fi
  # The web page's Chromium suite (tests/tests/web_chromium.rs) runs against web/dist.
  web_build
  say "unit, integration, kill and end-to-end tests"
  HUARONG_E2E=1 cargo test --workspace --no-fail-fast -- --test-threads="${HUARONG_TEST_THREADS:-2}"
  say "web: the board's build of the core (crates/web without its feature full)"
  cargo test -p huarong-web --no-default-features --quiet -- --test-threads="${HUARONG_TEST_THREADS:-2}"
  say "web: the App Link / Universal Link files (web/well-known.mjs)"
  node --test tests/web/well-known.test.mjs
  say "web: the precompressed siblings and how the server sends them (tests/web/compressed.test.mjs)"
  node --test tests/web/compressed.test.mjs
  say "web: the service worker caches a hashed file only when its bytes have its hash (tests/web/sw-cache.test.mjs)"
  node --test tests/web/sw-cache.test.mjs
  say "wasm: engine, card and app core for wasm32-unknown-unknown, the Node smoke test (tests/wasm/)"
  # A test build: with the stand-in game, which the smoke test plays (never in web_build).
  cargo build --target wasm32-unknown-unknown -p huarong-web -p huarong-card -p huarong-core \
    --features huarong-web/stand-in --quiet &&
    wasm-bindgen --target nodejs --out-dir target/wasm-node \
      target/wasm32-unknown-unknown/debug/huarong_web.wasm &&
    node --test tests/wasm/*.mjs
}

case "${1:-}" in
  play) shift; cmd_play "$@" ;;
  test) shift; cmd_test "$@" ;;
  check) shift; cmd_check "$@" ;;
  web) shift; cmd_web "$@" ;;
  *) echo "usage: ./dev.sh play | ./dev.sh test | ./dev.sh check | ./dev.sh web [build|serve|measure]" >&2; exit 2 ;;
esac
