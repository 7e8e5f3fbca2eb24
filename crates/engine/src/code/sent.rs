//! The sender's part of a result code: their display name and, when the whole
//! code stays within [`MAX_CODE_LEN`](super::MAX_CODE_LEN), the move log of their game,
//! packed move by move through the game's [`Coded`] log methods; for a game whose result is
//! more than its move count (2048), the outcome: score and won or lost. See the
//! module documentation of `code` ("Extension section") for the layout.

use super::{Coded, Reader, Writer};
use crate::error::{Error, Result};
use crate::game::Game;
use serde_json::Value;

/// Longest display name, in characters (after trimming).
pub const MAX_NAME_CHARS: usize = 16;
/// Most moves a code's log may name (bounded replay work: every move of a log costs at
/// least one step of the game's move generator, and a log is never longer than this).
pub const MAX_LOG_MOVES: usize = 10_000;

/// The extension flags: bit 0 a name follows, bit 1 a move log ends the payload, bit 2 an
/// outcome follows the name, bit 3 the result was assisted; the other bits zero.
pub(crate) const EXT_NAME: u8 = 1;
pub(crate) const EXT_LOG: u8 = 2;
pub(crate) const EXT_OUTCOME: u8 = 4;
/// Bit 3: the result was helped (hints, undo). A build before it refuses such a code as one
/// with features it does not know; codes without it are unchanged.
pub(crate) const EXT_ASSISTED: u8 = 8;
/// Bit 4: the time of every move of the log follows the outcome (see [`TimeBits`]).
pub(crate) const EXT_TIMES: u8 = 16;
/// Bit 5: the time of every split of the log follows the outcome (the move times did not fit).
pub(crate) const EXT_SPLIT_TIMES: u8 = 32;
/// Bit 6: the result is for a group challenge: its 48-bit group ID follows the flags byte
/// (6 bytes, big-endian, not 0). A build before it refuses such a code (unknown features).
pub(crate) const EXT_GROUP: u8 = 64;
/// Bytes of a group ID in a code.
pub const GROUP_ID_BYTES: usize = 6;
/// A time in a code is in steps of this many milliseconds.
pub const TIME_STEP_MS: u64 = 10;
/// Most steps a code's times add up to ([`MAX_CHALLENGE_MS`](super::MAX_CHALLENGE_MS)).
const MAX_TIME_STEPS: u64 = super::MAX_CHALLENGE_MS / TIME_STEP_MS;
/// Most split times a code carries.
pub const MAX_SPLIT_TIMES: usize = 64;

/// The times a code carries, as the payload holds them: gaps in [`TIME_STEP_MS`] steps.
/// `Moves`: one gap per move after the first (the first move is at 0); `Splits`: one gap per
/// split, the first from the first move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TimeBits {
    Moves(Vec<u64>),
    Splits(Vec<u64>),
}

impl TimeBits {
    fn flag(&self) -> u8 {
        match self {
            TimeBits::Moves(_) => EXT_TIMES,
            TimeBits::Splits(_) => EXT_SPLIT_TIMES,
        }
    }
    fn gaps(&self) -> &[u64] {
        match self {
            TimeBits::Moves(g) | TimeBits::Splits(g) => g,
        }
    }
    /// The times in ms from the first move, rebuilt from the gaps.
    pub fn times(&self) -> Times {
        let mut at = 0u64;
        let mut acc: Vec<u64> = Vec::with_capacity(self.gaps().len() + 1);
        if matches!(self, TimeBits::Moves(_)) {
            acc.push(0);
        }
        for g in self.gaps() {
            at = at.saturating_add(*g);
            acc.push(at.saturating_mul(TIME_STEP_MS));
        }
        match self {
            TimeBits::Moves(_) => Times::Moves(acc),
            TimeBits::Splits(_) => Times::Splits(acc),
        }
    }
}

/// The gaps, in [`TIME_STEP_MS`] steps, between `times` (ms, any origin), the first from
/// `from`: each time rounded to a step from `from` (a time before the one ahead of it counts
/// as that one), so a time read back is within half a step of what was written.
pub(crate) fn gaps(from: u64, times: &[u64]) -> Vec<u64> {
    let mut prev = 0u64;
    times
        .iter()
        .map(|&t| {
            let q = (t.saturating_sub(from) + TIME_STEP_MS / 2) / TIME_STEP_MS;
            let q = q.clamp(prev, MAX_TIME_STEPS);
            let g = q - prev;
            prev = q;
            g
        })
        .collect()
}

