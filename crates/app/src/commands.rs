//! The one command table: every command the page can call, by its contract name (the IPC
//! contract in ARCHITECTURE.md), with its argument checks and whether it runs off the main
//! thread. [`dispatch`] serves it; every shell (Tauri, the web worker, the tests) calls only
//! that. Adding a command is one entry in [`COMMANDS`].
//!
//! Every argument arrives as raw JSON, so malformed input is always a typed `bad_argument`
//! (`args.rs`), and every call is guarded against panics (`internal`).

use crate::args::{self, Args};
use crate::error::{guard, AppError, AppResult};
use crate::platform::Feedback;
use crate::share;
use crate::state::AppState;
use huarong_engine::Kind;
use serde::Serialize;
use serde_json::Value;

/// One command of the contract.
pub struct Command {
    /// The name the page calls.
    pub name: &'static str,
    /// Runs off the main thread (searches, generators, rendering, files): the shell hands it
    /// to a worker so that the page's next event is never blocked by it.
    pub off_main: bool,
    /// Checks the arguments, then runs.
    run: fn(&AppState, &mut Args) -> AppResult<Value>,
}

/// A reply as JSON.
fn reply<T: Serialize>(v: T) -> AppResult<Value> {
    serde_json::to_value(v)
        .map_err(|e| AppError::internal(format!("the reply does not encode: {e}")))
}

fn kind(a: &mut Args) -> AppResult<Kind> {
    args::kind(a.take("kind"))
}

/// `kind?`: one kind, or every kind when absent.
fn opt_kind(a: &mut Args) -> AppResult<Option<Kind>> {
    args::opt_kind(a.take("kind"))
}

/// A command on the current game of `kind`.
macro_rules! on_kind {
    ($method:path) => {
        |st: &AppState, a: &mut Args| reply($method(st, kind(a)?)?)
    };
}

/// The most `test_clock` moves the clock at once.
const MAX_CLOCK_STEP_MS: u64 = 86_400_000;

