//! Huarong 华容, the Tauri shell over the app core (`huarong-core`): the plugins, one invoke
//! handler that routes every command through the core's table, window and lifecycle events,
//! deep links and the single instance, and the device services the core is given (haptics,
//! the share sheet, the page's DOM events). See ARCHITECTURE.md for the IPC contract.

pub mod haptics;
#[cfg(any(mobile, test))]
mod mobile;
mod share;

use huarong_core::args;
use huarong_core::fsio::Io;
use huarong_core::persist::{self, Notice, Paths, Primary};
use huarong_core::platform::{Event, Events};
use huarong_core::{AppError, AppState, Platform};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;
use tauri::ipc::{Invoke, InvokeBody};
use tauri::{AppHandle, Manager, Runtime};
use tauri_plugin_store::{Store, StoreExt};

/// How the app was started.
#[derive(Clone, Default)]
pub struct Launch {
    /// `--open <game ID | code | link>`.
    pub open: Option<String>,
    /// Where all app data lives (`HUARONG_DATA_DIR`), else the platform's app data folder.
    pub data_dir: Option<PathBuf>,
    /// The file layer of the games folder and the good copy; `None` is the real file system
    /// (benchmarks pass `fsio::sim::Counting` to count bytes and fsyncs).
    pub io: Option<Arc<dyn Io>>,
}

impl Launch {
    /// From the process' command line and environment.
    pub fn from_env() -> Launch {
        Launch {
            open: args::open_from_args(std::env::args()),
            data_dir: Paths::from_env_or(|| None).ok().map(|p| p.dir),
            io: None,
        }
    }
}

/// The primary copy is the store plugin's file. The plugin keeps the file's text as one
/// string and its hooks write it back byte for byte (`persist::store_value`): a save costs
/// it a copy and one escaping pass of the text, not a parse, a clone and two serialisations
/// of a tree of the whole progress.
struct StorePrimary<R: Runtime>(Arc<Store<R>>);

impl<R: Runtime> Primary for StorePrimary<R> {
    /// The plugin's `set` (its memory and change event; no file), while the good copy is
    /// written.
    fn prepare(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.0.set(persist::STORE_KEY, persist::store_value(bytes)?);
        Ok(())
    }
    fn save(&mut self, _bytes: &[u8]) -> Result<(), String> {
        self.0.save().map_err(|e| e.to_string())
    }
}

/// Open the store plugin on the primary file with the hooks of [`StorePrimary`].
fn open_store<R: Runtime>(app: &AppHandle<R>, path: PathBuf) -> Result<Arc<Store<R>>, String> {
    app.store_builder(path)
        .disable_auto_save()
        .serialize(persist::store_serialize)
        .deserialize(persist::store_deserialize)
        .build()
        .map_err(|e| e.to_string())
}

/// The core's events become fixed DOM events on the page (the detail is a kind's name from
/// the engine, never text from outside): `huarong-hint` (the page reads the hint with
/// `hint_status`) and `huarong-opened` (the page re-reads the progress and shows the game).
struct PageEvents<R: Runtime>(AppHandle<R>);

impl<R: Runtime> Events for PageEvents<R> {
    fn emit(&self, event: Event) {
        let Some(window) = self.0.get_webview_window("main") else {
            return;
        };
        let script = match event.detail() {
            Some(detail) => format!(
                "window.dispatchEvent(new CustomEvent('{}', {{ detail: '{detail}' }}))",
                event.name()
            ),
            None => format!("window.dispatchEvent(new Event('{}'))", event.name()),
        };
        let _ = window.eval(script);
    }
}

/// Build the app state: check and repair the files, then open the store plugin on them.
pub fn init_state<R: Runtime>(app: &AppHandle<R>, launch: &Launch) -> AppState {
    let dir = launch
        .data_dir
        .clone()
        .or_else(|| app.path().app_data_dir().ok());
    let paths = dir.map(Paths::new);
    let store_path = paths.as_ref().map(|p| p.store.clone());
    let handle = app.clone();
    let mut platform = Platform::native(
        Arc::new(haptics::Plugin(app.clone())),
        Arc::new(share::Cards::new(app)),
        Arc::new(PageEvents(app.clone())),
    );
    if let Some(io) = &launch.io {
        platform = platform.with_io(io.clone());
    }
    // The E2E suites' settable clock (`test_clock`): never on in a player's run.
    if std::env::var_os("HUARONG_TEST_CLOCK").is_some_and(|v| v == "1") {
        platform = platform.with_test_clock();
    }
    let state = AppState::open(paths.clone(), platform, move || {
        let path = store_path.ok_or("no data folder")?;
        let store = open_store(&handle, path)?;
        Ok(Box::new(StorePrimary(store)) as Box<dyn Primary>)
    });
    if paths.is_none() {
        state.notice(Notice::warning(
            "unreadable",
            "the app has no data folder on this system; progress will not be saved",
        ));
    }
    if state.read_only() {
        // A second app on a folder the first one holds (the single-instance hand-over did
        // not reach it): it writes nothing; the request it came with is shown, not lost.
        if let Some(open) = &launch.open {
            state.notice(Notice::warning(
                "read_only_request",
                format!(
                    "you asked to open {}: it is open here but not saved; to keep it, open it again in the running app",
                    open.chars().take(120).collect::<String>()
                ),
            ));
        }
    }
    state.launch(launch.open.as_deref());
    state
}

