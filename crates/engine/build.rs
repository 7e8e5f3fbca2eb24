//! Tells the crates that use the engine whether this build has the stand-in games (the
//! `stand-in` feature; see `lib.rs`). Their build scripts read `DEP_HUARONG_ENGINE_STAND_IN`
//! and set `cfg(stand_in)`, so that their own code for a stand-in (the app core's `AppGame`,
//! the share card's entry) is compiled exactly when the engine's game is.
fn main() {
    let on = std::env::var_os("CARGO_FEATURE_STAND_IN").is_some();
    println!("cargo::metadata=stand_in={}", u8::from(on));
}
