//! No command on the main thread waits for the disk. Every command the
//! table runs on the main thread (`off_main: false`) is timed on a slow games folder and then
//! on a failing disk, the finishing move included; and a finished game's record still reaches
//! the disk only after the journal has the finished game (checked on power-loss images taken
//! while both writers work).

use huarong_core::commands::COMMANDS;
use huarong_core::fsio::sim::{Fault, Loss, Op, Sim};
use huarong_core::fsio::Io;
use huarong_core::persist::Paths;
use huarong_core::{dispatch, AppState};
use huarong_tests::TestApp;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The target of the issue: no main-thread command takes longer, failing disk included.
const MAIN_LIMIT: Duration = Duration::from_millis(50);

/// A file layer whose write steps in the games folder each take `delay_ms` (a slow SD card,
/// a phone's flash under load); reads and the progress files are not slowed.
struct SlowGames {
    inner: Arc<dyn Io>,
    games: PathBuf,
    delay_ms: Arc<AtomicU64>,
}

impl SlowGames {
    fn wait(&self, p: &Path) {
        let ms = self.delay_ms.load(Ordering::Relaxed);
        if ms > 0 && p.starts_with(&self.games) {
            std::thread::sleep(Duration::from_millis(ms));
        }
    }
}

impl Io for SlowGames {
    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        self.inner.create_dir_all(dir)
    }
    fn create(&self, path: &Path) -> io::Result<()> {
        self.wait(path);
        self.inner.create(path)
    }
    fn append(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        self.wait(path);
        self.inner.append(path, bytes)
    }
    fn fsync(&self, path: &Path) -> io::Result<()> {
        self.wait(path);
        self.inner.fsync(path)
    }
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.wait(from);
        self.inner.rename(from, to)
    }
    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        self.wait(dir);
        self.inner.sync_dir(dir)
    }
    fn remove(&self, path: &Path) -> io::Result<()> {
        self.wait(path);
        self.inner.remove(path)
    }
    fn read(&self, path: &Path, limit: u64) -> io::Result<Vec<u8>> {
        self.inner.read(path, limit)
    }
    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        self.inner.list(dir)
    }
}

fn data() -> Paths {
    Paths::new("/data")
}

/// The app on `sim` with a slow games folder (the delay is set later through the handle).
fn start(sim: &Sim) -> (TestApp, Arc<AtomicU64>) {
    let delay = Arc::new(AtomicU64::new(0));
    let io = Arc::new(SlowGames {
        inner: sim.io(),
        games: data().dir.join(huarong_core::journal::GAMES_DIR),
        delay_ms: delay.clone(),
    });
    let app = TestApp::start_with_io(&data().dir, None, Some(io));
    (app, delay)
}

/// Two moves from solved: 1 2 3 / 4 5 6 / _ 7 8 (tiles 7, then 8).
const TWO_FROM_SOLVED: &str = "slide:3x3:1,2,3,4,5,6,0,7,8";

/// TWO_FROM_SOLVED's record scope (a board given as an ID has its own).
fn scope() -> String {
    huarong_core::records::scope_of_id(TWO_FROM_SOLVED).unwrap()
}

/// One call of every main-thread command, with arguments that make it do its real work.
fn main_thread_calls(slot: &str) -> Vec<(&'static str, Value)> {
    vec![
        ("snapshot", json!({"kind": "slide"})),
        ("list_games", json!({})),
        ("resume_game", json!({"slot": slot})),
        ("cancel", json!({})),
        ("undo", json!({"kind": "slide"})),
        ("redo", json!({"kind": "slide"})),
        ("hint_status", json!({"kind": "slide"})),
        ("klotski_targets", json!({"piece": "a"})),
        ("get_settings", json!({})),
        ("set_settings", json!({"settings": {"sound": false}})),
        ("get_progress", json!({})),
        ("dismiss_notices", json!({})),
        ("set_screen", json!({"screen": "game:slide"})),
        ("pause", json!({})),
        ("haptic", json!({"kind": "win"})),
        ("records", json!({ "scope": scope() })),
        ("records", json!({})),
        ("daily_info", json!({})),
        ("friends", json!({"daily": 1})),
        ("groups", json!({})),
        ("group", json!({"group": "000000000001"})),
        ("finish", json!({"kind": "slide"})),
        ("daily_calendar", json!({"kind": "slide"})),
        // Off outside the test builds: answers `unsupported` at once.
        ("test_clock", json!({"advance_ms": 1})),
        // Last: a new round of the same game, played to its finish again below.
        ("restart", json!({"kind": "slide"})),
    ]
}

/// Run `name` as the shell runs a main-thread command; its time.
fn timed(st: &AppState, times: &mut BTreeMap<String, Duration>, name: &str, args: Value) {
    let t = Instant::now();
    let r = dispatch(st, name, args.clone());
    let took = t.elapsed();
    // A command may refuse (no Klotski game: `no_game`), it must never wait.
    if let Err(e) = &r {
        assert!(
            e.code != huarong_core::Code::Internal,
            "{name}({args}) failed inside: {}",
            e.message
        );
    }
    let worst = times.entry(name.to_string()).or_default();
    *worst = (*worst).max(took);
}

