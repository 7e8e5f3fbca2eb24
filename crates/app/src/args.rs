//! Validation of every argument that comes from the UI or the command line. Commands take
//! their arguments as raw JSON (`Option<Value>`) so that a wrong type or a missing key is our
//! typed `bad_argument` error, not a string from the IPC layer.

use crate::error::{AppError, AppResult};
use huarong_engine::Kind;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Longest text accepted for `--open` / `open_game` (game IDs are ≤ 1024, links a bit more).
pub const MAX_OPEN: usize = 2048;
/// Longest JSON accepted for a move.
pub const MAX_MOVE_JSON: usize = 256;
/// Longest generator parameters (`4x4`, `4x4/hard`, `60-90`, …).
pub const MAX_PARAMS: usize = 64;

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A command's named arguments: the JSON object the page sent (`null` or a missing key is an
/// absent argument, as Tauri reads `Option` arguments; keys a command does not read are
/// ignored, as Tauri ignores them).
#[derive(Debug, Default)]
pub struct Args(serde_json::Map<String, Value>);

impl Args {
    /// The arguments from a command's JSON (an object, or `null` for none).
    pub fn from_json(v: Value) -> AppResult<Args> {
        match v {
            Value::Null => Ok(Args::default()),
            Value::Object(m) => Ok(Args(m)),
            other => Err(AppError::bad_argument(format!(
                "the arguments must be an object of named values, not {}",
                match other {
                    Value::Array(_) => "an array",
                    Value::String(_) => "a string",
                    Value::Number(_) => "a number",
                    _ => "a boolean",
                }
            ))),
        }
    }

    /// Take one argument (`None` when missing or `null`).
    pub fn take(&mut self, name: &str) -> Option<Value> {
        self.0.remove(name).filter(|v| !v.is_null())
    }
}

/// A required string argument of at most `max` bytes.
pub fn string(name: &str, v: Option<Value>, max: usize) -> AppResult<String> {
    match v {
        None | Some(Value::Null) => Err(AppError::bad_argument(format!("`{name}` is missing"))),
        Some(Value::String(s)) => {
            if s.len() > max {
                Err(AppError::bad_argument(format!(
                    "`{name}` is {} bytes long; at most {max} are accepted",
                    s.len()
                )))
            } else {
                Ok(s)
            }
        }
        Some(other) => Err(AppError::bad_argument(format!(
            "`{name}` must be a string, not {}",
            type_name(&other)
        ))),
    }
}

/// An optional string argument (missing or null → `None`).
pub fn opt_string(name: &str, v: Option<Value>, max: usize) -> AppResult<Option<String>> {
    match v {
        None | Some(Value::Null) => Ok(None),
        v => string(name, v, max).map(Some),
    }
}

/// The game kind: one of the engine's `Kind::ALL` (`slide`, `klotski`, `2048`).
pub fn kind(v: Option<Value>) -> AppResult<Kind> {
    let s = string("kind", v, 16)?;
    Kind::parse(&s).ok_or_else(|| {
        let names: Vec<String> = Kind::ALL
            .iter()
            .map(|k| format!("{:?}", k.as_str()))
            .collect();
        AppError::bad_argument(format!("`kind` {s:?} is not one of {}", names.join(", ")))
    })
}

/// `kind?`: one kind, or `None` (every kind) when absent.
pub fn opt_kind(v: Option<Value>) -> AppResult<Option<Kind>> {
    v.map(|v| kind(Some(v))).transpose()
}

