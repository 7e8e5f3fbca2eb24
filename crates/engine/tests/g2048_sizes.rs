//! 2048 on every board size, 3×3 … 8×8: the 4×4's invariants on each size, seeded
//! games reproducible per size, the win tile from the registry, share codes round-tripping,
//! bad sizes refused with clear errors.

use huarong_engine::code;
use huarong_engine::g2048::board::{exponent, Dir};
use huarong_engine::g2048::{Effect, Move, G2048};
use huarong_engine::registry::{g2048_win_tile, G2048_WIN_TILES};
use huarong_engine::{Cancel, ErrorCode, Game, Session, Status};

const SIDES: [u8; 6] = [3, 4, 5, 6, 7, 8];

/// The game ID of a fresh game: `2048#s` for the 4×4 (its one ID), `2048:5x5#s` …
fn id(side: u8, seed: u64) -> String {
    if side == 4 {
        format!("2048:#{seed}")
    } else {
        format!("2048:{side}x{side}#{seed}")
    }
}

/// The board after the move's slide, before the spawn: the effect's tiles at their targets.
fn without_spawn(g: &G2048, e: &Effect) -> Vec<u32> {
    let mut v = g.cells();
    if let Some(sp) = e.spawn {
        assert_eq!(v[sp.cell as usize], sp.value, "the spawn is on the board");
        v[sp.cell as usize] = 0;
    }
    v
}

/// A line of merges by hand: each tile merges at most once (the rule, written plainly).
fn slide_line(line: &[u32]) -> (Vec<u32>, u32) {
    let tiles: Vec<u32> = line.iter().copied().filter(|&v| v != 0).collect();
    let (mut out, mut gained, mut i) = (Vec::new(), 0, 0);
    while i < tiles.len() {
        if i + 1 < tiles.len() && tiles[i] == tiles[i + 1] && tiles[i] < 131_072 {
            out.push(tiles[i] * 2);
            gained += tiles[i] * 2;
            i += 2;
        } else {
            out.push(tiles[i]);
            i += 1;
        }
    }
    out.resize(line.len(), 0);
    (out, gained)
}

/// The whole board slid by hand, row by row or column by column.
fn slide_by_hand(cells: &[u32], n: usize, dir: Dir) -> (Vec<u32>, u32) {
    let mut out = vec![0; n * n];
    let mut gained = 0;
    for k in 0..n {
        let idx: Vec<usize> = (0..n)
            .map(|j| match dir {
                Dir::Left => n * k + j,
                Dir::Right => n * k + n - 1 - j,
                Dir::Up => n * j + k,
                Dir::Down => n * (n - 1 - j) + k,
            })
            .collect();
        let line: Vec<u32> = idx.iter().map(|&c| cells[c]).collect();
        let (moved, g) = slide_line(&line);
        gained += g;
        for (j, &c) in idx.iter().enumerate() {
            out[c] = moved[j];
        }
    }
    (out, gained)
}

