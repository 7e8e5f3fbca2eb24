//! Damaged save files, many of them (issue 13's "hostile or damaged files"): a real games folder
//! (three slots, a compaction, appends after it) and a real progress file are damaged 3,000
//! times each in seeded, reproducible ways — bits flipped, bytes overwritten, spliced,
//! duplicated, cut short, lengths forged — and read back by the app's own decoders on the
//! simulated file system. A failure names the seed and the mutation, so it replays exactly.
//!
//! What must hold after every mutation:
//! - no panic;
//! - every slot recovered is a state that slot really had (the journal only ever loses a
//!   suffix of changes; nothing invented, nothing from another slot);
//! - a slot that lost more than the change in flight, or was lost entirely, is named in a
//!   warning notice, unless the file was only cut short (what a power loss does to the
//!   writes that were not yet fsynced, and the one case the app cannot tell apart);
//! - the progress file decodes to the original or is refused as damaged (never a silent
//!   half-read), and the checksum catches every change to its content.

use huarong_core::fsio::sim::Sim;
use huarong_core::journal::{Journal, Options, SlotData};
use huarong_core::persist::{self, Bad};
use huarong_engine::g2048::board::Dir;
use huarong_engine::g2048::{Move as Move2048, G2048};
use huarong_engine::rng::{self, RngCore};
use huarong_engine::slide::{Move, Slide};
use huarong_engine::{Game, Session};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::Duration;

const DATA: &str = "/data";
const MUTATIONS: u64 = 3_000;

/// Every state each slot had, oldest first (the last one is what the files hold).
type History = BTreeMap<String, Vec<(Value, Value)>>;

/// A seeded generator (the engine's portable stream), so a failure replays from its seed.
struct Rng(rng::ChaCha8Rng);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(rng::stream(seed, "faults-mutate"))
    }
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn below(&mut self, n: usize) -> usize {
        rng::below(&mut self.0, n.max(1) as u64) as usize
    }
}

fn opts() -> Options {
    Options {
        mutant: None,
        // Small, so the folder holds a compacted snapshot with a journal after it (checked
        // below: the records' size, with their move times, decides where compactions fall).
        compact_at: Some(2_500),
        retry_first: Some(Duration::from_millis(1)),
    }
}

fn settle(j: &Journal) {
    assert!(j.flush(Duration::from_secs(20)), "the journal settles");
}

fn record<G: Game>(h: &mut History, key: &str, n: usize, s: &Session<G>, t: u64) -> Value {
    let header = json!({ "n": n });
    let saved = serde_json::to_value(s.save(t)).unwrap();
    h.entry(key.into())
        .or_default()
        .push((header.clone(), saved));
    header
}

/// Play the `i`-th (modulo) movable tile of a slide.
fn play_nth(s: &mut Session<Slide>, i: usize, t: u64) {
    let m = s.current().board().movable();
    s.play(
        &Move {
            tile: m[i % m.len()],
        },
        t,
    )
    .unwrap();
}

/// Hand `s`'s change to the journal as slot `key`'s `i`-th, and remember the state.
fn journal_step<G: Game>(
    j: &Journal,
    h: &mut History,
    key: &str,
    i: usize,
    s: &mut Session<G>,
    t: u64,
) {
    let d = serde_json::to_value(s.take_delta(t)).unwrap();
    let hdr = record(h, key, i, s, t);
    j.append(key, hdr, d);
}

