//! The web page's first core (`huarong_core::first::First`) answers exactly as the app core
//! would: the same commands on a fresh store, at the same times, give the same replies, for
//! every game and many boards; and what it cannot answer so, it leaves to the core.
//!
//! The page relies on this: what the first core answered is replayed into the core when the
//! core arrives (web/src/core-worker.js), and only then stored.

use huarong_core::first::{Answer, First};
use huarong_core::fsio::sim::Sim;
use huarong_web::core::{HostClock, WebCore, DATA_DIR};
use serde_json::{json, Value};
use std::cell::Cell;

thread_local! {
    /// The one clock of both cores: milliseconds, set by the test before each command.
    static NOW: Cell<f64> = const { Cell::new(0.0) };
}

const WALL0: f64 = 1_796_155_200_000.0; // 2026-12-01T20:00:00Z

fn clock() -> HostClock {
    HostClock {
        wall_ms: || WALL0 + NOW.with(Cell::get),
        monotonic_ms: || NOW.with(Cell::get),
        utc_offset_minutes: |_| 480.0,
    }
}

/// A fresh core and a fresh first core on the same clock.
struct Pair {
    core: WebCore,
    first: First,
    /// Commands the first core answered, and deferred. From the first deferral on, the page
    /// sends everything to the core (the first core is not asked again).
    answered: Vec<String>,
    deferred: Vec<String>,
}

impl Pair {
    fn new() -> Pair {
        NOW.with(|n| n.set(1_000.0));
        Pair {
            core: WebCore::open(Sim::new(), clock(), || 7),
            first: First::new(Box::new(clock()), DATA_DIR),
            answered: Vec::new(),
            deferred: Vec::new(),
        }
    }

    /// `name(args)` on both, `dt` ms after the last command: the first core's reply must be the
    /// core's (`ok`). Returns the core's reply (`{ok}` or `{error}`) and whether the first
    /// core answered.
    fn both(&mut self, dt: f64, name: &str, args: Value) -> (Value, bool) {
        NOW.with(|n| n.set(n.get() + dt));
        let first = if self.deferred.is_empty() {
            self.first.dispatch(name, args.clone())
        } else {
            Answer::Defer
        };
        let core: Value =
            serde_json::from_str(&self.core.dispatch(name, &args.to_string())).unwrap();
        match first {
            Answer::Reply(v) => {
                assert_eq!(
                    Some(&v),
                    core.get("ok"),
                    "{name}({args}): the first core answered\n{v}\nthe core\n{core}"
                );
                self.answered.push(name.to_string());
                (core, true)
            }
            Answer::Defer => {
                self.deferred.push(name.to_string());
                (core, false)
            }
        }
    }

    /// The start of a shared link's page: settings, progress, the game, its levels, its screen.
    fn open(&mut self, id: &str) -> Option<Value> {
        let (_, a) = self.both(3.0, "get_settings", json!({}));
        assert!(a, "get_settings is answered");
        let (_, a) = self.both(1.0, "get_progress", json!({}));
        assert!(a, "get_progress of a fresh store is answered");
        let (view, a) = self.both(40.0, "open_game", json!({ "id": id }));
        let view = view.get("ok")?.clone();
        if !a {
            return None;
        }
        let kind = view["snapshot"]["kind"].as_str().unwrap().to_string();
        let (_, a) = self.both(9.0, "levels", json!({ "kind": kind }));
        assert!(a, "levels is answered");
        let (_, a) = self.both(
            2.0,
            "set_screen",
            json!({ "screen": format!("game:{kind}") }),
        );
        assert!(a, "set_screen is answered");
        Some(view)
    }
}