/// The times a decoded result code carries, in ms from the sender's first move (the sender's
/// claim, never verified): of every move of its log (the first is 0), or, when those did not
/// fit, of every split of its log in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Times {
    Moves(Vec<u64>),
    Splits(Vec<u64>),
}

impl Times {
    /// `"moves"` or `"splits"`: which times the code kept.
    pub fn kept(&self) -> &'static str {
        match self {
            Times::Moves(_) => "moves",
            Times::Splits(_) => "splits",
        }
    }
}
/// Largest score an outcome may carry (far above any 2048 game's: 3.9 million at the
/// 131,072 tile).
pub const MAX_OUTCOME_SCORE: u64 = 1 << 40;

/// A result besides its move count: 2048's score and whether the 2048 tile was
/// made ([`Coded::outcome`]). A code carries it after the name; with a move log it must be
/// what the replay ends with, without one it is the sender's claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    pub score: u64,
    pub won: bool,
}

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
#[derive(Clone, PartialEq, Eq)]
pub struct Sent {
    /// The sender's display name, if they gave one.
    pub name: Option<String>,
    /// The moves of their game from the start (the game's move form, for the decoded game
    /// ID's board), when the code carries them. A code with a log has been replayed while
    /// decoding: the log reaches the goal in exactly the challenge's move count.
    pub log: Option<Vec<Value>>,
    /// The result's outcome (2048: score, won), when the code carries one or its log gives
    /// it (then it is the replay's: verified with the moves).
    pub outcome: Option<Outcome>,
    /// The sender was helped to it (hints, undo): boards mark it and rank it after clean
    /// results.
    pub assisted: bool,
    /// The sender's times, when the code carries them (only with a log).
    pub times: Option<Times>,
    /// The group challenge the result is for (extension bit 6), when it names one.
    pub group: Option<u64>,
}

/// The derived form, with `times` only when there are some (the golden files pin the debug
/// form of every code without them).
impl std::fmt::Debug for Sent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("Sent");
        d.field("name", &self.name)
            .field("log", &self.log)
            .field("outcome", &self.outcome)
            .field("assisted", &self.assisted);
        if let Some(t) = &self.times {
            d.field("times", t);
        }
        if let Some(g) = &self.group {
            d.field("group", g);
        }
        d.finish()
    }
}

impl Sent {
    /// Whether the result was checked by replaying its moves.
    pub fn verified(&self) -> bool {
        self.log.is_some()
    }
}

/// Whether `c` is a Unicode format character (general category Cf, Unicode 15.1): the
/// invisible ones — zero-width spaces and joiners, bidirectional controls, the soft hyphen,
/// the byte-order mark, tag characters — that make two names look alike.
pub fn is_format_char(c: char) -> bool {
    matches!(
        c as u32,
        0xAD | 0x600..=0x605
            | 0x61C
            | 0x6DD
            | 0x70F
            | 0x890..=0x891
            | 0x8E2
            | 0x180E
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x206F
            | 0xFEFF
            | 0xFFF9..=0xFFFB
            | 0x110BD
            | 0x110CD
            | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0001
            | 0xE0020..=0xE007F
    )
}

/// Whether `c` is a default-ignorable code point (Unicode 15.1, DerivedCoreProperties):
/// invisible wherever it is, as the combining grapheme joiner, the variation selectors and
/// the Hangul fillers are.
pub fn is_default_ignorable(c: char) -> bool {
    matches!(
        c as u32,
        0xAD | 0x34F
            | 0x61C
            | 0x115F..=0x1160
            | 0x17B4..=0x17B5
            | 0x180B..=0x180F
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x206F
            | 0x3164
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xFFA0
            | 0xFFF0..=0xFFF8
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0000..=0xE0FFF
    )
}

/// `name` without its format characters ([`is_format_char`]) and default-ignorable code
/// points ([`is_default_ignorable`]), in NFC: the form names are shown and kept in.
pub fn without_format_chars(name: &str) -> String {
    let visible = name
        .chars()
        .filter(|&c| !is_format_char(c) && !is_default_ignorable(c));
    #[cfg(feature = "names")]
    let visible = unicode_normalization::UnicodeNormalization::nfc(visible);
    visible.collect()
}

