//! Huarong engine: the rules of every game, their solvers, and one generic [`Session`].
//!
//! Pure Rust: no Tauri, no files, no clocks of its own (time is passed in by the caller).
//! Layout (see ARCHITECTURE.md): one module per game behind the [`Game`] trait, solvers
//! beside their game, [`session`] for undo/redo/move log/clock/save, [`id`] for game IDs,
//! [`code`] and [`daily`] for share codes and the daily challenge.

pub mod error;
pub mod game;
pub mod id;
pub mod registry;
pub mod rng;
pub mod session;

pub mod g2048;
pub mod klotski;
pub mod slide;

pub mod code;
pub mod daily;

pub mod analysis;

pub use error::{Error, ErrorCode};
pub use game::{Cancel, Game, Hint, Kind, Status};
pub use id::GameId;
pub use session::{Entry, SavedSession, Session, Snapshot};
