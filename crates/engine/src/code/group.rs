//! Group challenge codes: an *invite* (a puzzle, a deadline, a short title and a random group
//! ID) and a *board code* (an invite plus the best lines of its board). A player's result for
//! the group is an ordinary result code with extension bit 6 (the group ID, [`with_group`]).
//!
//! # Payload of a group code (version 2, same checksum and text as every code)
//! ```text
//! envelope  1 byte 127 (GROUP_ENVELOPE: the game-number varint no game has; a build before
//!           refuses it as an unknown game)
//! form      1 byte: 0 invite, 1 board code; other values refused
//! group     6 bytes big-endian, not 0
//! deadline  varint Unix seconds (1 … MAX_DEADLINE_S)
//! title     1 length byte + UTF-8 (check_title: a name's rules, ≤ MAX_TITLE_CHARS characters;
//!           length 0: no title)
//! puzzle    varint length + the payload of the puzzle's own code (a version-2 code without a
//!           challenge, checksum left out): decoded and checked as that code
//! -- board code only --
//! sharer    1 length byte + UTF-8 (a checked name; length 0: none)
//! lines     varint n (≤ MAX_BOARD_LINES), then each line:
//!           name     1 length byte + UTF-8 (a checked name, may be empty)
//!           flags    1 byte: bit 0 verified where it was shared, bit 1 assisted,
//!                    bit 2 an outcome follows, bit 3 won (only with bit 2); others zero
//!           moves    varint (1 … MAX_CHALLENGE_MOVES)
//!           time     varint, 10 ms steps (≤ MAX_CHALLENGE_MS / 10)
//!           score    varint (if bit 2, ≤ MAX_OUTCOME_SCORE)
//!           log hash 6 bytes big-endian ([`log_hash`])
//! ```
//! Nothing may follow. The invite link ([`link`](super::link) of the code) is at most
//! [`MAX_INVITE_LINK`] characters (the encoder refuses a longer one: a very large board with
//! a long title); a board code keeps as many of the best lines (≤ 20) as fit in
//! [`MAX_CODE_LEN`](super::MAX_CODE_LEN).

use super::{
    check_name, checked_payload, decode_full, encode_with, payload_of, seal, strip_link, Decoded,
    Extra, Outcome, Reader, Version, Writer, GROUP_ID_BYTES, MAX_CHALLENGE_MOVES, MAX_CHALLENGE_MS,
    MAX_CODE_LEN, MAX_OUTCOME_SCORE, TIME_STEP_MS,
};
use crate::error::{Error, Result};

/// The first payload byte of a group code.
pub const GROUP_ENVELOPE: u8 = 127;
/// Longest title, in characters.
pub const MAX_TITLE_CHARS: usize = 24;
/// Longest invite link, in characters (its QR code stays small on the card).
pub const MAX_INVITE_LINK: usize = 180;
/// Most lines a board code carries.
pub const MAX_BOARD_LINES: usize = 20;
/// Largest deadline a code may carry (Unix seconds, the year 2286).
pub const MAX_DEADLINE_S: u64 = 9_999_999_999;
/// Largest group ID (48 bits).
pub const MAX_GROUP: u64 = (1 << (8 * GROUP_ID_BYTES)) - 1;

const FORM_INVITE: u8 = 0;
const FORM_BOARD: u8 = 1;
const LINE_VERIFIED: u8 = 1;
const LINE_ASSISTED: u8 = 2;
const LINE_OUTCOME: u8 = 4;
const LINE_WON: u8 = 8;

/// A group challenge: what an invite says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invite {
    /// The random group ID (1 … [`MAX_GROUP`]).
    pub group: u64,
    /// The deadline, Unix milliseconds (whole seconds).
    pub deadline_ms: u64,
    pub title: Option<String>,
    /// The puzzle's own code (canonical).
    pub puzzle: String,
    /// The game ID to play (what the puzzle's code decodes to).
    pub id: String,
    /// The invite's code (canonical).
    pub code: String,
}