/// The table, in the order of ARCHITECTURE.md's contract.
pub static COMMANDS: &[Command] = &[
    Command {
        name: "open_game",
        off_main: true,
        run: |st, a| {
            let id = args::string("id", a.take("id"), args::MAX_OPEN)?;
            let replace = args::flag("replace", a.take("replace"))?;
            let editor = args::origin(a.take("origin"))?;
            let v = st.open_game(&id, replace)?;
            st.set_from_editor(v.snapshot.kind, &v.snapshot.slot, editor);
            reply(v)
        },
    },
    Command {
        name: "new_game",
        off_main: true,
        run: |st, a| {
            let kind = kind(a)?;
            let params = args::params(a.take("params"))?;
            let seed = args::seed(a.take("seed"))?;
            let replace = args::flag("replace", a.take("replace"))?;
            let mode = args::opt_string("mode", a.take("mode"), 32)?;
            reply(st.new_game(kind, &params, seed, replace, mode.as_deref())?)
        },
    },
    Command {
        name: "list_games",
        off_main: false,
        run: |st, _| reply(st.list_games()),
    },
    Command {
        name: "resume_game",
        off_main: false,
        run: |st, a| {
            let slot = args::string("slot", a.take("slot"), 128)?;
            reply(st.resume_game(&slot)?)
        },
    },
    Command {
        name: "cancel",
        off_main: false,
        run: |st, a| {
            st.cancel(opt_kind(a)?);
            reply(())
        },
    },
    Command {
        name: "play",
        off_main: false,
        run: |st, a| {
            let kind = kind(a)?;
            let mv = a
                .take("mv")
                .ok_or_else(|| AppError::bad_argument("`mv` is missing"))?;
            reply(st.play(kind, mv)?)
        },
    },
    Command {
        name: "undo",
        off_main: false,
        run: on_kind!(AppState::undo),
    },
    Command {
        name: "redo",
        off_main: false,
        run: on_kind!(AppState::redo),
    },
    Command {
        name: "restart",
        off_main: false,
        run: on_kind!(AppState::restart),
    },
    Command {
        name: "snapshot",
        off_main: false,
        run: on_kind!(AppState::snapshot),
    },
    Command {
        name: "hint",
        off_main: true,
        run: on_kind!(AppState::hint),
    },
    Command {
        name: "hint_status",
        off_main: false,
        run: on_kind!(AppState::hint_status),
    },
    Command {
        name: "finish",
        off_main: false,
        run: on_kind!(AppState::finish),
    },
    Command {
        name: "solve",
        off_main: true,
        run: on_kind!(AppState::solve),
    },
    Command {
        name: "klotski_targets",
        off_main: false,
        run: |st, a| {
            let piece = args::piece(a.take("piece"))?;
            reply(st.klotski_targets(piece)?)
        },
    },
    Command {
        name: "klotski_check",
        off_main: true,
        run: |st, a| {
            let layout = crate::editor::parse_board_arg(a.take("board"))?;
            reply(st.klotski_check(layout)?)
        },
    },
    Command {
        name: "get_settings",
        off_main: false,
        run: |st, _| reply(st.settings()),
    },
    Command {
        name: "set_settings",
        off_main: false,
        run: |st, a| {
            let settings = a
                .take("settings")
                .ok_or_else(|| AppError::bad_argument("`settings` is missing"))?;
            let len = serde_json::to_string(&settings).map_or(usize::MAX, |s| s.len());
            if len > 4096 {
                return Err(AppError::bad_argument(
                    "`settings` is larger than 4096 bytes of JSON",
                ));
            }
            reply(st.set_settings(settings)?)
        },
    },
    Command {
        name: "get_progress",
        off_main: false,
        run: |st, _| reply(st.progress()),
    },
    Command {
        name: "dismiss_notices",
        off_main: false,
        run: |st, _| {
            st.dismiss_notices();
            reply(())
        },
    },
    Command {
        name: "set_screen",
        off_main: false,
        run: |st, a| {
            let screen = args::string("screen", a.take("screen"), 64)?;
            reply(st.set_screen(&screen)?)
        },
    },
    Command {
        name: "pause",
        off_main: false,
        run: |st, a| {
            st.pause(opt_kind(a)?);
            reply(())
        },
    },
    Command {
        name: "haptic",
        off_main: false,
        run: |st, a| {
            let kind = args::string("kind", a.take("kind"), 16)?;
            let feedback = Feedback::parse(&kind)?;
            if !st.settings().haptics {
                return reply(false);
            }
            st.platform().haptics.play(feedback).map_err(|e| {
                AppError::new(
                    huarong_engine::ErrorCode::Unsupported,
                    format!("haptic feedback failed: {e}"),
                )
            })?;
            reply(true)
        },
    },
    Command {
        name: "test_clock",
        off_main: false,
        run: |st, a| {
            let ms = args::json::<Option<u64>>("advance_ms", a.take("advance_ms"), 32)?
                .ok_or_else(|| AppError::bad_argument("`advance_ms` is missing"))?;
            if ms > MAX_CLOCK_STEP_MS {
                return Err(AppError::bad_argument(format!(
                    "`advance_ms` is {ms}; at most {MAX_CLOCK_STEP_MS} (a day) at once"
                )));
            }
            st.platform()
                .clock
                .advance(ms)
                .map_err(|e| AppError::new(huarong_engine::ErrorCode::Unsupported, e))?;
            reply(())
        },
    },
    Command {
        name: "levels",
        off_main: true,
        run: on_kind!(AppState::levels),
    },
    Command {
        name: "records",
        off_main: false,
        run: |st, a| {
            let scope = args::opt_string("scope", a.take("scope"), crate::records::MAX_SCOPE_LEN)?;
            let mut v = st.records(scope.as_deref())?;
            // Which finishes of the history can be watched (`replay`).
            let list = v.get_mut("history").and_then(Value::as_array_mut);
            if let (Some(scope), Some(list)) = (&scope, list) {
                for (e, can) in list.iter_mut().zip(st.replayable(scope)) {
                    e["replay"] = Value::Bool(can);
                }
                // The kept finishes' move times (times.rs), where the game had them.
                for (e, t) in list.iter_mut().zip(st.history_times(scope)) {
                    e["times_ms"] = serde_json::json!(t);
                }
            }
            // The splits of the record's best time (times.rs).
            if let (Some(scope), Some(rule)) = (&scope, v.get("rule").and_then(Value::as_str)) {
                let splits = st.best_splits(scope, rule);
                v["best_splits"] = serde_json::json!(splits);
            }
            reply(v)
        },
    },
    Command {
        name: "analysis",
        off_main: true,
        run: |st, a| {
            let kind = kind(a)?;
            let mut v = st.analysis(kind)?;
            // The game's splits so far (times.rs), beside the distances.
            if let Ok(s) = st.splits(kind) {
                v["splits"] = s["splits"].clone();
            }
            reply(v)
        },
    },
    Command {
        name: "splits",
        off_main: true,
        run: on_kind!(AppState::splits),
    },
    Command {
        name: "ghost",
        off_main: true,
        run: on_kind!(AppState::ghost),
    },
    Command {
        name: "race_best",
        off_main: true,
        run: |st, a| {
            let kind = kind(a)?;
            let replace = args::flag("replace", a.take("replace"))?;
            reply(st.race_best(kind, replace)?)
        },
    },
    Command {
        name: "save_picture",
        off_main: true,
        run: |st, a| {
            let data = args::string("data", a.take("data"), crate::pictures::MAX_DATA_LEN)?;
            reply(st.save_picture(&data)?)
        },
    },
    Command {
        name: "load_picture",
        off_main: true,
        run: |st, _| reply(st.load_picture()?),
    },
    Command {
        name: "share_card",
        off_main: true,
        run: |st, a| {
            let spec = share::card_spec(st, a)?;
            reply(share::share_card(st.platform(), &spec)?)
        },
    },
    Command {
        name: "share",
        off_main: true,
        run: |st, a| {
            let kind = kind(a)?;
            let (lang, theme, picture) = share::share_args(a)?;
            reply(st.share(kind, lang, theme, picture)?)
        },
    },
    Command {
        name: "card_image",
        off_main: true,
        run: |st, a| {
            let spec = share::card_spec(st, a)?;
            reply(share::card_image(&spec)?)
        },
    },
    Command {
        name: "daily_info",
        off_main: false,
        run: |st, _| reply(share::daily_info(st.platform())?),
    },
    Command {
        name: "daily_calendar",
        off_main: false,
        run: |st, a| {
            let kind = kind(a)?;
            let weeks = args::json::<Option<u32>>("weeks", a.take("weeks"), 16)?;
            reply(st.daily_calendar(kind, weeks)?)
        },
    },
    Command {
        name: "encode_code",
        off_main: true,
        run: |_, a| {
            let (id, extra, challenge) = share::encode_args(a)?;
            reply(share::encode_code(&id, extra, challenge)?)
        },
    },
    Command {
        name: "decode_code",
        off_main: true,
        run: |st, a| {
            let text = args::string("text", a.take("text"), args::MAX_OPEN)?;
            // A Klotski code's solvability check is a bounded search: through the gate.
            let cancel = huarong_engine::Cancel::new();
            reply(st.gated(&cancel, || share::decode_code(&text))?)
        },
    },
    Command {
        name: "preview",
        off_main: true,
        run: |st, a| {
            let id = args::string("id", a.take("id"), args::MAX_OPEN)?;
            reply(st.preview(&id)?)
        },
    },
    Command {
        name: "result_code",
        off_main: true,
        run: on_kind!(AppState::result_code),
    },
    Command {
        name: "friends",
        off_main: false,
        run: |st, a| {
            let daily = args::json::<Option<u32>>("daily", a.take("daily"), 64)?
                .ok_or_else(|| AppError::bad_argument("`daily` (the daily's number) is missing"))?;
            let kind = opt_kind(a)?;
            reply(st.friends(daily, kind))
        },
    },
    Command {
        name: "group_new",
        off_main: true,
        run: |st, a| {
            let id = args::string("id", a.take("id"), args::MAX_OPEN)?;
            let title = args::opt_string("title", a.take("title"), 256)?;
            let deadline = args::json::<Option<u64>>("deadline_ms", a.take("deadline_ms"), 32)?
                .ok_or_else(|| AppError::bad_argument("`deadline_ms` is missing"))?;
            reply(st.group_new(&id, title.as_deref(), deadline)?)
        },
    },
    Command {
        name: "group_open",
        off_main: true,
        run: |st, a| {
            let text = args::string("code", a.take("code"), args::MAX_OPEN)?;
            let cancel = huarong_engine::Cancel::new();
            reply(st.gated(&cancel, || st.group_open(&text))?)
        },
    },
    Command {
        name: "group_paste",
        off_main: true,
        run: |st, a| {
            let text = args::string("text", a.take("text"), 4 * crate::groups::MAX_PASTE_CHARS)?;
            let cancel = huarong_engine::Cancel::new();
            reply(st.gated(&cancel, || st.group_paste(&text))?)
        },
    },
    Command {
        name: "group",
        off_main: false,
        run: |st, a| {
            let g = args::string("group", a.take("group"), 64)?;
            reply(st.group(&g)?)
        },
    },
    Command {
        name: "groups",
        off_main: false,
        run: |st, _| reply(st.groups()),
    },
    Command {
        name: "group_code",
        off_main: true,
        run: |st, a| {
            let g = args::string("group", a.take("group"), 64)?;
            reply(st.group_code(&g)?)
        },
    },
    Command {
        name: "replay",
        off_main: true,
        run: |st, a| {
            let mut args = serde_json::Map::new();
            for key in ["code", "history"] {
                if let Some(v) = a.take(key) {
                    args.insert(key.to_string(), v);
                }
            }
            reply(st.replay(&Value::Object(args))?)
        },
    },
    Command {
        name: "export_progress",
        off_main: true,
        run: |st, a| {
            let share = args::flag("share", a.take("share"))?;
            let out = st.export_progress()?;
            let mut v = reply(&out)?;
            if share {
                let shared = st.platform().share.share_file(
                    out.data.as_bytes(),
                    &out.file_name,
                    "application/json",
                )?;
                v["share"] = reply(shared)?;
            }
            Ok(v)
        },
    },
    Command {
        name: "import_progress",
        off_main: true,
        run: |st, a| {
            let data = args::string("data", a.take("data"), crate::transfer::MAX_TRANSFER)?;
            reply(st.import_progress(&data)?)
        },
    },
    Command {
        name: "export_history",
        off_main: true,
        run: |st, a| {
            let format = args::opt_string("format", a.take("format"), 16)?;
            let share = args::flag("share", a.take("share"))?;
            let out = st.export_history(format.as_deref().unwrap_or("csv"))?;
            let mut v = reply(&out)?;
            if share {
                let shared = st.platform().share.share_file(
                    out.data.as_bytes(),
                    &out.file_name,
                    "text/csv",
                )?;
                v["share"] = reply(shared)?;
            }
            Ok(v)
        },
    },
];

