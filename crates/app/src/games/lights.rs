//! Lights Out on one row in the app: the stand-in game of the tests (the engine's `lights`,
//! `cfg(stand_in)`), played through the same command table as the real games. One free slot
//! and one record scope per row length; its optimum from the solver (at most 256 rows, so at
//! once); stars by the star rule.

use super::{stars_for, AppGame, Mode};
use huarong_engine::lights::{Lights, MAX_LIGHTS};
use huarong_engine::{Cancel, Game};
use serde_json::{json, Value};

/// The shortest row the level list offers.
const SHORTEST: u8 = 3;

/// `lights:<n>`: the slot and the record scope of a row of `n` lights.
fn scope_of(start: &Lights) -> String {
    format!("lights:{}", start.board_body().len())
}

impl AppGame for Lights {
    fn new_slot(start: &Self) -> (String, Mode) {
        (scope_of(start), Mode::Free)
    }
    fn scope(start: &Self) -> String {
        scope_of(start)
    }
    fn has_optimum(_start: &Self) -> bool {
        true
    }
    fn optimum(start: &Self, cancel: &Cancel) -> Option<u32> {
        start.solve(cancel).ok().map(|line| line.len() as u32)
    }
    fn quick_optimum(start: &Self) -> Option<u32> {
        Self::optimum(start, &Cancel::new())
    }
    fn stars(_start: &Self, rule: &str, moves: u32, optimal: Option<u32>) -> Option<u8> {
        (rule == "moves")
            .then_some(optimal.map(|o| stars_for(o, moves)))
            .flatten()
    }
    fn levels(state: &dyn super::Player, rule: &str) -> Value {
        let levels: Vec<Value> = (SHORTEST..=MAX_LIGHTS)
            .map(|n| {
                let scope = format!("lights:{n}");
                json!({
                    "size": n,
                    "params": n.to_string(),
                    "slot": scope,
                    "scope": scope,
                    "best": state.record(&format!("{scope}/{rule}")),
                })
            })
            .collect();
        json!({ "kind": "lights", "rule": rule, "levels": levels })
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::dispatch;
    use crate::platform::Platform;
    use crate::state::AppState;
    use huarong_engine::lights::Lights;
    use huarong_engine::{Cancel, Game, GameId};
    use serde_json::{json, Value};

    /// The stand-in through the command table, as the page plays it: its level list, a new
    /// game, an illegal move, a win with its finish (optimum, stars, record), its records, its
    /// slot, and its result code decoded and verified.
    #[test]
    fn the_stand_in_is_played_through_the_command_table() {
        let st = AppState::open(None, Platform::headless(), || Err("no store".into()));
        let call = |name: &str, args: Value| {
            dispatch(&st, name, args).unwrap_or_else(|e| panic!("{name}: {e:?}"))
        };
        let levels = call("levels", json!({"kind": "lights"}));
        assert_eq!(levels["kind"], "lights");
        assert_eq!(levels["levels"][2]["params"], "5");
        assert!(levels["levels"][2]["best"].is_null());
        let v = call(
            "new_game",
            json!({"kind": "lights", "params": "5", "seed": 3}),
        );
        let id = v["snapshot"]["id"].as_str().unwrap().to_string();
        assert_eq!(id, "lights:5#3");
        assert_eq!(v["snapshot"]["view"]["lights"].as_array().unwrap().len(), 5);
        let e = dispatch(&st, "play", json!({"kind": "lights", "mv": {"flip": 9}})).unwrap_err();
        assert_eq!(e.code.as_str(), "illegal_move", "{e:?}");

        let g = GameId::parse(&id).unwrap();
        let line = Lights::from_id(&g.body, g.seed)
            .unwrap()
            .solve(&Cancel::new())
            .unwrap();
        let mut last = Value::Null;
        for mv in &line {
            last = call("play", json!({"kind": "lights", "mv": mv}));
        }
        let f = &last["finish"];
        assert_eq!(f["status"], "won", "{last}");
        assert_eq!(f["moves"], line.len());
        assert_eq!(f["optimal"], line.len());
        assert_eq!(f["stars"], 3);
        assert_eq!(f["key"], "lights:5/moves");
        assert_eq!(f["new_record"], true);

        let rec = call("records", json!({"scope": "lights:5"}));
        assert_eq!(rec["history"].as_array().unwrap().len(), 1, "{rec}");
        let levels = call("levels", json!({"kind": "lights"}));
        assert_eq!(levels["levels"][2]["best"]["best_moves"], line.len());
        let games = call("list_games", json!({}));
        assert!(games
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["kind"] == "lights" && s["slot"] == "lights:5"));

        let code = call("result_code", json!({"kind": "lights"}));
        let d = call("decode_code", json!({"text": code["code"]}));
        assert_eq!(
            (&d["kind"], &d["source"]),
            (&json!("lights"), &json!(id)),
            "{d}"
        );
        assert_eq!(d["verified"], true, "{d}");
        assert_eq!(d["challenge"]["moves"], line.len());
    }
}