/// One line of a board code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The checked name ("" for a result without one).
    pub name: String,
    pub moves: u32,
    /// In [`TIME_STEP_MS`] steps' precision.
    pub ms: u64,
    pub verified: bool,
    pub assisted: bool,
    pub outcome: Option<Outcome>,
    /// [`log_hash`] of the line's result.
    pub log_hash: u64,
}

/// A board code: the invite, who shared it, the lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub invite: Invite,
    pub sharer: Option<String>,
    pub lines: Vec<Line>,
}

/// What a group code is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GroupCode {
    Invite(Invite),
    Board(Board),
}

/// A title checked: a name's rules ([`check_name`]) with at most [`MAX_TITLE_CHARS`]
/// characters. Empty → `None`.
pub fn check_title(title: &str) -> Result<Option<String>> {
    let visible = super::without_format_chars(title);
    let t = visible.trim();
    if t.chars()
        .any(|c| c.is_control() || c == '\u{2028}' || c == '\u{2029}')
    {
        return Err(Error::parse(
            "a title cannot contain control characters or line breaks",
        ));
    }
    let n = t.chars().count();
    if n > MAX_TITLE_CHARS {
        return Err(Error::parse(format!(
            "a title is at most {MAX_TITLE_CHARS} characters, not {n}"
        )));
    }
    Ok((!t.is_empty()).then(|| t.to_string()))
}

/// The 48-bit hash a board keys a result by: FNV-1a of the result's move log in the code's
/// packed form (`pack_log`), or, for a result without a log, of its claim (moves, time,
/// outcome).
pub fn log_hash(d: &Decoded) -> u64 {
    let text = match d.log() {
        Some(log) => super::pack_log(&d.id, log)
            .unwrap_or_else(|_| serde_json::to_string(log).unwrap_or_default()),
        None => {
            let c = d.challenge.map_or((0, 0), |c| (c.moves, c.ms));
            let o = d.sent.as_ref().and_then(|s| s.outcome);
            format!(
                "claim:{}:{}:{}:{}",
                c.0,
                c.1 / TIME_STEP_MS,
                o.map_or(0, |o| o.score),
                o.is_some_and(|o| o.won)
            )
        }
    };
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in d.id.bytes().chain([0u8]).chain(text.bytes()) {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h & MAX_GROUP).max(1)
}

fn check_group(group: u64) -> Result<()> {
    if group == 0 || group > MAX_GROUP {
        return Err(Error::range(format!(
            "a group ID is 1 to {MAX_GROUP}, not {group}"
        )));
    }
    Ok(())
}

fn write_group(w: &mut Writer, group: u64) {
    w.slice(&group.to_be_bytes()[8 - GROUP_ID_BYTES..]);
}

fn read_group(r: &mut Reader) -> Result<u64> {
    let b = r.slice(GROUP_ID_BYTES, "the group")?;
    let g = b.iter().fold(0u64, |a, &x| a << 8 | x as u64);
    if g == 0 {
        return Err(Error::bad_code("the group ID is 0"));
    }
    Ok(g)
}

fn write_text(w: &mut Writer, t: Option<&str>) {
    let t = t.unwrap_or("");
    w.byte(t.len() as u8);
    w.slice(t.as_bytes());
}

/// Reads a length-prefixed text that `check` must give back unchanged.
fn read_text(
    r: &mut Reader,
    what: &str,
    check: fn(&str) -> Result<Option<String>>,
) -> Result<Option<String>> {
    let len = r.byte(what)? as usize;
    let b = r.slice(len, what)?;
    let t = std::str::from_utf8(b).map_err(|_| Error::bad_code(format!("{what} is not text")))?;
    let checked = check(t).map_err(|e| Error::bad_code(format!("{what}: {}", e.message)))?;
    if checked.as_deref().unwrap_or("") != t {
        return Err(Error::bad_code(format!(
            "{what} is not in its checked form"
        )));
    }
    Ok(checked)
}

