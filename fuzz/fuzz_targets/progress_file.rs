#![no_main]
// The app targets live in src/app.rs (included, not in the library: see its comment).
#[path = "../src/app.rs"]
#[allow(dead_code)]
mod app;
libfuzzer_sys::fuzz_target!(|data: &[u8]| app::progress_file(data));
