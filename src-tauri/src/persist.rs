//! File-level durability of the player's progress, usable without a running app (the kill
//! test drives this module from a child process).
//!
//! Two files in the data directory:
//! - `huarong.json`, the **primary**: the `tauri-plugin-store` file. The plugin's `save()`
//!   truncates and rewrites it in place (no temp file, no fsync), and it silently drops a file
//!   it cannot parse — so it can be damaged by a kill and must be checked before the plugin
//!   opens it.
//! - `huarong.good.json`, the **last good copy**: the same bytes' content, written by us
//!   atomically (temp file, fsync, rename, directory fsync) *before* every primary save.
//!
//! Both hold `{"save": {"schema", "gen", "checksum", "progress"}}` (see `progress.rs`). Since
//! the good copy is written first, its `gen` is never behind the primary's; a kill at any
//! instant leaves at least one of them whole and holding the newest state that was complete.
//!
//! At start ([`recover`]), before the plugin can load or overwrite anything, both files are
//! read and verified (JSON, schema, checksum); the newest valid one wins; a damaged file is
//! moved aside as `<name>.corrupt-<unix ms>` (never deleted while it may hold records), a file
//! from a newer app version as `<name>.newer-<unix ms>`, and a notice says what happened.
//! Then both files are rewritten (atomically) with the chosen state so the plugin loads it.
//!
//! While the app runs, a [`Writer`] thread saves every submitted state: it coalesces (only the
//! newest pending state is written), writes the good copy, then the primary.

use crate::fsio::{Io, Real};
use crate::progress::{self, Progress, SCHEMA};
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The environment variable that redirects all app data (tests, portable installs).
pub const ENV_DIR: &str = "HUARONG_DATA_DIR";
pub const STORE_FILE: &str = "huarong.json";
pub const GOOD_FILE: &str = "huarong.good.json";
/// A file bigger than this is not a save of ours (three maximal move logs are ~20 MB).
pub const MAX_FILE: u64 = 64 << 20;
/// Largest `gen` a loaded file keeps (a hostile huge one is cut to this; each save adds one).
pub const MAX_GEN: u64 = 1 << 53;
/// How many `*.corrupt-*` / `*.newer-*` files are kept (the oldest beyond are removed).
pub const KEEP_ASIDE: usize = 8;

/// Where the files live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paths {
    pub dir: PathBuf,
    pub store: PathBuf,
    pub good: PathBuf,
}

impl Paths {
    pub fn new(dir: impl Into<PathBuf>) -> Paths {
        let dir = dir.into();
        Paths {
            store: dir.join(STORE_FILE),
            good: dir.join(GOOD_FILE),
            dir,
        }
    }

    /// `$HUARONG_DATA_DIR` when set (made absolute), else `default`.
    pub fn from_env_or(default: impl FnOnce() -> Option<PathBuf>) -> Result<Paths, String> {
        match std::env::var_os(ENV_DIR) {
            Some(d) if !d.is_empty() => {
                let p = PathBuf::from(d);
                if p.as_os_str().len() > 4096 {
                    return Err(format!("{ENV_DIR} is longer than 4096 characters"));
                }
                let p = if p.is_absolute() {
                    p
                } else {
                    std::env::current_dir()
                        .map_err(|e| format!("current dir: {e}"))?
                        .join(p)
                };
                Ok(Paths::new(p))
            }
            _ => default()
                .map(Paths::new)
                .ok_or_else(|| "no app data directory".to_string()),
        }
    }
}

/// One saved state: its generation number and the progress.
#[derive(Debug, Clone, PartialEq)]
pub struct Doc {
    pub gen: u64,
    pub progress: Progress,
}

/// A message for the player about their saved data (shown by the UI, see `get_progress`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Notice {
    /// `warning` (something was wrong and was repaired) or `info`.
    pub level: String,
    /// Stable: `restored`, `kept_aside`, `migrated`, `unreadable`, `save_failed`, `bad_open`, …
    pub code: String,
    pub message: String,
}

impl Notice {
    pub fn warning(code: &str, message: impl Into<String>) -> Notice {
        Notice {
            level: "warning".into(),
            code: code.into(),
            message: message.into(),
        }
    }
    pub fn info(code: &str, message: impl Into<String>) -> Notice {
        Notice {
            level: "info".into(),
            code: code.into(),
            message: message.into(),
        }
    }
}

