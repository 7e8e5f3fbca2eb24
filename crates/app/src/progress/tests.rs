use super::*;
use serde_json::{json, Map};

#[test]
fn a_game_saved_later_is_written_once_and_shared_by_clones() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    let game = SavedGame::later(move || {
        c.fetch_add(1, Ordering::SeqCst);
        r#"{"id":"slide:3x3#1","log":[1,2]}"#.to_string()
    });
    let copy = game.clone();
    assert_eq!(
        calls.load(Ordering::SeqCst),
        0,
        "nothing written before it is needed"
    );
    assert_eq!(
        serde_json::to_value(&copy).unwrap(),
        json!({"id": "slide:3x3#1", "log": [1, 2]})
    );
    assert_eq!(game.value()["id"], "slide:3x3#1");
    assert_eq!(&*game.text(), &*copy.text());
    assert_eq!(
        calls.load(Ordering::SeqCst),
        1,
        "written once for all clones"
    );
    assert_eq!(
        game,
        SavedGame::from_value(&json!({"log": [1, 2], "id": "slide:3x3#1"}))
    );
}

#[test]
fn a_game_that_is_not_json_is_saved_as_null_not_as_a_broken_file() {
    let p = Progress {
        games: BTreeMap::from([(
            "slide".to_string(),
            SavedGame::later(|| "{oops".to_string()),
        )]),
        ..Progress::default()
    };
    let v = serde_json::to_value(&p).expect("the progress still serialises");
    assert_eq!(v["games"]["slide"], Value::Null);
}

fn v0_sample() -> Map<String, Value> {
    serde_json::from_value(json!({
        "settings": { "lang": "en", "haptics": false, "sound": true, "theme": "dark",
                      "slideCount": "line" },
        "best": { "slide:4x4": { "moves": 80, "ms": 61000 },
                  "klotski:1": { "moves": 81, "ms": 90000 },
                  "2048": { "score": 20000, "tile": 2048 },
                  "chess:1": { "moves": 3 } },
        "saved": { "slide": { "version": 1, "id": "slide:3x3:1,2,3,4,5,6,7,0,8", "log": [],
                              "cursor": 0, "elapsed_ms": 5 } },
        "klotskiUnlocked": 4,
        "screen": "game:slide"
    }))
    .unwrap()
}

#[test]
fn v0_migrates_every_field() {
    let (env, from) = migrate(v0_sample()).unwrap();
    assert_eq!(from, 0);
    assert_eq!(env["schema"], SCHEMA);
    let p: Progress = serde_json::from_value(env["progress"].clone()).unwrap();
    assert_eq!(p.settings.language, "en");
    assert!(!p.settings.haptics);
    assert_eq!(p.settings.theme, "dark");
    assert_eq!(p.settings.rule("slide"), "line");
    assert_eq!(p.settings.rule("klotski"), "piece");
    assert_eq!(p.records["slide:4x4/tile"].best_moves, Some(80));
    assert_eq!(p.records["slide:4x4/tile"].best_time_ms, Some(61000));
    assert_eq!(p.records["klotski:1/piece"].best_moves, Some(81));
    assert_eq!(p.records["2048/moves"].best_score, Some(20000));
    assert_eq!(p.records["2048/moves"].best_tile, Some(2048));
    assert!(!p.records.keys().any(|k| k.starts_with("chess")));
    assert_eq!(
        p.games["slide"].value()["id"],
        "slide:3x3:1,2,3,4,5,6,7,0,8"
    );
    assert_eq!(p.unlocked["klotski"], 4);
    assert_eq!(p.screen, "game:slide");
}

#[test]
fn v0_with_wrong_types_still_migrates_to_defaults() {
    let file: Map<String, Value> = serde_json::from_value(json!({
        "settings": { "lang": 7, "theme": "neon", "slideCount": "bogus" },
        "best": { "slide:3x3": "fast" },
        "screen": "<script>"
    }))
    .unwrap();
    let (env, _) = migrate(file).unwrap();
    let p: Progress = serde_json::from_value(env["progress"].clone()).unwrap();
    assert_eq!(p.settings, Settings::default());
    assert_eq!(p.screen, "home");
    assert_eq!(p.records["slide:3x3/tile"].best_moves, None);
}

