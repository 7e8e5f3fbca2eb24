//! Share codes: a compact, URL-safe, versioned text that carries one puzzle exactly, so a
//! friend plays the same start board.
//!
//! # Text form, version 2 (written since issue 21)
//! `2<base-56 text>`: the version character `2`, then the checksum and the payload in base 56
//! over the digits and letters without the look-alikes `0 O o 1 I l`
//! (`23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz`, a character's value is its
//! position): only letters and digits, so a code survives being read aloud, retyped from a
//! card, or double-clicked as one word. The bytes are cut into groups of 5, each read as a
//! big-endian number and written as 7 digits, most significant first (56^7 ≥ 2^40); a last
//! group of 1, 2, 3 or 4 bytes takes 2, 3, 5 or 6 digits. That is 5.71 bits a character (base64:
//! 6) in linear time; a group worth more than its bytes hold, or a last group of 1 or 4
//! characters, is refused, so every byte string has one text. The bytes are the 4-byte
//! checksum first (CRC-32 of the version character and the payload, big-endian: codes differ
//! from their first characters), then the payload. The link form is `<LINK_BASE>?c=<code>`
//! ([`LINK_BASE`], an https address set there and nowhere else, e.g.
//! `https://huarong.app/?c=<code>`); the first links, `huarong://play?c=<code>`, are still read.
//! At most [`MAX_CODE_LEN`] characters: the longest written code without a move log (a
//! generated 10×10 board with a 64-bit seed, a daily number and the largest result) is 144;
//! a result code with a log is at most 1,200 (the encoder refuses longer ones).
//!
//! # Payload, version 2
//! ```text
//! game      varint: the game's number (`code N` in the `games!` list; 0 slide, 1 klotski,
//!           2 2048; up to MAX_GAME_NUMBER = 127 in one byte)
//! flags     1 byte: bits 0-1 origin (0 exact board, 1 generated, 2 classic, 3 board + seed)
//!                   bit 2    a daily number follows
//!                   bit 3    a challenge (the sender's result) follows
//!                   bit 4    a picture name follows (number slide only)
//!                   bit 5    2048 only: the board is in the wide form (a tile above 32768)
//!                   bit 6    an extension section follows the challenge (issue 25;
//!                            only with bit 3)
//!                   bit 7    zero (a later version's features: refused)
//! daily     varint (if bit 2)
//! challenge varint moves (1 … MAX_CHALLENGE_MOVES), varint milliseconds
//!           (0 … MAX_CHALLENGE_MS) (if bit 3)
//! extension (if bit 6) 1 byte: bit 0 a name follows, bit 1 a move log ends the payload,
//!           bit 2 an outcome follows the name, other bits zero, not 0;
//!           name: 1 length byte + UTF-8 (≤ MAX_NAME_CHARS characters, trimmed, no control
//!           characters or line breaks, no format characters: `check_name`; an older build's
//!           name with format characters is read without them);
//!           outcome: varint score × 2 + won (score ≤ MAX_OUTCOME_SCORE; 2048 only)
//!           bit 3 assisted; bit 4 move times / bit 5 split times follow the outcome
//!           (only with a log, never both): varint n, then n varint gaps in 10 ms steps
//!           (TIME_STEP_MS). Move times: n = moves − 1, the gaps between written moves (the
//!           first move is at 0). Split times: one gap per split of the log (`splits`), the
//!           first from the first move. Each time is rounded to its step from the first move
//!           (within 5 ms); the sum is at most MAX_CHALLENGE_MS / 10. Times are the sender's
//!           claim: never verified. The encoder writes move times when the code stays within
//!           MAX_CODE_LEN, else split times, else none (`encode_result_timed`)
//!           bit 6 a group ID follows the flags byte (6 bytes big-endian, not 0): the result is
//!           for that group challenge (`group::with_group`); bit 7 zero
//! group     a payload starting with the byte 127 (no game's number) is a group challenge's
//!           invite or board code, read by `group::decode_group` (layout in `group.rs`);
//!           `decode_full` refuses it as an unknown game, as earlier builds do
//! origin    generated: varint generator version, varint seed, params (1 length byte + text,
//!                      e.g. "4x4/medium", "60-90", "")
//!           classic:   1 byte index (0-based), 2 bytes check (low 16 bits of the CRC-32 of
//!                      the classic's board in the form below, big-endian); no board follows
//!           board + seed: varint seed
//! picture   1 length byte + the name, `[a-z0-9-]{1,32}` (if bit 4)
//! board     slide:   1 byte W<<4|H, then the rank of the tile permutation (⌈log2 (W·H)!⌉ bits,
//!                    big-endian bytes)
//!           klotski: 1 byte W<<4|H, then 3-bit piece shapes in scan order (see `board.rs`),
//!                    zero-padded to a byte
//!           2048:    16 4-bit exponents; in the wide form 16 5-bit exponents (≤ 17),
//!                    zero-padded to 10 bytes; a board of another size (always
//!                    the wide form): 5 bits 31 (no 4×4 exponent), 4 bits the side (3, 5 … 8),
//!                    side² 5-bit exponents, zero-padded to a byte. A fresh game of a size
//!                    (`2048:5x5#7`) is a generated level with the size as its params
//! log       (if extension bit 1) varint: moves (1 … MAX_LOG_MOVES), then each move as its
//!           index among the position's `Coded::log_choices` in ⌈log2 n⌉ bits (none when
//!           n = 1), most significant first, zero-padded to a byte; the payload's end
//! ```
//!
//! # Result codes
//! A *result code* is a code with a challenge and the extension: the sender's display name
//! and, when the whole code stays within [`MAX_CODE_LEN`] (1,200) characters, the move log
//! of their game from the start. Codes without the extension are byte-identical to earlier
//! builds' (head bit 6 clear). Moves are packed per game in its own module (`log_choices`):
//! the number slide as a tap among the (W − 1) + (H − 1) tiles in the blank's row and
//! column (3 bits on 4×4); Klotski as a (piece, reachable cell) pair among all of the
//! position's moves, pieces ordered by their top-left cells (letters play no part, so a log
//! replays on the decoded board's own letters), 2 – 4 bits; 2048 as one of the four swipes
//! (2 bits), "keep going" implied by the next swipe — a seeded 2048 game's spawns follow
//! from its seed and moves, so its log replays exactly. Decoding a code with a log replays
//! it from the start (at most [`MAX_LOG_MOVES`] steps: bounded by the code's length): every
//! index must name a legal move, and the replay must reach the goal (2048: its finish, won
//! or over) in exactly the challenge's move count under the game's default counting rule,
//! else `bad_code`; such a result is *verified*. A result with a name and no log is plain.
//! A 2048 result also carries its outcome (the score, and whether the 2048 tile was
//! made), which its board ranks by; with a log, the outcome must be the replay's end (else
//! `bad_code`), and a log alone gives it; without a log it is the sender's claim. Codes
//! without an outcome are byte-identical to earlier builds' (`golden-result.tsv` pins both).
//! Everything is under the checksum. A code with bit 6 that is not a well-formed result
//! code is refused with the message every earlier build gives for it ("features this
//! version does not know"), so the pinned answers of `golden/<game>.tsv` hold. Figures: a classic
//! Klotski solve (横刀立马, 81 moves) with name and log is 70 characters, a 4×4 solve of 38
//! tile moves 90, a 2048 game of 90 moves 69.
//!
//! # Version 1 (read forever, never written)
//! `1<base64url>` (`A-Z a-z 0-9 - _`, no padding), the checksum last: payload, then the CRC-32
//! of the version character and the payload. Its payload is version 2's with one head byte
//! instead of `game` + `flags`: bits 0-1 the game (numbers 0 – 2 only, [`V1_GAMES`]: a later
//! game has no version-1 codes), bits 2-3 origin, bit 4 daily, bit 5 challenge, bit 6
//! picture, bit 7 wide. A version-1 code decodes to the same game as always; its
//! [`Decoded::code`] is its own canonical version-1 text, and [`upgrade`] gives the current
//! code of the same content. `golden-v1.tsv` pins every version-1 answer.
//!
//! A generated level's code carries its exact start board besides seed and generator
//! version, so the code keeps meaning the same puzzle when a generator changes; a classic's
//! carries its index and a check of its layout, so a code from a version whose list differs
//! is refused rather than misread. Decoding rebuilds the board, never reruns a generator
//! (bounded work), and checks it with the game's own rules.
//!
//! Only built-in pictures
//! (`slide::pictures`) are written: a player's own photo stays on the device, so its code is
//! the plain number puzzle. Decoding accepts any well-formed picture name (a later version
//! may have more pictures; the app falls back to numbers for a picture it lacks).
//!
//! # What decoding returns
//! The game ID to open: number slide and Klotski as their exact board (`slide:4x4:…`,
//! `klotski:…`; playing it is identical to the generated or classic level), 2048 as `2048:#seed`
//! when the seed's fresh game starts on the carried board, else `2048:<board>#seed` (or
//! `2048:<board>` without a seed). [`decode_full`] also returns where the board came from.
//!
//! Errors: `bad_code` for anything malformed (wrong version, alphabet, length, checksum,
//! layout, a classic that does not match this app's list), `unsolvable` for a board that cannot
//! reach its goal, `out_of_range` for sizes outside the games' limits.

