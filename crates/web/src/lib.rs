//! `huarong-web`: the engine for a browser or Node, through `wasm-bindgen`.
//!
//! Build: `cargo build --target wasm32-unknown-unknown -p huarong-web`, then
//! `wasm-bindgen --target nodejs` (or `web`) on `huarong_web.wasm`; `./dev.sh test` does both
//! and runs `tests/wasm/smoke.mjs` under Node.
//!
//! Time: the engine reads no clock of its own ([`huarong_engine::clock`]). Here the clock is
//! imported from JavaScript: the global function `huarongNow()` must return a monotonic time
//! in milliseconds (in a page: `globalThis.huarongNow = () => performance.now()`). Every
//! search deadline is read through it, so a test can inject a fake clock that advances as it
//! is read.
//!
//! Every export takes and returns text (game-ID bodies in, JSON out) and reports bad input as
//! a thrown `Error` whose message starts with the engine's error code (`parse: …`).
//! The app core (`core.rs`): [`Core`] runs every command of the IPC contract through the
//! core's command table (`dispatch(name, args_json)`), on a platform without threads, with its
//! files in memory (`files()` gives the durable ones, a new `Core` takes them back).

pub mod core;

use huarong_engine::clock::Clock;
use huarong_engine::g2048::G2048;
use huarong_engine::klotski::{self, Metric};
use huarong_engine::slide::Slide;
use huarong_engine::{Cancel, Error, ErrorCode, Game};
use std::time::Duration;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::*;

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
extern "C" {
    /// The host's monotonic clock in milliseconds (`globalThis.huarongNow`).
    #[wasm_bindgen(js_name = huarongNow)]
    fn huarong_now() -> f64;
}

/// The clock JavaScript provides ([`huarong_now`]). Zero-sized: it holds no JS value, so it
/// is `Send + Sync` like every engine clock.
#[cfg(all(target_arch = "wasm32", feature = "full"))]
struct JsClock;

#[cfg(all(target_arch = "wasm32", feature = "full"))]
impl Clock for JsClock {
    fn now(&self) -> Duration {
        millis(huarong_now())
    }
}

/// Milliseconds from JavaScript as a duration (a negative, NaN or infinite reading is 0 or
/// the largest time: never a panic).
pub fn millis(ms: f64) -> Duration {
    Duration::try_from_secs_f64(ms.max(0.0) / 1000.0).unwrap_or(Duration::MAX)
}

fn fail(e: Error) -> String {
    format!("{}: {}", e.code.as_str(), e.message)
}

fn json(v: &impl serde::Serialize) -> Result<String, String> {
    serde_json::to_string(v).map_err(|e| format!("internal: {e}"))
}

/// A hint of the game `G` within `budget_ms` on `clock`, as the JSON of the engine's `Hint`.
fn hint_on<G: Game>(board: &str, budget_ms: u32, clock: &dyn Clock) -> Result<String, String>
where
    G::Move: serde::Serialize,
{
    let game = G::from_id(board, None).map_err(fail)?;
    let budget = Duration::from_millis(budget_ms.into());
    let hint = game
        .hint_within(budget, clock, &Cancel::new())
        .map_err(fail)?;
    json(&hint)
}

/// A number-slide hint within `budget_ms` on `clock`: the JSON of the engine's `Hint`
/// (`{"mv": {"tile": n}, "optimal", "line", "values"}`). `board` is a game-ID body
/// (`4x4:1,2,…,0`).
pub fn slide_hint_on(board: &str, budget_ms: u32, clock: &dyn Clock) -> Result<String, String> {
    hint_on::<Slide>(board, budget_ms, clock)
}

/// A 2048 hint within `budget_ms` on `clock` (at most the engine's 150 ms): the JSON of the
/// engine's `Hint` (`{"mv": {"dir": …}, "values": [[dir, value], …]}`). `board` is a game-ID
/// body (16 tile values, `2,0,…`).
pub fn g2048_hint_on(board: &str, budget_ms: u32, clock: &dyn Clock) -> Result<String, String> {
    hint_on::<G2048>(board, budget_ms, clock)
}

/// An optimal Klotski solution of `board` (rows joined by `/`) under `rule` (`piece`,
/// `straight` or `unit`): `{"moves": n, "line": [{"piece", "to"}, …], "states"}`, or
/// `unsolvable: …`.
pub fn klotski_solve_text(board: &str, rule: &str) -> Result<String, String> {
    let metric = Metric::parse(rule).ok_or_else(|| {
        fail(Error::new(
            ErrorCode::Parse,
            format!("unknown rule {rule:?} (piece, straight or unit)"),
        ))
    })?;
    let board = klotski::Board::parse(board).map_err(fail)?;
    let sol = klotski::solve(&board, metric, &Cancel::new())
        .map_err(fail)?
        .ok_or_else(|| fail(Error::unsolvable("this Klotski board has no solution")))?;
    json(&serde_json::json!({
        "moves": sol.count(),
        "line": sol.moves,
        "states": sol.states,
    }))
}

