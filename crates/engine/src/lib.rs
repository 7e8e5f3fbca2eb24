//! Huarong engine: the rules of every game, their solvers, and one generic [`Session`].
//!
//! Pure Rust: no Tauri, no files, no clocks of its own (time is passed in by the caller: a
//! `now_ms` for game state, a [`clock::Clock`] for search deadlines).
//! Layout (see ARCHITECTURE.md): one module per game behind the [`Game`] trait, solvers
//! beside their game, [`session`] for undo/redo/move log/clock/save, [`id`] for game IDs,
//! [`code`] and [`daily`] for share codes and the daily challenge, [`registry`] for what
//! every layer asks about a [`Kind`].

#[macro_use]
pub mod registry;

pub mod budget;
pub mod clock;
pub mod error;
pub mod game;
pub mod id;
pub mod rng;
pub mod session;

// The list of games: the only place the engine names every game (see `registry`). A line:
// `Variant = module::Type, "name", code <number in share codes>;` (`, cfg(test)` after the
// number: a game of the test build only). Names and code numbers
// are fixed forever (game IDs, saves and shared codes carry them).
games! {
    /// The number slide (2×2 … 10×10).
    Slide = slide::Slide, "slide", code 0;
    /// Klotski (华容道), 4×5 and other sizes.
    Klotski = klotski::Klotski, "klotski", code 1;
    /// 2048.
    G2048 = g2048::G2048, "2048", code 2;
    /// Lights Out on one row: a dummy game in the engine's own test build only, the proof that
    /// a game is its module plus this one line (see `lights/mod.rs`).
    Lights = lights::Lights, "lights", code 127, cfg(test);
}

pub mod code;
pub mod daily;

pub mod analysis;

pub use error::{Error, ErrorCode};
pub use game::{Cancel, Game, Hint, Solved, Status};
pub use id::GameId;
pub use registry::Registered;
pub use session::{Entry, SavedSession, Session, SessionDelta, Snapshot};
