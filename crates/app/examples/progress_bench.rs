//! Benchmark of the progress file at its statistics bound: 5,000 record
//! scopes (Klotski dailies and generated boards, the classics, every slide size, 2048), each
//! with its summary and a level record, histories up to their byte bound. It times what the
//! progress saver does for each save — serialise the state, write the good copy atomically
//! (temp file, fsync, rename, folder fsync), then the primary through the store plugin — on
//! the real file system, and what a finishing move adds on the main thread (the statistics'
//! bound and the copy handed to the saver).
//!
//! The primary is [`StoreModel`]: the steps `tauri-plugin-store` 2.5 takes for the app's
//! `StorePrimary` (src-tauri/src/lib.rs), with the same hooks, without Tauri. `parsed` as the
//! third argument models the primary before issue 23's fix instead (the file parsed into a
//! value tree, which the plugin cloned, serialised into its change event, and pretty-printed
//! into its file).
//!
//! Each save is what a finish hands the saver: half of them in the 4×4's scope (a full
//! history of 100 rows), half in a Klotski board's, each with its replay kept (300 of them).
//! Most saves are a line of the change log (`persist/log.rs`); the first, and one each time
//! the log passes its bound, writes the copies whole: both kinds are counted in the save
//! figures, and also shown apart.
//!
//! `cargo run --release -p huarong-core --example progress_bench [scopes] [saves] [store|parsed]`
//! (defaults 5000, 400, store). Prints the file sizes and p50 / p95 / max of each figure.

use huarong_core::persist::{self, Doc, Paths, Primary, Writer};
use huarong_core::progress::{FinishEntry, KeptReplay, Progress, Record};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The store plugin's change event (`store://change`): `Store::set` serialises it, with the
/// whole value, on every call (Tauri's `emit` serialises the payload before it looks for
/// listeners).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ChangePayload<'a> {
    path: &'a Path,
    resource_id: Option<u32>,
    key: &'a str,
    value: Option<&'a Value>,
    exists: bool,
}

/// What `StorePrimary` costs in the app: `Store::set(STORE_KEY, value)` (the value
/// is moved into the cache as a clone, and the change event is serialised) and
/// `Store::save()` (the folder is made, the serialize hook turns the cache into bytes, and
/// `fs::write` truncates and writes the file in place). Each step's time is kept.
struct StoreModel {
    path: PathBuf,
    cache: HashMap<String, Value>,
    /// The primary before issue 23's fix: the envelope parsed, the file pretty-printed.
    parsed: bool,
    set_times: Arc<Mutex<Vec<Duration>>>,
    times: Arc<Mutex<Vec<Duration>>>,
    emitted: Arc<Mutex<usize>>,
}

impl Primary for StoreModel {
    /// `StorePrimary::prepare`: `Store::set` (while the saver writes the good copy).
    fn prepare(&mut self, bytes: &[u8]) -> Result<(), String> {
        let t = Instant::now();
        let value = if self.parsed {
            let mut v: Value = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
            v["save"].take()
        } else {
            persist::store_value(bytes)?
        };
        // Store::set
        let key = persist::STORE_KEY.to_string();
        self.cache.insert(key.clone(), value.clone());
        let event = serde_json::to_string(&ChangePayload {
            path: &self.path,
            resource_id: Some(1),
            key: &key,
            value: Some(&value),
            exists: true,
        })
        .map_err(|e| e.to_string())?;
        *self.emitted.lock().unwrap() = event.len();
        self.set_times.lock().unwrap().push(t.elapsed());
        Ok(())
    }

    /// `StorePrimary::save`: `Store::save` (once the good copy is durable).
    fn save(&mut self, _bytes: &[u8]) -> Result<(), String> {
        let t = Instant::now();
        std::fs::create_dir_all(self.path.parent().unwrap()).map_err(|e| e.to_string())?;
        let out = if self.parsed {
            serde_json::to_vec_pretty(&self.cache).map_err(|e| e.to_string())?
        } else {
            persist::store_serialize(&self.cache).map_err(|e| e.to_string())?
        };
        std::fs::write(&self.path, out).map_err(|e| e.to_string())?;
        self.times.lock().unwrap().push(t.elapsed());
        Ok(())
    }
}

