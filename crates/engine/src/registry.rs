//! The engine's list of games. The list itself is the one `games!` call in `lib.rs`: each
//! line names a game's module, its type, its [`Kind`] variant, its name (the game-ID prefix
//! and JSON form) and its number in share codes. Everything else every layer asks about a
//! kind — its counting rules, its daily puzzle, its share-code content, the star rule — is
//! answered here from the game's own [`Registered`] and [`crate::code::Coded`] impls, so no
//! other file of the engine matches on a kind by hand.
//!
//! Adding a game: its module `src/<game>/` (with `impl Game`, `impl Registered`,
//! `impl code::Coded`) and one line in the `games!` list.

use crate::code::{self, Challenge, Coded, Decoded, Extra};
use crate::error::Result;
use crate::game::Kind;
use crate::id::GameId;
use serde::Serialize;
use std::marker::PhantomData;

/// What the registry needs of a game besides its share-code content (implemented in the
/// game's own module).
pub trait Registered: Coded {
    /// The counting rules the game offers, the default first. They name the game's counters
    /// (`Snapshot::counters`).
    const RULES: &'static [&'static str];
    /// The generator parameters of the game's daily puzzle (`<name>:<params>#<seed>`), or
    /// `None` for a game without a daily. Changing them changes every future day's puzzle
    /// and breaks the daily golden test: never do it.
    const DAILY: Option<&'static str> = None;
    /// The JSON form of one move, for error messages (`{"tile": n}`).
    const MOVE_FORM: &'static str;
    /// Whether making a seeded game from these generator parameters runs a search (seconds:
    /// Klotski's bands, number-slide difficulties). Callers that open many IDs (the fuzzers)
    /// leave those out.
    fn costly_generator(_params: &str) -> bool {
        false
    }
}

/// Generic code run with a game's type by [`Kind::visit`] (tests, fuzzers and shells that
/// do the same thing for whichever game a kind names).
pub trait Visitor {
    type Out;
    fn visit<G: Registered + PartialEq>(self) -> Self::Out;
}

