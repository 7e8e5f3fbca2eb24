#![no_main]
#[path = "../src/app.rs"]
mod app;
libfuzzer_sys::fuzz_target!(|data: &[u8]| app::journal_snapshot(data));
