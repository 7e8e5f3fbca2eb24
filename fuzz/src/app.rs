//! The app's decoders as fuzz targets: the saved progress file (`persist::decode`), the move
//! journal (`journal::decode_records` and the start-up recovery that applies its records) and
//! slot snapshots (`journal::decode_snapshot` and the recovery that reads them).
//!
//! This file is the whole logic of the three app targets. It is not part of the fuzz crate's
//! library (which the engine's test includes, without the app): each `fuzz_targets/<name>.rs`
//! includes it with `#[path]`, and so does `tests/tests/fuzz_corpus_app.rs`, which replays
//! `fuzz/regressions/<name>/*` under a normal `cargo test -p huarong-tests`. It uses only the
//! app's library, the engine and `serde`/`serde_json`, so it compiles in both places.
//!
//! Inputs (the seeds in `regressions/` are made by the app's own writers, see the replay test):
//! - `progress_file`: the bytes of `huarong.json`. They are decoded as they are, and, when they
//!   are a JSON object, once more with the checksum envelope recomputed (a bare object becomes
//!   the progress of a current envelope), so mutations get past the checksum.
//! - `journal_records`: byte 0 is flags, the rest is lines split at `\n`. Line 0 is the slot's
//!   `SavedSession` JSON (the snapshot the journal belongs to). Flag 1: everything after line 0
//!   is the journal file verbatim; otherwise every further line is one record payload, sealed
//!   with its length and CRC-32, and with flag 2 the last line is appended unsealed (a torn or
//!   damaged tail).
//! - `journal_snapshot`: byte 0 is flags, the rest is the payload of a snapshot file, sealed
//!   with the magic, length and CRC-32; with flag 1 the rest is the whole file verbatim.

use huarong_core::fsio::sim::Sim;
use huarong_core::journal::{self, Journal, RecIn, SlotData, SnapIn, GAMES_DIR, MAX_RECORD};
use huarong_core::persist::{self, Bad, MAX_GEN};
use huarong_core::progress::{self, Progress, MAX_QUARANTINE, MAX_RECORDS, SCHEMA};
use huarong_core::{records, slots};
use huarong_engine::registry::{self, Visitor};
use huarong_engine::session::SavedSession;
use huarong_engine::{Game, GameId, Kind, Registered, Session};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// A target: the fuzzer's bytes in, a panic for a bug.
pub type Target = fn(&[u8]);

/// Every app target by name (the folder names under `regressions/`).
pub const TARGETS: &[(&str, Target)] = &[
    ("progress_file", progress_file),
    ("journal_records", journal_records),
    ("journal_snapshot", journal_snapshot),
];

// ---------------------------------------------------------------------------------------
// The progress file.
// ---------------------------------------------------------------------------------------

/// Any bytes as the progress file, as they are and resealed.
pub fn progress_file(data: &[u8]) {
    check_file(data);
    if let Some(sealed) = reseal(data) {
        check_file(&sealed);
    }
}

/// A JSON object with its checksum made right: a `"save"` envelope with a readable schema and
/// gen gets the checksum of its progress; an object without one becomes the progress of a
/// current envelope. `None` when there is nothing to reseal (or it was already right).
pub fn reseal(data: &[u8]) -> Option<Vec<u8>> {
    let Ok(Value::Object(mut file)) = serde_json::from_slice::<Value>(data) else {
        return None;
    };
    if !file.contains_key("save") {
        let progress = Value::Object(file);
        let save = json!({
            "schema": SCHEMA,
            "gen": 1,
            "checksum": persist::checksum(SCHEMA, 1, &progress),
            "progress": progress,
        });
        return serde_json::to_vec(&json!({ "save": save })).ok();
    }
    let save = file.get_mut("save")?.as_object_mut()?;
    let schema = u32::try_from(save.get("schema").and_then(Value::as_u64)?).ok()?;
    let gen = match save.get("gen") {
        Some(Value::Number(n)) => progress::saturate_u64(n),
        _ => return None,
    };
    let sum = persist::checksum(schema, gen, save.get("progress")?);
    if save.get("checksum").and_then(Value::as_str) == Some(sum.as_str()) {
        return None;
    }
    save.insert("checksum".into(), Value::from(sum));
    serde_json::to_vec(&file).ok()
}

