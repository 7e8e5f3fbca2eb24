#!/usr/bin/env python3
"""The mobile checks this machine can make without an Android SDK, NDK or Xcode (issues 8, 17, 24).

Run by check.sh (which installs the linters, PyYAML, Pillow and the Tauri CLI first); usable alone:

    python3 src-tauri/mobile/check.py            # all checks
    python3 src-tauri/mobile/check.py --self-test
        # the static checks against a temporary copy of the repository, once as it is (all must
        # pass) and once per known regression (each must fail the check that guards it)
    python3 src-tauri/mobile/check.py --fix-manifest
        # rewrite the deep-link block of the committed AndroidManifest.xml exactly as the
        # deep-link plugin's build script would (after changing plugins.deep-link)
    python3 src-tauri/mobile/check.py --fix-ios-icons
        # after `tauri icon`: flatten icons/ios/*.png onto the icon background (RGB, no alpha)

Each check prints PASS or FAIL with the reason; the last line is "N passed, M failed".
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import plistlib
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path


def set_root(root: Path) -> None:
    """Point every check at a copy of the repository: this one on import, the self-test's."""
    global ROOT, APP, CONF, IOS_CONF, ANDROID, MAIN, MANIFEST, WORKFLOW, MOBILE, IOS, PAGES, SHARE
    ROOT = root
    PAGES = root / ".github" / "workflows" / "pages.yml"
    SHARE = root / "crates" / "engine" / "src" / "code" / "mod.rs"
    APP = root / "src-tauri"
    CONF = APP / "tauri.conf.json"
    IOS_CONF = APP / "tauri.ios.conf.json"
    ANDROID = APP / "gen" / "android"
    MAIN = ANDROID / "app" / "src" / "main"
    MANIFEST = MAIN / "AndroidManifest.xml"
    WORKFLOW = root / ".github" / "workflows" / "mobile.yml"
    MOBILE = APP / "mobile"
    IOS = MOBILE / "ios"


set_root(Path(__file__).resolve().parents[2])
CLI = APP / "node_modules" / ".bin" / "tauri"
# Invoked as the project does (`npm run tauri -- …`): the generated Gradle build calls the CLI
# back the way it was invoked, so this decides what gen/android's BuildTask.kt contains.
TAURI = ["npm", "run", "--silent", "tauri", "--"]
CLI_SCHEMA = APP / "node_modules" / "@tauri-apps" / "cli" / "config.schema.json"

SCHEME = "huarong"
# What the Tauri 2.12 templates support and what this app is checked against (see README).
MIN_SDK = 24
IOS_MIN = "15.0"
# Total size of everything the icon generator writes (desktop, iOS, Android mipmaps).
ICON_BUDGET = 1_500_000

# Store-facing pins; the workflow and the README must say the same.
ANDROID_PLATFORM = "platforms;android-37.0"
NDK_VERSION = "28.2.13676358"
MIN_BUILD_TOOLS = 35  # zipalign -P 16
NODE_MAJOR = "22"
XCODE_MAJOR = "26"
IOS_RUNNER = "macos-26"
APP_NAME_ZH = "华容"
# The first Swatinem/rust-cache release that runs on Node.js 24 (v2 resolved to a Node 20 build).
RUST_CACHE_NODE24 = (2, 9, 1)
# Container-query length units (Safari 16 / Chrome 105; iOS 15 and older Android WebViews drop
# any declaration that uses one).
CQ_UNIT = re.compile(r"(?<![\w-])[-+]?(?:\d+\.?\d*|\.\d+)cq(?:w|h|i|b|min|max)\b", re.I)
# Apple's approved reasons per required-reason API category (privacy manifests).
PRIVACY_REASONS = {
    "NSPrivacyAccessedAPICategoryFileTimestamp": {"DDA9.1", "C617.1", "3B52.1", "0A2A.1"},
    "NSPrivacyAccessedAPICategorySystemBootTime": {"35F9.1", "8FFB.1", "3D61.1"},
    "NSPrivacyAccessedAPICategoryDiskSpace": {"85F4.1", "E174.1", "7D9E.1", "B728.1"},
    "NSPrivacyAccessedAPICategoryActiveKeyboards": {"3EC4.1", "54BD.1"},
    "NSPrivacyAccessedAPICategoryUserDefaults": {"CA92.1", "1C8F.1", "C56D.1", "AC6B.1"},
}

# Files of gen/android that differ from what `tauri android init` writes, on purpose.
# Everything else must be byte-identical to a fresh generation by the pinned CLI.
CUSTOMISED = {
    "app/src/main/java/app/huarong/puzzles/MainActivity.kt":
        "insets -> --safe-* (chained), system bars follow the app theme, portrait on phones",
    "app/src/main/res/values-zh/strings.xml": "launcher label 华容 in Chinese",
    "app/src/main/AndroidManifest.xml": "backup rules, deep-link intent filter",
    "app/src/main/res/values/themes.xml": "window background",
    "app/src/main/res/values-night/themes.xml": "window background (dark)",
    "app/src/main/res/values/huarong_colors.xml": "background colour",
    "app/src/main/res/values-night/huarong_colors.xml": "background colour (dark)",
    "app/src/main/res/xml/backup_rules.xml": "Auto Backup, Android 6-11",
    "app/src/main/res/xml/data_extraction_rules.xml": "backup and transfer, Android 12+",
    "app/build.gradle.kts": "compileSdkMinor = 0 (the platform is published as android-37.0)",
}
# Written by `tauri icon` (compared against a fresh icon generation instead).
ICON_RES = re.compile(r"^app/src/main/res/mipmap-[a-z0-9-]+/ic_launcher[a-z_]*\.(png|xml)$")

DESKTOP_ICONS = {  # name -> pixel size (None: container formats)
    "32x32.png": 32, "64x64.png": 64, "128x128.png": 128, "128x128@2x.png": 256,
    "icon.png": 512, "StoreLogo.png": 50, "Square30x30Logo.png": 30, "Square44x44Logo.png": 44,
    "Square71x71Logo.png": 71, "Square89x89Logo.png": 89, "Square107x107Logo.png": 107,
    "Square142x142Logo.png": 142, "Square150x150Logo.png": 150, "Square284x284Logo.png": 284,
    "Square310x310Logo.png": 310, "icon.icns": None, "icon.ico": None,
}
IOS_ICONS = {
    "AppIcon-20x20@1x.png": 20, "AppIcon-20x20@2x.png": 40, "AppIcon-20x20@2x-1.png": 40,
    "AppIcon-20x20@3x.png": 60, "AppIcon-29x29@1x.png": 29, "AppIcon-29x29@2x.png": 58,
    "AppIcon-29x29@2x-1.png": 58, "AppIcon-29x29@3x.png": 87, "AppIcon-40x40@1x.png": 40,
    "AppIcon-40x40@2x.png": 80, "AppIcon-40x40@2x-1.png": 80, "AppIcon-40x40@3x.png": 120,
    "AppIcon-60x60@2x.png": 120, "AppIcon-60x60@3x.png": 180, "AppIcon-76x76@1x.png": 76,
    "AppIcon-76x76@2x.png": 152, "AppIcon-83.5x83.5@2x.png": 167, "AppIcon-512@2x.png": 1024,
}
ANDROID_DENSITIES = {"mdpi": (48, 108), "hdpi": (72, 162), "xhdpi": (96, 216),
                     "xxhdpi": (144, 324), "xxxhdpi": (192, 432)}  # (icon, adaptive layer)


class Fail(Exception):
    pass


def need(cond: bool, msg: str) -> None:
    if not cond:
        raise Fail(msg)


