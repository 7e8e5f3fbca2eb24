//! The engine's fuzz targets, one function per decoder. Each takes the fuzzer's raw bytes,
//! must never panic, and checks what a decoder promises beyond "no panic" (canonical forms
//! decode to themselves, saved games restore to the same game, the 2048 table path agrees
//! with the slow path).
//!
//! This file is the whole logic: `fuzz_targets/<name>.rs` only hands bytes to it, and the
//! engine's test `crates/engine/tests/fuzz_corpus.rs` includes it (`#[path]`) to replay
//! `fuzz/regressions/<name>/*` under a normal `cargo test`. It uses only the engine and
//! `serde_json`, so it compiles in both places.
//!
//! To add a target: write `pub fn <name>(data: &[u8])` here, list it in [`TARGETS`], add
//! `fuzz_targets/<name>.rs` and a `[[bin]]` in `Cargo.toml`, and keep a few inputs in
//! `regressions/<name>/`.

use huarong_engine::code;
use huarong_engine::g2048::ai::{self, Budget};
use huarong_engine::g2048::board::{self, Dir};
use huarong_engine::g2048::G2048;
use huarong_engine::klotski::{self, Band, GenSpec};
use huarong_engine::registry::{self, Visitor};
use huarong_engine::slide;
use huarong_engine::{Cancel, Game, GameId, Kind, Registered, SavedSession, Session};

/// A target: the fuzzer's bytes in, a panic for a bug.
pub type Target = fn(&[u8]);

/// Every target by name (the folder names under `regressions/`).
pub const TARGETS: &[(&str, Target)] = &[
    ("code_text", code_text),
    ("code_payload", code_payload),
    ("link", link),
    ("game_id", game_id),
    ("saved_session", saved_session),
    ("board_text", board_text),
    ("g2048_slide", g2048_slide),
];

/// Bytes as text: invalid UTF-8 becomes U+FFFD, so multi-byte characters reach the parsers.
fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

// ---------------------------------------------------------------------------------------
// Share codes and links.
// ---------------------------------------------------------------------------------------

