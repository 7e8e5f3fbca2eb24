//! Huarong engine: the rules of every game, their solvers, and one generic [`Session`].
//!
//! Pure Rust: no Tauri, no files, no clocks of its own (time is passed in by the caller: a
//! `now_ms` for game state, a [`clock::Clock`] for search deadlines).
//! Layout (see ARCHITECTURE.md): one module per game behind the [`Game`] trait, solvers
//! beside their game, [`session`] for undo/redo/move log/clock/save, [`id`] for game IDs,
//! [`code`] and [`daily`] for share codes and the daily challenge, [`registry`] for what
//! every layer asks about a [`Kind`].

/// In the message of an `Unsupported` error from a part left out of this build (the web
/// page's first wasm): the engine's searches (`searches!`) and the app core's share card.
pub const NOT_IN_BUILD: &str = "not in this build";

/// At the top of each entry point of the solvers, generators and analyses (the `search`
/// feature, on by default): without the feature it returns `Unsupported` ([`NOT_IN_BUILD`])
/// at once, and the linker leaves out everything behind it. The web page's first wasm is built
/// so (see ARCHITECTURE.md, "The web shell").
macro_rules! searches {
    () => {
        if !cfg!(feature = "search") {
            return Err($crate::Error::unsupported(format!(
                "the solvers and generators are {}",
                $crate::NOT_IN_BUILD
            )));
        }
    };
}

#[macro_use]
pub mod registry;

pub mod budget;
pub mod clock;
pub mod error;
pub mod game;
pub mod id;
pub mod rng;
pub mod session;
pub mod splits;

// The list of games: the only place the engine names every game (see `registry`). A line:
// `Variant = module::Type, "name", code <number in share codes>;`. Names and code numbers are
// fixed forever (game IDs, saves and shared codes carry them). The stand-ins are games of the
// test builds only (the engine's `stand-in` feature, which other crates turn on for their
// tests only): never in the app, the CLI or the web page.
declare_games! {
    games {
        /// The number slide (2×2 … 10×10).
        Slide = slide::Slide, "slide", code 0;
        /// Klotski (华容道), 4×5 and other sizes.
        Klotski = klotski::Klotski, "klotski", code 1;
        /// 2048.
        G2048 = g2048::G2048, "2048", code 2;
    }
    stand_ins {
        /// Lights Out on one row: the stand-in that proves a game is its modules plus this
        /// one line, through every layer's tests (see `lights/mod.rs`).
        Lights = lights::Lights, "lights", code 127;
    }
}

pub mod code;
pub mod daily;

pub mod analysis;

pub use error::{Error, ErrorCode};

pub use game::{Cancel, Game, Hint, Solved, Status};
pub use id::GameId;
pub use registry::Registered;
pub use session::{Entry, SavedSession, Session, SessionDelta, Snapshot};
