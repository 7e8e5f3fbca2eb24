//! The shipped font subsets hold every character the card can print: the glyph
//! list comes from the string literals of the sources (`assets/make-font.py`), and these
//! tests read the same sources the same way, so a new label, a new game's name or a new
//! level name that the subset lacks fails here (in both languages) instead of rendering
//! nothing; and every card drawn reports no missing glyph.

use super::*;
use std::collections::BTreeSet;
use std::path::Path;

/// The contents of the string and char literals of Rust source `text`, comments skipped (the
/// scanner of `assets/make-font.py`, line for line).
fn literals(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    let starts = |i: usize, s: &str| {
        s.chars()
            .enumerate()
            .all(|(k, c)| chars.get(i + k) == Some(&c))
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        if starts(i, "//") {
            while i < n && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if starts(i, "/*") {
            i += 2;
            while i < n && !starts(i, "*/") {
                i += 1;
            }
            i += 2;
            continue;
        }
        let c = chars[i];
        let word_start = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if (c == 'r' || c == 'b') && word_start {
            // b?r#*"
            let mut j = i;
            if chars[j] == 'b' {
                j += 1;
            }
            if chars.get(j) == Some(&'r') {
                j += 1;
                let hashes = chars[j..].iter().take_while(|&&h| h == '#').count();
                if chars.get(j + hashes) == Some(&'"') {
                    let start = j + hashes + 1;
                    let close: String = std::iter::once('"')
                        .chain(std::iter::repeat_n('#', hashes))
                        .collect();
                    let mut end = start;
                    while end < n && !starts(end, &close) {
                        end += 1;
                    }
                    out.push(chars[start..end.min(n)].iter().collect());
                    i = end + close.chars().count();
                    continue;
                }
            }
        }
        if c == '"' {
            let mut j = i + 1;
            let mut buf = String::new();
            while j < n && chars[j] != '"' {
                if chars[j] == '\\' {
                    j += 2;
                    continue;
                }
                buf.push(chars[j]);
                j += 1;
            }
            out.push(buf);
            i = j + 1;
            continue;
        }
        if c == '\'' {
            if chars.get(i + 1) == Some(&'\\') && chars.get(i + 3) == Some(&'\'') {
                out.push(chars[i + 2].to_string());
                i += 4;
                continue;
            }
            if chars.get(i + 1).is_some_and(|&c| c != '\\' && c != '\'')
                && chars.get(i + 2) == Some(&'\'')
            {
                out.push(chars[i + 1].to_string());
                i += 3;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// The `.rs` files under `path`, test sources left out (a folder `tests`, a file
/// `*tests.rs`: their strings never reach a card), as make-font.py reads them.
fn rust_files(path: &Path, out: &mut Vec<std::path::PathBuf>) {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if name == "tests" || name.ends_with("tests.rs") {
        return;
    }
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for e in entries {
            rust_files(&e, out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

/// The non-ASCII printable characters of the literals of `sources` (relative to the
/// repository root, folders read recursively).
fn literal_chars(sources: &[&str]) -> BTreeSet<char> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for s in sources {
        let path = root.join(s);
        assert!(path.exists(), "{s} is missing");
        rust_files(&path, &mut files);
    }
    assert!(!files.is_empty());
    let mut chars = BTreeSet::new();
    for f in files {
        for lit in literals(&std::fs::read_to_string(&f).unwrap()) {
            chars.extend(
                lit.chars()
                    .filter(|&c| c as u32 > 0x7f && !c.is_control() && !c.is_whitespace()),
            );
        }
    }
    chars
}

/// make-font.py's `SANS_SOURCES` and `EXTRA`, and its `SERIF_SOURCES`.
const SANS_SOURCES: &[&str] = &[
    "crates/card/src",
    "crates/engine/src/klotski",
    "crates/engine/src/slide/pictures.rs",
];
const EXTRA: &str = "×–—·…：，。、！？（）《》“”‘’★☆№→←↑↓";
const SERIF_SOURCES: &[&str] = &[
    "crates/engine/src/klotski/view.rs",
    "crates/card/src/games/klotski.rs",
];

fn sans_list() -> BTreeSet<char> {
    let mut chars: BTreeSet<char> = (0x20u8..0x7f).map(char::from).collect();
    chars.extend(EXTRA.chars());
    chars.extend(literal_chars(SANS_SOURCES));
    chars
}

fn lacking(data: &[u8], chars: impl IntoIterator<Item = char>) -> String {
    let font = FontRef::try_from_slice(data).unwrap();
    chars
        .into_iter()
        .filter(|&c| font.glyph_id(c).0 == 0 && c != ' ')
        .collect()
}

/// Every character of every literal of the card's sources (its labels in both languages,
/// every game's name), of the Klotski levels and pieces, and of the pictures' titles is in
/// both sans faces; every CJK character of the pieces' names in the serif face.
#[test]
fn every_literal_has_its_glyphs() {
    let sans = sans_list();
    assert!(
        sans.contains(&'击') && sans.contains(&'这'),
        "the new labels are read"
    );
    for (face, data) in [("Regular", REGULAR), ("Bold", BOLD)] {
        let missing = lacking(data, sans.iter().copied());
        assert!(
            missing.is_empty(),
            "HuarongCard-{face}.otf lacks {missing:?}: run crates/card/assets/make-font.py"
        );
    }
    let serif: Vec<char> = literal_chars(SERIF_SOURCES)
        .into_iter()
        .filter(|&c| c as u32 >= 0x3400)
        .collect();
    let missing = lacking(SERIF, serif);
    assert!(
        missing.is_empty(),
        "HuarongCard-SerifBold.otf lacks {missing:?}: run crates/card/assets/make-font.py"
    );
}

/// `assets/glyphs.txt` (what make-font.py last wrote) is today's list: a string added since
/// the fonts were made fails here even when its characters happen to be in the fonts.
#[test]
fn glyphs_txt_is_todays_list() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/glyphs.txt");
    let written: BTreeSet<char> = std::fs::read_to_string(path)
        .unwrap()
        .trim_end_matches('\n')
        .chars()
        .collect();
    let want = sans_list();
    let (new, gone): (String, String) = (
        want.difference(&written).collect(),
        written.difference(&want).collect(),
    );
    assert!(
        new.is_empty() && gone.is_empty(),
        "glyphs.txt is stale (new {new:?}, gone {gone:?}): run crates/card/assets/make-font.py"
    );
}

/// Every label the card prints and every game's name, in both languages, renders with a
/// glyph: the labels' list, and a card of every game's daily puzzle drawn in both languages
/// and themes (a game added to `games![…]` is drawn here too).
#[test]
fn no_card_draws_a_missing_glyph() {
    for lang in [Lang::Zh, Lang::En] {
        let missing = lacking(BOLD, label_texts(lang).concat().chars());
        assert!(
            missing.is_empty(),
            "{lang:?}: the bold face lacks {missing:?}"
        );
        let missing = lacking(REGULAR, label_texts(lang).concat().chars());
        assert!(
            missing.is_empty(),
            "{lang:?}: the regular face lacks {missing:?}"
        );
    }
    let date = huarong_engine::daily::Date::new(2026, 11, 29).unwrap();
    let codes = huarong_engine::daily::codes(date).unwrap();
    for kind in Kind::ALL {
        let Some(code) = codes.get(kind) else {
            continue;
        };
        for lang in [Lang::Zh, Lang::En] {
            for theme in [Theme::Light, Theme::Dark] {
                let mut s = spec(code, lang);
                s.theme = theme;
                s.name = Some("Ann".into());
                s.friends_beaten = Some(2);
                s.score = Some(1234);
                s.best_tile = Some(128);
                let r = render_traced(&s).unwrap();
                assert!(r.missing.is_empty(), "{kind:?} {lang:?}: {:?}", r.missing);
                let game = game(kind).name(lang);
                assert!(r.texts.iter().any(|t| t == game), "{kind:?}: {game} drawn");
            }
        }
    }
    for (name, s) in golden_specs() {
        let r = render_traced(&s).unwrap();
        assert!(r.missing.is_empty(), "{name}: {:?}", r.missing);
    }
}

/// A player's name in the common scripts is written; a letter the faces lack (a rare
/// hanzi) leaves the name out rather than print part of it, and a symbol they lack (an
/// emoji) is left out of the name.
#[cfg(feature = "embedded-name-font")]
#[test]
fn names_are_written_or_left_out_whole() {
    let code = encode("slide:3x3:1,2,3,4,5,6,7,0,8").unwrap();
    let headline = |name: &str| {
        let mut s = spec(&code, Lang::Zh);
        s.moves = 1;
        s.name = Some(name.into());
        let card = Card::describe(&s).unwrap();
        let r = card.draw_traced().unwrap();
        assert!(r.missing.is_empty(), "{name}: {:?}", r.missing);
        (card.name, card.headline)
    };
    for name in ["小明", "Ann", "José", "Иван", "さくら", "欧阳娜娜", "Zoë 2"] {
        assert_eq!(
            headline(name),
            (Some(name.to_string()), format!("{name} · 1 步通关")),
            "{name}"
        );
    }
    for rare in ["王䶮", "김", "Łukasz"] {
        assert_eq!(headline(rare), (None, "1 步通关".to_string()), "{rare}");
    }
    assert_eq!(
        headline("小明 😀"),
        (Some("小明".to_string()), "小明 · 1 步通关".to_string())
    );
    assert_eq!(headline("😀"), (None, "1 步通关".to_string()));
}