/// CRC-32 (IEEE), as share codes use it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// URL-safe base64 without padding.
fn base64url(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let mut n = 0u32;
        for (i, &b) in chunk.iter().enumerate() {
            n |= (b as u32) << (16 - 8 * i);
        }
        for i in 0..=chunk.len() {
            out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

/// Base 56 over the digits and letters without look-alikes, 5 bytes → 7 characters (the
/// current codes' text; written here from its description, not the engine's code).
fn base56(bytes: &[u8]) -> String {
    const A: &[u8; 56] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz";
    let mut out = String::new();
    for chunk in bytes.chunks(5) {
        let mut n = chunk.iter().fold(0u64, |n, &b| n << 8 | b as u64);
        let len = [0, 2, 3, 5, 6, 7][chunk.len()];
        let mut digits = vec![0u8; len];
        for d in digits.iter_mut().rev() {
            *d = A[(n % 56) as usize];
            n /= 56;
        }
        out.push_str(std::str::from_utf8(&digits).unwrap());
    }
    out
}

/// A version-1 code whose payload is `payload`, with a correct checksum (so the fuzzer's
/// mutations of the payload reach the decoder's field parsing, not just the CRC check).
pub fn seal(payload: &[u8]) -> String {
    let mut checked = vec![code::VERSION_1 as u8];
    checked.extend_from_slice(payload);
    let mut bytes = payload.to_vec();
    bytes.extend_from_slice(&crc32(&checked).to_be_bytes());
    format!("{}{}", code::VERSION_1, base64url(&bytes))
}

/// The current version's code of `payload`: the checksum first, then the payload, in base 56.
pub fn seal_current(payload: &[u8]) -> String {
    let mut checked = vec![code::VERSION as u8];
    checked.extend_from_slice(payload);
    let mut bytes = crc32(&checked).to_be_bytes().to_vec();
    bytes.extend_from_slice(payload);
    format!("{}{}", code::VERSION, base56(&bytes))
}

/// Decode; on success the canonical code must decode to the same, and the game ID must
/// encode to a code that decodes to that ID again.
fn check_decode(t: &str) {
    let Ok(d) = code::decode_full(t) else {
        return;
    };
    let again = code::decode_full(&d.code).expect("a canonical code decodes");
    assert_eq!(again, d, "the canonical code means the same");
    let re = code::encode(&d.id).expect("a decoded game ID encodes");
    assert_eq!(code::decode(&re).expect("its code decodes"), travelling(&d));
    // Any version's code says the same as its current-version form.
    let up = code::upgrade(t).expect("a code that decodes upgrades");
    assert!(up.starts_with(code::VERSION), "{up}");
    let now = code::decode_full(&up).expect("an upgraded code decodes");
    assert_eq!(
        (&now.id, &now.board, &now.origin),
        (&d.id, &d.board, &d.origin)
    );
    assert_eq!((now.daily, now.challenge), (d.daily, d.challenge));
    assert_eq!(code::resolve(&d.id).expect("the ID resolves"), d.id);
}

/// The game ID a decoded code's ID encodes to: itself, but a picture that is not one of this
/// version's built-in pictures (a later version's, or a forged name) does not travel — the
/// code of such an ID is the plain number puzzle.
fn travelling(d: &code::Decoded) -> String {
    match &d.picture {
        Some(name) if !slide::pictures::is_builtin(name) => {
            let id = GameId::parse(&d.id).expect("a decoded game ID parses");
            let (plain, _) = slide::split_picture(&id.body).expect("a decoded picture splits");
            GameId { body: plain, ..id }.to_string()
        }
        _ => d.id.clone(),
    }
}

/// Any text as a code or link.
pub fn code_text(data: &[u8]) {
    let t = text(data);
    check_decode(&t);
    let _ = code::resolve(&t);
}

/// Any bytes as a code's payload, sealed with a fresh checksum, in either version.
pub fn code_payload(data: &[u8]) {
    check_decode(&seal(data));
    check_decode(&code::link(&seal(data)));
    check_decode(&seal_current(data));
    check_decode(&code::link(&seal_current(data)));
}

/// Any text after the link scheme.
pub fn link(data: &[u8]) {
    let t = text(data);
    check_decode(&format!("huarong://play?{t}"));
    check_decode(&format!("huarong:{t}"));
}

// ---------------------------------------------------------------------------------------
// Game IDs and board texts.
// ---------------------------------------------------------------------------------------

/// Whether opening `id` is cheap: generated Klotski levels and number-slide levels of a
/// difficulty run a generator with solver checks (seconds), which the fuzzer must not
/// repeat for every input (each game says so: `Registered::costly_generator`); Klotski's
/// generator parameters are still parsed.
fn cheap(id: &GameId) -> bool {
    if id.kind == Kind::Klotski && id.seed.is_some() {
        let (band, spec) = match id.body.split_once(':') {
            Some((b, s)) => (b, Some(s)),
            None => (id.body.as_str(), None),
        };
        let _ = Band::parse(band);
        if let Some(s) = spec {
            let _ = GenSpec::parse(s);
        }
    }
    id.seed.is_none() || !registry::costly_generator(id.kind, &id.body)
}

/// [`open_and_restore`] for the game a kind names.
struct OpenRestore<'a>(&'a str);

impl Visitor for OpenRestore<'_> {
    type Out = ();
    fn visit<G: Registered + PartialEq>(self) {
        open_and_restore::<G>(self.0)
    }
}

/// [`restore`] as the game a kind names.
struct Restore<'a>(&'a [u8]);

impl Visitor for Restore<'_> {
    type Out = ();
    fn visit<G: Registered + PartialEq>(self) {
        restore::<G>(self.0)
    }
}

/// Open a session, and check that it saves and restores to the same game.
fn open_and_restore<G: Game + PartialEq + std::fmt::Debug>(t: &str) {
    let Ok(s) = Session::<G>::open(t) else {
        return;
    };
    let saved = s.save(0);
    let r = Session::<G>::restore(&saved).expect("a fresh session restores");
    assert_eq!(r.current(), s.current());
    let body = s.current().board_body();
    let again = G::from_id(&body, None).expect("a board body is an ID body");
    assert_eq!(again.board_body(), body, "the body is canonical");
}

/// Any text as a game ID.
pub fn game_id(data: &[u8]) {
    let t = text(data);
    let Ok(id) = GameId::parse(&t) else {
        return;
    };
    let shown = id.to_string();
    assert_eq!(GameId::parse(&shown).expect("a shown ID parses"), id);
    if !cheap(&id) {
        return;
    }
    id.kind.visit(OpenRestore(&t));
    if id.kind != Kind::Klotski {
        if let Ok(c) = code::encode(&t) {
            let d = code::decode_full(&c).expect("an encoded ID decodes");
            assert_eq!(d.code, c);
        }
    }
}

