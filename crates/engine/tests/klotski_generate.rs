//! The level generator: counts in band and exact, reproducible from the seed, never a
//! classic, the requested piece set; bad requests are errors.

use huarong_engine::klotski::{
    classics, generate, generate_counted, solve, Band, Board, GenSpec, Klotski, Metric,
};
use huarong_engine::{Cancel, ErrorCode, Game, Session};
use std::collections::HashSet;

fn shapes(b: &Board) -> (usize, usize, usize, usize) {
    let count = |h, w| {
        b.pieces()
            .iter()
            .filter(|p| p.letter != 'C' && (p.height, p.width) == (h, w))
            .count()
    };
    (
        b.pieces().len(),
        count(2, 1) + count(1, 2),
        count(1, 1),
        count(2, 2),
    )
}

fn mirror(b: &Board) -> Board {
    let rows: Vec<String> = b
        .to_rows()
        .split('/')
        .map(|r| r.chars().rev().collect())
        .collect();
    Board::parse(&rows.join("/")).unwrap()
}

#[test]
fn levels_are_in_band_exact_and_reproducible() {
    let classic_forms: HashSet<String> = classics()
        .iter()
        .map(|c| c.parse_board().canonical())
        .collect();
    for (min, max) in [(10, 30), (30, 60), (60, 90), (90, u32::MAX)] {
        let band = Band::new(min, max).unwrap();
        for seed in 0..3 {
            let (b, n) = generate_counted(&GenSpec::standard(), band, seed).unwrap();
            assert!(band.contains(n), "{band} #{seed}: {n}");
            let info = solve(&b, Metric::Piece, &Cancel::new()).unwrap().unwrap();
            assert_eq!(info.count(), n, "{band} #{seed}: the count is exact");
            assert_eq!(generate(min, max, seed).unwrap(), b, "reproducible");
            assert_eq!((b.width(), b.height()), (4, 5));
            assert_eq!(shapes(&b), (10, 5, 4, 0), "{b}");
            assert_eq!(b.goal_piece().shape(), (2, 2));
            assert!(!classic_forms.contains(&b.canonical()), "{b} is a classic");
            assert!(
                !classic_forms.contains(&mirror(&b).canonical()),
                "{b} mirrors a classic"
            );
        }
    }
}

#[test]
fn seeds_are_pinned() {
    // Seeded levels are game IDs forever (daily challenges, shared links): these must never
    // change. If this fails, the generator (or the rng) changed behaviour.
    let got: Vec<String> = [(10, 30, 1), (60, 90, 42), (90, u32::MAX, 7)]
        .iter()
        .map(|&(a, b, s)| generate(a, b, s).unwrap().to_rows())
        .collect();
    assert_eq!(got, vec![PIN_10_30_1, PIN_60_90_42, PIN_90_7]);
    let s = Session::<Klotski>::open("klotski:60-90#42").unwrap();
    assert_eq!(s.current().board_body(), PIN_60_90_42);
}

const PIN_10_30_1: &str = "aab./CCbc/CC.d/eefd/ghii";
const PIN_60_90_42: &str = "abCC/abCC/cdde/.fge/.hii";
const PIN_90_7: &str = ".CC./aCCb/acdb/eeff/ghhi";

#[test]
fn different_seeds_give_different_levels() {
    let boards: HashSet<String> = (0..12)
        .map(|s| generate(30, 60, s).unwrap().canonical())
        .collect();
    assert!(boards.len() >= 11, "{} distinct of 12", boards.len());
}

#[test]
fn variants_have_the_requested_pieces() {
    for (spec, want) in [
        ("g4s6", (11, 4, 6)),
        ("g6s2", (9, 6, 2)),
        ("4x6:g6s6", (13, 6, 6)),
        ("4x4:g3s3", (7, 3, 3)),
    ] {
        let spec = GenSpec::parse(spec).unwrap();
        let band = Band::parse("20-40").unwrap();
        let (b, n) = generate_counted(&spec, band, 3).unwrap();
        let (pieces, generals, soldiers, _) = shapes(&b);
        assert_eq!((pieces, generals, soldiers), want, "{spec}: {b}");
        assert_eq!(
            (b.width(), b.height()),
            (spec.width as usize, spec.height as usize)
        );
        assert_eq!(
            solve(&b, Metric::Piece, &Cancel::new())
                .unwrap()
                .unwrap()
                .count(),
            n
        );
        assert!(band.contains(n));
        let id = format!("klotski:{band}:{spec}#3");
        assert_eq!(
            Session::<Klotski>::open(&id).unwrap().current().board(),
            &b,
            "{id}"
        );
    }
    // Walls.
    let spec = GenSpec::parse("4x5:g4s3w1").unwrap();
    let (b, _) = generate_counted(&spec, Band::parse("10-30").unwrap(), 5).unwrap();
    assert_eq!(b.walls().count_ones(), 1);
}

#[test]
fn bad_requests_are_errors() {
    use ErrorCode::{OutOfRange, Parse};
    for (text, code) in [
        ("0-10", OutOfRange),
        ("30-10", OutOfRange),
        ("x-10", Parse),
        ("10", Parse),
        ("500+", OutOfRange),
    ] {
        assert_eq!(Band::parse(text).unwrap_err().code, code, "band {text}");
    }
    assert_eq!(generate(0, 10, 1).unwrap_err().code, OutOfRange);
    for (text, code) in [
        ("g5", Parse),
        ("g5s4x", Parse),
        ("5x5:g5s4", OutOfRange),
        ("g9s4", OutOfRange),
        ("9x5:g5s4", OutOfRange),
    ] {
        assert_eq!(GenSpec::parse(text).unwrap_err().code, code, "spec {text}");
    }
    // No small 4×4 layout needs 150 moves: the generator gives up at its bound of layouts,
    // `unsupported` like every bounded search that stops.
    let small = GenSpec::parse("4x4:g3s3").unwrap();
    let e = generate_counted(&small, Band::parse("150+").unwrap(), 1).unwrap_err();
    assert_eq!(e.code, ErrorCode::Unsupported);
    assert!(e.message.contains("150+"), "{}", e.message);
    assert!(e.message.contains("400 tries"), "{}", e.message);
}
