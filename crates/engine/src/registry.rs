//! The engine's list of games: what every layer asks about a kind without matching on it
//! by hand — its counting rules, its daily puzzle, the star rule. Adding a game: its
//! module, a `Kind` variant, and one arm in each function here.

use crate::daily::Daily;
use crate::game::Kind;

/// The counting rules a game offers, the default first. They name the game's counters
/// (`Snapshot::counters`): slide `tile` (each tile step counts 1) and `line` (one slide of
/// a run counts 1); Klotski `piece` (the standard Chinese count), `straight`, `unit`;
/// 2048 `moves`.
pub fn rules(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Slide => &["tile", "line"],
        Kind::Klotski => &["piece", "straight", "unit"],
        Kind::G2048 => &["moves"],
    }
}

/// The game ID of `kind`'s puzzle in a day's set.
pub fn daily_id(day: &Daily, kind: Kind) -> &str {
    match kind {
        Kind::Slide => &day.slide,
        Kind::Klotski => &day.klotski,
        Kind::G2048 => &day.g2048,
    }
}

/// The star rule of every game with a known optimum `min` (the one definition; the UI
/// gets stars from `finish` and `levels`): 3 stars for at most min + ⌈min/10⌉ moves, 2
/// for at most ⌈3·min/2⌉, else 1.
pub fn stars(min: u32, moves: u32) -> u8 {
    crate::klotski::Stars::for_optimal(min).earned(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_rules_and_a_daily() {
        let day = crate::daily::puzzles(crate::daily::Date::parse("2026-03-01").unwrap()).unwrap();
        for k in Kind::ALL {
            assert!(!rules(k).is_empty());
            assert!(daily_id(&day, k).starts_with(k.as_str()));
        }
        assert_eq!(stars(81, 81), 3);
        assert_eq!(stars(81, 90), 3);
        assert_eq!(stars(81, 91), 2);
        assert_eq!(stars(81, 122), 2);
        assert_eq!(stars(81, 123), 1);
    }
}