fn write_invite(w: &mut Writer, form: u8, inv: &Invite, puzzle: &[u8]) {
    w.byte(GROUP_ENVELOPE);
    w.byte(form);
    write_group(w, inv.group);
    w.varint(inv.deadline_ms / 1000);
    write_text(w, inv.title.as_deref());
    w.varint(puzzle.len() as u64);
    w.slice(puzzle);
}

/// The invite of a group challenge: the puzzle `game_id` (with `extra`: its daily number,
/// which classic), the `group` ID, the deadline (Unix ms, kept in whole seconds, rounded
/// up) and a title. Errors: `parse` for a bad title, `out_of_range` for a group ID or
/// deadline out of range or a link longer than [`MAX_INVITE_LINK`].
pub fn encode_invite(
    game_id: &str,
    extra: Extra,
    group: u64,
    deadline_ms: u64,
    title: Option<&str>,
) -> Result<Invite> {
    check_group(group)?;
    let title = match title {
        Some(t) => check_title(t)?,
        None => None,
    };
    let s = deadline_ms.div_ceil(1000);
    if s == 0 || s > MAX_DEADLINE_S {
        return Err(Error::range("the deadline is out of range"));
    }
    let puzzle = encode_with(game_id, extra)?;
    let id = decode_full(&puzzle)?.id;
    let bytes = payload_of(&puzzle)?;
    let mut inv = Invite {
        group,
        deadline_ms: s * 1000,
        title,
        puzzle,
        id,
        code: String::new(),
    };
    let mut w = Writer::default();
    write_invite(&mut w, FORM_INVITE, &inv, &bytes);
    inv.code = seal(&w.bytes);
    let n = super::link(&inv.code).chars().count();
    if n > MAX_INVITE_LINK {
        return Err(Error::range(format!(
            "the invite link would be {n} characters; at most {MAX_INVITE_LINK} (a shorter title?)"
        )));
    }
    Ok(inv)
}

/// The board code of `invite` shared by `sharer`: the first lines of `lines` (best first, at
/// most [`MAX_BOARD_LINES`]) that fit in [`MAX_CODE_LEN`]. Returns the code and how many
/// lines it carries.
pub fn encode_board(
    invite: &Invite,
    sharer: Option<&str>,
    lines: &[Line],
) -> Result<(String, usize)> {
    let sharer = match sharer {
        Some(s) => check_name(s)?,
        None => None,
    };
    let puzzle = payload_of(&invite.puzzle)?;
    let mut n = lines.len().min(MAX_BOARD_LINES);
    loop {
        let mut w = Writer::default();
        write_invite(&mut w, FORM_BOARD, invite, &puzzle);
        write_text(&mut w, sharer.as_deref());
        w.varint(n as u64);
        for l in &lines[..n] {
            let name = check_name(&l.name)?;
            write_text(&mut w, name.as_deref());
            let mut f = 0;
            if l.verified {
                f |= LINE_VERIFIED;
            }
            if l.assisted {
                f |= LINE_ASSISTED;
            }
            if let Some(o) = l.outcome {
                f |= LINE_OUTCOME | if o.won { LINE_WON } else { 0 };
            }
            w.byte(f);
            w.varint(l.moves.clamp(1, MAX_CHALLENGE_MOVES) as u64);
            w.varint((l.ms.min(MAX_CHALLENGE_MS) + TIME_STEP_MS / 2) / TIME_STEP_MS);
            if let Some(o) = l.outcome {
                w.varint(o.score.min(MAX_OUTCOME_SCORE));
            }
            write_group(&mut w, (l.log_hash & MAX_GROUP).max(1));
        }
        let code = seal(&w.bytes);
        if code.len() <= MAX_CODE_LEN || n == 0 {
            return Ok((code, n));
        }
        n -= 1;
    }
}