/// Play three slots through the real journal; the folder's files and every slot's history.
fn build(sim: &Sim) -> History {
    let (j, slots, _) = Journal::open_with(Path::new(DATA), sim.io(), opts());
    assert!(slots.is_empty());
    let mut h = History::new();
    let mut a = Session::<Slide>::open("slide:4x4#21").unwrap();
    let mut b = Session::<Slide>::open("slide:3x3#8").unwrap();
    let mut c = Session::<G2048>::open("2048:#5").unwrap();
    let hdr = record(&mut h, "slide:4x4", 0, &a, 0);
    j.put("slide:4x4", hdr, serde_json::to_value(a.save(0)).unwrap());
    let hdr = record(&mut h, "slide:3x3", 0, &b, 0);
    j.put("slide:3x3", hdr, serde_json::to_value(b.save(0)).unwrap());
    let hdr = record(&mut h, "2048:free", 0, &c, 0);
    j.put("2048:free", hdr, serde_json::to_value(c.save(0)).unwrap());
    settle(&j);
    let dirs = [Dir::Left, Dir::Up, Dir::Right, Dir::Down];
    for i in 1..=60usize {
        let t = 100 * i as u64;
        // Slide 4×4: a move, or an undo every seventh step.
        if i % 7 == 0 {
            a.undo(t).unwrap();
        } else {
            play_nth(&mut a, i, t);
        }
        journal_step(&j, &mut h, "slide:4x4", i, &mut a, t);
        if i % 3 == 0 {
            play_nth(&mut b, i, t);
            journal_step(&j, &mut h, "slide:3x3", i, &mut b, t);
        }
        if i % 2 == 0 {
            let mv = (0..4)
                .map(|k| Move2048::Slide(dirs[(i + k) % 4]))
                .find(|m| c.current().accepts(m));
            if let Some(m) = mv {
                c.play(&m, t).unwrap();
                journal_step(&j, &mut h, "2048:free", i, &mut c, t);
            }
        }
        // Every change durable before the next: each one is then a state the files held.
        settle(&j);
    }
    j.shutdown();
    h
}

fn files(sim: &Sim) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out: Vec<(PathBuf, Vec<u8>)> = sim
        .paths()
        .into_iter()
        .filter_map(|p| sim.contents(&p).map(|b| (p, b)))
        .collect();
    out.sort();
    out
}

/// A span of `bytes` (`n` long) to damage: its start, and a length of 1 to `max` within it.
fn span(rng: &mut Rng, n: usize, max: usize) -> (usize, usize) {
    let at = rng.below(n);
    (at, 1 + rng.below(max.min(n - at)))
}

/// One damage to `bytes`; its description, and whether it only cut the file short.
fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>) -> (String, bool) {
    let n = bytes.len();
    let what = match rng.below(7) {
        0 => {
            let (at, bit) = (rng.below(n), rng.below(8));
            bytes[at] ^= 1 << bit;
            format!("flip bit {bit} of byte {at}")
        }
        1 => {
            let (at, len) = span(rng, n, 16);
            bytes[at..at + len]
                .iter_mut()
                .for_each(|b| *b = rng.next() as u8);
            format!("overwrite {len} bytes at {at}")
        }
        2 => {
            let at = rng.below(n);
            bytes.truncate(at);
            return (format!("cut to {at} bytes"), true);
        }
        3 => {
            let (from, len) = span(rng, n, 64);
            let chunk = bytes[from..from + len].to_vec();
            let at = rng.below(n);
            bytes.splice(at..at, chunk);
            format!("copy {len} bytes from {from} to {at}")
        }
        4 => {
            let (at, len) = span(rng, n, 32);
            bytes.drain(at..at + len);
            format!("remove {len} bytes at {at}")
        }
        5 => {
            // A forged record length (the journal's frames, the snapshot's header).
            let at = rng.below(n.saturating_sub(4).max(1));
            let v = [u32::MAX, 1 << 21, 0, rng.next() as u32][rng.below(4)];
            let end = (at + 4).min(n);
            bytes[at..end].copy_from_slice(&v.to_le_bytes()[..end - at]);
            format!("write length {v} at {at}")
        }
        _ => {
            let at = rng.below(n);
            let junk: Vec<u8> = (0..1 + rng.below(64)).map(|_| rng.next() as u8).collect();
            let len = junk.len();
            bytes.splice(at..at, junk);
            format!("insert {len} random bytes at {at}")
        }
    };
    (what, false)
}

