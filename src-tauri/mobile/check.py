#!/usr/bin/env python3
"""The mobile checks this machine can make without an Android SDK, NDK or Xcode (issue 8).

Run by check.sh (which installs the linters and the Tauri CLI first); usable alone:

    python3 src-tauri/mobile/check.py            # all checks
    python3 src-tauri/mobile/check.py --fix-manifest
        # rewrite the deep-link block of the committed AndroidManifest.xml exactly as the
        # deep-link plugin's build script would (after changing plugins.deep-link)

Each check prints PASS or FAIL with the reason; the last line is "N passed, M failed".
"""

from __future__ import annotations

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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "src-tauri"
CONF = APP / "tauri.conf.json"
ANDROID = APP / "gen" / "android"
MAIN = ANDROID / "app" / "src" / "main"
MANIFEST = MAIN / "AndroidManifest.xml"
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

# Files of gen/android that differ from what `tauri android init` writes, on purpose.
# Everything else must be byte-identical to a fresh generation by the pinned CLI.
CUSTOMISED = {
    "app/src/main/java/app/huarong/puzzles/MainActivity.kt": "insets -> --safe-*, portrait on phones",
    "app/src/main/AndroidManifest.xml": "backup rules, deep-link intent filter",
    "app/src/main/res/values/themes.xml": "window background",
    "app/src/main/res/values-night/themes.xml": "window background (dark)",
    "app/src/main/res/values/huarong_colors.xml": "background colour",
    "app/src/main/res/values-night/huarong_colors.xml": "background colour (dark)",
    "app/src/main/res/xml/backup_rules.xml": "Auto Backup, Android 6-11",
    "app/src/main/res/xml/data_extraction_rules.xml": "backup and transfer, Android 12+",
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


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    need(head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{path.name} is not a PNG")
    return struct.unpack(">II", head[16:24])


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
        how = "derived by the CLI: major*1000000 + minor*1000 + patch"
    return f"version {version} = Cargo workspace version; Android versionCode {code} ({how})"


def check_schema() -> str:
    try:
        import jsonschema  # installed by check.sh
    except ImportError as e:
        raise Fail("python package jsonschema missing (check.sh installs it)") from e
    need(CLI_SCHEMA.exists(), f"{CLI_SCHEMA.relative_to(ROOT)} missing: run npm ci in src-tauri")
    schema = json.loads(CLI_SCHEMA.read_text(encoding="utf-8"))
    errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(load_conf()), key=str)
    need(not errors, "; ".join(f"{'/'.join(map(str, e.path))}: {e.message}" for e in errors[:5]))
    return "tauri.conf.json is valid against the pinned CLI's config schema"


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
         f"plugins.deep-link.mobile needs {{scheme: [{SCHEME!r}], appLink: false}}")
    desktop = dl.get("desktop", {})
    desktop = desktop if isinstance(desktop, list) else [desktop]
    need(any(SCHEME in d.get("schemes", []) for d in desktop),
         f"plugins.deep-link.desktop needs schemes [{SCHEME!r}]")
    return (f"identifier {ident}; Android minSdk {MIN_SDK}; iOS {IOS_MIN}; deep link "
            f"{SCHEME}:// on mobile and desktop")


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
    return f"{compared} icon files regenerate identically from icons/source/icon.json"


# ---------------------------------------------------------------------------------------------
# gen/android


def deep_link_intent_filter(domain: dict) -> str:
    """Same text as tauri-plugin-deep-link 2.x build.rs `intent_filter` (custom schemes only)."""
    host = f'<data android:host="{domain["host"]}" />' if domain.get("host") else ""
    auto_verify = 'android:autoVerify="true" ' if domain.get("appLink") else ""
    schemes = "\n    ".join(f'<data android:scheme="{s}" />' for s in domain.get("scheme", []))

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
    src = (APP / "src" / "persist.rs").read_text(encoding="utf-8")
    names = [re.search(rf'pub const {c}: &str = "([^"]+)";', src) for c in ("STORE_FILE", "GOOD_FILE")]
    need(all(names), "src/persist.rs no longer defines STORE_FILE and GOOD_FILE")
    return [m.group(1) for m in names]


