//! The board as structured data for the UI (`Snapshot::view`), with the traditional names
//! of the pieces in classic layouts.
//!
//! Roles: the goal piece `C` is `cao`; any other 1×2 or 2×1 piece is a `general`; a 1×1
//! piece is a `soldier`; every other shape is a `block`.
//!
//! Names (classic layouts only, i.e. the start board is one of the 40 classics up to
//! lettering and mirroring): `C` is 曹操 (Cao Cao) and every soldier 兵 (Soldier). The
//! generals are named in the reading order (row, then column) of their cells **in the start
//! board**, so a name stays with its piece for the whole game: the first horizontal general
//! is 关羽 (Guan Yu); the vertical generals, and any further horizontal ones, take 张飞
//! (Zhang Fei), 赵云 (Zhao Yun), 马超 (Ma Chao), 黄忠 (Huang Zhong) in that reading order.
//! A general beyond those five names has none. Other layouts: every name is null.

use super::board::{Board, Piece, GOAL};
use super::generate::classic_forms;
use serde_json::{json, Value};

/// The traditional names after Guan Yu, in the order they are given out.
const GENERALS: [(&str, &str); 4] = [
    ("张飞", "Zhang Fei"),
    ("赵云", "Zhao Yun"),
    ("马超", "Ma Chao"),
    ("黄忠", "Huang Zhong"),
];

fn role(p: &Piece) -> &'static str {
    match (p.letter, p.height, p.width) {
        (GOAL, _, _) => "cao",
        (_, 1, 2) | (_, 2, 1) => "general",
        (_, 1, 1) => "soldier",
        _ => "block",
    }
}

/// Whether `board` is one of the classic layouts (up to lettering and mirroring).
pub fn is_classic(board: &Board) -> bool {
    classic_forms().contains(&board.canonical())
}

/// The names of the pieces of a classic start board, by letter: (letter, zh, en).
fn names(start: &Board) -> Vec<(char, &'static str, &'static str)> {
    let mut pieces: Vec<&Piece> = start.pieces().iter().collect();
    pieces.sort_by_key(|p| (p.row, p.col));
    let mut out = Vec::with_capacity(pieces.len());
    let mut guan_yu = false;
    let mut next = GENERALS.iter();
    for p in pieces {
        match role(p) {
            "cao" => out.push((p.letter, "曹操", "Cao Cao")),
            "soldier" => out.push((p.letter, "兵", "Soldier")),
            "general" if p.height == 1 && !guan_yu => {
                guan_yu = true;
                out.push((p.letter, "关羽", "Guan Yu"));
            }
            "general" => {
                if let Some((zh, en)) = next.next() {
                    out.push((p.letter, *zh, *en));
                }
            }
            _ => {}
        }
    }
    out
}

/// `{w, h, pieces: [{id, r, c, h, w, role, name_zh, name_en}], walls: [[r, c]], exit: {r, c, h, w}}`;
/// `exit` is where the goal piece's top-left cell must stand (with the piece's size).
pub fn view(board: &Board, start: &Board) -> Value {
    let named = if is_classic(start) {
        names(start)
    } else {
        Vec::new()
    };
    let pieces: Vec<Value> = board
        .pieces()
        .iter()
        .map(|p| {
            let name = named.iter().find(|n| n.0 == p.letter);
            json!({
                "id": p.letter.to_string(),
                "r": p.row,
                "c": p.col,
                "h": p.height,
                "w": p.width,
                "role": role(p),
                "name_zh": name.map(|n| n.1),
                "name_en": name.map(|n| n.2),
            })
        })
        .collect();
    let mut walls = Vec::new();
    for r in 0..board.height() {
        for c in 0..board.width() {
            if board.is_wall(r, c) {
                walls.push(json!([r, c]));
            }
        }
    }
    let goal = board.goal_piece();
    let (er, ec) = board.exit();
    json!({
        "w": board.width(),
        "h": board.height(),
        "pieces": pieces,
        "walls": walls,
        "exit": { "r": er, "c": ec, "h": goal.height, "w": goal.width },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name_of(v: &Value, id: &str) -> (Value, Value, Value) {
        let p = v["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == id)
            .unwrap();
        (
            p["role"].clone(),
            p["name_zh"].clone(),
            p["name_en"].clone(),
        )
    }

    #[test]
    fn heng_dao_li_ma_has_its_traditional_names() {
        let b = Board::parse("aCCb/aCCb/cdde/cste/u..v").unwrap();
        let v = view(&b, &b);
        assert_eq!(v["w"], 4);
        assert_eq!(v["h"], 5);
        assert_eq!(v["exit"], json!({"r": 3, "c": 1, "h": 2, "w": 2}));
        assert_eq!(
            name_of(&v, "C"),
            (json!("cao"), json!("曹操"), json!("Cao Cao"))
        );
        assert_eq!(name_of(&v, "d").1, json!("关羽"));
        // Vertical generals in reading order of their start cells: a (0,0), b (0,3), c (2,0), e (2,3).
        assert_eq!(name_of(&v, "a").1, json!("张飞"));
        assert_eq!(name_of(&v, "b").1, json!("赵云"));
        assert_eq!(name_of(&v, "c").1, json!("马超"));
        assert_eq!(name_of(&v, "e").2, json!("Huang Zhong"));
        assert_eq!(
            name_of(&v, "s"),
            (json!("soldier"), json!("兵"), json!("Soldier"))
        );
    }

    #[test]
    fn names_follow_the_pieces_and_other_layouts_have_none() {
        let start = Board::parse("aCCb/aCCb/cdde/cste/u..v").unwrap();
        let mut now = start.clone();
        // The soldier u moves right: its name stays, the reading order of the start counts.
        let moved = Board::parse("aCCb/aCCb/cdde/cste/.u.v").unwrap();
        now.clone_from(&moved);
        let v = view(&now, &start);
        assert_eq!(name_of(&v, "u").1, json!("兵"));
        assert_eq!(name_of(&v, "a").1, json!("张飞"));
        let odd = Board::parse("CC../CC../..../..../....").unwrap();
        let v = view(&odd, &odd);
        assert_eq!(name_of(&v, "C").0, json!("cao"));
        assert!(name_of(&v, "C").1.is_null());
        let walled = Board::parse("#CC#/.CC./a.../a.../....").unwrap();
        let v = view(&walled, &walled);
        assert_eq!(v["walls"], json!([[0, 0], [0, 3]]));
        assert_eq!(name_of(&v, "a").0, json!("general"));
        assert!(name_of(&v, "a").2.is_null());
    }
}
