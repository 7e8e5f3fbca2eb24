//! The app core in a browser worker or Node: the core's command table behind one export,
//! [`Core::dispatch`], on a platform without threads (the writers run single-threaded: every
//! dispatch ends with [`AppState::step`]). The clocks come from JavaScript (`huarongNow()`
//! for the monotonic clock, `Date` for the wall clock and the time zone); the files live in
//! memory ([`Sim`]) and can be read out and put back, which is how a page keeps them: the
//! page's worker loads every file from IndexedDB at start and, after each command, writes
//! [`WebCore::changes`] (only the files written since the last call) in one transaction.
//!
//! What the native shell does outside a command's reply is queued here and handed to the page
//! with [`WebCore::take_outbox`]: the DOM events (`huarong-hint`, `huarong-opened`), the
//! haptic feedback (`navigator.vibrate` only exists on the page, not in a worker) and a card
//! to share (`navigator.share`, a download or the clipboard, decided by the page).
//! Searches do not run here: [`WebCore::offload_begin`] and [`WebCore::offload_finish`] hand
//! them to the page's search worker (see `huarong_core::offload`).

use huarong_core::fsio::sim::Sim;
use huarong_core::fsio::Io;
use huarong_core::offload::{Begun, Job, Op};
use huarong_core::persist::{InPlaceIo, Paths, Primary};
use huarong_core::platform::{
    Clock, Event, Events, Feedback, Haptics, NoThreads, Platform, Share, ShareOutcome,
};
use huarong_core::{AppError, AppResult, AppState};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// Where the core keeps its files in the in-memory file system.
pub const DATA_DIR: &str = "/huarong";

/// The host's clocks, read through the functions `Host` gives.
pub struct HostClock {
    pub wall_ms: fn() -> f64,
    pub monotonic_ms: fn() -> f64,
    pub utc_offset_minutes: fn(f64) -> f64,
}

impl Clock for HostClock {
    fn wall_ms(&self) -> u64 {
        let ms = (self.wall_ms)();
        if ms.is_finite() && ms > 0.0 {
            ms as u64
        } else {
            0
        }
    }
    fn monotonic(&self) -> Duration {
        crate::millis((self.monotonic_ms)())
    }
    fn utc_offset_minutes(&self, wall_ms: u64) -> i32 {
        let m = (self.utc_offset_minutes)(wall_ms as f64);
        if m.is_finite() {
            m.clamp(-24.0 * 60.0, 24.0 * 60.0) as i32
        } else {
            0
        }
    }
}

fn locked<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The file layer over the in-memory files that notes every name a step writes, renames or
/// removes (the dirty set [`WebCore::changes`] reads out).
struct Tracked {
    inner: Arc<dyn Io>,
    dirty: Arc<Mutex<BTreeSet<PathBuf>>>,
}

impl Tracked {
    fn mark(&self, p: &Path) {
        locked(&self.dirty).insert(p.to_path_buf());
    }
}

impl Io for Tracked {
    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        self.inner.create_dir_all(dir)
    }
    fn create(&self, path: &Path) -> io::Result<()> {
        self.mark(path);
        self.inner.create(path)
    }
    fn append(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        self.mark(path);
        self.inner.append(path, bytes)
    }
    fn fsync(&self, path: &Path) -> io::Result<()> {
        self.inner.fsync(path)
    }
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.mark(from);
        self.mark(to);
        self.inner.rename(from, to)
    }
    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        self.inner.sync_dir(dir)
    }
    fn remove(&self, path: &Path) -> io::Result<()> {
        self.mark(path);
        self.inner.remove(path)
    }
    fn read(&self, path: &Path, limit: u64) -> io::Result<Vec<u8>> {
        self.inner.read(path, limit)
    }
    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        self.inner.list(dir)
    }
}

/// What the core said outside replies since the page last asked.
#[derive(Default)]
struct Outbox {
    /// DOM events: (name, detail).
    events: Vec<(&'static str, Option<&'static str>)>,
    /// Haptic feedback names (`tap`, `move`, …).
    haptics: Vec<&'static str>,
    /// The card to share: (file name, PNG).
    share: Option<(String, Vec<u8>)>,
}

/// The event sink, haptics and share sheet of the web: they queue into the outbox.
#[derive(Clone, Default)]
struct PageQueue(Arc<Mutex<Outbox>>);

impl Events for PageQueue {
    fn emit(&self, event: Event) {
        let mut o = locked(&self.0);
        if o.events.len() < 64 {
            o.events.push((event.name(), event.detail()));
        }
    }
}

impl Haptics for PageQueue {
    fn play(&self, feedback: Feedback) -> Result<(), String> {
        let name = match feedback {
            Feedback::Tap => "tap",
            Feedback::Move => "move",
            Feedback::Blocked => "blocked",
            Feedback::Merge => "merge",
            Feedback::Win => "win",
            Feedback::Lose => "lose",
            Feedback::Undo => "undo",
        };
        let mut o = locked(&self.0);
        if o.haptics.len() < 16 {
            o.haptics.push(name);
        }
        Ok(())
    }
}