#[test]
fn empty_v0_object_is_a_fresh_start() {
    let (env, from) = migrate(Map::new()).unwrap();
    assert_eq!(from, 0);
    let p: Progress = serde_json::from_value(env["progress"].clone()).unwrap();
    assert_eq!(p, Progress::default());
}

#[test]
fn v1_passes_through_and_newer_is_refused() {
    let p = Progress {
        screen: "settings".into(),
        ..Default::default()
    };
    let file: Map<String, Value> =
        serde_json::from_value(json!({ "save": { "schema": 1, "progress": p } })).unwrap();
    let (env, from) = migrate(file).unwrap();
    assert_eq!(from, 1);
    assert_eq!(env["progress"]["screen"], "settings");
    assert_eq!(env["schema"], SCHEMA, "v1 goes on to v2");
    let file: Map<String, Value> =
        serde_json::from_value(json!({ "save": { "schema": SCHEMA + 1, "progress": {} } }))
            .unwrap();
    assert!(migrate(file).unwrap_err().contains("newer"));
}

#[test]
fn settings_validation_names_the_field() {
    let mut s = Settings::default();
    assert!(s.validate().is_ok());
    s.theme = "neon".into();
    assert!(s.validate().unwrap_err().contains("theme"));
    s = Settings::default();
    s.rules.insert("klotski".into(), "tile".into());
    assert!(s.validate().unwrap_err().contains("rules.klotski"));
    s = Settings::default();
    s.rules.insert("chess".into(), "tile".into());
    assert!(s.validate().is_err());
}

#[test]
fn screens() {
    for ok in [
        "home",
        "game:slide",
        "game:2048",
        "levels:klotski",
        "settings",
    ] {
        assert!(valid_screen(ok), "{ok}");
    }
    for bad in ["", "Home", "game slide", "<x>", "9lives", &"a".repeat(41)] {
        assert!(!valid_screen(bad), "{bad}");
    }
}

#[test]
fn sanitize_bounds_records() {
    let mut p = Progress::default();
    for i in 0..MAX_RECORDS + 5 {
        p.records
            .insert(format!("klotski:gen:{i}/piece"), Record::default());
    }
    p.sanitize();
    assert_eq!(p.records.len(), MAX_RECORDS);
}

#[test]
fn only_a_file_with_v0_keys_reads_as_v0() {
    let map = |v: serde_json::Value| v.as_object().unwrap().clone();
    assert_eq!(schema_of(&map(json!({}))), Some(0));
    assert_eq!(schema_of(&map(json!({"best": {}, "extra": 1}))), Some(0));
    assert_eq!(schema_of(&map(json!({"save": {"schema": 1}}))), Some(1));
    // A v1 file whose `"save"` key was damaged is not an empty v0 save.
    assert_eq!(schema_of(&map(json!({"s\u{1}ave": {"schema": 1}}))), None);
}

// ---------------------------------------------------------------------------------------
// Statistics for 5,000 scopes, histories bounded in bytes.
// ---------------------------------------------------------------------------------------

fn finish(i: u64, j: u64, clean: bool) -> FinishEntry {
    FinishEntry {
        date: format!("2026-{:02}-{:02}", 1 + j % 12, 1 + i % 28),
        at_ms: 1_000_000 + i * 1_000 + j,
        moves: [
            ("piece".to_string(), (30 + (i + j * 7) % 50) as u32),
            ("straight".to_string(), (25 + (i * 3 + j) % 40) as u32),
            ("unit".to_string(), (60 + (i + j) % 90) as u32),
        ]
        .into(),
        ms: 10_000 + (i * 7919 + j * 104_729) % 90_000,
        optimal: Some(30),
        won: true,
        undo_used: !clean,
        ..FinishEntry::default()
    }
}

/// The trimmed mean the averages are defined as, from the whole list of clean times.
fn expected_average(times: &[u64], n: usize) -> Option<u64> {
    if times.len() < n {
        return None;
    }
    let mut v = times[times.len() - n..].to_vec();
    v.sort_unstable();
    let mid = &v[1..n - 1];
    let k = mid.len() as u64;
    Some((2 * mid.iter().sum::<u64>() + k) / (2 * k))
}