/// The legal moves of the core's current game (candidates the core accepts).
fn candidates(pair: &Pair, view: &Value) -> Vec<Value> {
    let snap = &view["snapshot"];
    match snap["kind"].as_str().unwrap() {
        "slide" => {
            let n = snap["view"]["tiles"].as_array().map_or(0, Vec::len);
            (1..n).map(|t| json!({ "tile": t })).collect()
        }
        "2048" => ["up", "down", "left", "right"]
            .iter()
            .map(|d| json!({ "dir": d }))
            .collect(),
        "klotski" => {
            let mut out = Vec::new();
            let pieces = snap["view"]["pieces"].as_array().expect("pieces");
            for piece in pieces.iter().filter_map(|p| p["id"].as_str()) {
                let r: Value = serde_json::from_str(
                    &pair
                        .core
                        .dispatch("klotski_targets", &json!({ "piece": piece }).to_string()),
                )
                .unwrap();
                for t in r["ok"].as_array().into_iter().flatten() {
                    out.push(json!({ "piece": piece, "to": t["to"] }));
                }
            }
            out
        }
        k => panic!("no moves for {k}"),
    }
}

/// Plays `n` moves chosen by a fixed sequence, comparing every reply; stops at a finish.
fn play(pair: &mut Pair, view: Value, n: usize) -> usize {
    let kind = view["snapshot"]["kind"].as_str().unwrap().to_string();
    let mut view = view;
    let mut played = 0;
    let mut pick = 7usize;
    for step in 0..n {
        let moves = candidates(pair, &view);
        assert!(!moves.is_empty(), "{kind}: no move at step {step}: {view}");
        pick = pick.wrapping_mul(31).wrapping_add(17);
        // Try candidates from `pick` on until one is legal (the others are errors for both).
        let mut moved = false;
        for i in 0..moves.len() {
            let mv = &moves[(pick + i) % moves.len()];
            let (r, answered) = pair.both(
                120.0 + (step % 5) as f64 * 37.0,
                "play",
                json!({ "kind": kind, "mv": mv }),
            );
            let Some(ok) = r.get("ok") else {
                assert!(!answered, "a move the core refuses is left to it");
                // (The page then waits for the core: the game goes on there.)
                pair.deferred.clear();
                continue;
            };
            if ok["finish"].is_null() && ok["snapshot"]["status"] == "playing" {
                assert!(
                    answered,
                    "{kind}: a move that does not end the game is answered: {mv}"
                );
            } else {
                assert!(!answered, "a finishing move is left to the core");
                return played;
            }
            // Now and then the page asks again, pauses, or buzzes.
            match step % 7 {
                2 => assert!(pair.both(5.0, "snapshot", json!({ "kind": kind })).1),
                4 => assert!(pair.both(5.0, "haptic", json!({ "kind": "move" })).1),
                5 => {
                    assert!(pair.both(300.0, "pause", json!({})).1);
                }
                _ => {}
            }
            view = ok.clone();
            played += 1;
            moved = true;
            break;
        }
        assert!(moved, "{kind}: no legal move at step {step}");
    }
    played
}

fn code(id: &str, extra: Value) -> String {
    let core = WebCore::open(Sim::new(), clock(), || 7);
    let mut args = json!({ "id": id });
    for (k, v) in extra.as_object().unwrap() {
        args[k] = v.clone();
    }
    let r: Value = serde_json::from_str(&core.dispatch("encode_code", &args.to_string())).unwrap();
    r["ok"]["code"]
        .as_str()
        .unwrap_or_else(|| panic!("encode {id}: {r}"))
        .to_string()
}

