//! Shared helpers of the integration and end-to-end tests.
//!
//! App helpers (for `tests/tests/app_*.rs` and `kill_*.rs`): [`TestApp`] starts the app core
//! in a private data folder and calls its commands through the core's command table (plain
//! Rust), or builds the whole Tauri app (plugins, the invoke handler, setup) on tauri's mock
//! runtime and calls over the real IPC path ([`TestApp::shell`]).

pub mod bridge;
pub mod gate;

use serde_json::Value;
use std::path::{Path, PathBuf};
use tauri::test::{mock_builder, mock_context, noop_assets, MockRuntime, INVOKE_KEY};
use tauri::Manager;

/// A fresh, empty directory under the system temp dir, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let p =
            std::env::temp_dir().join(format!("huarong-{tag}-{}-{n}-{nanos}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("create temp dir");
        TempDir(p)
    }
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The app under test: its core with plain Rust (every command through the core's table,
/// as every shell calls it), or the whole Tauri shell on the mock runtime (plugins, the
/// invoke handler, set-up, deep links) where a test needs the shell itself.
pub struct TestApp {
    backend: Backend,
    /// The page's events (core backend): every `huarong-hint` and `huarong-opened`.
    events: std::sync::Arc<PageEvents>,
}

/// The events the core sends the page, handed to whoever listens.
#[derive(Default)]
struct PageEvents(std::sync::Mutex<Vec<std::sync::mpsc::Sender<huarong_core::platform::Event>>>);

impl huarong_core::platform::Events for PageEvents {
    fn emit(&self, event: huarong_core::platform::Event) {
        let mut to = self.0.lock().unwrap_or_else(|e| e.into_inner());
        to.retain(|tx| tx.send(event).is_ok());
    }
}

enum Backend {
    Core(huarong_core::AppState),
    Shell(Box<Shell>),
}

/// The Tauri app on the mock runtime and the webview it is called from.
struct Shell {
    app: tauri::App<MockRuntime>,
    webview: tauri::WebviewWindow<MockRuntime>,
}

/// A vibration motor that always works (the desktop plugin's no-op, in plain Rust).
struct QuietHaptics;
impl huarong_core::platform::Haptics for QuietHaptics {
    fn play(&self, _f: huarong_core::platform::Feedback) -> Result<(), String> {
        Ok(())
    }
}

impl TestApp {
    /// Start the app core with its data in `dir` and an optional `--open` value.
    pub fn start(dir: &Path, open: Option<&str>) -> TestApp {
        Self::start_with_io(dir, open, None)
    }

    /// [`TestApp::start`] with the games folder and both progress copies written through
    /// `io` (`None`: the real file system). The primary copy is written in place without an
    /// fsync, the way the store plugin writes it.
    pub fn start_with_io(
        dir: &Path,
        open: Option<&str>,
        io: Option<std::sync::Arc<dyn huarong_core::fsio::Io>>,
    ) -> TestApp {
        Self::start_full(
            dir,
            open,
            io,
            std::sync::Arc::new(huarong_core::platform::NoShare),
        )
    }

    /// [`TestApp::start`] with a share sheet of the test's own (it sees every card shared).
    pub fn start_with_share(
        dir: &Path,
        share: std::sync::Arc<dyn huarong_core::platform::Share>,
    ) -> TestApp {
        Self::start_full(dir, None, None, share)
    }

    fn start_full(
        dir: &Path,
        open: Option<&str>,
        io: Option<std::sync::Arc<dyn huarong_core::fsio::Io>>,
        share: std::sync::Arc<dyn huarong_core::platform::Share>,
    ) -> TestApp {
        use huarong_core::persist::{InPlaceIo, Paths, Primary};
        use huarong_core::platform::Platform;
        use std::sync::Arc;
        let io = io.unwrap_or_else(huarong_core::fsio::real);
        let events = Arc::new(PageEvents::default());
        let platform =
            Platform::native(Arc::new(QuietHaptics), share, events.clone()).with_io(io.clone());
        let paths = Paths::new(dir);
        let store = paths.store.clone();
        let state = huarong_core::AppState::open(Some(paths), platform, move || {
            Ok(Box::new(InPlaceIo(io, store)) as Box<dyn Primary>)
        });
        state.launch(open);
        TestApp {
            backend: Backend::Core(state),
            events,
        }
    }

    /// The whole Tauri app on the mock runtime, with one webview to call commands from over
    /// the real IPC path.
    pub fn shell(dir: &Path, open: Option<&str>) -> TestApp {
        let launch = huarong_app_lib::Launch {
            open: open.map(str::to_string),
            data_dir: Some(dir.to_path_buf()),
            io: None,
        };
        let app = huarong_app_lib::builder(mock_builder())
            .build(mock_context(noop_assets()))
            .expect("build the app on the mock runtime");
        huarong_app_lib::install(app.handle(), &launch);
        let webview = tauri::WebviewWindowBuilder::new(&app, "main", Default::default())
            .build()
            .expect("create the webview");
        TestApp {
            backend: Backend::Shell(Box::new(Shell { app, webview })),
            events: Default::default(),
        }
    }

    /// The events the page gets from now on (core backend; the shell sends its own to the
    /// webview).
    pub fn events(&self) -> std::sync::mpsc::Receiver<huarong_core::platform::Event> {
        let (tx, rx) = std::sync::mpsc::channel();
        self.events
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(tx);
        rx
    }

    /// The Tauri app (shell tests only).
    pub fn tauri(&self) -> &tauri::App<MockRuntime> {
        match &self.backend {
            Backend::Shell(shell) => &shell.app,
            Backend::Core(_) => panic!("this test needs TestApp::shell"),
        }
    }

    /// Call a command with JSON arguments: `Ok(value)` or `Err(error value)`.
    pub fn call(&self, cmd: &str, args: Value) -> Result<Value, Value> {
        match &self.backend {
            Backend::Core(state) => {
                let r = huarong_core::dispatch(state, cmd, args);
                state.step();
                r.map_err(|e| serde_json::to_value(e).expect("errors are JSON"))
            }
            Backend::Shell(shell) => {
                let res = tauri::test::get_ipc_response(
                    &shell.webview,
                    tauri::webview::InvokeRequest {
                        cmd: cmd.into(),
                        callback: tauri::ipc::CallbackFn(0),
                        error: tauri::ipc::CallbackFn(1),
                        url: "tauri://localhost".parse().expect("url"),
                        body: tauri::ipc::InvokeBody::Json(args),
                        headers: Default::default(),
                        invoke_key: INVOKE_KEY.to_string(),
                    },
                );
                res.map(|body| body.deserialize::<Value>().expect("response is JSON"))
            }
        }
    }

    /// Call and expect success.
    pub fn ok(&self, cmd: &str, args: Value) -> Value {
        match self.call(cmd, args.clone()) {
            Ok(v) => v,
            Err(e) => panic!("{cmd}({args}) failed: {e}"),
        }
    }

    /// `new_game` with `args`, expecting success; returns the new game's `snapshot`.
    pub fn new_game(&self, args: Value) -> Value {
        self.snap("new_game", args)
    }

    /// Call and expect success with a game view; returns the view's `snapshot`.
    pub fn snap(&self, cmd: &str, args: Value) -> Value {
        let v = self.ok(cmd, args);
        match v.get("snapshot") {
            Some(s) => s.clone(),
            None => panic!("{cmd} gave no snapshot: {v}"),
        }
    }

    /// Call and expect an error; returns its `code`.
    pub fn err(&self, cmd: &str, args: Value) -> String {
        match self.call(cmd, args.clone()) {
            Ok(v) => panic!("{cmd}({args}) succeeded with {v}, expected an error"),
            Err(e) => e["code"]
                .as_str()
                .unwrap_or_else(|| panic!("untyped error {e}"))
                .to_string(),
        }
    }

    pub fn state(&self) -> huarong_core::AppState {
        match &self.backend {
            Backend::Core(state) => state.clone(),
            Backend::Shell(shell) => shell.app.state::<huarong_core::AppState>().inner().clone(),
        }
    }

    /// Write everything pending and stop saving (what app exit does).
    pub fn close(self) {
        let st = self.state();
        assert!(
            st.flush(std::time::Duration::from_secs(20)),
            "progress did not reach the disk"
        );
        st.shutdown();
    }
}

/// The app core alone (no Tauri) on a test clock (`test_clock` moves its clocks), its data in
/// `dir` on the real file system, the primary copy written in place as the store plugin does.
pub fn start_core_on_test_clock(dir: &Path) -> huarong_core::AppState {
    use huarong_core::persist::{InPlaceIo, Paths, Primary};
    use huarong_core::platform::Platform;
    let io = huarong_core::fsio::real();
    let paths = Paths::new(dir);
    let store = paths.store.clone();
    let platform = Platform::headless().with_io(io.clone()).with_test_clock();
    let st = huarong_core::AppState::open(Some(paths), platform, move || {
        Ok(Box::new(InPlaceIo(io, store)) as Box<dyn Primary>)
    });
    st.launch(None);
    st
}

/// Write everything pending of a core from [`start_core_on_test_clock`] and stop saving.
pub fn close_core(st: huarong_core::AppState) {
    assert!(st.flush(std::time::Duration::from_secs(20)));
    st.shutdown();
}

/// A command through the core's table that must succeed: its answer.
pub fn core_ok(st: &huarong_core::AppState, cmd: &str, args: Value) -> Value {
    match huarong_core::dispatch(st, cmd, args.clone()) {
        Ok(v) => v,
        Err(e) => panic!("{cmd}({args}) failed: {e:?}"),
    }
}

/// The tiles next to the blank of a number slide's snapshot `view` (`{w, h, tiles}`), in the
/// order left, right, above, below (those that exist): the legal single-tile moves.
pub fn gap_neighbours(snapshot: &Value) -> Vec<u64> {
    let v = &snapshot["view"];
    let w = v["w"].as_u64().expect("view.w") as usize;
    let tiles: Vec<u64> = v["tiles"]
        .as_array()
        .expect("view.tiles")
        .iter()
        .map(|t| t.as_u64().expect("a tile number"))
        .collect();
    let gap = tiles.iter().position(|&t| t == 0).expect("a blank");
    let (r, c, h) = (gap / w, gap % w, tiles.len() / w);
    [
        (c > 0).then(|| gap - 1),
        (c + 1 < w).then(|| gap + 1),
        (r > 0).then(|| gap - w),
        (r + 1 < h).then(|| gap + w),
    ]
    .into_iter()
    .flatten()
    .map(|i| tiles[i])
    .collect()
}

/// The app started in a fresh data folder tagged `tag` (removed when the folder is dropped).
pub fn fresh_app(tag: &str) -> (TempDir, TestApp) {
    let dir = TempDir::new(tag);
    let app = TestApp::start(dir.path(), None);
    (dir, app)
}

/// Open game `id` (a number-slide ID with a seed, e.g. `slide:4x4#3`) in a session, put it in
/// `j` as the slot named by the ID without its seed (with `counters`), and check the journal
/// saved it; the session's delta mark is then at that save.
pub fn journal_slide(
    j: &huarong_core::journal::Journal,
    id: &str,
    counters: Value,
) -> huarong_engine::Session<huarong_engine::slide::Slide> {
    let mut s = huarong_engine::Session::open(id).expect("a number-slide game ID");
    let slot = id.split_once('#').map_or(id, |(slot, _)| slot);
    j.put(
        slot,
        counters,
        serde_json::to_value(s.save(0)).expect("a session save is JSON"),
    );
    assert!(
        j.flush(std::time::Duration::from_secs(10)),
        "the journal did not save {id}"
    );
    let _ = s.take_delta(0);
    s
}

/// Rewrite the progress in `dir` as a tool would: the newest saved state (the copies and
/// the change log, `persist::latest`) changed by `edit`, at the next generation, written
/// into both copies, and the change log removed (its lines are in the copies).
pub fn rewrite_progress(dir: &Path, edit: impl FnOnce(&mut huarong_core::persist::Doc)) {
    use huarong_core::persist::{self, Paths};
    let paths = Paths::new(dir);
    let mut doc = persist::latest(&paths, &huarong_core::fsio::Real).expect("a saved progress");
    edit(&mut doc);
    doc.gen += 1;
    for path in [&paths.good, &paths.store] {
        std::fs::write(path, persist::encode(&doc)).expect("write a store copy");
    }
    match std::fs::remove_file(&paths.log) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => panic!("remove the log: {e}"),
        _ => {}
    }
}

/// Rewrite both store copies in `dir` ([`rewrite_progress`]) as a file of the earlier layout
/// whose one number-slide game is the saved session `game`: `edit` changes the document
/// first.
pub fn store_old_slide_game(
    dir: &Path,
    game: &Value,
    edit: impl FnOnce(&mut huarong_core::persist::Doc),
) {
    rewrite_progress(dir, |doc| {
        edit(doc);
        doc.progress.games.insert(
            "slide".into(),
            huarong_core::progress::SavedGame::from_value(game),
        );
    });
}

/// Today's local date as the app sees it (the native clock and time zone).
pub fn today() -> String {
    huarong_core::platform::today(&huarong_core::platform::native::SystemClock::default())
}

/// The Klotski layout the editor suites build, in the order placed (a soldier last: the web
/// suite drags it): the web page's (`web_chromium.rs`) and the app's (`e2e_editor.rs`).
pub fn editor_layout() -> Vec<huarong_engine::klotski::layout::Placed> {
    use huarong_engine::klotski::layout::{Placed, Shape};
    let p = |shape, row, col| Placed { shape, row, col };
    vec![
        p(Shape::Cao, 2, 1),
        p(Shape::Vertical, 0, 0),
        p(Shape::Vertical, 0, 1),
        p(Shape::Vertical, 0, 2),
        p(Shape::Vertical, 0, 3),
        p(Shape::Horizontal, 4, 1),
        p(Shape::Soldier, 2, 0),
        p(Shape::Soldier, 2, 3),
        p(Shape::Soldier, 4, 0),
        p(Shape::Soldier, 4, 3),
    ]
}

/// An optimal solution of the number-slide game `id`, by the engine's solver: its moves as
/// the commands' JSON and the tile-move count it ends on.
pub fn solve_slide(id: &str) -> (Vec<Value>, u32) {
    use huarong_engine::{Cancel, Game, GameId};
    let p = GameId::parse(id).expect("a game ID");
    let mut g = huarong_engine::slide::Slide::from_id(&p.body, p.seed).expect("a number slide");
    let moves = g.solve(&Cancel::new()).expect("a solution");
    for m in &moves {
        g.apply(m).expect("a legal move");
    }
    let json = moves
        .iter()
        .map(|m| serde_json::to_value(m).expect("a move as JSON"))
        .collect();
    (json, g.moves())
}

/// Today's slide daily in `app`: its number, its game ID and an optimal solution
/// ([`solve_slide`]: JSON moves, tile-move count).
pub fn todays_slide_daily(app: &TestApp) -> (u32, String, Vec<Value>, u32) {
    let info = app.ok("daily_info", serde_json::json!({}));
    let n = info["number"].as_u64().expect("a daily number") as u32;
    let id = info["slide"].as_str().expect("a slide daily").to_string();
    let (moves, count) = solve_slide(&id);
    (n, id, moves, count)
}

/// A friend's result code for daily `n` (game `id`): `moves` in `ms`, from `name` (`None`: a
/// friend without a name), with its move log or none.
pub fn daily_result_code(
    id: &str,
    n: u32,
    name: Option<&str>,
    moves: u32,
    ms: u64,
    log: Option<Vec<Value>>,
) -> String {
    use huarong_engine::code::{self, Challenge, Extra, Sender};
    code::encode_result(
        id,
        Extra {
            daily: Some(n),
            classic: None,
        },
        Challenge::new(moves, ms).expect("a result"),
        &Sender {
            name: name.map(str::to_string),
            log,
        },
    )
    .expect("a result code")
}
