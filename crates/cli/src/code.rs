//! `huarong code|daily|card …` (being written).

pub fn run(_cmd: &str, _args: &[String]) -> Result<(), String> {
    Err("not built yet".into())
}
