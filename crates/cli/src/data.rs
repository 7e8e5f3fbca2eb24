//! The player's data folder from the command line (the app core's own commands on it):
//! `huarong progress export --data DIR` prints the progress file (`export_progress`'s
//! `data`) on stdout; `huarong progress import --data DIR FILE` merges FILE in
//! (`import_progress`) and prints its answer, one JSON line
//! `{"records":…,"games":…,"streaks":…,"friends":…,"unlocked":…,"settings":…}`;
//! `huarong stats export --data DIR --csv` prints the history as CSV (`export_history`).
//! `huarong group paste --data DIR [--time]` reads a chat (stdin, ≤ 20,000 characters) and
//! merges every group code and group result in it (`group_paste`), printing its answer as
//! one JSON line (`--time`: the call's time on stderr, `group_paste: N ms`);
//! `huarong group show|code --data DIR --group G` prints `group` / `group_code`'s answer.
//! A refused file exits 1 with `huarong: <code>: <message>` and changes nothing.

use crate::args::Args;
use huarong_core::persist::{InPlaceIo, Paths, Primary};
use huarong_core::platform::Platform;
use huarong_core::AppState;
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// Open the data folder `dir` (it must hold the app's progress).
fn open(dir: &str) -> Result<AppState, String> {
    let paths = Paths::new(dir);
    if !Path::new(dir).is_dir() {
        return Err(format!("--data {dir:?} is not a folder"));
    }
    if !paths.store.exists() && !paths.good.exists() {
        return Err(format!("--data {dir:?} holds no Huarong progress"));
    }
    let platform = Platform::headless();
    let io = platform.io.clone();
    let store = paths.store.clone();
    let state = AppState::open(Some(paths), platform, move || {
        Ok(Box::new(InPlaceIo(io, store)) as Box<dyn Primary>)
    });
    // The app holds the folder: an import here would not be saved.
    let p = huarong_core::dispatch(&state, "get_progress", json!({})).map_err(|e| e.to_string())?;
    let notices = p["notices"].as_array().cloned().unwrap_or_default();
    if notices.iter().any(|n| n["code"] == "read_only") {
        return Err(format!(
            "Huarong is running with the data folder {dir:?}; close it first"
        ));
    }
    Ok(state)
}

/// Write what is pending and let the folder go.
fn close(state: &AppState) -> Result<(), String> {
    let ok = state.flush(Duration::from_secs(30));
    state.shutdown();
    if ok {
        Ok(())
    } else {
        Err("the data folder could not be written".into())
    }
}

fn call(state: &AppState, name: &str, args: Value) -> Result<Value, String> {
    huarong_core::dispatch(state, name, args).map_err(|e| e.to_string())
}

fn print(text: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| e.to_string())
}

/// `huarong progress …` and `huarong stats …`.
pub fn run(cmd: &str, args: &[String]) -> Result<(), String> {
    let (sub, rest) = args
        .split_first()
        .ok_or_else(|| format!("huarong {cmd}: export or import?"))?;
    let csv = rest.iter().any(|a| a == "--csv");
    let timed = rest.iter().any(|a| a == "--time");
    let rest: Vec<String> = rest
        .iter()
        .filter(|a| *a != "--csv" && *a != "--time")
        .cloned()
        .collect();
    let a = Args::parse(&rest, &["data", "group"])?;
    let dir = a.required("data")?;
    match (cmd, sub.as_str()) {
        ("progress", "export") => {
            let state = open(dir)?;
            let r = call(&state, "export_progress", json!({}));
            close(&state)?;
            let text = r?["data"].as_str().unwrap_or_default().to_string();
            print(&format!("{text}\n"))
        }
        ("progress", "import") => {
            let file = match a.positional.as_slice() {
                [f] => f,
                _ => return Err("huarong progress import --data DIR FILE: one file".into()),
            };
            let data = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
            let state = open(dir)?;
            let r = call(&state, "import_progress", json!({ "data": data }));
            close(&state)?;
            print(&format!("{}\n", r?))
        }
        ("stats", "export") => {
            if !csv {
                return Err("huarong stats export --data DIR --csv: only CSV".into());
            }
            let state = open(dir)?;
            let r = call(&state, "export_history", json!({ "format": "csv" }));
            close(&state)?;
            print(r?["data"].as_str().unwrap_or_default())
        }
        ("group", "paste") => {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin().lock(), &mut text)
                .map_err(|e| format!("stdin: {e}"))?;
            let state = open(dir)?;
            let t = std::time::Instant::now();
            let r = call(&state, "group_paste", json!({ "text": text }));
            let took = t.elapsed();
            close(&state)?;
            if timed {
                eprintln!("group_paste: {:.2} ms", took.as_secs_f64() * 1000.0);
            }
            print(&format!("{}\n", r?))
        }
        ("group", "show" | "code") => {
            let g = a.required("group")?;
            let state = open(dir)?;
            let name = if sub == "show" { "group" } else { "group_code" };
            let r = call(&state, name, json!({ "group": g }));
            close(&state)?;
            print(&format!("{}\n", r?))
        }
        _ => Err(format!("unknown subcommand huarong {cmd} {sub}")),
    }
}