fn play_to_finish(st: &AppState, times: &mut BTreeMap<String, Duration>) {
    for tile in [7, 8] {
        timed(
            st,
            times,
            "play",
            json!({"kind": "slide", "mv": {"tile": tile}}),
        );
    }
    let s = dispatch(st, "snapshot", json!({"kind": "slide"})).unwrap();
    assert_eq!(s["snapshot"]["status"], "won", "{s}");
}

#[test]
fn no_main_thread_command_waits_on_a_slow_or_failing_disk() {
    let sim = Sim::new();
    let (app, delay) = start(&sim);
    let opened = app.snap("open_game", json!({"id": TWO_FROM_SOLVED}));
    let slot = opened["slot"].as_str().unwrap().to_string();
    let st = app.state();
    // Every write step in the games folder takes 250 ms from now on: a finishing move that
    // waited for its snapshot (create, write, fsync, create, rename, folder fsync) would take
    // well over a second.
    delay.store(250, Ordering::Relaxed);
    let mut slow = BTreeMap::new();
    play_to_finish(&st, &mut slow);
    for (name, args) in main_thread_calls(&slot) {
        timed(&st, &mut slow, name, args);
    }
    // The disk now fails every fsync as well (EIO), still slowly.
    sim.fail_all(Op::Fsync, Fault::Eio);
    let mut failing = BTreeMap::new();
    play_to_finish(&st, &mut failing);
    for (name, args) in main_thread_calls(&slot) {
        timed(&st, &mut failing, name, args);
    }
    // Every main-thread command of the table was timed (a new one must join the list).
    for c in COMMANDS.iter().filter(|c| !c.off_main) {
        assert!(
            slow.contains_key(c.name) && failing.contains_key(c.name),
            "the main-thread command {} is not timed here",
            c.name
        );
    }
    let over: Vec<String> = slow
        .iter()
        .map(|(n, t)| ("slow", n, t))
        .chain(failing.iter().map(|(n, t)| ("failing", n, t)))
        .filter(|(_, _, t)| **t > MAIN_LIMIT)
        .map(|(disk, n, t)| format!("{n} on the {disk} disk: {t:?}"))
        .collect();
    assert!(
        over.is_empty(),
        "main-thread commands over {MAIN_LIMIT:?}: {over:?}"
    );
    // Nothing was lost: the disk heals, everything reaches it, and a restart has both wins.
    sim.heal();
    delay.store(0, Ordering::Relaxed);
    st.checkpoint();
    assert!(
        st.flush(Duration::from_secs(20)),
        "nothing reached the disk"
    );
    st.shutdown();
    let (again, _) = start(&sim.power_loss(Loss::Clean));
    let r = again.ok("records", json!({ "scope": scope() }));
    assert_eq!(r["best_moves"], 2, "{r}");
    assert_eq!(
        r["wins"], 1,
        "a win, restart and win is one game's win: {r}"
    );
    let p = again.ok("get_progress", json!({}));
    assert_eq!(p["games"]["slide"]["id"], TWO_FROM_SOLVED, "{p}");
}

/// Whether the progress files of a power-loss image hold the 3×3 win, and whether its
/// journal holds the finished game.
fn image(sim: &Sim) -> (bool, bool) {
    let paths = data();
    let recorded = huarong_core::persist::latest(&paths, sim).is_some_and(|doc| {
        doc.progress
            .records
            .get(&format!("{}/tile", scope()))
            .is_some_and(|r| r.best_moves.is_some())
    });
    let (j, slots, _) = huarong_core::journal::Journal::open(&paths.dir, sim.io());
    j.shutdown();
    let finished = slots.iter().any(|s| {
        huarong_engine::Session::<huarong_engine::slide::Slide>::restore(
            &serde_json::from_value(s.saved.clone()).unwrap(),
        )
        .is_ok_and(|g| g.status() == huarong_engine::Status::Won)
    });
    (recorded, finished)
}

#[test]
fn a_record_reaches_the_disk_only_after_its_finished_game() {
    let sim = Sim::new();
    let (app, delay) = start(&sim);
    app.ok("open_game", json!({"id": TWO_FROM_SOLVED}));
    app.ok("play", json!({"kind": "slide", "mv": {"tile": 7}}));
    let st = app.state();
    assert!(st.flush(Duration::from_secs(10)));
    // A slow journal, a fast progress saver: a record handed to the saver at once would be
    // on disk long before the finished game.
    delay.store(150, Ordering::Relaxed);
    let t = Instant::now();
    let won = app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}));
    assert!(
        t.elapsed() < Duration::from_millis(300),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(won["finish"]["status"], "won", "{won}");
    assert_eq!(won["finish"]["new_record"], true, "{won}");
    let mut images = 0;
    let mut seen_record = false;
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        let (recorded, finished) = image(&sim.power_loss(Loss::Clean));
        images += 1;
        assert!(
            !recorded || finished,
            "image {images}: the record is on disk but the finished game is not"
        );
        if recorded {
            seen_record = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(seen_record, "the record never reached the disk");
    assert!(
        images > 3,
        "the images were taken too late to tell ({images})"
    );
    delay.store(0, Ordering::Relaxed);
    app.close();
}