#[test]
fn the_first_core_answers_a_shared_board_as_the_core_does() {
    let boards = [
        "slide:3x3:8,6,7,2,5,4,3,0,1",
        "slide:4x4:2,0,3,4,1,5,7,8,9,6,10,12,13,14,11,15",
        "slide:4x4:0,12,9,13,15,11,10,14,3,7,2,5,4,8,6,1",
        "slide:5x5#41",
        "slide:3x5#8",
        "slide:2x2:0,3,2,1",
        "2048:2,0,0,2,0,0,4,0,0,0,0,0,2,0,0,0#5",
        "2048:#77",
    ];
    let mut opened = 0;
    let mut moves = 0;
    for id in boards {
        for (what, text) in [
            ("id", id.to_string()),
            ("code", code(id, json!({}))),
            ("challenge", code(id, json!({ "moves": 400, "ms": 95_000 }))),
        ] {
            let mut pair = Pair::new();
            let view = pair.open(&text).unwrap_or_else(|| {
                panic!(
                    "{id} ({what}) is opened by the first core: {:?}",
                    pair.deferred
                )
            });
            opened += 1;
            moves += play(&mut pair, view, 30);
            if !pair.deferred.is_empty() {
                continue; // a finishing move: the core has the game from here
            }
            // Other screens: the game's clock stops, as the core's does.
            assert!(pair.both(50.0, "set_screen", json!({ "screen": "home" })).1);
            let kind = if id.starts_with("2048") {
                "2048"
            } else {
                "slide"
            };
            assert!(pair.both(2_000.0, "snapshot", json!({ "kind": kind })).1);
            assert!(
                pair.both(
                    5.0,
                    "set_screen",
                    json!({ "screen": format!("game:{kind}") })
                )
                .1
            );
            // Once anything changed, the progress (its store generation) is the core's to say.
            let (_, a) = pair.both(10.0, "get_progress", json!({}));
            assert!(!a, "get_progress after changes is left to the core");
        }
    }
    assert_eq!(opened, boards.len() * 3);
    // Most games go the whole 30 moves (a 2×2 or a 2048 may end sooner).
    assert!(moves >= 500, "only {moves} moves compared");
}

#[test]
fn klotski_layouts_are_answered_as_the_core_does() {
    // The classic layouts from the core's own level list.
    let levels: Value = {
        let core = WebCore::open(Sim::new(), clock(), || 7);
        serde_json::from_str(&core.dispatch("levels", r#"{"kind":"klotski"}"#)).unwrap()
    };
    let ids: Vec<String> = levels["ok"]["levels"]
        .as_array()
        .expect("klotski levels")
        .iter()
        .filter_map(|l| l["id"].as_str().map(str::to_string))
        .take(6)
        .collect();
    assert!(ids.len() >= 3, "{levels}");
    for id in &ids {
        let mut pair = Pair::new();
        let view = pair
            .open(id)
            .unwrap_or_else(|| panic!("{id}: {:?}", pair.deferred));
        assert!(play(&mut pair, view, 25) > 0);
    }
}

#[test]
fn what_the_first_core_cannot_answer_exactly_waits_for_the_core() {
    // Each case on a fresh pair: after a deferral the page asks only the core.
    let deferred = |f: &dyn Fn(&mut Pair) -> (Value, bool)| {
        let mut pair = Pair::new();
        let (r, answered) = f(&mut pair);
        assert!(!answered, "answered by the first core: {r}");
        r
    };
    // Errors are the core's to word.
    for (name, args) in [
        ("open_game", json!({ "id": "slide:3x3:1,1,1" })),
        ("play", json!({ "kind": "slide", "mv": { "tile": 1 } })),
        ("nonsense", json!({})),
        ("haptic", json!({ "kind": "explode" })),
        ("levels", json!({ "kind": "chess" })),
        ("set_screen", json!({ "screen": "NOT A SCREEN" })),
    ] {
        let r = deferred(&|p| p.both(1.0, name, args.clone()));
        assert!(r.get("error").is_some(), "{name}: {r}");
    }
    // Searches, records, a second game and a finishing move are the core's.
    for (name, args) in [
        ("hint", json!({ "kind": "slide" })),
        ("records", json!({})),
        ("open_game", json!({ "id": "slide:3x3#4" })),
        ("play", json!({ "kind": "slide", "mv": { "tile": 8 } })),
    ] {
        let r = deferred(&|p| {
            p.open("slide:3x3:1,2,3,4,5,6,7,0,8").expect("opened");
            p.both(1.0, name, args.clone())
        });
        if name == "play" {
            assert_eq!(r["ok"]["snapshot"]["status"], "won", "{r}");
        }
    }
}
