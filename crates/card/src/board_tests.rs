//! The board on the card (issues 26, 32): the puzzle a friend gets (the number slide's start,
//! Klotski's named layout) or 2048's final grid; a final board given with the spec is
//! checked against the code's puzzle; drawn as the game draws it.

use super::*;
use crate::canvas::Rgb;
use huarong_engine::code::{encode, encode_with, Extra};

fn spec(code: &str, lang: Lang, board: Option<&str>) -> CardSpec {
    CardSpec {
        code: code.to_string(),
        lang,
        moves: 85,
        seconds: 203,
        board: board.map(str::to_string),
        ..CardSpec::default()
    }
}

fn hdlm() -> String {
    let i = klotski::classics()
        .iter()
        .position(|c| c.name_zh == "横刀立马")
        .unwrap();
    encode_with(
        &klotski::classics()[i].id(),
        Extra {
            daily: None,
            classic: Some(i),
        },
    )
    .unwrap()
}

fn rows(t: &Thumb) -> String {
    t.cells
        .chunks(t.cols)
        .map(|r| r.iter().map(|&c| c as u8 as char).collect::<String>())
        .collect::<Vec<_>>()
        .join("/")
}

fn err(s: &CardSpec) -> Error {
    let e = board_shown(s).unwrap_err();
    // render refuses it the same way.
    assert_eq!(render(s).unwrap_err(), e);
    e
}

/// The number slide's card shows the code's start board, the puzzle a friend gets: with a
/// final board given (checked) or without.
#[test]
fn a_slide_card_shows_the_puzzle_the_friend_gets() {
    let code = encode("slide:3x4:4,1,3,7,2,6,5,8,0,10,11,9").unwrap();
    let start = [4, 1, 3, 7, 2, 6, 5, 8, 0, 10, 11, 9];
    for board in [None, Some("3x4:1,2,3,4,5,6,7,8,9,10,11,0")] {
        let t = board_shown(&spec(&code, Lang::En, board)).unwrap();
        assert_eq!((t.cols, t.rows, t.cells.as_slice()), (3, 4, &start[..]));
    }
    for (board, want) in [
        (
            "4x3:1,2,3,4,5,6,7,8,9,10,11,0",
            "is 4×3, but the code's puzzle is 3×4",
        ),
        ("3x4:1,2,3,4,5,6,7,8,9,10,0,11", "is not solved"),
        ("3x4:1,2,3", "the card's board"),
        ("banana", "the card's board"),
        ("aCCb/aCCb/cdde/cste/u..v", "the card's board"),
    ] {
        let e = err(&spec(&code, Lang::En, Some(board)));
        assert_eq!(e.code, ErrorCode::Parse, "{board}");
        assert!(e.message.contains(want), "{board}: {}", e.message);
    }
    let long = "1,".repeat(MAX_BOARD_TEXT);
    assert!(err(&spec(&code, Lang::En, Some(&long)))
        .message
        .contains("characters long"));
}

/// Klotski's card shows its named layout (the start), each piece with the game's name for
/// it, with or without the final board.
#[test]
fn a_klotski_card_shows_its_named_layout_with_the_pieces_names() {
    let code = hdlm();
    let end = "acbe/acbe/stdd/.CCu/.CCv";
    let zh = board_shown(&spec(&code, Lang::Zh, Some(end))).unwrap();
    let start = klotski::classics()
        .iter()
        .find(|c| c.name_zh == "横刀立马")
        .unwrap()
        .id();
    assert_eq!(format!("klotski:{}", rows(&zh)), start);
    assert_eq!(board_shown(&spec(&code, Lang::Zh, None)).unwrap(), zh);
    let name = |t: &Thumb, l: char| t.names_of(l as u32).first().cloned().unwrap_or_default();
    // Named by the start board, as the game names them: d is the horizontal general.
    assert_eq!(name(&zh, 'C'), "曹操");
    assert_eq!(name(&zh, 'd'), "关羽");
    assert_eq!(name(&zh, 'a'), "张飞");
    assert_eq!(name(&zh, 'e'), "黄忠");
    assert_eq!(name(&zh, 's'), "兵");
    let en = board_shown(&spec(&code, Lang::En, Some(end))).unwrap();
    assert_eq!(name(&en, 'b'), "Zhao Yun");
    // The shorter word for a face too small for the name.
    assert_eq!(en.names_of('c' as u32), ["Ma Chao", "General"]);
    // A layout without traditional names shows the shapes' words.
    let odd = encode("klotski:aCCb/aCCb/cdde/cste/.uv.").unwrap();
    let t = board_shown(&spec(&odd, Lang::Zh, None)).unwrap();
    if !huarong_engine::klotski::is_classic(
        &huarong_engine::klotski::Board::parse("aCCb/aCCb/cdde/cste/.uv.").unwrap(),
    ) {
        assert_eq!(name(&t, 'C'), "曹");
        assert_eq!(name(&t, 'a'), "将");
    }
}

