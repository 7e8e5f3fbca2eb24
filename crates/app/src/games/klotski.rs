//! Klotski in the app: one slot per classic level, one for generated levels; the classics'
//! optimum and stars come from the engine's table.

use super::{stars_for, AppGame, Mode};
use huarong_engine::klotski::{self, Klotski};
use huarong_engine::{Cancel, Game, Kind};
use serde_json::{json, Value};

/// Classics open from the first start, beside the easiest ones (which open one by one as
/// the player wins): the five layouts every Huarong Dao booklet and wooden set begins
/// with — 横刀立马 (the layout on the box of nearly every physical set), 指挥若定, 将拥曹营,
/// 齐头并进, 兵分三路 — so a player who knows the game can play the one they know at once,
/// although they sit in the middle of the difficulty order.
pub const OPEN_FROM_START: &[&str] = &["横刀立马", "指挥若定", "将拥曹营", "齐头并进", "兵分三路"];

/// How many classics (in difficulty order) are open before any is won.
pub const FIRST_UNLOCKED: u32 = 3;

fn classic_of(start: &Klotski) -> Option<&'static klotski::Classic> {
    let canon = start.board().canonical();
    if !klotski::is_classic(start.board()) {
        return None;
    }
    klotski::classics()
        .iter()
        .find(|c| c.parse_board().canonical() == canon)
}

/// Whether the classic `index` is open when `open` levels have been unlocked by wins.
pub fn is_open(index: u32, name_zh: &str, open: u32) -> bool {
    index <= open || OPEN_FROM_START.contains(&name_zh)
}

impl AppGame for Klotski {
    const ANALYSED: bool = true;
    fn analyse(
        sess: &huarong_engine::Session<Self>,
        rule: &str,
        cancel: &Cancel,
    ) -> Result<huarong_engine::analysis::Analysis, huarong_engine::Error> {
        use huarong_engine::analysis::{klotski_from, klotski_rule};
        klotski_from(sess.start(), sess.played(), klotski_rule(rule)?, cancel)
    }
    fn new_slot(start: &Self) -> (String, Mode) {
        Self::open_slot(start).unwrap_or_else(|| ("klotski:generated".into(), Mode::Free))
    }
    fn open_slot(start: &Self) -> Option<(String, Mode)> {
        classic_of(start).map(|c| (format!("klotski:level:{}", c.index), Mode::Level))
    }
    fn scope(start: &Self) -> String {
        format!("klotski:{}", start.board_body())
    }
    fn has_optimum(_start: &Self) -> bool {
        true
    }
    fn optimum(start: &Self, cancel: &Cancel) -> Option<u32> {
        if let Some(c) = classic_of(start) {
            return c.min_moves;
        }
        start.solve(cancel).ok().map(|s| s.len() as u32)
    }
    fn quick_optimum(start: &Self) -> Option<u32> {
        classic_of(start).and_then(|c| c.min_moves)
    }
    fn impossible(
        start: &Self,
        moves: u32,
        _outcome: Option<huarong_engine::code::Outcome>,
    ) -> Option<String> {
        // A classic's optimum is known; a board of the classic size (4×5: a daily, a
        // generated level) is solved here, within the opening's budget (milliseconds);
        // other boards are not searched for this.
        let b = start.board();
        let floor = Self::quick_optimum(start).or_else(|| {
            (b.width() * b.height() <= 20)
                .then(|| start.solve(&Cancel::new()).ok().map(|s| s.len() as u32))
                .flatten()
        })?;
        (moves < floor)
            .then(|| format!("it claims {moves} moves, and this puzzle needs at least {floor}"))
    }
    fn stars(start: &Self, rule: &str, moves: u32, optimal: Option<u32>) -> Option<u8> {
        if rule != "piece" {
            return None;
        }
        match classic_of(start).and_then(|c| c.stars) {
            Some(s) => Some(s.earned(moves)),
            None => optimal.map(|o| stars_for(o, moves)),
        }
    }
    fn level_index(start: &Self) -> Option<u32> {
        classic_of(start).map(|c| c.index)
    }
    fn next_level(start: &Self) -> Option<(String, u32)> {
        let i = classic_of(start)?.index;
        klotski::classics()
            .iter()
            .find(|c| c.index == i + 1)
            .map(|c| (c.id(), c.index))
    }
    fn levels(state: &dyn super::Player, rule: &str) -> Value {
        let open = state.unlocked(Kind::Klotski);
        let levels: Vec<Value> = klotski::classics()
            .iter()
            .map(|c| {
                json!({
                    "index": c.index,
                    "name_zh": c.name_zh,
                    "name_en": c.name_en,
                    "id": c.id(),
                    "slot": format!("klotski:level:{}", c.index),
                    "scope": format!("klotski:{}", c.board),
                    "optimal": c.min_moves,
                    "stars": c.stars,
                    "unlocked": is_open(c.index, c.name_zh, open),
                    "best": state.record(&format!("klotski:{}/{rule}", c.board)),
                })
            })
            .collect();
        json!({ "kind": "klotski", "rule": rule, "unlocked": open, "levels": levels })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_open_from_start_names_are_classics() {
        for name in OPEN_FROM_START {
            let c = klotski::classic(name).expect("a classic");
            assert!(is_open(c.index, c.name_zh, FIRST_UNLOCKED));
        }
        let last = klotski::classics().last().unwrap();
        assert!(!is_open(last.index, last.name_zh, FIRST_UNLOCKED));
    }
}