/// An optional seed: a whole number 0 … 2^64−1, as a JSON number or a decimal string (JS
/// numbers above 2^53 lose digits, so big seeds come as strings).
pub fn seed(v: Option<Value>) -> AppResult<Option<u64>> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n.as_u64().map(Some).ok_or_else(|| {
            AppError::bad_argument(format!("`seed` {n} is not a whole number 0…2^64-1"))
        }),
        Some(Value::String(s)) => {
            if s.is_empty() || s.len() > 20 || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(AppError::bad_argument(format!(
                    "`seed` {:?} is not a whole number 0…2^64-1",
                    s.chars().take(24).collect::<String>()
                )));
            }
            s.parse()
                .map(Some)
                .map_err(|_| AppError::bad_argument("`seed` is larger than 2^64-1"))
        }
        Some(other) => Err(AppError::bad_argument(format!(
            "`seed` must be a number or a string of digits, not {}",
            type_name(&other)
        ))),
    }
}

/// Generator parameters: empty or a short text of letters, digits and `x,:/-_.`.
pub fn params(v: Option<Value>) -> AppResult<String> {
    let s = opt_string("params", v, MAX_PARAMS)?.unwrap_or_default();
    if let Some(c) = s
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || "x,:/-_.".contains(*c)))
    {
        return Err(AppError::bad_argument(format!(
            "`params` may not contain {c:?}"
        )));
    }
    Ok(s)
}

/// An argument of any deserialisable type, at most `max` bytes of JSON; missing is `null`.
/// Too long or mistyped JSON is `bad_argument`.
pub fn json<T: DeserializeOwned>(name: &str, v: Option<Value>, max: usize) -> AppResult<T> {
    let v = v.unwrap_or(Value::Null);
    if v.to_string().len() > max {
        return Err(AppError::bad_argument(format!(
            "`{name}` is longer than {max} bytes of JSON"
        )));
    }
    serde_json::from_value(v).map_err(|e| AppError::bad_argument(format!("`{name}`: {e}")))
}

/// A move in the game's own JSON form; size-bounded before parsing.
pub fn mv<M: DeserializeOwned>(kind: Kind, v: Option<Value>) -> AppResult<M> {
    let v = match v {
        None | Some(Value::Null) => return Err(AppError::bad_argument("`mv` is missing")),
        Some(v) => v,
    };
    let len = serde_json::to_string(&v)
        .map(|s| s.len())
        .unwrap_or(usize::MAX);
    if len > MAX_MOVE_JSON {
        return Err(AppError::bad_argument(format!(
            "`mv` is {len} bytes of JSON; a move is at most {MAX_MOVE_JSON}"
        )));
    }
    serde_json::from_value(v).map_err(|e| {
        let form = huarong_engine::registry::move_form(kind);
        AppError::bad_argument(format!("`mv` is not a {} move {form}: {e}", kind.as_str()))
    })
}

/// A Klotski piece letter: one ASCII letter.
pub fn piece(v: Option<Value>) -> AppResult<char> {
    let s = string("piece", v, 4)?;
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Ok(c),
        _ => Err(AppError::bad_argument(format!(
            "`piece` {s:?} is not one letter"
        ))),
    }
}

/// An optional boolean argument (`false` when absent or null).
pub fn flag(name: &str, v: Option<Value>) -> AppResult<bool> {
    match v {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(b),
        Some(_) => Err(AppError::bad_argument(format!(
            "`{name}` must be true or false"
        ))),
    }
}

/// `open_game`'s `origin`: absent (or null) or `"editor"` (the Klotski editor opened the
/// game: its finish leads back there); anything else is `bad_argument`.
pub fn origin(v: Option<Value>) -> AppResult<bool> {
    match v {
        None | Some(Value::Null) => Ok(false),
        Some(Value::String(s)) if s == "editor" => Ok(true),
        Some(v) => Err(AppError::bad_argument(format!(
            "`origin` must be \"editor\" or absent, not {}",
            v.to_string().chars().take(40).collect::<String>()
        ))),
    }
}

