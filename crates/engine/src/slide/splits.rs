//! The number slide's splits: each time the unsolved part shrinks. The unsolved part starts
//! as the whole board; while it is more than two rows high and its top row holds its tiles,
//! that row is done (`row<k>`), and while it is more than two columns wide and its left column
//! holds its tiles, that column is done (`col<k>`), until neither holds: row by row
//! (`row1`, `row2`, … then the columns of the last two rows) and fringes (`row1`, `col1`,
//! `row2`, …) both shrink it. The last 2×2 is the finish itself.
//!
//! A split counts from the move after which its line was done for good: a line done, broken
//! and done again counts from the last time. A line already done at the start and never
//! broken is no split.

use super::board::Board;
use super::{Move, Slide};
use crate::game::Cancel;
use crate::splits::{walk, Mark, Splits};

/// The lines done in `b`, in the order the unsolved part shrinks by them (rows first).
pub fn done_lines(b: &Board) -> Vec<String> {
    let (w, h) = (b.width(), b.height());
    let cells = b.cells();
    let home = |r: usize, c: usize| cells[r * w + c] as usize == r * w + c + 1;
    let (mut r0, mut c0) = (0, 0);
    let mut out = Vec::new();
    loop {
        if h - r0 > 2 && (c0..w).all(|c| home(r0, c)) {
            r0 += 1;
            out.push(format!("row{r0}"));
        } else if w - c0 > 2 && (r0..h).all(|r| home(r, c0)) {
            c0 += 1;
            out.push(format!("col{c0}"));
        } else {
            return out;
        }
    }
}

impl Splits for Slide {
    fn split_marks(start: &Slide, line: &[Move], _cancel: &Cancel) -> Vec<Mark> {
        // For each line done now: since which position it has been done without a break.
        let mut since: Vec<(String, usize)> = Vec::new();
        walk(start, line, |i, g| {
            since = done_lines(g.board())
                .into_iter()
                .map(|n| {
                    let from = since.iter().find(|(m, _)| *m == n).map_or(i, |(_, f)| *f);
                    (n, from)
                })
                .collect();
        });
        let mut marks: Vec<(usize, usize, String)> = since
            .into_iter()
            .enumerate()
            .filter(|(_, (_, from))| *from > 0)
            .map(|(order, (name, from))| (from, order, name))
            .collect();
        marks.sort();
        marks
            .into_iter()
            .map(|(at, _, name)| Mark { name, at })
            .collect()
    }