#[cfg(all(target_arch = "wasm32", feature = "full"))]
fn thrown(msg: String) -> JsError {
    JsError::new(&msg)
}

/// [`slide_hint_on`] on the JavaScript clock.
#[cfg(all(target_arch = "wasm32", feature = "full"))]
#[wasm_bindgen(js_name = slideHint)]
pub fn slide_hint(board: &str, budget_ms: u32) -> Result<String, JsError> {
    slide_hint_on(board, budget_ms, &JsClock).map_err(thrown)
}

/// [`g2048_hint_on`] on the JavaScript clock.
#[cfg(all(target_arch = "wasm32", feature = "full"))]
#[wasm_bindgen(js_name = g2048Hint)]
pub fn g2048_hint(board: &str, budget_ms: u32) -> Result<String, JsError> {
    g2048_hint_on(board, budget_ms, &JsClock).map_err(thrown)
}

/// [`klotski_solve_text`].
#[cfg(all(target_arch = "wasm32", feature = "full"))]
#[wasm_bindgen(js_name = klotskiSolve)]
pub fn klotski_solve(board: &str, rule: &str) -> Result<String, JsError> {
    klotski_solve_text(board, rule).map_err(thrown)
}

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
extern "C" {
    /// The wall clock in Unix milliseconds (`globalThis.huarongWallMs`, a page: `Date.now`).
    #[wasm_bindgen(js_name = huarongWallMs)]
    fn huarong_wall_ms() -> f64;
    /// The time zone's offset from UTC in minutes east at a Unix time
    /// (`globalThis.huarongUtcOffset`, a page: `ms => -new Date(ms).getTimezoneOffset()`).
    #[wasm_bindgen(js_name = huarongUtcOffset)]
    fn huarong_utc_offset(ms: f64) -> f64;
    /// A random number in [0, 1) (`globalThis.huarongRandom`, a page: `crypto` or `Math.random`).
    #[wasm_bindgen(js_name = huarongRandom)]
    fn huarong_random() -> f64;
    /// Move the page's clocks forward by `ms` (`globalThis.huarongAdvanceClock`, web/src/host.js):
    /// true when the page was opened with the test clock on, false otherwise.
    #[wasm_bindgen(js_name = huarongAdvanceClock)]
    fn huarong_advance_clock(ms: f64) -> bool;
}

/// The page's clocks. The offset of a test clock lives in the page (host.js adds it to every
/// reading), not in this core: it outlives the core when the worker moves onto the full build.
#[cfg(target_arch = "wasm32")]
struct PageClock(core::HostClock);

#[cfg(target_arch = "wasm32")]
use huarong_core::platform::Clock as HostClockTrait;