/// The checksum of a save: FNV-1a 64 over the schema, the gen and the progress' JSON, as 16
/// hex digits. It detects damage (bit flips, a half-old half-new file), not tampering.
pub fn checksum(schema: u32, gen: u64, progress: &Value) -> String {
    let mut bytes = format!("huarong:{schema}:{gen}:").into_bytes();
    // Serializing a `Value` is deterministic for a given value, and a parse of our own
    // output gives back the same value, so writer and reader agree.
    bytes.extend(serde_json::to_vec(progress).unwrap_or_default());
    format!("{:016x}", huarong_engine::rng::fnv1a64(&bytes))
}

/// The `"save"` envelope of a doc.
pub fn envelope(doc: &Doc) -> Value {
    let progress = serde_json::to_value(&doc.progress).unwrap_or_else(|_| json!({}));
    json!({
        "schema": SCHEMA,
        "gen": doc.gen,
        "checksum": checksum(SCHEMA, doc.gen, &progress),
        "progress": progress,
    })
}

/// The whole file (`{"save": envelope}`) as bytes.
pub fn encode(doc: &Doc) -> Vec<u8> {
    serde_json::to_vec_pretty(&json!({ "save": envelope(doc) })).unwrap_or_default()
}

/// Why a file was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bad {
    /// Truncated, not JSON, wrong layout, or a checksum mismatch.
    Damaged(String),
    /// Written by a newer app (a higher schema): kept aside, never overwritten.
    Newer(String),
}

/// Parse and verify a file's bytes: the doc and the schema it was written in.
pub fn decode(bytes: &[u8]) -> Result<(Doc, u32), Bad> {
    decode_with(bytes, true)
}

/// [`decode`], optionally without the checksum check (a last resort when every copy is
/// damaged: a file that still parses is better than an empty start).
pub fn decode_with(bytes: &[u8], verify: bool) -> Result<(Doc, u32), Bad> {
    let damaged = |s: String| Bad::Damaged(s);
    if bytes.len() as u64 > MAX_FILE {
        return Err(damaged(format!(
            "{} bytes is larger than any save",
            bytes.len()
        )));
    }
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(damaged("the file is empty".into()));
    }
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| damaged(format!("not valid JSON (truncated or overwritten?): {e}")))?;
    let Value::Object(file) = value else {
        return Err(damaged("not a JSON object".into()));
    };
    let schema = progress::schema_of(&file)
        .ok_or_else(|| damaged("the save has no readable schema number".into()))?;
    if schema > SCHEMA {
        return Err(Bad::Newer(format!(
            "written by a newer version of the app (schema {schema}; this one reads up to {SCHEMA})"
        )));
    }
    let mut gen = 0;
    if schema >= 1 {
        let save = file
            .get("save")
            .and_then(Value::as_object)
            .ok_or_else(|| damaged("no save".into()))?;
        // A huge gen saturates (and then fails its checksum unless it was written so).
        gen = match save.get("gen") {
            Some(Value::Number(n)) => progress::saturate_u64(n),
            _ => return Err(damaged("no gen number".into())),
        };
        let want = save
            .get("checksum")
            .and_then(Value::as_str)
            .ok_or_else(|| damaged("no checksum".into()))?;
        let progress = save
            .get("progress")
            .ok_or_else(|| damaged("no progress".into()))?;
        let got = checksum(schema, gen, progress);
        if verify && got != want {
            return Err(damaged(format!(
                "checksum mismatch (stored {want}, computed {got})"
            )));
        }
    }
    let mut file = file;
    if let Some(p) = file.get_mut("save").and_then(|s| s.get_mut("progress")) {
        progress::clamp_counters(p);
    }
    // The current schema needs no migration (and its one parse below is the check); older
    // ones go through `migrate`.
    let (mut env, from) = if schema == SCHEMA {
        (file.remove("save").unwrap_or(Value::Null), SCHEMA)
    } else {
        progress::migrate(file).map_err(damaged)?
    };
    // One parse of the file; the progress value is moved, not copied.
    let mut progress: Progress = serde_json::from_value(env["progress"].take())
        .map_err(|e| damaged(format!("progress does not parse: {e}")))?;
    progress.sanitize();
    // Room for the app to count on without ever overflowing.
    let gen = gen.min(MAX_GEN);
    Ok((Doc { gen, progress }, from))
}

/// Write `bytes` to `path` atomically: temp file in the same directory, fsync, rename over
/// `path`, fsync the directory. A reader sees the old file or the new one, never a mix.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_io(&Real, path, bytes)
}

