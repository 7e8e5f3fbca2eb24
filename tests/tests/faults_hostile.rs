//! Hostile files: loading 300,000 records, huge numbers, deep nesting and a file of
//! 64 MiB + 1 byte is bounded (one parse, linear sanitising, size limits) and never panics;
//! counters saturate instead of failing the file. The run times and the memory each load
//! takes on top of its input are printed (figures, not assertions); for figures of one case
//! at a time: `cargo test --release -p huarong-tests --test faults_hostile -- --nocapture
//! --test-threads=1`.

use huarong_core::fsio::sim::Sim;
use huarong_core::journal::{self, Journal};
use huarong_core::persist::{self, Bad, MAX_FILE, MAX_GEN};
use huarong_core::progress::MAX_RECORDS;
use serde_json::{json, Value};
use std::path::Path;
use std::time::Instant;

/// Heap bytes in use and their peak, counted by the test binary's allocator (the load's
/// memory beyond what was in use before it; with other tests running at once this is the
/// process', not the case's alone).
mod heap {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    pub struct Counting;
    static NOW: AtomicUsize = AtomicUsize::new(0);
    static PEAK: AtomicUsize = AtomicUsize::new(0);

    fn grew(n: usize) {
        let now = NOW.fetch_add(n, Relaxed) + n;
        PEAK.fetch_max(now, Relaxed);
    }

    // SAFETY: every call is passed on to the system allocator unchanged; only counted.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, l: Layout) -> *mut u8 {
            let p = unsafe { System.alloc(l) };
            if !p.is_null() {
                grew(l.size());
            }
            p
        }
        unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
            unsafe { System.dealloc(p, l) };
            NOW.fetch_sub(l.size(), Relaxed);
        }
        unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
            let q = unsafe { System.realloc(p, l, new) };
            if !q.is_null() {
                NOW.fetch_sub(l.size(), Relaxed);
                grew(new);
            }
            q
        }
    }

    /// Start measuring: the bytes in use now.
    pub fn mark() -> usize {
        let now = NOW.load(Relaxed);
        PEAK.store(now, Relaxed);
        now
    }

    /// "peak heap +N MiB" since `mark`.
    pub fn since(mark: usize) -> String {
        let extra = PEAK.load(Relaxed).saturating_sub(mark);
        format!("peak heap +{:.1} MiB", extra as f64 / (1 << 20) as f64)
    }
}

#[global_allocator]
static HEAP: heap::Counting = heap::Counting;

use heap::{mark as mem_mark, since as mem_since};

fn file(gen: Value, gen_for_sum: u64, progress: Value) -> Vec<u8> {
    let sum = persist::checksum(1, gen_for_sum, &progress);
    serde_json::to_vec(
        &json!({"save": {"schema": 1, "gen": gen, "checksum": sum, "progress": progress}}),
    )
    .unwrap()
}

#[test]
fn three_hundred_thousand_records_load_in_bounded_time() {
    let mut records = serde_json::Map::new();
    for i in 0..300_000u32 {
        records.insert(
            format!("klotski:gen{i}#{i}/piece"),
            json!({"rule": "piece", "best_moves": i, "wins": 1, "date": format!("2026-01-{:02}", i % 28 + 1)}),
        );
    }
    let bytes = file(json!(7), 7, json!({"records": records}));
    let mark = mem_mark();
    let t = Instant::now();
    let (doc, _) = persist::decode(&bytes).expect("decodes");
    eprintln!(
        "300,000 records ({} bytes): decode + sanitise {:.0} ms, {}",
        bytes.len(),
        t.elapsed().as_secs_f64() * 1e3,
        mem_since(mark)
    );
    assert_eq!(doc.progress.records.len(), MAX_RECORDS);
}

#[test]
fn huge_numbers_saturate_and_keep_the_records() {
    let progress = json!({
        "records": {"slide:4x4/tile": {"rule": "tile", "best_moves": 1e30, "wins": 99999999999u64,
            "hints_used": -5, "stars": 1000, "best_time_ms": 1e300, "best_score": 18446744073709551615u64,
            "date": "2026-01-01"}},
        "streaks": {"2048": {"current": 5e20, "best": 4294967296u64, "last": "2026-01-01"}}
    });
    // gen far past u64: it saturates; the checksum was made with the saturated value.
    let bytes = file(json!(1e30), u64::MAX, progress);
    let (mark, t) = (mem_mark(), Instant::now());
    let (doc, _) = persist::decode(&bytes).expect("decodes");
    eprintln!(
        "huge numbers ({} bytes): decoded, saturated, in {:.2} ms, {}",
        bytes.len(),
        t.elapsed().as_secs_f64() * 1e3,
        mem_since(mark)
    );
    let r = &doc.progress.records["slide:4x4/tile"];
    assert_eq!(r.best_moves, Some(u32::MAX));
    assert_eq!(r.wins, u32::MAX);
    assert_eq!(r.hints_used, 0);
    assert_eq!(r.stars, u8::MAX);
    assert_eq!(r.best_time_ms, Some(u64::MAX));
    assert_eq!(doc.progress.streaks["2048"].current, u32::MAX);
    assert_eq!(
        doc.gen, MAX_GEN,
        "gen is cut so that counting on never overflows"
    );
}

