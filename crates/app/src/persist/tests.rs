use super::*;
use std::fs;
use std::time::Duration;

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "huarong-persist-{name}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
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
    write_atomic_io(
        &crate::fsio::Real,
        &paths.good,
        &encode(&doc(5, "game:slide")),
    )
    .unwrap();
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
    let w = Writer::start(
        paths.clone(),
        Box::new(InPlaceIo(crate::fsio::real(), paths.store.clone())),
        0,
    );
    for g in 1..=50 {
        w.submit(doc(g, "home"));
    }
    assert!(w.wait_durable(50, Duration::from_secs(10)));
    w.stop();
    assert_eq!(decode(&fs::read(&paths.good).unwrap()).unwrap().0.gen, 50);
    assert_eq!(decode(&fs::read(&paths.store).unwrap()).unwrap().0.gen, 50);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn damaged_files_never_push_a_newer_apps_save_out_of_the_kept_aside_files() {
    let d = tmpdir("aside-pools");
    let store = d.join(STORE_FILE);
    fs::write(&store, b"{\"save\": {\"schema\": 99}}").unwrap();
    let newer = move_aside(&crate::fsio::Real, &store, "newer", 500).unwrap();
    for i in 0..KEEP_ASIDE + 3 {
        fs::write(&store, format!("damaged {i}")).unwrap();
        move_aside(&crate::fsio::Real, &store, "corrupt", 1000 + i as u64 / 2).unwrap();
    }
    let names: Vec<String> = fs::read_dir(&d)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let count = |tag: &str| names.iter().filter(|n| n.contains(tag)).count();
    assert!(
        newer.exists(),
        "the newer app's save was removed: {names:?}"
    );
    assert_eq!(count(".newer-"), 1, "{names:?}");
    assert_eq!(count(".corrupt-"), KEEP_ASIDE, "{names:?}");
    fs::remove_dir_all(&d).unwrap();
}

/// The progress text of a file as `encode` lays it out.
fn progress_text(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .windows(12)
        .position(|w| w == b"\"progress\":{")
        .unwrap()
        + 11;
    let end = bytes
        .windows(10)
        .rposition(|w| w == b",\"schema\":")
        .unwrap();
    &bytes[start..end]
}

#[test]
fn kept_statistics_text_is_the_text_of_the_current_value() {
    use crate::progress::FinishEntry;
    let row = |ms: u64, won: bool| FinishEntry {
        date: "2026-01-02".into(),
        at_ms: 1_000 + ms,
        moves: [("tile".to_string(), 30u32 + ms as u32)].into(),
        ms,
        won,
        ..FinishEntry::default()
    };
    let mut p = Progress::default();
    for (i, scope) in ["slide:3x3", "slide:4x4", "slide:5x5"].iter().enumerate() {
        let s = p.stats.entry(scope.to_string()).or_default();
        s.plays = 2;
        s.add(row(100 * i as u64 + 1, true), true);
        s.add(row(100 * i as u64 + 2, false), true);
    }
    let mut d = Doc {
        gen: 1,
        progress: p,
    };
    let plain = |d: &Doc| serde_json::to_vec(&d.progress).unwrap();
    assert!(d.progress.stats.values().all(|s| !s.has_text()));
    // The first save makes the texts; the second copies them: both write the plain text.
    let first = encode(&d);
    assert_eq!(progress_text(&first), plain(&d).as_slice());
    assert!(d.progress.stats.values().all(|s| s.has_text()));
    assert_eq!(encode(&d), first);
    // A copy handed to the saver shares the texts; a change drops the changed scope's own
    // (only that one), in the progress, while the copy keeps the old one for its save.
    let copy = d.clone();
    d.gen = 2;
    let s = d.progress.stats.get_mut("slide:4x4").unwrap();
    s.plays += 1;
    s.add(row(999, true), true);
    let texts: Vec<bool> = d.progress.stats.values().map(|s| s.has_text()).collect();
    assert_eq!(texts, [true, false, true]);
    assert!(copy.progress.stats.values().all(|s| s.has_text()));
    let second = encode(&d);
    assert_eq!(progress_text(&second), plain(&d).as_slice());
    assert_ne!(progress_text(&second), progress_text(&first));
    assert_eq!(decode(&second).unwrap().0, d);
    assert_eq!(encode(&copy), first);
    // Other serialisations (views) neither use nor make the kept text.
    let mut view = d.progress.clone();
    view.stats.get_mut("slide:3x3").unwrap().plays += 1;
    let _ = serde_json::to_vec(&view).unwrap();
    assert!(!view.stats["slide:3x3"].has_text());
}

