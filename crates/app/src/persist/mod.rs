//! File-level durability of the player's progress, usable without a running app (the kill
//! test drives this module from a child process).
//!
//! Two files in the data directory:
//! - `huarong.json`, the **primary**: the `tauri-plugin-store` file. The plugin's `save()`
//!   truncates and rewrites it in place (no temp file, no fsync) — so it can be damaged by a
//!   kill and must be checked before the plugin opens it. The plugin is given the file's
//!   text as one string and hooks that write it back as it is ([`store_value`],
//!   [`store_serialize`], [`store_deserialize`]): its file holds the same bytes as the good
//!   copy.
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
//! newest pending state is written) and appends what changed to the change log
//! `huarong.log` ([`log`]); now and then (the log's size, the first save after a start, a
//! failed write) it writes the whole state instead: the good copy, then the primary, then
//! empties the log. [`recover`] applies the log to the newest valid copy.

pub mod log;
mod recover;
#[cfg(test)]
mod tests;
mod writer;

pub use crate::views::Notice;
pub use log::LOG_FILE;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use recover::{recover, recover_with};
pub use recover::{recover_at, Recovered};
pub use writer::{
    Gate, InPlaceIo, Primary, Writer, GATE_WAIT, MUTANT_SITES, RETRY_FIRST, RETRY_MAX,
};

use crate::fsio::Io;
use crate::progress::{self, Progress, SCHEMA};
use serde_json::{json, Map, Value};
use std::io;
use std::path::{Path, PathBuf};

/// The environment variable that redirects all app data (tests, portable installs).
pub const ENV_DIR: &str = "HUARONG_DATA_DIR";
pub const STORE_FILE: &str = "huarong.json";
pub const GOOD_FILE: &str = "huarong.good.json";
/// A file bigger than this is not a save of ours (three maximal move logs are ~20 MB).
pub const MAX_FILE: u64 = 64 << 20;
/// Largest `gen` a loaded file keeps (a hostile huge one is cut to this; each save adds one).
pub const MAX_GEN: u64 = 1 << 53;
/// How many `*.corrupt-*` files, and separately how many `*.newer-*` files, are kept (the
/// oldest of the same kind beyond are removed: damage never pushes out a newer app's save).
pub const KEEP_ASIDE: usize = 8;

/// One writer per data folder: take the folder's OS lock before anything
/// reads or repairs a file there. Another app holding it (a second launch whose request the
/// single-instance hand-over could not pass on: no D-Bus session on Linux) gets no paths —
/// it writes nothing there, so its start-up, checkpoints and exit cannot touch the first
/// one's live journal — and a `read_only` notice. (`AppState::open` then shows the saved
/// progress through [`latest`], which only reads.) A folder where the lock file
/// cannot even be made (read-only storage) is opened as before: its writes fail and say so.
pub fn claim(
    paths: Option<Paths>,
    io: &dyn Io,
) -> (Option<Paths>, Option<crate::fsio::DirLock>, Option<Notice>) {
    let Some(p) = paths else {
        return (None, None, None);
    };
    match io.lock_dir(&p.dir) {
        Ok(lock) => (Some(p), lock, None),
        Err(e) if e.kind() == io::ErrorKind::WouldBlock => (
            None,
            None,
            Some(Notice::warning(
                READ_ONLY,
                format!(
                    "Huarong is already running with this data folder ({}) and could not be handed this request; this window shows your records as they were last saved and saves nothing, so nothing of yours is lost: your games are in the other window",
                    p.dir.display()
                ),
            )),
        ),
        Err(_) => (Some(p), None, None),
    }
}

/// The notice of a second app on a data folder another one holds ([`claim`]).
pub const READ_ONLY: &str = "read_only";

/// Where the files live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paths {
    pub dir: PathBuf,
    pub store: PathBuf,
    pub good: PathBuf,
    /// The change log of the saves since the copies were last written ([`log`]).
    pub log: PathBuf,
}