fn finish(i: u64, j: u64, rules: &[&str]) -> FinishEntry {
    FinishEntry {
        date: format!("2026-{:02}-{:02}", 1 + (j % 12), 1 + (i % 28)),
        at_ms: 1_760_000_000_000 + i * 86_400_000 + j * 60_000,
        moves: rules
            .iter()
            .enumerate()
            .map(|(k, r)| {
                (
                    r.to_string(),
                    (40 + (i * 7 + j * 3) % 60 + k as u64 * 5) as u32,
                )
            })
            .collect::<BTreeMap<_, _>>(),
        ms: 20_000 + (i * 7919 + j * 104_729) % 200_000,
        optimal: Some(40),
        splits: Vec::new(),
        won: j % 5 != 4,
        undo_used: j % 7 == 3,
        hints_used: (j % 11 == 5) as u32,
        auto_solved: false,
    }
}

/// A progress with `scopes` scopes: 40 classics and 3 fixed sizes played often, the rest
/// Klotski boards of dailies and generators played a few times each.
fn build(scopes: usize) -> Progress {
    let mut p = Progress::default();
    let klotski = ["piece", "straight", "unit"];
    for i in 0..scopes as u64 {
        let (scope, rules, plays): (String, &[&str], u64) = match i {
            0 => ("slide:4x4".into(), &["tile", "line"], 400),
            1 => ("slide:3x3".into(), &["tile", "line"], 300),
            2 => ("2048".into(), &["moves"], 200),
            3..=42 => (format!("klotski:classic-{i:02}-4x5"), &klotski, 40),
            _ => (
                // A start board in game-ID body form (4x5, 20 cells), one per daily/generated level.
                format!("klotski:4x5:{:020x}", i.wrapping_mul(0x9e37_79b9_7f4a_7c15)),
                &klotski,
                1 + i % 6,
            ),
        };
        let s = p.stats.entry(scope.clone()).or_default();
        for j in 0..plays {
            s.plays += 1;
            s.add(finish(i, j, rules), true);
        }
        p.records.insert(
            format!("{scope}/{}", rules[0]),
            Record {
                rule: rules[0].to_string(),
                best_moves: Some(40),
                best_time_ms: Some(20_000 + i),
                stars: 2,
                optimal: Some(38),
                wins: plays as u32,
                date: "2026-11-30".into(),
                ..Record::default()
            },
        );
    }
    p.sanitize();
    p
}

/// The move log kept of finish `n`, as long as a 4×4 solve's.
fn replay(n: u64) -> KeptReplay {
    KeptReplay {
        at_ms: 1_760_000_000_000 + n * 60_000,
        id: "slide:4x4:0,12,9,13,15,11,10,14,3,7,2,5,4,8,6,1".into(),
        log: format!("{n:x}").repeat(40).chars().take(120).collect(),
        scope: "slide:4x4".into(),
        times: String::new(),
    }
}

fn pct(mut v: Vec<Duration>) -> String {
    if v.is_empty() {
        return "none".into();
    }
    v.sort();
    let at = |q: f64| v[((v.len() as f64 - 1.0) * q).round() as usize];
    format!(
        "p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        at(0.5).as_secs_f64() * 1e3,
        at(0.95).as_secs_f64() * 1e3,
        at(1.0).as_secs_f64() * 1e3
    )
}

