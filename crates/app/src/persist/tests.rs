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

// --- The change log (`log.rs`) ---

mod change_log {
    use super::super::log::{self as clog, compact_at, diff, line, replay};
    use super::*;
    use crate::fsio::sim::{Fault, Loss, Op, Sim};
    use crate::progress::{DayBoards, FinishEntry, KeptReplay, Record, ScopeStats, Shared};
    use std::sync::Arc;

    fn stats(plays: u32) -> Shared<ScopeStats> {
        let mut s = ScopeStats {
            plays,
            wins: plays / 2,
            last_ms: 1_000 + u64::from(plays),
            ..Default::default()
        };
        s.history.push_back(FinishEntry {
            date: "2026-12-01".into(),
            moves: [("tile".to_string(), 30 + plays)].into(),
            ms: 9_000,
            won: true,
            ..Default::default()
        });
        Shared::from(s)
    }

    fn replay_of(at_ms: u64) -> KeptReplay {
        KeptReplay {
            at_ms,
            id: "slide:3x3:1,2,3,4,5,6,0,7,8".into(),
            log: "abc".into(),
            scope: "slide:3x3".into(),
            times: "2A9".into(),
        }
    }

    /// A state with every part of the progress set.
    fn rich(gen: u64) -> Doc {
        let mut d = doc(gen, "home");
        let p = &mut d.progress;
        for i in 0..20u32 {
            p.stats.insert(format!("klotski:daily-{i}"), stats(i + 1));
            p.records.insert(
                format!("klotski:daily-{i}/moves"),
                Record {
                    rule: "moves".into(),
                    best_moves: Some(80 + i),
                    wins: 1,
                    ..Record::default()
                },
            );
        }
        for day in 0..3u32 {
            let mut b = DayBoards::default();
            b.mine.insert("slide".into(), Default::default());
            p.friends.days.insert(100 + day, b);
        }
        for i in 0..5 {
            p.replays.kept.push_back(replay_of(i));
        }
        p.current.insert("slide".into(), "slide:4x4#1".into());
        p.settled
            .insert("slide:4x4#1".into(), "slide:4x4:x@3".into());
        p.unlocked.insert("klotski".into(), 3);
        d
    }

    /// `b` from `a` with each kind of change: parts set, scopes and records changed, added
    /// and removed, a day added and one gone, a replay pushed and the oldest gone.
    fn changed(a: &Doc) -> Doc {
        let mut b = a.clone();
        b.gen = a.gen + 3;
        let p = &mut b.progress;
        p.screen = "game:slide".into();
        p.settings.sound = !p.settings.sound;
        p.current.insert("2048".into(), "2048#1".into());
        p.unlocked.remove("klotski");
        p.stats.get_mut("klotski:daily-3").unwrap().plays += 1;
        p.stats.remove("klotski:daily-4");
        p.stats.insert("slide:5x5".into(), stats(7));
        p.records.get_mut("klotski:daily-5/moves").unwrap().wins += 1;
        p.records.remove("klotski:daily-6/moves");
        p.friends.days.remove(&100);
        p.friends.days.insert(200, DayBoards::default());
        p.replays.kept.pop_front();
        p.replays.kept.push_back(replay_of(99));
        b
    }

    /// `d` as a file would give it back (a read sanitises what it loads).
    fn normal(d: &Doc) -> Doc {
        decode(&encode(d)).unwrap().0
    }

    fn through_a_line(a: &Doc, b: &Doc) -> Doc {
        let bytes = line(&diff(a, b).unwrap()).unwrap();
        let mut got = a.clone();
        let r = replay(&mut got, &bytes);
        assert_eq!((r.applied, r.torn, r.lost.as_deref()), (1, false, None));
        got
    }

    #[test]
    fn a_line_carries_every_kind_of_change() {
        let a = rich(4);
        let b = changed(&a);
        assert_eq!(through_a_line(&a, &b), normal(&b));
        // Only what changed is in it: two of twenty scopes, not the others.
        let d = diff(&a, &b).unwrap();
        assert_eq!(d.stats.len(), 3, "changed, removed, added");
        assert_eq!(d.records.len(), 2);
        let t = d.replays.as_ref().unwrap();
        assert_eq!((t.drop, t.push.len()), (1, 1));
        assert!(!d.set.contains_key("stats") && d.set.contains_key("screen"));
        // A replay removed from the middle (a finish kept again) still comes out right.
        let mut c = b.clone();
        c.gen += 1;
        c.progress.replays.kept.remove(1);
        assert_eq!(through_a_line(&b, &c), normal(&c));
        // And no change at all is a line that only moves the gen.
        let mut same = c.clone();
        same.gen += 1;
        assert_eq!(through_a_line(&c, &same), normal(&same));
    }