/// Build the state and hand it to the app (what `run`'s setup does; tests call it after
/// building the app on the mock runtime, whose setup hook only runs inside `run`).
///
/// Deep links: the share link `<code::LINK_BASE>?c=…` reaches the app as an
/// Android App Link or an iOS Universal Link (`plugins.deep-link.mobile` in tauri.conf.json),
/// the first form `huarong://play?c=…` through the custom scheme on every platform. A link
/// that started the app is opened like `--open` (on Linux and Windows it arrives as the only
/// command-line argument, which `Launch::from_env` already reads; on Android, iOS and macOS
/// the plugin hands it over); a link that arrives while the app runs opens its game and tells
/// the page to show it. Both forms are read by the core (`code::decode_full`): a link to
/// another site is refused there with `bad_code` and a notice, and changes nothing.
pub fn install<R: Runtime>(app: &AppHandle<R>, launch: &Launch) {
    use tauri_plugin_deep_link::DeepLinkExt;
    let mut launch = launch.clone();
    if launch.open.is_none() {
        launch.open = app
            .deep_link()
            .get_current()
            .ok()
            .flatten()
            .and_then(|urls| urls.into_iter().next())
            .map(|url| args::clip_open(url.to_string()));
    }
    let state = init_state(app, &launch);
    app.manage(state);
    let handle = app.clone();
    app.deep_link().on_open_url(move |event| {
        if let Some(url) = event.urls().into_iter().next() {
            open_link(&handle, args::clip_open(url.to_string()));
        }
    });
}

/// Open a link or code that arrived while the app runs, then have the page show it
/// (`Event::Opened`). The opening (decoding, a solvability check, a generator) runs on a
/// worker thread, never on the thread that delivered the link.
fn open_link<R: Runtime>(app: &AppHandle<R>, text: String) {
    let app = app.clone();
    tauri::async_runtime::spawn_blocking(move || {
        if let Some(state) = app.try_state::<AppState>() {
            state.launch(Some(&text));
            state.platform().events.emit(Event::Opened);
            state.link_handled();
        }
    });
}

/// A second launch of the app handed over its command line (desktop, single instance):
/// open its `--open` value or bare link (a bare `huarong://` link alone was already delivered
/// to `on_open_url` by the deep-link plugin, which takes only the desktop schemes; a bare web
/// link is opened here) and bring the window to the front.
pub fn second_instance<R: Runtime>(app: &AppHandle<R>, argv: Vec<String>) {
    let link_only = argv.len() == 2 && argv[1].starts_with("huarong:");
    if !link_only {
        if let Some(text) = args::open_from_args(argv) {
            open_link(app, text);
        }
    }
    if let Some(window) = app.get_webview_window("main") {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
    }
}

/// Every command of the page, through the core's one table: a command that runs off the
/// main thread goes to a blocking worker. An unknown name is left to Tauri (its own
/// "command not found" error).
fn invoke<R: Runtime>(invoke: Invoke<R>) -> bool {
    let Some(cmd) = huarong_core::commands::find(invoke.message.command()) else {
        return false;
    };
    let args = match invoke.message.payload() {
        InvokeBody::Json(v) => Ok(v.clone()),
        InvokeBody::Raw(_) => Err(AppError::bad_argument(
            "the arguments must be JSON, not raw bytes",
        )),
    };
    let state = invoke
        .message
        .webview()
        .try_state::<AppState>()
        .map(|s| s.inner().clone());
    let resolver = invoke.resolver;
    let run = move || -> Result<Value, AppError> {
        let state = state.ok_or_else(|| AppError::internal("the app is not set up yet"))?;
        cmd.call(&state, args?)
    };
    let respond = move |r: Result<Value, AppError>| match r {
        Ok(v) => resolver.resolve(v),
        Err(e) => resolver.reject(e),
    };
    if cmd.off_main {
        tauri::async_runtime::spawn_blocking(move || respond(run()));
    } else {
        respond(run());
    }
    true
}

/// The app's plugins and commands, on any runtime (the real one or `tauri::test`'s).
pub fn builder<R: Runtime>(builder: tauri::Builder<R>) -> tauri::Builder<R> {
    let builder = builder
        .plugin(tauri_plugin_store::Builder::new().build())
        .plugin(tauri_plugin_haptics::init())
        .plugin(tauri_plugin_deep_link::init());
    #[cfg(mobile)]
    let builder = mobile::plugins(builder);
    builder.invoke_handler(invoke)
}

