//! 2048 in the app: one free game per board size (3×3 … 8×8), no optimum, score
//! and biggest tile in the records, one record scope per size (`2048` for the 4×4, as
//! before; `2048:5x5` for the others).

use super::{AppGame, Mode};
use huarong_engine::g2048::G2048;
use huarong_engine::registry::G2048_WIN_TILES;
use serde_json::{json, Value};

/// The size part of a slot key or record scope: `""` for the 4×4 (its keys and scope stay
/// what they were), `:5x5` for the others.
fn size_suffix(side: u8) -> String {
    if side == 4 {
        String::new()
    } else {
        format!(":{side}x{side}")
    }
}

impl AppGame for G2048 {
    fn new_slot(start: &Self) -> (String, Mode) {
        match start.side() {
            4 => ("2048:free".into(), Mode::Free),
            s => (format!("2048{}", size_suffix(s)), Mode::Free),
        }
    }
    fn scope(start: &Self) -> String {
        format!("2048{}", size_suffix(start.side()))
    }
    fn own_scope(start: &Self) -> String {
        // A board the app did not deal (`2048:<board>`): `2048:board:<FNV-1a 64 of it>`.
        use huarong_engine::Game;
        let b = huarong_engine::rng::fnv1a64(start.board_body().as_bytes());
        format!("2048:board:{b:016x}")
    }
    fn score(&self) -> Option<u64> {
        Some(G2048::score(self))
    }
    fn best_tile(&self) -> Option<u64> {
        Some(self.max_tile() as u64)
    }
    /// Won at the size's winning tile, the player may keep going.
    fn can_go_on(&self) -> bool {
        use huarong_engine::Game;
        self.status() == huarong_engine::Status::Won && !self.kept_going()
    }
    /// Every swipe adds one tile of 2 or 4: a claimed 2048 needs its tiles' sum to reach 2048,
    /// and a score is at most what merging that sum into one tile from 2s gives.
    fn impossible(
        start: &Self,
        moves: u32,
        outcome: Option<huarong_engine::code::Outcome>,
    ) -> Option<String> {
        let o = outcome?;
        let sum0: u64 = start.cells().iter().map(|&v| u64::from(v)).sum();
        let most = sum0 + 4 * u64::from(moves);
        let win = u64::from(start.win_tile());
        if o.won && most < win {
            return Some(format!(
                "it claims the {win} tile in {moves} swipes; they can bring the tiles to {most} at most"
            ));
        }
        // A tile of 2^k made from 2s scored (k − 1)·2^k; the sum bounds every tile.
        let bits = u64::from(64 - most.max(2).leading_zeros());
        let cap = most.saturating_mul(bits);
        (o.score > cap).then(|| {
            format!(
                "it claims a score of {} in {moves} swipes; they can score {cap} at most",
                o.score
            )
        })
    }
    /// A 2048 daily counts when it is played to its end, won or not.
    const DAILY_ON_END: bool = true;
    /// One entry per board size, the 4×4 first (as before), then the others smallest
    /// first: `params` for `new_game` (`""` is the 4×4, `"5x5"` the others), `size`, its slot,
    /// its winning tile (`win`), its record scope and the best of that scope.
    fn levels(state: &dyn super::Player, rule: &str) -> Value {
        let mut sizes = G2048_WIN_TILES.to_vec();
        sizes.sort_by_key(|&(side, _)| (side != 4, side));
        let levels: Vec<Value> = sizes
            .iter()
            .map(|&(side, win)| {
                let suffix = size_suffix(side);
                let params = if side == 4 {
                    String::new()
                } else {
                    format!("{side}x{side}")
                };
                json!({
                    "params": params,
                    "size": side,
                    "win": win,
                    "slot": if side == 4 { "2048:free".to_string() } else { format!("2048{suffix}") },
                    "scope": format!("2048{suffix}"),
                    "best": state.record(&format!("2048{suffix}/{rule}")),
                })
            })
            .collect();
        json!({ "kind": "2048", "rule": rule, "levels": levels })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use huarong_engine::Game;

    #[test]
    fn the_4x4_keeps_its_slot_and_scope_and_other_sizes_get_their_own() {
        let four = G2048::from_id("", Some(3)).unwrap();
        assert_eq!(G2048::new_slot(&four).0, "2048:free");
        assert_eq!(G2048::scope(&four), "2048");
        let five = G2048::from_id("5x5", Some(3)).unwrap();
        assert_eq!(G2048::new_slot(&five).0, "2048:5x5");
        assert_eq!(G2048::scope(&five), "2048:5x5");
        let three = G2048::from_id("3x3", Some(3)).unwrap();
        assert_eq!(G2048::scope(&three), "2048:3x3");
    }

    /// The sizes through the command table, as the page plays them: the level list, a 5×5
    /// new game in its own slot beside the 4×4's, a 3×3 won at 256 whose record lands in
    /// its own scope and on its level entry, and bad sizes refused.
    #[test]
    fn sizes_through_the_command_table() {
        use crate::commands::dispatch;
        use crate::platform::Platform;
        use crate::state::AppState;
        let st = AppState::open(None, Platform::headless(), || Err("no store".into()));
        let call = |name: &str, args: Value| {
            dispatch(&st, name, args).unwrap_or_else(|e| panic!("{name}: {e:?}"))
        };
        let levels = call("levels", json!({"kind": "2048"}));
        let list = levels["levels"].as_array().unwrap();
        let sizes: Vec<u64> = list.iter().map(|l| l["size"].as_u64().unwrap()).collect();
        assert_eq!(sizes, [4, 3, 5, 6, 7, 8]);
        assert_eq!(list[0]["params"], "");
        assert_eq!(list[0]["scope"], "2048");
        assert_eq!(list[1]["params"], "3x3");
        assert_eq!(list[1]["win"], 256);
        assert_eq!(list[2]["scope"], "2048:5x5");
        assert!(list.iter().all(|l| l["best"].is_null()));

        let four = call("new_game", json!({"kind": "2048", "params": "", "seed": 5}));
        assert_eq!(four["snapshot"]["id"], "2048:#5");
        assert_eq!(four["snapshot"]["view"]["size"], 4);
        let v = call(
            "new_game",
            json!({"kind": "2048", "params": "5x5", "seed": 7}),
        );
        assert_eq!(v["snapshot"]["id"], "2048:5x5#7");
        assert_eq!(v["snapshot"]["view"]["size"], 5);
        assert_eq!(v["snapshot"]["view"]["win"], 2048);
        assert_eq!(v["snapshot"]["view"]["cells"].as_array().unwrap().len(), 25);
        let v = call("play", json!({"kind": "2048", "mv": {"dir": "down"}}));
        let v = if v["snapshot"]["moves"] == 0 {
            call("play", json!({"kind": "2048", "mv": {"dir": "up"}}))
        } else {
            v
        };
        assert_eq!(v["snapshot"]["moves"], 1);
        let games = call("list_games", json!({}));
        let slots: Vec<&str> = games
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["slot"].as_str().unwrap())
            .collect();
        assert!(
            slots.contains(&"2048:5x5") && slots.contains(&"2048:free"),
            "{slots:?}"
        );

        for bad in ["9x9", "5x4", "2x2", "five"] {
            let e = dispatch(
                &st,
                "new_game",
                json!({"kind": "2048", "params": bad, "seed": 1, "replace": true}),
            )
            .unwrap_err();
            assert!(
                matches!(e.code.as_str(), "bad_argument" | "parse" | "out_of_range"),
                "{bad}: {e:?}"
            );
        }

        // A dealt 3×3 played to 256 (the moves found by the engine's AI at a fixed depth):
        // the win lands in the 3×3's scope.
        use huarong_engine::g2048::{ai::Budget, Move};
        use huarong_engine::{Cancel, Status};
        let (seed, dirs) = (1u64..40)
            .find_map(|seed| {
                let mut g = G2048::from_id("3x3", Some(seed)).unwrap();
                let mut dirs = Vec::new();
                while g.status() == Status::Playing && dirs.len() < 3000 {
                    let c = g.best_move(Budget::Depth(2), &Cancel::new())?;
                    g.apply(&Move::Slide(c.dir)).unwrap();
                    dirs.push(c.dir);
                }
                (g.status() == Status::Won).then_some((seed, dirs))
            })
            .expect("a 3×3 the AI takes to 256");
        call(
            "new_game",
            json!({"kind": "2048", "params": "3x3", "seed": seed, "replace": true}),
        );
        let mut won = Value::Null;
        for d in &dirs {
            won = call("play", json!({"kind": "2048", "mv": {"dir": d.as_str()}}));
        }
        assert_eq!(won["snapshot"]["status"], "won", "{won}");
        assert_eq!(won["snapshot"]["view"]["win"], 256);
        assert_eq!(won["finish"]["key"], "2048:3x3/moves", "{won}");
        let rec = call("records", json!({"scope": "2048:3x3"}));
        assert_eq!(rec["history"].as_array().unwrap().len(), 1, "{rec}");
        let levels = call("levels", json!({"kind": "2048"}));
        let three = &levels["levels"][1];
        assert_eq!(three["size"], 3);
        assert_eq!(three["best"]["best_tile"], 256, "{three}");
        assert!(
            levels["levels"][0]["best"].is_null(),
            "the 4×4 keeps its own record"
        );
        call("play", json!({"kind": "2048", "mv": {"keep_going": true}}));
    }
}
