//! The app core in a browser worker or Node: the core's command table behind one export,
//! [`Core::dispatch`], on a platform without threads (the writers run single-threaded: every
//! dispatch ends with [`AppState::step`]). The clocks come from JavaScript (`huarongNow()`
//! for the monotonic clock, `Date` for the wall clock and the time zone); the files live in
//! memory ([`Sim`]) and can be read out and put back, which is how a page keeps them (the web
//! issue stores them in IndexedDB).

use huarong_core::fsio::sim::Sim;
use huarong_core::persist::{InPlaceIo, Paths, Primary};
use huarong_core::platform::{Clock, NoEvents, NoHaptics, NoShare, NoThreads, Platform};
use huarong_core::AppState;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Where the core keeps its files in the in-memory file system.
pub const DATA_DIR: &str = "/huarong";

/// The host's clocks, read through the functions `Host` gives.
pub struct HostClock {
    pub wall_ms: fn() -> f64,
    pub monotonic_ms: fn() -> f64,
    pub utc_offset_minutes: fn(f64) -> f64,
}

impl Clock for HostClock {
    fn wall_ms(&self) -> u64 {
        let ms = (self.wall_ms)();
        if ms.is_finite() && ms > 0.0 {
            ms as u64
        } else {
            0
        }
    }
    fn monotonic(&self) -> Duration {
        crate::millis((self.monotonic_ms)())
    }
    fn utc_offset_minutes(&self, wall_ms: u64) -> i32 {
        let m = (self.utc_offset_minutes)(wall_ms as f64);
        if m.is_finite() {
            m.clamp(-24.0 * 60.0, 24.0 * 60.0) as i32
        } else {
            0
        }
    }
}

/// The app core with its in-memory files.
pub struct WebCore {
    pub state: AppState,
    pub files: Sim,
}

impl WebCore {
    /// Start the core on `files` (empty, or put back from the page's storage) with the
    /// host's clock and seed source.
    pub fn open(files: Sim, clock: HostClock, seed: fn() -> u64) -> WebCore {
        let platform = Platform {
            clock: Arc::new(clock),
            io: files.io(),
            tasks: Arc::new(NoThreads),
            haptics: Arc::new(NoHaptics),
            share: Arc::new(NoShare),
            events: Arc::new(NoEvents),
            seed: Arc::new(seed),
        };
        let paths = Paths::new(DATA_DIR);
        let store = paths.store.clone();
        let io = files.io();
        let state = AppState::open(Some(paths), platform, move || {
            Ok(Box::new(InPlaceIo(io, store)) as Box<dyn Primary>)
        });
        state.step();
        WebCore { state, files }
    }

    /// One command: `{"ok": reply}` or `{"error": {code, message}}`, after which everything
    /// the command changed is written (single-threaded writers).
    pub fn dispatch(&self, name: &str, args: &str) -> String {
        let reply = match serde_json::from_str::<Value>(args) {
            Ok(args) => huarong_core::dispatch(&self.state, name, args),
            Err(e) => Err(huarong_core::AppError::bad_argument(format!(
                "the arguments are not JSON: {e}"
            ))),
        };
        self.state.step();
        match reply {
            Ok(v) => json!({ "ok": v }),
            Err(e) => json!({ "error": e }),
        }
        .to_string()
    }

    /// Every durable file, as `{path: base64}` (what a page stores).
    pub fn durable_files(&self) -> Value {
        let power_off = self.files.power_loss(huarong_core::fsio::sim::Loss::Clean);
        let mut out = serde_json::Map::new();
        for p in power_off.paths() {
            if let Some(bytes) = power_off.contents(&p) {
                out.insert(
                    p.to_string_lossy().into_owned(),
                    Value::String(huarong_core::share::base64(&bytes)),
                );
            }
        }
        Value::Object(out)
    }
}

/// An in-memory file system holding `files` (`{path: base64}`, as [`WebCore::durable_files`]
/// gave them); an entry that is not base64 is left out.
pub fn files_from(files: &Value) -> Sim {
    let sim = Sim::new();
    if let Some(map) = files.as_object() {
        for (path, b64) in map {
            let bytes = b64.as_str().and_then(huarong_core::share::decode_base64);
            if let Some(bytes) = bytes {
                sim.install(&PathBuf::from(path), &bytes);
            }
        }
    }
    sim
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    static NOW: AtomicU64 = AtomicU64::new(0);

    fn clock() -> HostClock {
        HostClock {
            wall_ms: || 1_796_155_200_000.0 + NOW.fetch_add(1, Ordering::Relaxed) as f64,
            monotonic_ms: || NOW.fetch_add(1, Ordering::Relaxed) as f64,
            utc_offset_minutes: |_| 480.0,
        }
    }

    fn call(core: &WebCore, name: &str, args: Value) -> Value {
        let out: Value = serde_json::from_str(&core.dispatch(name, &args.to_string())).unwrap();
        match out.get("ok") {
            Some(v) => v.clone(),
            None => panic!("{name}({args}): {out}"),
        }
    }

    #[test]
    fn a_game_won_through_the_command_table_survives_a_reload() {
        let core = WebCore::open(Sim::new(), clock(), || 7);
        call(
            &core,
            "open_game",
            json!({"id": "slide:3x3:1,2,3,4,5,6,7,0,8"}),
        );
        let hint = call(&core, "hint", json!({"kind": "slide"}));
        let won = call(&core, "play", json!({"kind": "slide", "mv": hint["mv"]}));
        assert_eq!(won["snapshot"]["status"], "won");
        // Bad input is a typed error, never a panic.
        let bad: Value = serde_json::from_str(&core.dispatch("play", "not json")).unwrap();
        assert_eq!(bad["error"]["code"], "bad_argument", "{bad}");
        // The page keeps the durable files; a reload starts from them.
        let files = core.durable_files();
        let again = WebCore::open(files_from(&files), clock(), || 7);
        let p = call(&again, "get_progress", json!({}));
        assert_eq!(p["records"]["slide:3x3/tile"]["best_moves"], 1, "{p}");
        assert_eq!(
            p["today"], "2026-12-02",
            "the host's time zone decides the date"
        );
    }
}