pub mod board;
pub mod group;
mod perm;
mod sent;
mod wire;

use crate::error::{Error, ErrorCode, Result};
use crate::game::{Game, Kind};
use crate::id::GameId;
#[cfg(test)]
use board::{KlotskiBoard, SlideBoard};
pub use sent::{
    check_name, is_default_ignorable, is_format_char, name_key, without_format_chars, Outcome,
    Sender, Sent, Times, GROUP_ID_BYTES, MAX_LOG_MOVES, MAX_NAME_CHARS, MAX_OUTCOME_SCORE,
    MAX_SPLIT_TIMES, TIME_STEP_MS,
};
pub use wire::{Reader, Writer};

/// The version character of the codes this build writes.
pub const VERSION: char = '2';
/// The version character of the first codes (base64url; still read, never written anew).
pub const VERSION_1: char = '1';
/// Longest code accepted: a result code with its move log is at most this long (codes
/// without a log are at most 160 characters).
pub const MAX_CODE_LEN: usize = 1200;
/// Version-1 codes were written for the first three games only (numbers 0 – 2): any other
/// number in one is an unknown game, also once more games exist.
pub const V1_GAMES: u8 = 3;
/// Largest game number a version-2 code may carry (its head's first varint).
pub const MAX_GAME_NUMBER: u8 = 127;
/// Longest text [`decode`] looks at (a link plus surrounding white space).
pub const MAX_INPUT_LEN: usize = 1400;
/// The web address every share link starts with: a link is `<LINK_BASE>?c=<code>` (the card's
/// QR code, `encode_code`'s `link`, what sharing copies). **The one place it is set** (README,
/// "Links"): `https://<host>/<path>/`, ending in `/`. The same host and path are the Android
/// App Link and iOS Universal Link of `src-tauri/tauri.conf.json` (`plugins.deep-link.mobile`),
/// which `src-tauri/mobile/check.py` and this module's tests hold to it; `web/well-known.mjs`
/// reads it from here. Every byte counts: the longest link must stay a small QR code.
pub const LINK_BASE: &str = "https://huarong.app/";
/// The first link form (custom scheme): opened forever, never written again (WeChat
/// and most in-app browsers block custom schemes).
pub const SCHEME_LINK_PREFIX: &str = "huarong://play?c=";
/// Largest daily number a code may carry (≈ 2700 years of days).
pub const MAX_DAILY: u32 = 1_000_000;
/// Longest generator-parameter text a code may carry (without the picture segment, which
/// has its own field).
pub const MAX_PARAMS: usize = 24;
/// Largest move count a challenge may carry (what the share card can print).
pub const MAX_CHALLENGE_MOVES: u32 = 9_999_999;
/// Longest time a challenge may carry: 999 hours, in milliseconds.
pub const MAX_CHALLENGE_MS: u64 = 999 * 3600 * 1000;
/// Largest generator version a code may carry.
pub const MAX_GENERATOR: u32 = 65_535;
/// Positions a decoder's Klotski solvability check may store before it gives up and
/// accepts the board (bounded work; every 4×5 layout needs far fewer).
pub const KLOTSKI_CHECK_STATES: usize = 300_000;

/// Version of each game's generator, written into codes of generated levels
/// ([`Coded::GENERATOR`]).
pub fn generator_version(kind: Kind) -> u32 {
    kind.entry().generator()
}

/// Where a code's start board came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// An exact board given in the game ID.
    Exact,
    /// An exact 2048 board with the seed of its spawns.
    BoardSeed { seed: u64 },
    /// A classic Klotski layout (0-based index into `klotski::classics()`).
    Classic { index: usize },
    /// A generated level: the generator's parameters, seed and version.
    Generated {
        params: String,
        seed: u64,
        generator: u32,
    },
}

/// The sender's result, carried by a code as a challenge to beat ("beat 85 moves · 3:23.4").
/// `moves` is under the sender's counting rule at the time (the game's default count for
/// the share card: tile moves, piece moves).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Challenge {
    pub moves: u32,
    pub ms: u64,
}

impl Challenge {
    /// A checked challenge: 1 … [`MAX_CHALLENGE_MOVES`] moves, at most [`MAX_CHALLENGE_MS`].
    pub fn new(moves: u32, ms: u64) -> Result<Challenge> {
        if moves == 0 || moves > MAX_CHALLENGE_MOVES {
            return Err(Error::range(format!(
                "a challenge's move count must be 1 to {MAX_CHALLENGE_MOVES}, not {moves}"
            )));
        }
        if ms > MAX_CHALLENGE_MS {
            return Err(Error::range(format!(
                "a challenge's time must be at most 999 hours ({MAX_CHALLENGE_MS} ms), not {ms} ms"
            )));
        }
        Ok(Challenge { moves, ms })
    }

    /// Whether a result of `moves` in `ms` beats this challenge: fewer moves, or as many
    /// moves in less time.
    pub fn beaten_by(&self, moves: u32, ms: u64) -> bool {
        moves < self.moves || (moves == self.moves && ms < self.ms)
    }
}

/// Everything a code says.
#[derive(Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The code in its canonical text (what [`encode`] would write for this content).
    pub code: String,
    /// The game ID to open (see the module documentation).
    pub id: String,
    pub kind: Kind,
    /// The exact start board in the game's ID body form.
    pub board: String,
    pub origin: Origin,
    /// The daily-challenge number, when the code was made for one.
    pub daily: Option<u32>,
    /// The sender's result to beat, when the code carries one.
    pub challenge: Option<Challenge>,
    /// The picture of a picture puzzle (number slide), when the code carries one; `id`
    /// names it too (`slide:3x3/picture:lotus:…`).
    pub picture: Option<String>,
    /// A result code's sender: their name and move log, when the code has the
    /// extension section.
    pub sent: Option<Sent>,
}

/// The derived form, with `sent` only when there is one (the golden files pin the debug
/// form of every code without it).
impl std::fmt::Debug for Decoded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("Decoded");
        d.field("code", &self.code)
            .field("id", &self.id)
            .field("kind", &self.kind)
            .field("board", &self.board)
            .field("origin", &self.origin)
            .field("daily", &self.daily)
            .field("challenge", &self.challenge)
            .field("picture", &self.picture);
        if let Some(sent) = &self.sent {
            d.field("sent", sent);
        }
        d.finish()
    }
}

