//! `cfg(stand_in)` exactly when the engine has its stand-in games (the engine's `stand-in`
//! feature, on in the tests only; see `crates/engine/build.rs`): this crate's code for them
//! is compiled with them.
fn main() {
    println!("cargo::rustc-check-cfg=cfg(stand_in)");
    println!("cargo::rerun-if-env-changed=DEP_HUARONG_ENGINE_STAND_IN");
    if std::env::var("DEP_HUARONG_ENGINE_STAND_IN").as_deref() == Ok("1") {
        println!("cargo::rustc-cfg=stand_in");
    }
}