/// Plays a long pseudo-random game of one size, checking after every move: the slide is the
/// hand-written rule (one merge per tile per move), a spawn comes exactly when the board
/// changed, the score grows by the merges, and the game is over exactly when no direction
/// changes the board.
fn check_invariants(side: u8, seed: u64) -> u32 {
    let n = side as usize;
    let mut s = Session::<G2048>::open(&id(side, seed)).unwrap();
    assert_eq!(s.current().side(), side);
    assert_eq!(s.current().cells().len(), n * n);
    assert_eq!(
        s.current().cells().iter().filter(|&&v| v != 0).count(),
        2,
        "two starting tiles"
    );
    // The small boards are played to their end; the big ones last thousands of moves (their
    // ends are checked on built boards: `game_over_exactly_when_nothing_moves`).
    let limit = if side <= 5 { 20_000 } else { 1_500 };
    let mut i = 0u64;
    while i < limit {
        let g = s.current().clone();
        let any_moves = Dir::ALL
            .iter()
            .any(|&d| slide_by_hand(&g.cells(), n, d).0 != g.cells());
        match g.status() {
            Status::Lost => {
                assert!(!any_moves, "{side}: lost while a direction moves");
                break;
            }
            Status::Won => {
                assert!(g.max_tile() >= g.win_tile());
                s.play(&Move::KeepGoing, 0).unwrap();
                continue;
            }
            Status::Playing => assert!(any_moves, "{side}: playing with no move"),
        }
        // Mostly a corner strategy (long games), sometimes another direction.
        let dir = if i % 11 == 10 {
            Dir::ALL[(i / 11 % 4) as usize]
        } else {
            [Dir::Down, Dir::Left, Dir::Right, Dir::Up][(i % 3) as usize]
        };
        i += 1;
        let (want, gained) = slide_by_hand(&g.cells(), n, dir);
        let score = g.score();
        match s.play(&Move::Slide(dir), 0) {
            Ok(e) => {
                assert_ne!(
                    want,
                    g.cells(),
                    "{side}: a move that changes nothing was played"
                );
                assert_eq!(without_spawn(s.current(), &e), want, "{side} {dir:?}");
                assert_eq!(e.gained, gained);
                assert_eq!(s.current().score(), score + gained as u64);
                let sp = e.spawn.expect("a move that changed the board spawns");
                assert!(sp.value == 2 || sp.value == 4);
                assert_eq!(want[sp.cell as usize], 0, "spawned on an empty cell");
                // Each tile in the effect went to a cell of its line; merged pairs share one.
                assert_eq!(e.tiles.len(), g.cells().iter().filter(|&&v| v != 0).count());
            }
            Err(err) => {
                assert_eq!(err.code, ErrorCode::IllegalMove);
                assert_eq!(
                    want,
                    g.cells(),
                    "{side}: a move that changes the board refused"
                );
                assert_eq!(s.current(), &g, "nothing spawned, nothing changed");
            }
        }
    }
    if side <= 5 {
        assert_eq!(s.status(), Status::Lost, "{side}: the game ends");
    }
    s.current().moves()
}

#[test]
fn game_over_exactly_when_nothing_moves() {
    for side in SIDES {
        let n = side as usize;
        // A full board with no equal neighbours: 2^(1 + (r + 2c) mod 6)… never equal beside.
        let cells: Vec<u32> = (0..n * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                1u32 << (1 + (r + 2 * c) % 4 + 4 * ((r + c) % 2))
            })
            .collect();
        for r in 0..n {
            for c in 0..n {
                let v = cells[r * n + c];
                assert!(c + 1 == n || cells[r * n + c + 1] != v);
                assert!(r + 1 == n || cells[(r + 1) * n + c] != v);
            }
        }
        let body: Vec<String> = cells.iter().map(u32::to_string).collect();
        let g = G2048::from_id(&body.join(","), Some(1)).unwrap();
        assert_eq!(g.status(), Status::Lost, "{side}");
        for d in Dir::ALL {
            let e = g.clone().apply(&Move::Slide(d)).unwrap_err();
            assert_eq!(e.code, ErrorCode::IllegalMove);
        }
        // One equal pair in the last row: playing, and only the directions along it move.
        let mut pair = cells.clone();
        pair[n * n - 1] = pair[n * n - 2];
        let body: Vec<String> = pair.iter().map(u32::to_string).collect();
        let g = G2048::from_id(&body.join(","), Some(1)).unwrap();
        if g.max_tile() < g.win_tile() || g.kept_going() || g.status() == Status::Playing {
            assert_ne!(g.status(), Status::Lost, "{side}: a pair to merge");
        }
        // An empty cell: playing.
        let mut hole = cells.clone();
        hole[0] = 0;
        let body: Vec<String> = hole.iter().map(u32::to_string).collect();
        let g = G2048::from_id(&body.join(","), Some(1)).unwrap();
        assert_ne!(g.status(), Status::Lost, "{side}: an empty cell");
    }
}