/// The command of that name.
pub fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

impl Command {
    /// Check the arguments and run, guarded against panics.
    pub fn call(&self, state: &AppState, args: Value) -> AppResult<Value> {
        let mut args = Args::from_json(args)?;
        guard(self.name, || (self.run)(state, &mut args))
    }
}

/// Run the command `name` with its JSON arguments: the one entry point of every shell.
/// An unknown name is `bad_argument`.
pub fn dispatch(state: &AppState, name: &str, args: Value) -> AppResult<Value> {
    let cmd = find(name).ok_or_else(|| {
        AppError::bad_argument(format!(
            "there is no command {:?}",
            name.chars().take(40).collect::<String>()
        ))
    })?;
    cmd.call(state, args)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn every_command_is_in_the_table_once_and_in_the_contract() {
        let names: BTreeSet<&str> = COMMANDS.iter().map(|c| c.name).collect();
        assert_eq!(names.len(), COMMANDS.len(), "a name is in the table twice");
        let contract = include_str!("../../../ARCHITECTURE.md");
        for c in COMMANDS {
            assert!(
                contract.contains(&format!("| `{}`", c.name))
                    || contract.contains(&format!("/ `{}`", c.name)),
                "{} is not in ARCHITECTURE.md's IPC contract",
                c.name
            );
        }
    }

    #[test]
    fn the_test_clock_moves_the_platform_clock_when_it_is_on() {
        let platform = crate::platform::Platform::headless().with_test_clock();
        let st = AppState::open(None, platform, || Err("no store".into()));
        let clock = st.platform().clock.clone();
        let (wall, mono) = (clock.wall_ms(), clock.monotonic());
        dispatch(&st, "test_clock", serde_json::json!({"advance_ms": 60_000})).unwrap();
        assert!(clock.wall_ms() >= wall + 60_000);
        assert!(clock.monotonic() >= mono + std::time::Duration::from_secs(60));
        let too_far = dispatch(
            &st,
            "test_clock",
            serde_json::json!({"advance_ms": 86_400_001}),
        );
        assert_eq!(too_far.unwrap_err().code, crate::error::Code::BadArgument);
    }

    #[test]
    fn bad_arguments_are_typed_errors() {
        let st = AppState::open(None, crate::platform::Platform::headless(), || {
            Err("no store".into())
        });
        let code = |name: &str, args: Value| dispatch(&st, name, args).unwrap_err().code;
        use crate::error::Code;
        assert_eq!(code("no_such_command", Value::Null), Code::BadArgument);
        assert_eq!(code("play", serde_json::json!([1, 2])), Code::BadArgument);
        assert_eq!(
            code("play", serde_json::json!({"kind": 3})),
            Code::BadArgument
        );
        assert_eq!(code("undo", serde_json::json!({})), Code::BadArgument);
        assert_eq!(
            code("haptic", serde_json::json!({"kind": "explode"})),
            Code::BadArgument
        );
        // The test clock is off unless the shell turned it on.
        assert_eq!(
            code("test_clock", serde_json::json!({"advance_ms": 400})),
            Code::Engine(huarong_engine::ErrorCode::Unsupported)
        );
        assert_eq!(code("test_clock", serde_json::json!({})), Code::BadArgument);
        assert_eq!(
            code("test_clock", serde_json::json!({"advance_ms": -1})),
            Code::BadArgument
        );
        // A null argument is an absent one; keys a command does not read are ignored.
        assert_eq!(
            dispatch(&st, "cancel", serde_json::json!({"kind": null, "extra": 1})).unwrap(),
            Value::Null
        );
    }
}
