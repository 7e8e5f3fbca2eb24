//! The app's only Android/iOS-specific Rust: the system share sheet. Kept small on
//! purpose: everything here is reviewed by hand because this machine cannot compile for a phone
//! (CI's `mobile.yml` does).
//!
//! What `lib.rs` must contain, exactly:
//!
//! ```ignore
//! #[cfg(any(mobile, test))]
//! mod mobile;
//!
//! // in run(), after the cross-platform plugins:
//! #[cfg(mobile)]
//! let builder = mobile::plugins(builder);
//! ```
//!
//! `share::share_card` calls `share_file` on phones, inside its blocking worker (the share
//! sheet blocks until the player dismisses it).
//!
//! The items that need the share plugin are `#[cfg(mobile)]`; the two pure helpers below are
//! also compiled under `test` so that their unit tests run on the desktop.
//!
//! iOS only: the status bar follows the in-app theme through the same bridge as on
//! Android. `ui/js/platform.js` posts the theme the page shows ("light" / "dark") to a message
//! handler named [`SYSTEM_BARS_OBJECT`]; on iOS that is a `WKScriptMessageHandler` added to the
//! webview's `WKUserContentController` when the webview is ready (module `ios`). It sets the
//! root view controller's `preferredStatusBarStyle` and asks UIKit to re-read it. Not
//! `overrideUserInterfaceStyle`: that would also pin the page's `prefers-color-scheme`, and the
//! page resolves "system" from it (it could never follow the system again).

use std::path::Path;

/// What the share sheet reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(mobile), allow(dead_code))] // desktop compiles this module for its tests only
pub enum ShareOutcome {
    /// The player picked a target and the system says it completed (iOS).
    Shared,
    /// The sheet closed without a confirmed share. On Android this is also what a successful
    /// share reports (the chooser always returns `RESULT_CANCELED`), so it is never an error.
    Dismissed,
}

/// Registers the plugins that exist only on phones: the system share sheet
/// (`tauri-plugin-sharekit`). Its JS commands are not granted to the webview (no capability
/// entry): sharing goes through the app's own command, which decides what file is shared.
#[cfg(mobile)]
pub fn plugins<R: tauri::Runtime>(builder: tauri::Builder<R>) -> tauri::Builder<R> {
    let builder = builder.plugin(tauri_plugin_sharekit::init());
    #[cfg(target_os = "ios")]
    let builder = builder.plugin(
        tauri::plugin::Builder::<R, ()>::new("huarong-system-bars")
            // The install is queued on the main thread when the webview is created, so it runs
            // before any IPC answer reaches the page: the page's first applySystemBars (after
            // get_settings) already finds the handler.
            .on_webview_ready(|webview| {
                let installed = webview.with_webview(|platform| {
                    // SAFETY: runs on the main thread (with_webview's closure) with the live
                    // webview's user content controller and root view controller.
                    unsafe { ios::install(platform.controller(), platform.view_controller()) }
                });
                if let Err(e) = installed {
                    eprintln!("huarong: the status-bar bridge is not installed: {e}");
                }
            })
            .build(),
    );
    builder
}

/// The name `ui/js/platform.js` posts the page's theme to (`const BRIDGE`), also the Android
/// `MainActivity.SYSTEM_BARS_OBJECT`; check.py compares the three.
#[cfg_attr(not(target_os = "ios"), allow(dead_code))]
pub const SYSTEM_BARS_OBJECT: &str = "huarongSystemBars";

/// The status-bar style for the theme the page posted: a dark page gets light text
/// (`UIStatusBarStyleLightContent` = 1), a light page dark text (`UIStatusBarStyleDarkContent` = 3,
/// iOS 13+); anything else is ignored (`None`). Until the first message the style is
/// `UIStatusBarStyleDefault` (0), which follows the system, as on Android.
#[cfg_attr(not(target_os = "ios"), allow(dead_code))]
pub fn status_bar_style(theme: &str) -> Option<isize> {
    match theme {
        "dark" => Some(1),
        "light" => Some(3),
        _ => None,
    }
}

/// Whether a script message comes from the app's own page: the main frame of
/// `tauri://localhost` (where Tauri serves `ui/` on iOS).
#[cfg_attr(not(target_os = "ios"), allow(dead_code))]
pub fn from_app_page(main_frame: bool, protocol: &str, host: &str) -> bool {
    main_frame && protocol == "tauri" && host == "localhost"
}

