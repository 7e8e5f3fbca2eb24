//! One error type for the whole engine. Every variant has a stable machine code
//! (used across the IPC boundary and in tests) and a human message.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Stable error codes. Never renumber or rename: the UI and saved data rely on them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Text that does not parse (board, game ID, code, saved file).
    Parse,
    /// Parameters out of the supported range (board size, count, budget…).
    OutOfRange,
    /// A move the rules do not allow in the current position.
    IllegalMove,
    /// The position cannot reach the goal.
    Unsolvable,
    /// A search was cancelled by a newer request.
    Cancelled,
    /// The operation does not exist for this game (e.g. auto-solve in 2048).
    Unsupported,
    /// Nothing to undo / redo.
    NothingToUndo,
    NothingToRedo,
    /// A share code with a bad checksum, version or layout.
    BadCode,
    /// A saved session that fails to replay.
    CorruptSave,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Parse => "parse",
            ErrorCode::OutOfRange => "out_of_range",
            ErrorCode::IllegalMove => "illegal_move",
            ErrorCode::Unsolvable => "unsolvable",
            ErrorCode::Cancelled => "cancelled",
            ErrorCode::Unsupported => "unsupported",
            ErrorCode::NothingToUndo => "nothing_to_undo",
            ErrorCode::NothingToRedo => "nothing_to_redo",
            ErrorCode::BadCode => "bad_code",
            ErrorCode::CorruptSave => "corrupt_save",
        }
    }
}

/// An engine error: a stable code and a message that says what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Error {
    pub code: ErrorCode,
    pub message: String,
}

impl Error {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
        }
    }
    pub fn parse(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Parse, message)
    }
    pub fn range(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::OutOfRange, message)
    }
    pub fn illegal(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::IllegalMove, message)
    }
    pub fn unsolvable(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Unsolvable, message)
    }
    pub fn cancelled() -> Self {
        Self::new(ErrorCode::Cancelled, "cancelled by a newer request")
    }
    pub fn unsupported(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Unsupported, message)
    }
    pub fn bad_code(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::BadCode, message)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T, E = Error> = std::result::Result<T, E>;