/// `--open <x>` / `--open=<x>` from the command line (the last one wins), or a bare link: a
/// `huarong://` one (what a clicked deep link hands a desktop app) or a web one
/// (`https://…`, the share link; whether it is Huarong's is checked when it is opened).
/// `None` when absent.
/// Bounded: an over-long value is kept (truncated) so the caller can report it.
pub fn open_from_args(args: impl IntoIterator<Item = String>) -> Option<String> {
    let mut found = None;
    let mut it = args.into_iter().skip(1);
    while let Some(a) = it.next() {
        if a == "--open" {
            found = Some(it.next().unwrap_or_default());
        } else if let Some(v) = a.strip_prefix("--open=") {
            found = Some(v.to_string());
        } else if huarong_engine::code::is_link(&a) {
            found = Some(a);
        }
    }
    found.map(clip_open)
}

/// Cut an over-long `--open` text or deep link to just over [`MAX_OPEN`] bytes (on a char
/// boundary): still too long to be accepted, so the player gets the length error, but no
/// megabyte of text is carried around.
pub fn clip_open(mut s: String) -> String {
    if s.len() > MAX_OPEN + 1 {
        let mut cut = MAX_OPEN + 1;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn kinds_and_strings() {
        assert_eq!(kind(Some(json!("2048"))).unwrap(), Kind::G2048);
        assert!(kind(None).unwrap_err().message.contains("missing"));
        assert!(kind(Some(json!(3)))
            .unwrap_err()
            .message
            .contains("a number"));
        let chess = kind(Some(json!("chess"))).unwrap_err().message;
        assert!(chess.contains("chess"), "{chess}");
        // The message names every game of the build, the stand-in of the tests too.
        assert!(Kind::ALL.iter().any(|k| k.is_stand_in()));
        for k in Kind::ALL {
            assert!(chess.contains(&format!("\"{}\"", k.as_str())), "{chess}");
            assert_eq!(kind(Some(json!(k.as_str()))).unwrap(), k);
        }
        assert!(kind(Some(json!("x".repeat(100))))
            .unwrap_err()
            .message
            .contains("at most"));
    }

    #[test]
    fn seeds() {
        assert_eq!(seed(None).unwrap(), None);
        assert_eq!(seed(Some(json!(42))).unwrap(), Some(42));
        assert_eq!(
            seed(Some(json!("18446744073709551615"))).unwrap(),
            Some(u64::MAX)
        );
        for bad in [
            json!(-1),
            json!(1.5),
            json!("18446744073709551616"),
            json!("1e3"),
            json!([1]),
            json!(""),
        ] {
            assert!(seed(Some(bad.clone())).is_err(), "{bad}");
        }
    }

    #[test]
    fn params_charset() {
        assert_eq!(params(Some(json!("4x4/hard"))).unwrap(), "4x4/hard");
        assert_eq!(params(None).unwrap(), "");
        assert!(params(Some(json!("4x4#1"))).is_err());
        assert!(params(Some(json!("a".repeat(65)))).is_err());
    }

    #[test]
    fn pieces() {
        assert_eq!(piece(Some(json!("C"))).unwrap(), 'C');
        for bad in [json!(""), json!("ab"), json!("1"), json!("é"), json!(null)] {
            assert!(piece(Some(bad.clone())).is_err(), "{bad}");
        }
    }

    #[test]
    fn open_args() {
        let a = |v: &[&str]| open_from_args(v.iter().map(|s| s.to_string()));
        assert_eq!(a(&["app"]), None);
        assert_eq!(
            a(&["app", "--open", "slide:3x3#1"]).as_deref(),
            Some("slide:3x3#1")
        );
        assert_eq!(a(&["app", "--open=2048#7"]).as_deref(), Some("2048#7"));
        assert_eq!(a(&["app", "--open"]).as_deref(), Some(""));
        assert_eq!(
            a(&["app", "huarong://play?c=x"]).as_deref(),
            Some("huarong://play?c=x")
        );
        let web = huarong_engine::code::link("x");
        assert_eq!(a(&["app", &web]).as_deref(), Some(web.as_str()));
        assert_eq!(a(&["app", "--verbose"]), None);
        let long = "é".repeat(5000);
        assert!(a(&["app", "--open", &long]).unwrap().len() <= MAX_OPEN + 1);
    }
}
