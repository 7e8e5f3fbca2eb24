#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| huarong_fuzz::saved_session(data));
