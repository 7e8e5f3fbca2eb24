use super::*;
use crate::fsio;
use huarong_engine::slide::Slide;
use huarong_engine::Session;

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("huarong-journal-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn moves(s: &Session<Slide>) -> Vec<huarong_engine::slide::Move> {
    s.current()
        .board()
        .movable()
        .into_iter()
        .map(|tile| huarong_engine::slide::Move { tile })
        .collect()
}

#[test]
fn put_append_reopen_and_torn_tail() {
    let dir = tmpdir("basic");
    let (j, slots, notices) = Journal::open(&dir, fsio::real());
    assert!(slots.is_empty() && notices.is_empty(), "{notices:?}");
    let mut s = Session::<Slide>::open("slide:4x4#42").unwrap();
    j.put(
        "slide:4x4",
        json!({"n": 0}),
        serde_json::to_value(s.save(0)).unwrap(),
    );
    let _ = s.take_delta(0);
    assert!(j.flush(Duration::from_secs(10)));
    for i in 0..20u64 {
        let mv = moves(&s)[(i as usize * 7) % moves(&s).len()];
        s.play(&mv, i * 100).unwrap();
        if i % 5 == 4 {
            s.undo(i * 100 + 1).unwrap();
        }
        let d = s.take_delta(i * 100 + 2);
        j.append(
            "slide:4x4",
            json!({"n": i + 1}),
            serde_json::to_value(d).unwrap(),
        );
    }
    assert!(j.flush(Duration::from_secs(10)));
    assert_eq!(j.error(), None);
    j.shutdown();
    let want = serde_json::to_value(s.save(1902)).unwrap();
    let (j2, slots, notices) = Journal::open(&dir, fsio::real());
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(slots.len(), 1);
    assert_eq!(slots[0].key, "slide:4x4");
    assert_eq!(slots[0].header, json!({"n": 20}));
    assert_eq!(slots[0].saved, want);
    j2.shutdown();
    // Cut the journal inside its last record: that move is lost, the rest kept.
    let jnl = std::fs::read_dir(dir.join("games"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "jnl"))
        .unwrap();
    let len = std::fs::metadata(&jnl).unwrap().len();
    let f = std::fs::OpenOptions::new().write(true).open(&jnl).unwrap();
    f.set_len(len - 3).unwrap();
    let (j3, slots, _) = Journal::open(&dir, fsio::real());
    assert_eq!(slots[0].header, json!({"n": 19}));
    // The next write after a torn tail is a fresh snapshot; nothing follows the garbage.
    j3.append(
        "slide:4x4",
        json!({"n": 99}),
        serde_json::to_value(SessionDelta::<Value> {
            keep: 0,
            add: vec![],
            cursor: 0,
            elapsed_ms: 5,
            undo_used: true,
            hints_used: 0,
            auto_solved: false,
            undo_allowed: true,
            add_times: vec![],
            retimed: vec![],
        })
        .unwrap(),
    );
    assert!(j3.flush(Duration::from_secs(10)));
    j3.shutdown();
    let (j4, slots, _) = Journal::open(&dir, fsio::real());
    assert_eq!(slots[0].header, json!({"n": 99}));
    j4.remove("slide:4x4");
    assert!(j4.flush(Duration::from_secs(10)));
    j4.shutdown();
    let left: Vec<_> = std::fs::read_dir(dir.join("games"))
        .unwrap()
        .flatten()
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn disabled_keeps_memory_only() {
    let j = Journal::disabled();
    j.put(
        "2048:free",
        json!({}),
        json!({"version":1,"id":"2048:4:1","log":[],"cursor":0,"elapsed_ms":0}),
    );
    assert!(j.flush(Duration::from_millis(10)));
    assert!(j.get("2048:free").is_some());
    j.shutdown();
}

#[test]
fn a_torn_tail_is_told_from_damage() {
    use format::{encode_record, tail_of, Tail};
    let mut file = Vec::new();
    for p in [&b"{\"a\":1}"[..], b"{\"b\":2}", b"{\"c\":3}"] {
        encode_record(&mut file, p).unwrap();
    }
    let whole = file.len();
    assert_eq!(tail_of(&file, decode_records(&file).valid), None);
    // A prefix of the last record (an append cut short), or zeros after the records.
    for cut in [whole - 1, whole - 9, whole - 12] {
        let f = &file[..cut];
        assert_eq!(
            tail_of(f, decode_records(f).valid),
            Some(Tail::Torn),
            "{cut}"
        );
    }
    let mut zeros = file.clone();
    zeros.extend_from_slice(&[0; 40]);
    assert_eq!(
        tail_of(&zeros, decode_records(&zeros).valid),
        Some(Tail::Torn)
    );
    // A bit flipped in the middle record's payload: a whole record that fails its check.
    let mut flipped = file.clone();
    flipped[15 + 10] ^= 4;
    let recs = decode_records(&flipped);
    assert_eq!(recs.records.len(), 1);
    assert_eq!(tail_of(&flipped, recs.valid), Some(Tail::Damaged));
    // The middle record's length made larger: it looks cut short, but a good record follows.
    let mut longer = file.clone();
    longer[15] = 40;
    let recs = decode_records(&longer);
    assert_eq!(tail_of(&longer, recs.valid), Some(Tail::Damaged));
    // The same forged length on the last record: indistinguishable from a torn append.
    let mut last = file.clone();
    last[30] = 40;
    assert_eq!(
        tail_of(&last, decode_records(&last).valid),
        Some(Tail::Torn)
    );
}

/// Found by the `journal_records` fuzz target: a journal damaged after its first record was
/// moved aside at start, and the slot (with that record applied) was only written at the next
/// change, so a stop before any change lost the record at the following start.
#[test]
fn a_stop_right_after_recovering_a_damaged_journal_keeps_its_moves() {
    let sim = fsio::sim::Sim::new();
    let dir = Path::new("/d");
    let (j, _, _) = Journal::open(dir, sim.io());
    let mut s = Session::<Slide>::open("slide:3x3#5").unwrap();
    j.put(
        "k",
        json!({"n": 0}),
        serde_json::to_value(s.save(0)).unwrap(),
    );
    assert!(j.flush(Duration::from_secs(10)));
    let _ = s.take_delta(0);
    for n in 1..=3 {
        let mv = moves(&s)[0];
        s.play(&mv, n).unwrap();
        let d = serde_json::to_value(s.take_delta(n)).unwrap();
        j.append("k", json!({ "n": n }), d);
        assert!(j.flush(Duration::from_secs(10)));
    }
    j.shutdown();
    let path = dir.join(GAMES_DIR).join(format!("{}.1.jnl", stem("k")));
    let mut file = sim.contents(&path).unwrap();
    let first = decode_records(&file).records[0].len() + format::FRAME;
    file[first + format::FRAME + 2] ^= 0x40;
    sim.install(&path, &file);
    let (j, slots, notices) = Journal::open(dir, sim.io());
    assert_eq!(slots.len(), 1);
    assert_eq!(slots[0].header, json!({"n": 1}), "{notices:?}");
    j.shutdown();
    let (j, again, _) = Journal::open(dir, sim.io());
    j.shutdown();
    assert_eq!(
        again, slots,
        "the second start lost the moves before the damage"
    );
}

/// Each move's time survives a reopen (the records carry it), a redo's new time too; records
/// written before times were kept (no time fields) still load, their moves' times unknown.
#[test]
fn move_times_survive_a_reopen_and_old_records_still_load() {
    let sim = fsio::sim::Sim::new();
    let dir = Path::new("/t");
    let (j, _, _) = Journal::open(dir, sim.io());
    let mut s = Session::<Slide>::open("slide:3x3#5").unwrap();
    j.put("k", json!({}), serde_json::to_value(s.save(0)).unwrap());
    let _ = s.take_delta(0);
    let step = |s: &mut Session<Slide>, now: u64, old: bool| {
        let mut d = serde_json::to_value(s.take_delta(now)).unwrap();
        if old {
            let o = d.as_object_mut().unwrap();
            o.remove("add_times");
            o.remove("retimed");
        }
        j.append("k", json!({}), d);
    };
    for (n, now) in [1_000u64, 1_320, 1_950].into_iter().enumerate() {
        let mv = moves(&s)[n % 2];
        s.play(&mv, now).unwrap();
        step(&mut s, now, false);
    }
    s.undo(2_000).unwrap();
    step(&mut s, 2_000, false);
    s.redo(2_400).unwrap();
    step(&mut s, 2_400, false);
    assert!(j.flush(Duration::from_secs(10)));
    j.shutdown();
    let (j, slots, notices) = Journal::open(dir, sim.io());
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(
        slots[0].saved["times"],
        json!([0, 320, 1_400]),
        "the redo's time replaced the undone move's"
    );
    assert_eq!(slots[0].saved, serde_json::to_value(s.save(2_400)).unwrap());
    // An old build's record: the move is kept, its time unknown.
    let mv = moves(&s)[0];
    s.play(&mv, 3_000).unwrap();
    let mut d = serde_json::to_value(s.take_delta(3_000)).unwrap();
    let o = d.as_object_mut().unwrap();
    o.remove("add_times");
    o.remove("retimed");
    j.append("k", json!({}), d);
    assert!(j.flush(Duration::from_secs(10)));
    j.shutdown();
    let (j, slots, _) = Journal::open(dir, sim.io());
    j.shutdown();
    assert_eq!(slots[0].saved["times"], json!([0, 320, 1_400, null]));
    assert_eq!(slots[0].saved["log"].as_array().unwrap().len(), 4);
}