impl Decoded {
    /// The sender's name, when the code carries one.
    pub fn name(&self) -> Option<&str> {
        self.sent.as_ref().and_then(|s| s.name.as_deref())
    }
    /// The sender's move log, when the code carries one (then it was replayed: verified).
    pub fn log(&self) -> Option<&[serde_json::Value]> {
        self.sent.as_ref().and_then(|s| s.log.as_deref())
    }
    /// Whether the code's result was checked by replaying its move log.
    pub fn verified(&self) -> bool {
        self.sent.as_ref().is_some_and(Sent::verified)
    }

    /// The game ID that regenerates or names the level, where there is one
    /// (`slide:4x4/medium#7`, `klotski:60-90#3`, `2048:#9`); else the exact ID.
    pub fn source_id(&self) -> String {
        match &self.origin {
            Origin::Generated { params, seed, .. } => {
                let picture = match &self.picture {
                    Some(name) => format!("/picture:{name}"),
                    None => String::new(),
                };
                format!("{}:{params}{picture}#{seed}", self.kind.as_str())
            }
            _ => self.id.clone(),
        }
    }
}

/// What a code may say besides the game ID.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Extra {
    /// The daily-challenge number the puzzle is.
    pub daily: Option<u32>,
    /// The classic (0-based position in `klotski::classics()`) the board is; needed only
    /// where two classics share a layout (else it is found from the board).
    pub classic: Option<usize>,
}

/// The code of a game ID (exact board, generated level or seeded 2048 game).
pub fn encode(game_id: &str) -> Result<String> {
    encode_with(game_id, Extra::default())
}

/// The code of a game ID with extra facts (daily number, which classic).
pub fn encode_with(game_id: &str, extra: Extra) -> Result<String> {
    encode_full(game_id, extra, None)
}

/// The code of a game ID carrying the sender's result as a challenge to beat.
pub fn encode_challenge(game_id: &str, challenge: Challenge) -> Result<String> {
    encode_full(game_id, Extra::default(), Some(challenge))
}

/// The code of a game ID with extra facts and, optionally, a challenge (checked with
/// [`Challenge::new`]'s bounds).
pub fn encode_full(game_id: &str, extra: Extra, challenge: Option<Challenge>) -> Result<String> {
    encode_sent(game_id, extra, challenge, &Sender::default(), None, false)
}

/// A result code: the game, the sender's result, their name and, if given, the
/// move log, which must reach the goal in exactly `challenge.moves` (else a `parse` error).
/// A code that would be longer than [`MAX_CODE_LEN`] is an `out_of_range` error: make it
/// again without the log.
pub fn encode_result(
    game_id: &str,
    extra: Extra,
    challenge: Challenge,
    sender: &Sender,
) -> Result<String> {
    encode_sent(game_id, extra, Some(challenge), sender, None, false)
}

/// [`encode_result`] with the result's outcome (2048's score and won or lost; a
/// `parse` error for a game without one, or when the log ends elsewhere).
pub fn encode_result_with(
    game_id: &str,
    extra: Extra,
    challenge: Challenge,
    sender: &Sender,
    outcome: Option<Outcome>,
) -> Result<String> {
    encode_sent(game_id, extra, Some(challenge), sender, outcome, false)
}

/// [`encode_result_with`] for a result that was helped (hints, undo): the code says so
/// (extension flag bit 3, [`Sent::assisted`]), and boards rank it after clean results.
pub fn encode_result_assisted(
    game_id: &str,
    extra: Extra,
    challenge: Challenge,
    sender: &Sender,
    outcome: Option<Outcome>,
    assisted: bool,
) -> Result<String> {
    encode_sent(game_id, extra, Some(challenge), sender, outcome, assisted)
}

/// [`encode_result_assisted`] with the sender's times: `times` holds the time of each move
/// of `sender.log` (ms, any origin: the first move counts as 0). The code carries the time
/// of every move when the whole code stays within [`MAX_CODE_LEN`], else the time of every
/// split ([`crate::splits`]) if that fits, else no times. Returns the code and which times
/// it kept: `Some("moves")`, `Some("splits")` or `None`. Times of another length than the
/// log are a `parse` error; times without a log are ignored.
pub fn encode_result_timed(
    game_id: &str,
    extra: Extra,
    challenge: Challenge,
    sender: &Sender,
    outcome: Option<Outcome>,
    assisted: bool,
    times: Option<&[u64]>,
) -> Result<(String, Option<&'static str>)> {
    if let (Some(t), Some(log)) = (times, &sender.log) {
        if t.len() != log.len() {
            return Err(Error::parse(format!(
                "{} times for a log of {} moves",
                t.len(),
                log.len()
            )));
        }
    }
    let times = times.filter(|_| sender.log.is_some());
    encode_sent_timed(
        game_id,
        extra,
        Some(challenge),
        sender,
        outcome,
        assisted,
        times,
    )
}

fn encode_sent(
    game_id: &str,
    extra: Extra,
    challenge: Option<Challenge>,
    sender: &Sender,
    outcome: Option<Outcome>,
    assisted: bool,
) -> Result<String> {
    encode_sent_timed(game_id, extra, challenge, sender, outcome, assisted, None).map(|(c, _)| c)
}

#[allow(clippy::too_many_arguments)]
fn encode_sent_timed(
    game_id: &str,
    extra: Extra,
    challenge: Option<Challenge>,
    sender: &Sender,
    outcome: Option<Outcome>,
    assisted: bool,
    times: Option<&[u64]>,
) -> Result<(String, Option<&'static str>)> {
    let name = match &sender.name {
        Some(n) => check_name(n)?,
        None => None,
    };
    if (name.is_some() || sender.log.is_some() || outcome.is_some()) && challenge.is_none() {
        return Err(Error::parse(
            "a name, move log or outcome needs a result (moves and time)",
        ));
    }
    if let Some(o) = outcome {
        if o.score > MAX_OUTCOME_SCORE {
            return Err(Error::range(format!(
                "a score is at most {MAX_OUTCOME_SCORE}, not {}",
                o.score
            )));
        }
    }
    let sender = Sender {
        name,
        log: sender.log.clone(),
    };
    if let Some(c) = challenge {
        Challenge::new(c.moves, c.ms)?;
    }
    let id = GameId::parse(game_id)?;
    if let Some(n) = extra.daily {
        if n > MAX_DAILY {
            return Err(Error::range(format!(
                "daily number {n} is larger than {MAX_DAILY}"
            )));
        }
    }
    id.kind
        .entry()
        .encode(&id, extra, challenge, &sender, outcome, assisted, times)
}

/// A move log in the compact form codes carry (base-56 text of its packed bits, see the
/// module documentation), for a game ID's start: what the app keeps to replay a finish.
/// Moves that are not legal in turn are a `parse` error.
pub fn pack_log(game_id: &str, log: &[serde_json::Value]) -> Result<String> {
    let id = GameId::parse(game_id)?;
    let (count, bytes) = id.kind.entry().pack_log(&id, log)?;
    let mut w = Writer::default();
    w.varint(count as u64);
    w.slice(&bytes);
    Ok(wire::base56_encode(&w.bytes))
}

/// The checked payload of a version-2 code (head first, checksum removed), and the code of
/// any payload ([`seal`]): for tests that build codes by hand (a checksum is no signature;
/// what makes a result trustworthy is its replay).
#[doc(hidden)]
pub fn payload_of(code: &str) -> Result<Vec<u8>> {
    match checked_payload(code.trim())? {
        (Version::V2, p) => Ok(p),
        _ => Err(Error::bad_code("not a version-2 code")),
    }
}

/// The version-2 code of a payload (see [`payload_of`]).
#[doc(hidden)]
pub fn seal(payload: &[u8]) -> String {
    Version::V2.text(payload)
}