impl Paths {
    pub fn new(dir: impl Into<PathBuf>) -> Paths {
        let dir = dir.into();
        Paths {
            store: dir.join(STORE_FILE),
            good: dir.join(GOOD_FILE),
            log: dir.join(LOG_FILE),
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

/// The checksum of a save: FNV-1a 64 over the schema, the gen and the progress' JSON, as 16
/// hex digits. It detects damage (bit flips, a half-old half-new file), not tampering.
pub fn checksum(schema: u32, gen: u64, progress: &Value) -> String {
    // Serializing a `Value` is deterministic for a given value, and a parse of our own
    // output gives back the same value, so writer and reader agree.
    checksum_of(
        schema,
        gen,
        &serde_json::to_vec(progress).unwrap_or_default(),
    )
}

/// [`checksum`] over the progress' compact JSON text in canonical form (keys in order).
pub fn checksum_of(schema: u32, gen: u64, progress_json: &[u8]) -> String {
    // FNV-1a 64 over the prefix, then the text (no copy of a few MB).
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let prefix = format!("huarong:{schema}:{gen}:");
    for &b in prefix.as_bytes().iter().chain(progress_json) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
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

/// The whole file (`{"save": envelope}`) as compact bytes, serialised once straight from
/// the struct (no `Value` in between: 5,000 scopes of statistics are a few MB). Every struct
/// of the progress declares its fields in key order and every map is a `BTreeMap`, so this
/// text is the canonical form the checksum is defined over: the reader's parse and
/// re-serialisation gives the same bytes (`persist/tests.rs` checks it on a progress with
/// every field set).
pub fn encode(doc: &Doc) -> Vec<u8> {
    encode_sized(doc, 0)
}

/// [`encode`] into a buffer of `hint` bytes to start with (the last save's size): the text
/// is written once, in place; the checksum's 16 digits are filled in after.
pub fn encode_sized(doc: &Doc, hint: usize) -> Vec<u8> {
    const SUM: &str = "0000000000000000";
    let mut out = Vec::with_capacity(hint.max(4096));
    out.extend_from_slice(b"{\"save\":{\"checksum\":\"");
    let at = out.len();
    out.extend_from_slice(SUM.as_bytes());
    out.extend_from_slice(format!("\",\"gen\":{},\"progress\":", doc.gen).as_bytes());
    let start = out.len();
    // Unchanged statistics are copied from the text kept since the last save.
    if progress::file_form(|| serde_json::to_writer(&mut out, &doc.progress)).is_err() {
        out.truncate(start);
        out.extend_from_slice(b"{}");
    }
    let sum = checksum_of(SCHEMA, doc.gen, &out[start..]);
    out[at..at + SUM.len()].copy_from_slice(sum.as_bytes());
    out.extend_from_slice(format!(",\"schema\":{SCHEMA}}}}}").as_bytes());
    out
}

/// The key under which the store plugin keeps the progress file.
pub const STORE_KEY: &str = "save";

/// What the store plugin is handed for a file (`set(STORE_KEY, …)`): the file's text as one
/// JSON string. The plugin clones the value it is given and serialises it into its change
/// event: for a string of a few MB that is a copy and one escaping pass, where the parsed
/// envelope was a tree of a hundred thousand values to build, clone and serialise (and
/// then to pretty-print into a file twice the size).
pub fn store_value(bytes: &[u8]) -> Result<Value, String> {
    String::from_utf8(bytes.to_vec())
        .map(Value::String)
        .map_err(|e| format!("the progress text is not UTF-8: {e}"))
}

/// The error type of the store plugin's serialize and deserialize hooks.
pub type StoreError = Box<dyn std::error::Error + Send + Sync>;

/// The store plugin's serialize hook (`StoreBuilder::serialize`): a cache that holds only
/// [`STORE_KEY`] as a string ([`store_value`]) is written as that text, byte for byte, so
/// the plugin's file is the same compact, checksummed file as the good copy; any other
/// cache as compact JSON.
pub fn store_serialize(
    cache: &std::collections::HashMap<String, Value>,
) -> Result<Vec<u8>, StoreError> {
    match (cache.len(), cache.get(STORE_KEY)) {
        (1, Some(Value::String(text))) => Ok(text.as_bytes().to_vec()),
        _ => Ok(serde_json::to_vec(cache)?),
    }
}

/// The store plugin's deserialize hook (`StoreBuilder::deserialize`): the file as its text
/// under [`STORE_KEY`], the form [`store_serialize`] writes back as it is. The app never
/// reads the plugin's cache ([`recover`] reads and checks the file before the plugin opens
/// it), so the file is not parsed a second time at start.
pub fn store_deserialize(
    bytes: &[u8],
) -> Result<std::collections::HashMap<String, Value>, StoreError> {
    Ok([(STORE_KEY.to_string(), store_value(bytes)?)].into())
}

/// The progress text of a file laid out as [`encode_sized`] writes it (`checksum`, `gen`,
/// `progress`, `schema`, compact), or `None` for any other layout.
fn raw_progress<'a>(bytes: &'a [u8], sum: &str, gen: u64, schema: u32) -> Option<&'a [u8]> {
    let end = bytes
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    let head = format!("{{\"save\":{{\"checksum\":\"{sum}\",\"gen\":{gen},\"progress\":");
    let tail = format!(",\"schema\":{schema}}}}}");
    bytes[..end]
        .strip_prefix(head.as_bytes())?
        .strip_suffix(tail.as_bytes())
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
        // The sum is over the progress text as `encode_sized` wrote it. That text is also the
        // canonical form of its parse as long as every struct declares its fields in key
        // order and no map has keys whose order differs as text (numbers: 9 < 10 but "10" <
        // "9"); the raw text is checked first, so a save stays readable even where that
        // rule is broken, and files of older writers (which summed the canonical form)
        // still verify.
        let raw_ok = raw_progress(bytes, want, gen, schema)
            .is_some_and(|raw| checksum_of(schema, gen, raw) == want);
        let got = if raw_ok {
            want.to_string()
        } else {
            checksum(schema, gen, progress)
        };
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

/// Write `bytes` to `path` atomically through the file layer: temp file in the same
/// directory, fsync, rename over `path`, fsync the directory. A reader sees the old file or
/// the new one, never a mix. A failed write removes its temp file.
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

/// Move a file aside as `<name>.<tag>-<unix ms>` (a fresh name if that exists), through the
/// file layer: rename, then make the folder's new entry durable.
fn move_aside(io: &dyn Io, path: &Path, tag: &str, wall_ms: u64) -> io::Result<PathBuf> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let dir = path.parent().unwrap_or(Path::new("."));
    let taken = io.list(dir)?;
    for i in 0..1000u32 {
        let suffix = if i == 0 {
            String::new()
        } else {
            format!("-{i}")
        };
        let target = format!("{name}.{tag}-{wall_ms}{suffix}");
        if !taken.contains(&target) {
            let target = path.with_file_name(target);
            io.rename(path, &target)?;
            io.sync_dir(dir)?;
            prune_aside(io, path, tag);
            return Ok(target);
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free name to move the file aside",
    ))
}

/// Keep only the newest [`KEEP_ASIDE`] copies of `path` moved aside with `tag` (by the time in
/// their names); copies of another tag are not counted nor touched (a pile of damaged files
/// never removes the save a newer app version wrote).
fn prune_aside(io: &dyn Io, path: &Path, tag: &str) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let prefix = format!("{}.{tag}-", name.to_string_lossy());
    let Ok(names) = io.list(dir) else {
        return;
    };
    // `<ms>` or `<ms>-<i>`: older first.
    let mut aside: Vec<((u64, u32), String)> = names
        .into_iter()
        .filter_map(|n| {
            let rest = n.strip_prefix(&prefix)?;
            let (ms, i) = rest.split_once('-').unwrap_or((rest, "0"));
            Some(((ms.parse().ok()?, i.parse().ok()?), n))
        })
        .collect();
    if aside.len() > KEEP_ASIDE {
        aside.sort();
        for (_, n) in &aside[..aside.len() - KEEP_ASIDE] {
            let _ = io.remove(&dir.join(n));
        }
    }
}

/// The newest saved state in `paths`, read without writing or moving anything: the newest
/// valid copy with the change log's lines applied ([`log::replay`]). `None` when no copy is
/// valid. For tests and tools; the app reads its files with [`recover_at`].
pub fn latest(paths: &Paths, io: &dyn Io) -> Option<Doc> {
    let mut doc = [&paths.good, &paths.store]
        .into_iter()
        .filter_map(|p| match read(io, p) {
            Found::Valid { doc, .. } => Some(*doc),
            _ => None,
        })
        .max_by_key(|d| d.gen)?;
    if let Ok(bytes) = io.read(&paths.log, MAX_FILE) {
        log::replay(&mut doc, &bytes);
    }
    Some(doc)
}

/// Decode a file into its top-level object without verifying (for tests and tools).
pub fn raw_object(bytes: &[u8]) -> Option<Map<String, Value>> {
    serde_json::from_slice(bytes).ok()
}