#[cfg(target_os = "ios")]
mod ios {
    //! The iOS half of the system-bar bridge, in plain Objective-C runtime calls (objc2, the
    //! version tauri itself uses): one handler class with one method, and one method added to
    //! the root view controller's class (tao's `TaoUIViewController`, which does not define
    //! `preferredStatusBarStyle`).
    use objc2::rc::Retained;
    use objc2::runtime::{AnyClass, AnyObject, AnyProtocol, ClassBuilder, Imp, NSObject, Sel};
    use objc2::{msg_send, sel, ClassType};
    use std::ffi::{c_char, c_void, CStr};
    use std::sync::atomic::{AtomicIsize, Ordering};
    use std::sync::OnceLock;

    /// What `preferredStatusBarStyle` answers; 0 = `UIStatusBarStyleDefault` until the page posts.
    static STYLE: AtomicIsize = AtomicIsize::new(0);

    extern "C-unwind" fn preferred_status_bar_style(_this: &AnyObject, _cmd: Sel) -> isize {
        STYLE.load(Ordering::Relaxed)
    }

    /// An `NSString`'s text (empty for nil or anything that is not a string).
    unsafe fn text(object: *mut AnyObject) -> String {
        let Some(string_class) = AnyClass::get(c"NSString") else {
            return String::new();
        };
        if object.is_null() {
            return String::new();
        }
        let is_string: bool = unsafe { msg_send![object, isKindOfClass: string_class] };
        if !is_string {
            return String::new();
        }
        let utf8: *const c_char = unsafe { msg_send![object, UTF8String] };
        if utf8.is_null() {
            return String::new();
        }
        unsafe { CStr::from_ptr(utf8) }
            .to_string_lossy()
            .into_owned()
    }

    /// `-userContentController:didReceiveScriptMessage:` (main thread).
    extern "C-unwind" fn did_receive(
        _this: &AnyObject,
        _cmd: Sel,
        _controller: &AnyObject,
        message: &AnyObject,
    ) {
        unsafe {
            let frame: *mut AnyObject = msg_send![message, frameInfo];
            if frame.is_null() {
                return;
            }
            let main_frame: bool = msg_send![frame, isMainFrame];
            let origin: *mut AnyObject = msg_send![frame, securityOrigin];
            if origin.is_null() {
                return;
            }
            let protocol = text(msg_send![origin, protocol]);
            let host = text(msg_send![origin, host]);
            if !super::from_app_page(main_frame, &protocol, &host) {
                return;
            }
            let Some(style) = super::status_bar_style(&text(msg_send![message, body])) else {
                return;
            };
            STYLE.store(style, Ordering::Relaxed);
            let webview: *mut AnyObject = msg_send![message, webView];
            if webview.is_null() {
                return;
            }
            let window: *mut AnyObject = msg_send![webview, window];
            if window.is_null() {
                return;
            }
            let root: *mut AnyObject = msg_send![window, rootViewController];
            if !root.is_null() {
                let () = msg_send![root, setNeedsStatusBarAppearanceUpdate];
            }
        }
    }

    fn handler_class() -> &'static AnyClass {
        static CLASS: OnceLock<&'static AnyClass> = OnceLock::new();
        CLASS.get_or_init(|| {
            let mut class = ClassBuilder::new(c"HuarongSystemBarsHandler", NSObject::class())
                .expect("the class HuarongSystemBarsHandler is registered once");
            if let Some(protocol) = AnyProtocol::get(c"WKScriptMessageHandler") {
                class.add_protocol(protocol);
            }
            // SAFETY: the signature is WKScriptMessageHandler's (id self, SEL, id, id) -> void.
            unsafe {
                class.add_method(
                    sel!(userContentController:didReceiveScriptMessage:),
                    did_receive as extern "C-unwind" fn(_, _, _, _),
                );
            }
            class.register()
        })
    }

    /// Adds the handler to the webview's user content controller and the style method to the
    /// root view controller's class.
    ///
    /// # Safety
    /// Main thread; `controller` is a live `WKUserContentController`, `view_controller` a live
    /// `UIViewController` (or null).
    pub unsafe fn install(controller: *mut c_void, view_controller: *mut c_void) {
        let view_controller = view_controller.cast::<AnyObject>();
        if !view_controller.is_null() {
            let class: *const AnyClass = unsafe { (*view_controller).class() };
            // SAFETY: the IMP has the (id, SEL) -> NSInteger signature the encoding says.
            let imp: Imp = unsafe {
                std::mem::transmute::<extern "C-unwind" fn(&AnyObject, Sel) -> isize, Imp>(
                    preferred_status_bar_style,
                )
            };
            let added = unsafe {
                objc2::ffi::class_addMethod(
                    class.cast_mut(),
                    sel!(preferredStatusBarStyle),
                    imp,
                    c"q@:".as_ptr(),
                )
            };
            if !added.as_bool() {
                eprintln!("huarong: the view controller already defines preferredStatusBarStyle");
            }
        }
        let controller = controller.cast::<AnyObject>();
        if controller.is_null() {
            return;
        }
        let name = std::ffi::CString::new(super::SYSTEM_BARS_OBJECT).expect("no NUL in the name");
        let Some(string_class) = AnyClass::get(c"NSString") else {
            return;
        };
        unsafe {
            let name: *mut AnyObject = msg_send![string_class, stringWithUTF8String: name.as_ptr()];
            let handler: Retained<AnyObject> = msg_send![handler_class(), new];
            // The controller keeps the handler for the webview's life.
            let () = msg_send![controller, addScriptMessageHandler: &*handler, name: name];
        }
    }
}