#[test]
fn the_store_plugins_hooks_write_the_file_it_was_given_byte_for_byte() {
    let bytes = encode(&doc(11, "game:slide"));
    // What `StorePrimary` hands the plugin, and what the plugin's save then writes.
    let cache: std::collections::HashMap<String, Value> =
        [(STORE_KEY.to_string(), store_value(&bytes).unwrap())].into();
    assert_eq!(store_serialize(&cache).unwrap(), bytes);
    // A file the plugin loads is written back unchanged, without being parsed: damage
    // stays damage for the next start's check to find, never a silently dropped file.
    let cut = &bytes[..bytes.len() / 2];
    assert_eq!(
        store_serialize(&store_deserialize(cut).unwrap()).unwrap(),
        cut
    );
    assert!(store_value(&[0xff, 0xfe]).is_err());
    assert!(store_deserialize(&[0xff]).is_err());
    // Anything else in the cache is plain JSON.
    let other: std::collections::HashMap<String, Value> =
        [("a".to_string(), json!({"b": [1, 2]}))].into();
    assert_eq!(store_serialize(&other).unwrap(), br#"{"a":{"b":[1,2]}}"#);
    let mut two = cache.clone();
    two.insert("x".into(), json!(1));
    let v: Value = serde_json::from_slice(&store_serialize(&two).unwrap()).unwrap();
    assert_eq!(v["x"], 1);
    assert_eq!(
        v[STORE_KEY].as_str().map(str::as_bytes),
        Some(bytes.as_slice())
    );
}

/// Each call of [`Logged`]: its name, the doc's gen, and (saves) whether the good copy was
/// durable.
type CallLog = std::sync::Arc<std::sync::Mutex<Vec<(&'static str, u64, bool)>>>;

/// A primary that logs its calls and, at each save, whether the good copy already held the
/// bytes durably (what a power loss at that instant would keep).
struct Logged {
    sim: crate::fsio::sim::Sim,
    good: PathBuf,
    log: CallLog,
}

impl Primary for Logged {
    fn prepare(&mut self, bytes: &[u8]) -> Result<(), String> {
        let gen = decode(bytes).unwrap().0.gen;
        self.log.lock().unwrap().push(("prepare", gen, false));
        Ok(())
    }
    fn save(&mut self, bytes: &[u8]) -> Result<(), String> {
        let gen = decode(bytes).unwrap().0.gen;
        let kept = self.sim.power_loss(crate::fsio::sim::Loss::Clean);
        let durable = kept.contents(&self.good).as_deref() == Some(bytes);
        self.log.lock().unwrap().push(("save", gen, durable));
        Ok(())
    }
}

#[test]
fn the_primary_is_prepared_beside_the_good_copy_and_saved_only_once_that_is_durable() {
    use crate::fsio::sim::{Fault, Op, Sim};
    let sim = Sim::new();
    let paths = Paths::new("/data");
    let log = CallLog::default();
    let w = Writer::start_retrying(
        paths.clone(),
        Box::new(Logged {
            sim: sim.clone(),
            good: paths.good.clone(),
            log: log.clone(),
        }),
        0,
        sim.io(),
        Duration::from_millis(5),
        Duration::from_millis(20),
    );
    w.submit(doc(1, "home"));
    assert!(w.wait_durable(1, Duration::from_secs(10)));
    assert_eq!(
        *log.lock().unwrap(),
        [("prepare", 1, false), ("save", 1, true)]
    );
    // The good copy cannot be synced: the primary may be prepared, never saved.
    sim.fail_all(Op::Fsync, Fault::Eio);
    w.submit(doc(2, "settings"));
    assert!(!w.wait_durable(2, Duration::from_millis(200)));
    assert!(w.error().is_some());
    assert!(log.lock().unwrap()[2..].iter().all(|e| e.0 == "prepare"));
    sim.heal();
    assert!(w.wait_durable(2, Duration::from_secs(10)));
    w.stop();
    let log = log.lock().unwrap();
    assert_eq!(log.iter().filter(|e| e.0 == "save").count(), 2, "{log:?}");
    assert_eq!(log.last(), Some(&("save", 2, true)));
    assert_eq!(log[log.len() - 2], ("prepare", 2, false));
}
