//! Klotski's splits: 曹操's optimal distance to the exit (piece moves, the default count)
//! first falls to ¾ (`q3`), ½ (`q2`) and ¼ (`q1`) of the start's. The distances come from
//! one search over the start's component ([`goal_distances`]), bounded by
//! [`SPLIT_POSITIONS`] and the thread's ambient budget: past either, or in a build without
//! the searches, a line has no splits.

use super::{goal_distances, Klotski, Metric, Move};
use crate::game::Cancel;
use crate::splits::{walk, Mark, Splits};

/// Most positions the splits' distance search keeps.
pub const SPLIT_POSITIONS: usize = 100_000;
/// Longest line whose splits are looked for (its positions are held at once).
pub const SPLIT_LINE: usize = 20_000;

/// The marks of a line whose positions have these distances (`d[0]` the start's).
fn marks_of(d: &[u32]) -> Vec<Mark> {
    let Some(&d0) = d.first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (name, quarters) in [("q3", 3u64), ("q2", 2), ("q1", 1)] {
        let at = d
            .iter()
            .position(|&x| u64::from(x) * 4 <= u64::from(d0) * quarters);
        if let Some(at) = at.filter(|&a| a > 0) {
            out.push(Mark {
                name: name.to_string(),
                at,
            });
        }
    }
    out
}

impl Splits for Klotski {
    fn split_marks(start: &Klotski, line: &[Move], cancel: &Cancel) -> Vec<Mark> {
        if line.len() > SPLIT_LINE {
            return Vec::new();
        }
        let mut boards = Vec::with_capacity(line.len() + 1);
        walk(start, line, |_, g| boards.push(g.board().clone()));
        let Ok(found) = goal_distances(
            start.board(),
            &boards,
            Metric::Piece,
            cancel,
            SPLIT_POSITIONS,
        ) else {
            return Vec::new();
        };
        let Some(d) = found.into_iter().collect::<Option<Vec<u32>>>() else {
            return Vec::new();
        };
        marks_of(&d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::splits::splits;

    #[test]
    fn quarters_fall_in_order_at_their_first_time() {
        let at = |d: &[u32]| {
            marks_of(d)
                .into_iter()
                .map(|m| (m.name, m.at))
                .collect::<Vec<_>>()
        };
        let s = |n: &str, a: usize| (n.to_string(), a);
        assert_eq!(
            at(&[8, 7, 6, 7, 6, 5, 4, 3, 2, 1, 0]),
            [s("q3", 2), s("q2", 6), s("q1", 8)]
        );
        assert!(at(&[0]).is_empty());
        assert!(at(&[4, 5, 4]).is_empty());
    }

    /// An optimal solve of a classic: the quarters at ¾, ½, ¼ of its moves.
    #[test]
    fn an_optimal_classic_solve_splits_at_its_quarters() {
        let start =
            Klotski::from_id(crate::klotski::classic("横刀立马").unwrap().board, None).unwrap();
        let line = start.solve(&Cancel::new()).unwrap();
        let got = splits(&start, &line, None, &Cancel::new());
        let n = start.clone();
        let total = {
            let mut g = n;
            for m in &line {
                g.apply(m).unwrap();
            }
            g.moves()
        };
        let names: Vec<_> = got.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["q3", "q2", "q1"]);
        // Along an optimal line the distance falls by one a move.
        let want = [total - total * 3 / 4, total - total / 2, total - total / 4];
        let moves: Vec<u32> = got.iter().map(|s| s.moves).collect();
        assert_eq!(moves, want, "{total} moves");
    }
}
