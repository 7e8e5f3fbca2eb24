//! Every game of the engine's one list (`for_each_game!`, the stand-in too in this test build)
//! brings every per-game piece the app shows, in its own files: a board module with its
//! strings (name, tagline, level title in zh and en) and its own stylesheet, which holds the
//! game's home tint in both themes, its home card and, where the board draws small previews,
//! their style; a shipped game's module is registered in `ui/js/boards/index.js`; and the
//! share card draws a code of the game without a missing glyph in both languages. A new game
//! that lacks one fails here, naming the game and the piece.

use std::fs;
use std::path::{Path, PathBuf};

macro_rules! games_list {
    ($( $variant:ident = $game:path, $module:ident, $name:literal; )+) => {
        /// (engine module, kind name) of every game of this build.
        const GAMES: &[(&str, &str)] = &[$( (stringify!($module), $name) ),+];
    };
}
huarong_engine::for_each_game!(games_list! {});

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

fn read(rel: &str) -> String {
    fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The JS module of engine module `m` (`g2048` → `g2048.js`).
fn board_module(m: &str) -> String {
    format!("ui/js/boards/{m}.js")
}

/// The declarations of every rule whose selector list is exactly `selector`.
fn blocks<'a>(css: &'a str, selector: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut rest = css;
    while let Some(open) = rest.find('{') {
        let sel = rest[..open].rsplit(['}', '/']).next().unwrap_or("").trim();
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        if sel == selector {
            out.push(&rest[open + 1..open + close]);
        }
        rest = &rest[open + close + 1..];
    }
    out
}

#[test]
fn every_game_brings_its_own_pieces() {
    assert!(GAMES.len() >= 3, "the engine's list: {GAMES:?}");
    let index = read("ui/js/boards/index.js");
    let core = huarong_core::AppState::open(None, huarong_core::Platform::headless(), || {
        Err("no store".into())
    });
    let mut problems = Vec::new();
    for &(module, kind) in GAMES {
        let mut miss = |what: String| problems.push(format!("{kind}: {what}"));
        let path = board_module(module);
        let Ok(js) = fs::read_to_string(root().join(&path)) else {
            miss(format!("no board module {path}"));
            continue;
        };
        if !js.contains(&format!("kind: '{kind}'")) {
            miss(format!("{path} does not declare kind '{kind}'"));
        }
        let stand_in = huarong_engine::Kind::parse(kind).is_some_and(|k| k.is_stand_in());
        if !stand_in {
            let import = format!("from './{module}.js';");
            let name = index
                .lines()
                .find(|l| l.starts_with("import * as ") && l.ends_with(&import))
                .and_then(|l| l.split_whitespace().nth(3));
            match name {
                Some(n)
                    if index.contains("const MODULES = [") && {
                        let list = index.split("const MODULES = [").nth(1).unwrap_or("");
                        let list = &list[..list.find(']').unwrap_or(0)];
                        list.split(',').any(|x| x.trim() == n)
                    } => {}
                _ => miss(format!(
                    "ui/js/boards/index.js does not register {module}.js in MODULES"
                )),
            }
        }
        // Strings, in the game's own strings file, in both languages.
        let strings_path = format!("ui/js/boards/{module}.strings.js");
        let strings = fs::read_to_string(root().join(&strings_path)).unwrap_or_default();
        for key in ["game", "gameShort", "gameDesc", "levels"] {
            let n = strings.matches(&format!("'{key}.{kind}'")).count();
            if n < 2 {
                miss(format!(
                    "{strings_path}: '{key}.{kind}' in {n} of 2 languages"
                ));
            }
        }
        // Its stylesheet.
        let sheet = js
            .split("export const stylesheet = '")
            .nth(1)
            .and_then(|s| s.split('\'').next())
            .map(str::to_string);
        let Some(sheet) = sheet else {
            miss(format!("{path} names no stylesheet"));
            continue;
        };
        let css = fs::read_to_string(root().join("ui").join(&sheet)).unwrap_or_default();
        if css.is_empty() {
            miss(format!("its stylesheet ui/{sheet} is missing or empty"));
            continue;
        }
        let tint = format!("--tint-{kind}:");
        for (theme, selector) in [("light", ":root"), ("dark", ":root[data-theme=\"dark\"]")] {
            if !blocks(&css, selector).iter().any(|b| b.contains(&tint)) {
                miss(format!(
                    "ui/{sheet} has no {tint} in `{selector}` ({theme} theme)"
                ));
            }
        }
        let card = format!(".card-{kind}");
        if !blocks(&css, &card)
            .iter()
            .any(|b| b.contains(&format!("var(--tint-{kind})")))
        {
            miss(format!("ui/{sheet} has no {card} rule with its tint"));
        }
        if js.contains("preview(") && !css.contains(&format!(".pv-{kind}")) {
            miss(format!(
                "ui/{sheet} has no .pv-{kind} style for the board's previews"
            ));
        }
        // Nothing of the game's is styled in the shared sheets.
        for shared in ["ui/css/base.css", "ui/css/home.css"] {
            let text = read(shared);
            for needle in [tint.clone(), format!("{card} "), format!(".pv-{kind} ")] {
                if text.contains(&needle) {
                    miss(format!("{shared} holds {needle}, which is the game's own"));
                }
            }
        }
        // The share card: a code of the game drawn with every glyph, in both languages.
        if let Some(k) = huarong_engine::Kind::parse(kind) {
            // Its daily's parameters, else its first level's (the level list of the core).
            let params = huarong_engine::registry::daily_params(k)
                .map(str::to_string)
                .or_else(|| {
                    let levels = huarong_core::dispatch(
                        &core,
                        "levels",
                        serde_json::json!({ "kind": kind }),
                    )
                    .ok()?;
                    levels["levels"][0]["params"].as_str().map(str::to_string)
                })
                .unwrap_or_default();
            let id = format!("{kind}:{params}#7");
            match huarong_engine::code::encode(&id) {
                Ok(code) => {
                    for lang in [huarong_card::Lang::Zh, huarong_card::Lang::En] {
                        let spec = huarong_card::CardSpec {
                            code: code.clone(),
                            lang,
                            moves: 20,
                            ms: Some(61_500),
                            ..Default::default()
                        };
                        match huarong_card::render_traced(&spec) {
                            Ok(r) if r.missing.is_empty() => {}
                            Ok(r) => miss(format!("the card lacks glyphs {:?}", r.missing)),
                            Err(e) => miss(format!("no card for {id}: {e}")),
                        }
                    }
                }
                Err(e) => miss(format!("no share code for {id}: {e}")),
            }
        }
    }
    assert!(
        problems.is_empty(),
        "missing pieces:\n{}",
        problems.join("\n")
    );
}

/// The check itself: a game without its tint in the dark theme, or without a card rule, is
/// named (the CSS reader finds rules by their exact selector).
#[test]
fn the_css_reader_finds_rules_by_selector() {
    let css = "/* x */\n:root { --tint-a: #fff; }\n:root[data-theme=\"dark\"] { --b: 1; }\n.card-a { --tile-tint: var(--tint-a); }";
    assert_eq!(blocks(css, ":root"), vec![" --tint-a: #fff; "]);
    assert!(!blocks(css, ":root[data-theme=\"dark\"]")[0].contains("--tint-a:"));
    assert_eq!(blocks(css, ".card-a").len(), 1);
    assert!(blocks(css, ".card-b").is_empty());
}
