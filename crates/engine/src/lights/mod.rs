//! The stand-in: a fourth game of the test builds only (`stand_ins` in `lib.rs`, the
//! `stand-in` feature), Lights Out on one row. It proves that a game is its modules plus
//! one line in the list — every engine test (registry, share codes and their golden rows,
//! sessions, daily) runs with it, and so do the app core's, the CLI's, the card's, the web
//! core's and the page's (`ui/js/boards/lights.js`).
//!
//! The board is a row of 1 … 8 lights (`lights:10110`); a move `{"flip": i}` toggles light
//! `i` and its neighbours; the goal is every light off. `lights:<n>#<seed>` is a seeded
//! row of `n` lights made by random flips from the dark row (so it can always be solved).
//! The solver is a breadth-first search over the 2^n rows.

use crate::code::{Coded, Reader, Writer};
use crate::error::{Error, Result};
use crate::game::{Cancel, Game, Hint, Kind, Status};
use crate::registry::Registered;
use crate::rng::{self, RngCore};
use serde::{Deserialize, Serialize};

/// Most lights in a row.
pub const MAX_LIGHTS: u8 = 8;

/// One row: `n` lights, bit `i` = light `i` is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub n: u8,
    pub bits: u8,
}

impl Row {
    fn parse(body: &str) -> Result<Row> {
        let n = body.len();
        if n == 0 || n > MAX_LIGHTS as usize || !body.bytes().all(|b| b == b'0' || b == b'1') {
            return Err(Error::parse(format!(
                "a lights board is 1 to {MAX_LIGHTS} characters 0 or 1, not {body:?}"
            )));
        }
        let bits = body
            .bytes()
            .enumerate()
            .fold(0u8, |bits, (i, b)| bits | ((b == b'1') as u8) << i);
        Ok(Row { n: n as u8, bits })
    }

    fn body(&self) -> String {
        (0..self.n)
            .map(|i| if self.bits >> i & 1 == 1 { '1' } else { '0' })
            .collect()
    }

    fn flipped(&self, i: u8) -> Row {
        let mask = (0b111u16 << i >> 1) as u8 & ((1u16 << self.n) - 1) as u8;
        Row {
            n: self.n,
            bits: self.bits ^ mask,
        }
    }

    /// The fewest flips to turn every light off (`None`: impossible).
    fn solution(&self) -> Option<Vec<u8>> {
        let states = 1usize << self.n;
        let mut from: Vec<Option<(u8, u8)>> = vec![None; states];
        let mut queue = std::collections::VecDeque::from([self.bits]);
        let mut seen = vec![false; states];
        seen[self.bits as usize] = true;
        while let Some(bits) = queue.pop_front() {
            if bits == 0 {
                let mut line = Vec::new();
                let mut at = 0u8;
                while let Some((prev, i)) = from[at as usize] {
                    line.push(i);
                    at = prev;
                    if at == self.bits {
                        break;
                    }
                }
                line.reverse();
                return Some(line);
            }
            for i in 0..self.n {
                let next = Row { n: self.n, bits }.flipped(i).bits;
                if !seen[next as usize] {
                    seen[next as usize] = true;
                    from[next as usize] = Some((bits, i));
                    queue.push_back(next);
                }
            }
        }
        None
    }
}

/// A flip of one light (and its neighbours).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    pub flip: u8,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lights {
    row: Row,
    moves: u32,
}

impl Game for Lights {
    const KIND: Kind = Kind::Lights;
    type Move = Move;
    type Effect = u8;

