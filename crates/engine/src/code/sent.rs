//! The sender's part of a result code (issue 25): their display name and, when the whole
//! code stays within [`MAX_CODE_LEN`](super::MAX_CODE_LEN), the move log of their game,
//! packed move by move through the game's [`Coded`] log methods. See the module
//! documentation of `code` ("Extension section") for the layout.

use super::{Coded, Reader, Writer};
use crate::error::{Error, Result};
use crate::game::Game;
use serde_json::Value;

/// Longest display name, in characters (after trimming).
pub const MAX_NAME_CHARS: usize = 16;
/// Most moves a code's log may name (bounded replay work: every move of a log costs at
/// least one step of the game's move generator, and a log is never longer than this).
pub const MAX_LOG_MOVES: usize = 10_000;

/// The extension flags: bit 0 a name follows, bit 1 a move log ends the payload; the other
/// bits zero.
pub(crate) const EXT_NAME: u8 = 1;
pub(crate) const EXT_LOG: u8 = 2;

/// What the sender adds to a result (for [`encode_result`](super::encode_result)).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sender {
    /// Their display name (checked with [`check_name`]); `None` or empty: none.
    pub name: Option<String>,
    /// Their moves from the start, in the game's move form (`{"tile": 7}`, …); the code
    /// carries them only if they reach the goal in the result's move count.
    pub log: Option<Vec<Value>>,
}

/// What a decoded result code says about its sender.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    /// The sender's display name, if they gave one.
    pub name: Option<String>,
    /// The moves of their game from the start (the game's move form, for the decoded game
    /// ID's board), when the code carries them. A code with a log has been replayed while
    /// decoding: the log reaches the goal in exactly the challenge's move count.
    pub log: Option<Vec<Value>>,
}

impl Sent {
    /// Whether the result was checked by replaying its moves.
    pub fn verified(&self) -> bool {
        self.log.is_some()
    }
}

/// A display name checked: trimmed, at most [`MAX_NAME_CHARS`] characters, no control
/// characters or line breaks. Empty → `None`. Errors are `parse` errors (the app answers
/// `bad_argument`).
pub fn check_name(name: &str) -> Result<Option<String>> {
    let t = name.trim();
    if t.chars()
        .any(|c| c.is_control() || c == '\u{2028}' || c == '\u{2029}')
    {
        return Err(Error::parse(
            "a name cannot contain control characters or line breaks",
        ));
    }
    let n = t.chars().count();
    if n > MAX_NAME_CHARS {
        return Err(Error::parse(format!(
            "a name is at most {MAX_NAME_CHARS} characters, not {n}"
        )));
    }
    Ok((!t.is_empty()).then(|| t.to_string()))
}

/// Bits that name one of `n` choices (0 when there is only one).
fn bits_for(n: usize) -> u32 {
    if n <= 1 {
        0
    } else {
        usize::BITS - (n - 1).leading_zeros()
    }
}

/// The packed log of `moves` from `start`: (moves written, bytes). Each move is its index
/// among [`Coded::log_choices`] of the position before it, in just enough bits for their
/// number, most significant first, zero-padded to a byte; moves [`Coded::log_implied`]
/// are left out. Returns the game after the moves too.
pub(crate) fn pack<G: Coded>(start: &G, moves: &[G::Move]) -> Result<(u32, Vec<u8>, G)> {
    let mut g = start.clone();
    let mut w = Writer::default();
    let mut count = 0u32;
    for (i, mv) in moves.iter().enumerate() {
        if G::log_implied(mv) {
            if g.accepts(mv) {
                g.apply(mv)?;
            }
            continue;
        }
        G::log_before(&mut g);
        let choices = G::log_choices(&g)
            .ok_or_else(|| Error::unsupported("this game's codes carry no move log"))?;
        let index = choices
            .iter()
            .position(|c| c == mv)
            .filter(|_| g.accepts(mv))
            .ok_or_else(|| Error::parse(format!("move {} of the log is not legal", i + 1)))?;
        let n = bits_for(choices.len());
        if n > 16 {
            return Err(Error::unsupported("too many moves to choose from"));
        }
        w.bits(index as u32, n);
        g.apply(mv)?;
        count += 1;
        if count as usize > MAX_LOG_MOVES {
            return Err(Error::range(format!(
                "a code's log is at most {MAX_LOG_MOVES} moves"
            )));
        }
    }
    w.align();
    Ok((count, w.bytes, g))
}

