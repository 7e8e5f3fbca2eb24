//! Huarong 华容, the app core: everything the app does, without Tauri. Game slots over the
//! engine's `Session`s, the move journal, the progress file, records, searches, sharing, and
//! the one command table (`commands.rs`) every shell calls through [`dispatch`]. The shells
//! (`src-tauri/`, the web build) pass the platform's services in at start ([`Platform`]).
//! See ARCHITECTURE.md for the layers and the IPC contract.

// The saved schema and the returned views (bottom layer).
pub mod error;
pub mod fsio;
pub mod platform;
pub mod progress;
mod views;
// Storage.
pub mod journal;
pub mod persist;
// Domain modules.
mod analysis;
pub mod args;
mod challenge;
mod core;
mod daily;
pub mod editor;
mod finish;
pub mod first;
mod friends;
pub mod games;
mod ghost;
pub mod groups;
mod launch;
pub mod offload;
mod pictures;
mod play;
pub mod records;
mod runs;
mod search;
mod search_gate;
mod settings;
pub mod share;
pub mod slots;
mod times;
pub mod transfer;
// The state and the command table (top layer).
pub mod commands;
pub mod state;

pub use commands::{dispatch, Command, COMMANDS};
pub use error::{AppError, AppResult, Code};
pub use platform::Platform;
pub use search::{ANALYSIS_TIME, OPTIMUM_TIME, PROOF_TIME};
pub use state::AppState;