/// [`write_atomic`] through an [`Io`] (fault tests). A failed write removes its temp file.
pub fn write_atomic_io(io: &dyn Io, path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = tmp_path(path);
    let staged = io
        .create(&tmp)
        .and_then(|()| io.append(&tmp, bytes))
        .and_then(|()| io.fsync(&tmp))
        .and_then(|()| io.rename(&tmp, path));
    if let Err(e) = staged {
        let _ = io.remove(&tmp);
        return Err(e);
    }
    io.sync_dir(path.parent().unwrap_or(Path::new(".")))
}

fn tmp_path(path: &Path) -> PathBuf {
    let mut name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(".tmp");
    path.with_file_name(name)
}

#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    // Windows cannot open a directory for syncing; the rename itself is durable there.
    Ok(())
}

/// What reading one file found.
#[derive(Debug)]
enum Found {
    Missing,
    Valid {
        doc: Box<Doc>,
        from: u32,
        raw: Vec<u8>,
    },
    Bad(Bad, Vec<u8>),
    /// The file exists but could not be read (permissions, I/O error).
    Unreadable(String),
}

fn read(io: &dyn Io, path: &Path) -> Found {
    match io.read(path, MAX_FILE) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Found::Missing,
        // Over the size limit: not read (bounded memory), treated as damaged.
        Err(e) if e.kind() == io::ErrorKind::InvalidData => Found::Bad(
            Bad::Damaged(format!("{e}; larger than any save")),
            Vec::new(),
        ),
        Err(e) => Found::Unreadable(e.to_string()),
        Ok(raw) => match decode(&raw) {
            Ok((doc, from)) => Found::Valid {
                doc: Box::new(doc),
                from,
                raw,
            },
            Err(b) => Found::Bad(b, raw),
        },
    }
}

pub fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// Move a file aside as `<name>.<tag>-<unix ms>` (a fresh name if that exists).
fn move_aside(path: &Path, tag: &str) -> io::Result<PathBuf> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ms = unix_ms();
    for i in 0..1000u32 {
        let suffix = if i == 0 {
            String::new()
        } else {
            format!("-{i}")
        };
        let target = path.with_file_name(format!("{name}.{tag}-{ms}{suffix}"));
        if !target.exists() {
            fs::rename(path, &target)?;
            sync_dir(path.parent().unwrap_or(Path::new(".")))?;
            prune_aside(path);
            return Ok(target);
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free name to move the file aside",
    ))
}

/// Keep only the newest [`KEEP_ASIDE`] moved-aside copies of `path`.
fn prune_aside(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let prefix = format!("{}.", name.to_string_lossy());
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut aside: Vec<(SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.strip_prefix(&prefix)
                .is_some_and(|rest| rest.starts_with("corrupt-") || rest.starts_with("newer-"))
        })
        .map(|e| {
            (
                e.metadata()
                    .and_then(|m| m.modified())
                    .unwrap_or(UNIX_EPOCH),
                e.path(),
            )
        })
        .collect();
    if aside.len() > KEEP_ASIDE {
        aside.sort();
        for (_, p) in &aside[..aside.len() - KEEP_ASIDE] {
            let _ = fs::remove_file(p);
        }
    }
}

/// What [`recover`] decided.
#[derive(Debug, Clone)]
pub struct Recovered {
    pub doc: Doc,
    pub notices: Vec<Notice>,
    /// False when a file could not be read or moved aside: then nothing may be written
    /// (writing could destroy the player's data), and a notice says so.
    pub writable: bool,
}

/// Check the files before anything else touches them; choose the newest valid state; keep
/// damaged files aside; leave both files holding the chosen state. Never panics, never
/// returns an empty state while a damaged file it could not move aside holds data.
pub fn recover(paths: &Paths) -> Recovered {
    recover_with(paths, &Real)
}