/// Declares the games: their modules, [`Kind`], the table the registry dispatches on, and
/// [`for_each_game!`](crate::for_each_game) (the list for the other crates). Used once, in
/// `lib.rs`: the real games first, then the stand-ins — games of the test builds only
/// (`cfg(any(test, feature = "stand-in"))`: the engine's own tests, and every crate that
/// turns on the engine's `stand-in` feature for its tests).
macro_rules! declare_games {
    (
        games {
            $( $(#[$doc:meta])* $variant:ident = $module:ident :: $game:ident, $name:literal, code $code:literal; )+
        }
        stand_ins {
            $( $(#[$sdoc:meta])* $svariant:ident = $smodule:ident :: $sgame:ident, $sname:literal, code $scode:literal; )*
        }
    ) => {
        declare_games!(@items ($)
            [$( [$(#[$doc])*] $variant $module $game $name $code [] false )+
             $( [$(#[$sdoc])*] $svariant $smodule $sgame $sname $scode [any(test, feature = "stand-in")] true )*]
            [$( $variant = $module :: $game, $name; )+]
            [$( $svariant = $smodule :: $sgame, $sname; )*]
        );
    };
    (@items ($d:tt)
        [$( [$(#[$doc:meta])*] $variant:ident $module:ident $game:ident $name:literal $code:literal [$($cfg:meta)?] $stand:literal )+]
        [$( $rvariant:ident = $rmodule:ident :: $rgame:ident, $rname:literal; )+]
        [$( $svariant:ident = $smodule:ident :: $sgame:ident, $sname:literal; )*]
    ) => {
        $( $(#[cfg($cfg)])? pub mod $module; )+

        /// The games.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum Kind {
            $( $(#[$doc])* $(#[cfg($cfg)])? #[serde(rename = $name)] $variant, )+
        }

        impl Kind {
            /// How many games there are.
            pub const COUNT: usize = [$( $(#[cfg($cfg)])? $name ),+].len();
            /// Every game, in the list's order.
            pub const ALL: [Kind; Kind::COUNT] = [$( $(#[cfg($cfg)])? Kind::$variant ),+];

            /// The game's name: the game-ID prefix and its JSON form.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( $(#[cfg($cfg)])? Kind::$variant => $name, )+
                }
            }

            pub fn parse(s: &str) -> Option<Kind> {
                match s {
                    $( $(#[cfg($cfg)])? $name => Some(Kind::$variant), )+
                    _ => None,
                }
            }

            /// Whether this is a stand-in: a game of the test builds only, never shipped.
            pub fn is_stand_in(self) -> bool {
                match self {
                    $( $(#[cfg($cfg)])? Kind::$variant => $stand, )+
                }
            }

            /// The game's number in share codes (version 2: the head's first varint, up to
            /// [`code::MAX_GAME_NUMBER`](crate::code::MAX_GAME_NUMBER); version 1 had two
            /// bits, for numbers 0 – 2).
            pub fn code_number(self) -> u8 {
                match self {
                    $( $(#[cfg($cfg)])? Kind::$variant => $code, )+
                }
            }

            /// The game a share code's number names.
            pub fn from_code_number(n: u8) -> Option<Kind> {
                match n {
                    $( $(#[cfg($cfg)])? $code => Some(Kind::$variant), )+
                    _ => None,
                }
            }

            /// Runs `v` with the game's type: generic code over every game, chosen by a
            /// [`Kind`] known only at run time, without a `match` of its own.
            pub fn visit<V: $crate::registry::Visitor>(self, v: V) -> V::Out {
                match self {
                    $( $(#[cfg($cfg)])? Kind::$variant => v.visit::<$module::$game>(), )+
                }
            }

            /// The registry's entry of the game.
            pub(crate) fn entry(self) -> &'static dyn $crate::registry::Entry {
                match self {
                    $( $(#[cfg($cfg)])? Kind::$variant => &$crate::registry::Of::<$module::$game>(std::marker::PhantomData), )+
                }
            }
        }

        /// The list of games for the other crates, so that none keeps a copy: calls
        /// `path::to::callback! { <tokens> … }` with the tokens given and then one
        /// `Variant = huarong_engine::module::Type, module, "name";` per game of this build
        /// (the stand-ins too where the engine's `stand-in` feature is on). A crate's own
        /// per-game code (`with_game!` in the app core, the share card's table) is made
        /// from it.
        #[cfg(not(any(test, feature = "stand-in")))]
        #[macro_export]
        macro_rules! for_each_game {
            ($d($d callback:ident)::+ ! { $d($d pass:tt)* }) => {
                $d($d callback)::+ ! {
                    $d($d pass)*
                    $( $rvariant = $d crate::$rmodule::$rgame, $rmodule, $rname; )+
                }
            };
        }
        /// The list of games for the other crates (see the other definition): this build
        /// has the stand-ins.
        #[cfg(any(test, feature = "stand-in"))]
        #[macro_export]
        macro_rules! for_each_game {
            ($d($d callback:ident)::+ ! { $d($d pass:tt)* }) => {
                $d($d callback)::+ ! {
                    $d($d pass)*
                    $( $rvariant = $d crate::$rmodule::$rgame, $rmodule, $rname; )+
                    $( $svariant = $d crate::$smodule::$sgame, $smodule, $sname; )*
                }
            };
        }
    };
}

/// One game's registry entry: the generic code of the engine instantiated for its type, so
/// a [`Kind`] known only at run time reaches it.
pub(crate) trait Entry: Sync {
    fn rules(&self) -> &'static [&'static str];
    fn daily(&self) -> Option<&'static str>;
    fn generator(&self) -> u32;
    fn move_form(&self) -> &'static str;
    fn costly_generator(&self, params: &str) -> bool;
    /// The start board body of the game an ID names (builds it: generated levels are
    /// generated).
    fn start_body(&self, id: &GameId) -> Result<String>;
    #[allow(clippy::too_many_arguments)]
    fn encode(
        &self,
        id: &GameId,
        extra: Extra,
        challenge: Option<Challenge>,
        sender: &code::Sender,
        outcome: Option<code::Outcome>,
        assisted: bool,
        times: Option<&[u64]>,
    ) -> Result<(String, Option<&'static str>)>;
    /// A move log packed as codes carry it: (moves, bytes).
    fn pack_log(&self, id: &GameId, log: &[serde_json::Value]) -> Result<(u32, Vec<u8>)>;
    /// The moves of a packed log.
    fn unpack_log(&self, id: &GameId, count: u32, bytes: &[u8]) -> Result<Vec<serde_json::Value>>;
    /// The game IDs its golden share-code rows are made from ([`Coded::GOLDEN`]).
    #[cfg(test)]
    fn golden(&self) -> &'static [&'static str];
    /// The sample IDs pinned after the first ones ([`Coded::GOLDEN_ADDED`]).
    #[cfg(test)]
    fn golden_added(&self) -> &'static [&'static str];
    /// The boards of its classics ([`Coded::classic`]), in order.
    #[cfg(test)]
    fn classics(&self) -> Vec<&'static str>;
    /// Decodes a code's payload after its head (its version and checksum are checked),
    /// writing [`Decoded::code`] in version `out`.
    fn decode(&self, head: code::Head, r: &mut code::Reader, out: code::Version)
        -> Result<Decoded>;
}

/// The entry of game type `G`.
pub(crate) struct Of<G>(pub PhantomData<G>);

impl<G: Registered> Entry for Of<G> {
    fn rules(&self) -> &'static [&'static str] {
        G::RULES
    }
    fn daily(&self) -> Option<&'static str> {
        G::DAILY
    }
    fn generator(&self) -> u32 {
        G::GENERATOR
    }
    fn move_form(&self) -> &'static str {
        G::MOVE_FORM
    }
    fn costly_generator(&self, params: &str) -> bool {
        G::costly_generator(params)
    }
    fn start_body(&self, id: &GameId) -> Result<String> {
        Ok(G::from_id(&id.body, id.seed)?.board_body())
    }
    #[allow(clippy::too_many_arguments)]
    fn encode(
        &self,
        id: &GameId,
        extra: Extra,
        challenge: Option<Challenge>,
        sender: &code::Sender,
        outcome: Option<code::Outcome>,
        assisted: bool,
        times: Option<&[u64]>,
    ) -> Result<(String, Option<&'static str>)> {
        code::encode_game::<G>(id, extra, challenge, sender, outcome, assisted, times)
    }
    fn pack_log(&self, id: &GameId, log: &[serde_json::Value]) -> Result<(u32, Vec<u8>)> {
        code::pack_log_game::<G>(id, log)
    }
    fn unpack_log(&self, id: &GameId, count: u32, bytes: &[u8]) -> Result<Vec<serde_json::Value>> {
        code::unpack_log_game::<G>(id, count, bytes)
    }
    #[cfg(test)]
    fn golden(&self) -> &'static [&'static str] {
        G::GOLDEN
    }
    #[cfg(test)]
    fn golden_added(&self) -> &'static [&'static str] {
        G::GOLDEN_ADDED
    }
    #[cfg(test)]
    fn classics(&self) -> Vec<&'static str> {
        (0..).map_while(G::classic).map(|c| c.board).collect()
    }
    fn decode(
        &self,
        head: code::Head,
        r: &mut code::Reader,
        out: code::Version,
    ) -> Result<Decoded> {
        code::decode_game::<G>(head, r, out)
    }
}

/// The counting rules a game offers, the default first. They name the game's counters
/// (`Snapshot::counters`): slide `tile` (each tile step counts 1) and `line` (one slide of
/// a run counts 1); Klotski `piece` (the standard Chinese count), `straight`, `unit`;
/// 2048 `moves`.
pub fn rules(kind: Kind) -> &'static [&'static str] {
    kind.entry().rules()
}

/// The generator parameters of `kind`'s daily puzzle (`None`: the game has no daily).
pub fn daily_params(kind: Kind) -> Option<&'static str> {
    kind.entry().daily()
}

/// The JSON form of one of `kind`'s moves, for error messages.
pub fn move_form(kind: Kind) -> &'static str {
    kind.entry().move_form()
}

/// Whether making a seeded `kind` game from `params` runs a search ([`Registered::costly_generator`]).
pub fn costly_generator(kind: Kind, params: &str) -> bool {
    kind.entry().costly_generator(params)
}

pub use crate::id::names_text;

/// Builds the game an ID names and returns its start board body.
pub fn start_body(id: &GameId) -> Result<String> {
    id.kind.entry().start_body(id)
}

/// 2048's board sizes (square, side 3 … 8) and the tile that wins on each: the one
/// definition (the game's status, the app's records and the UI read it from here). The 3×3
/// is won at 256; the 4×4 and every larger board at 2048. After it, "keep going".
pub const G2048_WIN_TILES: [(u8, u32); 6] = [
    (3, 256),
    (4, 2048),
    (5, 2048),
    (6, 2048),
    (7, 2048),
    (8, 2048),
];

/// The winning tile of a 2048 board of side `side`, `None` for a size 2048 is not played on.
pub fn g2048_win_tile(side: u8) -> Option<u32> {
    G2048_WIN_TILES
        .iter()
        .find(|&&(s, _)| s == side)
        .map(|&(_, t)| t)
}

/// The star rule of every game with a known optimum `min` (the one definition; the UI
/// gets stars from `finish` and `levels`): 3 stars for at most min + ⌈min/10⌉ moves, 2
/// for at most ⌈3·min/2⌉, else 1.
pub fn stars(min: u32, moves: u32) -> u8 {
    Stars::for_optimal(min).earned(moves)
}

/// The most stars a game won with a hint earns, however few its moves: a hint shows the way,
/// so the stars above it and "perfect" are for games found alone (the finish says how many
/// hints were used; the record keeps the count beside the best).
pub const HINTED_STARS: u8 = 1;

/// The stars of a won game: `earned` by its moves (its game's star rule), at most
/// [`HINTED_STARS`] when it used `hints`.
pub fn with_hints(earned: u8, hints: u32) -> u8 {
    if hints > 0 {
        earned.min(HINTED_STARS)
    } else {
        earned
    }
}

/// Whether a game of `moves` moves and `hints` hints is perfect against the optimum `min`:
/// the fewest moves possible, found without a hint.
pub fn perfect(min: u32, moves: u32, hints: u32) -> bool {
    hints == 0 && moves <= min
}

/// The most moves that earn 3 and 2 stars (Klotski's classics keep theirs in the level
/// table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Stars {
    pub three: u32,
    pub two: u32,
}

impl Stars {
    /// The thresholds of the star rule for an optimum of `min` moves.
    pub const fn for_optimal(min: u32) -> Stars {
        Stars {
            three: min + min.div_ceil(10),
            two: (3 * min).div_ceil(2),
        }
    }
    /// Stars earned by a solve in `moves` moves.
    pub fn earned(&self, moves: u32) -> u8 {
        if moves <= self.three {
            3
        } else if moves <= self.two {
            2
        } else {
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hint_keeps_one_star_and_no_perfect() {
        assert_eq!(with_hints(3, 0), 3);
        assert_eq!(with_hints(2, 0), 2);
        assert_eq!(with_hints(3, 1), HINTED_STARS);
        assert_eq!(with_hints(2, 7), HINTED_STARS);
        assert_eq!(with_hints(1, 1), 1);
        assert!(perfect(22, 22, 0));
        assert!(!perfect(22, 23, 0));
        assert!(
            !perfect(22, 22, 1),
            "an optimal line shown by hints is no perfect game"
        );
    }

    #[test]
    fn every_kind_has_rules_and_its_daily() {
        let day = crate::daily::puzzles(crate::daily::Date::parse("2026-03-01").unwrap()).unwrap();
        for k in Kind::ALL {
            assert!(!rules(k).is_empty());
            // A game with daily parameters has a puzzle in every day's set, of its own kind.
            match daily_params(k) {
                Some(_) => assert!(day.id(k).unwrap().starts_with(k.as_str())),
                None => assert_eq!(day.id(k), None),
            }
        }
        assert_eq!(stars(81, 81), 3);
        assert_eq!(stars(81, 90), 3);
        assert_eq!(stars(81, 91), 2);
        assert_eq!(stars(81, 122), 2);
        assert_eq!(stars(81, 123), 1);
    }

    #[test]
    fn names_and_code_numbers_are_unique_and_round_trip() {
        for (i, a) in Kind::ALL.iter().enumerate() {
            assert_eq!(Kind::parse(a.as_str()), Some(*a));
            assert_eq!(Kind::from_code_number(a.code_number()), Some(*a));
            // A current code's head has one varint byte for the game.
            assert!(a.code_number() <= crate::code::MAX_GAME_NUMBER, "{a:?}");
            for b in &Kind::ALL[i + 1..] {
                assert_ne!(a.as_str(), b.as_str());
                assert_ne!(a.code_number(), b.code_number());
            }
            let json = serde_json::to_string(a).unwrap();
            assert_eq!(json, format!("\"{}\"", a.as_str()));
            assert_eq!(serde_json::from_str::<Kind>(&json).unwrap(), *a);
        }
        assert_eq!(Kind::parse("chess"), None);
        // The names, in the list's order, the last after "or".
        let text = names_text();
        let mut at = 0;
        for (i, k) in Kind::ALL.iter().enumerate() {
            let found = text[at..].find(k.as_str()).expect("every name") + at;
            if i + 1 == Kind::COUNT && i > 0 {
                assert!(text[..found].ends_with(" or "), "{text}");
            }
            at = found + k.as_str().len();
        }
        assert_eq!(at, text.len(), "{text}");
        assert_eq!(text.matches(", ").count(), Kind::COUNT.saturating_sub(2));
        for k in Kind::ALL {
            assert!(move_form(k).starts_with('{'), "{k:?}");
        }
        let numbers: Vec<u8> = Kind::ALL.iter().map(|k| k.code_number()).collect();
        let free = (0..=u8::MAX).find(|n| !numbers.contains(n)).unwrap();
        assert_eq!(Kind::from_code_number(free), None);
    }
}
