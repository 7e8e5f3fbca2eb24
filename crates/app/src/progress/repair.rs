//! Records no game could have made, repaired at load: an older version opened
//! codes whose start was already solved and recorded their finish, made by no move.
//!
//! What is impossible, and what the repair does:
//! - a record's `best_moves` of 0: no won game takes no move (a start already solved is
//!   refused since, `already_solved`). The best moves and time, the stars and what the best
//!   game used are cleared; one win (the planted one) is taken back.
//! - a statistics finish that was won in 0 moves: taken out of the history and the recent
//!   wins; the scope's wins lose it, and a best of 0 (moves, or the time of that finish) is
//!   computed again from the finishes that remain.
//! - a 2048 `best_tile` of 2048 or more above `best_score`: a tile of 2048 or more is only
//!   made by a merge (a start with one is refused), and that merge alone scores the tile, so
//!   the game's score, and the best score, is at least the tile. The tile is cut to the
//!   biggest one the best score allows (none below 2048 is known: then it is cleared).
//!
//! 0 ms alone is not impossible: the clock starts with the first move, so a one-move win
//! takes 0 ms.

use super::Progress;

/// Repair `p`; one line per repaired scope (for the notice), empty when nothing was wrong.
pub fn repair_impossible(p: &mut Progress) -> Vec<String> {
    let mut out = Vec::new();
    for (key, r) in p.records.iter_mut() {
        if r.best_moves == Some(0) {
            r.best_moves = None;
            r.best_time_ms = None;
            r.stars = 0;
            r.undo_used = false;
            r.hints_used = 0;
            r.wins = r.wins.saturating_sub(1);
            out.push(format!("{key}: a win in 0 moves"));
        }
        if let Some(tile) = r.best_tile {
            let score = r.best_score.unwrap_or(0);
            if tile >= 2048 && score < tile {
                let allowed = if score >= 2048 {
                    Some(1u64 << (63 - score.leading_zeros()))
                } else {
                    None
                };
                r.best_tile = allowed;
                out.push(format!(
                    "{key}: a best tile of {tile} with a best score of {score}"
                ));
            }
        }
    }
    for (scope, shared) in p.stats.iter_mut() {
        let zero = |e: &super::FinishEntry| e.won && e.moves.values().all(|&m| m == 0);
        let s: &super::ScopeStats = shared;
        let removed = s.history.iter().filter(|e| zero(e)).count();
        let zero_recent = |r: &super::Recent| r.moves().values().all(|&m| m == 0);
        let removed_recent = s.recent.iter().filter(|r| zero_recent(r)).count();
        let zero_best = s.best_moves.values().any(|&m| m == 0);
        if removed == 0 && removed_recent == 0 && !zero_best {
            continue;
        }
        let s: &mut super::ScopeStats = shared;
        let best_ms_zero = s.best_ms == Some(0);
        s.history.retain(|e| !zero(e));
        s.recent.retain(|r| !zero_recent(r));
        s.wins = s.wins.saturating_sub(removed.max(removed_recent) as u32);
        let clean: Vec<&super::FinishEntry> = s.history.iter().filter(|e| e.clean()).collect();
        let rules: Vec<String> = s.best_moves.keys().cloned().collect();
        for rule in rules {
            if s.best_moves.get(&rule) == Some(&0) {
                match clean.iter().filter_map(|e| e.moves.get(&rule)).min() {
                    Some(&m) => {
                        s.best_moves.insert(rule, m);
                    }
                    None => {
                        s.best_moves.remove(&rule);
                    }
                }
            }
        }
        if best_ms_zero && (removed > 0 || removed_recent > 0) {
            s.best_ms = clean.iter().map(|e| e.ms).min();
        }
        out.push(format!("{scope}: statistics of a finish in 0 moves"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::{FinishEntry, Record};

    #[test]
    fn a_planted_zero_move_win_is_taken_back() {
        let mut p = Progress::default();
        p.records.insert(
            "slide:4x4/tile".into(),
            Record {
                rule: "tile".into(),
                best_moves: Some(0),
                best_time_ms: Some(0),
                stars: 3,
                wins: 3,
                ..Record::default()
            },
        );
        p.records.insert(
            "2048/moves".into(),
            Record {
                best_tile: Some(131_072),
                best_score: Some(5000),
                ..Record::default()
            },
        );
        let planted = FinishEntry {
            won: true,
            moves: [("tile".to_string(), 0)].into(),
            ..FinishEntry::default()
        };
        let real = FinishEntry {
            won: true,
            ms: 9000,
            moves: [("tile".to_string(), 40)].into(),
            ..FinishEntry::default()
        };
        let s = p.stats.entry("slide:4x4".into()).or_default();
        s.add(real.clone(), true);
        s.add(planted, true);
        assert_eq!(s.best_moves["tile"], 0);
        let lines = repair_impossible(&mut p);
        assert_eq!(lines.len(), 3, "{lines:?}");
        let r = &p.records["slide:4x4/tile"];
        assert_eq!(
            (r.best_moves, r.best_time_ms, r.stars, r.wins),
            (None, None, 0, 2)
        );
        assert_eq!(p.records["2048/moves"].best_tile, Some(4096));
        let s = &p.stats["slide:4x4"];
        assert_eq!(s.best_moves["tile"], 40);
        assert_eq!(s.best_ms, Some(9000));
        assert_eq!(s.wins, 1);
        assert_eq!(s.history.len(), 1);
        // A sound file is left alone.
        assert!(repair_impossible(&mut p).is_empty());
    }
}
