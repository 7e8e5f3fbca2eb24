//! The settings/records store under faults: the saver writes the checksummed
//! last-good copy atomically through `fsio::Io`, then the primary in place (as
//! tauri-plugin-store does: truncate + write, no fsync). A crash or power loss at any write
//! step must never lose the records of a state that was reported durable.

use huarong_core::fsio::sim::{Fault, Loss, Sim};
use huarong_core::persist::{self, Doc, InPlaceIo, Paths, Writer};
use huarong_core::progress::{Progress, Record};
use std::path::Path;
use std::time::Duration;

fn doc(gen: u64) -> Doc {
    let mut progress = Progress::default();
    for i in 0..gen {
        progress.records.insert(
            format!("slide:{}x{}/tile", 3 + i, 3 + i),
            Record {
                rule: "tile".into(),
                best_moves: Some(10 + i as u32),
                wins: 1,
                ..Record::default()
            },
        );
    }
    Doc { gen, progress }
}

const SAVES: u64 = 5;

/// Save gens 1..=SAVES, each waited for; the last gen reported durable before a crash.
/// `threaded`: the saver on its thread, or single-threaded (no threads: `wait_durable` writes
/// what may be written now, as the host's `step` does).
fn run(sim: &Sim, threaded: bool) -> u64 {
    let paths = Paths::new(Path::new("/data"));
    let rec = persist::recover_with(&paths, &sim.clone());
    assert_eq!(rec.doc.gen, 0);
    let mut platform = huarong_core::Platform::headless().with_io(sim.io());
    if !threaded {
        platform.tasks = std::sync::Arc::new(huarong_core::platform::NoThreads);
    }
    let w = Writer::start_on(
        &platform,
        paths.clone(),
        Box::new(InPlaceIo(sim.io(), paths.store.clone())),
        0,
        persist::RETRY_FIRST,
        persist::RETRY_MAX,
    );
    let mut durable = 0;
    'outer: for gen in 1..=SAVES {
        w.submit(doc(gen));
        loop {
            if w.wait_durable(gen, Duration::from_millis(20)) {
                durable = gen;
                break;
            }
            if sim.crashed() {
                break 'outer;
            }
        }
    }
    w.stop();
    durable
}

#[test]
fn records_survive_a_crash_or_power_loss_at_every_step() {
    crash_sweep(true);
}

/// The same sweep with the saver single-threaded (a platform without threads).
#[test]
fn single_threaded_records_survive_a_crash_or_power_loss_at_every_step() {
    crash_sweep(false);
}

fn crash_sweep(threaded: bool) {
    let probe = Sim::new();
    assert_eq!(run(&probe, threaded), SAVES);
    for k in 0..probe.steps() {
        let sim = Sim::new();
        sim.fail_step(k, Fault::Crash);
        let durable = run(&sim, threaded);
        let mut cases = vec![
            ("crash", sim.after_crash()),
            ("power loss", sim.power_loss(Loss::Clean)),
        ];
        for seed in 1..=4 {
            cases.push(("torn power loss", sim.power_loss(Loss::Torn(seed * 31 + k))));
        }
        for (what, fs) in cases {
            let rec = persist::recover_with(&Paths::new(Path::new("/data")), &fs);
            assert!(
                rec.doc.gen >= durable,
                "{what} at step {k}: gen {} < durable {durable}; {:?}",
                rec.doc.gen,
                rec.notices
            );
            assert_eq!(
                rec.doc.progress.records.len() as u64,
                rec.doc.gen,
                "{what} at step {k}: the records of the state are whole"
            );
            assert_eq!(
                rec.doc.progress,
                doc(rec.doc.gen).progress,
                "{what} at step {k}"
            );
        }
    }
}

/// A write failure at start-up (the repair write) does not turn saving off: the saver is
/// started and saves once the storage works again.
#[test]
fn a_write_failure_at_start_up_keeps_saving_on() {
    let sim = Sim::new();
    let paths = Paths::new(Path::new("/data"));
    // A v1 file with an older gen in the good copy only: start-up rewrites both files.
    sim.install(&paths.good, &persist::encode(&doc(2)));
    sim.fail_all(huarong_core::fsio::sim::Op::Fsync, Fault::Eio);
    let rec = persist::recover_with(&paths, &sim.clone());
    assert!(rec.writable, "saving stays on: {:?}", rec.notices);
    assert!(rec.notices.iter().any(|n| n.code == "save_failed"));
    assert_eq!(rec.doc.gen, 2);
    sim.heal();
    let w = Writer::start_with(
        paths.clone(),
        Box::new(InPlaceIo(sim.io(), paths.store.clone())),
        rec.doc.gen,
        sim.io(),
    );
    w.submit(doc(3));
    assert!(w.wait_durable(3, Duration::from_secs(10)));
    w.stop();
    let again = persist::recover_with(&paths, &sim.power_loss(Loss::Clean));
    assert_eq!(again.doc.gen, 3);
}

/// A primary that fails while `failing` is set and tells every attempt's time.
struct Flaky {
    failing: std::sync::Arc<std::sync::atomic::AtomicBool>,
    attempts: std::sync::mpsc::Sender<std::time::Instant>,
}

