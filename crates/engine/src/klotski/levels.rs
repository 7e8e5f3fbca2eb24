//! The 40 classic layouts (华容道经典布局), from `tests/data/klotski-classic.tsv`, with
//! English renderings of their names, ordered by difficulty: by optimal piece-move count
//! (ties keep the file's order), with 走投无路 — which has no solution — last, as a
//! curiosity to be proved impossible rather than a level to be beaten.
//!
//! Note: 瓮中之鳖 and 小燕出巢 are the same layout under two names in the file; both are kept.

use super::board::Board;
use serde::Serialize;

/// Star thresholds for a level: three stars for at most `three` moves, two for at most
/// `two`, one for any solve (the registry's star rule, derived from the optimal count).
pub use crate::registry::Stars;

/// A classic layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Classic {
    /// 1-based place in the difficulty order.
    pub index: u32,
    pub name_zh: &'static str,
    pub name_en: &'static str,
    /// The board, rows joined by `/` (the game-ID body form).
    pub board: &'static str,
    /// Optimal piece-move count; `None` = no solution (走投无路).
    pub min_moves: Option<u32>,
    /// `None` when there is no solution.
    pub stars: Option<Stars>,
}

impl Classic {
    pub fn parse_board(&self) -> Board {
        Board::parse(self.board).expect("classic boards are valid (checked by tests)")
    }
    /// The game ID of the layout.
    pub fn id(&self) -> String {
        format!("klotski:{}", self.board)
    }
}

const fn c(
    index: u32,
    name_zh: &'static str,
    name_en: &'static str,
    board: &'static str,
    min_moves: Option<u32>,
) -> Classic {
    let stars = match min_moves {
        Some(m) => Some(Stars::for_optimal(m)),
        None => None,
    };
    Classic {
        index,
        name_zh,
        name_en,
        board,
        min_moves,
        stars,
    }
}

