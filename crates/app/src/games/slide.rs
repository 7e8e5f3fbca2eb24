//! Number slide in the app: one free-play slot per size.

use super::{stars_for, AppGame, Mode};
use crate::progress::Record;
use huarong_engine::slide::{self, Slide};
use huarong_engine::Cancel;
use serde_json::{json, Value};

/// Slide sizes offered in the level list.
pub const SIZES: &[(usize, usize)] = &[
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

fn size(start: &Slide) -> String {
    format!("{}x{}", start.board().width(), start.board().height())
}

impl AppGame for Slide {
    fn picture_of(body: &str) -> Option<String> {
        slide::split_picture(body).ok().and_then(|(_, p)| p)
    }
    const ANALYSED: bool = true;
    fn analyse(
        sess: &huarong_engine::Session<Self>,
        rule: &str,
        cancel: &Cancel,
    ) -> Result<huarong_engine::analysis::Analysis, huarong_engine::Error> {
        use huarong_engine::analysis::{slide_from, SlideRule};
        slide_from(sess.start(), sess.played(), SlideRule::parse(rule)?, cancel)
    }
    fn new_slot(start: &Self) -> (String, Mode) {
        // Picture puzzles have their own slot per size: `slide:<W>x<H>/picture`.
        let picture = if start.picture().is_some() {
            "/picture"
        } else {
            ""
        };
        (format!("slide:{}{picture}", size(start)), Mode::Free)
    }
    fn scope(start: &Self) -> String {
        // `slide:WxH`, or `slide:WxH/picture` for picture puzzles (the engine's scope).
        start.record_scope()
    }
    fn own_scope(start: &Self) -> String {
        // `slide:WxH/board:<FNV-1a 64 of the board>` (`…/picture/board:…` for a picture).
        use huarong_engine::Game;
        let b = huarong_engine::rng::fnv1a64(start.board_body().as_bytes());
        format!("{}/board:{b:016x}", start.record_scope())
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
        let b = start.board();
        if slide::has_pdb(b.width(), b.height()) && b.is_solvable() {
            // The optimal IDA* under the thread's budget deadline: past it, no
            // optimum (the app remembers the failure for this game).
            let bounds = huarong_engine::budget::ambient();
            let limit = slide::Limit {
                deadline: bounds.deadline(),
                nodes: None,
            };
            return slide::solve_weighted(b, slide::Weight::One, &limit, cancel)
                .ok()
                .flatten()
                .and_then(|f| f.tiles)
                .map(|t| t.len() as u32);
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
    fn impossible(
        start: &Self,
        moves: u32,
        _outcome: Option<huarong_engine::code::Outcome>,
    ) -> Option<String> {
        // The optimum where it is a lookup, else a lower bound of it: the tiles' Manhattan
        // distance, or the pattern databases' bound where they are loaded (no build here).
        let b = start.board();
        let (w, h) = (b.width(), b.height());
        let (floor, what) = match Self::quick_optimum(start) {
            Some(n) => (n, "its optimum"),
            None => {
                let loaded = slide::pdb_is_built(w, h) || (w, h) == (4, 4);
                let pdb = (loaded && slide::has_pdb(w, h) && !slide::needs_pdb4x4(w, h))
                    .then(|| slide::pdb(w, h))
                    .flatten()
                    .and_then(|p| p.heuristic(b).ok());
                (pdb.unwrap_or(0).max(b.manhattan()), "at least")
            }
        };
        (moves < floor)
            .then(|| format!("it claims {moves} moves, and this puzzle needs {what} {floor}"))
    }
    fn stars(_start: &Self, rule: &str, moves: u32, optimal: Option<u32>) -> Option<u8> {
        // The optimum is counted in tile moves; other counts get no stars.
        (rule == "tile")
            .then_some(optimal.map(|o| stars_for(o, moves)))
            .flatten()
    }
    fn levels(state: &dyn super::Player, rule: &str) -> Value {
        let best = |scope: &str| -> Option<Record> { state.record(&format!("{scope}/{rule}")) };
        let sizes: Vec<Value> = SIZES
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
                    "slot": format!("slide:{size}"),
                    "scope": format!("slide:{size}"),
                    "difficulties": difficulties,
                    "best": best(&format!("slide:{size}")),
                })
            })
            .collect();
        // The built-in pictures: one entry each, with the params `new_game` takes.
        // Every picture of one size shares the record scope `slide:WxH/picture`.
        let mut pictures: Vec<Value> = slide::pictures::all()
            .iter()
            .map(|p| {
                let size = format!("{0}x{0}", p.side);
                json!({
                    "name": p.name,
                    "params": p.params(),
                    "name_zh": p.title_zh,
                    "name_en": p.title_en,
                    "size": size,
                    "file": p.file(),
                    "custom": false,
                    "slot": format!("slide:{size}/picture"),
                    "scope": format!("slide:{size}/picture"),
                    "best": best(&format!("slide:{size}/picture")),
                })
            })
            .collect();
        if state.has_custom_picture() {
            let size = "3x3";
            pictures.push(json!({
                "name": slide::pictures::CUSTOM,
                "params": format!("{size}/picture:{}", slide::pictures::CUSTOM),
                "name_zh": "我的照片",
                "name_en": "My photo",
                "size": size,
                "file": null,
                "custom": true,
                "slot": format!("slide:{size}/picture"),
                "scope": format!("slide:{size}/picture"),
                "best": best(&format!("slide:{size}/picture")),
            }));
        }
        // Speedsolving runs: a marathon of one size, a relay down to 2×2; their
        // scopes are `slide:<size>/marathon:<count>` and `slide/relay:<N>`.
        let relay: Vec<usize> = (slide::run::RELAY_MIN..=slide::MAX_SIDE).collect();
        let modes = json!({
            "marathon": slide::run::MARATHON_COUNTS,
            "relay": relay,
        });
        json!({ "kind": "slide", "rule": rule, "levels": sizes, "pictures": pictures, "modes": modes })
    }
}