#[test]
fn every_size_keeps_the_rules() {
    for side in SIDES {
        for seed in [1u64, 2] {
            let moves = check_invariants(side, seed);
            assert!(moves > 10, "{side}: {moves} moves");
        }
    }
}

#[test]
fn seeded_games_repeat_per_size_and_differ_between_sizes_and_seeds() {
    let play = |id: &str| {
        let mut s = Session::<G2048>::open(id).unwrap();
        let mut spawns = Vec::new();
        for k in 0..200usize {
            if s.status() != Status::Playing {
                break;
            }
            if let Ok(e) = s.play(&Move::Slide(Dir::ALL[(k * 5 + k / 3) % 4]), 0) {
                spawns.push(e.spawn.map(|sp| (sp.cell, sp.value)));
            }
        }
        (s.current().board_body(), s.current().score(), spawns)
    };
    for side in SIDES {
        let a = play(&id(side, 42));
        assert_eq!(
            a,
            play(&id(side, 42)),
            "{side}: the same seed, the same game"
        );
        assert_ne!(a, play(&id(side, 43)), "{side}: another seed, another game");
        assert_eq!(a.0.split(',').count(), side as usize * side as usize);
    }
    // The 4×4 keeps its one ID: `2048#s`, the game of before.
    assert_eq!(play("2048#42"), play("2048:#42"));
    assert_eq!(G2048::new_sized(4, 42).unwrap(), G2048::new(42));
    // The first spawns of a 5×5 game are pinned: if they change, every seeded 5×5 game does.
    let g = G2048::from_id("5x5", Some(1)).unwrap();
    assert_eq!(g.board_body(), G5_START);
}

const G5_START: &str = "2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2,0,0,0,0,0,0,0,0,0";

#[test]
fn the_win_tile_comes_from_the_registry_and_keep_going_follows() {
    assert_eq!(g2048_win_tile(3), Some(256));
    for side in 4..=8 {
        assert_eq!(g2048_win_tile(side), Some(2048));
    }
    assert_eq!(g2048_win_tile(2), None);
    assert_eq!(G2048_WIN_TILES.len(), SIDES.len());
    // A 3×3 one merge away from 256: the merge wins, keep going plays on.
    let mut s = Session::<G2048>::open("2048:128,128,0,0,0,0,0,0,0#3").unwrap();
    assert_eq!(s.current().win_tile(), 256);
    s.play(&Move::Slide(Dir::Left), 0).unwrap();
    assert_eq!(s.status(), Status::Won);
    assert_eq!(s.current().max_tile(), 256);
    assert!(s.play(&Move::Slide(Dir::Right), 0).is_err());
    let e = s
        .current()
        .clone()
        .apply(&Move::Slide(Dir::Right))
        .unwrap_err();
    assert!(e.message.contains("256 reached"), "{}", e.message);
    s.play(&Move::KeepGoing, 0).unwrap();
    assert_eq!(s.status(), Status::Playing);
    // A 5×5 at 1024+1024 wins at 2048, not before.
    let body = format!("1024,1024,512,512{}", ",0".repeat(21));
    let mut s = Session::<G2048>::open(&format!("2048:{body}#1")).unwrap();
    assert_eq!(s.current().win_tile(), 2048);
    assert_eq!(s.status(), Status::Playing);
    s.play(&Move::Slide(Dir::Left), 0).unwrap();
    assert_eq!(s.status(), Status::Won);
    let view = s.current().view(s.start());
    assert_eq!(view["size"], 5);
    assert_eq!(view["win"], 2048);
    assert_eq!(view["cells"].as_array().unwrap().len(), 25);
}

