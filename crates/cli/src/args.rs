//! A tiny flag parser shared by the subcommands: `--name value` pairs and positionals; and
//! their stdin-to-stdout line loop.

use std::collections::HashMap;
use std::io::{BufRead, Write};

pub struct Args {
    flags: HashMap<String, String>,
    pub positional: Vec<String>,
}

impl Args {
    /// Parse `args`; every `--flag` takes exactly one value; flags not in `known` are errors.
    pub fn parse(args: &[String], known: &[&str]) -> Result<Args, String> {
        let mut flags = HashMap::new();
        let mut positional = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if let Some(name) = a.strip_prefix("--") {
                if !known.contains(&name) {
                    return Err(format!(
                        "unknown flag --{name} (expected one of: --{})",
                        known.join(", --")
                    ));
                }
                let v = it.next().ok_or_else(|| format!("--{name} needs a value"))?;
                flags.insert(name.to_string(), v.clone());
            } else {
                positional.push(a.clone());
            }
        }
        Ok(Args { flags, positional })
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.flags.get(name).map(|s| s.as_str())
    }

    pub fn required(&self, name: &str) -> Result<&str, String> {
        self.get(name)
            .ok_or_else(|| format!("--{name} is required"))
    }

    /// A number flag, with a default when absent.
    pub fn num<T: std::str::FromStr>(&self, name: &str, default: Option<T>) -> Result<T, String> {
        match self.get(name) {
            Some(v) => v
                .parse()
                .map_err(|_| format!("--{name} {v:?} is not a valid number")),
            None => default.ok_or_else(|| format!("--{name} is required")),
        }
    }
}

/// Parse `WxH` (e.g. `4x4`).
pub fn size(text: &str) -> Result<(usize, usize), String> {
    let (w, h) = text
        .split_once(['x', 'X', '×'])
        .ok_or_else(|| format!("size {text:?} is not of the form WxH"))?;
    let w = w
        .parse()
        .map_err(|_| format!("width {w:?} is not a number"))?;
    let h = h
        .parse()
        .map_err(|_| format!("height {h:?} is not a number"))?;
    Ok((w, h))
}

/// Answer stdin line by line: each trimmed line that is neither blank nor `skip(line)` gets the
/// one line `answer(line)` gives on stdout, flushed at once.
pub fn answer_lines(
    skip: impl Fn(&str) -> bool,
    mut answer: impl FnMut(&str) -> Result<String, String>,
) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| format!("reading stdin: {e}"))?;
        let line = line.trim();
        if line.is_empty() || skip(line) {
            continue;
        }
        let json = answer(line)?;
        writeln!(out, "{json}").map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
    }
    Ok(())
}