def check_manifest() -> str:
    xml = MANIFEST.read_text(encoding="utf-8")
    need(expected_manifest(xml) == xml,
         "AndroidManifest.xml's deep-link block is not what the deep-link plugin writes: run "
         "python3 src-tauri/mobile/check.py --fix-manifest")
    need(f'<data android:scheme="{SCHEME}" />' in xml, f"no intent filter for {SCHEME}://")
    for attr, res in [("android:fullBackupContent", "backup_rules"),
                      ("android:dataExtractionRules", "data_extraction_rules")]:
        need(f'{attr}="@xml/{res}"' in xml, f"manifest lacks {attr}")
    files = persist_file_names()
    for res in ("backup_rules", "data_extraction_rules"):
        rules = (MAIN / "res" / "xml" / f"{res}.xml").read_text(encoding="utf-8")
        includes = re.findall(r'<include domain="root" path="([^"]+)" />', rules)
        sections = 2 if res == "data_extraction_rules" else 1
        need(sorted(includes) == sorted(files * sections),
             f"{res}.xml must include exactly {files} (from src/persist.rs) in each section, "
             f"has {includes}")
    return f"deep-link intent filter as the plugin writes it; backups hold only {', '.join(files)}"


def check_main_activity() -> str:
    ident = load_conf()["identifier"]
    path = MAIN / "java" / Path(*ident.split(".")) / "MainActivity.kt"
    need(path.exists(), f"{path.relative_to(APP)} missing (identifier changed? regenerate)")
    src = path.read_text(encoding="utf-8")
    need(src.startswith(f"package {ident}\n"), "MainActivity package != identifier")
    for token in ("--safe-top", "--safe-right", "--safe-bottom", "--safe-left", "Locale.ROOT",
                  "enableEdgeToEdge()", "displayCutout()", "systemBars()",
                  "SCREEN_ORIENTATION_USER_PORTRAIT", "smallestScreenWidthDp",
                  "super.onWebViewCreate(webView)"):
        need(token in src, f"MainActivity.kt lacks {token}")
    css = "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "ui" / "css").glob("*.css")))
    for side in ("top", "right", "bottom", "left"):
        need(f"var(--safe-{side}" in css, f"ui/css/*.css no longer read --safe-{side}")
    return "MainActivity feeds the four --safe-* variables that ui/css reads"


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


def check_ios_plist() -> str:
    path = APP / "Info.ios.plist"
    need(path.exists(), "src-tauri/Info.ios.plist missing")
    plist = plistlib.loads(path.read_bytes())
    phone = plist.get("UISupportedInterfaceOrientations")
    pad = plist.get("UISupportedInterfaceOrientations~ipad", [])
    need(phone == ["UIInterfaceOrientationPortrait"], f"iPhone orientations: {phone}")
    need(len(set(pad)) == 4, f"iPad should allow all four orientations, has {pad}")
    return "Info.ios.plist: portrait on iPhone, every orientation on iPad"


def main() -> int:
    if sys.argv[1:] == ["--fix-manifest"]:
        xml = MANIFEST.read_text(encoding="utf-8")
        MANIFEST.write_text(expected_manifest(xml), encoding="utf-8")
        print(f"rewrote {MANIFEST.relative_to(ROOT)}")
        return 0
    checks = [check_version, check_schema, check_mobile_config, check_capabilities, check_icon_set,
              check_icons_match_source, check_manifest, check_main_activity,
              check_android_regenerates, check_ios_plist]
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="huarong-mobile-") as tmp:
        for i, check in enumerate(checks):
            name = check.__name__.removeprefix("check_")
            try:
                args = [Path(tmp) / str(i)] if check.__code__.co_argcount else []
                for a in args:
                    a.mkdir()
                print(f"PASS {name}: {check(*args)}")
                passed += 1
            except (Fail, OSError, ValueError, KeyError, TypeError) as e:
                why = str(e) if isinstance(e, Fail) else f"{type(e).__name__}: {e}"
                print(f"FAIL {name}: {why}")
                failed += 1
    print(f"check.py: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