/// A board body of the game a kind names: it reads back to itself.
struct BodyRoundTrip<'a>(&'a str);

impl Visitor for BodyRoundTrip<'_> {
    type Out = ();
    fn visit<G: Registered + PartialEq>(self) {
        if let Ok(g) = G::from_id(self.0, None) {
            let body = g.board_body();
            assert_eq!(G::from_id(&body, None).unwrap().board_body(), body);
        }
    }
}

/// Any text as a board body of each game.
pub fn board_text(data: &[u8]) {
    let t = text(data);
    for kind in Kind::ALL {
        kind.visit(BodyRoundTrip(&t));
    }
    if let Ok(b) = klotski::Board::parse(&t) {
        let rows = b.to_rows();
        assert_eq!(klotski::Board::parse(&rows).unwrap().to_rows(), rows);
    }
    if let Ok(b) = G2048::parse_board(&t) {
        assert_eq!(G2048::parse_board(&G2048::body_of(b)).unwrap(), b);
    }
}

// ---------------------------------------------------------------------------------------
// Saved sessions.
// ---------------------------------------------------------------------------------------

fn restore<G: Game + PartialEq + std::fmt::Debug>(data: &[u8]) {
    let Ok(saved) = serde_json::from_slice::<SavedSession<G::Move>>(data) else {
        return;
    };
    let Ok(r) = Session::<G>::restore(&saved) else {
        return;
    };
    // What it saves restores to the same game again.
    let again = Session::<G>::restore(&r.save(0)).expect("a restored session restores");
    assert_eq!(again.current(), r.current());
    assert_eq!(again.can_undo(), r.can_undo());
    assert_eq!(again.can_redo(), r.can_redo());
}

/// Any bytes as a saved session's JSON, restored as each game.
pub fn saved_session(data: &[u8]) {
    // Skip saves of expensive generated levels (see `cheap`) before restoring replays them.
    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(data) {
        if let Some(id) = v.get("id").and_then(|i| i.as_str()) {
            if GameId::parse(id).is_ok_and(|id| !cheap(&id)) {
                return;
            }
        }
    } else {
        return;
    }
    for kind in Kind::ALL {
        kind.visit(Restore(data));
    }
}

// ---------------------------------------------------------------------------------------
// 2048 moves.
// ---------------------------------------------------------------------------------------

/// One line pushed toward index 0, on tile values, with merges up to 131,072.
fn reference_line(line: [u32; 4]) -> ([u32; 4], u32) {
    let tiles: Vec<u32> = line.into_iter().filter(|&v| v != 0).collect();
    let mut out = [0u32; 4];
    let (mut i, mut o, mut gained) = (0, 0, 0);
    while i < tiles.len() {
        if i + 1 < tiles.len() && tiles[i] == tiles[i + 1] && tiles[i] < 131072 {
            out[o] = tiles[i] * 2;
            gained += tiles[i] * 2;
            i += 2;
        } else {
            out[o] = tiles[i];
            i += 1;
        }
        o += 1;
    }
    (out, gained)
}

/// Sixteen bytes as exponents 0…17: every direction through the engine (table path or slow
/// path) against the reference; a further byte asks a depth-1 AI search too.
pub fn g2048_slide(data: &[u8]) {
    if data.len() < 16 {
        return;
    }
    let exps: [u8; 16] = std::array::from_fn(|i| data[i] % 18);
    let b = board::from_exps(&exps);
    assert_eq!(board::to_exps(b), exps);
    let t = board::tables();
    let values = board::to_values(b);
    for dir in Dir::ALL {
        let mut want = [0u32; 16];
        let mut want_gain = 0;
        for k in 0..4 {
            let cells = board::line_cells(dir, k);
            let (moved, g) = reference_line(cells.map(|c| values[c]));
            want_gain += g;
            for (j, &c) in cells.iter().enumerate() {
                want[c] = moved[j];
            }
        }
        let got = t.slide(b, dir);
        assert_eq!(board::to_values(got), want, "{exps:?} {dir:?}");
        assert_eq!(t.gain(b, dir), want_gain);
        if b.is_ordinary() {
            assert_eq!(t.slide_cells(b.cells(), dir), got.cells());
        }
    }
    if data.get(16).is_some_and(|x| x & 1 == 1) {
        match ai::best_move(b, Budget::Depth(1), &Cancel::new()) {
            Some(c) => assert_ne!(t.slide(b, c.dir), b, "the AI's move moves"),
            None => assert!(!t.can_move(b)),
        }
    }
}
