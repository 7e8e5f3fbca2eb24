#!/usr/bin/env python3
"""Huarong's changes to the Xcode project `tauri ios init` generates (issue 17). macOS only.

gen/apple is not committed (the CLI only generates it on macOS), so the workflow runs, in
src-tauri after `npm run tauri -- ios init --ci`:

    python3 mobile/ios-apply.py                  # patch gen/apple, then regenerate it (xcodegen)
    python3 mobile/ios-apply.py --verify APP     # after the build: APP = a .app folder or an .ipa

What the patch does to gen/apple (the XcodeGen spec project.yml, then `xcodegen generate`):
  * EXCLUDED_ARCHS[sdk=iphonesimulator*] = x86_64: a generic-simulator build (ONLY_ACTIVE_ARCH=NO)
    otherwise also links an x86_64 libapp.a that nothing builds (`ld: library 'app' not found`);
    simulator builds are Apple-silicon only, as the runners are;
  * the template's LaunchScreen.storyboard is dropped: Info.ios.plist's UILaunchScreen draws the
    launch screen from the asset catalog entries copied here (LaunchBackground = the UI's --bg,
    light and dark; LaunchMark = the app icon at 128 pt);
  * mobile/ios/resources/ becomes a resources group: PrivacyInfo.xcprivacy and the en / zh-Hans
    InfoPlist.strings (Chinese home-screen name and photo-library text);
  * the committed iOS icons (icons/ios, RGB without alpha: ITMS-90717) replace the template's;
  * the template's `Externals` source folder (where the build puts libapp.a) gets
    `buildPhase: none`: the library is linked through the target's `libapp.a` dependency and
    LIBRARY_SEARCH_PATHS, and a `.a` that XcodeGen files into a copy phase would end up inside
    the .app, which App Store Connect rejects (ITMS-90171).
--verify checks the built bundle: the Info.plist keys above, the `huarong` URL scheme
(CFBundleURLTypes, from the deep-link plugin), view-controller-based status bar appearance (the
status bar follows the in-app theme, src/mobile.rs), an ASCII executable name
(tauri.ios.conf.json's productName), CFBundleVersion = $BUILD_NUMBER when that is set (the CI
run number), no static library (*.a) anywhere in the bundle, the privacy manifest and strings,
and the Universal Links: gen/apple's entitlements (which the deep-link plugin's build script
writes from tauri.conf.json's plugins.deep-link.mobile) list `applinks:<host>` for every App
Link host there, and a signed .ipa's provisioning profile allows associated domains.
Needs PyYAML (the workflow installs the version check.sh pins) and, for the 3x launch mark, sips.
"""

from __future__ import annotations

import os
import plistlib
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import yaml

APP = Path(__file__).resolve().parents[1]
CONF = APP / "tauri.conf.json"
GEN = APP / "gen" / "apple"
IOS = APP / "mobile" / "ios"
ICONS = APP / "icons"
RESOURCE_GROUP = "HuarongResources"
SIM_EXCLUDE = "EXCLUDED_ARCHS[sdk=iphonesimulator*]"
SCHEME = "huarong"
EXTERNALS = "Externals"
LAUNCH_MARK = {"LaunchMark.png": ("128x128.png", None), "LaunchMark@2x.png": ("128x128@2x.png", None),
               "LaunchMark@3x.png": ("icon.png", 384)}  # name -> (source icon, resize to px)


class Fail(Exception):
    pass


class _Loader(yaml.SafeLoader):
    """SafeLoader that keeps every scalar that looks like a float as a string ("15.0", "1.10")."""


_Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:float"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def png_color_type(path: Path) -> int:
    head = path.read_bytes()[:26]
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise Fail(f"{path} is not a PNG")
    return head[25]


def ios_target(spec: dict) -> tuple[str, dict]:
    targets = [(n, t) for n, t in (spec.get("targets") or {}).items()
               if isinstance(t, dict) and t.get("platform") == "iOS"]
    if len(targets) != 1:
        raise Fail(f"project.yml: expected one iOS target, found {[n for n, _ in targets]}")
    return targets[0]