#[test]
fn a_klotski_board_must_be_the_puzzles_pieces_solved() {
    let code = hdlm();
    for (board, want) in [
        // Not solved: Cao Cao is still at the top.
        ("aCCb/aCCb/cdde/cste/u..v", "not solved"),
        // Pieces of another puzzle: a soldier short, a soldier too many.
        ("acbe/acbe/stdd/.CC./.CCv", "pieces and walls"),
        ("acbe/acbe/stdd/wCCu/.CCv", "pieces and walls"),
        // Another size.
        (
            "acbe../acbe../stdd../.CCu../.CCv..",
            "is 6×5, but the code's puzzle is 4×5",
        ),
        // Not a board.
        ("acbe/acbe/stdd/.CCu", "the card's board"),
        ("1,2,3", "the card's board"),
    ] {
        let e = err(&spec(&code, Lang::En, Some(board)));
        assert_eq!(e.code, ErrorCode::Parse, "{board}");
        assert!(e.message.contains(want), "{board}: {}", e.message);
    }
}

#[test]
fn a_2048_card_shows_the_final_grid_or_the_best_tile_alone() {
    let code = encode("2048:#9").unwrap();
    let grid = "2,4,8,2,16,32,64,4,4,128,512,8,2,1024,2048,16";
    let mut s = spec(&code, Lang::En, Some(grid));
    let t = board_shown(&s).unwrap();
    assert_eq!((t.cols, t.rows, t.cells[14]), (4, 4, 2048));
    s.best_tile = Some(2048);
    assert!(board_shown(&s).is_ok());
    // The best tile in the headline comes from the board when not given.
    s.best_tile = None;
    let card = Card::describe(&s).unwrap();
    assert_eq!(card.headline, "0 points with a 2048 tile");
    // The best tile must be the board's largest.
    s.best_tile = Some(4096);
    let e = err(&s);
    assert!(e.message.contains("largest tile is 2048"), "{}", e.message);
    for bad in ["2,4,8", "2,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0", "4x4:1,2,3", "x"] {
        let e = err(&spec(&code, Lang::En, Some(bad)));
        assert_eq!(e.code, ErrorCode::Parse, "{bad}");
    }
    // Without a board: the best tile alone (never the start board).
    let mut s = spec(&code, Lang::En, None);
    s.best_tile = Some(512);
    let t = board_shown(&s).unwrap();
    assert_eq!((t.cols, t.rows, t.cells.as_slice()), (1, 1, &[512][..]));
}

/// Draws as the game does: Klotski's exit is the game's red bar under the bottom edge where
/// Cao Cao leaves, in the padding of the frame.
#[test]
fn the_klotski_exit_is_a_red_bar_under_cao_cao() {
    let s = spec(&hdlm(), Lang::Zh, Some("acbe/acbe/stdd/.CCu/.CCv"));
    let card = Card::describe(&s).unwrap();
    let (_, _, px) = {
        let png = render(&s).unwrap();
        let dec = png::Decoder::new(std::io::Cursor::new(png));
        let mut r = dec.read_info().unwrap();
        let mut buf = vec![0; r.output_buffer_size().unwrap()];
        let info = r.next_frame(&mut buf).unwrap();
        (info.width, info.height, buf)
    };
    let f = card.board_frame();
    let at = |x: f32, y: f32| {
        let i = (y as usize * WIDTH + x as usize) * 3;
        Rgb(px[i], px[i + 1], px[i + 2])
    };
    let bar_y = f.y + f.h - f.pad / 2.0;
    let mid = f.x + f.w / 2.0;
    // The game board's exit colour (`--accent`).
    assert_eq!(at(mid, bar_y), Rgb::hex(0xa3271d));
    // Red under C only: beside it the frame.
    assert_eq!(at(f.x + f.pad + f.cell * 0.5, bar_y), Rgb::hex(0x5b4128));
}