/// Opens the system share sheet with one file.
///
/// `path` must be absolute and **unique per share**: the iOS side copies the file into the
/// temporary directory under its own name and silently keeps an older copy of the same name.
#[cfg(mobile)]
pub fn share_file<R: tauri::Runtime>(
    window: &tauri::WebviewWindow<R>,
    path: &Path,
    mime: &str,
    title: &str,
) -> Result<ShareOutcome, String> {
    use tauri_plugin_sharekit::{ShareExt, ShareFileOptions};

    let url = file_url(path)?;
    let options = ShareFileOptions {
        mime_type: Some(mime.to_string()),
        title: Some(title.to_string()),
        position: None, // iPad: the plugin anchors the popover at the webview's centre
    };
    match window.share().share_file(window.clone(), url, options) {
        Ok(()) => Ok(ShareOutcome::Shared),
        Err(e) => classify_rejection(&e.to_string()),
    }
}

/// A `file://` URL for an absolute path, percent-encoding every byte outside the unreserved
/// set and `/` (both native sides decode it: Android with `Uri.getPath`, iOS with `URL.path`).
pub fn file_url(path: &Path) -> Result<String, String> {
    let s = path
        .to_str()
        .ok_or_else(|| format!("cannot share {}: the path is not UTF-8", path.display()))?;
    if !s.starts_with('/') {
        return Err(format!("cannot share {s:?}: the path is not absolute"));
    }
    let mut url = String::with_capacity(7 + s.len());
    url.push_str("file://");
    for &b in s.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'_' | b'.' | b'~') {
            url.push(b as char);
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    Ok(url)
}

/// Maps the plugin's rejection message: "Share cancelled" (both platforms) is a dismissal,
/// anything else is a real error the caller shows.
pub fn classify_rejection(message: &str) -> Result<ShareOutcome, String> {
    if message.contains("Share cancelled") {
        Ok(ShareOutcome::Dismissed)
    } else {
        Err(format!("the share sheet failed: {message}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// Spaces and non-ASCII are percent-encoded; plain paths stay readable.
    #[test]
    fn file_urls() {
        for (path, url) in [
            (
                "/var/mobile/Library/Application Support/卡 1.png",
                "file:///var/mobile/Library/Application%20Support/%E5%8D%A1%201.png",
            ),
            (
                "/data/user/0/app.huarong.puzzles/cache/card-1733.png",
                "file:///data/user/0/app.huarong.puzzles/cache/card-1733.png",
            ),
        ] {
            assert_eq!(file_url(&PathBuf::from(path)).unwrap(), url);
        }
    }

    #[test]
    fn file_url_rejects_relative_paths() {
        let err = file_url(Path::new("cache/card.png")).unwrap_err();
        assert!(err.contains("not absolute"), "{err}");
    }

    #[test]
    fn theme_messages_map_to_status_bar_styles() {
        assert_eq!(status_bar_style("dark"), Some(1)); // light text
        assert_eq!(status_bar_style("light"), Some(3)); // dark text
        for other in ["system", "", "Dark", "dark "] {
            assert_eq!(status_bar_style(other), None, "{other:?}");
        }
    }

    #[test]
    fn only_the_apps_main_frame_sets_the_status_bar() {
        assert!(from_app_page(true, "tauri", "localhost"));
        assert!(!from_app_page(false, "tauri", "localhost"));
        assert!(!from_app_page(true, "https", "localhost"));
        assert!(!from_app_page(true, "tauri", "example.com"));
    }

    #[test]
    fn cancelled_is_a_dismissal_and_other_rejections_are_errors() {
        assert_eq!(
            classify_rejection("Share cancelled"),
            Ok(ShareOutcome::Dismissed)
        );
        assert_eq!(
            classify_rejection("[x] - Share cancelled"),
            Ok(ShareOutcome::Dismissed)
        );
        let err = classify_rejection("Invalid file URL").unwrap_err();
        assert!(err.contains("Invalid file URL"), "{err}");
    }
}