/// `scopes` Klotski scopes; scope `i` was finished `1 + i % 30` times (every third one not
/// clean), the scope with the highest index most recently.
fn many(scopes: u64) -> (Progress, BTreeMap<String, Vec<u64>>) {
    let mut p = Progress::default();
    let mut clean_times = BTreeMap::new();
    for i in 0..scopes {
        let key = format!("klotski:4x5:{i:020}");
        let times: &mut Vec<u64> = clean_times.entry(key.clone()).or_default();
        for j in 0..1 + i % 30 {
            let e = finish(i, j, j % 3 != 2);
            if e.clean() {
                times.push(e.ms);
            }
            let s = p.stats.entry(key.clone()).or_default();
            s.plays += 1;
            s.add(e, true);
        }
        // The app bounds after every finish; every 50 scopes is enough here (a debug
        // build sorts 5,000 scopes slowly), and the bound only ever trims older rows.
        if i % 50 == 49 {
            bound(&mut p, &key);
        }
    }
    bound(&mut p, "");
    (p, clean_times)
}

#[test]
fn five_thousand_scopes_keep_their_summaries_and_histories_stay_within_their_bytes() {
    let (mut p, times) = many(5_000);
    assert_eq!(p.stats.len(), 5_000, "no scope is dropped");
    // Every summary is whole: wins, plays, bests and both averages, recomputed from every
    // finish ever made, whatever is left of the history.
    for (i, (key, s)) in p.stats.iter().enumerate() {
        let t = &times[key];
        let n = key[12..].parse::<u64>().unwrap();
        assert_eq!(u64::from(s.plays), 1 + n % 30, "{key}");
        assert_eq!(u64::from(s.wins), 1 + n % 30, "{key}");
        assert_eq!(s.best_ms, t.iter().min().copied(), "{key}");
        let view = s.view(key, "piece", false);
        assert_eq!(view["ao5_ms"], json!(expected_average(t, 5)), "{key} {i}");
        assert_eq!(view["ao12_ms"], json!(expected_average(t, 12)), "{key}");
        // Only the oldest rows go: what is left is the newest finishes, in order.
        if let Some(last) = s.history.back() {
            assert_eq!(last.at_ms, 1_000_000 + n * 1_000 + n % 30, "{key}");
        }
        assert_eq!(
            s.history.len() as u64 + s.trimmed,
            1 + n % 30,
            "{key}: every row is kept or counted as trimmed"
        );
    }
    // The most recently played keep their full history, older ones a shorter one.
    let mut by_recency: Vec<&ScopeStats> = p.stats.values().map(|s| &**s).collect();
    by_recency.sort_by_key(|b| std::cmp::Reverse(b.last_ms));
    for s in &by_recency[..FULL_SCOPES] {
        assert_eq!(s.trimmed, 0, "a recent scope keeps every row");
    }
    assert!(by_recency[FULL_SCOPES..]
        .iter()
        .all(|s| s.history.len() <= SHORT_HISTORY));
    let bytes: usize = p
        .stats
        .values()
        .map(|s| serde_json::to_vec(&s.history).unwrap().len())
        .sum();
    assert!(bytes <= HISTORY_BYTES, "{bytes} bytes of history rows");
    assert!(
        !p.fold_log.is_empty(),
        "what was folded is told (the notice)"
    );
    assert!(
        p.fold_log.message().contains("folded"),
        "{}",
        p.fold_log.message()
    );
    // The file: at most 8 MB, and it reads back to the same statistics.
    let doc = crate::persist::Doc {
        gen: 9,
        progress: std::mem::take(&mut p),
    };
    let file = crate::persist::encode(&doc);
    assert!(file.len() <= 8 << 20, "{} bytes", file.len());
    let (back, _) = crate::persist::decode(&file).unwrap();
    assert_eq!(back.progress.stats, doc.progress.stats);
}