def load_conf() -> dict:
    try:
        return json.loads(CONF.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise Fail(f"{CONF.relative_to(ROOT)} does not parse: {e}") from e


def link_base() -> tuple[str, str, str]:
    """The share links' base, (base, host, path), from its one place: LINK_BASE in the
    engine's code module (README, "Links")."""
    src = SHARE.read_text(encoding="utf-8")
    m = re.search(r'^pub const LINK_BASE: &str = "([^"]*)";$', src, re.M)
    need(m is not None, "crates/engine/src/code/mod.rs no longer defines pub const LINK_BASE")
    base = m.group(1)
    parts = re.fullmatch(r"https://([a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+)(/([^?#\s]*/)?)",
                         base)
    need(parts is not None, f"LINK_BASE {base!r} must be https://<lowercase host>/<path>/ (ending in /, "
         "no port, query or fragment)")
    return base, parts.group(1), parts.group(5)


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    need(head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{path.name} is not a PNG")
    return struct.unpack(">II", head[16:24])


def png_info(path: Path) -> tuple[int, set[bytes]]:
    """(colour type, chunk types) of a PNG: 2 = RGB, 6 = RGBA; a tRNS chunk also means alpha."""
    data = path.read_bytes()
    need(data[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG")
    chunks, i, colour = set(), 8, -1
    while i + 8 <= len(data):
        size, kind = struct.unpack(">I", data[i:i + 4])[0], data[i + 4:i + 8]
        if kind == b"IHDR":
            colour = data[i + 17]
        chunks.add(kind)
        i += 12 + size
        if kind == b"IEND":
            break
    need(colour >= 0 and b"IEND" in chunks, f"{path.name}: truncated PNG")
    return colour, chunks


def icon_background() -> tuple[int, int, int]:
    manifest = json.loads((APP / "icons" / "source" / "icon.json").read_text(encoding="utf-8"))
    colour = manifest.get("bg_color", "")
    need(re.fullmatch(r"#[0-9A-Fa-f]{6}", colour) is not None, f"icon.json bg_color {colour!r}")
    return tuple(int(colour[k:k + 2], 16) for k in (1, 3, 5))


def flatten(path: Path):
    """The PNG composited onto icon.json's bg_color, as an RGB Pillow image."""
    from PIL import Image  # installed by check.sh
    with Image.open(path) as im:
        rgba = im.convert("RGBA")
    back = Image.new("RGBA", rgba.size, icon_background() + (255,))
    return Image.alpha_composite(back, rgba).convert("RGB")


def flattened_pixels(path: Path) -> bytes:
    return flatten(path).tobytes()


def rgb_pixels(path: Path) -> bytes:
    from PIL import Image
    with Image.open(path) as im:
        return im.convert("RGB").tobytes()


def fix_ios_icons() -> int:
    n = 0
    for path in sorted((APP / "icons" / "ios").glob("*.png")):
        if png_info(path)[0] != 2 or b"tRNS" in png_info(path)[1]:
            flatten(path).save(path, optimize=True)
            n += 1
    print(f"flattened {n} iOS icons to RGB")
    return 0


def icns_entries(data: bytes) -> list[tuple[bytes, bytes]]:
    """The (type, payload) entries of an .icns file, sorted (the CLI writes them in hash order)."""
    need(data[:4] == b"icns" and struct.unpack(">I", data[4:8])[0] == len(data), "bad icns header")
    out, i = [], 8
    while i < len(data):
        kind, size = data[i:i + 4], struct.unpack(">I", data[i + 4:i + 8])[0]
        need(size >= 8 and i + size <= len(data), "bad icns entry")
        out.append((kind, data[i + 8:i + size]))
        i += size
    return sorted(out)


def run(cmd: list[str], cwd: Path, env: dict | None = None) -> None:
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise Fail(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stdout[-2000:]}{r.stderr[-2000:]}")


def same_file(a: Path, b: Path) -> bool:
    if a.name.endswith(".icns"):
        return icns_entries(a.read_bytes()) == icns_entries(b.read_bytes())
    return a.read_bytes() == b.read_bytes()


# ---------------------------------------------------------------------------------------------
# tauri.conf.json


def check_version() -> str:
    conf = load_conf()
    version = conf.get("version")
    need(isinstance(version, str) and re.fullmatch(r"\d+\.\d+\.\d+", version or ""),
         f"version must be MAJOR.MINOR.PATCH, got {version!r}")
    ws = tomllib.loads((ROOT / "Cargo.toml").read_text(encoding="utf-8"))
    cargo_version = ws["workspace"]["package"]["version"]
    need(version == cargo_version,
         f"tauri.conf.json version {version} != workspace Cargo.toml version {cargo_version}")
    major, minor, patch = (int(x) for x in version.split("."))
    android = conf.get("bundle", {}).get("android", {})
    need("autoIncrementVersionCode" not in android or android["autoIncrementVersionCode"] is False,
         "autoIncrementVersionCode would make the version code depend on local build history")
    if "versionCode" in android:
        code = android["versionCode"]
        need(isinstance(code, int) and 1 <= code <= 2_100_000_000, f"bad versionCode {code!r}")
        how = "set in bundle.android.versionCode"
    else:
        code = major * 1_000_000 + minor * 1_000 + patch  # what the Tauri CLI derives
        need(1 <= code <= 2_100_000_000, f"version {version} gives an invalid Android versionCode")
        how = ("derived by the CLI: major*1000000 + minor*1000 + patch; CI builds use the run "
               "number instead, check_build_number")
    return f"version {version} = Cargo workspace version; Android versionCode {code} ({how})"


def check_schema() -> str:
    try:
        import jsonschema  # installed by check.sh
    except ImportError as e:
        raise Fail("python package jsonschema missing (check.sh installs it)") from e
    need(CLI_SCHEMA.exists(), f"{CLI_SCHEMA.relative_to(ROOT)} missing: run npm ci in src-tauri")
    schema = json.loads(CLI_SCHEMA.read_text(encoding="utf-8"))
    build = build_config(12345)
    for what, conf in (("tauri.conf.json", load_conf()),
                       ("tauri.conf.json + tauri.ios.conf.json", merged(load_conf(), load_ios_conf())),
                       ("tauri.conf.json + the workflow's BUILD_CONFIG", merged(load_conf(), build))):
        errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(conf), key=str)
        need(not errors, f"{what}: " + "; ".join(f"{'/'.join(map(str, e.path))}: {e.message}"
                                                 for e in errors[:5]))
    return ("tauri.conf.json, with tauri.ios.conf.json and with the workflow's build number, is "
            "valid against the pinned CLI's config schema")


def merged(base: dict, patch: dict) -> dict:
    """JSON merge patch (RFC 7396), how the Tauri CLI merges platform files and --config."""
    out = dict(base)
    for k, v in patch.items():
        if v is None:
            out.pop(k, None)
        elif isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = merged(out[k], v)
        else:
            out[k] = v
    return out


def load_ios_conf() -> dict:
    need(IOS_CONF.exists(), "src-tauri/tauri.ios.conf.json missing (the ASCII iOS productName)")
    try:
        return json.loads(IOS_CONF.read_text(encoding="utf-8"))
    except ValueError as e:
        raise Fail(f"tauri.ios.conf.json does not parse: {e}") from e


def check_mobile_config() -> str:
    conf = load_conf()
    ident = conf.get("identifier", "")
    need(re.fullmatch(r"[a-z][a-z0-9]*(\.[a-z][a-z0-9]*){2,}", ident) is not None,
         f"identifier {ident!r} must be reverse-DNS, lowercase, no '-' or '_' (Android and iOS "
         "rewrite those differently)")
    bundle = conf.get("bundle", {})
    need(bundle.get("android", {}).get("minSdkVersion") == MIN_SDK,
         f"bundle.android.minSdkVersion must be {MIN_SDK}")
    need(bundle.get("iOS", {}).get("minimumSystemVersion") == IOS_MIN,
         f"bundle.iOS.minimumSystemVersion must be {IOS_MIN!r}")
    for icon in bundle.get("icon", []):
        need((APP / icon).exists(), f"bundle.icon lists missing {icon}")
    first_png = next((i for i in bundle.get("icon", []) if i.endswith(".png")), None)
    need(first_png is not None and png_size(APP / first_png)[0] >= 128,
         "the first PNG in bundle.icon becomes the window icon: use one of at least 128 px")
    dl = conf.get("plugins", {}).get("deep-link")
    need(isinstance(dl, dict), "plugins.deep-link missing")
    mobile = dl.get("mobile", [])
    need(any(SCHEME in d.get("scheme", []) and d.get("appLink") is False and "host" not in d
             for d in mobile),
         f"plugins.deep-link.mobile needs {{scheme: [{SCHEME!r}], appLink: false}} (the first links)")
    base, host, path = link_base()
    web = [d for d in mobile if set(d.get("scheme", ["https", "http"])) & {"https", "http"}]
    want = {"scheme": ["https"], "host": host, "path": [path], "appLink": True}
    need(web == [want],
         f"plugins.deep-link.mobile must have exactly one web entry, {json.dumps(want)} (the App "
         f"Link / Universal Link of LINK_BASE {base}), has {json.dumps(web)}")
    desktop = dl.get("desktop", {})
    desktop = desktop if isinstance(desktop, list) else [desktop]
    need(any(SCHEME in d.get("schemes", []) for d in desktop),
         f"plugins.deep-link.desktop needs schemes [{SCHEME!r}]")
    return (f"identifier {ident}; Android minSdk {MIN_SDK}; iOS {IOS_MIN}; deep link "
            f"{SCHEME}:// on mobile and desktop; App Link / Universal Link https://{host}{path} "
            "= LINK_BASE")


def check_capabilities() -> str:
    names = []
    for path in sorted((APP / "capabilities").glob("*.json")):
        cap = json.loads(path.read_text(encoding="utf-8"))
        names.append(path.name)
        for plat in cap.get("platforms", []):
            need(plat in {"linux", "macOS", "windows", "android", "iOS"},
                 f"{path.name}: unknown platform {plat!r}")
        for perm in cap.get("permissions", []):
            ident = perm if isinstance(perm, str) else perm.get("identifier", "")
            need(not ident.startswith("sharekit:"),
                 f"{path.name} grants {ident}: the webview must not choose files to share; "
                 "sharing goes through the app's own command (src/mobile.rs)")
    return f"no capability grants the share plugin to the webview ({', '.join(names)})"


# ---------------------------------------------------------------------------------------------
# icons


def check_icon_set() -> str:
    icons = APP / "icons"
    total = 0
    for name, size in DESKTOP_ICONS.items():
        p = icons / name
        need(p.exists(), f"icons/{name} missing")
        total += p.stat().st_size
        if size:
            need(png_size(p) == (size, size), f"icons/{name} is not {size}x{size}")
    for name, size in IOS_ICONS.items():
        p = icons / "ios" / name
        need(p.exists(), f"icons/ios/{name} missing")
        total += p.stat().st_size
        need(png_size(p) == (size, size), f"icons/ios/{name} is not {size}x{size}")
    res = MAIN / "res"
    for dens, (size, layer) in ANDROID_DENSITIES.items():
        for name, px in [("ic_launcher.png", size), ("ic_launcher_round.png", size),
                         ("ic_launcher_foreground.png", layer), ("ic_launcher_background.png", layer),
                         ("ic_launcher_monochrome.png", layer)]:
            p = res / f"mipmap-{dens}" / name
            need(p.exists(), f"{p.relative_to(APP)} missing")
            total += p.stat().st_size
            need(png_size(p) == (px, px), f"{p.relative_to(APP)} is not {px}x{px}")
    adaptive = (res / "mipmap-anydpi-v26" / "ic_launcher.xml").read_text(encoding="utf-8")
    for layer in ("foreground", "background", "monochrome"):
        need(f'<{layer} android:drawable="@mipmap/ic_launcher_{layer}"/>' in adaptive,
             f"adaptive icon lacks its {layer} layer")
    need(total <= ICON_BUDGET, f"icons take {total} bytes, budget {ICON_BUDGET}")
    return f"desktop, iOS and Android (adaptive + monochrome) icons complete: {total / 1e3:.0f} kB"


def check_icons_match_source(tmp: Path) -> str:
    """The committed icons are exactly what `tauri icon` makes from icons/source/icon.json."""
    need(CLI.exists(), "Tauri CLI missing: run npm ci in src-tauri")
    work = tmp / "icons-app"
    (work / "icons").mkdir(parents=True)
    shutil.copytree(APP / "icons" / "source", work / "icons" / "source")
    (work / "gen" / "android" / "app" / "src" / "main" / "res").mkdir(parents=True)
    shutil.copy2(APP / "package.json", work / "package.json")
    (work / "node_modules").symlink_to(APP / "node_modules")
    run(TAURI + ["icon", "icons/source/icon.json", "-o", str(work / "icons")], cwd=work)
    compared = 0
    fresh_root = work / "icons"
    for fresh in sorted(p for p in fresh_root.rglob("*") if p.is_file()):
        rel = fresh.relative_to(fresh_root)
        if rel.parts[0] == "source":
            continue
        mine = APP / "icons" / rel
        need(mine.exists(), f"icons/{rel} is generated but not committed")
        if rel.parts[0] == "ios":
            need(png_info(mine)[0] == 2, f"icons/{rel} has alpha: run check.py --fix-ios-icons")
            need(flattened_pixels(fresh) == rgb_pixels(mine),
                 f"icons/{rel} is not a fresh `tauri icon` run flattened (check.py --fix-ios-icons)")
        else:
            need(same_file(fresh, mine), f"icons/{rel} differs from a fresh `tauri icon` run")
        compared += 1
    fresh_res = work / "gen" / "android" / "app" / "src" / "main" / "res"
    for fresh in sorted(p for p in fresh_res.rglob("*") if p.is_file()):
        rel = fresh.relative_to(fresh_res)
        mine = MAIN / "res" / rel
        need(mine.exists(), f"res/{rel} is generated but not committed")
        need(same_file(fresh, mine), f"res/{rel} differs from a fresh `tauri icon` run")
        compared += 1
    committed = {p.relative_to(APP / "icons") for p in (APP / "icons").rglob("*")
                 if p.is_file() and "source" not in p.relative_to(APP / "icons").parts}
    fresh_set = {p.relative_to(fresh_root) for p in fresh_root.rglob("*")
                 if p.is_file() and p.relative_to(fresh_root).parts[0] != "source"}
    need(committed == fresh_set, f"stale icons: {sorted(map(str, committed - fresh_set))}")
    return (f"{compared} icon files regenerate identically from icons/source/icon.json "
            "(iOS ones as flattened RGB pixels)")


# ---------------------------------------------------------------------------------------------
# gen/android


def deep_link_intent_filter(domain: dict) -> str:
    """Same text as tauri-plugin-deep-link 2.x build.rs `intent_filter` (schemes default to
    https + http; an entry is an App Link when `appLink` says so, else when it is a web one
    with a host)."""
    scheme_list = domain.get("scheme", ["https", "http"])
    host = f'<data android:host="{domain["host"]}" />' if domain.get("host") else ""
    web = any(s in ("https", "http") for s in scheme_list)
    app_link = domain.get("appLink", web and bool(domain.get("host")))
    auto_verify = 'android:autoVerify="true" ' if app_link else ""
    schemes = "\n    ".join(f'<data android:scheme="{s}" />' for s in scheme_list)

    def many(key: str, attr: str) -> str:
        return "\n    ".join(f'<data android:{attr}="{v}" />' for v in domain.get(key, []))

    text = (f"<intent-filter {auto_verify}>\n"
            '    <action android:name="android.intent.action.VIEW" />\n'
            "    <!-- ChromeOS ARC++ uses a different action for deep links -->\n"
            '    <action android:name="org.chromium.arc.intent.action.VIEW" />\n'
            '    <category android:name="android.intent.category.DEFAULT" />\n'
            '    <category android:name="android.intent.category.BROWSABLE" />\n'
            f"    {schemes}\n    {host}\n    {many('path', 'path')}\n"
            f"    {many('pathPattern', 'pathPattern')}\n    {many('pathPrefix', 'pathPrefix')}\n"
            f"    {many('pathSuffix', 'pathSuffix')}\n</intent-filter>")
    return text.strip()


def insert_block(xml: str, block_id: str, parent: str, contents: str) -> str:
    """Same algorithm as tauri-utils 2.x build::insert_into_xml (used by update_android_manifest)."""
    comment = f"<!-- {block_id}. AUTO-GENERATED. DO NOT REMOVE. -->"
    out, inside = [], False
    for line in xml.split("\n"):
        if comment in line:
            inside = not inside
            continue
        if inside:
            continue
        idx = line.find(f"</{parent}>")
        if idx >= 0:
            pad = " " * (idx + 4)
            out.append(pad + comment)
            out.extend(pad + part for part in contents.split("\n"))
            out.append(pad + comment)
        out.append(line)
    return "\n".join(out)


def expected_manifest(current: str) -> str:
    mobile = load_conf()["plugins"]["deep-link"]["mobile"]
    block = "\n".join(deep_link_intent_filter(d) for d in mobile)
    return insert_block(current, "DEEP LINK PLUGIN", "activity", block)


def persist_file_names() -> list[str]:
    core = ROOT / "crates" / "app" / "src"
    src = (core / "persist" / "mod.rs").read_text(encoding="utf-8")
    log = (core / "persist" / "log.rs").read_text(encoding="utf-8")
    names = [re.search(rf'pub const {c}: &str = "([^"]+)";', src) for c in ("STORE_FILE", "GOOD_FILE")]
    names.append(re.search(r'pub const LOG_FILE: &str = "([^"]+)";', log))
    need(all(names), "crates/app/src/persist/ no longer defines STORE_FILE, GOOD_FILE and LOG_FILE")
    journal = (core / "journal" / "mod.rs").read_text(encoding="utf-8")
    games = re.search(r'pub const GAMES_DIR: &str = "([^"]+)";', journal)
    need(games is not None, "crates/app/src/journal/mod.rs no longer defines GAMES_DIR")
    return [m.group(1) for m in names] + [games.group(1)]


def check_manifest() -> str:
    xml = MANIFEST.read_text(encoding="utf-8")
    need(expected_manifest(xml) == xml,
         "AndroidManifest.xml's deep-link block is not what the deep-link plugin writes: run "
         "python3 src-tauri/mobile/check.py --fix-manifest")
    need(f'<data android:scheme="{SCHEME}" />' in xml, f"no intent filter for {SCHEME}://")
    _, host, path = link_base()
    verified = [f.split("</intent-filter>")[0] for f in xml.split("<intent-filter ")[1:]
                if f.startswith('android:autoVerify="true"')]
    need(any(f'<data android:scheme="https" />' in f and f'<data android:host="{host}" />' in f
             and f'<data android:path="{path}" />' in f and "android.intent.category.BROWSABLE" in f
             for f in verified),
         f"no autoVerify intent filter for https://{host}{path} (LINK_BASE): App Links would open "
         "the browser")
    for attr, res in [("android:fullBackupContent", "backup_rules"),
                      ("android:dataExtractionRules", "data_extraction_rules")]:
        need(f'{attr}="@xml/{res}"' in xml, f"manifest lacks {attr}")
    for token in ("leanback", "LEANBACK_LAUNCHER"):
        need(token not in xml, f"AndroidManifest.xml still declares Android TV ({token}): a TV "
             "launcher needs a banner, and this is a portrait touch game")
    need('android:windowSoftInputMode="adjustResize"' in xml,
         "MainActivity needs windowSoftInputMode adjustResize (keyboard insets reach the listener)")
    files = persist_file_names()
    for res in ("backup_rules", "data_extraction_rules"):
        rules = (MAIN / "res" / "xml" / f"{res}.xml").read_text(encoding="utf-8")
        includes = re.findall(r'<include domain="root" path="([^"]+)" />', rules)
        sections = 2 if res == "data_extraction_rules" else 1
        need(sorted(includes) == sorted(files * sections),
             f"{res}.xml must include exactly {files} (from crates/app/src/persist/mod.rs and journal/mod.rs) in each section, "
             f"has {includes}")
    return (f"deep-link intent filters as the plugin writes them (App Link https://{host}{path}, "
            f"autoVerify); no Android TV declarations; "
            f"adjustResize; backups hold only {', '.join(files)}")


def main_activity_source() -> str:
    ident = load_conf()["identifier"]
    path = MAIN / "java" / Path(*ident.split(".")) / "MainActivity.kt"
    need(path.exists(), f"{path.relative_to(APP)} missing (identifier changed? regenerate)")
    src = path.read_text(encoding="utf-8")
    need(src.startswith(f"package {ident}\n"), "MainActivity package != identifier")
    return src


def platform_bridge_name() -> str:
    js = (ROOT / "ui" / "js" / "platform.js").read_text(encoding="utf-8")
    m = re.search(r"^const BRIDGE = '([A-Za-z_$][\w$]*)';$", js, re.M)
    need(m is not None, "ui/js/platform.js no longer defines const BRIDGE = '...'")
    return m.group(1)


def check_main_activity() -> str:
    src = main_activity_source()
    for token in ("--safe-top", "--safe-right", "--safe-bottom", "--safe-left", "Locale.ROOT",
                  "displayCutout()", "systemBars()",
                  "SCREEN_ORIENTATION_USER_PORTRAIT", "smallestScreenWidthDp",
                  "super.onWebViewCreate(webView)"):
        need(token in src, f"MainActivity.kt lacks {token}")
    css = "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "ui" / "css").glob("*.css")))
    for side in ("top", "right", "bottom", "left"):
        need(f"var(--safe-{side}" in css, f"ui/css/*.css no longer read --safe-{side}")
    # The insets listener chains to the WebView's own handling and returns its result.
    m = re.search(r"setOnApplyWindowInsetsListener\(webView\) \{ view, insets ->\n(.*?)\n    \}\n",
                  src, re.S)
    need(m is not None, "MainActivity.kt: no insets listener on the WebView")
    body = m.group(1)
    chained = re.search(r"val (\w+) = ViewCompat\.onApplyWindowInsets\(view, insets\)", body)
    need(chained is not None,
         "the insets listener replaces the WebView's own inset handling: call "
         "ViewCompat.onApplyWindowInsets(view, insets) in it")
    need(body.rstrip().splitlines()[-1].strip() == chained.group(1),
         f"the insets listener must return {chained.group(1)} (the WebView's result)")
    # The keyboard: its inset joins the bottom one (edge to edge, Android 15+ no longer resizes).
    ime = re.search(r"val (\w+) = insets\.getInsets\(WindowInsetsCompat\.Type\.ime\(\)\)", body)
    need(ime is not None, "the insets listener ignores the keyboard (WindowInsetsCompat.Type.ime())")
    bottom = re.search(r"val (\w+) = maxOf\((\w+)\.bottom, (\w+)\.bottom\)", body)
    need(bottom is not None and ime.group(1) in (bottom.group(2), bottom.group(3)),
         "the bottom inset must be the larger of the system bars' and the keyboard's")
    need(re.search(rf"insetsJs\([^)]*, {bottom.group(1)} / density,", body) is not None,
         "the keyboard-aware bottom inset is not what --safe-bottom gets")
    # System bars follow the app's theme: SystemBarStyle chosen from what platform.js posts.
    for token in ("SystemBarStyle.dark(", "SystemBarStyle.light(", "enableEdgeToEdge(statusBarStyle",
                  "WebViewCompat.addWebMessageListener(", "WebViewFeature.WEB_MESSAGE_LISTENER",
                  '"dark" -> applySystemBars(true)', '"light" -> applySystemBars(false)',
                  "isMainFrame"):
        need(token in src, f"MainActivity.kt lacks {token} (status bar must follow the app theme)")
    name = re.search(r'const val SYSTEM_BARS_OBJECT = "([^"]+)"', src)
    need(name is not None, "MainActivity.kt lacks SYSTEM_BARS_OBJECT")
    need(name.group(1) == platform_bridge_name(),
         f"MainActivity listens on {name.group(1)!r}, ui/js/platform.js posts to "
         f"{platform_bridge_name()!r}")
    origins = re.search(r"val APP_ORIGINS = setOf\(([^)]*)\)", src)
    need(origins is not None and '"http://tauri.localhost"' in origins.group(1)
         and "*" not in origins.group(1),
         "the system-bar listener must be limited to the app's origin (http://tauri.localhost)")
    return ("MainActivity: --safe-* insets (keyboard included) chained to the WebView's own handling; SystemBarStyle "
            f"from what ui/js/platform.js posts to {name.group(1)} (app origin, main frame)")


def check_platform_js() -> str:
    """Runs ui/js/platform.js in node: no-op without the Android object, posts changes with it."""
    node = shutil.which("node")
    need(node is not None, "node missing (npm needs it too)")
    url = (ROOT / "ui" / "js" / "platform.js").resolve().as_uri()
    script = f"""
import {{ applySystemBars }} from {json.dumps(url)};
const out = {{}};
out.without = applySystemBars('dark');
const got = [];
globalThis[{json.dumps(platform_bridge_name())}] = {{ postMessage: (m) => got.push(m) }};
out.calls = [applySystemBars('dark'), applySystemBars('dark'), applySystemBars('light')];
out.posted = got;
try {{ applySystemBars('system'); out.bad = 'accepted'; }} catch (e) {{ out.bad = e.name; }}
delete globalThis[{json.dumps(platform_bridge_name())}];
const ios = await import({json.dumps(url + "?ios")});
const gotIos = [];
globalThis.webkit = {{ messageHandlers: {{ [{json.dumps(platform_bridge_name())}]: {{ postMessage: (m) => gotIos.push(m) }} }} }};
out.iosCalls = [ios.applySystemBars('light'), ios.applySystemBars('dark'), ios.applySystemBars('dark')];
out.iosPosted = gotIos;
globalThis.webkit = {{ messageHandlers: {{ ipc: {{ postMessage: () => {{}} }} }} }};
const mac = await import({json.dumps(url + "?mac")});
out.mac = mac.applySystemBars('dark');
console.log(JSON.stringify(out));
"""
    r = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True)
    need(r.returncode == 0, f"platform.js failed in node: {r.stderr[-800:]}")
    out = json.loads(r.stdout.strip().splitlines()[-1])
    need(out["without"] is False, "applySystemBars must do nothing (return false) off Android")
    need(out["calls"] == [True, True, True] and out["posted"] == ["dark", "light"],
         f"applySystemBars must post each new theme once: {out}")
    need(out["bad"] == "TypeError", "applySystemBars must reject a theme other than light/dark")
    need(out["iosCalls"] == [True, True, True] and out["iosPosted"] == ["light", "dark"],
         f"applySystemBars must post to webkit.messageHandlers.{platform_bridge_name()} on iOS: {out}")
    need(out["mac"] is False, "applySystemBars must do nothing in a WKWebView without the handler")
    return ("ui/js/platform.js: no-op off the phones; posts 'dark'/'light' once per change to "
            "Android's listener and to the iOS message handler")


def check_android_strings() -> str:
    def strings(rel: str) -> dict[str, str]:
        xml = (MAIN / "res" / rel / "strings.xml").read_text(encoding="utf-8")
        return {k: v.strip('"') for k, v in re.findall(r'<string name="(\w+)">([^<]*)</string>', xml)}
    need((MAIN / "res" / "values-zh" / "strings.xml").exists(), "res/values-zh/strings.xml missing")
    zh, default = strings("values-zh"), strings("values")
    for key in ("app_name", "main_activity_title"):
        need(zh.get(key) == APP_NAME_ZH, f"values-zh {key} = {zh.get(key)!r}, want {APP_NAME_ZH!r}")
    need(default.get("app_name") in {"Huarong", "Huarong 华容"},
         f"default app_name {default.get('app_name')!r}")
    return f"launcher label {APP_NAME_ZH} in Chinese, {default['app_name']!r} otherwise"


# ---------------------------------------------------------------------------------------------
# the workflow and the README


def load_workflow() -> dict:
    try:
        import yaml  # installed by check.sh
    except ImportError as e:
        raise Fail("python package pyyaml missing (check.sh installs it)") from e
    try:
        wf = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        raise Fail(f"mobile.yml does not parse: {e}") from e
    need(isinstance(wf, dict) and isinstance(wf.get("jobs"), dict), "mobile.yml has no jobs")
    return wf


def steps_text(job: dict) -> list[str]:
    return [f"{st.get('uses', '')}\n{st.get('run', '')}\n{json.dumps(st.get('with', {}))}"
            for st in job.get("steps", [])]


def step_index(steps: list[str], needle: str, what: str) -> int:
    hits = [i for i, t in enumerate(steps) if needle in t]
    need(bool(hits), f"mobile.yml: no step {what} ({needle!r})")
    return hits[0]


def check_workflow_android() -> str:
    wf = load_workflow()
    env = wf.get("env", {})
    need(env.get("ANDROID_PLATFORM") == ANDROID_PLATFORM,
         f"ANDROID_PLATFORM = {env.get('ANDROID_PLATFORM')!r}: the published package id is "
         f"{ANDROID_PLATFORM!r}")
    gradle = (ANDROID / "app" / "build.gradle.kts").read_text(encoding="utf-8")
    sdk = re.search(r"compileSdk = (\d+)", gradle)
    need(sdk is not None and ANDROID_PLATFORM == f"platforms;android-{sdk.group(1)}.0",
         f"compileSdk {sdk and sdk.group(1)} does not match {ANDROID_PLATFORM}")
    need(re.search(r"^\s*compileSdkMinor = 0$", gradle, re.M) is not None,
         f"app/build.gradle.kts needs compileSdkMinor = 0: {ANDROID_PLATFORM} installs the hash "
         f"android-{sdk.group(1)}.0, and without the minor level AGP may look for "
         f"android-{sdk.group(1)} ('Failed to find target')")
    need(env.get("NDK_VERSION") == NDK_VERSION,
         f"NDK_VERSION = {env.get('NDK_VERSION')!r}, want {NDK_VERSION} (r28+: 16 KB-aligned .so)")
    tools = re.fullmatch(r"build-tools;(\d+)\.\d+\.\d+", str(env.get("ANDROID_BUILD_TOOLS", "")))
    need(tools is not None and int(tools.group(1)) >= MIN_BUILD_TOOLS,
         f"ANDROID_BUILD_TOOLS must be build-tools {MIN_BUILD_TOOLS}+ (zipalign -P)")
    steps = steps_text(wf["jobs"].get("android", {}))
    sdk_step = step_index(steps, "sdkmanager", "installing the SDK packages")
    for var in ("$ANDROID_PLATFORM", "$ANDROID_BUILD_TOOLS", "ndk;$NDK_VERSION"):
        need(var in steps[sdk_step], f"the sdkmanager step does not install {var}")
    collect = step_index(steps, "android-collect.sh", "collecting the APKs")
    align = step_index(steps, "so-align.sh dist/android", "checking 16 KB alignment")
    need(align > collect, "the 16 KB check must run on the collected (signed) packages")
    script = (MOBILE / "so-align.sh").read_text(encoding="utf-8")
    for token in ('"$zipalign" -c -P 16 -v 4', "llvm-readelf", "-lW", "16384", "arm64-v8a | x86_64"):
        need(token in script, f"so-align.sh lacks {token}")
    collect_sh = (MOBILE / "android-collect.sh").read_text(encoding="utf-8")
    need("zipalign\" -f -P 16 4" in collect_sh and " -p 4 " not in collect_sh,
         "android-collect.sh must re-align with zipalign -P 16 (-p aligns .so to 4 KiB)")
    return (f"{ANDROID_PLATFORM}, build-tools {tools.group(1)}, NDK {NDK_VERSION}; "
            "so-align.sh (zipalign -c -P 16, llvm-readelf) runs on the collected APKs/AAB")


def load_module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    need(spec is not None and spec.loader is not None, f"cannot load {path.name}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_workflow_ios() -> str:
    wf = load_workflow()
    env = wf.get("env", {})
    job = wf["jobs"].get("ios", {})
    need(job.get("runs-on") == IOS_RUNNER,
         f"ios runs on {job.get('runs-on')!r}: uploads need Xcode {XCODE_MAJOR} ({IOS_RUNNER})")
    need(str(env.get("XCODE_MAJOR")) == XCODE_MAJOR, f"XCODE_MAJOR = {env.get('XCODE_MAJOR')!r}")
    steps = steps_text(job)
    xcode = step_index(steps, 'ios-xcode.sh "$XCODE_MAJOR"', "selecting Xcode 26")
    script = (MOBILE / "ios-xcode.sh").read_text(encoding="utf-8")
    for token in ("xcode-select -s", "simctl list runtimes", "xcodebuild -downloadPlatform iOS",
                  "--show-sdk-version"):
        need(token in script, f"ios-xcode.sh lacks {token}")
    init = step_index(steps, "tauri -- ios init", "generating gen/apple")
    need(xcode < init, "Xcode must be selected before gen/apple is generated")
    need("python mobile/ios-apply.py" in steps[init].split("ios init", 1)[1],
         "ios-apply.py must run right after `tauri ios init`")
    need(f'pyyaml==$PYYAML_VERSION' in steps[init], "the ios job must install the pinned PyYAML")
    pins = (MOBILE / "check.sh").read_text(encoding="utf-8")
    need(f"pyyaml=={env.get('PYYAML_VERSION')}" in pins,
         f"PYYAML_VERSION {env.get('PYYAML_VERSION')} is not check.sh's pin")
    for needle in ("ios build --target aarch64-sim", "ios build --target aarch64 "):
        build = step_index(steps, needle, "building")
        need("mobile/ios-apply.py --verify" in steps[build].split(needle, 1)[1],
             f"the step running `{needle.strip()}` must check the built app (ios-apply.py --verify)")
    # The simulator link: either x86_64 is excluded for the simulator SDK, or its target is built.
    rust = next((t for t in steps if "rust-toolchain" in t), "")
    apply = load_module(MOBILE / "ios-apply.py", "ios_apply")
    spec = {"targets": {"huarong-app_iOS": {
        "type": "application", "platform": "iOS",
        "sources": [{"path": "Sources"}, {"path": "Assets.xcassets"}, {"path": "Externals"},
                    {"path": "LaunchScreen.storyboard"}],
        "info": {"path": "huarong-app_iOS/Info.plist",
                 "properties": {"UILaunchStoryboardName": "LaunchScreen", "LSRequiresIPhoneOS": True}},
        "settings": {"base": {"EXCLUDED_ARCHS[sdk=iphoneos*]": "x86_64", "ARCHS": ["arm64"]}}}}}
    apply.patch_spec(spec)
    target = spec["targets"]["huarong-app_iOS"]
    excluded = str(target["settings"]["base"].get("EXCLUDED_ARCHS[sdk=iphonesimulator*]", "")).split()
    need(excluded == ["x86_64"] or "x86_64-apple-ios" in rust,
         "the simulator build would want an x86_64 libapp.a: ios-apply.py must set "
         "EXCLUDED_ARCHS[sdk=iphonesimulator*] = x86_64 (or install x86_64-apple-ios)")
    need("UILaunchStoryboardName" not in target["info"]["properties"]
         and all(s.get("path") != "LaunchScreen.storyboard" for s in target["sources"]),
         "ios-apply.py must drop the template's white LaunchScreen.storyboard")
    need({"path": apply.RESOURCE_GROUP, "buildPhase": "resources"} in target["sources"],
         "ios-apply.py must add mobile/ios/resources as a resources group")
    need({"path": "Externals", "buildPhase": "none"} in target["sources"],
         "ios-apply.py must give the Externals folder (libapp.a) buildPhase none: a .a in a copy "
         "phase lands in the .app (ITMS-90171)")
    need(apply.IOS == IOS or apply.IOS.name == IOS.name, "ios-apply.py reads another ios/ folder")
    yaml_text = "options:\n  deploymentTarget:\n    iOS: 15.0\nv: 1.10\n"
    kept = apply.yaml.load(yaml_text, Loader=apply._Loader)
    need(kept["options"]["deploymentTarget"]["iOS"] == "15.0" and kept["v"] == "1.10",
         "ios-apply.py's YAML loader turns versions into floats")
    return (f"ios on {IOS_RUNNER} with Xcode {XCODE_MAJOR} + simulator runtime (ios-xcode.sh); "
            "gen/apple patched (x86_64 excluded for the simulator, launch screen, resources, "
            "Externals in no build phase) "
            "and every built app verified")


def check_rust_cache() -> str:
    wf = load_workflow()
    seen = []
    for name, job in wf["jobs"].items():
        for st in job.get("steps", []):
            uses = str(st.get("uses", ""))
            if not uses.lower().startswith("swatinem/rust-cache@"):
                continue
            ref = uses.split("@", 1)[1]
            m = re.fullmatch(r"v(\d+)\.(\d+)\.(\d+)", ref)
            need(m is not None, f"job {name}: {uses} is not pinned to a release (v2 resolved to a "
                 "Node.js 20 build); use v" + ".".join(map(str, RUST_CACHE_NODE24)) + " or newer")
            version = tuple(int(x) for x in m.groups())
            need(version[0] == RUST_CACHE_NODE24[0] and version >= RUST_CACHE_NODE24,
                 f"job {name}: {uses} runs on Node.js 20; v{'.'.join(map(str, RUST_CACHE_NODE24))}+ "
                 "runs on Node.js 24")
            seen.append(f"{name}: {ref}")
    need(bool(seen), "no Swatinem/rust-cache step (the Rust builds would start cold)")
    return "Swatinem/rust-cache on a Node.js 24 release: " + ", ".join(seen)


RUN_NUMBER = "${{ github.run_number }}"


def build_config(number: int) -> dict:
    """The workflow's BUILD_CONFIG (the --config of every mobile build) for one run number."""
    env = load_workflow().get("env", {})
    text = str(env.get("BUILD_CONFIG", ""))
    need(RUN_NUMBER in text, f"mobile.yml env BUILD_CONFIG must take the build number from {RUN_NUMBER}")
    try:
        conf = json.loads(text.replace(RUN_NUMBER, str(number)))
    except ValueError as e:
        raise Fail(f"BUILD_CONFIG is not JSON once the run number is filled in: {e}") from e
    need(isinstance(conf, dict), "BUILD_CONFIG must be a JSON object")
    return conf


def check_build_number() -> str:
    """Every store upload carries a new build number: the CI run's, on both platforms."""
    wf = load_workflow()
    env = wf.get("env", {})
    need(str(env.get("BUILD_NUMBER")) == RUN_NUMBER,
         f"mobile.yml env BUILD_NUMBER must be {RUN_NUMBER} (ios-apply.py --verify compares it)")
    for number in (7, 4321):
        bundle = build_config(number).get("bundle", {})
        code = bundle.get("android", {}).get("versionCode")
        need(code == number, f"BUILD_CONFIG gives Android versionCode {code!r} for run {number}")
        version = bundle.get("iOS", {}).get("bundleVersion")
        need(version == str(number), f"BUILD_CONFIG gives iOS bundleVersion {version!r} for run {number}")
    builds = 0
    for name in ("android", "ios"):
        for st in wf["jobs"].get(name, {}).get("steps", []):
            for line in str(st.get("run", "")).splitlines():
                if re.search(rf"tauri -- {name} build\b", line):
                    need('--config "$BUILD_CONFIG"' in line,
                         f"`{line.strip()}` does not pass the run's build number (--config \"$BUILD_CONFIG\")")
                    builds += 1
    need(builds >= 5, f"expected the 3 Android and 2 iOS builds, found {builds}")
    android = load_conf().get("bundle", {}).get("android", {})
    need(android.get("autoIncrementVersionCode") is not True,
         "autoIncrementVersionCode would fight the run number")
    return (f"Android versionCode and iOS CFBundleVersion = {RUN_NUMBER} in all {builds} mobile "
            "builds (--config \"$BUILD_CONFIG\"; valid against the schema: check_schema)")


def fake_app(root: Path, **change) -> Path:
    """A built bundle as the iOS job makes it, for ios-apply.py --verify; `change` edits Info.plist."""
    app = root / change.pop("_name", "Huarong.app")
    shutil.rmtree(app, ignore_errors=True)
    app.mkdir(parents=True)
    info = {
        "CFBundleExecutable": "Huarong", "CFBundleVersion": "57", "CFBundleShortVersionString": "0.1.0",
        "CFBundleDisplayName": "Huarong 华容",
        "CFBundleLocalizations": ["en", "zh-Hans"], "UILaunchScreen": {"UIColorName": "LaunchBackground"},
        "NSPhotoLibraryAddUsageDescription": "Huarong saves the share card.",
        "UIViewControllerBasedStatusBarAppearance": True,
        "CFBundleURLTypes": [{"CFBundleURLName": "app.huarong.puzzles", "CFBundleURLSchemes": [SCHEME]}],
    }
    for k, v in change.items():
        if v is None:
            info.pop(k, None)
        else:
            info[k] = v
    (app / "Info.plist").write_bytes(plistlib.dumps(info))
    shutil.copy2(IOS / "resources" / "PrivacyInfo.xcprivacy", app / "PrivacyInfo.xcprivacy")
    for lang in ("en", "zh-Hans"):
        (app / f"{lang}.lproj").mkdir()
        shutil.copy2(IOS / "resources" / f"{lang}.lproj" / "InfoPlist.strings",
                     app / f"{lang}.lproj" / "InfoPlist.strings")
    (app / "Assets.car").write_bytes(b"car")
    (app / "Huarong").write_bytes(b"\xcf\xfa\xed\xfe")
    return app


def entitlements(path: Path, domains: list[str] | None) -> Path:
    """An entitlements file as the deep-link plugin writes it (None: without the key)."""
    ent = {} if domains is None else {"com.apple.developer.associated-domains": domains}
    path.write_bytes(plistlib.dumps(ent))
    return path


def fake_ipa(root: Path, profile_entitlements: dict) -> Path:
    """A signed .ipa: the fake bundle plus an embedded.mobileprovision (CMS bytes around a plist)."""
    app = fake_app(root / "ipa")
    profile = plistlib.dumps({"Name": "Huarong App Store", "Entitlements": profile_entitlements})
    (app / "embedded.mobileprovision").write_bytes(b"0\x80\x06\x09*\x86H" + profile + b"\x00\xa0\x82")
    ipa = root / "Huarong.ipa"
    with zipfile.ZipFile(ipa, "w") as z:
        for p in sorted(app.rglob("*")):
            z.write(p, Path("Payload") / p.relative_to(app.parent))
    return ipa


def check_ios_verify(tmp: Path) -> str:
    """ios-apply.py --verify passes a good bundle and refuses each store problem of issues 24
    and 22 (Universal Links)."""
    apply = load_module(MOBILE / "ios-apply.py", "ios_apply")
    old_build = os.environ.pop("BUILD_NUMBER", None)
    _, host, _ = link_base()
    links = entitlements(tmp / "good.entitlements", [f"applinks:{host}", "webcredentials:x.org"])
    try:
        def refused(app: Path, what: str, env_build: str | None = None,
                    ent: Path = links) -> str:
            if env_build is not None:
                os.environ["BUILD_NUMBER"] = env_build
            try:
                apply.verify(app, ent)
            except apply.Fail as e:
                return str(e)
            finally:
                os.environ.pop("BUILD_NUMBER", None)
            raise Fail(f"ios-apply.py --verify accepts a bundle with {what}")

        good = fake_app(tmp / "good")
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                apply.verify(good, links)
                os.environ["BUILD_NUMBER"] = "57"
                apply.verify(good, links)
                os.environ.pop("BUILD_NUMBER", None)
                apply.verify(fake_ipa(tmp / "signed", {
                    "com.apple.developer.associated-domains": "*"}), links)
        except apply.Fail as e:
            raise Fail(f"ios-apply.py --verify refuses a good bundle: {e}") from e
        finally:
            os.environ.pop("BUILD_NUMBER", None)
        lib = fake_app(tmp / "lib")
        (lib / "Externals" / "arm64" / "release").mkdir(parents=True)
        (lib / "Externals" / "arm64" / "release" / "libapp.a").write_bytes(b"!<arch>\n")
        need("ITMS-90171" in refused(lib, "libapp.a inside (ITMS-90171)"), "the .a refusal does not say why")
        refused(fake_app(tmp / "scheme", CFBundleURLTypes=[{"CFBundleURLSchemes": ["other"]}]),
                "no huarong:// URL scheme")
        refused(fake_app(tmp / "noscheme", CFBundleURLTypes=None), "no CFBundleURLTypes")
        refused(fake_app(tmp / "bar", UIViewControllerBasedStatusBarAppearance=False),
                "UIViewControllerBasedStatusBarAppearance false")
        refused(fake_app(tmp / "name", _name="Huarong 华容.app", CFBundleExecutable="Huarong 华容"),
                "a product name with a space and Chinese characters")
        refused(good, "CFBundleVersion 57 while the run's build number is 58", env_build="58")
        need(f"applinks:{host}" in refused(good, "entitlements without associated domains",
                                           ent=entitlements(tmp / "none.entitlements", None)),
             "the missing Universal Link refusal does not name applinks:<host>")
        refused(good, "associated domains for another host",
                ent=entitlements(tmp / "other.entitlements", ["applinks:example.com"]))
        need("Associated Domains" in refused(fake_ipa(tmp / "noprofile", {"get-task-allow": False}),
                                             "a profile without Associated Domains"),
             "the provisioning-profile refusal does not say why")
    finally:
        if old_build is not None:
            os.environ["BUILD_NUMBER"] = old_build
    return ("ios-apply.py --verify passes a good bundle and a signed .ipa, and refuses: a .a "
            "inside, no huarong:// scheme, a status bar that cannot follow the theme, a non-ASCII "
            f"executable, a CFBundleVersion other than the run's, no applinks:{host} in the "
            "entitlements, a profile without Associated Domains")


def check_ios_product_name() -> str:
    conf = load_ios_conf()
    name = conf.get("productName")
    need(isinstance(name, str) and re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", name) is not None,
         f"tauri.ios.conf.json productName {name!r}: the .app folder and executable need an ASCII "
         "name without spaces")
    extra = sorted(set(conf) - {"$schema", "productName"})
    need(not extra, f"tauri.ios.conf.json changes more than productName: {extra}")
    plist = plistlib.loads((APP / "Info.ios.plist").read_bytes())
    need(plist.get("CFBundleDisplayName") == load_conf().get("productName"),
         f"Info.ios.plist CFBundleDisplayName {plist.get('CFBundleDisplayName')!r} must stay the "
         "full name (the home screen shows it, not the .app name)")
    zh = strings_file(IOS / "resources" / "zh-Hans.lproj" / "InfoPlist.strings")
    need(zh.get("CFBundleDisplayName") == APP_NAME_ZH,
         f"zh-Hans CFBundleDisplayName = {zh.get('CFBundleDisplayName')!r}, want {APP_NAME_ZH!r}")
    return (f"iOS productName {name!r} ({name}.app); home-screen name "
            f"{plist['CFBundleDisplayName']!r}, {APP_NAME_ZH!r} in Chinese")


def check_ios_status_bar() -> str:
    """The iOS status bar follows the in-app theme through platform.js's bridge (as on Android)."""
    plist = plistlib.loads((APP / "Info.ios.plist").read_bytes())
    need(plist.get("UIViewControllerBasedStatusBarAppearance") is True,
         "Info.ios.plist: UIViewControllerBasedStatusBarAppearance must be true (the root view "
         "controller's preferredStatusBarStyle decides the status bar)")
    src = (APP / "src" / "mobile.rs").read_text(encoding="utf-8")
    name = re.search(r'^pub const SYSTEM_BARS_OBJECT: &str = "([^"]+)";$', src, re.M)
    need(name is not None, "src/mobile.rs lacks pub const SYSTEM_BARS_OBJECT")
    need(name.group(1) == platform_bridge_name(),
         f"src/mobile.rs registers {name.group(1)!r}, ui/js/platform.js posts to {platform_bridge_name()!r}")
    ios = src.split('#[cfg(target_os = "ios")]\nmod ios {', 1)
    need(len(ios) == 2, "src/mobile.rs has no #[cfg(target_os = \"ios\")] mod ios")
    for token in ("addScriptMessageHandler:", "super::SYSTEM_BARS_OBJECT",
                  "sel!(preferredStatusBarStyle)", "setNeedsStatusBarAppearanceUpdate",
                  "super::status_bar_style(", "super::from_app_page("):
        need(token in ios[1], f"src/mobile.rs mod ios lacks {token}")
    code = "\n".join(line for line in src.splitlines() if not line.strip().startswith("//"))
    need("overrideUserInterfaceStyle" not in code,
         "overrideUserInterfaceStyle would pin the page's prefers-color-scheme (\"system\" could "
         "never follow the system again)")
    need(re.search(r"\.on_webview_ready\(", src) is not None and
         "ios::install(platform.controller(), platform.view_controller())" in src,
         "src/mobile.rs must install the handler when the webview is ready")
    styles = dict(re.findall(r'"(dark|light)" => Some\((\d+)\)', src))
    need(styles == {"dark": "1", "light": "3"},
         f"status_bar_style: dark -> 1 (light content), light -> 3 (dark content); got {styles}")
    return (f"iOS: {name.group(1)} script message handler (app page, main frame) sets "
            "preferredStatusBarStyle (dark page: light content, light page: dark content); "
            "UIViewControllerBasedStatusBarAppearance")


def css_rules(text: str):
    """(selector, [(property, value)]) of each innermost block of a stylesheet, comments removed."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    for m in re.finditer(r"([^{}]*)\{([^{}]*)\}", text):
        decls = []
        for part in m.group(2).split(";"):
            if ":" in part:
                prop, value = part.split(":", 1)
                decls.append((prop.strip().lower(), value.strip()))
        yield m.group(1).strip(), decls


def check_css_fallbacks() -> str:
    """Every cq* length in ui/css has a fallback of the same property declared before it."""
    uses = 0
    files = []
    for path in sorted((ROOT / "ui" / "css").glob("*.css")):
        for selector, decls in css_rules(path.read_text(encoding="utf-8")):
            for i, (prop, value) in enumerate(decls):
                if not CQ_UNIT.search(value):
                    continue
                uses += 1
                if path.name not in files:
                    files.append(path.name)
                earlier = [v for p, v in decls[:i] if p == prop and not CQ_UNIT.search(v)]
                need(bool(earlier),
                     f"ui/css/{path.name} `{selector}`: {prop}: {value} has no fallback before it; "
                     f"iOS 15 / WebViews before Chrome 105 drop it and the board collapses")
                need("var(" in earlier[-1] or re.search(r"\d(vw|vh|vmin|vmax|px|%)", earlier[-1]),
                     f"ui/css/{path.name} `{selector}`: fallback {prop}: {earlier[-1]} gives no size")
    need(uses > 0, "no cq* length in ui/css (is CQ_UNIT still right?)")
    return (f"{uses} container-query lengths ({', '.join(files)}), each after a fallback for iOS 15 "
            f"(minimum {IOS_MIN}) and older WebViews")


def check_node() -> str:
    wf = load_workflow()
    need(str(wf.get("env", {}).get("NODE_VERSION")) == NODE_MAJOR,
         f"NODE_VERSION = {wf.get('env', {}).get('NODE_VERSION')!r}, want {NODE_MAJOR} (LTS)")
    for name, job in wf["jobs"].items():
        for st in job.get("steps", []):
            if str(st.get("uses", "")).startswith("actions/setup-node"):
                need(st.get("with", {}).get("node-version") == "${{ env.NODE_VERSION }}",
                     f"job {name}: setup-node must use env.NODE_VERSION")
    return f"Node.js {NODE_MAJOR} LTS in every job"


def readme_phone_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"^## Install on your phone\n(.*?)(?=^## )", text, re.S | re.M)
    need(m is not None, "README.md has no '## Install on your phone' section")
    return m.group(1)


def check_readme_mobile() -> str:
    sec = readme_phone_section()
    for token in (f"`{ANDROID_PLATFORM}`", f"`ndk;{NDK_VERSION}`", f"Node.js {NODE_MAJOR}",
                  f"Xcode {XCODE_MAJOR}", f"`{IOS_RUNNER}`"):
        need(token in sec, f"README 'Install on your phone' does not say {token}")
    for stale in ("Node.js 20", "Xcode 16", "macos-15", "27.3.13750724", "`platforms;android-37`"):
        need(stale not in sec, f"README 'Install on your phone' still says {stale}")
    return "README 'Install on your phone' names the workflow's SDK, NDK, Node.js and Xcode"


# ---------------------------------------------------------------------------------------------
# links: the web page that serves LINK_BASE and its association files

# The official Pages actions at their current majors (configure-pages v6, upload-pages-artifact
# v5 with include-hidden-files: v4+ leave out .well-known/ otherwise, deploy-pages v5).
PAGES_ACTIONS = {"actions/configure-pages": 6, "actions/upload-pages-artifact": 5,
                 "actions/deploy-pages": 5}
LINK_VARS = ("HUARONG_ANDROID_CERT_SHA256", "HUARONG_APPLE_TEAM_ID")


def check_pages_workflow() -> str:
    import yaml
    need(PAGES.exists(), ".github/workflows/pages.yml missing (the web build on GitHub Pages)")
    try:
        wf = yaml.safe_load(PAGES.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        raise Fail(f"pages.yml does not parse: {e}") from e
    need(isinstance(wf, dict) and isinstance(wf.get("jobs"), dict), "pages.yml has no jobs")
    steps = [(name, job, st) for name, job in wf["jobs"].items() for st in job.get("steps", [])]
    used = {}
    for name, job, st in steps:
        uses = str(st.get("uses", ""))
        action, _, ref = uses.partition("@")
        if action in PAGES_ACTIONS:
            m = re.fullmatch(r"v(\d+)(\.\d+)*", ref)
            need(m is not None and int(m.group(1)) >= PAGES_ACTIONS[action],
                 f"pages.yml: {uses} is older than {action}@v{PAGES_ACTIONS[action]}")
            used[action] = (name, job, st)
    missing = sorted(set(PAGES_ACTIONS) - set(used))
    need(not missing, f"pages.yml does not use {missing}")
    build = [(n, st) for n, _, st in steps if "./dev.sh web build" in str(st.get("run", ""))]
    need(len(build) == 1, "pages.yml must build the site with ./dev.sh web build (once)")
    env = build[0][1].get("env") or {}
    for var in LINK_VARS:
        need(str(env.get(var, "")).replace(" ", "") == f"${{{{vars.{var}}}}}",
             f"pages.yml's build step must pass {var}: ${{{{ vars.{var} }}}} (web/well-known.mjs)")
    _, _, upload = used["actions/upload-pages-artifact"]
    args = upload.get("with") or {}
    need(str(args.get("path", "")).rstrip("/") == "web/dist",
         "pages.yml must upload web/dist (what ./dev.sh web build writes)")
    need(args.get("include-hidden-files") in (True, "true"),
         "pages.yml's upload-pages-artifact needs include-hidden-files: true, or .well-known/ is "
         "left out of the site (App Links and Universal Links never verify)")
    dname, djob, _ = used["actions/deploy-pages"]
    perms = djob.get("permissions") or wf.get("permissions") or {}
    need(perms.get("pages") == "write" and perms.get("id-token") == "write",
         f"pages.yml job {dname}: deploy-pages needs permissions pages: write and id-token: write")
    need((djob.get("environment") or {}).get("name") == "github-pages",
         f"pages.yml job {dname} must deploy to the github-pages environment")
    bname = build[0][0]
    need(dname == bname or bname in (djob.get("needs") or []) or djob.get("needs") == bname,
         f"pages.yml job {dname} must need the build job {bname}")
    mobile = load_workflow()["jobs"].get("android", {}).get("steps", [])
    cert = [st for st in mobile if "mobile/app-links-cert.sh dist/android" in str(st.get("run", ""))]
    need(len(cert) == 1 and str((cert[0].get("env") or {}).get(LINK_VARS[0], "")).replace(" ", "")
         == f"${{{{vars.{LINK_VARS[0]}}}}}",
         "mobile.yml's android job must check the release signing certificate against "
         f"{LINK_VARS[0]} (bash src-tauri/mobile/app-links-cert.sh dist/android)")
    script = ROOT / "web" / "well-known.mjs"
    need(script.exists(), "web/well-known.mjs missing (the association files)")
    text = script.read_text(encoding="utf-8")
    need("pub const LINK_BASE" in text and all(v in text for v in LINK_VARS),
         "web/well-known.mjs must read LINK_BASE from the engine and the two CI variables")
    return ("pages.yml: ./dev.sh web build with " + ", ".join(LINK_VARS) + "; mobile.yml checks "
            "the release certificate against the first; "
            + ", ".join(f"{a}@v{v}" for a, v in PAGES_ACTIONS.items())
            + " (hidden files kept: .well-known/)")


def check_readme_links() -> str:
    base, host, _ = link_base()
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"^## Links\n(.*?)(?=^## )", text, re.M | re.S)
    need(m is not None, "README has no '## Links' section")
    sec = m.group(1)
    for token in (f"`{base}`", "LINK_BASE", "crates/engine/src/code/mod.rs", *LINK_VARS,
                  ".well-known/assetlinks.json", ".well-known/apple-app-site-association",
                  "custom domain", "CNAME", "web/well-known.mjs", "pages.yml"):
        need(token in sec, f"README 'Links' does not mention {token}")
    return f"README 'Links' names {base}, where it is set, the CI variables and the custom domain"


# ---------------------------------------------------------------------------------------------
# iOS


def check_ios_icons_opaque() -> str:
    icons = sorted((APP / "icons" / "ios").glob("*.png"))
    need(len(icons) == len(IOS_ICONS), f"{len(icons)} iOS icons, want {len(IOS_ICONS)}")
    for path in icons:
        colour, chunks = png_info(path)
        need(colour == 2 and b"tRNS" not in chunks,
             f"icons/ios/{path.name} has an alpha channel (colour type {colour}): App Store "
             "Connect rejects it (ITMS-90717); run check.py --fix-ios-icons")
    return f"{len(icons)} iOS icons are RGB without alpha"


def strings_file(path: Path) -> dict[str, str]:
    need(path.exists(), f"{path.relative_to(APP)} missing")
    text = path.read_text(encoding="utf-8")
    return dict(re.findall(r'^"(\w+)" = "((?:[^"\\]|\\.)*)";$', text, re.M))


def check_ios_plist() -> str:
    path = APP / "Info.ios.plist"
    need(path.exists(), "src-tauri/Info.ios.plist missing")
    plist = plistlib.loads(path.read_bytes())
    phone = plist.get("UISupportedInterfaceOrientations")
    pad = plist.get("UISupportedInterfaceOrientations~ipad", [])
    need(phone == ["UIInterfaceOrientationPortrait"], f"iPhone orientations: {phone}")
    need(len(set(pad)) == 4, f"iPad should allow all four orientations, has {pad}")
    need(str(plist.get("NSPhotoLibraryAddUsageDescription", "")).strip() != "",
         "NSPhotoLibraryAddUsageDescription missing: Save Image in the share sheet crashes the app")
    need(plist.get("CFBundleLocalizations") == ["en", "zh-Hans"],
         f"CFBundleLocalizations = {plist.get('CFBundleLocalizations')}, want ['en', 'zh-Hans']")
    need(plist.get("CFBundleDevelopmentRegion") == "en", "CFBundleDevelopmentRegion must be en")
    for lang in ("en", "zh-Hans"):
        s = strings_file(IOS / "resources" / f"{lang}.lproj" / "InfoPlist.strings")
        need(s.get("NSPhotoLibraryAddUsageDescription", "").strip() != "",
             f"{lang}.lproj/InfoPlist.strings lacks NSPhotoLibraryAddUsageDescription")
        if lang == "zh-Hans":
            need(re.search(r"[\u4e00-\u9fff]", s["NSPhotoLibraryAddUsageDescription"]) is not None,
                 "the zh-Hans photo-library text is not Chinese")
            need(s.get("CFBundleDisplayName") == APP_NAME_ZH,
                 f"zh-Hans CFBundleDisplayName = {s.get('CFBundleDisplayName')!r}")
    return ("Info.ios.plist: portrait on iPhone, every orientation on iPad; photo-library text in "
            "en + zh-Hans; CFBundleLocalizations en, zh-Hans")


def css_backgrounds() -> tuple[str, str]:
    css = "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "ui" / "css").glob("*.css")))
    light = re.search(r"^:root \{[^}]*?--bg: (#[0-9a-fA-F]{6});", css, re.M | re.S)
    dark = re.search(r'^:root\[data-theme="dark"\] \{[^}]*?--bg: (#[0-9a-fA-F]{6});', css, re.M | re.S)
    need(light is not None and dark is not None, "ui/css/*.css: no light/dark --bg")
    return light.group(1).lower(), dark.group(1).lower()


def check_launch_screen() -> str:
    light, dark = css_backgrounds()
    plist = plistlib.loads((APP / "Info.ios.plist").read_bytes())
    launch = plist.get("UILaunchScreen")
    need(isinstance(launch, dict) and launch.get("UIColorName") == "LaunchBackground"
         and launch.get("UIImageName") == "LaunchMark",
         f"Info.ios.plist UILaunchScreen = {launch!r}: the launch screen would be the template's white one")
    colours = json.loads((IOS / "Assets.xcassets" / "LaunchBackground.colorset" / "Contents.json")
                         .read_text(encoding="utf-8"))["colors"]
    got = {}
    for c in colours:
        comp = c["color"]["components"]
        dark_mode = any(a.get("value") == "dark" for a in c.get("appearances", []))
        got["dark" if dark_mode else "light"] = "#" + "".join(
            f"{int(comp[k], 16) if comp[k].startswith('0x') else round(float(comp[k]) * 255):02x}"
            for k in ("red", "green", "blue"))
    need(got == {"light": light, "dark": dark},
         f"LaunchBackground {got} != the UI's --bg (light {light}, dark {dark})")
    for res, want in (("values", light), ("values-night", dark)):
        xml = (MAIN / "res" / res / "huarong_colors.xml").read_text(encoding="utf-8")
        need(f"#FF{want[1:].upper()}" in xml, f"Android {res}/huarong_colors.xml != {want}")
    images = json.loads((IOS / "Assets.xcassets" / "LaunchMark.imageset" / "Contents.json")
                        .read_text(encoding="utf-8"))["images"]
    apply = load_module(MOBILE / "ios-apply.py", "ios_apply")
    names = {i["scale"]: i["filename"] for i in images}
    need(set(names.values()) == set(apply.LAUNCH_MARK),
         f"LaunchMark images {sorted(names.values())} != what ios-apply.py writes")
    for out, (src, size) in apply.LAUNCH_MARK.items():
        scale = int(next(k for k, v in names.items() if v == out)[0])
        px = size or png_size(APP / "icons" / src)[0]
        need(px == 128 * scale, f"{out} would be {px} px, want {128 * scale} (128 pt at {scale}x)")
    return f"launch screen: {light} / {dark} (the UI's --bg, as on Android) with the icon at 128 pt"


def check_privacy_manifest() -> str:
    path = IOS / "resources" / "PrivacyInfo.xcprivacy"
    need(path.exists(), "mobile/ios/resources/PrivacyInfo.xcprivacy missing")
    manifest = plistlib.loads(path.read_bytes())
    need(manifest.get("NSPrivacyTracking") is False, "NSPrivacyTracking must be false")
    need(manifest.get("NSPrivacyTrackingDomains", []) == [], "the app contacts no tracking domain")
    need(manifest.get("NSPrivacyCollectedDataTypes") == [], "the app collects no data")
    declared = {}
    for entry in manifest.get("NSPrivacyAccessedAPITypes", []):
        kind = entry.get("NSPrivacyAccessedAPIType")
        reasons = entry.get("NSPrivacyAccessedAPITypeReasons", [])
        need(kind in PRIVACY_REASONS, f"unknown required-reason category {kind!r}")
        need(bool(reasons) and set(reasons) <= PRIVACY_REASONS[kind],
             f"{kind}: reasons {reasons} not in {sorted(PRIVACY_REASONS[kind])}")
        declared[kind] = reasons
    src = "\n".join(p.read_text(encoding="utf-8") for p in sorted((APP / "src").glob("*.rs")))
    uses = {
        "NSPrivacyAccessedAPICategoryFileTimestamp":
            re.search(r"fs::metadata\(|\.metadata\(\)|\.modified\(\)|fs::read\(", src),
        "NSPrivacyAccessedAPICategoryUserDefaults": re.search(r"UserDefaults", src),
        "NSPrivacyAccessedAPICategorySystemBootTime": re.search(r"mach_absolute_time|systemUptime", src),
        "NSPrivacyAccessedAPICategoryDiskSpace": re.search(r"statvfs|statfs|AvailableCapacity", src),
    }
    for kind, hit in uses.items():
        if hit:
            need(kind in declared, f"src-tauri/src uses {hit.group(0)!r} but {kind} is not declared")
    need(declared.get("NSPrivacyAccessedAPICategoryFileTimestamp") == ["C617.1"],
         "file metadata is read only inside the app container: FileTimestamp C617.1")
    apply = (MOBILE / "ios-apply.py").read_text(encoding="utf-8")
    need('IOS / "resources"' in apply, "ios-apply.py no longer copies mobile/ios/resources")
    return ("PrivacyInfo.xcprivacy: no tracking, no data collected; "
            + ", ".join(f"{k.removeprefix('NSPrivacyAccessedAPICategory')} {'/'.join(v)}"
                        for k, v in declared.items()))


def check_android_regenerates(tmp: Path) -> str:
    """gen/android = `tauri android init` output + the files in CUSTOMISED + the icons."""
    need(CLI.exists(), "Tauri CLI missing: run npm ci in src-tauri")
    work = tmp / "repo"
    skip = shutil.ignore_patterns("target", "node_modules", ".git", "gen")
    shutil.copytree(ROOT, work, ignore=skip, symlinks=True)
    (work / "src-tauri" / "node_modules").symlink_to(APP / "node_modules")
    env = dict(os.environ)
    # The SDK and NDK are only checked for presence by `init`; nothing from them reaches the
    # generated project. Stand-ins when the real ones are absent (this machine).
    for var, marker in (("ANDROID_HOME", None), ("NDK_HOME", "source.properties")):
        if not env.get(var):
            d = tmp / var.lower()
            d.mkdir()
            if marker:
                (d / marker).write_text("Pkg.Desc = Android NDK\nPkg.Revision = 27.0.12077973\n")
            env[var] = str(d)
    run(TAURI + ["android", "init", "--ci", "--skip-targets-install"], cwd=work / "src-tauri",
        env=env)
    fresh_root = work / "src-tauri" / "gen" / "android"
    fresh = {str(p.relative_to(fresh_root)) for p in fresh_root.rglob("*") if p.is_file()}
    mine = {str(p.relative_to(ANDROID)) for p in ANDROID.rglob("*") if p.is_file()
            and not any(part in {".gradle", "build", ".tauri", "generated"} or part.endswith(".so")
                        for part in p.relative_to(ANDROID).parts)}
    ignored_local = {"local.properties", "app/tauri.properties", "app/tauri.build.gradle.kts",
                     "tauri.settings.gradle", "app/proguard-tauri.pro"}
    mine -= ignored_local
    problems = []
    for rel in sorted(fresh | mine):
        if rel in CUSTOMISED or ICON_RES.match(rel):
            continue
        if rel not in mine:
            problems.append(f"missing {rel}")
        elif rel not in fresh:
            problems.append(f"extra {rel} (add it to CUSTOMISED with a reason, or remove it)")
        elif (fresh_root / rel).read_bytes() != (ANDROID / rel).read_bytes():
            problems.append(f"changed {rel}")
    for rel in CUSTOMISED:
        if rel not in mine:
            problems.append(f"customised file missing: {rel}")
    need(not problems, "gen/android drifted from the pinned CLI's template: " + "; ".join(problems))
    same = len([r for r in fresh if r not in CUSTOMISED and not ICON_RES.match(r)])
    return (f"gen/android = fresh `tauri android init` ({same} files identical) + "
            f"{len(CUSTOMISED)} customised files + icons")


def run_checks(checks: list, tmp: Path, quiet: bool = False) -> dict[str, str | None]:
    """name -> None (passed) or the failure text."""
    results = {}
    for i, check in enumerate(checks):
        name = check.__name__.removeprefix("check_")
        try:
            args = [tmp / str(i)] if check.__code__.co_argcount else []
            for a in args:
                a.mkdir()
            msg = check(*args)
            results[name] = None
            if not quiet:
                print(f"PASS {name}: {msg}")
        except (Fail, OSError, ValueError, KeyError, TypeError, IndexError, StopIteration) as e:
            why = str(e) if isinstance(e, Fail) else f"{type(e).__name__}: {e}"
            results[name] = why
            if not quiet:
                print(f"FAIL {name}: {why}")
    return results


STATIC_CHECKS = [check_version, check_mobile_config, check_capabilities, check_icon_set,
                 check_manifest, check_main_activity, check_platform_js, check_android_strings,
                 check_workflow_android, check_workflow_ios, check_rust_cache, check_build_number,
                 check_node, check_readme_mobile, check_ios_icons_opaque, check_ios_plist,
                 check_launch_screen, check_privacy_manifest, check_ios_verify,
                 check_ios_product_name, check_ios_status_bar, check_css_fallbacks,
                 check_pages_workflow, check_readme_links]
ALL_CHECKS = [check_version, check_schema, check_mobile_config, check_capabilities, check_icon_set,
              check_icons_match_source, check_manifest, check_main_activity, check_platform_js,
              check_android_strings, check_android_regenerates, check_workflow_android,
              check_workflow_ios, check_rust_cache, check_build_number, check_node,
              check_readme_mobile, check_ios_icons_opaque, check_ios_plist, check_launch_screen,
              check_privacy_manifest, check_ios_verify, check_ios_product_name,
              check_ios_status_bar, check_css_fallbacks, check_pages_workflow, check_readme_links]

KT = "src-tauri/gen/android/app/src/main/java/app/huarong/puzzles/MainActivity.kt"
WF = ".github/workflows/mobile.yml"
PLIST = "src-tauri/Info.ios.plist"
ZH_STRINGS = "src-tauri/mobile/ios/resources/zh-Hans.lproj/InfoPlist.strings"
PRIVACY = "src-tauri/mobile/ios/resources/PrivacyInfo.xcprivacy"
CONF_JSON = "src-tauri/tauri.conf.json"
SHARE_RS = "crates/engine/src/code/mod.rs"
PAGES_WF = ".github/workflows/pages.yml"
MANIFEST_XML = "src-tauri/gen/android/app/src/main/AndroidManifest.xml"


def sub(old: str, new: str):
    """A text mutation; the self-test fails loudly when `old` is not there to mutate."""
    def apply(text: str) -> str:
        need(old in text, f"self-test mutation target not found: {old[:60]!r}")
        return text.replace(old, new)
    return apply


def with_alpha(data: bytes) -> bytes:
    import io
    from PIL import Image
    with Image.open(io.BytesIO(data)) as im:
        out = io.BytesIO()
        im.convert("RGBA").save(out, format="PNG")
        return out.getvalue()


def subs(check: str, *cases):
    """Text mutations that `check` must catch: (what regresses, file, old, new) each."""
    return [(what, check, file, sub(old, new)) for what, file, old, new in cases]


# (what regresses, the check that must catch it, file, mutation: text -> text, bytes -> bytes
# for binary files, or None to delete the file)
MUTATIONS = [
    *subs("workflow_android",
          ("unpublished platforms;android-37", WF,
           'ANDROID_PLATFORM: "platforms;android-37.0"', 'ANDROID_PLATFORM: "platforms;android-37"'),
          ("NDK r27d (4 KB-aligned .so)", WF,
           'NDK_VERSION: "28.2.13676358"', 'NDK_VERSION: "27.3.13750724"'),
          ("no 16 KB alignment step", WF,
           "run: bash src-tauri/mobile/so-align.sh dist/android", "run: true"),
          ("zipalign -p 4 when signing", "src-tauri/mobile/android-collect.sh",
           "zipalign\" -f -P 16 4", "zipalign\" -f -p 4"),
          ("so-align.sh without the zipalign check", "src-tauri/mobile/so-align.sh",
           '"$zipalign" -c -P 16 -v 4', '"$zipalign" -c -v 4')),
    *subs("main_activity",
          ("status bar follows the system theme", KT,
           "WebViewCompat.addWebMessageListener(", "WebViewCompat.toString("),
          ("status bar style not from the theme", KT,
           '"dark" -> applySystemBars(true)', '"dark" -> applySystemBars(false)'),
          ("insets listener replaces the WebView's handling", KT,
           "      applied\n    }", "      insets\n    }"),
          ("bridge names differ", "ui/js/platform.js",
           "const BRIDGE = 'huarongSystemBars';", "const BRIDGE = 'huarongBars';"),
          ("system-bar listener open to every origin", KT,
           'setOf("http://tauri.localhost", "https://tauri.localhost")', 'setOf("*")')),
    *subs("platform_js",
          ("platform.js posts on every call", "ui/js/platform.js",
           "if (posted !== theme) {", "if (true) {"),
          ("platform.js accepts any theme", "ui/js/platform.js",
           "if (theme !== 'light' && theme !== 'dark') {", "if (false) {")),
    ("no values-zh label", "android_strings",
     "src-tauri/gen/android/app/src/main/res/values-zh/strings.xml", None),
    *subs("workflow_ios",
          ("iOS job on macos-15 (Xcode 16)", WF,
           "runs-on: macos-26", "runs-on: macos-15"),
          ("no simulator runtime check", "src-tauri/mobile/ios-xcode.sh",
           "xcodebuild -downloadPlatform iOS", "true"),
          ("simulator build wants x86_64 libapp.a", "src-tauri/mobile/ios-apply.py",
           'base[SIM_EXCLUDE] = "x86_64"', 'base[SIM_EXCLUDE] = "arm64"'),
          ("template launch storyboard kept", "src-tauri/mobile/ios-apply.py",
           'props.pop("UILaunchStoryboardName", None)', 'props.get("UILaunchStoryboardName")'),
          ("built app not verified", WF,
           "python mobile/ios-apply.py --verify \"$ipa\"", "true")),
    *subs("node",
          ("Node 20", WF,
           'NODE_VERSION: "22"', 'NODE_VERSION: "20"')),
    *subs("readme_mobile",
          ("README says Node.js 20", "README.md",
           "Node.js 22", "Node.js 20"),
          ("README says Xcode 16", "README.md",
           "Xcode 26", "Xcode 16"),
          ("README says NDK r27d", "README.md",
           "`ndk;28.2.13676358`", "`ndk;27.3.13750724`")),
    ("an RGBA iOS icon", "ios_icons_opaque", "src-tauri/icons/ios/AppIcon-512@2x.png", with_alpha),
    *subs("ios_plist",
          ("no photo-library text", PLIST,
           "<key>NSPhotoLibraryAddUsageDescription</key>", "<key>NSPhotoLibraryUsageDescriptionX</key>"),
          ("no zh-Hans localisation", PLIST,
           "<string>zh-Hans</string>", ""),
          ("no Chinese photo-library text", ZH_STRINGS,
           '"NSPhotoLibraryAddUsageDescription"', '"NSPhotoLibraryUsage"')),
    *subs("launch_screen",
          ("white launch screen", PLIST,
           "<key>UILaunchScreen</key>", "<key>UILaunchScreenX</key>"),
          ("launch colour not the UI's",
           "src-tauri/mobile/ios/Assets.xcassets/LaunchBackground.colorset/Contents.json",
           '"0xE3"', '"0xFF"')),
    # issue 24
    *subs("css_fallbacks",
          ("no fallback before the board's cq width", "ui/css/game.css",
           "  width: min(calc(100vw - 20px - var(--safe-l) - var(--safe-r)), calc((100vh - 250px",
           "  height: min(calc(100vw - 20px - var(--safe-l) - var(--safe-r)), calc((100vh - 250px"),
          ("no fallback before the Klotski frame's cq width", "ui/css/board-klotski.css",
           "  width: min(calc(100vw - 20px - var(--safe-l) - var(--safe-r)), calc((100vh - 268px",
           "  min-width: min(calc(100vw - 20px - var(--safe-l) - var(--safe-r)), calc((100vh - 268px"),
          ("fallback declared after the cq width", "ui/css/game.css",
           "  width: min(100cqw, calc((100cqh - 2 * var(--pad)) * var(--aspect) + 2 * var(--pad)));\n",
           "  width: min(100cqw, calc((100cqh - 2 * var(--pad)) * var(--aspect) + 2 * var(--pad)));\n"
           "  inline-size: 50cqi;\n")),
    *subs("workflow_android",
          ("no compileSdkMinor", "src-tauri/gen/android/app/build.gradle.kts",
           "    compileSdkMinor = 0\n", "")),
    *subs("build_number",
          ("a fixed Android versionCode", WF,
           '{"android":{"versionCode":${{ github.run_number }}}', '{"android":{"versionCode":1000}'),
          ("the AAB built without the run's build number", WF,
           "android build --aab --target aarch64 --target armv7 --target x86_64 --config \"$BUILD_CONFIG\"",
           "android build --aab --target aarch64 --target armv7 --target x86_64"),
          ("the IPA built without the run's build number", WF,
           "--export-method app-store-connect --config \"$BUILD_CONFIG\"", "--export-method app-store-connect")),
    *subs("ios_verify",
          ("--verify lets libapp.a into the .app", "src-tauri/mobile/ios-apply.py",
           'app.rglob("*.a")', 'app.rglob("*.a.none")'),
          ("--verify does not require huarong://", "src-tauri/mobile/ios-apply.py",
           "if SCHEME not in schemes:", "if False:"),
          ("--verify ignores the build number", "src-tauri/mobile/ios-apply.py",
           'build = os.environ.get("BUILD_NUMBER")', "build = None")),
    *subs("workflow_ios",
          ("Externals copied into the bundle", "src-tauri/mobile/ios-apply.py",
           'entry["buildPhase"] = "none"', 'entry["buildPhase"] = "resources"')),
    *subs("ios_status_bar",
          ("status bar appearance not per view controller", PLIST,
           "<key>UIViewControllerBasedStatusBarAppearance</key>\n\t<true/>",
           "<key>UIViewControllerBasedStatusBarAppearance</key>\n\t<false/>"),
          ("iOS handler under another name", "src-tauri/src/mobile.rs",
           'pub const SYSTEM_BARS_OBJECT: &str = "huarongSystemBars";',
           'pub const SYSTEM_BARS_OBJECT: &str = "huarongBars";'),
          ("dark page gets dark status-bar text", "src-tauri/src/mobile.rs",
           '"dark" => Some(1),', '"dark" => Some(3),'),
          ("the style never re-read", "src-tauri/src/mobile.rs",
           "let () = msg_send![root, setNeedsStatusBarAppearanceUpdate];", "let _ = root;")),
    *subs("platform_js",
          ("platform.js ignores the iOS handler", "ui/js/platform.js",
           "const ios = handlers && handlers[BRIDGE];", "const ios = null;")),
    *subs("ios_product_name",
          ("iOS productName with a space and Chinese", "src-tauri/tauri.ios.conf.json",
           '"productName": "Huarong"', '"productName": "Huarong 华容"')),
    ("no tauri.ios.conf.json", "ios_product_name", "src-tauri/tauri.ios.conf.json", None),
    *subs("manifest",
          ("Android TV launcher back", "src-tauri/gen/android/app/src/main/AndroidManifest.xml",
           '<category android:name="android.intent.category.LAUNCHER" />',
           '<category android:name="android.intent.category.LAUNCHER" />\n'
           '                <category android:name="android.intent.category.LEANBACK_LAUNCHER" />'),
          ("leanback feature back", "src-tauri/gen/android/app/src/main/AndroidManifest.xml",
           '<uses-permission android:name="android.permission.INTERNET" />',
           '<uses-permission android:name="android.permission.INTERNET" />\n'
           '    <uses-feature android:name="android.software.leanback" android:required="false" />')),
    *subs("rust_cache",
          ("rust-cache on the floating v2 tag (Node 20)", WF,
           "Swatinem/rust-cache@v2.9.1", "Swatinem/rust-cache@v2"),
          ("rust-cache v2.8.2 (Node 20)", WF,
           "Swatinem/rust-cache@v2.9.1", "Swatinem/rust-cache@v2.8.2")),
    *subs("main_activity",
          ("keyboard insets ignored", KT,
           "val bottom = maxOf(bars.bottom, ime.bottom)", "val bottom = bars.bottom"),
          ("keyboard inset computed but not published", KT,
           "bars.right / density, bottom / density,", "bars.right / density, bars.bottom / density,")),
    # Links
    *subs("mobile_config",
          ("App Link for another host", CONF_JSON,
           '"host": "huarong.app"', '"host": "huarong.example"'),
          ("the https entry not an App Link (no autoVerify, no applinks:)", CONF_JSON,
           '"path": ["/"], "appLink": true', '"path": ["/"], "appLink": false'),
          ("App Link for another path", CONF_JSON, '"path": ["/"]', '"path": ["/play/"]'),
          ("no App Link entry", CONF_JSON,
           '{ "scheme": ["https"], "host": "huarong.app", "path": ["/"], "appLink": true },', ""),
          ("LINK_BASE moved without the deep-link entry", SHARE_RS,
           'pub const LINK_BASE: &str = "https://huarong.app/";',
           'pub const LINK_BASE: &str = "https://play.huarong.app/";'),
          ("LINK_BASE not https", SHARE_RS,
           'pub const LINK_BASE: &str = "https://huarong.app/";',
           'pub const LINK_BASE: &str = "http://huarong.app/";'),
          ("the old scheme dropped (old links stop opening)", CONF_JSON,
           '{ "scheme": ["huarong"], "appLink": false }',
           '{ "scheme": ["huarongx"], "appLink": false }')),
    *subs("manifest",
          ("App Link filter without autoVerify", MANIFEST_XML,
           '<intent-filter android:autoVerify="true" >', "<intent-filter >"),
          ("App Link filter for another host", MANIFEST_XML,
           '<data android:host="huarong.app" />', '<data android:host="example.com" />')),
    *subs("pages_workflow",
          ("deploy-pages v4", PAGES_WF, "actions/deploy-pages@v5", "actions/deploy-pages@v4"),
          ("upload-pages-artifact drops .well-known", PAGES_WF,
           "include-hidden-files: true", "include-hidden-files: false"),
          ("no Android fingerprint passed", PAGES_WF,
           "HUARONG_ANDROID_CERT_SHA256: ${{ vars.HUARONG_ANDROID_CERT_SHA256 }}\n"
           "          HUARONG_APPLE_TEAM_ID: ${{ vars.HUARONG_APPLE_TEAM_ID }}\n        run: ./dev.sh",
           "HUARONG_APPLE_TEAM_ID: ${{ vars.HUARONG_APPLE_TEAM_ID }}\n        run: ./dev.sh"),
          ("no team ID passed", PAGES_WF,
           "HUARONG_APPLE_TEAM_ID: ${{ vars.HUARONG_APPLE_TEAM_ID }}\n        run: ./dev.sh",
           "HUARONG_APPLE_TEAM: ${{ vars.HUARONG_APPLE_TEAM_ID }}\n        run: ./dev.sh"),
          ("site not built by dev.sh", PAGES_WF, "run: ./dev.sh web build", "run: make site"),
          ("deploy without id-token", PAGES_WF, "      id-token: write\n", ""),
          ("no configure-pages", PAGES_WF, "uses: actions/configure-pages@v6", "uses: actions/cache@v5")),
    ("no web/well-known.mjs", "pages_workflow", "web/well-known.mjs", None),
    *subs("pages_workflow",
          ("the signing certificate not checked against the variable", WF,
           "run: bash src-tauri/mobile/app-links-cert.sh dist/android", "run: true")),
    ("no pages.yml", "pages_workflow", PAGES_WF, None),
    *subs("readme_links",
          ("README misses the custom domain", "README.md", "CNAME", "CNAMX"),
          ("README names another base", SHARE_RS,
           'pub const LINK_BASE: &str = "https://huarong.app/";',
           'pub const LINK_BASE: &str = "https://huarong.example/";')),
    *subs("ios_verify",
          ("--verify ignores the Universal Links", "src-tauri/mobile/ios-apply.py",
           'if f"applinks:{host}" not in domains:', "if False:"),
          ("--verify ignores the provisioning profile", "src-tauri/mobile/ios-apply.py",
           'elif "com.apple.developer.associated-domains" not in profile_entitlements(profile.read_bytes()):',
           "elif False:")),
    *subs("privacy_manifest",
          ("tracking declared", PRIVACY,
           "<key>NSPrivacyTracking</key>\n\t<false/>", "<key>NSPrivacyTracking</key>\n\t<true/>"),
          ("file timestamps undeclared", PRIVACY,
           "NSPrivacyAccessedAPICategoryFileTimestamp", "NSPrivacyAccessedAPICategoryDiskSpace"),
          ("invalid reason code", PRIVACY,
           "C617.1", "C617.9")),
]


def self_test() -> int:
    """Static checks on a copy: all pass as committed, and each mutation fails its guard."""
    real_root = ROOT
    with tempfile.TemporaryDirectory(prefix="huarong-mobile-self-test-") as tmp:
        copy = Path(tmp) / "repo"
        copy.mkdir()
        skip = shutil.ignore_patterns("target", "node_modules", ".git", "apple", "build", ".gradle")
        for rel in ("Cargo.toml", "README.md", ".github", "ui", "src-tauri", "crates/app/src",
                    "crates/engine/src/code/mod.rs", "web/well-known.mjs"):
            src = real_root / rel
            (copy / rel).parent.mkdir(parents=True, exist_ok=True)
            (shutil.copytree(src, copy / rel, ignore=skip) if src.is_dir()
             else shutil.copy2(src, copy / rel))
        set_root(copy)
        try:
            work = Path(tmp) / "work"
            work.mkdir()
            base = run_checks(STATIC_CHECKS, work, quiet=True)
            broken = {k: v for k, v in base.items() if v}
            for name, why in broken.items():
                print(f"FAIL self-test baseline {name}: {why}")
            caught = missed = 0
            for i, (what, guard, rel, mutate) in enumerate(MUTATIONS):
                path = copy / rel
                original = path.read_bytes()
                try:
                    if mutate is None:
                        path.unlink()
                    elif mutate is with_alpha:
                        path.write_bytes(mutate(original))
                    else:
                        path.write_text(mutate(original.decode("utf-8")), encoding="utf-8")
                    guard_fn = next(c for c in STATIC_CHECKS if c.__name__ == f"check_{guard}")
                    (work / f"m{i}").mkdir()
                    result = run_checks([guard_fn], work / f"m{i}", quiet=True)[guard]
                except Fail as e:
                    result, what = None, f"{what} ({e})"
                finally:
                    path.write_bytes(original)
                if result:
                    caught += 1
                    print(f"PASS self-test: {what} -> {guard} fails: {result[:110]}")
                else:
                    missed += 1
                    print(f"FAIL self-test: {what} is not caught by {guard}")
        finally:
            set_root(real_root)
    print(f"self-test: {caught} passed, {missed + len(broken)} failed")
    return 1 if missed or broken else 0


def main() -> int:
    if sys.argv[1:] == ["--fix-manifest"]:
        xml = MANIFEST.read_text(encoding="utf-8")
        MANIFEST.write_text(expected_manifest(xml), encoding="utf-8")
        print(f"rewrote {MANIFEST.relative_to(ROOT)}")
        return 0
    if sys.argv[1:] == ["--fix-ios-icons"]:
        return fix_ios_icons()
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if sys.argv[1:]:
        print(__doc__, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="huarong-mobile-") as tmp:
        results = run_checks(ALL_CHECKS, Path(tmp))
    failed = sum(1 for v in results.values() if v)
    print(f"check.py: {len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
