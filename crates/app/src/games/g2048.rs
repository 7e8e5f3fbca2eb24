//! 2048 in the app: one free game, no optimum, score and biggest tile in the records.

use super::{AppGame, Mode};
use huarong_engine::g2048::G2048;
use serde_json::{json, Value};

impl AppGame for G2048 {
    fn new_slot(_start: &Self) -> (String, Mode) {
        ("2048:free".into(), Mode::Free)
    }
    fn scope(_start: &Self) -> String {
        "2048".into()
    }
    fn score(&self) -> Option<u64> {
        Some(G2048::score(self))
    }
    fn best_tile(&self) -> Option<u64> {
        Some(self.max_tile() as u64)
    }
    /// Won at the 2048 tile, the player may keep going.
    fn can_go_on(&self) -> bool {
        use huarong_engine::Game;
        self.status() == huarong_engine::Status::Won && !self.kept_going()
    }
    /// A 2048 daily counts when it is played to its end, won or not.
    const DAILY_ON_END: bool = true;
    fn levels(state: &dyn super::Player, rule: &str) -> Value {
        json!({
            "kind": "2048",
            "rule": rule,
            "levels": [{ "params": "", "slot": "2048:free", "best": state.record(&format!("2048/{rule}")) }],
        })
    }
}