/// [`pack_log`] from a game already built (its start position): no generator runs again.
pub fn pack_log_from<G: Coded>(start: &G, moves: &[G::Move]) -> Result<String> {
    let (count, bytes, _) = sent::pack(start, moves)?;
    let mut w = Writer::default();
    w.varint(count as u64);
    w.slice(&bytes);
    Ok(wire::base56_encode(&w.bytes))
}

/// The moves of a [`pack_log`] text for the same game ID (bounded by its length).
pub fn unpack_log(game_id: &str, packed: &str) -> Result<Vec<serde_json::Value>> {
    let id = GameId::parse(game_id)?;
    if packed.len() > 16 * MAX_CODE_LEN {
        return Err(Error::bad_code("the packed log is too long"));
    }
    let bytes = wire::base56_decode(packed, 0)?;
    let mut r = Reader::new(&bytes);
    let count = r.varint(MAX_LOG_MOVES as u64, "the move log's length")? as u32;
    let rest = r.slice(r.remaining(), "the move log")?;
    id.kind.entry().unpack_log(&id, count, rest)
}

/// Move times in the compact form a kept replay stores them (base-56 text of: varint
/// count, then each time's gap from the one before in 10 ms steps, the first from 0):
/// about a byte a move, each time read back within 5 ms.
pub fn pack_times(times: &[u64]) -> String {
    let mut w = Writer::default();
    w.varint(times.len() as u64);
    for g in sent::gaps(0, times) {
        w.varint(g);
    }
    wire::base56_encode(&w.bytes)
}

/// The times of a [`pack_times`] text (bounded by its length).
pub fn unpack_times(packed: &str) -> Result<Vec<u64>> {
    if packed.len() > 16 * MAX_CODE_LEN {
        return Err(Error::bad_code("the packed times are too long"));
    }
    let bytes = wire::base56_decode(packed, 0)?;
    let mut r = Reader::new(&bytes);
    let n = r.varint(MAX_LOG_MOVES as u64 * 2, "the number of times")? as usize;
    let mut out = Vec::with_capacity(n);
    let mut at = 0u64;
    for _ in 0..n {
        at = at.saturating_add(r.varint(MAX_CHALLENGE_MS / TIME_STEP_MS, "a time")?);
        out.push(at.saturating_mul(TIME_STEP_MS));
    }
    if r.remaining() != 0 {
        return Err(Error::bad_code("the packed times have bytes too many"));
    }
    Ok(out)
}

/// The link form of a code: `<LINK_BASE>?c=<code>`.
pub fn link(code: &str) -> String {
    format!("{LINK_BASE}?c={code}")
}

/// The host of [`LINK_BASE`] (`huarong.app`).
pub fn link_host() -> &'static str {
    let rest = &LINK_BASE["https://".len()..];
    &rest[..rest.find('/').unwrap_or(rest.len())]
}

/// The path of [`LINK_BASE`] (`/`, or e.g. `/huarong/`).
pub fn link_path() -> &'static str {
    &LINK_BASE["https://".len() + link_host().len()..]
}

/// True for text that is meant as a link (a `huarong:` one or any web address), so it is
/// read as a link, never as a game ID or a bare code.
pub fn is_link(t: &str) -> bool {
    t.starts_with("huarong:")
        || strip_ci(t, "https://").is_some()
        || strip_ci(t, "http://").is_some()
}

/// `t` without `prefix`, compared ASCII case-insensitively (schemes and hosts).
fn strip_ci<'a>(t: &'a str, prefix: &str) -> Option<&'a str> {
    let head = t.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &t[prefix.len()..])
}

/// The game ID a code or link stands for.
pub fn decode(code_or_link: &str) -> Result<String> {
    Ok(decode_full(code_or_link)?.id)
}

/// A game ID, a code or a link → the game ID to open (what `--open` and the app's
/// "enter a code" box accept).
pub fn resolve(text: &str) -> Result<String> {
    let t = text.trim();
    if is_game_id(t) {
        let id = GameId::parse(t)?;
        return Ok(id.to_string());
    }
    decode(t)
}

/// True for text that is a game ID rather than a code: game IDs start with a kind name
/// and contain `:` or `#`, which codes never do and links only after their scheme.
pub fn is_game_id(t: &str) -> bool {
    !is_link(t) && (t.contains(':') || t.contains('#'))
}

/// Everything a code or link says, checked.
pub fn decode_full(code_or_link: &str) -> Result<Decoded> {
    decode_as(code_or_link, None)
}

/// The code of today's version ([`VERSION`]) for the content of a code or link of any
/// version: a version-1 code is re-written in the current alphabet; a current one comes back
/// canonical.
pub fn upgrade(code_or_link: &str) -> Result<String> {
    Ok(decode_as(code_or_link, Some(Version::CURRENT))?.code)
}

/// [`decode_full`], with [`Decoded::code`] written in `out` (default: the code's own version).
fn decode_as(code_or_link: &str, out: Option<Version>) -> Result<Decoded> {
    let code = strip_link(code_or_link)?;
    let (version, payload) = checked_payload(code)?;
    let mut r = Reader::new(&payload);
    let head = Head::read(version, &mut r)?;
    let kind = Kind::from_code_number(head.game)
        .filter(|_| version != Version::V1 || head.game < V1_GAMES)
        .ok_or_else(|| Error::bad_code("the code names an unknown game"))?;
    let out = out.unwrap_or(version);
    if out == Version::V1 && head.game >= V1_GAMES {
        return Err(Error::bad_code(format!(
            "version 1 has no codes of {}",
            kind.as_str()
        )));
    }
    kind.entry().decode(head, &mut r, out)
}

/// A share code's format version: its first character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Version {
    /// `1…`: base64url text, one head byte with two bits for the game.
    V1,
    /// `2…`: base-56 text without look-alikes, the game number as a varint.
    V2,
}

impl Version {
    pub(crate) const CURRENT: Version = Version::V2;

    fn char(self) -> char {
        match self {
            Version::V1 => VERSION_1,
            Version::V2 => VERSION,
        }
    }

    fn of(c: char) -> Option<Version> {
        [Version::V1, Version::V2]
            .into_iter()
            .find(|v| v.char() == c)
    }

    /// The code text of `payload` (head first), its checksum appended.
    fn text(self, payload: &[u8]) -> String {
        let mut checked = vec![self.char() as u8];
        checked.extend_from_slice(payload);
        let sum = wire::crc32(&checked).to_be_bytes();
        let body = match self {
            Version::V1 => wire::base64_encode(&[payload, &sum].concat()),
            // The checksum first: codes of similar games differ from their first characters.
            Version::V2 => wire::base56_encode(&[&sum, payload].concat()),
        };
        format!("{}{body}", self.char())
    }
}

/// What a code's head says: the game's number and which parts follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Head {
    pub game: u8,
    /// 0 exact board, 1 generated, 2 classic, 3 board + seed.
    pub origin: u8,
    pub daily: bool,
    pub challenge: bool,
    pub picture: bool,
    pub wide: bool,
    /// Version 2 only: head bit 6, an extension section follows the challenge.
    pub ext: bool,
}

/// What every build before issue 25 says about a code with head bit 6 (and what this one
/// says about such a code that is not a well-formed result code).
const UNKNOWN_FEATURES: &str = "the code uses features this version does not know";

impl Head {
    fn write(&self, version: Version, w: &mut Writer) {
        let flags = |shift: u8| {
            self.origin
                | (self.daily as u8) << shift
                | (self.challenge as u8) << (shift + 1)
                | (self.picture as u8) << (shift + 2)
                | (self.wide as u8) << (shift + 3)
        };
        match version {
            Version::V1 => w.byte(self.game & 3 | flags(2) << 2),
            Version::V2 => {
                w.varint(self.game as u64);
                w.byte(flags(2) | (self.ext as u8) << 6);
            }
        }
    }