#[test]
fn past_max_scopes_the_oldest_scope_is_folded_into_its_game_with_a_notice() {
    let mut p = Progress::default();
    for i in 0..MAX_SCOPES as u64 + 2 {
        let key = format!("klotski:4x5:{i:020}");
        let s = p.stats.entry(key.clone()).or_default();
        s.plays += 2;
        s.add(finish(i, 0, true), true);
    }
    bound(&mut p, "");
    assert_eq!(p.stats.len(), MAX_SCOPES);
    assert!(!p.stats.contains_key(&format!("klotski:4x5:{:020}", 0)));
    let f = &p.folded["klotski"];
    assert_eq!((f.scopes, f.plays, f.wins), (2, 4, 2));
    assert_eq!(p.fold_log.scopes.len(), 2);
    assert!(
        p.fold_log.message().contains("klotski:4x5:"),
        "{}",
        p.fold_log.message()
    );
}

#[test]
fn the_progress_serialises_straight_in_the_checksums_canonical_form() {
    // Every field set: a struct whose fields are not declared in key order would give a
    // text other than the reader's re-serialisation, and every save would fail its checksum.
    let mut p = Progress {
        screen: "game:slide".into(),
        ..Progress::default()
    };
    p.records.insert(
        "slide:4x4/tile".into(),
        Record {
            rule: "tile".into(),
            best_moves: Some(40),
            undo_used: true,
            hints_used: 2,
            best_time_ms: Some(9),
            stars: 3,
            best_score: Some(5),
            best_splits: vec![huarong_engine::splits::Split {
                name: "row1".into(),
                moves: 12,
                ms: Some(3_400),
            }],
            best_tile: Some(8),
            optimal: Some(38),
            wins: 4,
            date: "2026-01-02".into(),
        },
    );
    p.unlocked.insert("klotski".into(), 7);
    p.streaks.insert(
        "slide".into(),
        Streak {
            current: 2,
            best: 5,
            last: "2026-01-02".into(),
            held_last: "2025-12-30".into(),
            held: 3,
        },
    );
    p.games.insert(
        "slide".into(),
        SavedGame::from_text(r#"{"z":1,"a":[1,2],"m":{"y":null,"b":"x"}}"#),
    );
    p.current.insert("slide".into(), "slide:4x4".into());
    p.settled
        .insert("slide:4x4".into(), "slide:4x4#1@40".into());
    p.quarantine.push(Quarantined {
        kind: "slide".into(),
        reason: "r".into(),
        saved: json!({"b": 1, "a": 2}),
    });
    let s = p.stats.entry("slide:4x4".into()).or_default();
    s.plays = 3;
    for j in 0..20 {
        s.add(finish(1, j, j % 2 == 0), true);
    }
    let mut e = finish(1, 99, true);
    e.hints_used = 1;
    e.auto_solved = true;
    s.add(e, true);
    s.trimmed = 4;
    p.challenges.insert(
        "challenge:00".into(),
        SlotChallenge {
            assisted: false,
            ghost: Some(super::SlotGhost {
                id: "slide:4x4#1".into(),
                log: "AB".into(),
                source: "best".into(),
                times: "CD".into(),
            }),
            id: "slide:4x4#1".into(),
            moves: 3,
            ms: 4,
            name: Some("Mei".into()),
            daily: Some(9),
            outcome: Some(huarong_engine::code::Outcome {
                score: 5,
                won: false,
            }),
            replay: true,
            verified: true,
        },
    );
    p.folded.insert(
        "klotski".into(),
        Folded {
            scopes: 1,
            plays: 2,
            wins: 3,
            rows: 4,
        },
    );
    let mut day = super::friends::DayBoards::default();
    let r = super::friends::BoardResult {
        assisted: false,
        moves: 5,
        ms: 6,
        score: Some(7),
        verified: true,
        won: Some(false),
    };
    day.friends
        .entry("slide".into())
        .or_default()
        .insert("Mei".into(), r);
    day.mine.insert("slide".into(), r);
    p.friends.days.insert(7, day);
    p.replays.add(super::friends::KeptReplay {
        at_ms: 1,
        id: "slide:3x3:1,2,3,4,5,6,7,0,8".into(),
        log: "2x".into(),
        scope: "slide:3x3".into(),
        times: "2A9".into(),
    });
    assert!(!p.replays.kept.is_empty());
    let direct = serde_json::to_vec(&p).unwrap();
    let canonical = serde_json::to_vec(&serde_json::to_value(&p).unwrap()).unwrap();
    assert_eq!(
        String::from_utf8(direct).unwrap(),
        String::from_utf8(canonical).unwrap()
    );
    let doc = crate::persist::Doc {
        gen: 3,
        progress: p,
    };
    let (back, _) = crate::persist::decode(&crate::persist::encode(&doc)).unwrap();
    assert_eq!(back, doc);
}

#[test]
fn a_save_whose_text_is_not_in_canonical_order_still_verifies() {
    // Daily numbers 9 and 10 as map keys: written in number order ("9" before "10"), while
    // a parse re-serialised sorts them as text. The reader sums the text as written.
    let mut p = Progress::default();
    for n in [9, 10] {
        let mut day = super::friends::DayBoards::default();
        day.mine.insert(
            "slide".into(),
            super::friends::BoardResult {
                assisted: false,
                moves: n,
                ms: 1,
                verified: true,
                ..Default::default()
            },
        );
        p.friends.days.insert(n, day);
    }
    let direct = serde_json::to_vec(&p).unwrap();
    let canonical = serde_json::to_vec(&serde_json::to_value(&p).unwrap()).unwrap();
    assert_ne!(direct, canonical, "the case this test is about");
    let doc = crate::persist::Doc {
        gen: 4,
        progress: p,
    };
    let (back, _) = crate::persist::decode(&crate::persist::encode(&doc)).expect("verifies");
    assert_eq!(back, doc);
    // A flipped byte in the progress is still damage.
    let mut bytes = crate::persist::encode(&doc);
    let at = bytes.windows(4).position(|w| w == b"\"10\"").unwrap();
    bytes[at + 1] = b'2';
    assert!(crate::persist::decode(&bytes).is_err());
}

#[test]
fn a_file_of_schema_1_with_64_scopes_reads_unchanged() {
    // What the previous build wrote: `recent` as whole finish rows, every field written,
    // pretty JSON, schema 1.
    let mut scopes = Map::new();
    let mut expect = BTreeMap::new();
    for i in 0..64u64 {
        let rows: Vec<Value> = (0..14)
            .map(|j| {
                let e = finish(i, j, true);
                json!({"date": e.date, "at_ms": e.at_ms, "moves": e.moves, "ms": e.ms,
                       "optimal": e.optimal, "won": true, "undo_used": false,
                       "hints_used": 0, "auto_solved": false})
            })
            .collect();
        let times: Vec<u64> = (0..14).map(|j| finish(i, j, true).ms).collect();
        let key = format!("klotski:4x5:{i:020}");
        expect.insert(key.clone(), times);
        scopes.insert(
            key,
            json!({"plays": 14, "wins": 14, "best_moves": {"piece": 30}, "best_ms": 10_000,
                   "best_ao5_ms": 20_000, "best_ao12_ms": 30_000,
                   "recent": rows[2..].to_vec(), "history": rows, "last_ms": 1_000_000 + i}),
        );
    }
    let progress = json!({"stats": scopes, "screen": "home"});
    let sum = crate::persist::checksum(1, 5, &progress);
    let file = serde_json::to_vec_pretty(
        &json!({"save": {"schema": 1, "gen": 5, "checksum": sum, "progress": progress}}),
    )
    .unwrap();
    let (doc, from) = crate::persist::decode(&file).unwrap();
    assert_eq!(from, 1);
    assert_eq!(doc.gen, 5);
    assert_eq!(doc.progress.stats.len(), 64);
    assert!(doc.progress.fold_log.is_empty(), "nothing to fold");
    for (key, s) in &doc.progress.stats {
        assert_eq!((s.plays, s.wins, s.best_ms), (14, 14, Some(10_000)));
        assert_eq!(
            (s.best_ao5_ms, s.best_ao12_ms),
            (Some(20_000), Some(30_000))
        );
        assert_eq!(s.history.len(), 14, "{key}: every row kept");
        assert_eq!(s.recent.len(), 12);
        let v = s.view(key, "piece", true);
        assert_eq!(v["ao5_ms"], json!(expected_average(&expect[key], 5)));
        assert_eq!(v["ao12_ms"], json!(expected_average(&expect[key], 12)));
        assert!(v["ao12_moves"].is_number(), "{v}");
    }
}
