//! Property test: random JSON arguments to every command never panic, never hang, and
//! always give either a result or a typed error (`{code, message}` with a known code, never
//! `internal`). Half of the values are drawn near valid input (real kinds, move shapes,
//! game IDs), so the calls also reach the engine rather than stopping at argument checks.
//! A small hand-rolled generator on the engine's portable RNG keeps it reproducible.

use huarong_engine::rng::{self, ChaCha8Rng};
use huarong_tests::{TempDir, TestApp};
use serde_json::{json, Map, Value};

const COMMANDS: &[(&str, &[&str])] = &[
    ("open_game", &["id", "replace"]),
    ("new_game", &["kind", "params", "seed", "replace"]),
    ("list_games", &[]),
    ("resume_game", &["slot"]),
    ("cancel", &["kind"]),
    ("play", &["kind", "mv"]),
    ("undo", &["kind"]),
    ("redo", &["kind"]),
    ("restart", &["kind"]),
    ("snapshot", &["kind"]),
    ("hint", &["kind"]),
    ("solve", &["kind"]),
    ("klotski_targets", &["piece"]),
    ("get_settings", &[]),
    ("set_settings", &["settings"]),
    ("get_progress", &[]),
    ("dismiss_notices", &[]),
    ("set_screen", &["screen"]),
    ("pause", &["kind"]),
    ("haptic", &["kind"]),
    ("levels", &["kind"]),
    // Sharing (src-tauri/src/share/).
    ("card_image", &["card"]),
    ("daily_info", &[]),
    ("daily_calendar", &["kind", "weeks"]),
    ("encode_code", &["id", "daily", "classic", "moves", "ms"]),
    ("decode_code", &["text"]),
    ("preview", &["id"]),
    // The share loop.
    ("result_code", &["kind"]),
    ("friends", &["daily", "kind"]),
    ("replay", &["code", "history"]),
    // Group challenges.
    ("group_new", &["id", "title", "deadline_ms"]),
    ("group_open", &["code"]),
    ("group_paste", &["text"]),
    ("group", &["group"]),
    ("groups", &[]),
    ("group_code", &["group"]),
    // The Klotski layout editor.
    ("klotski_check", &["board"]),
];

const CODES: &[&str] = &[
    "parse",
    "out_of_range",
    "illegal_move",
    "unsolvable",
    "cancelled",
    "unsupported",
    "nothing_to_undo",
    "nothing_to_redo",
    "bad_code",
    "corrupt_save",
    "no_game",
    "bad_argument",
    "storage",
    "would_replace",
    "already_solved",
];

fn pick<'a, T>(r: &mut ChaCha8Rng, xs: &'a [T]) -> &'a T {
    &xs[rng::below(r, xs.len() as u64) as usize]
}

fn string(r: &mut ChaCha8Rng) -> String {
    const ALPHABET: &[&str] = &[
        "a", "C", "x", "0", "1", "3", "9", ":", ",", "#", "/", "-", " ", "\n", "\0", "é", "华",
        "\"", "\\", "{", "%",
    ];
    let n = match rng::below(r, 20) {
        0 => 300 + rng::below(r, 3000),
        _ => rng::below(r, 24),
    };
    (0..n).map(|_| *pick(r, ALPHABET)).collect()
}

fn random_value(r: &mut ChaCha8Rng, depth: u32) -> Value {
    match rng::below(r, if depth > 2 { 6 } else { 8 }) {
        0 => Value::Null,
        1 => Value::Bool(rng::below(r, 2) == 1),
        2 => json!(rng::below(r, 40) as i64 - 5),
        3 => json!(match rng::below(r, 4) {
            0 => json!(u64::MAX),
            1 => json!(-1.5),
            2 => json!(1e300),
            _ => json!(i64::MIN),
        }),
        4 | 5 => Value::String(string(r)),
        6 => Value::Array(
            (0..rng::below(r, 4))
                .map(|_| random_value(r, depth + 1))
                .collect(),
        ),
        _ => {
            let mut m = Map::new();
            for _ in 0..rng::below(r, 4) {
                let k = pick(
                    r,
                    &[
                        "tile",
                        "piece",
                        "to",
                        "dir",
                        "keep_going",
                        "theme",
                        "rules",
                        "haptics",
                        "x",
                    ],
                )
                .to_string();
                m.insert(k, random_value(r, depth + 1));
            }
            Value::Object(m)
        }
    }
}