    fn read(version: Version, r: &mut Reader) -> Result<Head> {
        let (game, flags) = match version {
            Version::V1 => {
                let b = r.byte("the header")?;
                (b & 3, b >> 2)
            }
            Version::V2 => {
                let game = r.varint(u64::MAX, "the game's number")?;
                let flags = r.byte("the header")?;
                if flags >> 7 != 0 {
                    return Err(Error::bad_code(UNKNOWN_FEATURES));
                }
                let game = u8::try_from(game)
                    .ok()
                    .filter(|&g| g <= MAX_GAME_NUMBER)
                    .ok_or_else(|| Error::bad_code("the code names an unknown game"))?;
                (game, flags)
            }
        };
        Ok(Head {
            game,
            origin: flags & 3,
            daily: flags & 4 != 0,
            challenge: flags & 8 != 0,
            picture: flags & 16 != 0,
            wide: flags & 32 != 0,
            ext: version == Version::V2 && flags & 64 != 0,
        })
    }
}

/// The version and payload of a code (head first), its checksum checked.
fn checked_payload(code: &str) -> Result<(Version, Vec<u8>)> {
    let first = code.chars().next().unwrap_or(' ');
    let Some(version) = Version::of(first) else {
        let hint = if first.is_ascii_digit() && first > VERSION {
            " (it was made by a newer version of Huarong)"
        } else {
            ""
        };
        return Err(Error::bad_code(format!(
            "this is not a version-{VERSION} code: it starts with {first:?}{hint}"
        )));
    };
    let mut bytes = match version {
        Version::V1 => wire::base64_decode(&code[1..], 1)?,
        Version::V2 => wire::base56_decode(&code[1..], 1)?,
    };
    if bytes.len() < 5 {
        return Err(Error::bad_code("the code is too short"));
    }
    let sum = match version {
        Version::V1 => bytes.split_off(bytes.len() - 4),
        Version::V2 => bytes.drain(..4).collect(),
    };
    let mut checked = vec![version.char() as u8];
    checked.extend_from_slice(&bytes);
    if wire::crc32(&checked).to_be_bytes()[..] != sum[..] {
        return Err(Error::bad_code(
            "the code's checksum does not match: it was mistyped or cut short",
        ));
    }
    Ok((version, bytes))
}

fn strip_link(text: &str) -> Result<&str> {
    if text.len() > MAX_INPUT_LEN {
        return Err(Error::bad_code(format!(
            "the text is {} characters long; a code or link is at most {MAX_INPUT_LEN}",
            text.len()
        )));
    }
    let t = text.trim();
    let query = if let Some(rest) = t.strip_prefix("huarong:") {
        Some(
            rest.strip_prefix("//play?")
                .or_else(|| rest.strip_prefix("//play/?"))
                .ok_or_else(|| {
                    Error::bad_code(format!(
                        "{t:?} is not a Huarong link ({LINK_BASE}?c=<code>)"
                    ))
                })?,
        )
    } else if let Some(rest) = strip_ci(t, "https://") {
        Some(web_query(t, rest)?)
    } else if strip_ci(t, "http://").is_some() {
        return Err(Error::bad_code(format!(
            "{t:?} is not a Huarong link: they start with {LINK_BASE}"
        )));
    } else {
        None
    };
    let code = match query {
        Some(q) => q
            .split('&')
            .find_map(|kv| kv.strip_prefix("c="))
            .ok_or_else(|| Error::bad_code("the link has no code (c=…)"))?,
        None => t,
    };
    if code.is_empty() {
        return Err(Error::bad_code("empty code"));
    }
    if code.len() > MAX_CODE_LEN {
        return Err(Error::bad_code(format!(
            "the code is {} characters long; codes are at most {MAX_CODE_LEN}",
            code.len()
        )));
    }
    Ok(code)
}

/// The query of a web link (`rest` is `t` after `https://`) when it points at [`LINK_BASE`]:
/// the same host (any case, no port or user), the base's path (also without its last `/`,
/// or with `index.html`); a `#fragment` is ignored.
fn web_query<'a>(t: &str, rest: &'a str) -> Result<&'a str> {
    let rest = rest.split('#').next().unwrap_or_default();
    let (place, query) = rest.split_once('?').unwrap_or((rest, ""));
    let (host, path) = place.split_at(place.find('/').unwrap_or(place.len()));
    if !host.eq_ignore_ascii_case(link_host()) {
        return Err(Error::bad_code(format!(
            "{t:?} links to {host:?}, not to Huarong ({LINK_BASE}?c=<code>)"
        )));
    }
    let base = link_path();
    let index = format!("{base}index.html");
    if !(path == base || path == base.trim_end_matches('/') || path == index) {
        return Err(Error::bad_code(format!(
            "{t:?} is a page of {host}, not a shared puzzle ({LINK_BASE}?c=<code>)"
        )));
    }
    Ok(query)
}

/// A game's part of the share-code format (implemented in the game's own module, e.g.
/// `slide/code.rs`): the compact start board a code carries and the few rules that differ
/// between games. Everything else (head byte, daily number, challenge, origin, checksum,
/// canonical text) is generic.
pub trait Coded: Game + crate::splits::Splits {
    /// The start board in the code's compact form.
    type Board: Clone + std::fmt::Debug + PartialEq;
    /// Version of the game's generator, written into codes of generated levels. A generator
    /// that changes what a seed produces must get a new version (the daily golden tests
    /// fail when that happens). Codes stay valid across versions: they carry the board.
    const GENERATOR: u32 = 1;
    /// Whether a seed may come with an exact board (2048: `2048:<board>#seed`, origin
    /// "board + seed"); then only a seed without a board is a generated level, and its
    /// generator parameters are empty. Otherwise a seed always means generator parameters.
    const SEED_WITH_BOARD: bool = false;
    /// Whether the game uses head bit 7 (2048: the wide board form).
    const WIDE_FORM: bool = false;
    /// Whether the game has picture puzzles (head bit 6; number slide).
    const PICTURES: bool = false;
    /// Game IDs whose codes, decodes and mutations `golden/<game>.tsv` pins for this game (its
    /// daily puzzles and classics are added to them): every origin and form the game's codes
    /// have, and some IDs the encoder refuses. Never change a listed ID (only add at the end).
    const GOLDEN: &'static [&'static str] = &[];

    /// Reads a start board in game-ID body form (as `board_body` writes it).
    fn parse_board(body: &str) -> Result<Self::Board>;
    /// The board in game-ID body form.
    fn board_text(board: &Self::Board) -> Result<String>;
    fn write_board(board: &Self::Board, out: &mut Writer);
    /// Reads a board; `wide` is head bit 7.
    fn read_board(r: &mut Reader, wide: bool) -> Result<Self::Board>;
    /// Whether the board needs the wide form (head bit 7).
    /// IDs whose rows were pinned after the game's first [`Coded::GOLDEN`] rows (appended to
    /// its golden file, which keeps every earlier row).
    const GOLDEN_ADDED: &'static [&'static str] = &[];
    /// For a game whose seed may come with a board (`SEED_WITH_BOARD`): whether a non-empty
    /// body before the seed is generator parameters rather than a board (2048: a size,
    /// `2048:5x5#7`); such an ID is a generated level like `2048:#7`, and its code decodes
    /// back to it.
    fn seed_params(_body: &str) -> bool {
        false
    }
    fn is_wide(_board: &Self::Board) -> bool {
        false
    }
    /// The rules checks a decoder makes before opening an exact board (`body` is its text,
    /// `picture` the carried picture's name): the game must accept it, and it must be
    /// solvable where that is decidable with bounded work.
    fn check_board(board: &Self::Board, body: &str, picture: Option<&str>) -> Result<()>;

    /// The built-in level numbered `index` that a code may name instead of carrying its
    /// board (Klotski's classics), if there is one. `None` for every index: no such levels.
    fn classic(_index: usize) -> Option<Classic> {
        None
    }

    /// A game-ID body split into its plain form and a picture name (number slide's
    /// `/picture:<name>` segment).
    fn split_picture(body: &str) -> Result<(String, Option<String>)> {
        Ok((body.trim().to_string(), None))
    }
    /// Whether a picture travels in codes (only built-in pictures do).
    fn shares_picture(_name: &str) -> bool {
        false
    }
    /// Whether a carried picture name is well formed.
    fn picture_name_ok(_name: &str) -> bool {
        false
    }
    /// The canonical game-ID body of a board with a picture.
    fn with_picture(body: String, _name: &str) -> String {
        body
    }

    /// The moves a code's move log may name from position `g`, in a fixed order that does
    /// not depend on how the board names its pieces (a log replays on the decoded board,
    /// whose letters may differ from the sender's): a logged move is its index in this list.
    /// `None`: the game's codes carry no log.
    fn log_choices(_g: &Self) -> Option<Vec<Self::Move>> {
        None
    }
    /// Moves a log leaves out because the replay makes them itself ([`Coded::log_before`]).
    fn log_implied(_mv: &Self::Move) -> bool {
        false
    }
    /// Makes the implied moves before the next logged one (2048: keep going after a win).
    fn log_before(_g: &mut Self) {}
    /// Whether a replay ended where a result is claimed: the goal reached (2048: the game
    /// won or over, its finish).
    fn log_done(g: &Self) -> bool {
        g.status() == crate::game::Status::Won
    }
    /// The result of a finished game besides its move count, where the game has one (2048:
    /// score, and whether the 2048 tile was made); `None`: results are moves and time only.
    fn outcome(_g: &Self) -> Option<Outcome> {
        None
    }
}