/// Decode a file; what decodes is within the sanitising bounds, and what the app writes for
/// it decodes to the same and writes the same bytes again.
fn check_file(bytes: &[u8]) {
    let verified = persist::decode(bytes);
    let unverified = persist::decode_with(bytes, false);
    match &verified {
        // The checksum check only ever turns a result into "damaged".
        Ok(ok) => assert_eq!(unverified.as_ref(), Ok(ok), "decode_with(false) differs"),
        Err(Bad::Newer(_)) => assert!(matches!(unverified, Err(Bad::Newer(_)))),
        Err(Bad::Damaged(_)) => {}
    }
    for (doc, from) in [verified.ok(), unverified.ok()].into_iter().flatten() {
        assert!(from <= SCHEMA, "decoded from schema {from}");
        assert!(doc.gen <= MAX_GEN, "gen {} over MAX_GEN", doc.gen);
        check_bounds(&doc.progress);
        let mut again = doc.progress.clone();
        again.sanitize();
        assert_eq!(again, doc.progress, "sanitize is not idempotent");
        let written = persist::encode(&doc);
        let (back, schema) = persist::decode(&written).expect("what the app writes reads back");
        assert_eq!(schema, SCHEMA);
        assert_eq!(back, doc, "a written progress reads back different");
        assert_eq!(
            persist::encode(&back),
            written,
            "writing is not a fixed point"
        );
    }
}

/// The bounds `Progress::sanitize` promises.
fn check_bounds(p: &Progress) {
    if let Err(e) = p.settings.validate() {
        panic!("settings out of range after sanitize: {e}");
    }
    assert!(progress::valid_screen(&p.screen), "screen {:?}", p.screen);
    assert!(p.records.len() <= MAX_RECORDS);
    assert!(p.quarantine.len() <= MAX_QUARANTINE);
    assert!(p.settled.len() <= 4 * slots::MAX_SLOTS);
    assert!(p.challenges.len() <= 2 * slots::MAX_SLOTS);
    for k in p.games.keys() {
        assert!(Kind::parse(k).is_some(), "a saved game of kind {k:?}");
    }
    for (k, v) in &p.current {
        assert!(Kind::parse(k).is_some(), "a current slot of kind {k:?}");
        assert!(slots::mode_of_key(v).is_some(), "current slot key {v:?}");
    }
    assert!(p.stats.len() <= records::MAX_SCOPES);
    for (k, s) in &p.stats {
        assert!(k.len() <= records::MAX_SCOPE_LEN);
        assert!(s.history.len() <= records::MAX_HISTORY);
        assert!(s.recent.len() <= 12);
    }
}

// ---------------------------------------------------------------------------------------
// The journal and snapshots.
// ---------------------------------------------------------------------------------------

/// The data folder on the simulated file system.
const DATA: &str = "/fuzz";
/// The slot of journal inputs (and of snapshots that name no usable key).
pub const KEY: &str = "slide:3x3";
/// The snapshot generation of journal inputs (the journal is `<stem>.1.jnl`).
const JGEN: u64 = 1;

fn games_dir() -> PathBuf {
    Path::new(DATA).join(GAMES_DIR)
}

/// The framing laws of a journal file: the valid prefix is the records back to back, each
/// within the limit, and encoding them again gives exactly that prefix.
fn check_framing(bytes: &[u8]) {
    let r = journal::decode_records(bytes);
    assert!(r.valid <= bytes.len());
    let mut out = Vec::with_capacity(r.valid);
    for rec in &r.records {
        assert!(rec.len() <= MAX_RECORD);
        journal::encode_record(&mut out, rec).expect("a decoded record encodes");
    }
    assert_eq!(
        out,
        &bytes[..r.valid],
        "records do not re-encode to their bytes"
    );
    assert_eq!(journal::decode_records(&bytes[..r.valid]), r);
}

