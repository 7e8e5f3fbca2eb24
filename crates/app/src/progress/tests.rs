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
    assert_eq!(env["schema"], 1);
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
    let file: Map<String, Value> =
        serde_json::from_value(json!({ "save": { "schema": 2, "progress": {} } })).unwrap();
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
