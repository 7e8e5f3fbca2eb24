//! Result codes with times: each move's gap in 10 ms steps (varints), or only the splits'
//! when the move times would make the code longer than [`MAX_CODE_LEN`]. `golden-timed.tsv`
//! pins their codes and decodes (made once; add inputs at the end, never regenerate rows).

use super::golden::{decoded, payload, same_lines, tsv};
use super::*;
use crate::game::{Cancel, Game};
use crate::slide::{Move as Tap, Slide};

/// Deterministic numbers for the tests.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// A 4×4 result of `n` single-tile taps (`n` even, ≥ 40): the start is the solved board
/// walked 20 taps away; the line wanders `(n - 20) / 2` taps, comes back the same way and undoes
/// the walk. Returns the game ID and the taps as JSON.
fn long_4x4(n: usize, seed: u64) -> (String, Vec<serde_json::Value>) {
    let mut rng = Lcg(seed);
    let walk = |g: &mut Slide, k: usize, rng: &mut Lcg| {
        let mut taps: Vec<u16> = Vec::new();
        while taps.len() < k {
            let m = g.board().movable();
            let t = m[rng.next(m.len() as u64) as usize];
            if taps.last() == Some(&t) {
                continue;
            }
            g.apply(&Tap { tile: t }).unwrap();
            taps.push(t);
        }
        taps
    };
    let mut g = Slide::new(crate::slide::Board::solved(4, 4).unwrap()).unwrap();
    let a = walk(&mut g, 20, &mut rng);
    let id = format!("slide:{}", g.board_body());
    let b = walk(&mut g, (n - 20) / 2, &mut rng);
    let line: Vec<u16> = b
        .iter()
        .chain(b.iter().rev())
        .chain(a.iter().rev())
        .copied()
        .collect();
    let log = line
        .iter()
        .map(|&t| serde_json::to_value(Tap { tile: t }).unwrap())
        .collect();
    (id, log)
}

/// Human-like times: gaps of 150 ms to 1.5 s, the first move at `from`.
fn human_times(n: usize, from: u64, seed: u64) -> Vec<u64> {
    let mut rng = Lcg(seed);
    let mut t = from;
    (0..n)
        .map(|i| {
            if i > 0 {
                t += 150 + rng.next(1_350);
            }
            t
        })
        .collect()
}

fn sender(log: &[serde_json::Value]) -> Sender {
    Sender {
        name: Some("Mei".into()),
        log: Some(log.to_vec()),
    }
}

/// The result (default count) of a log from a game ID.
fn result_moves(id: &str, log: &[serde_json::Value]) -> u32 {
    fn end<G: Game>(id: &GameId, log: &[serde_json::Value]) -> u32 {
        let mut g = G::from_id(&id.body, id.seed).unwrap();
        for m in sent::parse_moves::<G>(log).unwrap() {
            g.apply(&m).unwrap();
        }
        g.moves()
    }
    let p = GameId::parse(id).unwrap();
    match p.kind {
        Kind::Slide => end::<Slide>(&p, log),
        _ => end::<crate::klotski::Klotski>(&p, log),
    }
}

fn timed(id: &str, log: &[serde_json::Value], times: &[u64]) -> (String, Option<&'static str>) {
    let ch = Challenge::new(result_moves(id, log), times.last().unwrap() + 500).unwrap();
    encode_result_timed(
        id,
        Extra::default(),
        ch,
        &sender(log),
        None,
        false,
        Some(times),
    )
    .unwrap()
}

/// A solve of the 3×3 at taps about 300 ms apart: the decoded times are the recorded ones
/// from the first move, within 10 ms.
#[test]
fn move_times_round_trip_within_ten_ms() {
    let id = "slide:3x3:4,1,3,7,2,6,5,8,0";
    let start = Slide::from_id("3x3:4,1,3,7,2,6,5,8,0", None).unwrap();
    let line = start.solve(&Cancel::new()).unwrap();
    let log: Vec<_> = line
        .iter()
        .map(|m| serde_json::to_value(m).unwrap())
        .collect();
    let mut rng = Lcg(7);
    let times: Vec<u64> = (0..log.len() as u64)
        .map(|i| 12_345 + i * 300 + rng.next(40))
        .collect();
    let (code, kept) = timed(id, &log, &times);
    assert_eq!(kept, Some("moves"));
    let d = decode_full(&code).unwrap();
    assert_eq!(d.code, code, "canonical");
    let Some(Times::Moves(got)) = d.sent.as_ref().and_then(|s| s.times.clone()) else {
        panic!("no move times: {d:?}")
    };
    assert_eq!(got.len(), log.len());
    assert_eq!(got[0], 0, "counted from the first move");
    for (g, t) in got.iter().zip(&times) {
        let want = t - times[0];
        assert!(g.abs_diff(want) <= 5, "{g} vs {want}");
    }
    assert!(d.verified(), "the moves are replayed");
}

