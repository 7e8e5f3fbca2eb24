//! TEMPORARY until the Klotski engine is merged: the same API surface, refusing everything.
use huarong_engine::{Cancel, Error, Game, Hint, Kind, Status};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    pub piece: char,
    pub to: (u8, u8),
}
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Target {
    pub to: (u8, u8),
    pub path: Vec<(u8, u8)>,
}
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Stars {
    pub three: u32,
    pub two: u32,
}
impl Stars {
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Classic {
    pub index: u32,
    pub name_zh: &'static str,
    pub name_en: &'static str,
    pub board: &'static str,
    pub min_moves: Option<u32>,
    pub stars: Option<Stars>,
}
impl Classic {
    pub fn id(&self) -> String {
        format!("klotski:{}", self.board)
    }
}
pub fn classics() -> &'static [Classic] {
    &[]
}
#[derive(Debug, Clone)]
pub struct Klotski;
impl Klotski {
    pub fn targets(&self, _piece: char) -> huarong_engine::error::Result<Vec<Target>> {
        Err(Error::unsupported("klotski is not merged yet"))
    }
}
impl Game for Klotski {
    const KIND: Kind = Kind::Klotski;
    type Move = Move;
    type Effect = ();
    fn from_id(_body: &str, _seed: Option<u64>) -> huarong_engine::error::Result<Self> {
        Err(Error::unsupported("klotski is not merged yet"))
    }
    fn board_body(&self) -> String {
        String::new()
    }
    fn apply(&mut self, _mv: &Move) -> huarong_engine::error::Result<()> {
        Err(Error::unsupported("klotski is not merged yet"))
    }
    fn status(&self) -> Status {
        Status::Playing
    }
    fn moves(&self) -> u32 {
        0
    }
    fn counters(&self) -> serde_json::Value {
        serde_json::json!({})
    }
    fn hint(&self, _c: &Cancel) -> huarong_engine::error::Result<Hint<Move>> {
        Err(Error::unsupported("klotski is not merged yet"))
    }
    fn solve(&self, _c: &Cancel) -> huarong_engine::error::Result<Vec<Move>> {
        Err(Error::unsupported("klotski is not merged yet"))
    }
}