impl persist::Primary for Flaky {
    fn save(&mut self, _bytes: &[u8]) -> Result<(), String> {
        let _ = self.attempts.send(std::time::Instant::now());
        if self.failing.load(std::sync::atomic::Ordering::SeqCst) {
            Err("No space left on device (os error 28)".into())
        } else {
            Ok(())
        }
    }
}

/// A failed save is tried again after a back-off that doubles up to its cap (not at a fixed
/// pace forever), and saving resumes when the storage works again.
#[test]
fn a_failing_save_backs_off_doubling_then_resumes() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let sim = Sim::new();
    let paths = Paths::new(Path::new("/data"));
    let failing = std::sync::Arc::new(AtomicBool::new(true));
    let (tx, rx) = std::sync::mpsc::channel();
    let (first, max) = (Duration::from_millis(20), Duration::from_millis(80));
    let w = Writer::start_retrying(
        paths.clone(),
        Box::new(Flaky {
            failing: failing.clone(),
            attempts: tx,
        }),
        0,
        sim.io(),
        first,
        max,
    );
    w.submit(doc(1));
    let at: Vec<std::time::Instant> = (0..6)
        .map(|_| {
            rx.recv_timeout(Duration::from_secs(20))
                .expect("an attempt")
        })
        .collect();
    assert!(w.error().is_some_and(|e| e.contains("space")));
    // Lower bounds only (a loaded machine may wait longer, never shorter).
    for (i, want) in [20u64, 40, 80, 80, 80].into_iter().enumerate() {
        let gap = at[i + 1] - at[i];
        assert!(
            gap >= Duration::from_millis(want),
            "attempt {} came {gap:?} after the one before, before its back-off of {want} ms",
            i + 2
        );
    }
    failing.store(false, Ordering::SeqCst);
    assert!(w.wait_durable(1, Duration::from_secs(20)), "saving resumed");
    assert_eq!(w.error(), None);
    w.stop();
    let rec = persist::recover_with(&paths, &sim.power_loss(Loss::Clean));
    assert_eq!(rec.doc.gen, 1);
}

/// A primary whose first save panics.
struct PanicsOnce(bool);

impl persist::Primary for PanicsOnce {
    fn save(&mut self, _bytes: &[u8]) -> Result<(), String> {
        if !self.0 {
            self.0 = true;
            panic!("injected panic in the primary's save");
        }
        Ok(())
    }
}

/// The saver survives a panic in a save: it counts as a failed save, is retried, and the
/// state reaches the disk.
#[test]
fn the_saver_survives_a_panic_and_saves_after_it() {
    let sim = Sim::new();
    let paths = Paths::new(Path::new("/data"));
    let w = Writer::start_retrying(
        paths.clone(),
        Box::new(PanicsOnce(false)),
        0,
        sim.io(),
        Duration::from_millis(5),
        Duration::from_millis(20),
    );
    w.submit(doc(1));
    assert!(
        w.wait_durable(1, Duration::from_secs(20)),
        "the saver died with the panic: {:?}",
        w.error()
    );
    w.submit(doc(2));
    assert!(w.wait_durable(2, Duration::from_secs(20)));
    assert_eq!(w.error(), None);
    w.stop();
    let rec = persist::recover_with(&paths, &sim.power_loss(Loss::Clean));
    assert_eq!(rec.doc.gen, 2);
}

/// The saver never writes a file over the reader's limit (it would start empty next time):
/// such a state is refused with a clear error and the older copies stay readable.
#[test]
fn a_state_over_the_file_limit_is_not_written() {
    let sim = Sim::new();
    let paths = Paths::new(Path::new("/data"));
    let w = Writer::start_with(
        paths.clone(),
        Box::new(InPlaceIo(sim.io(), paths.store.clone())),
        0,
        sim.io(),
    );
    w.submit(doc(2));
    assert!(w.wait_durable(2, Duration::from_secs(20)));
    let mut big = doc(3);
    big.progress
        .quarantine
        .push(huarong_core::progress::Quarantined {
            kind: "slide".into(),
            reason: "test".into(),
            saved: serde_json::Value::String("x".repeat(persist::MAX_FILE as usize)),
        });
    w.submit(big);
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    let e = loop {
        assert!(!w.wait_durable(3, Duration::from_millis(50)), "written");
        if let Some(e) = w.error() {
            break e;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the refusal was never reported"
        );
    };
    assert!(e.contains("larger than"), "{e}");
    w.stop();
    // After a kill the files are as the saver left them: the older state, and no notice.
    let rec = persist::recover_with(&paths, &sim.after_crash());
    assert_eq!(
        rec.doc.gen, 2,
        "the older state is still there: {:?}",
        rec.notices
    );
    assert!(rec.notices.is_empty(), "{:?}", rec.notices);
    // After a power loss too (the store file, written in place without fsync, may be empty
    // then: the good copy has the state).
    let rec = persist::recover_with(&paths, &sim.power_loss(Loss::Clean));
    assert_eq!(rec.doc.gen, 2, "{:?}", rec.notices);
}