def patch_spec(spec: dict) -> list[str]:
    """Applies the changes above to a loaded project.yml; returns what it did."""
    name, target = ios_target(spec)
    done = []
    base = target.setdefault("settings", {}).setdefault("base", {})
    base[SIM_EXCLUDE] = "x86_64"
    done.append(f"{name}: {SIM_EXCLUDE} = x86_64")
    props = target.setdefault("info", {}).setdefault("properties", {})
    if props.pop("UILaunchStoryboardName", None) is not None:
        done.append("UILaunchStoryboardName removed (UILaunchScreen from Info.ios.plist instead)")
    sources = target.setdefault("sources", [])

    def path_of(entry: object) -> str:
        return entry if isinstance(entry, str) else (entry or {}).get("path", "")

    kept = [s for s in sources if path_of(s) != "LaunchScreen.storyboard"]
    if len(kept) != len(sources):
        done.append("LaunchScreen.storyboard source removed")
    externals = [i for i, s in enumerate(kept) if path_of(s) == EXTERNALS]
    if not externals:
        raise Fail(f"project.yml: no {EXTERNALS} source in {name} (template changed? review ITMS-90171)")
    for i in externals:
        entry = kept[i] if isinstance(kept[i], dict) else {"path": kept[i]}
        entry["buildPhase"] = "none"
        kept[i] = entry
    done.append(f"{EXTERNALS}/: buildPhase none (libapp.a is linked, never copied into the .app)")
    if not any(path_of(s) == RESOURCE_GROUP for s in kept):
        kept.append({"path": RESOURCE_GROUP, "buildPhase": "resources"})
        done.append(f"{RESOURCE_GROUP}/ added as resources")
    target["sources"] = kept
    return done


def copy_files() -> list[str]:
    done = []
    shutil.rmtree(GEN / RESOURCE_GROUP, ignore_errors=True)
    shutil.copytree(IOS / "resources", GEN / RESOURCE_GROUP)
    done.append(f"{RESOURCE_GROUP}/: " + ", ".join(
        str(p.relative_to(IOS / "resources")) for p in sorted((IOS / "resources").rglob("*"))
        if p.is_file()))
    catalog = GEN / "Assets.xcassets"
    if not catalog.is_dir():
        raise Fail(f"{catalog} missing: run `tauri ios init` first")
    for entry in sorted((IOS / "Assets.xcassets").iterdir()):
        shutil.rmtree(catalog / entry.name, ignore_errors=True)
        shutil.copytree(entry, catalog / entry.name)
    mark = catalog / "LaunchMark.imageset"
    for out, (src, size) in LAUNCH_MARK.items():
        if size is None:
            shutil.copy2(ICONS / src, mark / out)
        else:
            run(["sips", "-z", str(size), str(size), str(ICONS / src), "--out", str(mark / out)])
    done.append("asset catalog: LaunchBackground, LaunchMark (1x/2x/3x)")
    appicon = catalog / "AppIcon.appiconset"
    icons = sorted((ICONS / "ios").glob("*.png"))
    for icon in icons:
        if png_color_type(icon) != 2:
            raise Fail(f"{icon.name} has an alpha channel: App Store Connect rejects it (ITMS-90717)")
        shutil.copy2(icon, appicon / icon.name)
    done.append(f"AppIcon: {len(icons)} RGB icons")
    return done


def run(cmd: list[str], cwd: Path | None = None) -> None:
    r = subprocess.run(cmd, cwd=cwd)
    if r.returncode != 0:
        raise Fail(f"{' '.join(cmd)} failed ({r.returncode})")


def apply() -> None:
    spec_path = GEN / "project.yml"
    if not spec_path.exists():
        raise Fail(f"{spec_path} missing: run `npm run tauri -- ios init --ci` first")
    spec = yaml.load(spec_path.read_text(encoding="utf-8"), Loader=_Loader)
    done = patch_spec(spec)
    spec_path.write_text(yaml.safe_dump(spec, sort_keys=False, allow_unicode=True, width=4096),
                         encoding="utf-8")
    done += copy_files()
    run(["xcodegen", "generate", "--spec", str(spec_path)], cwd=GEN)
    for line in done:
        print(f"ios-apply: {line}")


def app_link_hosts() -> list[str]:
    """The hosts of the App Link entries in tauri.conf.json (as the deep-link plugin decides:
    `appLink`, else a web scheme with a host)."""
    import json
    mobile = json.loads(CONF.read_text(encoding="utf-8"))["plugins"]["deep-link"]["mobile"]
    hosts = []
    for d in mobile:
        web = bool(set(d.get("scheme", ["https", "http"])) & {"https", "http"})
        if d.get("appLink", web and bool(d.get("host"))) and d.get("host"):
            hosts.append(d["host"])
    return hosts


def entitlements_file() -> Path:
    found = sorted(GEN.glob("*_iOS/*_iOS.entitlements"))
    if len(found) != 1:
        raise Fail(f"expected one gen/apple/<app>_iOS/<app>_iOS.entitlements, found {found}")
    return found[0]


def profile_entitlements(data: bytes) -> dict:
    """The Entitlements of an embedded.mobileprovision (a signed message around a plist)."""
    start, end = data.find(b"<?xml"), data.rfind(b"</plist>")
    if start < 0 or end < start:
        raise Fail("embedded.mobileprovision holds no property list")
    return plistlib.loads(data[start:end + len(b"</plist>")]).get("Entitlements", {})