#[cfg(target_arch = "wasm32")]
impl HostClockTrait for PageClock {
    fn wall_ms(&self) -> u64 {
        HostClockTrait::wall_ms(&self.0)
    }
    fn monotonic(&self) -> Duration {
        HostClockTrait::monotonic(&self.0)
    }
    fn utc_offset_minutes(&self, wall_ms: u64) -> i32 {
        HostClockTrait::utc_offset_minutes(&self.0, wall_ms)
    }
    fn advance(&self, ms: u64) -> Result<(), String> {
        if huarong_advance_clock(ms as f64) {
            Ok(())
        } else {
            Err("the test clock is off (the page was not opened with it)".into())
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn host_clock() -> PageClock {
    PageClock(core::HostClock {
        wall_ms: || huarong_wall_ms(),
        monotonic_ms: || huarong_now(),
        utc_offset_minutes: |ms| huarong_utc_offset(ms),
    })
}

#[cfg(target_arch = "wasm32")]
fn host_seed() -> u64 {
    let hi = (huarong_random() * 4_294_967_296.0) as u64;
    let lo = (huarong_random() * 4_294_967_296.0) as u64;
    hi << 32 | lo
}

/// The app core in JavaScript.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
pub struct Core(core::WebCore);

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
impl Core {
    /// Start the core on the files a page kept: `{path: base64}` (`files()`'s JSON) or
    /// `{path: [base64 chunk, …]}` (what the page stored of `changes()`); `"{}"` for none.
    #[wasm_bindgen(constructor)]
    pub fn new(files: &str) -> Core {
        let files = serde_json::from_str(files).unwrap_or(serde_json::Value::Null);
        let core = core::WebCore::open(core::files_from(&files), host_clock(), host_seed);
        core.loaded(&files);
        Core(core)
    }

    /// Whether a saved game needs the full build (see `WebCore::needs_full`): this core must
    /// then be dropped unstored and the files opened on the full build.
    #[wasm_bindgen(js_name = needsFull)]
    pub fn needs_full(&self) -> bool {
        self.0.needs_full()
    }

    /// One command of the IPC contract: `{"ok": reply}` or `{"error": {code, message}}`.
    pub fn dispatch(&self, name: &str, args: &str) -> String {
        self.0.dispatch(name, args)
    }

    /// Every durable file as JSON `{path: base64}`.
    pub fn files(&self) -> String {
        self.0.durable_files().to_string()
    }

    /// The files written since the last call, `{path: {"whole": b64} | {"append": b64} |
    /// null}` (what the page writes to IndexedDB after each command, in one transaction).
    pub fn changes(&self) -> String {
        self.0.changes().to_string()
    }

    /// The page could not store these paths (a JSON array: the keys of a `changes()` whose
    /// transaction failed): the next `changes()` gives each whole.
    pub fn failed(&self, paths: &str) {
        let paths: Vec<String> = serde_json::from_str(paths).unwrap_or_default();
        self.0.failed(&paths);
    }

    /// Events, haptics and a card to share queued since the last call (JSON).
    #[wasm_bindgen(js_name = takeOutbox)]
    pub fn take_outbox(&self) -> String {
        self.0.take_outbox().to_string()
    }

    /// A search command's first step: `{"job"}` for the search worker, or the reply.
    #[wasm_bindgen(js_name = offloadBegin)]
    pub fn offload_begin(&self, name: &str, args: &str) -> String {
        self.0.offload_begin(name, args)
    }

    /// A search job's result written back: `{"ok", "proof"}` or `{"error"}`.
    #[wasm_bindgen(js_name = offloadFinish)]
    pub fn offload_finish(&self, job: &str, found: &str) -> String {
        self.0.offload_finish(job, found)
    }

    /// The background optimum to run (`{"job"}`) or `{}`: see `WebCore::offload_optimum`.
    #[wasm_bindgen(js_name = offloadOptimum)]
    pub fn offload_optimum(&self) -> String {
        self.0.offload_optimum()
    }

    /// Whether a running job is still wanted (its slot unchanged).
    #[wasm_bindgen(js_name = offloadCurrent)]
    pub fn offload_current(&self, job: &str) -> bool {
        self.0.offload_current(job)
    }
}

/// The search worker's one export: run a job of `huarong_core::offload` on the JavaScript
/// clock (`{"ok": result}` or `{"error": {code, message}}`).
#[cfg(all(target_arch = "wasm32", feature = "full"))]
#[wasm_bindgen(js_name = runJob)]
pub fn run_job(job: &str) -> String {
    core::run_job(job, std::sync::Arc::new(JsClock))
}

/// Install the 4×4 pattern tables (the bytes of `pdb4x4.bin`); a thrown `parse: …` error when
/// they are not the tables of this version.
#[cfg(all(target_arch = "wasm32", feature = "full"))]
#[wasm_bindgen(js_name = installPdb4x4)]
pub fn install_pdb4x4(bytes: Vec<u8>) -> Result<(), JsError> {
    huarong_engine::slide::install_pdb4x4(bytes).map_err(|e| thrown(fail(e)))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(feature = "full")]
    use huarong_engine::clock::Ticking;

    #[test]
    fn millis_never_panics() {
        assert_eq!(millis(-5.0), Duration::ZERO);
        assert_eq!(millis(f64::NAN), Duration::ZERO);
        assert_eq!(millis(f64::INFINITY), Duration::MAX);
        assert_eq!(millis(1.5), Duration::from_micros(1500));
    }

    #[test]
    #[cfg(feature = "full")]
    fn exports_answer_in_json_and_fail_with_the_engine_code() {
        let clock = Ticking::new(Duration::from_millis(1));
        let h: serde_json::Value =
            serde_json::from_str(&slide_hint_on("3x3:1,2,3,4,5,6,7,0,8", 100, &clock).unwrap())
                .unwrap();
        assert_eq!(h["mv"]["tile"], 8);
        assert_eq!(h["optimal"], true);
        let e = slide_hint_on("3x3:1,2", 100, &clock).unwrap_err();
        assert!(e.starts_with("parse: "), "{e}");
        let g: serde_json::Value = serde_json::from_str(
            &g2048_hint_on("2,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0", 50, &clock).unwrap(),
        )
        .unwrap();
        assert!(g["mv"]["dir"].is_string(), "{g}");
        let k: serde_json::Value =
            serde_json::from_str(&klotski_solve_text("aCCb/aCCb/cdde/cste/u..v", "piece").unwrap())
                .unwrap();
        assert_eq!(k["moves"], 81);
        assert!(klotski_solve_text("aCCb/aCCb/cdde/cste/u..v", "diagonal")
            .unwrap_err()
            .starts_with("parse: "));
    }
}