/// [`recover`] through an [`Io`]. Moving a damaged file aside still uses the real file
/// system (it needs a free name and the files' ages); with a simulated one it is skipped
/// (the file is then left in place and saving is off, as when a move fails).
pub fn recover_with(paths: &Paths, io: &dyn Io) -> Recovered {
    let mut notices = Vec::new();
    if let Err(e) = io.create_dir_all(&paths.dir) {
        notices.push(Notice::warning(
            "unreadable",
            format!(
                "cannot use the data folder {}: {e}; progress will not be saved",
                paths.dir.display()
            ),
        ));
        return Recovered {
            doc: fresh(),
            notices,
            writable: false,
        };
    }
    // A leftover temp file is an atomic write that never finished: the target is intact.
    for p in [&paths.store, &paths.good] {
        let _ = io.remove(&tmp_path(p));
    }
    let mut writable = true;
    let mut valid: Vec<(Doc, u32, Vec<u8>, &Path)> = Vec::new();
    let mut damaged_primary = false;
    // Damaged files that still parse when the checksum is not checked (last resort).
    let mut salvage: Vec<Doc> = Vec::new();
    for (path, label) in [
        (&paths.store, "progress file"),
        (&paths.good, "backup copy"),
    ] {
        match read(io, path) {
            Found::Missing => {}
            Found::Valid { doc, from, raw } => valid.push((*doc, from, raw, path.as_path())),
            Found::Unreadable(e) => {
                writable = false;
                notices.push(Notice::warning(
                    "unreadable",
                    format!("the {label} {} cannot be read ({e}); progress will not be saved until this is fixed", path.display()),
                ));
            }
            Found::Bad(bad, raw) => {
                if path == &paths.store {
                    damaged_primary = true;
                }
                if let (Bad::Damaged(_), Ok((doc, _))) = (&bad, decode_with(&raw, false)) {
                    salvage.push(doc);
                }
                let (tag, why) = match &bad {
                    Bad::Damaged(w) => ("corrupt", w.clone()),
                    Bad::Newer(w) => ("newer", w.clone()),
                };
                let moved = if io.is_real() {
                    move_aside(path, tag)
                } else {
                    Err(io::Error::other("not on the real file system"))
                };
                match moved {
                    Ok(kept) => notices.push(Notice::warning(
                        "kept_aside",
                        format!(
                            "the {label} was not usable ({why}); it is kept at {}",
                            kept.display()
                        ),
                    )),
                    Err(e) => {
                        writable = false;
                        notices.push(Notice::warning(
                            "unreadable",
                            format!("the {label} is not usable ({why}) and could not be moved aside ({e}); progress will not be saved"),
                        ));
                    }
                }
            }
        }
    }
    // The newest valid state wins (the good copy is written first, so it is never older).
    valid.sort_by_key(|(doc, ..)| std::cmp::Reverse(doc.gen));
    let chosen = valid.first();
    let doc = match chosen {
        Some((doc, from, raw, src)) => {
            if damaged_primary {
                notices.push(Notice::warning(
                    "restored",
                    format!(
                        "your progress was restored from the last good copy (save #{}); the app was probably closed while saving",
                        doc.gen
                    ),
                ));
            }
            if *from < SCHEMA && writable {
                let bak = paths.dir.join(format!("huarong.schema-{from}.bak.json"));
                if matches!(io.read(&bak, 0), Err(e) if e.kind() == io::ErrorKind::NotFound) {
                    if let Err(e) = write_atomic_io(io, &bak, raw) {
                        notices.push(Notice::warning(
                            "save_failed",
                            format!("could not keep a copy of the old file: {e}"),
                        ));
                    }
                }
                notices.push(Notice::info(
                    "migrated",
                    format!("progress upgraded from format {from} to {SCHEMA} (the old file is kept at {}) [{}]", bak.display(), src.display()),
                ));
            }
            doc.clone()
        }
        None => match salvage.into_iter().max_by_key(|d| d.gen) {
            Some(doc) => {
                notices.push(Notice::warning(
                    "salvaged",
                    format!(
                        "both copies of your progress were damaged; the most complete one (save #{}) was read even though its check failed, so some values may be wrong",
                        doc.gen
                    ),
                ));
                doc
            }
            None => fresh(),
        },
    };
    if writable {
        // Leave both files holding the chosen state in the current format, unless they
        // already do (the common case: nothing to write at start).
        let up_to_date = |p: &Path| {
            valid
                .iter()
                .any(|(d, from, _, src)| *src == p && d.gen == doc.gen && *from == SCHEMA)
        };
        if !(up_to_date(&paths.good) && up_to_date(&paths.store)) {
            let bytes = encode(&doc);
            for p in [&paths.good, &paths.store] {
                if let Err(e) = write_atomic_io(io, p, &bytes) {
                    // Saving stays on: both files still hold whole states (atomic writes),
                    // and the writer tries again with every change.
                    notices.push(Notice::warning(
                        "save_failed",
                        format!(
                            "could not write {}: {e}; the app keeps trying to save",
                            p.display()
                        ),
                    ));
                    break;
                }
            }
        }
    }
    Recovered {
        doc,
        notices,
        writable,
    }
}