static CLASSICS: [Classic; 40] = [
    c(
        1,
        "前呼后拥",
        "Escorts Before and Behind",
        "stCC/aaCC/bbcc/ddee/..uv",
        Some(22),
    ),
    c(
        2,
        "比翼横空",
        "Wing to Wing Across the Sky",
        "aaCC/bbCC/ccdd/s.te/u.ve",
        Some(28),
    ),
    c(
        3,
        "捷足先登",
        "The Swift Arrive First",
        "sCCt/uCCv/.aa./bcde/bcde",
        Some(32),
    ),
    c(
        4,
        "勇闯五关",
        "Braving the Five Passes",
        "sCCt/uCCv/aabb/ccdd/.ee.",
        Some(34),
    ),
    c(
        5,
        "兵临曹营",
        "Troops at Cao's Camp",
        "sCCt/uCCv/abbc/adec/.de.",
        Some(34),
    ),
    c(
        6,
        "五将逼宫",
        "Five Generals Storm the Palace",
        "aabb/cCCd/cCCd/seet/u..v",
        Some(36),
    ),
    c(
        7,
        "一路顺风",
        "A Fair Wind All the Way",
        "aCCs/aCCt/bccd/bued/.ve.",
        Some(39),
    ),
    c(
        8,
        "四将连关",
        "Four Generals Hold the Passes",
        "CCaa/CCbb/cdee/cdst/u..v",
        Some(39),
    ),
    c(
        9,
        "堵塞要道",
        "Choking the Vital Road",
        "sCCt/uCCv/abcc/abdd/.ee.",
        Some(40),
    ),
    c(
        10,
        "前挡后阻",
        "Blocked Front and Back",
        "CCaa/CCbs/cdbt/cduv/.ee.",
        Some(42),
    ),
    c(
        11,
        "雨声淅沥",
        "Patter of Rain",
        "aCCs/aCCt/bccd/be.d/ue.v",
        Some(47),
    ),
    c(
        12,
        "左右布兵",
        "Soldiers Left and Right",
        "sCCt/uCCv/abcd/abcd/.ee.",
        Some(54),
    ),
    c(
        13,
        "四面楚歌",
        "Besieged on All Sides",
        "astb/aCCb/uCCc/deec/d..v",
        Some(56),
    ),
    c(
        14,
        "一路进军",
        "March in Single File",
        "aCCs/aCCt/bcdu/bcdv/.ee.",
        Some(58),
    ),
    c(
        15,
        "齐头并进",
        "Advancing Abreast",
        "aCCb/aCCb/stuv/cdde/c..e",
        Some(60),
    ),
    c(
        16,
        "围而不歼",
        "Surrounded, Not Destroyed",
        "aCCs/aCCt/bccu/bdev/.de.",
        Some(62),
    ),
    c(
        17,
        "插翅难飞",
        "No Escape Even with Wings",
        "aCCs/aCCt/bbuv/cdde/c..e",
        Some(62),
    ),
    c(
        18,
        "指挥若定",
        "Calm in Command",
        "aCCb/aCCb/scct/duve/d..e",
        Some(70),
    ),
    c(
        19,
        "桃花园中",
        "In the Peach Garden",
        "sCCt/aCCb/acdb/ucdv/.ee.",
        Some(70),
    ),
    c(
        20,
        "屯兵东路",
        "Troops Massed on the East Road",
        "CCab/CCab/ccst/deuv/de..",
        Some(71),
    ),
    c(
        21,
        "将拥曹营",
        "Generals Crowd Cao's Camp",
        ".CC./aCCb/acdb/scdt/eeuv",
        Some(72),
    ),
    c(
        22,
        "兵分三路",
        "Three Columns",
        "sCCt/aCCb/accb/duve/d..e",
        Some(72),
    ),
    c(
        23,
        "双将挡路",
        "Two Generals Bar the Way",
        "aCCs/aCCt/bccd/beed/u..v",
        Some(73),
    ),
    c(
        24,
        "夹道藏兵",
        "Soldiers Hidden in the Lane",
        "CCsa/CCta/bbcc/ddee/u..v",
        Some(75),
    ),
    c(
        25,
        "四路进兵",
        "Advance on Four Roads",
        "sCCt/uCCv/a.bb/a.cc/ddee",
        Some(77),
    ),
    c(
        26,
        "水泄不通",
        "Watertight",
        "aCCs/aCCt/bbcc/ddee/u..v",
        Some(79),
    ),
    c(
        27,
        "横刀立马",
        "Blade Across the Saddle",
        "aCCb/aCCb/cdde/cste/u..v",
        Some(81),
    ),
    c(
        28,
        "守口如瓶1",
        "Tight-Lipped I",
        "aCCb/aCCb/sc.t/uc.v/ddee",
        Some(81),
    ),
    c(
        29,
        "横马当关",
        "A Horse Across the Pass",
        "aCCb/aCCb/ccdd/se.t/ue.v",
        Some(83),
    ),
    c(
        30,
        "兵挡将阻",
        "Soldiers Block, Generals Bar",
        "sCCa/tCCa/bccu/bddv/.ee.",
        Some(87),
    ),
    c(
        31,
        "入地无门",
        "No Door into the Earth",
        "aCCs/aCCt/ubbv/ccdd/.ee.",
        Some(87),
    ),
    c(
        32,
        "层峦叠嶂",
        "Ridge upon Ridge",
        "aCCb/aCCb/scct/ddee/u..v",
        Some(98),
    ),
    c(
        33,
        "近在咫尺",
        "So Near",
        "sabc/tabc/dduv/eeCC/..CC",
        Some(98),
    ),
    c(
        34,
        "守口如瓶2",
        "Tight-Lipped II",
        "sCCt/aCCb/ac.b/uc.v/ddee",
        Some(99),
    ),
    c(
        35,
        "层层设防1",
        "Defence in Depth I",
        "aCCb/aCCb/scct/uddv/.ee.",
        Some(102),
    ),
    c(
        36,
        "瓮中之鳖",
        "Turtle in a Jar",
        "aCCb/aCCb/ccdd/seet/u..v",
        Some(103),
    ),
    c(
        37,
        "小燕出巢",
        "The Swallow Leaves the Nest",
        "aCCb/aCCb/ccdd/seet/u..v",
        Some(103),
    ),
    c(
        38,
        "层层设防2",
        "Defence in Depth II",
        "sCCt/aCCb/accb/uddv/.ee.",
        Some(120),
    ),
    c(
        39,
        "峰回路转",
        "The Road Winds Round the Peaks",
        "stua/CCba/CCbc/.ddc/.vee",
        Some(138),
    ),
    c(
        40,
        "走投无路",
        "Nowhere to Turn",
        "aCCb/aCCb/cdse/cdte/u..v",
        None,
    ),
];

/// The 40 classics in difficulty order.
pub fn classics() -> &'static [Classic] {
    &CLASSICS
}

/// A classic by its Chinese or English name.
pub fn classic(name: &str) -> Option<&'static Classic> {
    CLASSICS
        .iter()
        .find(|c| c.name_zh == name || c.name_en.eq_ignore_ascii_case(name))
}