    #[test]
    fn a_line_of_a_finish_at_five_thousand_scopes_is_small() {
        let mut a = rich(1);
        for i in 0..5_000 {
            a.progress.stats.insert(format!("klotski:g{i}"), stats(3));
        }
        let mut b = a.clone();
        b.gen = 2;
        b.progress.stats.get_mut("klotski:g77").unwrap().wins += 1;
        let bytes = line(&diff(&a, &b).unwrap()).unwrap();
        assert!(bytes.len() < 1_000, "{} bytes", bytes.len());
        assert!((bytes.len() as u64) < compact_at(encode(&a).len()));
    }

    /// `rich(4)`, then `b` (every kind of change) and `c` (`b`, `gap` saves later, on another
    /// screen), with the lines from `a` to `b` and from `b` to `c`.
    fn two_lines(gap: u64) -> (Doc, Doc, Doc, Vec<u8>, Vec<u8>) {
        let a = rich(4);
        let b = normal(&changed(&a));
        let mut c = b.clone();
        c.gen += gap;
        c.progress.screen = "records".into();
        let one = line(&diff(&a, &b).unwrap()).unwrap();
        let two = line(&diff(&b, &c).unwrap()).unwrap();
        (a, b, c, one, two)
    }

    #[test]
    fn a_cut_last_line_is_a_save_that_never_happened_and_damage_before_a_good_line_is_not() {
        let (a, b, _, one, two) = two_lines(1);
        let log = [one.clone(), two.clone()].concat();
        for cut in one.len()..log.len() {
            let mut got = a.clone();
            let r = replay(&mut got, &log[..cut]);
            assert_eq!(got, b, "cut at {cut}");
            assert!(r.lost.is_none() && r.applied == 1);
            assert_eq!(r.torn, cut > one.len(), "cut at {cut}");
        }
        // A changed byte in the first line, with a valid one after: not a cut save.
        let mut bad = log.clone();
        bad[30] ^= 0x01;
        let mut got = a.clone();
        let r = replay(&mut got, &bad);
        assert_eq!(got, a);
        assert!(r.lost.as_deref().unwrap().contains("line 1"), "{r:?}");
        // The same change in the last line: a cut save.
        let mut bad = log.clone();
        bad[one.len() + 30] ^= 0x01;
        let mut got = a.clone();
        let r = replay(&mut got, &bad);
        assert_eq!((got == b, r.torn, r.lost.is_none()), (true, true, true));
    }

    #[test]
    fn lines_already_in_the_copy_are_skipped_and_a_gap_stops() {
        let (a, b, c, one, two) = two_lines(2);
        // The copies were written at b's gen and the log not emptied: `one` is stale.
        let mut got = b.clone();
        let r = replay(&mut got, &[one.clone(), two.clone()].concat());
        assert_eq!((got == c, r.stale, r.applied), (true, 1, 1));
        // From a's gen, `two` alone does not follow: nothing applied, the log is kept.
        let mut got = a.clone();
        let r = replay(&mut got, &two);
        assert_eq!(got, a);
        assert!(
            r.lost.as_deref().unwrap().contains("continues save"),
            "{r:?}"
        );
    }

    #[test]
    fn a_newer_apps_line_is_kept_aside_as_newer() {
        let a = rich(4);
        let b = changed(&a);
        let mut d = diff(&a, &b).unwrap();
        d.schema = SCHEMA + 1;
        let mut got = a.clone();
        let r = replay(&mut got, &line(&d).unwrap());
        assert_eq!((got == a, r.newer), (true, true));
        assert!(r.lost.is_some());
    }

    fn writer(sim: &Sim, paths: &Paths) -> Writer {
        let mut platform = crate::Platform::headless().with_io(sim.io());
        platform.tasks = Arc::new(crate::platform::NoThreads);
        Writer::start_on(
            &platform,
            paths.clone(),
            Box::new(InPlaceIo(sim.io(), paths.store.clone())),
            0,
            // A failed save is tried again only when a newer one comes (no back-off loop).
            Duration::from_secs(3600),
            Duration::from_secs(3600),
        )
    }

    fn gen_of(sim: &Sim, p: &Path) -> u64 {
        decode(&sim.contents(p).unwrap()).unwrap().0.gen
    }

    /// What a start reads, and its notices' codes.
    fn start(sim: &Sim, paths: &Paths) -> (Doc, Vec<String>) {
        let r = recover_at(paths, &sim.clone(), 7);
        (r.doc, r.notices.into_iter().map(|n| n.code).collect())
    }

