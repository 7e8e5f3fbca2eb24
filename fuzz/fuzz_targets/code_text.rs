#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| huarong_fuzz::code_text(data));
