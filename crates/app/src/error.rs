//! The one error type that crosses the IPC boundary: a stable machine `code` and a human
//! `message`. Engine errors keep their engine code; the app adds its own codes.

use huarong_engine::{Error as EngineError, ErrorCode};
use serde::{Serialize, Serializer};
use std::fmt;

/// Stable error codes of the app: the engine's, under the engine's own names, plus the app's.
/// Never rename: the UI and the tests match on them. Serialised as the bare name
/// (`"cancelled"`, `"no_game"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    /// One of the engine's codes (`parse`, `out_of_range`, … `corrupt_save`).
    Engine(ErrorCode),
    /// No game of that kind is open (call `new_game` or `open_game` first).
    NoGame,
    /// An argument is missing, of the wrong type, too long, or not one of the allowed values.
    BadArgument,
    /// Reading or writing the player's progress failed.
    Storage,
    /// The slot holds an unfinished game with moves; call again with `replace: true`.
    WouldReplace,
    /// The share card could not be saved (desktop) or shared (the phone's share sheet).
    ShareFailed,
    /// A code, link or game ID whose start is already solved (or won, or over): there is
    /// nothing to play, and a finish no move made would plant a record nobody can beat.
    AlreadySolved,
    /// A file written by a newer version of the app (a progress file to import): this one
    /// cannot read it, and nothing was changed.
    UnsupportedVersion,
    /// An internal failure (e.g. a panic caught at the IPC boundary). Always a bug.
    Internal,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Engine(c) => c.as_str(),
            Code::NoGame => "no_game",
            Code::BadArgument => "bad_argument",
            Code::Storage => "storage",
            Code::WouldReplace => "would_replace",
            Code::ShareFailed => "share_failed",
            Code::AlreadySolved => "already_solved",
            Code::UnsupportedVersion => "unsupported_version",
            Code::Internal => "internal",
        }
    }
}

impl From<ErrorCode> for Code {
    fn from(c: ErrorCode) -> Code {
        Code::Engine(c)
    }
}

impl Serialize for Code {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// What every command returns on failure: `{ "code": "...", "message": "..." }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AppError {
    pub code: Code,
    pub message: String,
}

pub type AppResult<T> = Result<T, AppError>;

impl AppError {
    pub fn new(code: impl Into<Code>, message: impl Into<String>) -> Self {
        AppError {
            code: code.into(),
            message: message.into(),
        }
    }
    pub fn bad_argument(message: impl Into<String>) -> Self {
        Self::new(Code::BadArgument, message)
    }
    pub fn no_game(kind: &str) -> Self {
        Self::new(
            Code::NoGame,
            format!("no {kind} game is open; start or open one first"),
        )
    }
    pub fn storage(message: impl Into<String>) -> Self {
        Self::new(Code::Storage, message)
    }
    /// `Unsupported`, "`what` is not in this build" ([`huarong_engine::NOT_IN_BUILD`]): a part
    /// the web page's board wasm leaves out (its worker then moves onto the full build).
    pub fn not_in_build(what: &str) -> Self {
        AppError::new(
            ErrorCode::Unsupported,
            format!("{what} is {}", huarong_engine::NOT_IN_BUILD),
        )
    }
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(Code::Internal, message)
    }
    pub fn share_failed(message: impl Into<String>) -> Self {
        Self::new(Code::ShareFailed, message)
    }
}

impl From<EngineError> for AppError {
    fn from(e: EngineError) -> Self {
        AppError {
            code: e.code.into(),
            message: e.message,
        }
    }
}

impl fmt::Display for AppError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for AppError {}

/// Run `f`, turning a panic into `Code::Internal` instead of letting it unwind across IPC.
/// The last line of defence: every engine call already returns `Result`.
pub fn guard<T>(what: &str, f: impl FnOnce() -> AppResult<T>) -> AppResult<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let why = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(AppError::internal(format!(
                "{what} failed unexpectedly: {why}"
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_serialise_as_their_names() {
        for c in [
            ErrorCode::Parse,
            ErrorCode::Cancelled,
            ErrorCode::CorruptSave,
        ] {
            let json = serde_json::to_value(Code::from(c)).unwrap();
            assert_eq!(json, serde_json::Value::String(c.as_str().into()));
        }
        for (c, name) in [
            (Code::NoGame, "no_game"),
            (Code::BadArgument, "bad_argument"),
            (Code::ShareFailed, "share_failed"),
            (Code::AlreadySolved, "already_solved"),
            (Code::Internal, "internal"),
        ] {
            assert_eq!(serde_json::to_value(c).unwrap(), serde_json::json!(name));
        }
        let e = AppError::new(ErrorCode::Unsolvable, "no way");
        assert_eq!(
            serde_json::to_value(&e).unwrap(),
            serde_json::json!({"code": "unsolvable", "message": "no way"})
        );
    }

    #[test]
    fn guard_turns_a_panic_into_internal() {
        let r: AppResult<()> = guard("test", || panic!("boom"));
        let e = r.unwrap_err();
        assert_eq!(e.code, Code::Internal);
        assert!(e.message.contains("boom"), "{}", e.message);
        let json = serde_json::to_value(&e).unwrap();
        assert_eq!(json["code"], "internal");
    }
}