/// Whether a code or link is a group code (invite or board), by its first payload byte; a
/// malformed text is not.
pub fn is_group_code(code_or_link: &str) -> bool {
    strip_link(code_or_link)
        .and_then(checked_payload)
        .is_ok_and(|(v, p)| v == Version::V2 && p.first() == Some(&GROUP_ENVELOPE))
}

/// Whether a text is a code whose checksum holds (whatever its content): a text that is
/// and does not decode was made or changed on purpose.
pub fn is_sealed(code_or_link: &str) -> bool {
    strip_link(code_or_link).and_then(checked_payload).is_ok()
}

/// Reads a group code (invite or board code); `bad_code` for anything else or malformed.
pub fn decode_group(code_or_link: &str) -> Result<GroupCode> {
    let code = strip_link(code_or_link)?;
    let (version, payload) = checked_payload(code)?;
    if version != Version::V2 || payload.first() != Some(&GROUP_ENVELOPE) {
        return Err(Error::bad_code("not a group challenge's code"));
    }
    let mut r = Reader::new(&payload[1..]);
    let form = r.byte("the group code's form")?;
    if form != FORM_INVITE && form != FORM_BOARD {
        return Err(Error::bad_code(
            "the code uses features this version does not know",
        ));
    }
    let group = read_group(&mut r)?;
    let s = r.varint(MAX_DEADLINE_S, "the deadline")?;
    if s == 0 {
        return Err(Error::bad_code("the deadline is 0"));
    }
    let title = read_text(&mut r, "the title", check_title)?;
    let len = r.varint(MAX_CODE_LEN as u64, "the puzzle's length")? as usize;
    let puzzle_bytes = r.slice(len, "the puzzle")?.to_vec();
    let puzzle = seal(&puzzle_bytes);
    let d = decode_full(&puzzle)?;
    if d.challenge.is_some() || d.sent.is_some() || d.code != puzzle {
        return Err(Error::bad_code(
            "the group's puzzle is not a plain puzzle code",
        ));
    }
    let mut invite = Invite {
        group,
        deadline_ms: s * 1000,
        title,
        puzzle,
        id: d.id,
        code: String::new(),
    };
    let mut w = Writer::default();
    write_invite(&mut w, FORM_INVITE, &invite, &puzzle_bytes);
    invite.code = seal(&w.bytes);
    if form == FORM_INVITE {
        if r.remaining() != 0 {
            return Err(Error::bad_code("the code has bytes too many"));
        }
        return Ok(GroupCode::Invite(invite));
    }
    let sharer = read_text(&mut r, "the sharer's name", check_name)?;
    let n = r.varint(MAX_BOARD_LINES as u64, "the number of lines")? as usize;
    let mut lines = Vec::with_capacity(n);
    for _ in 0..n {
        let name = read_text(&mut r, "a line's name", check_name)?.unwrap_or_default();
        let f = r.byte("a line's flags")?;
        if f & !(LINE_VERIFIED | LINE_ASSISTED | LINE_OUTCOME | LINE_WON) != 0
            || (f & LINE_WON != 0 && f & LINE_OUTCOME == 0)
        {
            return Err(Error::bad_code("a line's flags are not valid"));
        }
        let moves = r.varint(MAX_CHALLENGE_MOVES as u64, "a line's moves")? as u32;
        if moves == 0 {
            return Err(Error::bad_code("a line has 0 moves"));
        }
        let ms = r.varint(MAX_CHALLENGE_MS / TIME_STEP_MS, "a line's time")? * TIME_STEP_MS;
        let outcome = if f & LINE_OUTCOME != 0 {
            Some(Outcome {
                score: r.varint(MAX_OUTCOME_SCORE, "a line's score")?,
                won: f & LINE_WON != 0,
            })
        } else {
            None
        };
        let log_hash = read_group(&mut r)?;
        lines.push(Line {
            name,
            moves,
            ms,
            verified: f & LINE_VERIFIED != 0,
            assisted: f & LINE_ASSISTED != 0,
            outcome,
            log_hash,
        });
    }
    if r.remaining() != 0 {
        return Err(Error::bad_code("the code has bytes too many"));
    }
    Ok(GroupCode::Board(Board {
        invite,
        sharer,
        lines,
    }))
}

