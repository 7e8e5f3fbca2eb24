//! The work bound of a generator run from the command line: a game ID with
//! generator parameters and a seed (`klotski:60-90#7`, `klotski:1+:8x8:g12s20#2`) is generated
//! under the engine's budget of [`MAX_BYTES`](huarong_engine::budget::MAX_BYTES) (64 MiB) and
//! [`GENERATOR_TIME`] of wall time, on top of its own bounds on layouts and positions. Past any
//! of them the command fails with `unsupported` and says which bound it hit.

use huarong_engine::budget::{self, Budget};
use huarong_engine::clock::Native;
use std::sync::Arc;
use std::time::Duration;

/// Wall time one generator run may take. The app gives an opening 5 s (someone waits for the
/// board); the command line is run in batches and on loaded machines, so it gets four times
/// that, well above the ~6 s of CPU the generator's own bound of 2,000,000 explored positions
/// takes on the hardest requests: it stops a run the position bound would not (a very slow
/// machine) rather than cutting the ones that succeed.
pub const GENERATOR_TIME: Duration = Duration::from_secs(20);

/// Run `f` with the generator's budget (64 MiB, [`GENERATOR_TIME`] from now) as this thread's
/// ambient budget: every game ID `f` opens, encodes or decodes is generated within it.
pub fn generating<T>(f: impl FnOnce() -> T) -> T {
    let bounds = Budget::default().within(Arc::new(Native::new()), GENERATOR_TIME);
    budget::scoped(bounds, f)
}

/// The help text's note on the bound.
pub const NOTE: &str =
    "Generated game IDs (a band and a seed, e.g. klotski:60-90#7) are generated within 64 MiB
and 20 s each; past a bound the command fails with `unsupported` and names the bound.";

#[cfg(test)]
mod tests {
    use super::*;

    /// The note says the constants it documents.
    #[test]
    fn the_help_note_states_the_bounds() {
        assert!(NOTE.contains(&format!("{} s", GENERATOR_TIME.as_secs())));
        assert!(NOTE.contains(&format!("{} MiB", budget::MAX_BYTES >> 20)));
    }
}
