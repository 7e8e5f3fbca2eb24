//! What the app needs from each game beyond the engine's `Game` trait: where its session
//! lives, how its records are keyed, its optimum and stars, and the level lists.

use crate::progress::Record;
use crate::state::{AppState, Games, SlotRef};
use huarong_engine::g2048::G2048;
use huarong_engine::klotski;
use huarong_engine::slide::{self, Slide};
use huarong_engine::{Cancel, Game, Kind};
pub use klotski::Klotski;
use serde_json::{json, Value};

/// Star thresholds from an optimum `min` (the Klotski levels' rule, used for every game
/// with a known optimum): 3 stars for ≤ min + ⌈min/10⌉ moves, 2 for ≤ ⌈3·min/2⌉, else 1.
pub fn stars_for(min: u32, moves: u32) -> u8 {
    if moves <= min + min.div_ceil(10) {
        3
    } else if moves <= (3 * min).div_ceil(2) {
        2
    } else {
        1
    }
}

pub trait AppGame: Game {
    /// This kind's slot in the app state.
    fn slot(games: &Games) -> &SlotRef<Self>;
    /// The record scope of a game started from `start`: `slide:4x4`, `klotski:<board>`, `2048`.
    fn scope(start: &Self) -> String;
    /// Whether an optimum can be had at all (so a background job is worth starting).
    fn has_optimum(start: &Self) -> bool;
    /// The fewest moves from `start` under the game's default rule (run off the main
    /// thread; may search). `None` when unknown or too costly.
    fn optimum(start: &Self, cancel: &Cancel) -> Option<u32>;
    /// The optimum when it costs nothing (a lookup), for a win before the background
    /// job is done.
    fn quick_optimum(_start: &Self) -> Option<u32> {
        None
    }
    /// Stars for a win in `moves` under `rule`, where the game gives stars.
    fn stars(start: &Self, rule: &str, moves: u32, optimal: Option<u32>) -> Option<u8>;
    /// 2048's score and biggest tile.
    fn score(&self) -> Option<u64> {
        None
    }
    fn best_tile(&self) -> Option<u64> {
        None
    }
    /// The 1-based number of the level `start` is (Klotski classics), for unlocking.
    fn level_index(_start: &Self) -> Option<u32> {
        None
    }
}

impl AppGame for Slide {
    fn slot(games: &Games) -> &SlotRef<Self> {
        &games.slide
    }
    fn scope(start: &Self) -> String {
        format!("slide:{}x{}", start.board().width(), start.board().height())
    }
    fn has_optimum(start: &Self) -> bool {
        start.board().width() * start.board().height() <= 16
    }
    fn optimum(start: &Self, cancel: &Cancel) -> Option<u32> {
        if let Some(n) = slide::optimal_length(start.board()) {
            return Some(n);
        }
        if !Self::has_optimum(start) {
            return None;
        }
        slide::solve(start.board(), cancel)
            .ok()
            .filter(|s| s.optimal)
            .map(|s| s.tiles.len() as u32)
    }
    fn quick_optimum(start: &Self) -> Option<u32> {
        // Built tables answer at once; the 3×3 table builds in tens of milliseconds.
        let b = start.board();
        let cheap = slide::is_built(b.width(), b.height()) || b.width() * b.height() <= 9;
        cheap.then(|| slide::optimal_length(b)).flatten()
    }
    fn stars(_start: &Self, rule: &str, moves: u32, optimal: Option<u32>) -> Option<u8> {
        // The optimum is counted in tile moves; other counts get no stars.
        (rule == "tile")
            .then_some(optimal.map(|o| stars_for(o, moves)))
            .flatten()
    }
}

impl AppGame for Klotski {
    fn slot(games: &Games) -> &SlotRef<Self> {
        &games.klotski
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
}

fn classic_of(start: &Klotski) -> Option<&'static klotski::Classic> {
    let body = start.board_body();
    klotski::classics().iter().find(|c| c.board == body)
}

impl AppGame for G2048 {
    fn slot(games: &Games) -> &SlotRef<Self> {
        &games.g2048
    }
    fn scope(_start: &Self) -> String {
        "2048".into()
    }
    fn has_optimum(_start: &Self) -> bool {
        false
    }
    fn optimum(_start: &Self, _cancel: &Cancel) -> Option<u32> {
        None
    }
    fn stars(_start: &Self, _rule: &str, _moves: u32, _optimal: Option<u32>) -> Option<u8> {
        None
    }
    fn score(&self) -> Option<u64> {
        Some(G2048::score(self))
    }
    fn best_tile(&self) -> Option<u64> {
        Some(self.max_tile() as u64)
    }
}

/// Slide sizes offered in the level list.
pub const SLIDE_SIZES: &[(usize, usize)] = &[
    (3, 3),
    (4, 4),
    (5, 5),
    (6, 6),
    (7, 7),
    (8, 8),
    (9, 9),
    (10, 10),
    (3, 4),
    (4, 5),
];

/// The level list of `kind` with the player's records under the current rule.
pub fn levels(state: &AppState, kind: Kind) -> Value {
    let rule = state.settings().rule(kind.as_str()).to_string();
    let best = |scope: &str| -> Option<Record> { state.record(&format!("{scope}/{rule}")) };
    match kind {
        Kind::Klotski => {
            let open = state.unlocked(kind);
            let levels: Vec<Value> = klotski::classics()
                .iter()
                .map(|c| {
                    json!({
                        "index": c.index,
                        "name_zh": c.name_zh,
                        "name_en": c.name_en,
                        "id": c.id(),
                        "optimal": c.min_moves,
                        "stars": c.stars,
                        "unlocked": c.index <= open,
                        "best": best(&format!("klotski:{}", c.board)),
                    })
                })
                .collect();
            json!({ "kind": "klotski", "rule": rule, "unlocked": open, "levels": levels })
        }
        Kind::Slide => {
            let sizes: Vec<Value> = SLIDE_SIZES
                .iter()
                .map(|&(w, h)| {
                    let size = format!("{w}x{h}");
                    let difficulties: Vec<Value> = slide::Difficulty::ALL
                        .iter()
                        .filter_map(|d| {
                            d.band(w, h).map(|(lo, hi)| {
                                json!({ "name": d.as_str(), "params": format!("{size}/{}", d.as_str()), "band": [lo, hi] })
                            })
                        })
                        .collect();
                    json!({
                        "size": size,
                        "params": size,
                        "difficulties": difficulties,
                        "best": best(&format!("slide:{size}")),
                    })
                })
                .collect();
            json!({ "kind": "slide", "rule": rule, "levels": sizes })
        }
        Kind::G2048 => json!({
            "kind": "2048",
            "rule": rule,
            "levels": [{ "params": "", "best": best("2048") }],
        }),
    }
}
