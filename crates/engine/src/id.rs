//! Game IDs: `<kind>:<body>` for an exact board and `<kind>:<params>#<seed>` for a
//! generated one. The body's form belongs to each game (see its `from_id`):
//! `slide:WxH:<tiles>`, `klotski:<rows joined by '/'>`, `2048:<16 values>`.

use crate::error::{Error, Result};
use crate::game::Kind;
use std::fmt;

/// Longest game ID accepted anywhere (a 10×10 slide board is about 300 characters).
pub const MAX_ID_LEN: usize = 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameId {
    pub kind: Kind,
    /// Everything between `kind:` and `#seed` (may be empty for some generated games).
    pub body: String,
    pub seed: Option<u64>,
}

impl GameId {
    pub fn parse(text: &str) -> Result<GameId> {
        let text = text.trim();
        if text.is_empty() {
            return Err(Error::parse("empty game ID"));
        }
        if text.len() > MAX_ID_LEN {
            return Err(Error::range(format!(
                "game ID is {} characters long; at most {MAX_ID_LEN} are accepted",
                text.len()
            )));
        }
        let (kind_text, rest) = match text.split_once(':') {
            Some((k, r)) => (k, r),
            None => (text.split('#').next().unwrap_or(text), ""),
        };
        let kind = Kind::parse(kind_text).ok_or_else(|| {
            Error::parse(format!(
                "unknown game kind {kind_text:?} (expected {})",
                names_text()
            ))
        })?;
        let rest = if text.contains(':') {
            rest
        } else {
            &text[kind_text.len()..]
        };
        let (body, seed) = match rest.rsplit_once('#') {
            // A Klotski board uses '#' for walls: only trailing digits after '#' are a seed.
            Some((_, s))
                if kind == Kind::Klotski
                    && (s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit())) =>
            {
                (rest, None)
            }
            Some((b, s)) => {
                let seed: u64 = s.parse().map_err(|_| {
                    Error::parse(format!("seed {s:?} is not a whole number 0…2^64-1"))
                })?;
                (b, Some(seed))
            }
            None => (rest, None),
        };
        Ok(GameId {
            kind,
            body: body.to_string(),
            seed,
        })
    }
}

/// The game names for a message: `slide, klotski or 2048`.
pub fn names_text() -> String {
    let names: Vec<&str> = Kind::ALL.iter().map(|k| k.as_str()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.kind.as_str(), self.body)?;
        if let Some(s) = self.seed {
            write!(f, "#{s}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    #[test]
    fn parses_forms() {
        let id = GameId::parse("slide:3x3:1,2,3,4,5,6,7,0,8").unwrap();
        assert_eq!(id.kind, Kind::Slide);
        assert_eq!(id.body, "3x3:1,2,3,4,5,6,7,0,8");
        assert_eq!(id.seed, None);
        let id = GameId::parse("slide:4x4#42").unwrap();
        assert_eq!((id.body.as_str(), id.seed), ("4x4", Some(42)));
        let id = GameId::parse("2048#7").unwrap();
        assert_eq!(
            (id.kind, id.body.as_str(), id.seed),
            (Kind::G2048, "", Some(7))
        );
        assert_eq!(GameId::parse("2048:#7").unwrap().to_string(), "2048:#7");
    }

    #[test]
    fn rejects_garbage() {
        let long = format!("slide:{}", "1".repeat(5000));
        for (text, code) in [
            ("", ErrorCode::Parse),
            ("chess:abc", ErrorCode::Parse),
            ("slide:3x3#x", ErrorCode::Parse),
            (long.as_str(), ErrorCode::OutOfRange),
        ] {
            assert_eq!(GameId::parse(text).unwrap_err().code, code, "{text:.20}");
        }
    }
}