#[test]
fn boards_of_every_size_parse_and_the_hint_moves() {
    for side in SIDES {
        let n = side as usize * side as usize;
        let mut cells = vec!["0"; n];
        cells[0] = "2";
        cells[1] = "2";
        cells[n - 1] = "8";
        let body = cells.join(",");
        let g = G2048::from_id(&body, Some(9)).unwrap();
        assert_eq!(g.side(), side);
        assert_eq!(g.board_body(), body);
        let h = g.hint(&Cancel::new()).unwrap();
        assert!(matches!(h.mv, Move::Slide(_)));
        let values = h.values.unwrap();
        assert_eq!(values.len(), 4, "{side}: every direction moves");
        // The 4×4 keeps its bitboard: `board()` holds it; the other sizes are grids.
        assert_eq!(g.grid().is_none(), side == 4);
    }
}

#[test]
fn bad_sizes_are_refused_with_clear_errors() {
    for (id, code, words) in [
        ("2048:2x2#1", ErrorCode::OutOfRange, "3x3 … 8x8, not 2x2"),
        ("2048:9x9#1", ErrorCode::OutOfRange, "3x3 … 8x8, not 9x9"),
        ("2048:5x4#1", ErrorCode::OutOfRange, "square"),
        (
            "2048:4x4#1",
            ErrorCode::Parse,
            "the 4x4 game ID is 2048#<seed>",
        ),
        ("2048:300x300#1", ErrorCode::OutOfRange, "out of range"),
        ("2048:5x5", ErrorCode::Parse, "needs a seed"),
        (
            "2048:2,2,2,2,2#1",
            ErrorCode::Parse,
            "9, 16, 25, 36, 49 or 64",
        ),
        ("2048:3,0,0,0,0,0,0,0,0", ErrorCode::Parse, "power of two"),
        (
            "2048:0,0,0,0,0,0,0,0,0",
            ErrorCode::Parse,
            "at least one tile",
        ),
    ] {
        let e = Session::<G2048>::open(id).unwrap_err();
        assert_eq!(e.code, code, "{id}: {}", e.message);
        assert!(e.message.contains(words), "{id}: {}", e.message);
    }
    assert!(exponent(256).is_some());
}

#[test]
fn share_codes_of_every_size_round_trip() {
    for side in SIDES {
        for seed in [0u64, 7, u64::MAX] {
            let id = id(side, seed);
            let c = code::encode(&id).unwrap();
            assert!(c.len() <= 160, "{id}: {} chars", c.len());
            let back = code::decode(&c).unwrap();
            assert_eq!(back, id, "{id} → {c}");
            let a = Session::<G2048>::open(&id).unwrap();
            let b = Session::<G2048>::open(&back).unwrap();
            assert_eq!(a.current(), b.current());
        }
        // A board played on, with its seed: the exact board and its spawns travel.
        let mut s = Session::<G2048>::open(&id(side, 5)).unwrap();
        for k in 0..30usize {
            let _ = s.play(&Move::Slide(Dir::ALL[k % 4]), 0);
        }
        let body = s.current().board_body();
        let exact = format!("2048:{body}#11");
        let back = code::decode(&code::encode(&exact).unwrap()).unwrap();
        assert_eq!(back, exact);
        let plain = format!("2048:{body}");
        let back = code::decode(&code::encode(&plain).unwrap()).unwrap();
        assert_eq!(back, plain);
    }
}

#[test]
fn result_codes_with_a_move_log_replay_on_a_5x5() {
    let id = id(5, 3);
    let mut s = Session::<G2048>::open(&id).unwrap();
    let mut log = Vec::new();
    let mut k = 0usize;
    while s.status() == Status::Playing && k < 5_000 {
        let mv = Move::Slide(
            [Dir::Down, Dir::Left, Dir::Right, Dir::Up][k % 3 + (k % 17 == 16) as usize],
        );
        k += 1;
        if s.play(&mv, 0).is_ok() {
            log.push(serde_json::to_value(mv).unwrap());
        }
    }
    let packed = code::pack_log(&id, &log).unwrap();
    let back = code::unpack_log(&id, &packed).unwrap();
    assert_eq!(back, log);
}