/// Replays a packed log of `count` moves from `start` (bounded: `count` ≤ [`MAX_LOG_MOVES`]
/// steps, each a move generation and one move). Every index must name a choice, the padding
/// must be zero and nothing may follow. Returns the moves and the game after them.
pub(crate) fn unpack<G: Coded>(start: &G, count: u32, bytes: &[u8]) -> Result<(Vec<G::Move>, G)> {
    let mut g = start.clone();
    let mut r = Reader::new(bytes);
    let mut moves = Vec::with_capacity((count as usize).min(MAX_LOG_MOVES));
    for i in 0..count {
        G::log_before(&mut g);
        let choices = G::log_choices(&g)
            .ok_or_else(|| Error::bad_code("this game's codes carry no move log"))?;
        let n = bits_for(choices.len());
        if choices.is_empty() || n > 16 {
            return Err(Error::bad_code(format!(
                "the move log goes on after the game ended (move {})",
                i + 1
            )));
        }
        let index = r.bits(n, "the move log")? as usize;
        let mv = choices.get(index).ok_or_else(|| {
            Error::bad_code(format!("move {} of the log is not a legal move", i + 1))
        })?;
        if !g.accepts(mv) || g.apply(mv).is_err() {
            return Err(Error::bad_code(format!(
                "move {} of the log is not a legal move",
                i + 1
            )));
        }
        moves.push(mv.clone());
    }
    r.align()?;
    if r.remaining() != 0 {
        return Err(Error::bad_code("the move log has bytes too many"));
    }
    Ok((moves, g))
}

/// Whether the game after a log is the result it claims: the goal reached
/// ([`Coded::log_done`]) in exactly `moves` under the game's default counting rule.
pub(crate) fn reaches<G: Coded>(end: &G, moves: u32) -> bool {
    G::log_done(end) && end.moves() == moves
}

/// The moves of a JSON log (the game's move form), checked.
pub(crate) fn parse_moves<G: Game>(log: &[Value]) -> Result<Vec<G::Move>> {
    if log.len() > MAX_LOG_MOVES * 2 {
        return Err(Error::range(format!(
            "a code's log is at most {MAX_LOG_MOVES} moves"
        )));
    }
    log.iter()
        .enumerate()
        .map(|(i, v)| {
            serde_json::from_value::<G::Move>(v.clone())
                .map_err(|e| Error::parse(format!("move {} of the log: {e}", i + 1)))
        })
        .collect()
}

/// The JSON form of moves.
pub(crate) fn to_json<G: Game>(moves: &[G::Move]) -> Vec<Value> {
    moves
        .iter()
        .map(|m| serde_json::to_value(m).unwrap_or(Value::Null))
        .collect()
}

/// Writes the extension section (after the challenge): flags, then the name.
pub(crate) fn write_ext(w: &mut Writer, name: Option<&str>, log: bool) {
    let mut flags = 0;
    if name.is_some() {
        flags |= EXT_NAME;
    }
    if log {
        flags |= EXT_LOG;
    }
    w.byte(flags);
    if let Some(n) = name {
        w.byte(n.len() as u8);
        w.slice(n.as_bytes());
    }
}

/// Reads the extension section: the name and whether a log ends the payload.
pub(crate) fn read_ext(r: &mut Reader) -> Result<(Option<String>, bool)> {
    let flags = r.byte("the extension")?;
    if flags & !(EXT_NAME | EXT_LOG) != 0 || flags == 0 {
        return Err(Error::bad_code("the extension section is not valid"));
    }
    let name = if flags & EXT_NAME != 0 {
        let len = r.byte("the name")? as usize;
        let text = r.slice(len, "the name")?;
        let name = std::str::from_utf8(text)
            .ok()
            .and_then(|t| check_name(t).ok().flatten().filter(|n| n == t))
            .ok_or_else(|| Error::bad_code("the sender's name is not a valid name"))?;
        Some(name)
    } else {
        None
    };
    Ok((name, flags & EXT_LOG != 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_bounded_and_printable() {
        assert_eq!(check_name("  Mei  ").unwrap(), Some("Mei".into()));
        assert_eq!(check_name("").unwrap(), None);
        assert_eq!(check_name("   ").unwrap(), None);
        assert_eq!(check_name("华容道高手").unwrap(), Some("华容道高手".into()));
        assert_eq!(
            check_name("abcdefghijklmnop").unwrap().unwrap().len(),
            MAX_NAME_CHARS
        );
        assert!(check_name("abcdefghijklmnopq").is_err());
        assert!(check_name("a\nb").is_err());
        assert!(check_name("a\u{7}b").is_err());
        assert!(check_name("a\u{2028}b").is_err());
    }

    #[test]
    fn bits_name_every_choice() {
        assert_eq!([1, 2, 3, 4, 5, 8, 9].map(bits_for), [0, 1, 2, 2, 3, 3, 4]);
    }
}
