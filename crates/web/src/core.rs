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
use huarong_core::offload::{Begun, Job};
use huarong_core::persist::{InPlaceIo, Paths, Primary};
use huarong_core::platform::{
    Event, Events, Feedback, Haptics, NoThreads, Platform, Share, ShareOutcome,
};
use huarong_core::{AppError, AppResult, AppState};
use serde_json::{json, Value};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// Where the core keeps its files in the in-memory file system.
pub const DATA_DIR: &str = "/huarong";

pub use huarong_core::platform::HostClock;

fn locked<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The search budget of a hint or an auto-solve's start on the page. Less than the app's
/// 170 ms: around the search itself the page pays the session's restore in the search
/// worker, two worker messages and the slot's storage commit, and wasm polls its deadline
/// less often than native code (`./dev.sh web measure` measured 190–390 ms for a 170 ms
/// budget on the hard 4×4 list); the target is an answer within 300 ms.
pub const WEB_SEARCH_BUDGET: Duration = Duration::from_millis(110);

/// How a file changed since the page last stored it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Change {
    /// Created, emptied, renamed onto or removed: the page stores its whole contents (or
    /// deletes it).
    Whole,
    /// Only appended to: the page adds these bytes as one more chunk (the move journal grows
    /// by a few hundred bytes a move; storing it whole each move would cost O(moves)).
    Appended(Vec<u8>),
}

/// After this many appended chunks a file is stored whole again (the page then holds one
/// chunk for it), so that a file never has more than this many chunks.
pub const MAX_CHUNKS: u32 = 64;

#[derive(Default)]
struct Dirty {
    changed: std::collections::BTreeMap<PathBuf, Change>,
    /// Chunks stored per file since it was last stored whole.
    chunks: std::collections::HashMap<PathBuf, u32>,
}

/// The file layer over the in-memory files that notes every name a step writes, renames or
/// removes, and what was appended (the dirty set [`WebCore::changes`] reads out).
struct Tracked {
    inner: Arc<dyn Io>,
    dirty: Arc<Mutex<Dirty>>,
}

