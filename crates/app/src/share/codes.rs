//! Share codes and links: making one for a game, and reading what one (or a game ID) stands
//! for.

use crate::error::{AppError, AppResult};
use crate::games::{with_game, AppGame};
use huarong_engine::{code, Game, GameId};
use serde::Serialize;

/// What `encode_code` returns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CodeInfo {
    pub code: String,
    pub link: String,
}

/// The sender's result to beat: both `moves` and `ms`, or neither.
pub fn challenge(moves: Option<u32>, ms: Option<u64>) -> AppResult<Option<code::Challenge>> {
    match (moves, ms) {
        (None, None) => Ok(None),
        (Some(m), Some(t)) => Ok(Some(code::Challenge::new(m, t)?)),
        _ => Err(AppError::bad_argument(
            "a result to beat needs both `moves` and `ms`",
        )),
    }
}

/// The share code and link of a game ID (generates the level for seeded IDs).
pub fn encode(
    id: &str,
    extra: code::Extra,
    challenge: Option<code::Challenge>,
) -> AppResult<CodeInfo> {
    let c = code::encode_full(id, extra, challenge)?;
    Ok(CodeInfo {
        link: code::link(&c),
        code: c,
    })
}

/// What `decode_code` returns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DecodedInfo {
    /// The game ID to open.
    pub id: String,
    pub kind: String,
    /// The exact start board.
    pub board: String,
    pub daily: Option<u32>,
    /// The level's own ID where there is one (`slide:4x4/medium#7`, a classic's board…).
    pub source: String,
    /// The sender's result to beat, `{moves, ms}`, when the code carries one.
    pub challenge: Option<code::Challenge>,
    /// The picture of a picture puzzle, when there is one.
    pub picture: Option<String>,
    /// A result code's sender: their name, whether the move log is in the code
    /// (`replay`) and so was replayed while decoding (`verified`).
    pub name: Option<String>,
    pub replay: bool,
    pub verified: bool,
    /// The sender's time of each move in ms from their first move (0), when the code has
    /// them; else null. The sender's claim: `verified` is about the moves only.
    pub times_ms: Option<Vec<u64>>,
    /// Which times the code kept: `"moves"`, `"splits"` (the move times did not fit: only
    /// `splits` have `ms`), or null.
    pub times: Option<&'static str>,
    /// The splits of the code's move log, `[{name, moves, ms}]` (`ms` null without times);
    /// empty without a log.
    pub splits: Vec<huarong_engine::splits::Split>,
}

/// What a code, link or game ID stands for (the "enter or paste a code" box).
pub fn decode(text: &str) -> AppResult<DecodedInfo> {
    let t = text.trim();
    if code::is_game_id(t) {
        let id = code::resolve(t)?;
        let parsed = GameId::parse(&id)?;
        let picture = with_game!(parsed.kind, G => G::picture_of(&parsed.body));
        return Ok(DecodedInfo {
            kind: parsed.kind.as_str().to_string(),
            board: parsed.body,
            daily: None,
            source: id.clone(),
            challenge: None,
            picture,
            id,
            name: None,
            replay: false,
            verified: false,
            times_ms: None,
            times: None,
            splits: Vec::new(),
        });
    }
    let d = code::decode_full(t)?;
    let timed = match d.log() {
        Some(log) => {
            let parsed = GameId::parse(&d.id)?;
            let times = d.sent.as_ref().and_then(|s| s.times.as_ref());
            with_game!(parsed.kind, G => {
                let start = G::from_id(&parsed.body, parsed.seed)?;
                crate::times::line_times_of(&start, log, times, &huarong_engine::Cancel::new())
            })
        }
        None => crate::times::LineTimes::default(),
    };
    Ok(DecodedInfo {
        times_ms: timed.times_ms,
        times: timed.times,
        splits: timed.splits,
        name: d.name().map(str::to_string),
        replay: d.log().is_some(),
        verified: d.verified(),
        source: d.source_id(),
        id: d.id,
        kind: d.kind.as_str().to_string(),
        board: d.board,
        daily: d.daily,
        challenge: d.challenge,
        picture: d.picture,
    })
}