/// What two names are compared by: the confusables skeleton (Unicode TR39) of their checked
/// form, so "Аlice" (Cyrillic А) is "Alice", and "Jose\u{301}" is "José". The empty name's
/// key is empty.
pub fn name_key(name: &str) -> String {
    skeleton(without_format_chars(name).trim())
}

#[cfg(feature = "names")]
fn skeleton(name: &str) -> String {
    unicode_security::confusable_detection::skeleton(name).collect()
}

/// Without the `names` feature (the web page's first wasm): the name as it is.
#[cfg(not(feature = "names"))]
fn skeleton(name: &str) -> String {
    name.to_string()
}

/// A display name checked: its invisible characters (format characters, default-ignorable
/// code points) dropped, normalised to NFC, then trimmed, at most [`MAX_NAME_CHARS`]
/// characters, no control characters or line breaks. Empty → `None`. Errors are `parse`
/// errors (the app answers `bad_argument`). Two names are the same player when their
/// [`name_key`]s are equal.
pub fn check_name(name: &str) -> Result<Option<String>> {
    let visible = without_format_chars(name);
    let t = visible.trim();
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

/// Writes the extension section (after the challenge): flags, the name, then the outcome
/// (`varint score × 2 + won`). A section with none of the three is not written (no flags).
pub(crate) fn write_ext(
    w: &mut Writer,
    name: Option<&str>,
    log: bool,
    outcome: Option<Outcome>,
    assisted: bool,
    times: Option<&TimeBits>,
    group: Option<u64>,
) {
    let mut flags = times.map_or(0, TimeBits::flag);
    if group.is_some() {
        flags |= EXT_GROUP;
    }
    if assisted {
        flags |= EXT_ASSISTED;
    }
    if name.is_some() {
        flags |= EXT_NAME;
    }
    if log {
        flags |= EXT_LOG;
    }
    if outcome.is_some() {
        flags |= EXT_OUTCOME;
    }
    w.byte(flags);
    if let Some(g) = group {
        w.slice(&g.to_be_bytes()[8 - GROUP_ID_BYTES..]);
    }
    if let Some(n) = name {
        w.byte(n.len() as u8);
        w.slice(n.as_bytes());
    }
    if let Some(o) = outcome {
        w.varint(o.score * 2 + u64::from(o.won));
    }
    if let Some(t) = times {
        w.varint(t.gaps().len() as u64);
        for g in t.gaps() {
            w.varint(*g);
        }
    }
}

/// What the extension section says: the name, whether a log ends the payload, the outcome.
pub(crate) struct Ext {
    pub name: Option<String>,
    pub log: bool,
    pub outcome: Option<Outcome>,
    pub assisted: bool,
    pub times: Option<TimeBits>,
    pub group: Option<u64>,
}

/// Reads the extension section. A name is read in its checked form: the format characters an
/// older build let through are dropped (a name of nothing else is no name).
pub(crate) fn read_ext(r: &mut Reader) -> Result<Ext> {
    let flags = r.byte("the extension")?;
    let known =
        EXT_NAME | EXT_LOG | EXT_OUTCOME | EXT_ASSISTED | EXT_TIMES | EXT_SPLIT_TIMES | EXT_GROUP;
    let timed = flags & (EXT_TIMES | EXT_SPLIT_TIMES);
    if flags & !known != 0
        || flags == 0
        || timed == EXT_TIMES | EXT_SPLIT_TIMES
        || (timed != 0 && flags & EXT_LOG == 0)
    {
        return Err(Error::bad_code("the extension section is not valid"));
    }
    let group = if flags & EXT_GROUP != 0 {
        let b = r.slice(GROUP_ID_BYTES, "the group")?;
        let g = b.iter().fold(0u64, |a, &x| a << 8 | x as u64);
        if g == 0 {
            return Err(Error::bad_code("the group ID is 0"));
        }
        Some(g)
    } else {
        None
    };
    let name = if flags & EXT_NAME != 0 {
        let len = r.byte("the name")? as usize;
        let text = r.slice(len, "the name")?;
        // Canonical as an older build wrote it (format characters aside), and read in
        // today's checked form: what `check_name` keeps of it (other invisible characters
        // dropped, NFC; a name of nothing else is no name).
        let cf_free = std::str::from_utf8(text)
            .ok()
            .filter(|t| !t.is_empty())
            .map(|t| {
                t.chars()
                    .filter(|&c| !is_format_char(c))
                    .collect::<String>()
            })
            .filter(|v| {
                v.trim() == v
                    && v.chars().count() <= MAX_NAME_CHARS
                    && !v
                        .chars()
                        .any(|c| c.is_control() || c == '\u{2028}' || c == '\u{2029}')
            })
            .ok_or_else(|| Error::bad_code("the sender's name is not a valid name"))?;
        let v = without_format_chars(&cf_free);
        let v = v.trim();
        (!v.is_empty()).then(|| v.to_string())
    } else {
        None
    };
    let outcome = if flags & EXT_OUTCOME != 0 {
        let v = r.varint(MAX_OUTCOME_SCORE * 2 + 1, "the outcome")?;
        Some(Outcome {
            score: v / 2,
            won: v % 2 == 1,
        })
    } else {
        None
    };
    let times = if timed != 0 {
        let most = if timed == EXT_TIMES {
            MAX_LOG_MOVES
        } else {
            MAX_SPLIT_TIMES
        };
        let n = r.varint(most as u64, "the number of times")? as usize;
        let mut gaps = Vec::with_capacity(n);
        let mut sum = 0u64;
        for _ in 0..n {
            let g = r.varint(MAX_TIME_STEPS, "a time")?;
            sum += g;
            if sum > MAX_TIME_STEPS {
                return Err(Error::bad_code("the times add up to more than 999 hours"));
            }
            gaps.push(g);
        }
        Some(if timed == EXT_TIMES {
            TimeBits::Moves(gaps)
        } else {
            TimeBits::Splits(gaps)
        })
    } else {
        None
    };
    Ok(Ext {
        name,
        log: flags & EXT_LOG != 0,
        outcome,
        assisted: flags & EXT_ASSISTED != 0,
        times,
        group,
    })
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
        // Format characters (Cf) are dropped before anything else: the name is the same player.
        assert_eq!(check_name("Alice\u{200B}").unwrap(), Some("Alice".into()));
        assert_eq!(
            check_name("\u{202E}Alice\u{2066}").unwrap(),
            Some("Alice".into())
        );
        assert_eq!(
            check_name("A\u{200D}l\u{FEFF}i\u{AD}ce").unwrap(),
            Some("Alice".into())
        );
        assert_eq!(check_name(" \u{200B} ").unwrap(), None);
        assert_eq!(
            check_name("\u{E0041}\u{E0042}Bo").unwrap(),
            Some("Bo".into())
        );
        // Sixteen visible characters and invisible ones around them: within the bound.
        let padded = format!("{}\u{200B}\u{200B}", "abcdefghijklmnop");
        assert_eq!(check_name(&padded).unwrap().unwrap(), "abcdefghijklmnop");
        // Visible characters of other scripts stay.
        assert_eq!(check_name("华容道").unwrap(), Some("华容道".into()));
        assert!(!is_format_char('a') && !is_format_char('华') && !is_format_char(' '));
    }

    #[cfg(feature = "names")]
    #[test]
    fn name_twins_share_one_key() {
        // Default-ignorable code points are dropped like format characters.
        for twin in ["Mei\u{34F}", "Mei\u{FE0F}", "Mei\u{3164}", "\u{115F}Mei"] {
            assert_eq!(check_name(twin).unwrap(), Some("Mei".into()), "{twin:?}");
            assert_eq!(name_key(twin), name_key("Mei"), "{twin:?}");
        }
        assert_eq!(check_name("\u{3164}\u{FE0F}").unwrap(), None);
        // NFC: a combining accent is the precomposed letter, shown and compared so.
        assert_eq!(check_name("Jose\u{301}").unwrap(), Some("Jos\u{E9}".into()));
        assert_eq!(name_key("Jose\u{301}"), name_key("Jos\u{E9}"));
        // Confusables: a Cyrillic А is compared as a Latin A, and shown as written.
        assert_eq!(name_key("\u{410}lice"), name_key("Alice"));
        assert_eq!(
            check_name("\u{410}lice").unwrap(),
            Some("\u{410}lice".into())
        );
        // Different names stay different.
        assert_ne!(name_key("Alice"), name_key("Alina"));
        assert_ne!(name_key("Mei"), name_key("Mai"));
        assert_eq!(name_key(""), "");
    }

    #[test]
    fn bits_name_every_choice() {
        assert_eq!([1, 2, 3, 4, 5, 8, 9].map(bits_for), [0, 1, 2, 2, 3, 3, 4]);
    }
}
