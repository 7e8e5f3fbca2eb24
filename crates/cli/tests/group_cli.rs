//! `huarong group paste --data DIR --time < chat`: a chat with 20 result codes of a group the
//! folder's player started yields exactly those 20 lines, once; `group show` and `group code`
//! print the board and its board code.

use huarong_core::persist::{InPlaceIo, Paths, Primary};
use huarong_core::platform::Platform;
use huarong_core::AppState;
use huarong_engine::code::{self, group as gc, Challenge, Extra, Sender};
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const ID: &str = "slide:3x3:4,1,3,7,2,6,5,8,0";

fn open(dir: &Path) -> AppState {
    let paths = Paths::new(dir);
    let platform = Platform::headless();
    let io = platform.io.clone();
    let store = paths.store.clone();
    AppState::open(Some(paths), platform, move || {
        Ok(Box::new(InPlaceIo(io, store)) as Box<dyn Primary>)
    })
}

/// `huarong args… < stdin`: (exit code, stdout, stderr).
fn huarong_in(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_huarong"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run huarong");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("huarong ends");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

#[test]
fn group_paste_reads_a_chat_from_stdin() {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("huarong-cli-group-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let st = open(&dir);
    let g: Value = huarong_core::dispatch(
        &st,
        "group_new",
        json!({ "id": ID, "title": "CLI", "deadline_ms": now_ms() + 86_400_000 }),
    )
    .unwrap();
    assert!(st.flush(Duration::from_secs(20)));
    st.shutdown();
    let key = g["group"].as_str().unwrap().to_string();
    let group = u64::from_str_radix(&key, 16).unwrap();
    let log: Vec<Value> = [5, 4, 1, 5, 8]
        .iter()
        .map(|t| json!({ "tile": t }))
        .collect();
    let mut chat = String::new();
    for i in 0..20u64 {
        let s = Sender {
            name: Some(format!("友{i}")),
            log: Some(log.clone()),
        };
        let c = code::encode_result(
            ID,
            Extra::default(),
            Challenge::new(8, 5_000 + i * 100).unwrap(),
            &s,
        )
        .unwrap();
        let c = gc::with_group(&c, group).unwrap();
        chat.push_str(&format!(
            "[21:{i:02}] 群友{i}: 今天好难 {}\n随便聊聊\n",
            code::link(&c)
        ));
    }
    let d = dir.to_str().unwrap();
    let (rc, out, err) = huarong_in(&["group", "paste", "--data", d, "--time"], &chat);
    assert_eq!(rc, 0, "{err}");
    let r: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (r["added"].as_u64(), r["invalid"].as_u64()),
        (Some(20), Some(0)),
        "{r}"
    );
    assert!(
        err.contains("group_paste: ") && err.contains(" ms"),
        "{err}"
    );
    // Saved: the same chat again adds nothing.
    let (rc, out, _) = huarong_in(&["group", "paste", "--data", d], &chat);
    assert_eq!(rc, 0);
    let r: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(r["duplicates"], 20);
    let (rc, out, err) = huarong_in(&["group", "show", "--data", d, "--group", &key], "");
    assert_eq!(rc, 0, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["players"], 20);
    assert_eq!(v["rows"][0]["name"], "友0");
    let (rc, out, err) = huarong_in(&["group", "code", "--data", d, "--group", &key], "");
    assert_eq!(rc, 0, "{err}");
    let b: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(b["lines"], 20);
    let _ = std::fs::remove_dir_all(&dir);
}
