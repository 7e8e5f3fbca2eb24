//! 2048's splits: the first 256, 512, 1024 and 2048 tiles (`tile256` … `tile2048`), at the
//! move that first made each.

use super::{Move, G2048};
use crate::game::Cancel;
use crate::splits::{walk, Mark, Splits};

/// The tiles that split a game.
pub const SPLIT_TILES: [u32; 4] = [256, 512, 1024, 2048];

impl Splits for G2048 {
    fn split_marks(start: &G2048, line: &[Move], _cancel: &Cancel) -> Vec<Mark> {
        let mut tops: Vec<u32> = Vec::with_capacity(line.len() + 1);
        walk(start, line, |_, g| tops.push(g.max_tile()));
        SPLIT_TILES
            .iter()
            .filter_map(|&t| {
                let at = tops.iter().position(|&m| m >= t)?;
                (at > 0).then(|| Mark {
                    name: format!("tile{t}"),
                    at,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::g2048::Dir;
    use crate::game::Game;
    use crate::splits::splits;

    /// A board one merge from 256, then from 512: the splits fall at those merges.
    #[test]
    fn first_tiles_split_in_order() {
        let start = G2048::from_id("128,128,0,0,256,0,0,0,0,0,0,0,0,0,0,0", Some(1)).unwrap();
        let line = [Move::Slide(Dir::Left), Move::Slide(Dir::Up)];
        let got = splits(&start, &line, Some(&[0, 700]), &Cancel::new());
        let got: Vec<_> = got
            .iter()
            .map(|s| (s.name.as_str(), s.moves, s.ms))
            .collect();
        assert_eq!(
            got,
            [("tile512", 2, Some(700))],
            "256 was there at the start"
        );
    }
}