impl Tracked {
    fn mark(&self, p: &Path) {
        locked(&self.dirty)
            .changed
            .insert(p.to_path_buf(), Change::Whole);
    }
    fn appended(&self, p: &Path, bytes: &[u8]) {
        let mut d = locked(&self.dirty);
        match d.changed.get_mut(p) {
            Some(Change::Whole) => {}
            Some(Change::Appended(buf)) => buf.extend_from_slice(bytes),
            None => {
                d.changed
                    .insert(p.to_path_buf(), Change::Appended(bytes.to_vec()));
            }
        }
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
        self.inner.append(path, bytes)?;
        self.appended(path, bytes);
        Ok(())
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
            Feedback::Placed => "placed",
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
    dirty: Arc<Mutex<Dirty>>,
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
    /// host's clock (a [`HostClock`], or the page's test clock over it) and seed source.
    pub fn open(
        files: Sim,
        clock: impl huarong_core::platform::Clock,
        seed: fn() -> u64,
    ) -> WebCore {
        let dirty = Arc::new(Mutex::new(Dirty::default()));
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
        state.set_search_budget(WEB_SEARCH_BUDGET);
        // The board worker runs the background optimum in its proof lane (`offload_optimum`):
        // a finish before it arrives is pending and updated in place, as natively.
        state.set_offloads_optimum(true);
        state.step();
        WebCore {
            state,
            files,
            dirty,
            queue,
        }
    }

    /// How many chunks the page holds for each file it loaded (`files_from`'s input), so that
    /// a file stored in chunks is stored whole again after [`MAX_CHUNKS`] of them.
    pub fn loaded(&self, files: &Value) {
        let mut d = locked(&self.dirty);
        for (path, v) in files.as_object().into_iter().flatten() {
            let n = v.as_array().map_or(1, |c| c.len().max(1));
            d.chunks
                .insert(PathBuf::from(path), u32::try_from(n).unwrap_or(u32::MAX));
        }
    }

    /// Whether this core, built without the `full` feature (the page's board wasm), could not
    /// take up every saved game: one needs a part left out of this build (a generated
    /// Klotski layout or a slide made to a difficulty is made again from its ID when it is
    /// restored). The page then drops this core before anything of it is stored and opens the
    /// same files on the full build instead, so that nothing saved is set aside.
    pub fn needs_full(&self) -> bool {
        self.state
            .progress()
            .notices
            .iter()
            .any(|n| n.message.contains(huarong_engine::NOT_IN_BUILD))
    }

    /// Step 1 of a command whose work runs in the search worker (`hint`, `solve`, `analysis`,
    /// `replay`, and `open_game` / `new_game` of an ID with a costly generator; see
    /// `AppState::offload_command`): `{"ok": reply}` or `{"error": …}` when nothing is to run
    /// there, else `{"job": job}` (`proof` beside `ok` when a cached hint needs its proof).
    /// Other commands are dispatched.
    pub fn offload_begin(&self, name: &str, args: &str) -> String {
        let begun = match serde_json::from_str::<Value>(args) {
            Err(e) => Some(Err(AppError::bad_argument(format!(
                "the arguments are not JSON: {e}"
            )))),
            Ok(a) => self.state.offload_command(name, a),
        };
        // Nothing to run elsewhere (another command, an opening without a costly generator).
        let Some(begun) = begun else {
            return self.dispatch(name, args);
        };
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

    /// The background optimum of a shown game whose start's optimal length is not known yet
    /// (`huarong_core::offload::Op::Optimum`; natively a thread): `{"job": job}` or `{}`. The
    /// board worker runs it where nobody waits, then [`WebCore::offload_finish`].
    pub fn offload_optimum(&self) -> String {
        match self.state.offload_optimum() {
            Some(job) => json!({ "job": job }),
            None => json!({}),
        }
        .to_string()
    }

    /// Whether a running job's result would still be written back.
    pub fn offload_current(&self, job: &str) -> bool {
        serde_json::from_str::<Job>(job).is_ok_and(|job| self.state.offload_current(&job))
    }

    /// The files written since the last call, `{path: change}`: `{"whole": base64}` (store
    /// the file as this one chunk), `{"append": base64}` (add one chunk after the file's
    /// others) or `null` (removed). The page keeps each file as its chunks in order.
    pub fn changes(&self) -> Value {
        let mut d = locked(&self.dirty);
        let changed = std::mem::take(&mut d.changed);
        let mut out = serde_json::Map::new();
        for (p, change) in changed {
            let n = d.chunks.get(&p).copied().unwrap_or(0);
            let v = match (change, self.files.contents(&p)) {
                (_, None) => {
                    d.chunks.remove(&p);
                    Value::Null
                }
                (Change::Appended(add), Some(_)) if n < MAX_CHUNKS => {
                    d.chunks.insert(p.clone(), n + 1);
                    json!({ "append": huarong_core::share::base64(&add) })
                }
                (_, Some(bytes)) => {
                    d.chunks.insert(p.clone(), 1);
                    json!({ "whole": huarong_core::share::base64(&bytes) })
                }
            };
            out.insert(p.to_string_lossy().into_owned(), v);
        }
        Value::Object(out)
    }

    /// The page could not store `paths` (the keys of a [`WebCore::changes`] whose transaction
    /// failed: quota, abort; a JSON array): each is written whole by the next call, so that
    /// no appended chunk is ever stored after a gap (issue 35). What the core holds is the
    /// truth; the page's copy of those files is as before the failed transaction.
    pub fn failed(&self, paths: &[String]) {
        let mut d = locked(&self.dirty);
        for p in paths {
            let p = PathBuf::from(p);
            d.chunks.remove(&p);
            d.changed.insert(p, Change::Whole);
        }
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
pub fn run_job(job: &str, clock: Arc<dyn huarong_engine::clock::Clock>) -> String {
    let out = serde_json::from_str::<Job>(job)
        .map_err(|e| AppError::bad_argument(format!("the job: {e}")))
        .and_then(|job| huarong_core::offload::run(&job, clock, &huarong_engine::Cancel::new()));
    reply_json(out).to_string()
}

/// An in-memory file system holding `files`: `{path: base64}` (as [`WebCore::durable_files`]
/// gives them) or `{path: [base64, …]}` (a file's chunks in order, as the page stores
/// [`WebCore::changes`]); an entry that is not base64 is left out.
pub fn files_from(files: &Value) -> Sim {
    let sim = Sim::new();
    let decode = |v: &Value| v.as_str().and_then(huarong_core::share::decode_base64);
    if let Some(map) = files.as_object() {
        for (path, v) in map {
            let bytes = match v {
                Value::Array(chunks) => chunks
                    .iter()
                    .map(decode)
                    .collect::<Option<Vec<_>>>()
                    .map(|c| c.concat()),
                one => decode(one),
            };
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
    #[cfg(feature = "full")]
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
        // An exact board has a record scope of its own (issue 35).
        let scope = huarong_core::records::scope_of_id("slide:3x3:1,2,3,4,5,6,7,0,8").unwrap();
        // Won with a hint's help: a win, and no best (an assisted finish sets no record).
        let record = &p["records"][format!("{scope}/tile").as_str()];
        assert_eq!(
            (&record["wins"], &record["best_moves"]),
            (&json!(1), &Value::Null),
            "{p}"
        );
        assert_eq!(
            p["today"], "2026-12-02",
            "the host's time zone decides the date"
        );
    }

    #[cfg(feature = "full")]
    fn parse(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    /// Runs a job of `begun` (`{"job"}`) the way the search worker does.
    #[cfg(feature = "full")]
    fn run(job: &Value) -> String {
        run_job(
            &job.to_string(),
            Arc::new(huarong_engine::clock::Ticking::new(Duration::from_millis(
                1,
            ))),
        )
    }

    #[test]
    fn a_move_is_stored_as_an_appended_chunk_and_a_reload_from_chunks_resumes_the_game() {
        let core = WebCore::open(Sim::new(), clock(), || 7);
        // What the page stores: every file as its chunks in order.
        let mut stored: std::collections::BTreeMap<String, Vec<Value>> = Default::default();
        let mut keep = |core: &WebCore| -> usize {
            let mut bytes = 0;
            for (p, c) in core.changes().as_object().unwrap() {
                bytes += c.to_string().len();
                if c.is_null() {
                    stored.remove(p);
                } else if let Some(w) = c.get("whole") {
                    stored.insert(p.clone(), vec![w.clone()]);
                } else {
                    stored
                        .entry(p.clone())
                        .or_default()
                        .push(c["append"].clone());
                }
            }
            bytes
        };
        keep(&core);
        call(
            &core,
            "open_game",
            json!({"id": "slide:4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15"}),
        );
        keep(&core);
        let mut sizes = Vec::new();
        for i in 0..150 {
            let tile = if i % 2 == 0 { 13 } else { 14 };
            call(
                &core,
                "play",
                json!({"kind": "slide", "mv": {"tile": tile}}),
            );
            sizes.push(keep(&core));
        }
        // O(1) per move: the 150th move stores no more than the 2nd (the chunked journal),
        // except when a file is stored whole again after MAX_CHUNKS chunks.
        let typical = sizes[1];
        let big = sizes.iter().filter(|&&n| n > 3 * typical).count();
        assert!(big <= 150 / MAX_CHUNKS as usize + 1, "{sizes:?}");
        assert!(
            stored.values().all(|c| c.len() <= MAX_CHUNKS as usize),
            "too many chunks"
        );
        let files = Value::Object(
            stored
                .into_iter()
                .map(|(p, c)| (p, Value::Array(c)))
                .collect(),
        );
        let again = WebCore::open(files_from(&files), clock(), || 7);
        again.loaded(&files);
        let snap = call(&again, "snapshot", json!({"kind": "slide"}));
        assert_eq!(snap["snapshot"]["moves"], 150 * 2, "{snap}");
    }

    /// Issue 35, item 3: twenty moves, the eleventh's transaction lost (quota, abort). The
    /// page hands its paths back (`failed`): they are written whole by the next commit, so no
    /// chunk is stored after a gap, and a reload from what was stored has all twenty moves.
    #[test]
    fn a_failed_commit_handed_back_is_written_whole_and_loses_no_move() {
        let core = WebCore::open(Sim::new(), clock(), || 7);
        let mut stored: std::collections::BTreeMap<String, Vec<Value>> = Default::default();
        let keep = |stored: &mut std::collections::BTreeMap<String, Vec<Value>>,
                    changes: &Value| {
            for (p, c) in changes.as_object().unwrap() {
                if c.is_null() {
                    stored.remove(p);
                } else if let Some(w) = c.get("whole") {
                    stored.insert(p.clone(), vec![w.clone()]);
                } else {
                    stored
                        .entry(p.clone())
                        .or_default()
                        .push(c["append"].clone());
                }
            }
        };
        keep(&mut stored, &core.changes());
        call(&core, "open_game", json!({"id": "slide:4x4#7"}));
        keep(&mut stored, &core.changes());
        let tile = |core: &WebCore| -> u64 {
            let s = call(core, "snapshot", json!({"kind": "slide"}));
            let v = &s["snapshot"]["view"];
            let (w, tiles) = (
                v["w"].as_u64().unwrap() as usize,
                v["tiles"].as_array().unwrap(),
            );
            let b = tiles.iter().position(|t| t == 0).unwrap();
            let n = if b % w + 1 < w { b + 1 } else { b - 1 };
            tiles[n].as_u64().unwrap()
        };
        for i in 1..=20 {
            let t = tile(&core);
            call(&core, "play", json!({"kind": "slide", "mv": {"tile": t}}));
            let changes = core.changes();
            if i == 11 {
                // The transaction failed: nothing of it is stored; its paths go back.
                let paths: Vec<String> = changes.as_object().unwrap().keys().cloned().collect();
                assert!(!paths.is_empty());
                core.failed(&paths);
                continue;
            }
            keep(&mut stored, &changes);
        }
        let files = Value::Object(
            stored
                .into_iter()
                .map(|(p, c)| (p, Value::Array(c)))
                .collect(),
        );
        let again = WebCore::open(files_from(&files), clock(), || 7);
        let snap = call(&again, "snapshot", json!({"kind": "slide"}));
        assert_eq!(snap["snapshot"]["moves"], 20, "{snap}");
        let p = call(&again, "get_progress", json!({}));
        assert!(
            p["notices"].as_array().unwrap().is_empty(),
            "no restored game: {p}"
        );
    }

    /// Issue 35: a replay and a costly generator run as search-worker jobs, never on the
    /// board's core; an opening without one is answered at once.
    #[test]
    #[cfg(feature = "full")] // runs its jobs (search-worker work: the full build)
    fn replays_and_generators_run_as_jobs_off_the_board() {
        let core = WebCore::open(Sim::new(), clock(), || 7);
        // A result code with its log: `replay` is a job; the worker's answer is the reply.
        let id = "slide:3x3:1,2,3,4,5,6,0,7,8";
        let code = huarong_engine::code::encode_result(
            id,
            huarong_engine::code::Extra::default(),
            huarong_engine::code::Challenge::new(2, 900).unwrap(),
            &huarong_engine::code::Sender {
                name: None,
                log: Some(vec![json!({"tile": 7}), json!({"tile": 8})]),
            },
        )
        .unwrap();
        let begun = parse(&core.offload_begin("replay", &json!({ "code": code }).to_string()));
        let job = begun["job"].clone();
        assert_eq!(job["op"], "replay", "{begun}");
        assert!(
            core.offload_current(&job.to_string()),
            "no slot's: it stays wanted"
        );
        let fin = parse(&core.offload_finish(&job.to_string(), &run(&job)));
        assert_eq!(
            fin["ok"]["views"].as_array().map(Vec::len),
            Some(3),
            "{fin}"
        );
        assert_eq!(fin["ok"]["analysis"]["optimal_start"], 2, "{fin}");
        // A plain ID's replay is a typed error at once.
        let e = parse(&core.offload_begin("replay", &json!({ "code": id }).to_string()));
        assert_eq!(e["error"]["code"], "unsupported", "{e}");
        // A Klotski level's generator: a job; the core opens the game on the board it made.
        let begun = parse(&core.offload_begin(
            "new_game",
            r#"{"kind":"klotski","params":"10-30","seed":3}"#,
        ));
        let job = begun["job"].clone();
        assert_eq!(
            (job["op"].as_str(), job["board"].as_str()),
            (Some("open"), Some("klotski:10-30#3")),
            "{begun}"
        );
        let made = run(&job);
        assert!(parse(&made)["ok"]["board"].is_string(), "{made}");
        let fin = parse(&core.offload_finish(&job.to_string(), &made));
        assert_eq!(fin["ok"]["snapshot"]["id"], "klotski:10-30#3", "{fin}");
        assert_eq!(fin["ok"]["snapshot"]["mode"], "free", "{fin}");
        // The same game as the board's core would have made.
        let here = WebCore::open(Sim::new(), clock(), || 7);
        let direct = call(
            &here,
            "new_game",
            json!({"kind": "klotski", "params": "10-30", "seed": 3}),
        );
        assert_eq!(fin["ok"]["snapshot"]["board"], direct["snapshot"]["board"]);
        // `open_game` of a generator ID likewise; of an exact board, answered at once.
        let begun =
            parse(&core.offload_begin("open_game", r#"{"id":"klotski:60-90#5","replace":true}"#));
        assert_eq!(begun["job"]["op"], "open", "{begun}");
        let at_once = parse(&core.offload_begin(
            "open_game",
            &json!({ "id": id, "replace": true }).to_string(),
        ));
        assert!(
            at_once.get("job").is_none() && at_once["ok"]["snapshot"]["id"] == id,
            "{at_once}"
        );
        // A hostile generator ID is stopped by the opening's budget in the worker: a typed
        // error, and nothing opened.
        let begun = parse(&core.offload_begin("open_game", r#"{"id":"klotski:1+:8x8:g12s20#2"}"#));
        let job = begun["job"].clone();
        let stopped = run_job(
            &job.to_string(),
            Arc::new(huarong_engine::clock::Ticking::new(Duration::from_secs(6))),
        );
        let fin = parse(&core.offload_finish(&job.to_string(), &stopped));
        assert_eq!(fin["error"]["code"], "unsupported", "{fin}");
        // `preview` of a generator ID is a job too (its reply is the worker's answer); of an
        // exact board, answered at once.
        let begun = parse(&core.offload_begin("preview", r#"{"id":"klotski:10-30#3"}"#));
        let job = begun["job"].clone();
        assert_eq!(job["op"], "preview", "{begun}");
        let fin = parse(&core.offload_finish(&job.to_string(), &run(&job)));
        assert_eq!(fin["ok"]["id"], "klotski:10-30#3", "{fin}");
        assert_eq!(fin["ok"]["kind"], "klotski", "{fin}");
        assert!(fin["ok"]["view"].is_object(), "{fin}");
        let at_once = parse(&core.offload_begin("preview", &json!({ "id": id }).to_string()));
        assert!(
            at_once.get("job").is_none() && at_once["ok"]["id"] == id,
            "{at_once}"
        );
    }

    #[test]
    #[cfg(feature = "full")]
    fn a_hint_runs_as_a_job_and_its_proof_arrives_as_an_event() {
        let core = WebCore::open(Sim::new(), clock(), || 7);
        let hardest = "slide:4x4:0,12,9,13,15,11,10,14,3,7,2,5,4,8,6,1";
        call(&core, "open_game", json!({"id": hardest}));
        // A search command is not searched on the board's core: it becomes a job.
        let begun = parse(&core.offload_begin("hint", r#"{"kind":"slide"}"#));
        let job = begun["job"].clone();
        assert_eq!(job["op"], "hint", "{begun}");
        assert_eq!(job["board"], hardest.trim_start_matches("slide:"));
        assert!(core.offload_current(&job.to_string()));
        // The search worker's clock runs out at once: a hint that is not optimal yet.
        let found = run(&job);
        let fin = parse(&core.offload_finish(&job.to_string(), &found));
        assert_eq!(fin["ok"]["pending"], true, "{fin}");
        assert_eq!(fin["ok"]["optimal"], false);
        let proof = fin["proof"].clone();
        assert_eq!(proof["op"], "proof", "{fin}");
        // The proof has its time budget in the worker too: on a clock where a minute passes
        // between two readings it stops (this board's proof takes minutes) as `unsupported`.
        let stopped = parse(&run_job(
            &proof.to_string(),
            Arc::new(huarong_engine::clock::Ticking::new(
                huarong_core::PROOF_TIME + Duration::from_secs(1),
            )),
        ));
        assert_eq!(stopped["error"]["code"], "unsupported", "{stopped}");
        // The hint was counted, as natively.
        let snap = call(&core, "snapshot", json!({"kind": "slide"}));
        assert_eq!(snap["snapshot"]["hints_used"], 1);
        // The proof's answer (here the same line, flagged optimal as a finished proof is)
        // is adopted and the page hears `huarong-hint`.
        let mut proven: Value = parse(&found)["ok"].clone();
        proven["optimal"] = json!(true);
        let done =
            parse(&core.offload_finish(&proof.to_string(), &json!({ "ok": proven }).to_string()));
        assert_eq!(done["ok"], true, "{done}");
        let out = core.take_outbox();
        assert_eq!(out["events"], json!([["huarong-hint", "slide"]]), "{out}");
        let status = call(&core, "hint_status", json!({"kind": "slide"}));
        assert_eq!(status["optimal"], true, "{status}");
        // A second hint follows the held line: answered at once, without a job.
        let again = parse(&core.offload_begin("hint", r#"{"kind":"slide"}"#));
        assert!(
            again.get("job").is_none() && again["ok"]["optimal"] == true,
            "{again}"
        );
    }

    /// The tests' stand-in game (Lights Out, the engine's `stand-in` feature) as the page
    /// plays it on the web core: a new game, its hints as jobs of the search worker, a win
    /// with the optimum from the background job, and its record after a reload.
    #[test]
    #[cfg(feature = "full")] // runs its jobs (search-worker work: the full build)
    fn the_stand_in_is_played_on_the_web_core() {
        let core = WebCore::open(Sim::new(), clock(), || 7);
        let v = call(
            &core,
            "new_game",
            json!({"kind": "lights", "params": "6", "seed": 11}),
        );
        assert_eq!(v["snapshot"]["kind"], "lights");
        // The start's optimum runs in the search worker, for the finish's stars.
        let opt = parse(&core.offload_optimum())["job"].clone();
        assert_eq!(opt["op"], "optimum", "{opt}");
        let fin = parse(&core.offload_finish(&opt.to_string(), &run(&opt)));
        assert!(fin.get("error").is_none(), "{fin}");
        let mut last = v;
        for _ in 0..16 {
            if last["snapshot"]["status"] != "playing" {
                break;
            }
            let begun = parse(&core.offload_begin("hint", r#"{"kind":"lights"}"#));
            let hint = match begun.get("job") {
                Some(job) => parse(&core.offload_finish(&job.to_string(), &run(job)))["ok"].clone(),
                None => begun["ok"].clone(),
            };
            assert_eq!(hint["optimal"], true, "{hint}");
            last = call(&core, "play", json!({"kind": "lights", "mv": hint["mv"]}));
        }
        let f = &last["finish"];
        assert_eq!(last["snapshot"]["status"], "won", "{last}");
        assert_eq!(f["key"], "lights:6/moves", "{f}");
        assert_eq!(f["optimal"], f["moves"], "{f}");
        let files = core.durable_files();
        let again = WebCore::open(files_from(&files), clock(), || 7);
        let p = call(&again, "get_progress", json!({}));
        // Played along hints: a win, and no best (an assisted finish sets no record).
        let record = &p["records"]["lights:6/moves"];
        assert_eq!(
            (&record["wins"], &record["best_moves"]),
            (&json!(1), &Value::Null),
            "{p}"
        );
    }

    #[test]
    #[cfg(feature = "full")]
    fn a_move_during_a_search_makes_its_result_cancelled() {
        let core = WebCore::open(Sim::new(), clock(), || 7);
        call(
            &core,
            "open_game",
            json!({"id": "slide:3x3:1,2,3,4,5,6,0,7,8"}),
        );
        let job = parse(&core.offload_begin("solve", r#"{"kind":"slide"}"#))["job"].clone();
        assert_eq!(job["op"], "solve");
        let found = run(&job);
        call(&core, "play", json!({"kind": "slide", "mv": {"tile": 7}}));
        assert!(!core.offload_current(&job.to_string()), "the slot moved on");
        let fin = parse(&core.offload_finish(&job.to_string(), &found));
        assert_eq!(fin["error"]["code"], "cancelled", "{fin}");
        // The game was not marked auto-solved by the stale result.
        let snap = call(&core, "snapshot", json!({"kind": "slide"}));
        assert_eq!(snap["snapshot"]["auto_solved"], false);
        // An error of the search worker comes back typed; bad input is typed too.
        let job = parse(&core.offload_begin("solve", r#"{"kind":"slide"}"#))["job"].clone();
        let e = parse(&core.offload_finish(
            &job.to_string(),
            r#"{"error":{"code":"unsolvable","message":"no"}}"#,
        ));
        assert_eq!(e["error"]["code"], "unsolvable", "{e}");
        let bad = parse(&core.offload_begin("hint", r#"{"kind":"chess"}"#));
        assert_eq!(bad["error"]["code"], "bad_argument", "{bad}");
        let bad = parse(&core.offload_finish("{}", "{}"));
        assert_eq!(bad["error"]["code"], "bad_argument", "{bad}");
        let bad = parse(&run_job(
            "not json",
            Arc::new(huarong_engine::clock::Ticking::new(Duration::ZERO)),
        ));
        assert_eq!(bad["error"]["code"], "bad_argument", "{bad}");
    }

    #[test]
    #[cfg(feature = "full")]
    fn the_optimum_of_a_shown_game_is_found_in_a_worker_and_gives_the_finish_its_stars() {
        let core = WebCore::open(Sim::new(), clock(), || 7);
        // Five moves from solved: tiles 2, 1, 4, 7, 8.
        call(
            &core,
            "open_game",
            json!({"id": "slide:3x3:2,0,3,1,5,6,4,7,8"}),
        );
        // Opening shows the game: its optimum is wanted.
        let job = parse(&core.offload_optimum())["job"].clone();
        assert_eq!(job["op"], "optimum", "{job}");
        let found = run(&job);
        // A move meanwhile: the optimum is the start's, still wanted.
        call(&core, "play", json!({"kind": "slide", "mv": {"tile": 2}}));
        assert!(core.offload_current(&job.to_string()));
        let fin = parse(&core.offload_finish(&job.to_string(), &found));
        assert_eq!(fin["ok"]["optimal"], 5, "{fin}");
        assert_eq!(
            parse(&core.offload_optimum()),
            json!({}),
            "found once, not redone"
        );
        // Solved in the fewest moves: the finish knows the optimum and gives three stars.
        let mut view = Value::Null;
        for tile in [1, 4, 7, 8] {
            view = call(
                &core,
                "play",
                json!({"kind": "slide", "mv": {"tile": tile}}),
            );
        }
        assert_eq!(view["snapshot"]["status"], "won", "{view}");
        assert_eq!(view["finish"]["optimal"], 5, "{view}");
        assert_eq!(view["finish"]["stars"], 3, "{view}");
        // Leaving the game stops a running one; a failed one is not tried again.
        call(
            &core,
            "open_game",
            json!({"id": "slide:3x3:1,2,3,4,5,6,7,0,8"}),
        );
        let job = parse(&core.offload_optimum())["job"].clone();
        call(&core, "set_screen", json!({"screen": "home"}));
        assert!(
            !core.offload_current(&job.to_string()),
            "nobody looks at it"
        );
        call(&core, "set_screen", json!({"screen": "game:slide"}));
        let job = parse(&core.offload_optimum())["job"].clone();
        let e = parse(&core.offload_finish(
            &job.to_string(),
            r#"{"error":{"code":"unsupported","message":"over its bytes"}}"#,
        ));
        assert_eq!(e["ok"]["optimal"], Value::Null, "{e}");
        assert_eq!(
            parse(&core.offload_optimum()),
            json!({}),
            "a failed one is not redone"
        );
    }

    #[test]
    #[cfg(feature = "full")] // runs its jobs (search-worker work: the full build)
    fn a_finish_before_the_optimum_is_pending_until_the_worker_finds_it() {
        let core = WebCore::open(Sim::new(), clock(), || 7);
        // A Klotski board no table knows (not a classic): Cao Cao one step from the exit.
        let id = "klotski:a..b/a..b/cCCd/cCCd/e..f";
        call(&core, "open_game", json!({ "id": id }));
        let job = parse(&core.offload_optimum())["job"].clone();
        assert_eq!(job["op"], "optimum", "{job}");
        // Won before the worker answers: the verdict is pending, not "no stars".
        let won = call(
            &core,
            "play",
            json!({"kind": "klotski", "mv": {"piece": "C", "to": [3, 1]}}),
        );
        let f = won["finish"].clone();
        assert_eq!(won["snapshot"]["status"], "won", "{won}");
        assert_eq!(f["pending"], true, "{f}");
        assert_eq!(f["stars"], Value::Null, "{f}");
        assert_eq!(call(&core, "finish", json!({"kind": "klotski"})), f);
        // The worker's answer gives the finish its verdict, and the page hears it.
        assert!(core.offload_current(&job.to_string()));
        let found = run(&job);
        let fin = parse(&core.offload_finish(&job.to_string(), &found));
        assert_eq!(fin["ok"]["optimal"], 1, "{fin}");
        let out = core.take_outbox();
        assert_eq!(
            out["events"],
            json!([["huarong-finish", "klotski"]]),
            "{out}"
        );
        let done = call(&core, "finish", json!({"kind": "klotski"}));
        assert_eq!(done["pending"], false, "{done}");
        assert_eq!(done["optimal"], 1);
        assert_eq!(done["stars"], 3);
        assert_eq!(done["perfect"], true);
        assert_eq!(done["time_ms"], f["time_ms"]);
        // The records' row of this finish has it too, with the time as shown.
        let scope = format!("klotski:{}", id.trim_start_matches("klotski:"));
        let rec = call(&core, "records", json!({ "scope": scope }));
        let row = rec["history"].as_array().and_then(|h| h.last()).cloned();
        let row = row.expect("a history row");
        assert_eq!(
            (&row["optimal"], &row["ms"]),
            (&json!(1), &f["time_ms"]),
            "{rec}"
        );
    }

    #[test]
    #[cfg(feature = "full")]
    fn haptics_and_the_card_go_to_the_page() {
        let core = WebCore::open(Sim::new(), clock(), || 7);
        call(&core, "haptic", json!({"kind": "win"}));
        let card = json!({"code": "2ABTMEea23Z2UTg", "lang": "en", "moves": 3, "seconds": 9,
            "board": "3x3:1,2,3,4,5,6,7,8,0"});
        let res = call(&core, "share_card", json!({ "card": card }));
        let name = res["file"]
            .as_str()
            .expect("the card's file name")
            .to_string();
        let out = core.take_outbox();
        assert_eq!(out["haptics"], json!(["win"]), "{out}");
        assert_eq!(out["share"]["name"], name.as_str());
        let png = huarong_core::share::decode_base64(out["share"]["png"].as_str().unwrap())
            .expect("base64");
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        // Taken once.
        assert!(core.take_outbox()["share"].is_null());
    }

    /// The board's build (`cargo test -p huarong-web --no-default-features`, run by
    /// `./dev.sh test`): a plain board opens and plays; what the build leaves out answers
    /// `unsupported` "not in this build" at once (the page's worker then moves the core onto the
    /// full build and runs the command again), and nothing is changed by it.
    #[test]
    #[cfg(not(feature = "full"))]
    fn the_board_build_plays_and_says_what_it_leaves_out() {
        let core = WebCore::open(Sim::new(), clock(), || 7);
        call(
            &core,
            "open_game",
            json!({"id": "slide:3x3:1,2,3,4,5,6,7,0,8"}),
        );
        let won = call(&core, "play", json!({"kind": "slide", "mv": {"tile": 8}}));
        assert_eq!(won["snapshot"]["status"], "won", "{won}");
        let card = json!({"code": "2ABTMEea23Z2UTg", "lang": "en", "moves": 3, "seconds": 9});
        for (name, args) in [
            (
                "open_game",
                json!({"id": "klotski:30-60#5", "replace": true}),
            ),
            (
                "new_game",
                json!({"kind": "slide", "params": "4x4/medium", "seed": 3, "replace": true}),
            ),
            ("card_image", json!({ "card": card })),
            ("share_card", json!({ "card": card })),
            // Search-worker work (`offload_begin` makes them jobs): not run by this core.
            ("hint", json!({"kind": "slide"})),
            ("solve", json!({"kind": "slide"})),
            ("analysis", json!({"kind": "slide"})),
            ("replay", json!({ "code": card["code"] })),
        ] {
            let out: Value = serde_json::from_str(&core.dispatch(name, &args.to_string())).unwrap();
            assert_eq!(out["error"]["code"], "unsupported", "{name}: {out}");
            let message = out["error"]["message"].as_str().unwrap_or("");
            assert!(
                message.contains(huarong_engine::NOT_IN_BUILD),
                "{name}: {out}"
            );
        }
        // The won game is still the current one; the files it left need no other build.
        let snap = call(&core, "snapshot", json!({"kind": "slide"}));
        assert_eq!(snap["snapshot"]["status"], "won", "{snap}");
        let again = WebCore::open(files_from(&core.durable_files()), clock(), || 7);
        assert!(!again.needs_full());
    }
}