    #[test]
    fn saves_after_the_first_are_lines_that_a_start_reads() {
        let sim = Sim::new();
        let paths = Paths::new("/data");
        let w = writer(&sim, &paths);
        let mut d = rich(1);
        w.submit(d.clone());
        assert!(w.wait_durable(1, Duration::ZERO));
        assert_eq!(sim.contents(&paths.log).unwrap(), b"");
        for gen in 2..=6 {
            d.gen = gen;
            d.progress.stats.get_mut("klotski:daily-1").unwrap().plays += 1;
            w.submit(d.clone());
            assert!(w.wait_durable(gen, Duration::ZERO));
        }
        // The copies were written once; the five saves after are five lines.
        assert_eq!(
            (gen_of(&sim, &paths.good), gen_of(&sim, &paths.store)),
            (1, 1)
        );
        let log = sim.contents(&paths.log).unwrap();
        assert_eq!(log.iter().filter(|&&b| b == b'\n').count(), 5);
        assert_eq!(latest(&paths, &sim.clone()).unwrap(), d);
        // The app is killed (the saver never stopped): a start reads the lines, and leaves the
        // files as they are; the first save after it writes them whole and empties the log.
        let sim = sim.after_crash();
        drop(w);
        let (got, notices) = start(&sim, &paths);
        assert_eq!(got, d);
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(gen_of(&sim, &paths.good), 1);
        let w = writer(&sim, &paths);
        d.gen = 7;
        w.submit(d.clone());
        assert!(w.wait_durable(7, Duration::ZERO));
        assert_eq!(
            (gen_of(&sim, &paths.good), gen_of(&sim, &paths.store)),
            (7, 7)
        );
        assert_eq!(sim.contents(&paths.log).unwrap(), b"");
        // A clean stop writes the log's last state into the copies.
        d.gen = 8;
        d.progress.screen = "records".into();
        w.submit(d.clone());
        assert!(w.wait_durable(8, Duration::ZERO));
        assert_eq!(gen_of(&sim, &paths.good), 7);
        drop(w);
        assert_eq!(
            (gen_of(&sim, &paths.good), gen_of(&sim, &paths.store)),
            (8, 8)
        );
        assert_eq!(sim.contents(&paths.log).unwrap(), b"");
        assert_eq!(start(&sim, &paths).0, d);
    }

    #[test]
    fn a_failed_line_makes_the_next_save_whole_and_loses_nothing() {
        for fault in [Fault::Short, Fault::Eio, Fault::NoSpace] {
            let sim = Sim::new();
            let paths = Paths::new("/data");
            let w = writer(&sim, &paths);
            let mut d = rich(1);
            w.submit(d.clone());
            assert!(w.wait_durable(1, Duration::ZERO));
            d.gen = 2;
            d.progress.screen = "records".into();
            sim.fail_all(Op::Write, fault);
            w.submit(d.clone());
            assert!(!w.wait_durable(2, Duration::ZERO), "{fault:?}");
            sim.heal();
            // What the failed line left is never followed by another line: the retry is whole.
            d.gen = 3;
            d.progress.screen = "settings".into();
            w.submit(d.clone());
            assert!(w.wait_durable(3, Duration::ZERO), "{fault:?}");
            assert_eq!(gen_of(&sim, &paths.good), 3, "{fault:?}");
            d.gen = 4;
            d.progress.screen = "home".into();
            w.submit(d.clone());
            assert!(w.wait_durable(4, Duration::ZERO));
            let sim = sim.after_crash();
            drop(w);
            let (got, notices) = start(&sim, &paths);
            assert_eq!(got, d, "{fault:?}");
            assert!(notices.is_empty(), "{fault:?}: {notices:?}");
        }
    }

    /// A cut line (an append that failed half written), then EIO at each
    /// step `k` of the next save (whole: a failed line is never followed by another), then
    /// two more saves; after a power loss a start must read the newest save that was
    /// reported durable. Returns what each `k` lost (empty: nothing). `mutant`: a site of
    /// `writer::MUTANT_SITES` broken on purpose.
    fn cut_line_then_eio_sweep(mutant: Option<&'static str>) -> Vec<String> {
        let mut losses = Vec::new();
        for k in 0.. {
            let sim = Sim::new();
            let paths = Paths::new("/data");
            let w = writer(&sim, &paths);
            w.set_mutant(mutant);
            let mut saved = std::collections::BTreeMap::new();
            let mut d = rich(1);
            let mut save = |d: &Doc| {
                w.submit(d.clone());
                let ok = w.wait_durable(d.gen, Duration::ZERO);
                if ok {
                    saved.insert(d.gen, d.clone());
                }
                ok
            };
            assert!(save(&d));
            d.gen = 2;
            d.progress.screen = "records".into();
            assert!(save(&d), "a line");
            // The cut line: the append of save 3 stores half its bytes.
            d.gen = 3;
            d.progress.screen = "settings".into();
            sim.fail_all(Op::Write, Fault::Short);
            assert!(!save(&d), "the short append fails");
            sim.heal();
            assert!(
                !sim.contents(&paths.log).unwrap().ends_with(b"\n"),
                "the log ends in a cut line"
            );
            // EIO at step k of the next (whole) save.
            let s0 = sim.steps();
            sim.fail_step(s0 + k, Fault::Eio);
            d.gen = 4;
            d.progress.screen = "home".into();
            let _ = save(&d);
            let reached = sim.steps() > s0 + k;
            sim.heal();
            for gen in 5..=6 {
                d.gen = gen;
                d.progress.stats.get_mut("klotski:daily-1").unwrap().plays += 1;
                save(&d);
            }
            let newest = *saved.keys().next_back().unwrap();
            let (got, notices) = start(&sim.power_loss(Loss::Clean), &paths);
            if got != normal(&saved[&newest]) {
                let lost = saved.keys().filter(|&&g| g > got.gen).count();
                losses.push(format!(
                    "EIO at step {k} ({:?}): read save {} of {newest}, {lost} durable save(s) \
                     lost ({notices:?})",
                    sim.step_ops().get((s0 + k) as usize),
                    got.gen
                ));
            }
            if !reached {
                break;
            }
        }
        losses
    }

