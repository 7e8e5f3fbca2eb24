//! 2048 rules against a plain reference, the seed article's invariants, reproducibility,
//! undo/redo through the session, and parse errors.

use huarong_engine::g2048::board::{self, Board, Dir};
use huarong_engine::g2048::{Effect, Move, G2048};
use huarong_engine::{Cancel, ErrorCode, Game, Session, Status};

mod common;
use common::rejects::assert_rejects;

// ---------------------------------------------------------------------------------------
// A plain, obviously-correct reference on tile values (not exponents), written apart from
// the engine: the seed article's mergeLine, applied per line with reversal for right/down.
// ---------------------------------------------------------------------------------------

/// The largest tile on a 4×4 board; two of them (only on a hand-made board) do not merge.
const TOP: u32 = 131072;

fn merge_line(line: &[u32]) -> (Vec<u32>, u32) {
    let source: Vec<u32> = line.iter().copied().filter(|&v| v != 0).collect();
    let mut output = Vec::new();
    let mut gained = 0;
    let mut i = 0;
    while i < source.len() {
        if i + 1 < source.len() && source[i] == source[i + 1] && source[i] < TOP {
            output.push(source[i] * 2);
            gained += source[i] * 2;
            i += 2;
        } else {
            output.push(source[i]);
            i += 1;
        }
    }
    while output.len() < 4 {
        output.push(0);
    }
    (output, gained)
}

fn reference_move(grid: &[u32; 16], dir: Dir) -> ([u32; 16], u32) {
    let mut out = [0u32; 16];
    let mut gained = 0;
    for k in 0..4 {
        // The cells of line k, from the edge the tiles move toward.
        let cells: Vec<usize> = match dir {
            Dir::Left => (0..4).map(|j| 4 * k + j).collect(),
            Dir::Right => (0..4).rev().map(|j| 4 * k + j).collect(),
            Dir::Up => (0..4).map(|j| 4 * j + k).collect(),
            Dir::Down => (0..4).rev().map(|j| 4 * j + k).collect(),
        };
        let line: Vec<u32> = cells.iter().map(|&c| grid[c]).collect();
        let (moved, g) = merge_line(&line);
        gained += g;
        for (j, &c) in cells.iter().enumerate() {
            out[c] = moved[j];
        }
    }
    (out, gained)
}

fn values_of(b: Board) -> [u32; 16] {
    board::to_values(b)
}

/// A board from sixteen tile values (each 0 or a power of two up to 131,072).
fn board_of(values: &[u32; 16]) -> Board {
    board::from_exps(&values.map(|v| board::exponent(v).unwrap()))
}

/// Checks one board in every direction against the reference, and the table path against
/// the slow path wherever the board is ordinary.
fn check_board(b: Board) {
    let t = board::tables();
    let grid = values_of(b);
    assert_eq!(board_of(&grid), b, "values round-trip");
    for dir in Dir::ALL {
        let (want, want_gain) = reference_move(&grid, dir);
        let got = t.slide(b, dir);
        assert_eq!(values_of(got), want, "board {grid:?} {dir:?}");
        assert_eq!(t.gain(b, dir), want_gain, "gain of board {grid:?} {dir:?}");
        assert_eq!(board::slow_slide(b, dir), (got, want_gain));
        if b.is_ordinary() {
            assert_eq!(
                t.slide_cells(b.cells(), dir),
                got.cells(),
                "{grid:?} {dir:?}"
            );
        }
    }
}

#[test]
fn every_row_in_every_direction_matches_the_reference() {
    let mut checked = 0u64;
    for w in 0..=0xFFFFu64 {
        // Row 0 is the row under test; the other rows are other rows, so whole boards differ.
        let other = |m: u64| (w.wrapping_mul(m) ^ (m >> 3)) & 0xFFFF;
        let rows = w | other(40503) << 16 | other(2654435761) << 32 | other(97) << 48;
        // The same lines as columns, for up and down.
        for b in [rows, board::transpose(rows)] {
            check_board(Board::from_cells(b));
            checked += 1;
        }
    }
    assert_eq!(checked, 65536 * 2);
}