/// The group a result code names (extension bit 6), read from its head alone (no board is
/// built, no log replayed: cheap); `None` for any other text. The code is still to be decoded.
pub fn group_of(code_or_link: &str) -> Option<u64> {
    let code = strip_link(code_or_link).ok()?;
    let (version, payload) = checked_payload(code).ok()?;
    if version != Version::V2 {
        return None;
    }
    let mut r = Reader::new(&payload);
    r.varint(super::MAX_GAME_NUMBER as u64, "the game").ok()?;
    let flags = r.byte("the header").ok()?;
    if flags & 0x40 == 0 || flags & 0x08 == 0 {
        return None;
    }
    if flags & 0x04 != 0 {
        r.varint(u64::MAX, "the daily number").ok()?;
    }
    r.varint(u64::MAX, "the challenge's moves").ok()?;
    r.varint(u64::MAX, "the challenge's time").ok()?;
    let ext = r.byte("the extension").ok()?;
    if ext & super::sent::EXT_GROUP == 0 {
        return None;
    }
    read_group(&mut r).ok()
}

/// A result code (with the extension: a name, log or outcome) made to name `group`
/// (extension bit 6); a code that names a group already gets the new one. `bad_code` for a
/// code that is no result code.
pub fn with_group(code: &str, group: u64) -> Result<String> {
    check_group(group)?;
    let code = strip_link(code)?;
    let (version, payload) = checked_payload(code)?;
    if version != Version::V2 {
        return Err(Error::bad_code("only version-2 result codes name a group"));
    }
    let mut r = Reader::new(&payload);
    let _game = r.varint(super::MAX_GAME_NUMBER as u64, "the game")?;
    let flags = r.byte("the header")?;
    if flags & 0x40 == 0 || flags & 0x08 == 0 {
        return Err(Error::bad_code("the code is not a result code"));
    }
    if flags & 0x04 != 0 {
        r.varint(u64::MAX, "the daily number")?;
    }
    r.varint(u64::MAX, "the challenge's moves")?;
    r.varint(u64::MAX, "the challenge's time")?;
    let at = payload.len() - r.remaining();
    let ext = r.byte("the extension")?;
    let mut out = payload[..at].to_vec();
    out.push(ext | super::sent::EXT_GROUP);
    let mut rest = &payload[at + 1..];
    if ext & super::sent::EXT_GROUP != 0 {
        rest = rest
            .get(GROUP_ID_BYTES..)
            .ok_or_else(|| Error::bad_code("the group is cut short"))?;
    }
    let mut w = Writer::default();
    write_group(&mut w, group);
    out.extend_from_slice(&w.bytes);
    out.extend_from_slice(rest);
    let made = seal(&out);
    // Checked as any code is (the whole result replays again).
    let d = decode_full(&made)?;
    Ok(d.code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::{encode_result, Challenge, Sender};

    const ID: &str = "slide:3x3:4,1,3,7,2,6,5,8,0";

    fn result(name: &str) -> String {
        let log = [5, 4, 1, 5, 8]
            .iter()
            .map(|t| serde_json::json!({ "tile": t }))
            .collect();
        let s = Sender {
            name: Some(name.into()),
            log: Some(log),
        };
        encode_result(ID, Extra::default(), Challenge::new(8, 9_300).unwrap(), &s).unwrap()
    }

    /// Pinned texts of the new forms (made once; never regenerate).
    #[test]
    fn group_codes_are_pinned_and_round_trip() {
        let inv = encode_invite(
            ID,
            Extra::default(),
            0xABCD_EF01_2345,
            1_800_000_000_000,
            Some("周末擂台"),
        )
        .unwrap();
        let g = decode_group(&super::super::link(&inv.code)).unwrap();
        assert_eq!(g, GroupCode::Invite(inv.clone()));
        assert!(is_group_code(&inv.code) && !is_group_code(&inv.puzzle));
        assert!(super::super::link(&inv.code).len() <= MAX_INVITE_LINK);
        let r = with_group(&result("Mei"), 0xABCD_EF01_2345).unwrap();
        let d = decode_full(&r).unwrap();
        assert_eq!(group_of(&r), Some(0xABCD_EF01_2345));
        assert_eq!(group_of(&result("Mei")), None);
        assert_eq!(group_of(&inv.code), None);
        let sent = d.sent.as_ref().unwrap();
        assert_eq!(sent.group, Some(0xABCD_EF01_2345));
        assert!(sent.verified());
        // Naming a group again replaces it; the rest is unchanged.
        let again = with_group(&r, 7).unwrap();
        assert_eq!(decode_full(&again).unwrap().sent.unwrap().group, Some(7));
        assert_eq!(with_group(&again, 0xABCD_EF01_2345).unwrap(), r);
        // An older build's code without the bit decodes as before (no group).
        assert_eq!(
            decode_full(&result("Mei")).unwrap().sent.unwrap().group,
            None
        );
        let golden = [("invite", inv.code.as_str()), ("result", r.as_str())];
        let text: Vec<String> = golden.iter().map(|(k, c)| format!("{k}\t{c}")).collect();
        assert_eq!(text.join("\n"), include_str!("golden-group.tsv").trim_end());
    }

    #[test]
    fn board_codes_carry_lines_and_stay_short() {
        let inv =
            encode_invite(ID, Extra::default(), 99, 1_800_000_000_000, Some("Friday")).unwrap();
        let lines: Vec<Line> = (0..10)
            .map(|i| Line {
                name: format!("Player {i}"),
                moves: 20 + i,
                ms: 61_230 + i as u64 * 1000,
                verified: i % 2 == 0,
                assisted: i == 3,
                outcome: None,
                log_hash: 0x1234_5678_9ABC + i as u64,
            })
            .collect();
        let (code, n) = encode_board(&inv, Some("Mei"), &lines).unwrap();
        assert_eq!(n, 10);
        assert!(code.len() <= 600, "{}", code.len());
        match decode_group(&code).unwrap() {
            GroupCode::Board(b) => {
                assert_eq!(b.invite, inv);
                assert_eq!(b.sharer.as_deref(), Some("Mei"));
                assert_eq!(b.lines, lines);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_group_codes_are_refused() {
        assert!(encode_invite(ID, Extra::default(), 0, 1_800_000_000_000, None).is_err());
        assert!(encode_invite(ID, Extra::default(), 1 << 48, 1_800_000_000_000, None).is_err());
        assert!(encode_invite(ID, Extra::default(), 5, 1_800_000_000_000, Some("a\nb")).is_err());
        let long = "长".repeat(MAX_TITLE_CHARS + 1);
        assert!(encode_invite(ID, Extra::default(), 5, 1_800_000_000_000, Some(&long)).is_err());
        let inv = encode_invite(ID, Extra::default(), 5, 1_800_000_000_000, None).unwrap();
        let mut p = payload_of(&inv.code).unwrap();
        p[1] = 9;
        assert!(decode_group(&seal(&p)).is_err());
        let mut p = payload_of(&inv.code).unwrap();
        p.push(0);
        assert!(decode_group(&seal(&p)).is_err());
        // A plain code is no group code, and a group code is no game (an older build's answer).
        assert!(decode_group(&inv.puzzle).is_err());
        assert!(decode_full(&inv.code).is_err());
        // A puzzle code is no result code.
        assert!(with_group(&inv.puzzle, 5).is_err());
    }
}
