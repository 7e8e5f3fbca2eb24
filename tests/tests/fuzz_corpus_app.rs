//! Replays the app fuzzers' regression corpus (`fuzz/regressions/{progress_file,
//! journal_records,journal_snapshot}/*`) through the same target functions `cargo fuzz` runs
//! (`fuzz/src/app.rs`, included here), so every input that once crashed, or that covers a
//! decoder's corner, is checked by a normal `cargo test -p huarong-tests`.
//!
//! The seeds are made by the app's own writers (`persist::encode`, the journal on a simulated
//! file system): `seeds()` builds them, `fresh_seeds_pass_the_targets` runs them, and
//! `cargo test -p huarong-tests --test fuzz_corpus_app -- --ignored write_seeds` writes them
//! as `fuzz/regressions/<target>/seed-*`.

#[path = "../../fuzz/src/app.rs"]
mod targets;

use huarong_core::fsio::sim::Sim;
use huarong_core::journal::{self, Journal, GAMES_DIR};
use huarong_core::persist::{self, Doc};
use huarong_core::progress::Progress;
use huarong_engine::g2048::G2048;
use huarong_engine::klotski::Klotski;
use huarong_engine::slide::Slide;
use huarong_engine::{Cancel, Game, Session};
use serde_json::{json, Value};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, Once};
use std::time::Duration;

/// Panics on any thread (the journal's writer thread too: a panic there is swallowed by its
/// `join`, but the fuzzer aborts on it, so the replay must fail on it as well).
static PANICS: AtomicUsize = AtomicUsize::new(0);
/// The tests of this file one at a time (the panic count is global).
static SERIAL: Mutex<()> = Mutex::new(());

fn count_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            default(info);
        }));
    });
}

/// Run `target` on `data`; the panics it caused (on any thread), as a failure message.
fn run(name: &str, what: &str, target: targets::Target, data: &[u8]) -> Option<String> {
    let before = PANICS.load(Ordering::SeqCst);
    let caught = std::panic::catch_unwind(|| target(data)).is_err();
    let panics = PANICS.load(Ordering::SeqCst) - before;
    (caught || panics > 0).then(|| format!("{name}: {what} panics ({panics} panics)"))
}