/// A 4×4 with a 150-move log and its times: at most 600 characters.
#[test]
fn a_150_move_4x4_with_times_is_at_most_600_characters() {
    let (id, log) = long_4x4(150, 3);
    assert_eq!(log.len(), 150);
    let times = human_times(150, 0, 5);
    let (code, kept) = timed(&id, &log, &times);
    assert_eq!(kept, Some("moves"));
    assert!(code.len() <= 600, "{} characters", code.len());
    let untimed = encode_result(
        &id,
        Extra::default(),
        Challenge::new(150, 99_000).unwrap(),
        &sender(&log),
    )
    .unwrap();
    let per_move = (code.len() - untimed.len()) as f64 / 150.0;
    assert!(per_move < 2.6, "{per_move:.2} characters a move");
}

/// Move times that would pass the limit: only the splits' times are kept, and said so;
/// a log too long even for those: no times.
#[test]
fn past_the_limit_only_split_times_are_kept() {
    let (id, log) = long_4x4(1_000, 11);
    let times = human_times(1_000, 0, 2);
    let (code, kept) = timed(&id, &log, &times);
    assert!(code.len() <= MAX_CODE_LEN);
    assert_eq!(kept, Some("splits"));
    let d = decode_full(&code).unwrap();
    let Some(Times::Splits(got)) = d.sent.as_ref().and_then(|s| s.times.clone()) else {
        panic!("no split times: {d:?}")
    };
    // The split times are the times of the split moves, within 5 ms.
    let parsed = GameId::parse(&id).unwrap();
    let start = Slide::from_id(&parsed.body, None).unwrap();
    let moves = sent::parse_moves::<Slide>(&log).unwrap();
    let want = crate::splits::splits(&start, &moves, Some(&times), &Cancel::new());
    assert!(!want.is_empty());
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(&want) {
        assert!(g.abs_diff(w.ms.unwrap()) <= 5, "{g} vs {w:?}");
    }
}

/// Codes without times decode as before (`times` absent); times of the wrong length are
/// refused; a tampered count of times is refused.
#[test]
fn codes_without_times_and_bad_times() {
    let (id, log) = long_4x4(60, 4);
    let ch = Challenge::new(result_moves(&id, &log), 30_000).unwrap();
    let plain = encode_result(&id, Extra::default(), ch, &sender(&log)).unwrap();
    let d = decode_full(&plain).unwrap();
    assert!(d.sent.as_ref().unwrap().times.is_none());
    assert!(!format!("{d:?}").contains("times"));
    let e = encode_result_timed(
        &id,
        Extra::default(),
        ch,
        &sender(&log),
        None,
        false,
        Some(&[1, 2]),
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::Parse);
    // Times without a log: nothing to time.
    let none = Sender {
        name: None,
        log: None,
    };
    let (c, kept) =
        encode_result_timed(&id, Extra::default(), ch, &none, None, false, Some(&[])).unwrap();
    assert_eq!(kept, None);
    assert_eq!(c, encode_result(&id, Extra::default(), ch, &none).unwrap());
    // One time fewer in the payload: refused.
    let (code, _) = timed(&id, &log, &human_times(60, 0, 1));
    let p = payload(&code);
    let d = decode_full(&code).unwrap();
    assert!(d.sent.unwrap().times.is_some());
    // The times follow the name: flags, length, "Mei", then the count of gaps.
    let at = p
        .windows(4)
        .position(|w| w == [3, b'M', b'e', b'i'])
        .unwrap()
        + 4;
    assert_eq!(p[at], 59, "59 gaps after the first move");
    let mut bad = p.clone();
    bad[at] = 58;
    assert_eq!(
        decode_full(&Version::V2.text(&bad)).unwrap_err().code,
        ErrorCode::BadCode
    );
}

/// The inputs of `golden-timed.tsv`: timed results of every game.
fn timed_inputs() -> Vec<(String, Vec<serde_json::Value>, Vec<u64>)> {
    let mut out = Vec::new();
    let solved = |kind: &str, id: &str| -> Vec<serde_json::Value> {
        let p = GameId::parse(id).unwrap();
        match kind {
            "slide" => sent::to_json::<Slide>(
                &Slide::from_id(&p.body, p.seed)
                    .unwrap()
                    .solve(&Cancel::new())
                    .unwrap(),
            ),
            _ => {
                let k = crate::klotski::Klotski::from_id(&p.body, p.seed).unwrap();
                sent::to_json::<crate::klotski::Klotski>(&k.solve(&Cancel::new()).unwrap())
            }
        }
    };
    let s3 = "slide:3x3:4,1,3,7,2,6,5,8,0";
    let log = solved("slide", s3);
    out.push((s3.to_string(), log.clone(), human_times(log.len(), 0, 1)));
    out.push((
        s3.to_string(),
        log.clone(),
        human_times(log.len(), 4_321, 2),
    ));
    let k = format!("klotski:{}", crate::klotski::classics()[0].board);
    let log = solved("klotski", &k);
    out.push((k, log.clone(), human_times(log.len(), 0, 3)));
    let (id, log) = long_4x4(150, 3);
    out.push((id, log, human_times(150, 0, 5)));
    let (id, log) = long_4x4(1_000, 11);
    out.push((id, log, human_times(1_000, 0, 2)));
    out
}

