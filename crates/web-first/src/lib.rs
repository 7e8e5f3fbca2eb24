//! `huarong-web-first`: the web page's first wasm. A friend's shared board is
//! playable from it while the app core's bigger wasm (crates/web) still downloads: it runs
//! [`huarong_core::first::First`], which answers the commands of a first visit exactly as the
//! core would, and leaves every other one to the core. web/src/core-worker.js replays what it
//! answered into the core once the core has started (see ARCHITECTURE.md, "The web shell").
//!
//! The clocks are the page's, as for the core: `globalThis.huarongNow`, `huarongWallMs` and
//! `huarongUtcOffset`.

use huarong_core::first::{Answer, First};
use serde_json::{json, Value};

/// Where the web core keeps its files (crates/web's `DATA_DIR`; a test compares the replies).
pub const DATA_DIR: &str = "/huarong";

/// One command: `{"ok": reply}`, or `{"defer": true}` when the core must answer it.
pub fn dispatch(first: &mut First, name: &str, args: &str) -> String {
    let args = serde_json::from_str::<Value>(args);
    match args.map(|a| first.dispatch(name, a)) {
        Ok(Answer::Reply(v)) => json!({ "ok": v }).to_string(),
        _ => json!({ "defer": true }).to_string(),
    }
}

#[cfg(target_arch = "wasm32")]
mod js {
    use huarong_core::first::First;
    use huarong_core::platform::HostClock;
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_name = huarongNow)]
        fn huarong_now() -> f64;
        #[wasm_bindgen(js_name = huarongWallMs)]
        fn huarong_wall_ms() -> f64;
        #[wasm_bindgen(js_name = huarongUtcOffset)]
        fn huarong_utc_offset(ms: f64) -> f64;
    }

    /// The first core in JavaScript.
    #[wasm_bindgen(js_name = First)]
    pub struct FirstCore(First);

    #[wasm_bindgen(js_class = First)]
    impl FirstCore {
        #[wasm_bindgen(constructor)]
        pub fn new() -> FirstCore {
            let clock = HostClock {
                wall_ms: || huarong_wall_ms(),
                monotonic_ms: || huarong_now(),
                utc_offset_minutes: |ms| huarong_utc_offset(ms),
            };
            FirstCore(First::new(Box::new(clock), super::DATA_DIR))
        }

        /// One command: `{"ok": reply}` or `{"defer": true}`.
        pub fn dispatch(&mut self, name: &str, args: &str) -> String {
            super::dispatch(&mut self.0, name, args)
        }

        /// The haptic kinds to play, as a JSON array.
        #[wasm_bindgen(js_name = takeHaptics)]
        pub fn take_haptics(&mut self) -> String {
            serde_json::to_string(&self.0.take_haptics()).unwrap_or_else(|_| "[]".into())
        }
    }
}