#[test]
fn row_tables_alone_match_the_reference_for_each_row() {
    // Every one of the 65,536 nibble rows placed alone as row 0 and as column 0.
    for w in 0..=0xFFFFu64 {
        for b in [w, board::transpose(w)] {
            check_board(Board::from_cells(b));
        }
    }
}

#[test]
fn every_line_up_to_131072_matches_the_reference() {
    // Every line of four exponents 0…17 (18^4 = 104,976), alone and beside other big tiles,
    // as a row and as a column, in every direction: the full rules' whole range, through
    // both the table path (ordinary boards) and the slow path.
    let mut ordinary = 0u32;
    let mut slow = 0u32;
    for n in 0..18u32.pow(4) {
        let line: [u8; 4] = std::array::from_fn(|k| (n / 18u32.pow(k as u32) % 18) as u8);
        let mut alone = [0u8; 16];
        alone[..4].copy_from_slice(&line);
        // Another row with a 32,768 and a 65,536, so two big tiles meet in columns too.
        let mut crowded = alone;
        crowded[4 + (n as usize % 4)] = 15;
        crowded[8 + (n as usize / 7 % 4)] = 16;
        crowded[12] = (n % 5) as u8 + 13;
        for exps in [alone, crowded] {
            let b = board::from_exps(&exps);
            assert_eq!(board::to_exps(b), exps);
            let cols: [u8; 16] = std::array::from_fn(|i| exps[(i % 4) * 4 + i / 4]);
            for b in [b, board::from_exps(&cols)] {
                if b.is_ordinary() {
                    ordinary += 1;
                } else {
                    slow += 1;
                }
                check_board(b);
            }
        }
    }
    assert!(ordinary > 50_000 && slow > 200_000, "{ordinary} {slow}");
}

/// A game on a board past 2048, already kept going.
fn big_game(body: &str) -> G2048 {
    let mut g = game(body);
    g.apply(&Move::KeepGoing).unwrap();
    g
}

#[test]
fn two_32768s_merge_into_65536_and_up_to_131072() {
    let mut g = big_game("32768,32768,0,0,0,0,0,0,0,0,0,0,0,0,0,0");
    let e = g.apply(&Move::Slide(Dir::Left)).unwrap();
    assert_eq!(e.gained, 65536);
    assert_eq!(without_spawn(&g, &e)[0], 65536);
    assert_eq!(g.max_tile(), 65536);
    assert_eq!(g.counters()["max_tile"], 65536);
    assert!(e
        .tiles
        .iter()
        .all(|t| t.merged && t.to == 0 && t.value == 32768));
    let body = g.board_body();
    assert!(body.starts_with("65536,"), "{body}");
    // The body is a game ID again, and a code carries it.
    let back = G2048::from_id(&body, None).unwrap();
    assert_eq!(back.board(), g.board());
    let id = format!("2048:{body}#4");
    let code = huarong_engine::code::encode(&id).unwrap();
    assert_eq!(huarong_engine::code::decode(&code).unwrap(), id);
    // 65,536 + 65,536 = 131,072, the largest tile; two of those stay apart.
    let mut g = big_game("65536,65536,32768,32768,0,0,0,0,0,0,0,0,0,0,0,0");
    let e = g.apply(&Move::Slide(Dir::Right)).unwrap();
    assert_eq!(e.gained, 131072 + 65536);
    assert_eq!(&without_spawn(&g, &e)[..4], &[0, 0, 131072, 65536]);
    let g = big_game("131072,131072,0,0,0,0,0,0,0,0,0,0,0,0,0,0");
    assert_eq!(g.max_tile(), 131072);
    let mut g2 = g.clone();
    let e = g2.apply(&Move::Slide(Dir::Right)).unwrap();
    assert_eq!(e.gained, 0);
    assert_eq!(&without_spawn(&g2, &e)[2..4], &[131072, 131072]);
    // Out of range values are refused.
    assert!(G2048::from_id("262144,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", None).is_err());
}