#[test]
fn deep_nesting_is_refused_not_a_stack_overflow() {
    let depth = 200_000;
    let mut s =
        String::from("{\"save\":{\"schema\":1,\"gen\":1,\"checksum\":\"x\",\"progress\":{\"x\":");
    s.push_str(&"[".repeat(depth));
    s.push_str(&"]".repeat(depth));
    s.push_str("}}}");
    let (mark, t) = (mem_mark(), Instant::now());
    assert!(matches!(
        persist::decode(s.as_bytes()),
        Err(Bad::Damaged(_))
    ));
    assert!(matches!(
        persist::decode_with(s.as_bytes(), false),
        Err(Bad::Damaged(_))
    ));
    eprintln!(
        "{depth}-deep nesting ({} bytes) refused in {:.1} ms, {}",
        s.len(),
        t.elapsed().as_secs_f64() * 1e3,
        mem_since(mark)
    );
    // The journal decoders take any bytes.
    let recs = journal::decode_records(s.as_bytes());
    assert!(recs.records.is_empty());
}

#[test]
fn a_file_over_the_limit_is_not_read() {
    let big = vec![b' '; (MAX_FILE + 1) as usize];
    let (mark, t) = (mem_mark(), Instant::now());
    assert!(matches!(persist::decode(&big), Err(Bad::Damaged(m)) if m.contains("larger")));
    eprintln!(
        "64 MiB + 1 byte in memory: decode refused in {:.3} ms, {}",
        t.elapsed().as_secs_f64() * 1e3,
        mem_since(mark)
    );
    // On a real disk: the store file of 64 MiB + 1 byte is refused without reading it (its
    // size says so) and kept aside; the app starts fresh with a notice.
    let dir = huarong_tests::TempDir::new("hostile-big");
    let paths = persist::Paths::new(dir.path());
    std::fs::write(&paths.store, &big).expect("write the big file");
    let (mark, t) = (mem_mark(), Instant::now());
    let rec = persist::recover(&paths);
    eprintln!(
        "64 MiB + 1 byte store file on disk: start-up check refused it in {:.1} ms, {}",
        t.elapsed().as_secs_f64() * 1e3,
        mem_since(mark)
    );
    assert_eq!(rec.doc.gen, 0);
    assert!(
        rec.notices.iter().any(|n| n.code == "kept_aside"),
        "{:?}",
        rec.notices
    );
    // Simulated: the same for the store file, and a games-folder file over the journal's
    // limit is set aside with a notice.
    let sim = Sim::new();
    let paths = persist::Paths::new(Path::new("/data"));
    sim.install(&paths.store, &big);
    let rec = persist::recover_with(&paths, &sim.clone());
    assert_eq!(rec.doc.gen, 0);
    assert!(!rec.notices.is_empty());
    let snap = Path::new("/data/games").join(format!("{}.snap", journal::stem("slide:4x4")));
    sim.install(&snap, &vec![0u8; (journal::MAX_FILE + 1) as usize]);
    let (mark, t) = (mem_mark(), Instant::now());
    let (j, slots, notices) = Journal::open(Path::new("/data"), sim.io());
    j.shutdown();
    eprintln!(
        "a games snapshot of 64 MiB + 1 byte (simulated disk) set aside in {:.1} ms, {}",
        t.elapsed().as_secs_f64() * 1e3,
        mem_since(mark)
    );
    assert!(slots.is_empty());
    assert!(
        notices.iter().any(|n| n.code == "kept_aside"),
        "{notices:?}"
    );
}

/// A journal of 300,000 records (more than the log limit) loads in one linear pass: the
/// records that fit apply, the first that would pass `MAX_LOG` stops the replay (kept as the
/// valid prefix) with a notice.
#[test]
fn a_journal_of_300000_records_is_bounded() {
    use huarong_engine::session::MAX_LOG;
    let sim = Sim::new();
    let key = "slide:3x3";
    let saved = json!({"version": 1, "id": "slide:3x3#1", "log": [], "cursor": 0, "elapsed_ms": 0});
    let snap_payload =
        serde_json::to_vec(&json!({"key": key, "jgen": 1, "header": {}, "saved": saved})).unwrap();
    let dir = Path::new("/data/games");
    sim.install(
        &dir.join(format!("{}.snap", journal::stem(key))),
        &journal::encode_snapshot(&snap_payload, journal::MAX_FILE as usize).unwrap(),
    );
    let mut jbytes = Vec::new();
    for i in 0..300_000usize {
        let rec = json!({"d": {"keep": i, "add": [{"t": "move", "m": {"tile": 1}}], "cursor": i + 1,
            "elapsed_ms": i, "undo_used": false, "hints_used": 0, "auto_solved": false, "undo_allowed": true}});
        journal::encode_record(&mut jbytes, &serde_json::to_vec(&rec).unwrap()).unwrap();
    }
    sim.install(&dir.join(format!("{}.1.jnl", journal::stem(key))), &jbytes);
    let (mark, t) = (mem_mark(), Instant::now());
    let (j, slots, notices) = Journal::open(Path::new("/data"), sim.io());
    let ms = t.elapsed().as_secs_f64() * 1e3;
    j.shutdown();
    eprintln!(
        "journal of 300,000 records ({} bytes) opened in {ms:.0} ms, {}",
        jbytes.len(),
        mem_since(mark)
    );
    assert_eq!(slots.len(), 1);
    assert!(notices.iter().any(|n| n.code == "restored"), "{notices:?}");
    let log = slots[0].saved["log"].as_array().unwrap().len();
    assert_eq!(
        log, MAX_LOG,
        "the records up to the limit apply, the rest stop"
    );
}