def verify(target: Path, entitlements: Path | None = None) -> None:
    """Checks the built app bundle (or the .app inside an .ipa) carries every change;
    `entitlements`: the project's entitlements file (default: the one in gen/apple)."""
    with tempfile.TemporaryDirectory() as tmp:
        app = target
        if target.suffix == ".ipa":
            with zipfile.ZipFile(target) as z:
                z.extractall(tmp)
            apps = sorted(Path(tmp, "Payload").glob("*.app"))
            if len(apps) != 1:
                raise Fail(f"{target}: expected one Payload/*.app, found {len(apps)}")
            app = apps[0]
        info = plistlib.loads((app / "Info.plist").read_bytes())
        problems = []
        if not info.get("NSPhotoLibraryAddUsageDescription"):
            problems.append("NSPhotoLibraryAddUsageDescription missing")
        if not {"en", "zh-Hans"} <= set(info.get("CFBundleLocalizations", [])):
            problems.append(f"CFBundleLocalizations = {info.get('CFBundleLocalizations')}")
        if "UILaunchStoryboardName" in info:
            problems.append("UILaunchStoryboardName still set (the template's white launch screen)")
        if (info.get("UILaunchScreen") or {}).get("UIColorName") != "LaunchBackground":
            problems.append(f"UILaunchScreen = {info.get('UILaunchScreen')}")
        schemes = [s for t in info.get("CFBundleURLTypes", []) for s in t.get("CFBundleURLSchemes", [])]
        if SCHEME not in schemes:
            problems.append(f"no {SCHEME}:// URL scheme in CFBundleURLTypes (schemes: {schemes})")
        if info.get("UIViewControllerBasedStatusBarAppearance") is not True:
            problems.append("UIViewControllerBasedStatusBarAppearance is not true: the status bar "
                            "cannot follow the in-app theme")
        exe = str(info.get("CFBundleExecutable", ""))
        if not exe or not exe.isascii() or " " in exe or app.name != f"{exe}.app":
            problems.append(f"executable {exe!r} in {app.name!r}: want an ASCII name without spaces "
                            "(tauri.ios.conf.json productName)")
        build = os.environ.get("BUILD_NUMBER")
        if build and str(info.get("CFBundleVersion")) != build:
            problems.append(f"CFBundleVersion = {info.get('CFBundleVersion')!r}, want the run's "
                            f"build number {build}")
        libs = sorted(str(p.relative_to(app)) for p in app.rglob("*.a"))
        if libs:
            problems.append(f"static libraries inside the bundle (ITMS-90171): {libs}")
        privacy = app / "PrivacyInfo.xcprivacy"
        want = plistlib.loads((IOS / "resources" / "PrivacyInfo.xcprivacy").read_bytes())
        if not privacy.exists():
            problems.append("PrivacyInfo.xcprivacy not at the bundle root")
        elif plistlib.loads(privacy.read_bytes()) != want:
            problems.append("PrivacyInfo.xcprivacy differs from mobile/ios/resources")
        for lang in ("en", "zh-Hans"):
            if not (app / f"{lang}.lproj" / "InfoPlist.strings").exists():
                problems.append(f"{lang}.lproj/InfoPlist.strings missing")
        if not (app / "Assets.car").exists():
            problems.append("Assets.car missing (icons, launch colour and mark)")
        ent = plistlib.loads((entitlements or entitlements_file()).read_bytes())
        domains = ent.get("com.apple.developer.associated-domains", [])
        hosts = app_link_hosts()
        if not hosts:
            problems.append("tauri.conf.json has no App Link entry (no Universal Links)")
        for host in hosts:
            if f"applinks:{host}" not in domains:
                problems.append(f"entitlements lack applinks:{host} (associated domains: {domains}): "
                                "links to it would open Safari, not the app")
        if target.suffix == ".ipa":
            profile = app / "embedded.mobileprovision"
            if not profile.exists():
                problems.append("a signed .ipa without embedded.mobileprovision")
            elif "com.apple.developer.associated-domains" not in profile_entitlements(profile.read_bytes()):
                problems.append("the provisioning profile does not allow Associated Domains (enable "
                                "the capability for the App ID and make a new IOS_MOBILE_PROVISION)")
        if problems:
            raise Fail(f"{app.name}: " + "; ".join(problems))
        print(f"ios-apply --verify: {app.name} has the photo-library text, en + zh-Hans, the "
              f"launch screen, {SCHEME}://, applinks:{', '.join(hosts)}, theme-following status "
              "bar, build "
              f"{info.get('CFBundleVersion')}, no static library, the privacy manifest and the "
              "asset catalog")


def main() -> int:
    try:
        if sys.argv[1:2] == ["--verify"] and len(sys.argv) == 3:
            verify(Path(sys.argv[2]))
        elif len(sys.argv) == 1:
            apply()
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except (Fail, OSError, yaml.YAMLError, plistlib.InvalidFileException, zipfile.BadZipFile) as e:
        print(f"ios-apply: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