#[test]
fn damaged_games_folders_never_panic_invent_or_lose_silently() {
    let base = Sim::new();
    let history = build(&base);
    let originals = files(&base);
    let games: Vec<&(PathBuf, Vec<u8>)> = originals
        .iter()
        .filter(|(p, b)| !b.is_empty() && p.to_string_lossy().contains("/games/"))
        .collect();
    // A journal generation past the first: a compaction happened before the last records.
    let compacted = originals.iter().any(|(p, _)| {
        let name = p.to_string_lossy();
        name.ends_with(".jnl")
            && name
                .rsplit('.')
                .nth(1)
                .and_then(|g| g.parse::<u32>().ok())
                .is_some_and(|g| g >= 2)
    });
    assert!(
        compacted
            && games
                .iter()
                .any(|(p, _)| p.to_string_lossy().ends_with(".jnl"))
            && games.len() >= 4,
        "snapshots and journals to damage: {:?}",
        originals
            .iter()
            .map(|(p, b)| (p, b.len()))
            .collect::<Vec<_>>()
    );
    // The undamaged folder reads back as the last state of every slot.
    let (j, slots, notices) = Journal::open_with(Path::new(DATA), base.after_crash().io(), opts());
    j.shutdown();
    assert!(notices.is_empty(), "{notices:?}");
    for s in &slots {
        assert_eq!(
            history[&s.key].last(),
            Some(&(s.header.clone(), s.saved.clone())),
            "{}",
            s.key
        );
    }
    assert_eq!(slots.len(), history.len());

    let mut damaged_told = 0;
    for seed in 0..MUTATIONS {
        let mut rng = Rng::new(seed);
        let (path, original) = games[rng.below(games.len())];
        let mut bytes = original.clone();
        let (what, only_cut) = mutate(&mut rng, &mut bytes);
        let case = format!("seed {seed}: {what} of {}", path.display());
        let sim = base.after_crash();
        sim.install(path, &bytes);
        let opened = catch_unwind(AssertUnwindSafe(|| {
            let (j, slots, notices) = Journal::open_with(Path::new(DATA), sim.io(), opts());
            j.shutdown();
            (slots, notices)
        }));
        let (slots, notices): (Vec<SlotData>, _) =
            opened.unwrap_or_else(|_| panic!("{case}: the journal panicked"));
        let warned = |key: &str| {
            notices
                .iter()
                .any(|n| n.level == "warning" && n.message.contains(key))
        };
        if !notices.is_empty() {
            damaged_told += 1;
        }
        for (key, states) in &history {
            let got = slots.iter().find(|s| &s.key == key);
            let Some(got) = got else {
                assert!(
                    warned(key) || only_cut,
                    "{case}: slot {key} vanished without a word ({notices:?})"
                );
                continue;
            };
            let state = (got.header.clone(), got.saved.clone());
            let at = states.iter().rposition(|s| *s == state).unwrap_or_else(|| {
                panic!("{case}: slot {key} came back in a state it never had: {state:?}")
            });
            let lost = states.len() - 1 - at;
            assert!(
                lost <= 1 || warned(key) || only_cut,
                "{case}: slot {key} lost {lost} changes without a word ({notices:?})"
            );
        }
        for s in &slots {
            assert!(
                history.contains_key(&s.key),
                "{case}: a slot from nowhere: {}",
                s.key
            );
        }
    }
    // The checks above would pass vacuously if no mutation was ever noticed.
    assert!(
        damaged_told > MUTATIONS / 4,
        "only {damaged_told} of {MUTATIONS} damaged folders were reported"
    );
}

#[test]
fn a_damaged_progress_file_is_refused_or_read_whole() {
    let doc = persist::Doc {
        gen: 41,
        progress: serde_json::from_value(json!({
            "records": {"slide:4x4/tile": {"rule": "tile", "best_moves": 52, "wins": 3, "date": "2026-11-30"}},
            "streaks": {"2048": {"current": 4, "best": 9, "last": "2026-11-30"}},
            "settings": {"language": "zh", "theme": "dark"},
        }))
        .unwrap(),
    };
    let bytes = persist::encode(&doc);
    let (back, _) = persist::decode(&bytes).expect("the undamaged file decodes");
    assert_eq!(back, doc);
    let mut refused = 0;
    for seed in 0..MUTATIONS {
        let mut rng = Rng::new(seed ^ 0xA5A5);
        let mut b = bytes.clone();
        let (what, _) = mutate(&mut rng, &mut b);
        let got = catch_unwind(|| persist::decode(&b))
            .unwrap_or_else(|_| panic!("seed {seed}: {what}: decode panicked"));
        match got {
            Ok((d, _)) => {
                // Whitespace, key order or number spelling may change and still check; the
                // content may not.
                assert_eq!(d, doc, "seed {seed}: {what}: a changed file was accepted");
            }
            Err(Bad::Damaged(m)) => {
                assert!(!m.is_empty(), "seed {seed}: an empty reason");
                refused += 1;
            }
            Err(Bad::Newer(m)) => assert!(m.contains("newer"), "seed {seed}: {m}"),
        }
    }
    assert!(refused > MUTATIONS / 2, "only {refused} refused");
}
