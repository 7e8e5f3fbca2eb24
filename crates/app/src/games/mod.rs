//! The app-side registry of games: what the app needs from each game beyond the engine's
//! `Game` trait (its slots, record scope, optimum and stars, level list). One module per
//! game (`slide.rs`, `klotski.rs`, `g2048.rs`, and the tests' stand-in `lights.rs`)
//! implements [`AppGame`]; [`with_game!`] is made from the engine's list of games
//! (`huarong_engine::for_each_game!`), so adding a game here is its module and its `mod` line.

mod g2048;
mod klotski;
#[cfg(stand_in)]
mod lights;
mod slide;
mod slot;

use crate::progress::Record;
use huarong_engine::analysis::Analysis;
use huarong_engine::{Cancel, Game, Kind, Session};
pub use slot::{KindMap, KindSlots, Slot, SlotRef};

use serde_json::Value;
use std::any::Any;
use std::collections::HashMap;

pub use klotski::{FIRST_UNLOCKED, OPEN_FROM_START};

/// Run `$body` with `$G` bound to the game type of `$kind`: one arm per game of the engine's
/// list (a game without an [`AppGame`] impl does not compile).
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {
        huarong_engine::for_each_game!(crate::games::with_game_arms! { [$kind, $G, $body] })
    };
}
pub(crate) use with_game;

/// [`with_game!`]'s `match`, from the engine's list.
macro_rules! with_game_arms {
    ([$kind:expr, $G:ident, $body:expr] $( $variant:ident = $game:path, $module:ident, $name:literal; )+) => {
        match $kind {
            $(
                huarong_engine::Kind::$variant => {
                    type $G = $game;
                    $body
                }
            )+
        }
    };
}
pub(crate) use with_game_arms;

pub use crate::progress::Mode;

/// Every kind's slots, built from the registry (a map from kind to `KindSlots<G>`).
pub struct Games(HashMap<Kind, Box<dyn Any + Send + Sync>>);

impl Default for Games {
    fn default() -> Self {
        let mut m: HashMap<Kind, Box<dyn Any + Send + Sync>> = HashMap::new();
        for kind in Kind::ALL {
            with_game!(kind, G => m.insert(kind, Box::new(KindSlots::<G>::default())));
        }
        Games(m)
    }
}

/// (`Coded`: a finish's move log is packed as share codes pack it.)
pub trait AppGame: Game + huarong_engine::code::Coded {
    /// This kind's slots in the app state.
    fn slots(games: &Games) -> &KindSlots<Self> {
        games
            .0
            .get(&Self::KIND)
            .and_then(|b| b.downcast_ref::<KindSlots<Self>>())
            .expect("every registered kind has its slots (built from the same registry)")
    }
    /// The slot of a game started with `new_game` from `params`: key and mode.
    fn new_slot(start: &Self) -> (String, Mode);
    /// The slot of a plain game ID opened with `open_game` when it is not a daily puzzle:
    /// `None` = a challenge slot keyed by the ID (Klotski classics have their level slot).
    fn open_slot(_start: &Self) -> Option<(String, Mode)> {
        None
    }
    /// The record scope of a game the app dealt from `start` (a seeded ID, a level):
    /// `slide:4x4`, `klotski:<board>`, `2048` (`records::scope_of` decides which applies).
    fn scope(start: &Self) -> String;
    /// The record scope of a board the app did not deal (a code's or a typed ID's exact
    /// board): its own, never its size's. Klotski's scopes are per board already.
    fn own_scope(start: &Self) -> String {
        Self::scope(start)
    }
    /// Whether an optimum can be had at all (so a background job is worth starting).
    fn has_optimum(_start: &Self) -> bool {
        false
    }
    /// The fewest moves from `start` under the game's default rule (run off the main
    /// thread; may search). `None` when unknown or too costly.
    fn optimum(_start: &Self, _cancel: &Cancel) -> Option<u32> {
        None
    }
    /// The optimum when it costs nothing (a lookup), for a win before the background
    /// job is done.
    fn quick_optimum(_start: &Self) -> Option<u32> {
        None
    }
    /// Why a result claimed from `start` and not verified by a replay (a code without a move
    /// log) cannot be true, where the app knows a bound: fewer moves (default rule)
    /// than the puzzle's optimum or a lower bound of it; a 2048 win or score its swipes cannot
    /// make. `None`: possible as far as the app knows.
    fn impossible(
        _start: &Self,
        _moves: u32,
        _outcome: Option<huarong_engine::code::Outcome>,
    ) -> Option<String> {
        None
    }
    /// Stars for a win in `moves` under `rule`, where the game gives stars.
    fn stars(_start: &Self, _rule: &str, _moves: u32, _optimal: Option<u32>) -> Option<u8> {
        None
    }
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
    /// The level after `start` (a Klotski classic): its game ID and 1-based index; `None`
    /// after the last level or for a game that is no level.
    fn next_level(_start: &Self) -> Option<(String, u32)> {
        None
    }
    /// Whether a game that is not `Playing` can still go on (2048 at its 2048 tile, before
    /// "keep going"): an unfinished game for replacing and for the slot cap.
    fn can_go_on(&self) -> bool {
        false
    }
    /// Whether playing a game to its end (not only a win) completes a daily puzzle.
    const DAILY_ON_END: bool = false;
    /// The picture a game-ID body names (number-slide picture puzzles), for `decode_code`.
    fn picture_of(_body: &str) -> Option<String> {
        None
    }
    /// Whether [`AppGame::analyse`] gives the optimal distance after each move.
    const ANALYSED: bool = false;
    /// The optimal distance to the goal after each move of `sess` under `rule` (the
    /// `analysis` command; only called when [`AppGame::ANALYSED`]).
    fn analyse(
        _sess: &Session<Self>,
        _rule: &str,
        _cancel: &Cancel,
    ) -> Result<Analysis, huarong_engine::Error> {
        Err(huarong_engine::Error::new(
            huarong_engine::ErrorCode::Unsupported,
            "this game has no optimal distance to analyse",
        ))
    }
    /// The level list with the player's bests under `rule` (`levels` command).
    fn levels(player: &dyn Player, rule: &str) -> Value;
}

/// What a level list shows of the player (the app state answers it).
pub trait Player {
    /// The level record under `key` (`<scope>/<rule>`).
    fn record(&self, key: &str) -> Option<Record>;
    /// How many levels of `kind` are open.
    fn unlocked(&self, kind: Kind) -> u32;
    /// Whether the player keeps a picture of their own.
    fn has_custom_picture(&self) -> bool;
}

/// The star rule (defined once, in the engine).
pub use huarong_engine::registry::stars as stars_for;

/// The level list of `kind` with the player's records under `rule`.
pub fn levels(player: &dyn Player, kind: Kind, rule: &str) -> Value {
    with_game!(kind, G => G::levels(player, rule))
}