/// A built-in level a code names by number ([`Coded::classic`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Classic {
    /// Its board in game-ID body form.
    pub board: &'static str,
    /// Its name, for messages.
    pub name: &'static str,
    /// Whether it has a solution (known, so decoding needs no search).
    pub solvable: bool,
}

/// A result code's extension as the payload carries it: the name and the packed log
/// (moves, bytes).
#[derive(Debug, Clone, Default)]
struct SentBits {
    name: Option<String>,
    log: Option<(u32, Vec<u8>)>,
    outcome: Option<Outcome>,
    assisted: bool,
    times: Option<sent::TimeBits>,
    group: Option<u64>,
}

impl SentBits {
    /// Whether the section says anything (a section of nothing is not written).
    fn any(&self) -> bool {
        self.name.is_some()
            || self.log.is_some()
            || self.outcome.is_some()
            || self.assisted
            || self.group.is_some()
    }
}

/// What a code carries for game `G`, apart from the daily number and the challenge.
struct Content<G: Coded> {
    origin: Origin,
    start: G::Board,
    /// A number slide's picture.
    picture: Option<String>,
}

/// The code of a parsed game ID of game `G` (see [`encode_full`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn encode_game<G: Coded>(
    id: &GameId,
    extra: Extra,
    challenge: Option<Challenge>,
    sender: &Sender,
    outcome: Option<Outcome>,
    assisted: bool,
    times: Option<&[u64]>,
) -> Result<(String, Option<&'static str>)> {
    let mut content = Content::<G>::from_id(id)?;
    if outcome.is_some() && G::outcome(&G::from_id(&id.body, id.seed)?).is_none() {
        return Err(Error::parse(format!(
            "a {} result has no outcome besides its moves",
            G::KIND.as_str()
        )));
    }
    let mut bits = SentBits {
        name: sender.name.clone(),
        log: None,
        outcome,
        assisted,
        times: None,
        group: None,
    };
    // The times the code may carry: of every move, else of every split.
    let mut timed: Vec<sent::TimeBits> = Vec::new();
    if let (Some(log), Some(c)) = (&sender.log, challenge) {
        let moves = sent::parse_moves::<G>(log)?;
        let start = G::from_id(&id.body, id.seed)?;
        let (count, bytes, end) = sent::pack(&start, &moves)?;
        if !sent::reaches(&end, c.moves) {
            return Err(Error::parse(format!(
                "the move log does not reach the goal in {} moves",
                c.moves
            )));
        }
        if outcome.is_some() && outcome != G::outcome(&end) {
            return Err(Error::parse(
                "the move log does not end with the result's outcome (score, won or lost)",
            ));
        }
        bits.log = Some((count, bytes));
        if let Some(t) = times.filter(|t| t.len() == moves.len()) {
            let first = t.first().copied().unwrap_or(0);
            // Times of the moves the log writes (implied moves are not written).
            let written: Vec<u64> = moves
                .iter()
                .zip(t)
                .filter(|(m, _)| !G::log_implied(m))
                .map(|(_, &t)| t)
                .collect();
            let mut g = sent::gaps(first, &written);
            if !g.is_empty() {
                g.remove(0);
            }
            timed.push(sent::TimeBits::Moves(g));
            let rel: Vec<u64> = t.iter().map(|x| x.saturating_sub(first)).collect();
            let marks = crate::splits::splits(&start, &moves, Some(&rel), &crate::Cancel::new());
            let at: Vec<u64> = marks.iter().filter_map(|s| s.ms).collect();
            if !at.is_empty() && at.len() <= sent::MAX_SPLIT_TIMES {
                timed.push(sent::TimeBits::Splits(sent::gaps(0, &at)));
            }
        }
    }
    let sent = bits.any().then_some(bits);
    if let Some(index) = extra.classic {
        if !has_classics::<G>() || !matches!(content.origin, Origin::Exact | Origin::Classic { .. })
        {
            return Err(Error::parse("only an exact Klotski board can be a classic"));
        }
        let same = classic_body::<G>(index)
            .and_then(|b| G::parse_board(&b))
            .is_ok_and(|b| b == content.start);
        if index > 255 || !same {
            return Err(Error::parse(format!(
                "the board is not classic #{}",
                index + 1
            )));
        }
        content.origin = Origin::Classic { index };
    }
    let mut sent = sent;
    for t in timed {
        if let Some(s) = sent.as_mut() {
            let kept = match t {
                sent::TimeBits::Moves(_) => "moves",
                sent::TimeBits::Splits(_) => "splits",
            };
            s.times = Some(t);
            let code = content.to_code(Version::CURRENT, extra.daily, challenge, Some(s));
            if code.len() <= MAX_CODE_LEN {
                return Ok((code, Some(kept)));
            }
            s.times = None;
        }
    }
    let code = content.to_code(Version::CURRENT, extra.daily, challenge, sent.as_ref());
    if code.len() > MAX_CODE_LEN {
        return Err(Error::range(format!(
            "the code would be {} characters long; codes are at most {MAX_CODE_LEN}",
            code.len()
        )));
    }
    Ok((code, None))
}