/// Stop the clocks when the window loses focus (phone: the app goes to the background) and
/// flush the saver when the app exits.
pub fn on_event<R: Runtime>(app: &AppHandle<R>, event: tauri::RunEvent) {
    if matches!(
        event,
        tauri::RunEvent::ExitRequested { .. }
            | tauri::RunEvent::WindowEvent {
                event: tauri::WindowEvent::Destroyed,
                ..
            }
    ) {
        CLOSING.store(true, std::sync::atomic::Ordering::SeqCst);
    }
    match event {
        tauri::RunEvent::WindowEvent {
            event: tauri::WindowEvent::Focused(false),
            ..
        } => {
            if let Some(state) = app.try_state::<AppState>() {
                // Background (phone) or focus lost: stop the clocks; `pause` also cancels a
                // hint or solve and parks a background proof and optimum (resumed by the
                // page's `set_screen` when it is visible again).
                state.pause(None);
                state.checkpoint();
            }
        }
        tauri::RunEvent::Exit => {
            if let Some(state) = app.try_state::<AppState>() {
                state.pause(None);
                state.shutdown();
            }
        }
        _ => {}
    }
}

/// One instance on the desktop: registered first, so a second launch hands its arguments
/// over and exits before anything else starts. Linux finds the first instance over the
/// D-Bus session bus; without one the plugin lets every launch run (logged here).
#[cfg(desktop)]
fn single_instance(builder: tauri::Builder<tauri::Wry>) -> tauri::Builder<tauri::Wry> {
    #[cfg(target_os = "linux")]
    if std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none_or(|a| a.is_empty()) {
        eprintln!(
            "huarong: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset); \
             single instance is off: a second launch starts a second app"
        );
    }
    builder.plugin(tauri_plugin_single_instance::init(|app, argv, _cwd| {
        second_instance(app, argv)
    }))
}

/// The app is closing (its window destroyed, or exit requested): a page whose web process
/// ends now is not loaded again.
static CLOSING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Linux (WebKitGTK): should the page's web process end (a crash, or killed for memory),
/// load the page again instead of leaving a blank window for good. Nothing is lost: every
/// game and record lives in the core, and the page shows where the player was. Both are
/// said on stderr (a test's log shows them): the end with its reason, and the page back.
#[cfg(target_os = "linux")]
fn reload_when_the_page_dies(app: &AppHandle) {
    let Some(window) = app.get_webview_window("main") else {
        return;
    };
    let _ = window.with_webview(|webview| {
        use std::cell::Cell;
        use std::rc::Rc;
        use webkit2gtk::{LoadEvent, WebViewExt};
        let view = webview.inner();
        let reloading = Rc::new(Cell::new(false));
        let flag = reloading.clone();
        view.connect_web_process_terminated(move |view, reason| {
            if CLOSING.load(std::sync::atomic::Ordering::SeqCst) {
                eprintln!("huarong: the page's web process ended ({reason:?}) as the app closed");
                return;
            }
            eprintln!("huarong: the page's web process ended ({reason:?}); loading the page again");
            flag.set(true);
            view.reload();
        });
        view.connect_load_changed(move |_, event| {
            if event == LoadEvent::Finished && reloading.replace(false) {
                eprintln!("huarong: the page is back after its web process ended");
            }
        });
    });
}

#[cfg_attr(mobile, tauri::mobile_entry_point)]
pub fn run() {
    let launch = Launch::from_env();
    let base = tauri::Builder::default();
    #[cfg(desktop)]
    let base = single_instance(base);
    let app = builder(base)
        .setup(move |app| {
            install(app.handle(), &launch);
            #[cfg(target_os = "linux")]
            reload_when_the_page_dies(app.handle());
            Ok(())
        })
        .build(tauri::generate_context!())
        .expect("error while building the Huarong app");
    app.run(on_event);
}

#[cfg(test)]
mod tests {
    use super::*;
    use huarong_core::persist::Doc;
    use huarong_core::progress::Progress;

    #[test]
    fn the_store_plugin_writes_the_progress_file_byte_for_byte() {
        let app = builder(tauri::test::mock_builder())
            .build(tauri::test::mock_context(tauri::test::noop_assets()))
            .expect("mock app");
        let dir = std::env::temp_dir().join(format!("huarong-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let paths = Paths::new(&dir);
        let mut progress = Progress {
            screen: "game:klotski".into(),
            ..Progress::default()
        };
        let s = progress.stats.entry("slide:4x4".into()).or_default();
        s.plays = 3;
        let mut primary = StorePrimary(open_store(app.handle(), paths.store.clone()).unwrap());
        for gen in 1..=2 {
            let bytes = persist::encode(&Doc {
                gen,
                progress: progress.clone(),
            });
            primary.prepare(&bytes).unwrap();
            primary.save(&bytes).unwrap();
            let file = std::fs::read(&paths.store).unwrap();
            assert_eq!(file, bytes, "save {gen}");
            let (back, _) = persist::decode(&file).unwrap();
            assert_eq!((back.gen, back.progress), (gen, progress.clone()));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
