//! The app's only Android/iOS-specific Rust (issue 8): the system share sheet. Kept small on
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
    builder.plugin(tauri_plugin_sharekit::init())
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