/// Everything a code of game `G` says (`head`: its head, read; `r`: the checked payload
/// after it), with [`Decoded::code`] written in version `out`.
pub(crate) fn decode_game<G: Coded>(head: Head, r: &mut Reader, out: Version) -> Result<Decoded> {
    if !head.ext {
        return decode_content::<G>(head, r, out, None);
    }
    // A code with head bit 6 that is not a well-formed result code is refused as every
    // earlier build refuses it; a well-formed one whose replay misses its claim is refused
    // for that (`decode_content` says why).
    let mut ext = SentBits::default();
    let parsed = Content::<G>::from_payload(head, r, Some(&mut ext))
        .and_then(|(content, daily, challenge)| {
            content.check()?;
            let id = content.game_id()?;
            Ok((content, daily, challenge, id))
        })
        .map_err(|_| Error::bad_code(UNKNOWN_FEATURES))?;
    let (content, daily, challenge, id) = parsed;
    let mut log = None;
    let mut outcome = ext.outcome;
    if outcome.is_some() && !has_outcome::<G>(&id)? {
        return Err(Error::bad_code(UNKNOWN_FEATURES));
    }
    if let Some((count, bytes)) = &ext.log {
        let claim = challenge.map_or(0, |c| c.moves);
        let parsed = GameId::parse(&id)?;
        let start = G::from_id(&parsed.body, parsed.seed)?;
        let (moves, end) = sent::unpack(&start, *count, bytes)?;
        if !sent::reaches(&end, claim) {
            return Err(Error::bad_code(format!(
                "the code's move log does not reach the goal in its {claim} moves: \
                 the result is not what was played"
            )));
        }
        let replayed = G::outcome(&end);
        if outcome.is_some() && outcome != replayed {
            return Err(Error::bad_code(
                "the code's move log does not end with the score it claims: \
                 the result is not what was played",
            ));
        }
        outcome = replayed;
        log = Some(sent::to_json::<G>(&moves));
    }
    Ok(Decoded {
        code: content.to_code(out, daily, challenge, Some(&ext).filter(|e| e.any())),
        board: content.board_body()?,
        origin: content.origin.clone(),
        picture: content.picture.clone(),
        id,
        kind: G::KIND,
        daily,
        challenge,
        sent: Some(Sent {
            name: ext.name.clone(),
            log,
            outcome,
            assisted: ext.assisted,
            times: ext.times.as_ref().map(sent::TimeBits::times),
            group: ext.group,
        }),
    })
}

fn decode_content<G: Coded>(
    head: Head,
    r: &mut Reader,
    out: Version,
    ext: Option<&SentBits>,
) -> Result<Decoded> {
    let (content, daily, challenge) = Content::<G>::from_payload(head, r, None)?;
    content.check()?;
    let id = content.game_id()?;
    Ok(Decoded {
        code: content.to_code(out, daily, challenge, ext),
        id,
        kind: G::KIND,
        board: content.board_body()?,
        origin: content.origin.clone(),
        daily,
        challenge,
        picture: content.picture.clone(),
        sent: None,
    })
}

/// [`pack_log`] for game `G`.
pub(crate) fn pack_log_game<G: Coded>(
    id: &GameId,
    log: &[serde_json::Value],
) -> Result<(u32, Vec<u8>)> {
    let moves = sent::parse_moves::<G>(log)?;
    let start = G::from_id(&id.body, id.seed)?;
    let (count, bytes, _) = sent::pack(&start, &moves)?;
    Ok((count, bytes))
}

/// [`unpack_log`] for game `G`.
pub(crate) fn unpack_log_game<G: Coded>(
    id: &GameId,
    count: u32,
    bytes: &[u8],
) -> Result<Vec<serde_json::Value>> {
    let start = G::from_id(&id.body, id.seed)?;
    let (moves, _) = sent::unpack(&start, count, bytes)?;
    Ok(sent::to_json::<G>(&moves))
}

impl<G: Coded> Content<G> {
    /// Builds the game the ID names (the game validates it; generated levels are generated)
    /// and takes its start board.
    fn from_id(id: &GameId) -> Result<Content<G>> {
        let body = G::from_id(&id.body, id.seed)?.board_body();
        let (plain_body, picture) = G::split_picture(&id.body)?;
        // Only built-in pictures travel (see the module documentation).
        let picture = picture.filter(|name| G::shares_picture(name));
        let start = G::parse_board(&body)?;
        // A seed with generator parameters (2048: with no board) is a generated level.
        let generated = id.seed.is_some()
            && (!G::SEED_WITH_BOARD || id.body.trim().is_empty() || G::seed_params(id.body.trim()));
        let origin = match id.seed {
            Some(seed) if generated => {
                let params = plain_body;
                check_params(&params).map_err(|e| Error::new(ErrorCode::OutOfRange, e.message))?;
                Origin::Generated {
                    params,
                    seed,
                    generator: G::GENERATOR,
                }
            }
            Some(seed) => Origin::BoardSeed { seed },
            None => match classic_index::<G>(&start)? {
                Some(index) => Origin::Classic { index },
                None => Origin::Exact,
            },
        };
        let content = Content {
            origin,
            start,
            picture,
        };
        content.check()?;
        Ok(content)
    }

    fn to_code(
        &self,
        version: Version,
        daily: Option<u32>,
        challenge: Option<Challenge>,
        sent: Option<&SentBits>,
    ) -> String {
        // Only version 2 has the extension (bit 6), and only after a challenge.
        let sent = sent.filter(|_| version == Version::V2 && challenge.is_some());
        let origin = match self.origin {
            Origin::Exact => 0u8,
            Origin::Generated { .. } => 1,
            Origin::Classic { .. } => 2,
            Origin::BoardSeed { .. } => 3,
        };
        let mut w = Writer::default();
        let head = Head {
            game: G::KIND.code_number(),
            origin,
            daily: daily.is_some(),
            challenge: challenge.is_some(),
            picture: self.picture.is_some(),
            wide: G::is_wide(&self.start),
            ext: sent.is_some(),
        };
        head.write(version, &mut w);
        if let Some(n) = daily {
            w.varint(n as u64);
        }
        if let Some(c) = challenge {
            w.varint(c.moves as u64);
            w.varint(c.ms);
        }
        if let Some(s) = sent {
            sent::write_ext(
                &mut w,
                s.name.as_deref(),
                s.log.is_some(),
                s.outcome,
                s.assisted,
                s.times.as_ref(),
                s.group,
            );
        }
        let mut board = Writer::default();
        G::write_board(&self.start, &mut board);
        match &self.origin {
            Origin::Exact => {}
            Origin::Generated {
                params,
                seed,
                generator,
            } => {
                w.varint(*generator as u64);
                w.varint(*seed);
                w.byte(params.len() as u8);
                w.slice(params.as_bytes());
            }
            Origin::Classic { index } => {
                w.byte(*index as u8);
                w.slice(&(wire::crc32(&board.bytes) as u16).to_be_bytes());
                board.bytes.clear();
            }
            Origin::BoardSeed { seed } => w.varint(*seed),
        }
        if let Some(name) = &self.picture {
            w.byte(name.len() as u8);
            w.slice(name.as_bytes());
        }
        w.slice(&board.bytes);
        if let Some((count, bytes)) = sent.and_then(|s| s.log.as_ref()) {
            w.varint(*count as u64);
            w.slice(bytes);
        }
        version.text(&w.bytes)
    }