/// Any bytes as a journal beside a snapshot (see the module comment for the layout).
pub fn journal_records(data: &[u8]) {
    check_framing(data);
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let (first, tail) = match rest.iter().position(|&b| b == b'\n') {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let file = if flags & 1 != 0 {
        tail.to_vec()
    } else {
        let mut lines: Vec<&[u8]> = tail.split(|&b| b == b'\n').collect();
        let unsealed = if flags & 2 != 0 { lines.pop() } else { None };
        if lines.iter().any(|l| l.len() > MAX_RECORD) {
            return;
        }
        let mut file = Vec::new();
        for l in &lines {
            journal::encode_record(&mut file, l).expect("a line within the limit encodes");
        }
        let r = journal::decode_records(&file);
        assert_eq!(
            r.records, lines,
            "sealed records do not decode to themselves"
        );
        assert_eq!(r.valid, file.len());
        file.extend_from_slice(unsealed.unwrap_or_default());
        file
    };
    check_framing(&file);
    let Ok(saved) = serde_json::from_slice::<Value>(first) else {
        return;
    };
    let payload = serde_json::to_vec(&json!({
        "key": KEY,
        "jgen": JGEN,
        "header": {"fuzz": true},
        "saved": saved,
    }))
    .expect("JSON writes");
    let snap = journal::encode_snapshot(&payload, usize::MAX).expect("a snapshot encodes");
    recover_and_check(KEY, &snap, Some(&file));
}

/// Any bytes as a snapshot file (see the module comment for the layout).
pub fn journal_snapshot(data: &[u8]) {
    if let Ok(p) = journal::decode_snapshot(data) {
        let again = journal::encode_snapshot(p, usize::MAX).expect("a decoded snapshot encodes");
        assert_eq!(again, data, "a snapshot does not re-encode to its bytes");
    }
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let file = if flags & 1 != 0 {
        rest.to_vec()
    } else {
        let file = journal::encode_snapshot(rest, usize::MAX).expect("a snapshot encodes");
        assert_eq!(journal::decode_snapshot(&file), Ok(rest));
        assert!(journal::decode_snapshot(&file[..file.len() - 1]).is_err());
        let mut flipped = file.clone();
        flipped[journal::encode_snapshot(&[], usize::MAX).unwrap().len() - 1] ^= 0x80;
        assert!(
            journal::decode_snapshot(&flipped).is_err(),
            "a flipped CRC passes"
        );
        file
    };
    // The file is named after the key it holds (so the fuzzer gets past the key check).
    let key = journal::decode_snapshot(&file)
        .ok()
        .and_then(|p| serde_json::from_slice::<Value>(p).ok())
        .and_then(|v| v.get("key")?.as_str().map(str::to_string))
        .filter(|k| !k.is_empty() && k.len() <= 100)
        .unwrap_or_else(|| KEY.to_string());
    let journal = (flags & 2 != 0).then_some(&[][..]);
    recover_and_check(&key, &file, journal);
}

/// What the recovery should find for one slot: the snapshot (whole, of this key) with every
/// journal record applied in order up to the first that does not parse or apply.
fn model(key: &str, snap: &[u8], journal_file: Option<&[u8]>) -> Option<SlotData> {
    let payload = journal::decode_snapshot(snap).ok()?;
    let s: SnapIn = serde_json::from_slice(payload).ok()?;
    if s.key != key {
        return None;
    }
    let (mut header, mut saved) = (s.header, s.saved);
    if let Some(j) = journal_file.filter(|_| s.jgen == JGEN) {
        for rec in journal::decode_records(j).records {
            let Ok(r) = serde_json::from_slice::<RecIn>(rec) else {
                break;
            };
            if saved.apply(r.d).is_err() {
                break;
            }
            if let Some(h) = r.h {
                header = h;
            }
        }
    }
    Some(SlotData {
        key: key.to_string(),
        header,
        saved: serde_json::to_value(&saved).expect("a saved session is JSON"),
    })
}

/// Start the journal on a folder holding this slot's files, stop it, start it again: both
/// starts find what the model says, and the recovered game restores or fails cleanly.
fn recover_and_check(key: &str, snap: &[u8], journal_file: Option<&[u8]>) {
    let sim = Sim::new();
    let dir = games_dir();
    let stem = journal::stem(key);
    sim.install(&dir.join(format!("{stem}.snap")), snap);
    if let Some(j) = journal_file {
        sim.install(&dir.join(format!("{stem}.{JGEN}.jnl")), j);
    }
    let want: Vec<SlotData> = model(key, snap, journal_file).into_iter().collect();
    let first = start(&sim);
    assert_eq!(first, want, "recovery differs from the model");
    let second = start(&sim);
    assert_eq!(second, first, "a second start finds something else");
    for slot in &first {
        restore(&slot.saved);
    }
}

/// One start and stop of the journal on `sim`: the slots it found.
fn start(sim: &Sim) -> Vec<SlotData> {
    let (j, slots, _notices) = Journal::open(Path::new(DATA), sim.io());
    j.shutdown();
    slots
}

/// A recovered game as a session of its kind (cheap IDs only: some generated levels run a
/// search, `Registered::costly_generator`): it restores or fails with an error, and what it
/// saves restores to the same.
fn restore(saved: &Value) {
    let Some(id) = saved.get("id").and_then(Value::as_str) else {
        return;
    };
    let Ok(id) = GameId::parse(id) else {
        return;
    };
    if id.seed.is_some() && registry::costly_generator(id.kind, &id.body) {
        return;
    }
    id.kind.visit(RestoreAs(saved));
}

/// [`restore_as`] the game a kind names.
struct RestoreAs<'a>(&'a Value);

impl Visitor for RestoreAs<'_> {
    type Out = ();
    fn visit<G: Registered + PartialEq>(self) {
        restore_as::<G>(self.0)
    }
}

fn restore_as<G: Game + PartialEq + std::fmt::Debug>(saved: &Value) {
    let Ok(s) = serde_json::from_value::<SavedSession<G::Move>>(saved.clone()) else {
        return;
    };
    let Ok(r) = Session::<G>::restore(&s) else {
        return;
    };
    let again = Session::<G>::restore(&r.save(0)).expect("a restored session restores");
    assert_eq!(again.current(), r.current());
    assert_eq!(again.played().len(), r.played().len());
}