impl Share for PageQueue {
    /// The page shares the card (`navigator.share` with the PNG file, else a download): the
    /// reply names the file; the page fills in `shared` / `saved` once it knows.
    fn share_png(&self, png: &[u8], name: &str) -> huarong_core::AppResult<ShareOutcome> {
        locked(&self.0).share = Some((name.to_string(), png.to_vec()));
        Ok(ShareOutcome {
            saved: None,
            file: Some(name.to_string()),
            shared: None,
        })
    }
}

/// The app core with its in-memory files.
pub struct WebCore {
    pub state: AppState,
    pub files: Sim,
    dirty: Arc<Mutex<BTreeSet<PathBuf>>>,
    queue: PageQueue,
}

fn reply_json(reply: AppResult<Value>) -> Value {
    match reply {
        Ok(v) => json!({ "ok": v }),
        Err(e) => json!({ "error": e }),
    }
}

impl WebCore {
    /// Start the core on `files` (empty, or put back from the page's storage) with the
    /// host's clock and seed source.
    pub fn open(files: Sim, clock: HostClock, seed: fn() -> u64) -> WebCore {
        let dirty = Arc::new(Mutex::new(BTreeSet::new()));
        let io: Arc<dyn Io> = Arc::new(Tracked {
            inner: files.io(),
            dirty: dirty.clone(),
        });
        let queue = PageQueue::default();
        let platform = Platform {
            clock: Arc::new(clock),
            io: io.clone(),
            tasks: Arc::new(NoThreads),
            haptics: Arc::new(queue.clone()),
            share: Arc::new(queue.clone()),
            events: Arc::new(queue.clone()),
            seed: Arc::new(seed),
        };
        let paths = Paths::new(DATA_DIR);
        let store = paths.store.clone();
        let state = AppState::open(Some(paths), platform, move || {
            Ok(Box::new(InPlaceIo(io, store)) as Box<dyn Primary>)
        });
        state.step();
        WebCore {
            state,
            files,
            dirty,
            queue,
        }
    }

    /// Step 1 of a search command (`hint`, `solve`, `analysis`) run in the search worker:
    /// `{"ok": reply}` or `{"error": …}` when no search is needed, else `{"job": job}`
    /// (`proof` beside `ok` when a cached hint needs its proof). Other names are dispatched.
    pub fn offload_begin(&self, name: &str, args: &str) -> String {
        let Some(op) = Op::of_command(name) else {
            return self.dispatch(name, args);
        };
        let begun = serde_json::from_str::<Value>(args)
            .map_err(|e| AppError::bad_argument(format!("the arguments are not JSON: {e}")))
            .and_then(|mut a| huarong_core::args::kind(a.get_mut("kind").map(Value::take)))
            .and_then(|kind| self.state.offload_begin(op, kind));
        self.state.step();
        match begun {
            Ok(Begun::Job(job)) => json!({ "job": job }),
            Ok(Begun::Reply(v, proof)) => json!({ "ok": v, "proof": proof }),
            Err(e) => json!({ "error": e }),
        }
        .to_string()
    }

    /// Step 3: the search worker's answer for `job` (`{"ok": result}` or `{"error": …}`)
    /// written back: `{"ok": reply, "proof": job|null}` or `{"error": …}`.
    pub fn offload_finish(&self, job: &str, found: &str) -> String {
        let out = serde_json::from_str::<Job>(job)
            .map_err(|e| AppError::bad_argument(format!("the job: {e}")))
            .and_then(|job| {
                let found = found_of(found);
                self.state.offload_finish(&job, found)
            });
        self.state.step();
        match out {
            Ok((v, proof)) => json!({ "ok": v, "proof": proof }),
            Err(e) => json!({ "error": e }),
        }
        .to_string()
    }

    /// Whether a running job's result would still be written back.
    pub fn offload_current(&self, job: &str) -> bool {
        serde_json::from_str::<Job>(job).is_ok_and(|job| self.state.offload_current(&job))
    }

    /// The files written since the last call: `{path: base64 | null}` (null: removed).
    pub fn changes(&self) -> Value {
        let dirty = std::mem::take(&mut *locked(&self.dirty));
        let mut out = serde_json::Map::new();
        for p in dirty {
            let v = match self.files.contents(&p) {
                Some(bytes) => Value::String(huarong_core::share::base64(&bytes)),
                None => Value::Null,
            };
            out.insert(p.to_string_lossy().into_owned(), v);
        }
        Value::Object(out)
    }

    /// What the page must do besides the replies: `{"events": [[name, detail|null]…],
    /// "haptics": [kind…], "share": {"name", "png": base64} | null}`.
    pub fn take_outbox(&self) -> Value {
        let o = std::mem::take(&mut *locked(&self.queue.0));
        json!({
            "events": o.events,
            "haptics": o.haptics,
            "share": o.share.map(|(name, png)| json!({
                "name": name,
                "png": huarong_core::share::base64(&png),
            })),
        })
    }