fn near_valid(r: &mut ChaCha8Rng, key: &str) -> Value {
    match key {
        "kind" => json!(pick(r, &["slide", "klotski", "2048", "Slide", "", "2049"])),
        "params" => json!(pick(
            r,
            &["3x3", "4x4", "2x2", "10x10", "3x3/easy", "10-30", "", "0x0", "4x4/hard", "60-"]
        )),
        "seed" => json!(pick(
            r,
            &[json!(1), json!(7), json!("12345"), json!(null), json!(-3)]
        )),
        "id" => json!(pick(
            r,
            &[
                "slide:3x3:1,2,3,4,5,6,7,0,8",
                "slide:3x3#5",
                "slide:2x2:1,2,3,0",
                "klotski:aCCb/aCCb/cdde/cfge/h..i",
                "klotski:10-30#2",
                "2048#9",
                "2048:2,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0",
                "slide:3x3:1,2,3",
                "huarong://play?c=",
                "https://huarong.app/?c=",
                "https://example.com/?c=2Ah3d57i23Z2UVs",
                "slide:4x4#",
            ]
        )),
        "mv" => match rng::below(r, 5) {
            0 => json!({"tile": rng::below(r, 12)}),
            1 => {
                json!({"piece": pick(r, &["a", "b", "C", "h", "z"]), "to": [rng::below(r, 6), rng::below(r, 5)]})
            }
            2 => json!({"dir": pick(r, &["left", "right", "up", "down", "diagonal"])}),
            3 => json!({"keep_going": rng::below(r, 2) == 1}),
            _ => json!({"tile": rng::below(r, 12), "dir": "up"}),
        },
        "piece" => json!(pick(r, &["a", "b", "C", "h", "i", "z", "CC", "1"])),
        "board" => match rng::below(r, 3) {
            0 => json!(pick(
                r,
                &[
                    "aCCbaCCbcddecsteu..v",
                    "aCCb/aCCb/cdde/cste/u..v",
                    "CC/CC",
                    ""
                ]
            )),
            _ => Value::Array(
                (0..rng::below(r, 12))
                    .map(|_| {
                        json!({
                            "shape": pick(r, &["cao", "vertical", "horizontal", "soldier", "king"]),
                            "row": rng::below(r, 7) as i64 - 1,
                            "col": rng::below(r, 6) as i64 - 1,
                        })
                    })
                    .collect(),
            ),
        },
        "settings" => json!(pick(
            r,
            &[
                json!({"theme": "light"}),
                json!({"rules": {"slide": "line"}}),
                json!({"rules": {"slide": "tile", "klotski": "unit"}}),
                json!({"language": "zh", "sound": false}),
                json!({"haptics": 1}),
            ]
        )),
        "screen" => json!(pick(
            r,
            &[
                "home",
                "game:slide",
                "levels:klotski",
                "settings",
                "Home",
                "game slide"
            ]
        )),
        _ => random_value(r, 0),
    }
}

#[test]
fn random_arguments_never_panic_and_always_give_typed_errors() {
    let dir = TempDir::new("props");
    let app = TestApp::start(dir.path(), None);
    let mut r = rng::stream(0x5eed, "app-props");
    let (mut oks, mut errs) = (0usize, std::collections::BTreeMap::<String, usize>::new());
    for _ in 0..3000 {
        let (cmd, keys) = *pick(&mut r, COMMANDS);
        let mut args = Map::new();
        for &k in keys {
            match rng::below(&mut r, 10) {
                0 => {} // missing
                1..=4 => {
                    args.insert(k.to_string(), random_value(&mut r, 0));
                }
                _ => {
                    args.insert(k.to_string(), near_valid(&mut r, k));
                }
            }
        }
        if rng::below(&mut r, 8) == 0 {
            args.insert(string(&mut r), random_value(&mut r, 0));
        }
        let args = Value::Object(args);
        match app.call(cmd, args.clone()) {
            Ok(_) => oks += 1,
            Err(e) => {
                let code = e["code"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{cmd}({args}): untyped error {e}"));
                assert!(
                    CODES.contains(&code),
                    "{cmd}({args}): unknown or internal error code {e}"
                );
                let msg = e["message"].as_str().unwrap_or("");
                assert!(!msg.is_empty(), "{cmd}({args}): empty message");
                *errs.entry(code.to_string()).or_default() += 1;
            }
        }
    }
    println!("random calls: {oks} ok, errors by code: {errs:?}");
    assert!(
        oks > 300,
        "the generator rarely reaches valid calls ({oks})"
    );
    assert!(errs.len() >= 5, "too few kinds of error reached: {errs:?}");
    // The app still works and its saves are still readable.
    app.ok("open_game", json!({"id": "slide:3x3:1,2,3,4,5,6,7,0,8"}));
    assert_eq!(
        app.ok("play", json!({"kind": "slide", "mv": {"tile": 8}}))["snapshot"]["status"],
        "won"
    );
    app.close();
    let again = TestApp::start(dir.path(), None);
    let p = again.ok("get_progress", json!({}));
    assert!(p["notices"].as_array().unwrap().is_empty(), "{p}");
    again.close();
}