fn timed_rows() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut codes = Vec::new();
    for (id, log, times) in timed_inputs() {
        let input = format!(
            "E {id} log={} first={} last={}",
            log.len(),
            times[0],
            times.last().unwrap()
        );
        let ch = Challenge::new(result_moves(&id, &log), times.last().unwrap() + 500);
        let r = ch.and_then(|ch| {
            encode_result_timed(
                &id,
                Extra::default(),
                ch,
                &sender(&log),
                None,
                false,
                Some(&times),
            )
        });
        let answer = match &r {
            Ok((code, kept)) => {
                codes.push(code.clone());
                format!("{code} kept={kept:?}")
            }
            Err(e) => format!("ERR {:?} {}", e.code, e.message),
        };
        out.push((input, answer));
    }
    for code in codes {
        // The decode without its (long) log: the times and the verdict.
        let d = decode_full(&code).map(|mut d| {
            if let Some(s) = d.sent.as_mut() {
                s.log = s.log.as_ref().map(|l| vec![serde_json::json!(l.len())]);
            }
            d.code = String::new();
            d
        });
        out.push((format!("D {code}"), decoded(d)));
    }
    out
}

#[test]
fn timed_codes_encode_and_decode_as_pinned() {
    same_lines(
        include_str!("golden-timed.tsv"),
        &tsv(&timed_rows()),
        "golden-timed.tsv",
    );
}

/// Prints `golden-timed.tsv` (`cargo test -p huarong-engine --lib print_timed_golden --
/// --ignored --nocapture`).
#[test]
#[ignore]
fn print_timed_golden() {
    print!("{}", tsv(&timed_rows()));
}

/// Kept replays' times: packed and read back within 5 ms; damage is `bad_code`.
#[test]
fn packed_times_round_trip() {
    let times = human_times(300, 2_000, 9);
    let packed = pack_times(&times);
    assert!(packed.len() < 300 * 3, "{} characters", packed.len());
    let back = unpack_times(&packed).unwrap();
    assert_eq!(back.len(), 300);
    for (b, t) in back.iter().zip(&times) {
        assert!(b.abs_diff(*t) <= 5, "{b} vs {t}");
    }
    assert_eq!(unpack_times(&pack_times(&[])).unwrap(), Vec::<u64>::new());
    assert_eq!(unpack_times("2!").unwrap_err().code, ErrorCode::BadCode);
}

/// A 2048 game from a board one merge from 2048, kept going to its end: one time per move
/// the code writes (the implied "keep going" has none), each read back within 5 ms.
#[test]
fn a_2048_result_keeps_the_times_of_its_written_moves() {
    use crate::g2048::{Dir, Move as Swipe, G2048};
    use crate::game::Status;
    let id = "2048:1024,1024,0,0,0,0,0,0,0,0,0,0,0,0,0,0#5";
    let p = GameId::parse(id).unwrap();
    let mut g = G2048::from_id(&p.body, p.seed).unwrap();
    let mut rng = Lcg(3);
    let mut log = Vec::new();
    let mut kept_going = false;
    while g.status() != Status::Lost && log.len() < 3_000 {
        let m = if g.status() == Status::Won {
            kept_going = true;
            Swipe::KeepGoing
        } else if log.is_empty() {
            Swipe::Slide(Dir::Left)
        } else {
            Swipe::Slide(Dir::ALL[rng.next(4) as usize])
        };
        if g.apply(&m).is_ok() {
            log.push(m);
        }
    }
    assert!(kept_going && g.status() == Status::Lost);
    let times = human_times(log.len(), 0, 8);
    let want: Vec<u64> = log
        .iter()
        .zip(&times)
        .filter(|(m, _)| **m != Swipe::KeepGoing)
        .map(|(_, t)| *t)
        .collect();
    let json: Vec<_> = log
        .iter()
        .map(|m| serde_json::to_value(m).unwrap())
        .collect();
    let outcome = <G2048 as Coded>::outcome(&g);
    let ch = Challenge::new(g.moves(), times.last().unwrap() + 1).unwrap();
    let (code, kept) = encode_result_timed(
        id,
        Extra::default(),
        ch,
        &sender(&json),
        outcome,
        false,
        Some(&times),
    )
    .unwrap();
    assert_eq!(kept, Some("moves"), "{} characters", code.len());
    let d = decode_full(&code).unwrap();
    let s = d.sent.unwrap();
    let Some(Times::Moves(t)) = &s.times else {
        panic!("no move times")
    };
    assert_eq!(t.len(), s.log.as_ref().unwrap().len());
    assert_eq!(t.len(), want.len());
    for (got, w) in t.iter().zip(&want) {
        assert!(got.abs_diff(*w) <= 5, "{got} vs {w}");
    }
}
