//! Replays the fuzzers' regression corpus (`fuzz/regressions/<target>/*`) through the same
//! target functions `cargo fuzz` runs (`fuzz/src/lib.rs`, included here), so every input
//! that once crashed, or that covers a decoder's corner, is checked by a normal
//! `cargo test -p huarong-engine`.

#[path = "../../../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod targets;

use std::path::Path;

#[test]
fn every_regression_input_runs_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions");
    let mut total = 0;
    for &(name, target) in targets::TARGETS {
        let dir = root.join(name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no regression inputs for {name}");
        for f in &files {
            let data = std::fs::read(f).unwrap();
            let run = std::panic::catch_unwind(|| target(&data));
            assert!(run.is_ok(), "{name}: {} panics", f.display());
            total += 1;
        }
    }
    assert!(total >= targets::TARGETS.len());
}

/// URL-safe base64 without padding, decoded (test inputs only: valid text).
fn unbase64(t: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' => 62,
        _ => 63,
    } as u32;
    let mut out = Vec::new();
    for chunk in t.as_bytes().chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &c)| n | val(c) << (18 - 6 * i));
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// Base 56 (the current codes' text), decoded (test inputs only: valid text).
fn unbase56(t: &str) -> Vec<u8> {
    const A: &[u8] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz";
    let mut out = Vec::new();
    for chunk in t.as_bytes().chunks(7) {
        let n = chunk.iter().fold(0u64, |n, &c| {
            n * 56 + A.iter().position(|&a| a == c).unwrap() as u64
        });
        let bytes = [0, 0, 1, 2, 0, 3, 4, 5][chunk.len()];
        out.extend((0..bytes).rev().map(|i| (n >> (8 * i)) as u8));
    }
    out
}

#[test]
fn sealing_a_payload_gives_the_real_code() {
    for id in [
        "2048:#3",
        "2048:65536,131072,0,0,0,0,0,0,0,0,0,0,0,0,0,2#5",
        "slide:3x3:1,2,3,4,5,6,7,0,8",
        "klotski:aCCb/aCCb/cdde/cfge/h..i",
    ] {
        let c = huarong_engine::code::encode(id).unwrap();
        let bytes = unbase56(&c[1..]);
        assert_eq!(targets::seal_current(&bytes[4..]), c, "{id}");
    }
    // Version-1 codes (pinned, as the first code module wrote them).
    for c in ["1ADMAtJjiB1Iu", "1CRpQJLBitoI", "1BgEJABAAEAAAAAAAeFAQcg"] {
        let bytes = unbase64(&c[1..]);
        assert_eq!(targets::seal(&bytes[..bytes.len() - 4]), c);
    }
}