#[test]
fn every_app_regression_input_runs_clean() {
    let _one = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    count_panics();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions");
    let mut failed = Vec::new();
    for &(name, target) in targets::TARGETS {
        let dir = root.join(name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert!(files.len() >= 3, "too few regression inputs for {name}");
        for f in &files {
            let data = std::fs::read(f).unwrap();
            failed.extend(run(name, &f.display().to_string(), target, &data));
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

#[test]
fn fresh_seeds_pass_the_targets() {
    let _one = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    count_panics();
    let mut failed = Vec::new();
    for (name, file, data) in seeds() {
        let target = targets::TARGETS.iter().find(|t| t.0 == name).unwrap().1;
        failed.extend(run(name, &file, target, &data));
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

/// The targets catch what they claim to: a snapshot whose recovery the model disagrees with
/// would fail, and a bad input is not a failure.
#[test]
fn the_targets_are_not_vacuous() {
    let _one = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    count_panics();
    let (snap, jnl) = slide_slot();
    let journal_records = targets::TARGETS[1].1;
    // Hostile bytes are rejected without a failure.
    for data in [&b""[..], b"\x00", b"\x01{\n\xff\xff", b"\x02[]\nnot json"] {
        assert!(run("journal_records", "hostile", journal_records, data).is_none());
    }
    // The recovered slot is what the journal wrote: the model agrees with the real recovery
    // on a real journal (else every journal input would fail).
    let mut raw = vec![1u8];
    raw.extend(saved_line(&snap));
    raw.push(b'\n');
    raw.extend(&jnl);
    assert!(run("journal_records", "real journal", journal_records, &raw).is_none());
    let decoded = journal::decode_records(&jnl);
    assert!(decoded.records.len() >= 3 && decoded.valid == jnl.len());
}

#[test]
#[ignore = "writes the seed files; run by hand after a format change"]
fn write_seeds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions");
    for (name, file, data) in seeds() {
        let dir = root.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(file), data).unwrap();
    }
}

/// Every seed: (target, file name, bytes).
fn seeds() -> Vec<(&'static str, String, Vec<u8>)> {
    let mut out = Vec::new();
    for (file, data) in progress_seeds() {
        out.push(("progress_file", file, data));
    }
    for (file, data) in journal_seeds() {
        out.push(("journal_records", file, data));
    }
    for (file, data) in snapshot_seeds() {
        out.push(("journal_snapshot", file, data));
    }
    out
}

/// 横刀立马, the first classic layout.
const KLOTSKI: &str = "klotski:aCCb/aCCb/cdde/cfge/h..i";

/// A saved session after `n` moves of `id`'s solution (or its hints, for 2048).
fn played<G: Game>(id: &str, n: usize) -> Session<G> {
    let mut s = Session::<G>::open(id).expect("a seed's game ID opens");
    for i in 0..n {
        let mv = s.hint(&Cancel::new()).expect("a hint").mv;
        s.play(&mv, 1000 * (i as u64 + 1)).expect("a hint plays");
    }
    s
}

fn progress_seeds() -> Vec<(String, Vec<u8>)> {
    let slide = serde_json::to_value(played::<Slide>("slide:3x3#7", 4).save(5000)).unwrap();
    let g2048 = serde_json::to_value(played::<G2048>("2048:#11", 3).save(4000)).unwrap();
    let rich: Progress = serde_json::from_value(json!({
        "settings": {"language": "zh", "haptics": false, "sound": true, "theme": "dark",
                     "pad": true, "rules": {"slide": "line", "klotski": "piece"}},
        "records": {
            "slide:3x3/line": {"rule": "line", "best_moves": 21, "best_time_ms": 30500,
                               "stars": 0, "wins": 3, "date": "2026-11-30"},
            "klotski:1/piece": {"rule": "piece", "best_moves": 81, "optimal": 81, "stars": 3,
                                "wins": 1, "date": "2026-12-01", "undo_used": true},
            "2048/moves": {"rule": "moves", "best_score": 20480, "best_tile": 2048, "wins": 1}
        },
        "unlocked": {"klotski": 4},
        "streaks": {"2048": {"current": 2, "best": 5, "last": "2026-12-01"}},
        "games": {"slide": slide, "2048": g2048},
        "screen": "game:slide",
        "current": {"slide": "slide:3x3", "2048": "2048:free"},
        "settled": {"klotski:1": "klotski:1@81"},
        "stats": {"slide:3x3": {"plays": 4, "wins": 3, "best_moves": {"line": 21},
                  "best_ms": 30500, "last_ms": 1764547200000u64,
                  "history": [{"date": "2026-11-30", "at_ms": 1764547200000u64,
                               "moves": {"tile": 25, "line": 21}, "ms": 30500, "won": true}]}},
        "challenges": {"slide:3x3": {"id": "slide:3x3#7", "moves": 20, "ms": 25000}}
    }))
    .expect("the seed progress parses");
    let fresh = persist::encode(&Doc {
        gen: 1,
        progress: Progress::default(),
    });
    let full = persist::encode(&Doc {
        gen: 42,
        progress: rich,
    });
    let v0 = serde_json::to_vec(&json!({
        "settings": {"lang": "en", "haptics": true, "sound": false, "theme": "light",
                     "slideCount": "tile", "klotskiCount": "piece"},
        "best": {"slide:4x4": {"moves": 80, "ms": 61000}, "2048": {"score": 20000, "tile": 2048}},
        "saved": {"slide": serde_json::to_value(played::<Slide>("slide:3x3#2", 2).save(900)).unwrap()},
        "klotskiUnlocked": 3,
        "screen": "home"
    }))
    .unwrap();
    // A file torn by a kill in the middle of the plugin's in-place rewrite.
    let torn = full[..full.len() * 2 / 3].to_vec();
    // A bare progress object (the target seals it into a current envelope).
    let bare = serde_json::to_vec(&json!({"screen": "levels:klotski", "unlocked": {"klotski": 2}}))
        .unwrap();
    vec![
        ("seed-fresh".into(), fresh),
        ("seed-full".into(), full),
        ("seed-v0".into(), v0),
        ("seed-torn".into(), torn),
        ("seed-bare".into(), bare),
    ]
}

/// The files the journal writes for one slot: `put` the session after `before` moves, then
/// `append` one delta per move for `after` more moves. (snapshot, journal) bytes.
fn journal_files<G: Game>(key: &str, id: &str, before: usize, after: usize) -> (Vec<u8>, Vec<u8>) {
    let sim = Sim::new();
    let data = Path::new("/seed");
    let (j, _, _) = Journal::open(data, sim.io());
    let mut s = played::<G>(id, before);
    let header = |n: usize| {
        json!({"kind": G::KIND.as_str(), "mode": "free", "updated_ms": 1000 * n as u64,
               "counted_win": false})
    };
    j.put(key, header(0), serde_json::to_value(s.save(500)).unwrap());
    // Saved before the moves come (else the writer may fold them all into the snapshot).
    assert!(j.flush(Duration::from_secs(10)), "the seed snapshot saved");
    let _ = s.take_delta(500);
    for i in 0..after {
        let mv = s.hint(&Cancel::new()).expect("a hint").mv;
        let now = 10_000 + 1000 * i as u64;
        s.play(&mv, now).expect("a hint plays");
        if i == 1 {
            s.undo(now + 100).expect("an undo");
        }
        j.append(
            key,
            header(i + 1),
            serde_json::to_value(s.take_delta(now + 200)).unwrap(),
        );
    }
    assert!(j.flush(Duration::from_secs(10)), "the seed journal saved");
    j.shutdown();
    let dir = data.join(GAMES_DIR);
    let stem = journal::stem(key);
    let snap = sim
        .contents(&dir.join(format!("{stem}.snap")))
        .expect("a snapshot");
    let jnl = sim
        .contents(&dir.join(format!("{stem}.1.jnl")))
        .expect("a journal");
    (snap, jnl)
}

fn slide_slot() -> (Vec<u8>, Vec<u8>) {
    journal_files::<Slide>(targets::KEY, "slide:3x3#7", 2, 5)
}

/// The `saved` of a snapshot file, as one line of JSON.
fn saved_line(snap: &[u8]) -> Vec<u8> {
    let payload: Value = serde_json::from_slice(journal::decode_snapshot(snap).unwrap()).unwrap();
    serde_json::to_vec(&payload["saved"]).unwrap()
}

fn journal_seeds() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let slots = [
        ("slide", slide_slot()),
        (
            "klotski",
            journal_files::<Klotski>(targets::KEY, KLOTSKI, 0, 4),
        ),
        (
            "2048",
            journal_files::<G2048>(targets::KEY, "2048:#11", 1, 4),
        ),
    ];
    for (name, (snap, jnl)) in slots {
        let saved = saved_line(&snap);
        // Sealed lines: one record payload per line.
        let mut lines = vec![0u8];
        lines.extend(&saved);
        for r in journal::decode_records(&jnl).records {
            assert!(!r.contains(&b'\n'), "a record payload is one line");
            lines.push(b'\n');
            lines.extend(r);
        }
        out.push((format!("seed-{name}-lines"), lines));
        // The journal verbatim.
        let mut raw = vec![1u8];
        raw.extend(&saved);
        raw.push(b'\n');
        raw.extend(&jnl);
        out.push((format!("seed-{name}-raw"), raw.clone()));
        if name == "slide" {
            // Torn in the last record; and damaged in the second (a flipped byte).
            out.push(("seed-slide-torn".into(), raw[..raw.len() - 7].to_vec()));
            let second =
                1 + saved.len() + 1 + 8 + journal::decode_records(&jnl).records[0].len() + 12;
            let mut bad = raw.clone();
            bad[second] ^= 0x20;
            out.push(("seed-slide-damaged".into(), bad));
        }
    }
    out
}

fn snapshot_seeds() -> Vec<(String, Vec<u8>)> {
    let (snap, _) = slide_slot();
    let (ksnap, _) = journal_files::<Klotski>("klotski:1", KLOTSKI, 3, 0);
    let (gsnap, _) = journal_files::<G2048>("2048:daily:2026-12-01", "2048:#5", 2, 0);
    let mut out = Vec::new();
    for (name, s) in [("slide", &snap), ("klotski", &ksnap), ("2048", &gsnap)] {
        let mut sealed = vec![0u8];
        sealed.extend(journal::decode_snapshot(s).unwrap());
        out.push((format!("seed-{name}-payload"), sealed));
        let mut raw = vec![1u8];
        raw.extend(s.iter());
        out.push((format!("seed-{name}-file"), raw));
    }
    // With an (empty) journal beside it.
    let mut with_journal = vec![2u8];
    with_journal.extend(journal::decode_snapshot(&snap).unwrap());
    out.push(("seed-slide-journal".into(), with_journal));
    out
}