#[test]
fn session_and_ai_play_on_boards_with_big_tiles() {
    let mut s =
        Session::<G2048>::open("2048:32768,16384,8192,4096,2,4,8,32768,0,0,0,0,0,0,0,0#1").unwrap();
    s.play(&Move::KeepGoing, 0).unwrap();
    let mut played = 0;
    while s.status() == Status::Playing && played < 60 {
        let h = s.current().hint(&Cancel::new()).unwrap();
        s.play(&h.mv, 0).unwrap();
        played += 1;
    }
    assert!(played > 0);
    let saved = s.save(0);
    let r = Session::<G2048>::restore(&saved).unwrap();
    assert_eq!(r.current(), s.current());
    // A fixed-depth search on a board with a 65,536 and a 131,072 gives a moving direction.
    let b = board_of(&[131072, 65536, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
    let c = huarong_engine::g2048::ai::best_move(
        b,
        huarong_engine::g2048::ai::Budget::Depth(2),
        &Cancel::new(),
    )
    .unwrap();
    assert_ne!(board::tables().slide(b, c.dir), b);
    assert!(c.positions > 10);
}

// ---------------------------------------------------------------------------------------
// The seed article's invariants.
// ---------------------------------------------------------------------------------------

fn game(body: &str) -> G2048 {
    G2048::from_id(body, Some(5)).unwrap()
}

/// The board after `mv` with the spawned tile taken away again.
fn without_spawn(g: &G2048, e: &Effect) -> [u32; 16] {
    let mut v = g.values();
    let s = e.spawn.expect("a move that changes the board spawns");
    assert_eq!(v[s.cell as usize], s.value);
    assert!(s.value == 2 || s.value == 4);
    v[s.cell as usize] = 0;
    v
}

#[test]
fn a_new_tile_does_not_merge_again_in_the_same_move() {
    let mut g = game("2,2,2,2,0,0,0,0,0,0,0,0,0,0,0,0");
    let e = g.apply(&Move::Slide(Dir::Left)).unwrap();
    assert_eq!(e.gained, 8);
    assert_eq!(&without_spawn(&g, &e)[..4], &[4, 4, 0, 0]);
    assert_eq!(g.score(), 8);

    let mut g = game("2,2,4,0,0,0,0,0,0,0,0,0,0,0,0,0");
    let e = g.apply(&Move::Slide(Dir::Left)).unwrap();
    assert_eq!(e.gained, 4);
    assert_eq!(&without_spawn(&g, &e)[..4], &[4, 4, 0, 0]);

    // The same in the other directions (a column, a reversed row).
    let mut g = game("0,0,0,2,0,0,0,2,0,0,0,2,0,0,0,2");
    let e = g.apply(&Move::Slide(Dir::Down)).unwrap();
    let v = without_spawn(&g, &e);
    assert_eq!([v[3], v[7], v[11], v[15]], [0, 0, 4, 4]);
    let mut g = game("0,4,2,2,0,0,0,0,0,0,0,0,0,0,0,0");
    let e = g.apply(&Move::Slide(Dir::Right)).unwrap();
    assert_eq!(&without_spawn(&g, &e)[..4], &[0, 0, 4, 4]);
    assert_eq!(e.gained, 4);
}

#[test]
fn tile_sum_is_preserved_by_slides_and_grows_by_the_spawn() {
    let mut s = Session::<G2048>::open("2048#11").unwrap();
    let mut i = 0usize;
    while s.status() == Status::Playing && i < 3000 {
        let before: u32 = s.current().values().iter().sum();
        let dir = Dir::ALL[(i * 7 + i / 5) % 4];
        i += 1;
        match s.play(&Move::Slide(dir), 0) {
            Ok(e) => {
                let without: u32 = without_spawn(s.current(), &e).iter().sum();
                assert_eq!(without, before);
                let after: u32 = s.current().values().iter().sum();
                assert_eq!(after, before + e.spawn.unwrap().value);
            }
            Err(err) => assert_eq!(err.code, ErrorCode::IllegalMove),
        }
    }
    assert!(s.current().moves() > 50);
}

#[test]
fn a_move_that_changes_nothing_spawns_nothing_and_leaves_undo_alone() {
    // Everything packed to the left with no equal neighbours in a row: left changes nothing.
    let mut s = Session::<G2048>::open("2048:2,4,0,0,8,0,0,0,0,0,0,0,0,0,0,0#9").unwrap();
    let noop_of = |s: &Session<G2048>| {
        let b = s.current().board();
        Dir::ALL
            .into_iter()
            .find(|&d| board::tables().slide(b, d) == b)
    };
    s.play(&Move::Slide(Dir::Right), 0).unwrap();
    let mut i = 0;
    while noop_of(&s).is_none() {
        s.play(&Move::Slide(Dir::ALL[i % 4]), 0).ok();
        i += 1;
        assert!(i < 100, "no position with a no-op direction");
    }
    let noop = noop_of(&s).unwrap();
    let moves = s.current().moves();
    let saved = s.save(0);
    let state = s.current().clone();
    let err = s.play(&Move::Slide(noop), 0).unwrap_err();
    assert_eq!(err.code, ErrorCode::IllegalMove);
    assert_eq!(err.message, "nothing moves that way");
    assert_eq!(s.save(0), saved, "the session recorded nothing");
    assert_eq!(
        s.current(),
        &state,
        "board, score, moves and the spawn generator unchanged"
    );
    // Undo still goes back to the position before the last real move.
    s.undo(0).unwrap();
    assert_eq!(s.current().moves(), moves - 1);

    // On the bare game too.
    let mut g = game("2,4,0,0,0,0,0,0,0,0,0,0,0,0,0,0");
    let before = g.clone();
    assert_eq!(
        g.apply(&Move::Slide(Dir::Left)).unwrap_err().code,
        ErrorCode::IllegalMove
    );
    assert_eq!(
        g.apply(&Move::Slide(Dir::Up)).unwrap_err().code,
        ErrorCode::IllegalMove
    );
    assert_eq!(g, before);
}

#[test]
fn a_full_board_is_over_only_without_equal_neighbours() {
    let lost = "2,4,2,4,4,2,4,2,2,4,2,4,4,2,4,2";
    assert_eq!(game(lost).status(), Status::Lost);
    // One equal pair horizontally.
    let h = "2,4,2,4,4,2,4,2,2,4,2,4,4,2,2,8";
    assert_eq!(game(h).status(), Status::Playing);
    // One equal pair vertically.
    let v = "2,4,2,4,4,2,4,2,2,4,8,4,4,2,8,2";
    assert_eq!(game(v).status(), Status::Playing);
    // The end of one row and the start of the next are not neighbours.
    let wrap = "2,4,2,8,8,2,4,2,2,4,2,4,4,2,4,2";
    let g = game(wrap);
    assert_eq!(
        g.status(),
        Status::Lost,
        "row 0's last 8 and row 1's first 8 are not adjacent"
    );
    // The playing full board really has a move, and after it the game continues.
    let mut g = game(v);
    assert!(g.apply(&Move::Slide(Dir::Up)).is_ok());
    assert_eq!(g.counters()["score"], 16);
}

// ---------------------------------------------------------------------------------------
// Win, keep going, lose.
// ---------------------------------------------------------------------------------------

#[test]
fn win_then_keep_going() {
    let mut s = Session::<G2048>::open("2048:1024,1024,0,0,0,0,0,0,0,0,0,0,0,0,0,0#3").unwrap();
    assert_eq!(s.status(), Status::Playing);
    assert_eq!(
        s.play(&Move::KeepGoing, 0).unwrap_err().code,
        ErrorCode::IllegalMove,
        "keep going before 2048"
    );
    s.play(&Move::Slide(Dir::Left), 0).unwrap();
    assert_eq!(s.status(), Status::Won);
    assert!(s.current().reached_2048());
    assert_eq!(s.current().counters()["max_tile"], 2048);
    assert_eq!(
        s.play(&Move::Slide(Dir::Right), 0).unwrap_err().code,
        ErrorCode::IllegalMove
    );
    let e = s.play(&Move::KeepGoing, 0).unwrap();
    assert!(e.tiles.is_empty() && e.spawn.is_none() && e.gained == 0);
    assert_eq!(s.status(), Status::Playing);
    assert!(s.current().kept_going());
    assert_eq!(s.current().moves(), 1, "keep going is not a move");
    assert_eq!(
        s.play(&Move::KeepGoing, 0).unwrap_err().code,
        ErrorCode::IllegalMove
    );
    s.play(&Move::Slide(Dir::Right), 0).unwrap();
    // Undo back over keep going gives the won position again.
    s.undo(0).unwrap();
    s.undo(0).unwrap();
    assert_eq!(s.status(), Status::Won);
    s.redo(0).unwrap();
    assert_eq!(s.status(), Status::Playing);
    // Save and restore replays keep going.
    let saved = s.save(0);
    let json = serde_json::to_string(&saved).unwrap();
    assert!(json.contains(r#"{"keep_going":true}"#), "{json}");
    let r = Session::<G2048>::restore(&serde_json::from_str(&json).unwrap()).unwrap();
    assert_eq!(r.current(), s.current());
    assert_eq!(r.save(0), saved);
}

#[test]
fn a_board_that_already_holds_2048_starts_won() {
    let g = game("2048,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2");
    assert_eq!(g.status(), Status::Won);
}

// ---------------------------------------------------------------------------------------
// Reproducibility.
// ---------------------------------------------------------------------------------------

const FIXED: [Dir; 12] = [
    Dir::Left,
    Dir::Up,
    Dir::Right,
    Dir::Down,
    Dir::Left,
    Dir::Left,
    Dir::Up,
    Dir::Up,
    Dir::Right,
    Dir::Down,
    Dir::Left,
    Dir::Up,
];

fn play_fixed(id: &str) -> (Session<G2048>, Vec<(u8, u32)>) {
    let mut s = Session::<G2048>::open(id).unwrap();
    let mut spawns = Vec::new();
    for d in FIXED {
        if let Ok(e) = s.play(&Move::Slide(d), 0) {
            let sp = e.spawn.unwrap();
            spawns.push((sp.cell, sp.value));
        }
    }
    (s, spawns)
}

#[test]
fn seeded_games_are_pinned() {
    // Golden values: if these change, every seeded 2048 game and daily challenge changes.
    let s = Session::<G2048>::open("2048#1").unwrap();
    assert_eq!(s.current().board_body(), GOLDEN_START);
    let (s, spawns) = play_fixed("2048:#1");
    assert_eq!(spawns, GOLDEN_SPAWNS);
    assert_eq!(s.current().board_body(), GOLDEN_AFTER);
    assert_eq!(s.current().score(), GOLDEN_SCORE);
    // The two spellings of the ID are the same game; other seeds differ.
    assert_eq!(play_fixed("2048#1").0.current(), s.current());
    assert_ne!(play_fixed("2048#2").0.current().board_body(), GOLDEN_AFTER);
    // An exact board without a seed is deterministic too (seeded by the body's hash).
    let a = play_fixed("2048:2,0,0,0,0,0,0,0,0,0,0,0,0,0,2,0").0;
    let b = play_fixed("2048:2, 0,0,0, 0,0,0,0,0,0,0,0,0,0,2,0").0;
    assert_eq!(a.current(), b.current());
}

const GOLDEN_START: &str = "0,0,2,0,0,0,0,0,0,0,0,0,2,0,0,0";
const GOLDEN_AFTER: &str = "2,2,4,0,4,16,0,2,2,0,0,0,4,0,0,0";
const GOLDEN_SPAWNS: [(u8, u32); 12] = [
    (14, 4),
    (6, 4),
    (10, 2),
    (0, 4),
    (5, 2),
    (2, 2),
    (13, 2),
    (14, 2),
    (12, 4),
    (8, 2),
    (1, 2),
    (7, 2),
];
const GOLDEN_SCORE: u64 = 44;

#[test]
fn the_start_has_two_tiles_of_2_or_4() {
    for seed in 0..200 {
        let g = G2048::new(seed);
        let tiles: Vec<u32> = g.values().iter().copied().filter(|&v| v != 0).collect();
        assert_eq!(tiles.len(), 2, "seed {seed}");
        assert!(tiles.iter().all(|&v| v == 2 || v == 4));
    }
}

#[test]
fn spawns_are_2_nine_times_in_ten_and_in_every_empty_cell() {
    let mut fours = 0;
    let mut cells = [0u32; 16];
    let total = 20_000;
    for seed in 0..total / 2 {
        let g = G2048::new(seed);
        for (i, v) in g.values().iter().enumerate() {
            if *v != 0 {
                cells[i] += 1;
                fours += (*v == 4) as u32;
            }
        }
    }
    let p = fours as f64 / total as f64;
    assert!((0.085..0.115).contains(&p), "share of 4s {p}");
    assert!(cells.iter().all(|&c| c > 1000 && c < 1500), "{cells:?}");
}

// ---------------------------------------------------------------------------------------
// Undo / redo through the session.
// ---------------------------------------------------------------------------------------

#[test]
fn undo_restores_the_spawn_sequence() {
    let mut s = Session::<G2048>::open("2048#77").unwrap();
    s.play(&Move::Slide(Dir::Left), 0).unwrap();
    let before = s.current().clone();
    let first = s.play(&Move::Slide(Dir::Up), 0).unwrap();
    let after = s.current().clone();
    s.undo(0).unwrap();
    assert_eq!(s.current(), &before);
    assert!(s.undo_used());
    let again = s.play(&Move::Slide(Dir::Up), 0).unwrap();
    assert_eq!(
        again, first,
        "the same move after undo gives the same spawn"
    );
    assert_eq!(s.current(), &after);
    // Redo reaches the same position as playing.
    s.undo(0).unwrap();
    s.redo(0).unwrap();
    assert_eq!(s.current(), &after);
    // A different move after undo draws from the same generator state.
    s.undo(0).unwrap();
    let other = s.play(&Move::Slide(Dir::Right), 0);
    if let Ok(e) = other {
        assert_eq!(s.current().moves(), 2);
        assert!(e.spawn.is_some());
    }
    assert!(!s.can_redo());
    // Restart goes to the start and is undoable.
    s.restart(0);
    assert_eq!(s.current(), s.start());
    s.undo(0).unwrap();
    assert_eq!(s.current().moves(), 2);
}

#[test]
fn undo_can_be_switched_off() {
    let mut s = Session::<G2048>::open("2048#5").unwrap();
    s.set_undo_allowed(false);
    s.play(&Move::Slide(Dir::Left), 0).ok();
    s.play(&Move::Slide(Dir::Up), 0).ok();
    assert_eq!(s.undo(0).unwrap_err().code, ErrorCode::Unsupported);
    assert!(!s.undo_used());
}

#[test]
fn save_and_restore_replay_the_same_game() {
    let (mut s, _) = play_fixed("2048#1234");
    s.undo(0).unwrap();
    let saved = s.save(500);
    let r = Session::<G2048>::restore(&saved).unwrap();
    assert_eq!(r.current(), s.current());
    assert_eq!(r.can_redo(), s.can_redo());
}

// ---------------------------------------------------------------------------------------
// Effects, counters, hint, solve.
// ---------------------------------------------------------------------------------------

#[test]
fn effects_rebuild_the_new_board() {
    let mut s = Session::<G2048>::open("2048#21").unwrap();
    for i in 0..400 {
        if s.status() != Status::Playing {
            break;
        }
        let before = s.current().values();
        let Ok(e) = s.play(&Move::Slide(Dir::ALL[(i * 3 + i / 7) % 4]), 0) else {
            continue;
        };
        let mut rebuilt = [0u32; 16];
        let mut from_seen = [false; 16];
        for t in &e.tiles {
            assert_eq!(before[t.from as usize], t.value);
            assert!(!from_seen[t.from as usize]);
            from_seen[t.from as usize] = true;
            rebuilt[t.to as usize] += t.value;
        }
        assert_eq!(e.tiles.len(), before.iter().filter(|&&v| v != 0).count());
        assert_eq!(e.tiles.iter().filter(|t| t.merged).count() % 2, 0);
        let merged_value: u32 = e.tiles.iter().filter(|t| t.merged).map(|t| t.value).sum();
        assert_eq!(merged_value, e.gained);
        let sp = e.spawn.unwrap();
        rebuilt[sp.cell as usize] = sp.value;
        assert_eq!(rebuilt, s.current().values());
    }
}

#[test]
fn counters_and_body() {
    let mut g = game("2,2,0,0,0,0,0,0,0,0,0,0,0,0,0,4");
    g.apply(&Move::Slide(Dir::Left)).unwrap();
    let c = g.counters();
    assert_eq!(c["moves"], 1);
    assert_eq!(c["score"], 4);
    assert_eq!(c["max_tile"], 4);
    assert_eq!(g.moves(), 1);
    let body = g.board_body();
    assert_eq!(body.split(',').count(), 16);
    let back = G2048::from_id(&body, None).unwrap();
    assert_eq!(back.board(), g.board());
}

#[test]
fn hint_gives_a_moving_direction_and_values_and_solve_is_unsupported() {
    let g = game("2,4,0,0,8,0,0,0,0,0,0,0,0,0,0,0");
    let h = g.hint(&Cancel::new()).unwrap();
    assert!(!h.optimal && h.line.is_empty());
    let values = h.values.unwrap();
    assert_eq!(
        values.len(),
        2,
        "left and up change nothing, so they have no value: {values:?}"
    );
    assert!(values.iter().all(|(d, _)| d == "right" || d == "down"));
    let Move::Slide(dir) = h.mv else {
        panic!("hint is a direction")
    };
    assert!(values.iter().any(|(d, _)| d == dir.as_str()));
    let best = values.iter().map(|(_, v)| *v).fold(f64::MIN, f64::max);
    assert_eq!(
        values.iter().find(|(d, _)| d == dir.as_str()).unwrap().1,
        best
    );
    assert_eq!(
        g.solve(&Cancel::new()).unwrap_err().code,
        ErrorCode::Unsupported
    );
    let c = Cancel::new();
    c.cancel();
    assert_eq!(g.hint(&c).unwrap_err().code, ErrorCode::Cancelled);
}

// ---------------------------------------------------------------------------------------
// Parse errors.
// ---------------------------------------------------------------------------------------

#[test]
fn bad_ids_are_errors_with_reasons() {
    let fail = |id: &str| {
        let e = Session::<G2048>::open(id).unwrap_err();
        (e.code, e.message)
    };
    assert_rejects(
        ErrorCode::Parse,
        &[
            ("2048:", "needs a seed"),
            ("2048:1,2,3", "got 3"),
            ("2048:2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2", "got 17"),
            ("2048:3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", "power of two"),
            ("2048:1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", "cell 1"),
            ("2048:0,262144,0,0,0,0,0,0,0,0,0,0,0,0,0,0", "cell 2"),
            ("2048:0,0,-2,0,0,0,0,0,0,0,0,0,0,0,0,0", "cell 3"),
            ("2048:0,0,0,x,0,0,0,0,0,0,0,0,0,0,0,0", "not a tile value"),
            ("2048:0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", "at least one tile"),
            ("2048:4x4#3", "16 comma-separated"),
            ("2048:#abc", "seed"),
            ("slide:2,0#1", "not 2048"),
        ],
        fail,
    );
    let long = format!("2048:{}", "2,".repeat(150));
    assert!(Session::<G2048>::open(&long).is_err());
    assert!(G2048::from_id(&"2,".repeat(150), None).is_err());
}