fn fresh() -> Doc {
    Doc {
        gen: 0,
        progress: Progress::default(),
    }
}

/// Where the writer puts the primary copy after the good copy: the store plugin in the app,
/// a plain in-place file write (what the plugin does) in tests.
pub trait Primary: Send + 'static {
    fn save(&mut self, envelope: &Value, bytes: &[u8]) -> Result<(), String>;
}

/// Writes the primary the way `tauri-plugin-store` does: `fs::write`, in place, no fsync.
pub struct InPlaceFile(pub PathBuf);

impl Primary for InPlaceFile {
    fn save(&mut self, _envelope: &Value, bytes: &[u8]) -> Result<(), String> {
        fs::write(&self.0, bytes).map_err(|e| e.to_string())
    }
}

/// [`InPlaceFile`] through an [`Io`] (fault tests): truncate, write, no fsync.
pub struct InPlaceIo(pub Arc<dyn Io>, pub PathBuf);

impl Primary for InPlaceIo {
    fn save(&mut self, _envelope: &Value, bytes: &[u8]) -> Result<(), String> {
        self.0
            .create(&self.1)
            .and_then(|()| self.0.append(&self.1, bytes))
            .map_err(|e| e.to_string())
    }
}

#[derive(Default)]
struct WriterState {
    pending: Option<Doc>,
    busy: bool,
    durable: u64,
    error: Option<String>,
    stop: bool,
}

struct Shared {
    state: Mutex<WriterState>,
    cv: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, WriterState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The background saver: `submit` never blocks on I/O; only the newest pending state is
/// written (coalescing); each write is good copy (atomic) first, then the primary.
pub struct Writer {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Writer {
    pub fn start(paths: Paths, primary: Box<dyn Primary>, durable: u64) -> Writer {
        Self::start_with(paths, primary, durable, Arc::new(Real))
    }

    /// [`Writer::start`] with the good copy written through `io` (fault tests).
    pub fn start_with(
        paths: Paths,
        mut primary: Box<dyn Primary>,
        durable: u64,
        io: Arc<dyn Io>,
    ) -> Writer {
        let shared = Arc::new(Shared {
            state: Mutex::new(WriterState {
                durable,
                ..Default::default()
            }),
            cv: Condvar::new(),
        });
        let s = shared.clone();
        let thread = std::thread::Builder::new()
            .name("huarong-save".into())
            .spawn(move || loop {
                let doc = {
                    let mut st = s.lock();
                    while st.pending.is_none() && !st.stop {
                        st = s.cv.wait(st).unwrap_or_else(|e| e.into_inner());
                    }
                    match st.pending.take() {
                        Some(d) => {
                            st.busy = true;
                            d
                        }
                        None => break,
                    }
                };
                let env = envelope(&doc);
                let bytes = serde_json::to_vec_pretty(&json!({ "save": env })).unwrap_or_default();
                let result = write_atomic_io(io.as_ref(), &paths.good, &bytes)
                    .map_err(|e| format!("could not write {}: {e}", paths.good.display()))
                    .and_then(|()| primary.save(&env, &bytes));
                let mut st = s.lock();
                st.busy = false;
                match result {
                    Ok(()) => {
                        st.durable = st.durable.max(doc.gen);
                        st.error = None;
                    }
                    Err(e) => {
                        st.error = Some(e);
                        if st.pending.is_none() {
                            st.pending = Some(doc);
                        }
                        if !st.stop {
                            // Back off before trying again (disk full, permissions…).
                            st =
                                s.cv.wait_timeout(st, Duration::from_millis(500))
                                    .map(|r| r.0)
                                    .unwrap_or_else(|e| e.into_inner().0);
                        } else {
                            st.pending = None;
                        }
                    }
                }
                drop(st);
                s.cv.notify_all();
            })
            .expect("spawn the save thread");
        Writer {
            shared,
            thread: Some(thread),
        }
    }

    /// Queue `doc` to be saved (replacing any older pending one).
    pub fn submit(&self, doc: Doc) {
        let mut st = self.shared.lock();
        if st.pending.as_ref().is_none_or(|p| p.gen <= doc.gen) {
            st.pending = Some(doc);
        }
        drop(st);
        self.shared.cv.notify_all();
    }

    /// The gen of the newest state known to be on disk.
    pub fn durable(&self) -> u64 {
        self.shared.lock().durable
    }

    /// The last write error, if the last attempt failed.
    pub fn error(&self) -> Option<String> {
        self.shared.lock().error.clone()
    }