    /// Reads a checked payload after its `head`, which names game `G`.
    /// `ext`: where the extension goes, for a head with bit 6 (else `None`).
    fn from_payload(
        head: Head,
        r: &mut Reader,
        ext: Option<&mut SentBits>,
    ) -> Result<(Content<G>, Option<u32>, Option<Challenge>)> {
        if head.wide && !G::WIDE_FORM {
            return Err(Error::bad_code(
                "the code uses features this version does not know",
            ));
        }
        let daily = if head.daily {
            Some(r.varint(MAX_DAILY as u64, "the daily number")? as u32)
        } else {
            None
        };
        let challenge = if head.challenge {
            let moves = r.varint(MAX_CHALLENGE_MOVES as u64, "the challenge's moves")? as u32;
            let ms = r.varint(MAX_CHALLENGE_MS, "the challenge's time")?;
            Some(Challenge::new(moves, ms).map_err(|e| Error::bad_code(e.message))?)
        } else {
            None
        };
        let mut has_log = false;
        let mut ext = ext;
        match ext.as_deref_mut() {
            Some(bits) if head.ext && challenge.is_some() => {
                let ext = sent::read_ext(r)?;
                bits.name = ext.name;
                bits.outcome = ext.outcome;
                bits.assisted = ext.assisted;
                bits.times = ext.times;
                bits.group = ext.group;
                has_log = ext.log;
            }
            None if !head.ext => {}
            _ => return Err(Error::bad_code(UNKNOWN_FEATURES)),
        }
        let mut classic_check = None;
        let origin = match head.origin {
            0 => Origin::Exact,
            1 => {
                let generator = r.varint(MAX_GENERATOR as u64, "the generator version")? as u32;
                let seed = r.varint(u64::MAX, "the seed")?;
                let len = r.byte("the parameters")? as usize;
                if len > MAX_PARAMS {
                    return Err(Error::bad_code("the generator parameters are too long"));
                }
                let text = r.slice(len, "the parameters")?;
                let params = std::str::from_utf8(text)
                    .ok()
                    .filter(|p| check_params(p).is_ok())
                    .ok_or_else(|| {
                        Error::bad_code("the generator parameters are not valid text")
                    })?;
                Origin::Generated {
                    params: params.to_string(),
                    seed,
                    generator,
                }
            }
            2 => {
                let index = r.byte("the classic's number")? as usize;
                let check = r.slice(2, "the classic's check")?;
                classic_check = Some((index, u16::from_be_bytes([check[0], check[1]])));
                Origin::Classic { index }
            }
            _ => Origin::BoardSeed {
                seed: r.varint(u64::MAX, "the seed")?,
            },
        };
        let picture = if head.picture {
            if !G::PICTURES {
                return Err(Error::bad_code("only the number slide has picture puzzles"));
            }
            let len = r.byte("the picture's name")? as usize;
            let text = r.slice(len, "the picture's name")?;
            let name = std::str::from_utf8(text)
                .ok()
                .filter(|n| G::picture_name_ok(n))
                .ok_or_else(|| Error::bad_code("the picture's name is not valid text"))?;
            Some(name.to_string())
        } else {
            None
        };
        let start = match classic_check {
            Some((index, check)) if has_classics::<G>() => classic_board::<G>(index, check)?,
            Some(_) => return Err(Error::bad_code("only Klotski has classic levels")),
            None => G::read_board(r, head.wide)?,
        };
        if has_log {
            let count = r.varint(MAX_LOG_MOVES as u64, "the move log's length")? as u32;
            let bytes = r.slice(r.remaining(), "the move log")?.to_vec();
            if count == 0 {
                return Err(Error::bad_code("the move log is empty"));
            }
            if let Some(bits) = ext.as_deref() {
                if let Some(sent::TimeBits::Moves(g)) = &bits.times {
                    if g.len() + 1 != count as usize {
                        return Err(Error::bad_code("the times do not fit the move log"));
                    }
                }
            }
            if let Some(bits) = ext {
                bits.log = Some((count, bytes));
            }
        }
        if r.remaining() != 0 {
            return Err(Error::bad_code(format!(
                "the code has {} byte(s) too many",
                r.remaining()
            )));
        }
        // Only the forms `to_code` writes are accepted (one text per content).
        let allowed = match &origin {
            Origin::BoardSeed { .. } => G::SEED_WITH_BOARD,
            Origin::Generated { params, .. } if G::SEED_WITH_BOARD => {
                params.is_empty() || G::seed_params(params)
            }
            _ => true,
        };
        if !allowed {
            return Err(Error::bad_code("the code's origin does not fit its game"));
        }
        let content = Content {
            origin,
            start,
            picture,
        };
        Ok((content, daily, challenge))
    }

    /// Rules checks that need no search beyond the games' own bounded checks: a classic
    /// must be this app's classic, the game must accept the board (see [`Coded::check_board`]).
    fn check(&self) -> Result<()> {
        if let Origin::Classic { index } = self.origin {
            // The classics' solvability is known: no search.
            return classic_solvable::<G>(index);
        }
        let body = self.board_body()?;
        G::check_board(&self.start, &body, self.picture.as_deref())
    }

    fn board_body(&self) -> Result<String> {
        match self.origin {
            Origin::Classic { index } => classic_body::<G>(index),
            _ => G::board_text(&self.start),
        }
    }

    fn game_id(&self) -> Result<String> {
        let body = self.board_body()?;
        let name = G::KIND.as_str();
        let id = match &self.origin {
            Origin::Generated { seed, params, .. } if G::SEED_WITH_BOARD => {
                if G::from_id(params, Some(*seed))?.board_body() == body {
                    if !params.is_empty() {
                        // A size's fresh game (2048: `2048:5x5#7`).
                        return Ok(format!("{name}:{params}#{seed}"));
                    }
                    format!("{name}:#{seed}")
                } else {
                    format!("{name}:{body}#{seed}")
                }
            }
            Origin::BoardSeed { seed } => format!("{name}:{body}#{seed}"),
            _ => format!("{name}:{body}"),
        };
        // The game's canonical text of the ID (e.g. its own letters for Klotski pieces).
        let parsed = GameId::parse(&id)?;
        let mut canon = G::from_id(&parsed.body, parsed.seed)?.board_body();
        if let Some(picture) = &self.picture {
            canon = G::with_picture(canon, picture);
        }
        Ok(match parsed.seed {
            Some(_) if parsed.body.is_empty() => id,
            Some(seed) => format!("{name}:{canon}#{seed}"),
            None => format!("{name}:{canon}"),
        })
    }
}

/// Whether results of the game `id` names have an outcome ([`Coded::outcome`]).
fn has_outcome<G: Coded>(id: &str) -> Result<bool> {
    let parsed = GameId::parse(id)?;
    Ok(G::outcome(&G::from_id(&parsed.body, parsed.seed)?).is_some())
}

fn has_classics<G: Coded>() -> bool {
    G::classic(0).is_some()
}

/// The first classic with this layout (two classics share one layout under two names:
/// pass the index explicitly with [`Extra::classic`] to name the second).
fn classic_index<G: Coded>(board: &G::Board) -> Result<Option<usize>> {
    for (i, c) in (0..).map_while(G::classic).enumerate() {
        if &G::parse_board(c.board)? == board {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

fn classic_solvable<G: Coded>(index: usize) -> Result<()> {
    match G::classic(index) {
        Some(c) if c.solvable => Ok(()),
        Some(c) => Err(Error::unsolvable(format!(
            "the classic {} has no solution",
            c.name
        ))),
        None => Err(Error::bad_code(format!(
            "classic #{} does not exist",
            index + 1
        ))),
    }
}

fn classic_body<G: Coded>(index: usize) -> Result<String> {
    let c = G::classic(index).ok_or_else(|| {
        Error::bad_code(format!(
            "classic #{} does not exist (there are {})",
            index + 1,
            (0..).map_while(G::classic).count()
        ))
    })?;
    Ok(c.board.to_string())
}

/// Classic `index` if its layout passes `check` (see the module documentation).
fn classic_board<G: Coded>(index: usize, check: u16) -> Result<G::Board> {
    let board = G::parse_board(&classic_body::<G>(index)?)?;
    let mut w = Writer::default();
    G::write_board(&board, &mut w);
    if wire::crc32(&w.bytes) as u16 != check {
        return Err(Error::bad_code(format!(
            "classic #{} of this version is a different layout than the code's \
             (the code comes from a version with another level list)",
            index + 1
        )));
    }
    Ok(board)
}

fn check_params(p: &str) -> Result<()> {
    if p.len() > MAX_PARAMS {
        return Err(Error::range(format!(
            "generator parameters {p:?} are longer than {MAX_PARAMS} characters"
        )));
    }
    if !p
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/._-:+".contains(&b))
    {
        return Err(Error::parse(format!(
            "generator parameters {p:?} contain characters codes cannot carry"
        )));
    }
    Ok(())
}

/// The start board of any game ID, through the registry, for tests.
#[cfg(test)]
fn start_any(id: &str) -> String {
    crate::registry::start_body(&GameId::parse(id).unwrap()).unwrap()
}

/// The generic form of `Game::from_id(..).board_body()` for tests.
#[cfg(test)]
fn start_of<G: crate::game::Game>(id: &str) -> String {
    let p = GameId::parse(id).unwrap();
    G::from_id(&p.body, p.seed).unwrap().board_body()
}

#[cfg(test)]
mod golden;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod timed;