    /// One command: `{"ok": reply}` or `{"error": {code, message}}`, after which everything
    /// the command changed is written (single-threaded writers).
    pub fn dispatch(&self, name: &str, args: &str) -> String {
        let reply = match serde_json::from_str::<Value>(args) {
            Ok(args) => huarong_core::dispatch(&self.state, name, args),
            Err(e) => Err(huarong_core::AppError::bad_argument(format!(
                "the arguments are not JSON: {e}"
            ))),
        };
        self.state.step();
        reply_json(reply).to_string()
    }

    /// Every durable file, as `{path: base64}` (what a page stores).
    pub fn durable_files(&self) -> Value {
        let power_off = self.files.power_loss(huarong_core::fsio::sim::Loss::Clean);
        let mut out = serde_json::Map::new();
        for p in power_off.paths() {
            if let Some(bytes) = power_off.contents(&p) {
                out.insert(
                    p.to_string_lossy().into_owned(),
                    Value::String(huarong_core::share::base64(&bytes)),
                );
            }
        }
        Value::Object(out)
    }
}

/// A search worker's answer as the core takes it.
fn found_of(found: &str) -> AppResult<Value> {
    let v: Value = serde_json::from_str(found)
        .map_err(|e| AppError::bad_argument(format!("the search result: {e}")))?;
    if let Some(ok) = v.get("ok") {
        return Ok(ok.clone());
    }
    let Some(e) = v.get("error") else {
        return Err(AppError::internal("the search worker gave no answer"));
    };
    let message = e["message"].as_str().unwrap_or("").to_string();
    Err(
        match serde_json::from_value::<huarong_engine::ErrorCode>(e["code"].clone()) {
            Ok(code) => AppError::new(code, message),
            Err(_) if e["code"] == "bad_argument" => AppError::bad_argument(message),
            Err(_) => AppError::internal(message),
        },
    )
}

/// Run a search job (step 2 of `huarong_core::offload`) on `clock`: `{"ok": result}` or
/// `{"error": {code, message}}`.
pub fn run_job(job: &str, clock: &dyn huarong_engine::clock::Clock) -> String {
    let out = serde_json::from_str::<Job>(job)
        .map_err(|e| AppError::bad_argument(format!("the job: {e}")))
        .and_then(|job| huarong_core::offload::run(&job, clock, &huarong_engine::Cancel::new()));
    reply_json(out).to_string()
}

/// An in-memory file system holding `files` (`{path: base64}`, as [`WebCore::durable_files`]
/// gave them); an entry that is not base64 is left out.
pub fn files_from(files: &Value) -> Sim {
    let sim = Sim::new();
    if let Some(map) = files.as_object() {
        for (path, b64) in map {
            let bytes = b64.as_str().and_then(huarong_core::share::decode_base64);
            if let Some(bytes) = bytes {
                sim.install(&PathBuf::from(path), &bytes);
            }
        }
    }
    sim
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    static NOW: AtomicU64 = AtomicU64::new(0);

    fn clock() -> HostClock {
        HostClock {
            wall_ms: || 1_796_155_200_000.0 + NOW.fetch_add(1, Ordering::Relaxed) as f64,
            monotonic_ms: || NOW.fetch_add(1, Ordering::Relaxed) as f64,
            utc_offset_minutes: |_| 480.0,
        }
    }

    fn call(core: &WebCore, name: &str, args: Value) -> Value {
        let out: Value = serde_json::from_str(&core.dispatch(name, &args.to_string())).unwrap();
        match out.get("ok") {
            Some(v) => v.clone(),
            None => panic!("{name}({args}): {out}"),
        }
    }

    #[test]
    fn a_game_won_through_the_command_table_survives_a_reload() {
        let core = WebCore::open(Sim::new(), clock(), || 7);
        call(
            &core,
            "open_game",
            json!({"id": "slide:3x3:1,2,3,4,5,6,7,0,8"}),
        );
        let hint = call(&core, "hint", json!({"kind": "slide"}));
        let won = call(&core, "play", json!({"kind": "slide", "mv": hint["mv"]}));
        assert_eq!(won["snapshot"]["status"], "won");
        // Bad input is a typed error, never a panic.
        let bad: Value = serde_json::from_str(&core.dispatch("play", "not json")).unwrap();
        assert_eq!(bad["error"]["code"], "bad_argument", "{bad}");
        // The page keeps the durable files; a reload starts from them.
        let files = core.durable_files();
        let again = WebCore::open(files_from(&files), clock(), || 7);
        let p = call(&again, "get_progress", json!({}));
        assert_eq!(p["records"]["slide:3x3/tile"]["best_moves"], 1, "{p}");
        assert_eq!(
            p["today"], "2026-12-02",
            "the host's time zone decides the date"
        );
    }
}
