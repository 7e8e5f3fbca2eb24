//! Where a shared card (or the progress file) goes: the core's `Share` service. On the desktop the card is saved in
//! the Pictures folder (falling back to ~/Pictures, then the download folder) and the page
//! says where; on phones it is written to `cards/` in the app cache under a fresh name and
//! the system share sheet opens with it (`mobile::share_file`, driven from Rust only).

use huarong_core::platform::native::SaveTo;
use huarong_core::platform::{Share, ShareOutcome};
use huarong_core::{AppError, AppResult};
use tauri::{AppHandle, Manager, Runtime};

/// The folder cards are written to.
fn card_dir<R: Runtime>(app: &AppHandle<R>) -> Result<std::path::PathBuf, String> {
    let paths = app.path();
    #[cfg(mobile)]
    let dir = paths.app_cache_dir().map(|d| d.join("cards"));
    #[cfg(not(mobile))]
    let dir = paths
        .picture_dir()
        .or_else(|_| paths.home_dir().map(|h| h.join("Pictures")))
        .or_else(|_| paths.download_dir());
    dir.map_err(|e| format!("no folder to save the card in: {e}"))
}

/// The app's share service.
pub struct Cards<R: Runtime> {
    #[cfg_attr(not(mobile), allow(dead_code))]
    app: AppHandle<R>,
    dir: Result<SaveTo, String>,
}

impl<R: Runtime> Cards<R> {
    pub fn new(app: &AppHandle<R>) -> Cards<R> {
        Cards {
            app: app.clone(),
            dir: card_dir(app).map(|dir| SaveTo { dir }),
        }
    }
}

impl<R: Runtime> Share for Cards<R> {
    fn share_png(&self, png: &[u8], name: &str) -> AppResult<ShareOutcome> {
        self.share_file(png, name, "image/png")
    }

    /// A card, or another file (the progress file): saved beside the cards on the desktop,
    /// handed to the share sheet on phones.
    fn share_file(&self, png: &[u8], name: &str, mime: &str) -> AppResult<ShareOutcome> {
        let to = self.dir.as_ref().map_err(AppError::share_failed)?;
        #[cfg(not(mobile))]
        {
            to.share_file(png, name, mime)
        }
        #[cfg(mobile)]
        {
            // A new file per card (the iOS side keeps an older copy of the same name); the
            // sheet blocks this worker thread until the player closes it.
            let path = to.save(png, name)?;
            let window = self
                .app
                .get_webview_window("main")
                .ok_or_else(|| AppError::internal("share_card: the main window is gone"))?;
            let outcome = crate::mobile::share_file(&window, &path, mime, "Huarong 华容")
                .map_err(AppError::share_failed)?;
            Ok(ShareOutcome {
                saved: None,
                file: Some(path.to_string_lossy().into_owned()),
                shared: Some(outcome == crate::mobile::ShareOutcome::Shared),
            })
        }
    }
}