    fn from_id(body: &str, seed: Option<u64>) -> Result<Self> {
        let row = match seed {
            None => Row::parse(body)?,
            Some(seed) => {
                let n: u8 = body
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_LIGHTS).contains(n))
                    .ok_or_else(|| Error::parse(format!("{body:?} is not a row length 1 to 8")))?;
                let flips = rng::stream(seed, "lights").next_u64();
                let dark = Row { n, bits: 0 };
                let row = (0..n)
                    .filter(|i| flips >> i & 1 == 1)
                    .fold(dark, |row, i| row.flipped(i));
                // Flips that cancel out leave the row dark: one more flip lights it.
                if row.bits == 0 {
                    row.flipped(0)
                } else {
                    row
                }
            }
        };
        Ok(Lights { row, moves: 0 })
    }

    fn board_body(&self) -> String {
        self.row.body()
    }

    fn apply(&mut self, mv: &Move) -> Result<u8> {
        if mv.flip >= self.row.n {
            return Err(Error::illegal(format!("there is no light {}", mv.flip)));
        }
        self.row = self.row.flipped(mv.flip);
        self.moves += 1;
        Ok(self.row.bits)
    }

    fn status(&self) -> Status {
        Status::won_if(self.row.bits == 0)
    }

    fn moves(&self) -> u32 {
        self.moves
    }

    fn counters(&self) -> serde_json::Value {
        serde_json::json!({ "moves": self.moves })
    }

    /// `{"lights": [true, false, …]}`: each light of the row, on or off.
    fn view(&self, _start: &Self) -> serde_json::Value {
        let lights: Vec<bool> = (0..self.row.n).map(|i| self.row.bits >> i & 1 == 1).collect();
        serde_json::json!({ "lights": lights })
    }

    fn hint(&self, cancel: &Cancel) -> Result<Hint<Move>> {
        let line = self.solve(cancel)?;
        let (mv, rest) = line
            .split_first()
            .ok_or_else(|| Error::illegal("every light is off already"))?;
        Ok(Hint {
            mv: *mv,
            optimal: true,
            line: rest.to_vec(),
            values: None,
        })
    }

    fn solve(&self, _cancel: &Cancel) -> Result<Vec<Move>> {
        let line = self
            .row
            .solution()
            .ok_or_else(|| Error::unsolvable("these lights cannot all be turned off"))?;
        Ok(line.into_iter().map(|flip| Move { flip }).collect())
    }

    const SOLVE_OPTIMAL: bool = true;
}

impl Registered for Lights {
    const RULES: &'static [&'static str] = &["moves"];
    const MOVE_FORM: &'static str = r#"{"flip": i}"#;
}

/// No splits: a row of lights has no parts done along the way.
impl crate::splits::Splits for Lights {}

impl Coded for Lights {
    type Board = Row;
    const GOLDEN: &'static [&'static str] = &[
        "lights:1",
        "lights:10110",
        "lights:11111111",
        "lights:11",
        "lights:5#3",
        "lights:8#18446744073709551615",
        "lights:9#1",
        "lights:102",
    ];

    fn parse_board(body: &str) -> Result<Row> {
        Row::parse(body)
    }
    fn board_text(board: &Row) -> Result<String> {
        Ok(board.body())
    }
    fn write_board(board: &Row, out: &mut Writer) {
        out.byte(board.n);
        out.byte(board.bits);
    }
    fn read_board(r: &mut Reader, _wide: bool) -> Result<Row> {
        let n = r.byte("the row length")?;
        let bits = r.byte("the lights")?;
        if n == 0 || n > MAX_LIGHTS || (bits as u16) >> n != 0 {
            return Err(Error::bad_code("the lights do not fit their row"));
        }
        Ok(Row { n, bits })
    }
    /// A result code's log: each move is one of the row's flips.
    fn log_choices(g: &Lights) -> Option<Vec<Move>> {
        Some((0..g.row.n).map(|flip| Move { flip }).collect())
    }
    fn check_board(board: &Row, _body: &str, _picture: Option<&str>) -> Result<()> {
        match board.solution() {
            Some(_) => Ok(()),
            None => Err(Error::unsolvable("these lights cannot all be turned off")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;

    #[test]
    fn a_session_plays_the_dummy_game_to_a_win_through_the_generic_code() {
        let id = crate::code::decode(&crate::code::encode("lights:10110").unwrap()).unwrap();
        assert_eq!(id, "lights:10110");
        let mut s: Session<Lights> = Session::open(&id).unwrap();
        let cancel = Cancel::new();
        while s.status() == Status::Playing {
            let h = s.hint(&cancel).unwrap();
            s.play(&h.mv, 0).unwrap();
        }
        assert_eq!(s.status(), Status::Won);
        let back = Session::<Lights>::restore(&s.save(0)).unwrap();
        assert_eq!(back.current(), s.current());
        assert_eq!(Kind::parse("lights"), Some(Kind::Lights));
        assert!(crate::registry::names_text().ends_with(" or lights"));
        assert_eq!(
            s.current().view(s.start()),
            serde_json::json!({ "lights": [false, false, false, false, false] })
        );
    }

    #[test]
    fn every_seeded_row_has_lights_on_and_can_be_solved() {
        for n in 1..=MAX_LIGHTS {
            for seed in 0..64 {
                let g = Lights::from_id(&n.to_string(), Some(seed)).unwrap();
                assert_ne!(g.row.bits, 0, "{n}#{seed}");
                assert!(g.row.solution().is_some(), "{n}#{seed}");
            }
        }
    }
}