    /// Wait until `gen` is on disk; false on timeout.
    pub fn wait_durable(&self, gen: u64, timeout: Duration) -> bool {
        let deadline = std::time::Instant::now() + timeout;
        let mut st = self.shared.lock();
        while st.durable < gen {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return false;
            }
            st = self
                .shared
                .cv
                .wait_timeout(st, left)
                .map(|r| r.0)
                .unwrap_or_else(|e| e.into_inner().0);
        }
        true
    }

    /// Write what is pending and stop the thread.
    pub fn stop(&mut self) {
        self.shared.lock().stop = true;
        self.shared.cv.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Decode a file into its top-level object without verifying (for tests and tools).
pub fn raw_object(bytes: &[u8]) -> Option<Map<String, Value>> {
    serde_json::from_slice(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmpdir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "huarong-persist-{name}-{}-{}",
            std::process::id(),
            unix_ms()
        ));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    fn doc(gen: u64, screen: &str) -> Doc {
        Doc {
            gen,
            progress: Progress {
                screen: screen.into(),
                ..Default::default()
            },
        }
    }

    #[test]
    fn encode_decode_round_trip() {
        let d = doc(7, "settings");
        let (back, from) = decode(&encode(&d)).unwrap();
        assert_eq!(back, d);
        assert_eq!(from, SCHEMA);
    }

    #[test]
    fn checksum_catches_a_changed_byte() {
        let bytes = encode(&doc(3, "settings"));
        let text = String::from_utf8(bytes)
            .unwrap()
            .replace("settings", "settingz");
        assert!(matches!(decode(text.as_bytes()), Err(Bad::Damaged(m)) if m.contains("checksum")));
    }

    #[test]
    fn every_truncation_is_detected() {
        let bytes = encode(&doc(3, "home"));
        // The encoding ends with `}` (no trailing newline), so every strict prefix is cut.
        for n in 0..bytes.len() {
            assert!(decode(&bytes[..n]).is_err(), "truncated at {n} accepted");
        }
    }

    #[test]
    fn recover_prefers_newest_and_keeps_damage_aside() {
        let dir = tmpdir("recover");
        let paths = Paths::new(&dir);
        write_atomic(&paths.good, &encode(&doc(5, "game:slide"))).unwrap();
        let full = encode(&doc(5, "game:slide"));
        fs::write(&paths.store, &full[..full.len() / 2]).unwrap();
        let r = recover(&paths);
        assert!(r.writable);
        assert_eq!(r.doc, doc(5, "game:slide"));
        assert!(r.notices.iter().any(|n| n.code == "restored"));
        assert!(r.notices.iter().any(|n| n.code == "kept_aside"));
        let aside: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().contains(".corrupt-"))
            .collect();
        assert_eq!(aside.len(), 1);
        assert_eq!(decode(&fs::read(&paths.store).unwrap()).unwrap().0.gen, 5);
        // A second start is clean.
        let r = recover(&paths);
        assert!(r.notices.is_empty(), "{:?}", r.notices);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn both_damaged_but_one_still_parses_is_salvaged_not_dropped() {
        let dir = tmpdir("salvage");
        let paths = Paths::new(&dir);
        let bytes = String::from_utf8(encode(&doc(9, "settings"))).unwrap();
        // A flipped value behind the checksum (still JSON) and a truncated copy.
        fs::write(&paths.good, bytes.replace("settings", "game:slide")).unwrap();
        fs::write(&paths.store, &bytes[..bytes.len() / 3]).unwrap();
        let r = recover(&paths);
        assert_eq!(r.doc.gen, 9);
        assert_eq!(r.doc.progress.screen, "game:slide");
        assert!(r.notices.iter().any(|n| n.code == "salvaged"));
        assert_eq!(
            r.notices.iter().filter(|n| n.code == "kept_aside").count(),
            2
        );
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn writer_coalesces_and_orders_good_before_primary() {
        let dir = tmpdir("writer");
        let paths = Paths::new(&dir);
        let mut w = Writer::start(paths.clone(), Box::new(InPlaceFile(paths.store.clone())), 0);
        for g in 1..=50 {
            w.submit(doc(g, "home"));
        }
        assert!(w.wait_durable(50, Duration::from_secs(10)));
        w.stop();
        assert_eq!(decode(&fs::read(&paths.good).unwrap()).unwrap().0.gen, 50);
        assert_eq!(decode(&fs::read(&paths.store).unwrap()).unwrap().0.gen, 50);
        let _ = fs::remove_dir_all(&dir);
    }
}