    #[test]
    fn a_cut_line_then_eio_at_each_step_of_the_next_whole_save_loses_no_durable_save() {
        let losses = cut_line_then_eio_sweep(None);
        assert!(losses.is_empty(), "{losses:#?}");
    }

    /// The mutation check of the sweep above: with the guard `if emptied.is_ok()` removed
    /// (the log goes on after a whole write that could not empty it), a later line follows
    /// the cut one, and a start stops at the cut: durable saves are lost.
    #[test]
    fn the_sweep_catches_the_change_log_guard_mutant() {
        for &site in super::super::writer::MUTANT_SITES {
            let losses = cut_line_then_eio_sweep(Some(site));
            assert!(!losses.is_empty(), "the sweep does not catch {site}");
            eprintln!("{site}: {losses:#?}");
        }
    }

    #[test]
    fn the_log_is_written_into_the_copies_past_its_bound() {
        let sim = Sim::new();
        let paths = Paths::new("/data");
        let w = writer(&sim, &paths);
        let mut d = rich(1);
        w.submit(d.clone());
        assert!(w.wait_durable(1, Duration::ZERO));
        let bound = compact_at(sim.contents(&paths.good).unwrap().len());
        let mut most = 0;
        for gen in 2..400 {
            d.gen = gen;
            // A scope with a long history changes each time.
            let s = d.progress.stats.get_mut("klotski:daily-2").unwrap();
            s.plays += 1;
            s.history[0].date = format!("2026-12-01 {gen:0>400}");
            w.submit(d.clone());
            assert!(w.wait_durable(gen, Duration::ZERO));
            let len = sim.contents(&paths.log).unwrap().len() as u64;
            most = most.max(len);
        }
        assert!(
            gen_of(&sim, &paths.good) > 1,
            "the copies were written again"
        );
        assert!(most <= bound, "log {most} bytes, bound {bound}");
        assert_eq!(latest(&paths, &sim.clone()).unwrap(), d);
    }

    #[test]
    fn a_damaged_log_is_written_into_the_copies_and_kept_aside() {
        let sim = Sim::new();
        let paths = Paths::new("/data");
        let w = writer(&sim, &paths);
        let mut d = rich(1);
        w.submit(d.clone());
        assert!(w.wait_durable(1, Duration::ZERO));
        let mut states = vec![d.clone()];
        for gen in 2..=4 {
            d.gen = gen;
            d.progress.screen = format!("s{gen}");
            w.submit(d.clone());
            assert!(w.wait_durable(gen, Duration::ZERO));
            states.push(d.clone());
        }
        let sim = sim.after_crash();
        drop(w);
        // Damage in the second line: the first is read, the rest kept aside.
        let mut log = sim.contents(&paths.log).unwrap();
        let second = log.iter().position(|&b| b == b'\n').unwrap() + 30;
        log[second] ^= 0x20;
        sim.install(&paths.log, &log);
        let (got, notices) = start(&sim, &paths);
        assert_eq!(got, states[1]);
        assert_eq!(notices, ["kept_aside"]);
        assert_eq!(
            gen_of(&sim, &paths.good),
            2,
            "the read line is in the copies"
        );
        assert!(sim.contents(&paths.log).is_none());
        let kept: Vec<_> = sim
            .paths()
            .into_iter()
            .filter(|p| p.to_string_lossy().contains("huarong.log.corrupt-7"))
            .collect();
        assert_eq!(kept.len(), 1);
        assert_eq!(sim.contents(&kept[0]).unwrap(), log);
        // Nothing is read twice at the next start.
        let (again, notices) = start(&sim, &paths);
        assert_eq!((again, notices.len()), (states[1].clone(), 0));
        let _ = clog::LOG_FILE;
    }
}
