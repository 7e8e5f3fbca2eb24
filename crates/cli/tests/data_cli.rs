//! `huarong progress export|import` and `huarong stats export --csv` on data folders the app
//! core wrote: the file goes from one folder to the other and back, both then hold the
//! finishes of both once, a second import changes nothing, and a damaged file exits 1 with
//! its typed code and leaves the folder byte-identical.

mod common;

use common::huarong;
use huarong_core::persist::{InPlaceIo, Paths, Primary};
use huarong_core::platform::Platform;
use huarong_core::AppState;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("huarong-cli-data-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn open(dir: &Path) -> AppState {
    let paths = Paths::new(dir);
    let platform = Platform::headless();
    let io = platform.io.clone();
    let store = paths.store.clone();
    AppState::open(Some(paths), platform, move || {
        Ok(Box::new(InPlaceIo(io, store)) as Box<dyn Primary>)
    })
}

fn call(st: &AppState, name: &str, args: Value) -> Value {
    huarong_core::dispatch(st, name, args).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A folder whose player won `slide:3x3#<seed>` for each seed.
fn folder(tag: &str, seeds: &[u64]) -> PathBuf {
    use huarong_engine::{Cancel, Game, GameId};
    let dir = temp(tag);
    let st = open(&dir);
    for &seed in seeds {
        let id = format!("slide:3x3#{seed}");
        call(&st, "open_game", json!({ "id": id, "replace": true }));
        let p = GameId::parse(&id).unwrap();
        let g = huarong_engine::slide::Slide::from_id(&p.body, p.seed).unwrap();
        for m in g.solve(&Cancel::new()).unwrap() {
            call(&st, "play", json!({ "kind": "slide", "mv": m }));
        }
    }
    assert!(st.flush(Duration::from_secs(20)));
    st.shutdown();
    dir
}

fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(p.clone(), std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// The CSV's data rows (this history has no quoted fields).
fn csv_rows(dir: &Path) -> Vec<Vec<String>> {
    let (rc, out, err) = huarong(&["stats", "export", "--data", dir.to_str().unwrap(), "--csv"]);
    assert_eq!(rc, 0, "{err}");
    let mut lines = out.lines();
    assert!(lines
        .next()
        .unwrap()
        .starts_with("date,finished_at_utc,game,scope,game_id,moves"));
    lines
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

#[test]
fn progress_goes_both_ways_once_and_a_bad_file_changes_nothing() {
    let a = folder("a", &[1, 2, 3]);
    let b = folder("b", &[3, 4]);
    let (ad, bd) = (a.to_str().unwrap(), b.to_str().unwrap());
    let (rc, fa, err) = huarong(&["progress", "export", "--data", ad]);
    assert_eq!(rc, 0, "{err}");
    assert!(fa.starts_with("{\"format\":\"huarong-progress\",\"version\":1,"));
    let (rc, fb, err) = huarong(&["progress", "export", "--data", bd]);
    assert_eq!(rc, 0, "{err}");
    let (file_a, file_b) = (a.with_extension("a.json"), b.with_extension("b.json"));
    std::fs::write(&file_a, &fa).unwrap();
    std::fs::write(&file_b, &fb).unwrap();
    let import = |dir: &str, file: &Path| {
        let (rc, out, err) =
            huarong(&["progress", "import", "--data", dir, file.to_str().unwrap()]);
        assert_eq!(rc, 0, "{err}");
        serde_json::from_str::<Value>(out.trim()).expect("one JSON line")
    };
    let got = import(ad, &file_b);
    assert_eq!(got["records"], 1, "{got}");
    // #3 is the same game (same ID, same solver's line) on both: it is not taken twice.
    assert_eq!(got["games"], 1, "{got}");
    assert_eq!(import(bd, &file_a)["games"], 2);
    // Both: five finishes (3x3 #1 … #4 and #3 twice: each side won it once).
    let (ra, rb) = (csv_rows(&a), csv_rows(&b));
    assert_eq!(ra.len(), 5, "{ra:?}");
    let ids = |rows: &[Vec<String>]| {
        let mut v: Vec<String> = rows.iter().map(|r| r[4].clone()).collect();
        v.sort();
        v
    };
    assert_eq!(ids(&ra), ids(&rb));
    assert_eq!(
        ids(&ra),
        [
            "slide:3x3#1",
            "slide:3x3#2",
            "slide:3x3#3",
            "slide:3x3#3",
            "slide:3x3#4"
        ]
    );
    // Again: nothing changes, nothing is written.
    let before = files(&a);
    assert_eq!(
        import(ad, &file_b),
        json!({"records": 0, "games": 0, "streaks": 0, "friends": 0, "unlocked": 0, "settings": 0})
    );
    assert!(files(&a) == before, "a second import wrote");
    // A file cut short, one byte flipped, a newer version: exit 1, typed, nothing written.
    let mut flipped = fb.clone().into_bytes();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x02;
    for (what, bytes, code) in [
        (
            "cut",
            fb.as_bytes()[..fb.len() / 2].to_vec(),
            "corrupt_save",
        ),
        ("flipped", flipped, "corrupt_save"),
        (
            "newer",
            fb.replacen("\"version\":1,", "\"version\":9,", 1)
                .into_bytes(),
            "unsupported_version",
        ),
    ] {
        let bad = a.with_extension("bad.json");
        std::fs::write(&bad, bytes).unwrap();
        let (rc, out, err) = huarong(&["progress", "import", "--data", ad, bad.to_str().unwrap()]);
        assert_eq!(rc, 1, "{what}");
        assert!(out.is_empty(), "{what}");
        assert!(
            err.starts_with(&format!("huarong: {code}: ")),
            "{what}: {err}"
        );
        assert!(files(&a) == before, "{what}: the folder changed");
        let _ = std::fs::remove_file(&bad);
    }
    // The app running on the folder holds it: the CLI changes nothing there.
    let running = open(&a);
    let (rc, _, err) = huarong(&["progress", "import", "--data", ad, file_b.to_str().unwrap()]);
    assert_eq!(rc, 1);
    assert!(err.contains("is running"), "{err}");
    running.shutdown();
    // A folder without progress is refused.
    let empty = temp("empty");
    let (rc, _, err) = huarong(&["progress", "export", "--data", empty.to_str().unwrap()]);
    assert_eq!(rc, 1);
    assert!(err.contains("no Huarong progress"), "{err}");
    for p in [&a, &b, &empty] {
        let _ = std::fs::remove_dir_all(p);
    }
    let _ = std::fs::remove_file(file_a);
    let _ = std::fs::remove_file(file_b);
}
