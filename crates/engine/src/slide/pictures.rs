//! The built-in pictures of picture puzzles (`slide:3x3/picture:<name>#seed`, see the module
//! documentation of [`crate::slide`]). The images themselves are `ui/pictures/<name>.svg`,
//! made by `ui/pictures/make-pictures.py` (CC0, by the Huarong contributors); this list is
//! what the engine, the CLI and the app's `levels` know about them.

use super::PICTURE_SIDES;

/// One built-in picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Picture {
    /// The name in game IDs (`[a-z0-9-]{1,32}`) and the file stem under `ui/pictures/`.
    pub name: &'static str,
    pub title_zh: &'static str,
    pub title_en: &'static str,
    /// The board side the level list offers it at (any of 3…6 may be played).
    pub side: usize,
}

impl Picture {
    /// The `params` of this picture's level (`"3x3/picture:lotus"`), for `new_game`.
    pub fn params(&self) -> String {
        format!("{0}x{0}/picture:{1}", self.side, self.name)
    }
    /// The file of the image, relative to `ui/`.
    pub fn file(&self) -> String {
        format!("pictures/{}.svg", self.name)
    }
}

/// The name a player's own picture goes by when the app stores only one.
pub const CUSTOM: &str = "custom";

const ALL: [Picture; 4] = [
    Picture {
        name: "lotus",
        title_zh: "荷塘",
        title_en: "Lotus pond",
        side: 3,
    },
    Picture {
        name: "mountains",
        title_zh: "山水",
        title_en: "Mountains and river",
        side: 3,
    },
    Picture {
        name: "pagoda",
        title_zh: "宝塔",
        title_en: "Pagoda",
        side: 4,
    },
    Picture {
        name: "koi",
        title_zh: "锦鲤",
        title_en: "Koi",
        side: 4,
    },
];

/// Every built-in picture, in level-list order.
pub fn all() -> &'static [Picture] {
    debug_assert!(ALL.iter().all(|p| PICTURE_SIDES.contains(&p.side)));
    &ALL
}

/// The built-in picture called `name`.
pub fn find(name: &str) -> Option<&'static Picture> {
    ALL.iter().find(|p| p.name == name)
}

/// Whether `name` is a built-in picture (else it is a player's own).
pub fn is_builtin(name: &str) -> bool {
    find(name).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::slide::{check_picture_name, Slide};

    #[test]
    fn every_builtin_is_a_playable_level() {
        let mut names = std::collections::HashSet::new();
        for p in all() {
            check_picture_name(p.name).unwrap();
            assert!(names.insert(p.name), "{} twice", p.name);
            assert_ne!(p.name, CUSTOM);
            let g = Slide::from_id(&p.params(), Some(7)).unwrap();
            assert_eq!(g.picture(), Some(p.name));
            assert_eq!(g.record_scope(), format!("slide:{0}x{0}/picture", p.side));
        }
        assert!(all().len() >= 3);
    }

    /// Every listed picture has its drawing under `ui/pictures/` (and the script draws it).
    #[test]
    fn every_builtin_has_its_file() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/pictures");
        let script = std::fs::read_to_string(dir.join("make-pictures.py")).unwrap();
        for p in all() {
            let svg = std::fs::read_to_string(dir.join(format!("{}.svg", p.name))).unwrap();
            assert!(svg.starts_with("<svg") && svg.contains(r#"viewBox="0 0 512 512""#));
            assert!(script.contains(&format!("\"{}\":", p.name)), "{}", p.name);
            assert_eq!(p.file(), format!("pictures/{}.svg", p.name));
        }
    }

    #[test]
    fn picture_ids_round_trip_and_keep_the_board() {
        use crate::id::GameId;
        use crate::session::Session;
        for id in [
            "slide:3x3/picture:lotus#12",
            "slide:4x4/hard/picture:pagoda#5",
            "slide:6x6/picture:photo-1a2b#3",
            "slide:3x3/picture:custom:1,2,3,4,5,6,7,0,8",
        ] {
            let s = Session::<Slide>::open(id).unwrap();
            assert_eq!(s.id(), id);
            assert_eq!(GameId::parse(id).unwrap().to_string(), id);
            let g = s.start();
            assert!(g.picture().is_some(), "{id}");
            assert!(g.record_scope().ends_with("/picture"), "{id}");
            let p = GameId::parse(id).unwrap();
            assert_eq!(
                super::super::record_scope(&p.body).unwrap(),
                g.record_scope()
            );
        }
        // The picture changes nothing about the puzzle.
        let plain = Slide::from_id("3x3", Some(12)).unwrap();
        let pic = Slide::from_id("3x3/picture:lotus", Some(12)).unwrap();
        assert_eq!(plain.board(), pic.board());
        assert_eq!(plain.record_scope(), "slide:3x3");
        assert_eq!(plain.picture(), None);
        let hard = Slide::from_id("4x4/hard", Some(5)).unwrap();
        let hard_pic = Slide::from_id("4x4/hard/picture:pagoda", Some(5)).unwrap();
        assert_eq!(hard.board(), hard_pic.board());
        let exact = Slide::from_id("3x3/picture:lotus:1,2,3,4,5,6,7,0,8", None).unwrap();
        assert_eq!(exact.board_body(), "3x3:1,2,3,4,5,6,7,0,8");
        assert_eq!(exact.picture(), Some("lotus"));
    }

    #[test]
    fn bad_picture_params_are_typed_errors() {
        use crate::error::ErrorCode;
        let cases = [
            ("2x2/picture:lotus", ErrorCode::OutOfRange),
            ("7x7/picture:lotus", ErrorCode::OutOfRange),
            ("3x4/picture:lotus", ErrorCode::OutOfRange),
            ("10x10/picture:lotus", ErrorCode::OutOfRange),
            ("3x3/picture:", ErrorCode::Parse),
            ("3x3/picture:Lotus", ErrorCode::Parse),
            ("3x3/picture:lo_tus", ErrorCode::Parse),
            ("3x3/picture:lotus/hard", ErrorCode::Parse),
            (
                "3x3/picture:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                ErrorCode::Parse,
            ),
        ];
        for (body, want) in cases {
            let e = Slide::from_id(body, Some(1)).unwrap_err();
            assert_eq!(e.code, want, "{body}: {}", e.message);
        }
        // An exact board takes no difficulty.
        let e = Slide::from_id("3x3/hard/picture:lotus:1,2,3,4,5,6,7,0,8", None).unwrap_err();
        assert_eq!(e.code, ErrorCode::Parse, "{}", e.message);
        assert_eq!(
            Slide::from_id("3x3/picture:lotus", None).unwrap_err().code,
            ErrorCode::Parse
        );
        assert_eq!(super::super::record_scope("4x4").unwrap(), "slide:4x4");
        assert!(Slide::from_id("3x3/hard/picture:lotus", Some(1)).is_ok());
    }
}