fn main() {
    let mut args = std::env::args().skip(1);
    let scopes: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(5000);
    let saves: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(400);
    let parsed = args.next().is_some_and(|a| a == "parsed");
    let t = Instant::now();
    let mut p = build(scopes);
    for i in 0..300 {
        p.replays.add(replay(i));
    }
    let rows: usize = p.stats.values().map(|s| s.history.len()).sum();
    println!(
        "built {} scopes ({} history rows, {} records) in {:.1} s",
        p.stats.len(),
        rows,
        p.records.len(),
        t.elapsed().as_secs_f64()
    );
    let hist: usize = p
        .stats
        .values()
        .map(|s| serde_json::to_vec(&s.history).unwrap().len())
        .sum();
    let recent: usize = p
        .stats
        .values()
        .map(|s| serde_json::to_vec(&s.recent).unwrap().len())
        .sum();
    let stats = serde_json::to_vec(&p.stats).unwrap().len();
    let records = serde_json::to_vec(&p.records).unwrap().len();
    println!("bytes: statistics {stats} (histories {hist}, recent wins {recent}), level records {records}");
    assert!(p.stats.len() >= scopes.min(huarong_core::progress::MAX_SCOPES));

    let dir = std::env::temp_dir().join(format!("huarong-progress-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let paths = Paths::new(&dir);
    let store_times = Arc::new(Mutex::new(Vec::new()));
    let set_times = Arc::new(Mutex::new(Vec::new()));
    let emitted = Arc::new(Mutex::new(0));
    let writer = Writer::start(
        paths.clone(),
        Box::new(StoreModel {
            path: paths.store.clone(),
            cache: HashMap::new(),
            parsed,
            set_times: set_times.clone(),
            times: store_times.clone(),
            emitted: emitted.clone(),
        }),
        0,
    );
    let (mut save, mut main, mut encode) = (Vec::new(), Vec::new(), Vec::new());
    let (mut lines, mut wholes, mut line_bytes) = (Vec::new(), Vec::new(), Vec::new());
    let mut size_enc = 0;
    let (mut log_len, mut since_whole) = (0, 0);
    for n in 1..=saves as u64 {
        // A finishing move's share on the main thread: the finish into its scope (and the
        // bound), its replay kept, then the copy handed to the saver.
        let t = Instant::now();
        let scope = match n % 2 {
            0 => "slide:4x4".to_string(),
            _ => format!(
                "klotski:4x5:{:020x}",
                (n + 100).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ),
        };
        let rules: &[&str] = match n % 2 {
            0 => &["tile", "line"],
            _ => &["piece", "straight", "unit"],
        };
        p.stats
            .entry(scope.clone())
            .or_default()
            .add(finish(n, 1, rules), true);
        p.replays.add(replay(1_000 + n));
        p.sanitize();
        let doc = Doc {
            gen: n,
            progress: p.clone(),
        };
        main.push(t.elapsed());
        // Serialising the whole file alone (what a whole save does first), on a copy whose
        // changed scope is its own (not the one the saver is handed): every other scope's
        // text is kept from the last save, as the saver finds them.
        let mut alone = doc.clone();
        if let Some(s) = alone.progress.stats.get_mut(&scope) {
            // A mutable access: the copy gets a scope of its own, without kept text.
            std::ops::DerefMut::deref_mut(s);
        }
        let t = Instant::now();
        let bytes = persist::encode(&alone);
        encode.push(t.elapsed());
        size_enc = bytes.len();
        // The saver's share: a line of the log, or serialise, good copy (atomic), primary.
        let t = Instant::now();
        writer.submit(doc);
        assert!(writer.wait_durable(n, Duration::from_secs(30)), "save {n}");
        let took = t.elapsed();
        save.push(took);
        let now = std::fs::metadata(&paths.log).map(|m| m.len()).unwrap_or(0);
        if now > log_len {
            lines.push(took);
            line_bytes.push(now - log_len);
            since_whole += 1;
        } else {
            wholes.push(took);
            since_whole = 0;
        }
        log_len = now;
    }
    // The line's own steps, on the last state and one more finish.
    {
        let a = Doc {
            gen: 1,
            progress: p.clone(),
        };
        let mut b = Doc {
            gen: 2,
            progress: p.clone(),
        };
        b.progress
            .stats
            .entry("slide:4x4".into())
            .or_default()
            .add(finish(9_999, 1, &["tile", "line"]), true);
        b.progress.replays.add(replay(9_999));
        let t = Instant::now();
        let d = persist::log::diff(&a, &b).expect("diff");
        let t_diff = t.elapsed();
        let t = Instant::now();
        let line = persist::log::line(&d).expect("line");
        println!(
            "  a line's steps: diff {:.2} ms, text {:.2} ms ({} bytes)",
            t_diff.as_secs_f64() * 1e3,
            t.elapsed().as_secs_f64() * 1e3,
            line.len()
        );
    }
    // A start after a kill, with the log as it stands: read the copies, then the lines.
    let t = Instant::now();
    let latest = persist::latest(&paths, &huarong_core::fsio::Real).expect("a saved state");
    let start = t.elapsed();
    assert_eq!(latest.gen, saves as u64);
    assert_eq!(latest.progress.stats.len(), p.stats.len());
    drop(latest);
    let log_at_end = log_len;
    let (mut base, _) =
        persist::decode(&std::fs::read(&paths.good).expect("read")).expect("decode");
    let log_bytes = std::fs::read(&paths.log).expect("read the log");
    let t = Instant::now();
    let replayed = persist::log::replay(&mut base, &log_bytes);
    let replay_time = t.elapsed();
    assert_eq!(replayed.applied, since_whole);
    drop(base);
    let size = std::fs::metadata(&paths.good).map(|m| m.len()).unwrap_or(0);
    let store_size = std::fs::metadata(&paths.store)
        .map(|m| m.len())
        .unwrap_or(0);
    let t = Instant::now();
    let bytes = std::fs::read(&paths.good).expect("read the good copy");
    let (doc, _) = persist::decode(&bytes).expect("the file decodes");
    let load = t.elapsed();
    assert_eq!(doc.progress.stats.len(), p.stats.len());
    drop(doc);
    // The store's file is a save like the good copy (after the fix: the same bytes).
    let (store_doc, _) = persist::decode(&std::fs::read(&paths.store).expect("read the store"))
        .expect("the store's file decodes");
    assert!(store_doc.gen >= 1);
    drop(store_doc);
    println!(
        "file {:.2} MB ({} bytes)",
        size as f64 / (1 << 20) as f64,
        size
    );
    println!(
        "store file ({}) {:.2} MB ({store_size} bytes); change event {} bytes",
        if parsed {
            "parsed, pretty"
        } else {
            "text hooks"
        },
        store_size as f64 / (1 << 20) as f64,
        emitted.lock().unwrap()
    );
    let n_lines = lines.len();
    let n_wholes = wholes.len();
    line_bytes.sort();
    println!(
        "save, {saves} saves ({n_lines} lines of the log, {n_wholes} whole): {}",
        pct(save)
    );
    println!(
        "  a line (diff, append, fsync): {}; its size p50 {} B, max {} B",
        pct(lines),
        line_bytes.get(line_bytes.len() / 2).copied().unwrap_or(0),
        line_bytes.last().copied().unwrap_or(0)
    );
    println!(
        "  whole (serialise + good copy + store primary, log emptied): {}",
        pct(wholes)
    );
    println!(
        "  store primary's set, whole saves (beside the good copy's write and fsync): {}",
        pct(set_times.lock().unwrap().clone())
    );
    println!(
        "  store primary's save, whole saves (after the good copy): {}",
        pct(store_times.lock().unwrap().clone())
    );
    println!(
        "serialise the whole file alone: {} ({size_enc} bytes)",
        pct(encode)
    );
    println!("main thread per finish (bound + copy): {}", pct(main));
    println!("load (read + decode): {:.1} ms", load.as_secs_f64() * 1e3);
    println!(
        "start after a kill (both copies read and checked, then {log_at_end} bytes of log lines): {:.1} ms; the lines alone {:.1} ms",
        start.as_secs_f64() * 1e3,
        replay_time.as_secs_f64() * 1e3
    );
    let t = Instant::now();
    writer.stop();
    println!(
        "stop (the log written into the copies): {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    let _ = std::fs::remove_dir_all(&dir);
}