    /// Each line at the first move after which it was done (not done at the start).
    fn first_marks(start: &Slide, line: &[Move], _cancel: &Cancel) -> Vec<Mark> {
        let mut seen: Vec<String> = Vec::new();
        let mut out = Vec::new();
        walk(start, line, |i, g| {
            for name in done_lines(g.board()) {
                if !seen.contains(&name) {
                    seen.push(name.clone());
                    if i > 0 {
                        out.push(Mark { name, at: i });
                    }
                }
            }
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::splits::splits;

    /// A solve of the solved W×H board scrambled by the blank's walk `walk` (U, D, L, R):
    /// the start is the scrambled board, the line taps the same tiles back in reverse.
    fn undo_walk(w: usize, h: usize, walk: &str) -> (Slide, Vec<Move>) {
        let mut g = Slide::new(Board::solved(w, h).unwrap()).unwrap();
        let mut taps = Vec::new();
        for d in walk.chars().filter(|c| !c.is_whitespace()) {
            let cells = g.board().cells();
            let at = cells.iter().position(|&c| c == 0).unwrap();
            let (r, c) = ((at / w) as isize, (at % w) as isize);
            let (r, c) = match d {
                'U' => (r - 1, c),
                'D' => (r + 1, c),
                'L' => (r, c - 1),
                _ => (r, c + 1),
            };
            let tile = cells[r as usize * w + c as usize] as u16;
            g.apply(&Move { tile }).unwrap();
            taps.push(Move { tile });
        }
        let start = Slide::new(g.board().clone()).unwrap();
        taps.reverse();
        (start, taps)
    }

    fn names(start: &Slide, line: &[Move]) -> Vec<String> {
        splits(start, line, None, &Cancel::new())
            .into_iter()
            .map(|s| s.name)
            .collect()
    }

    #[test]
    fn lines_done_shrink_the_unsolved_part() {
        let b = |t: &[u16]| Board::new(4, 4, t).unwrap();
        let mut t: Vec<u16> = (1..16).collect();
        t.push(0);
        assert_eq!(done_lines(&b(&t)), ["row1", "row2", "col1", "col2"]);
        t.swap(5, 6);
        assert_eq!(done_lines(&b(&t)), ["row1", "col1"]);
        t.swap(5, 6);
        t.swap(0, 1);
        assert_eq!(
            done_lines(&b(&t)),
            Vec::<String>::new(),
            "no line without the top-left tile"
        );
        t.swap(0, 1);
        t.swap(1, 2);
        assert_eq!(done_lines(&b(&t)), ["col1"], "the left column alone");
    }

    /// A 4×4 solved row by row, and one solved in fringes: the names in order.
    #[test]
    fn row_by_row_and_fringes_split_in_their_order() {
        // The scramble walks are undone: the last part scrambled is solved first.
        let rows = undo_walk(4, 4, "LLLURRRD  UULLLDRRRD  UUULLLDRRRDD");
        assert_eq!(names(&rows.0, &rows.1), ["row1", "row2", "col1", "col2"]);
        let fringes = undo_walk(4, 4, "LLURRD  UULLDRRD  LLLUURDD  UUULDRDD");
        assert_eq!(
            names(&fringes.0, &fringes.1),
            ["row1", "col1", "row2", "col2"]
        );
        // Times and counts: each split at the move that did its line.
        let n = rows.1.len();
        let times: Vec<u64> = (0..n as u64).map(|i| i * 250).collect();
        let got = splits(&rows.0, &rows.1, Some(&times), &Cancel::new());
        // The top row is home once the blank leaves it (the tenth tap).
        assert_eq!(got[0].moves, 10);
        assert_eq!(got[0].ms, Some(9 * 250));
        // The columns of the last two rows as the blank walks back along the bottom row.
        assert_eq!(
            (got[2].moves as usize, got[3].moves as usize),
            (n - 2, n - 1)
        );
        assert_eq!(got[3].ms, Some((n as u64 - 2) * 250));
    }

    /// A line done, broken and done again counts from the last time it was done; a line done
    /// from the start and never broken is no split.
    #[test]
    fn a_split_counts_from_when_its_line_was_done_for_good() {
        // The blank walked up the right column and along the top row: undone, the left
        // column is home at the first tap, the top row at the third.
        let (start, mut line) = undo_walk(3, 3, "UULL");
        let first = splits(&start, &line, None, &Cancel::new());
        let got: Vec<_> = first.iter().map(|s| (s.name.as_str(), s.moves)).collect();
        assert_eq!(got, [("col1", 1), ("row1", 3)]);
        // The third tap tapped back and again: row 1 broken at 4, done again at 5.
        let t3 = line[2];
        line.splice(3..3, [t3, t3]);
        let again = splits(&start, &line, None, &Cancel::new());
        let got: Vec<_> = again.iter().map(|s| (s.name.as_str(), s.moves)).collect();
        assert_eq!(got, [("col1", 1), ("row1", 5)]);
        // During play the chip shows when the line was first done.
        let first = crate::splits::first_splits(&start, &line, None, &Cancel::new());
        let got: Vec<_> = first.iter().map(|s| (s.name.as_str(), s.moves)).collect();
        assert_eq!(got, [("col1", 1), ("row1", 3)]);
        // Already done at the start and never broken: not a split.
        let (start, line) = undo_walk(4, 4, "LLUR");
        let n = names(&start, &line);
        assert!(!n.contains(&"row1".to_string()), "{n:?}");
    }
}
