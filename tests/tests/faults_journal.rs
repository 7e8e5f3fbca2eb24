//! The move journal under faults: every write step (create, write, fsync, rename,
//! folder fsync, remove) fails in turn with EIO, ENOSPC, EROFS, a short write or a crash, on a
//! simulated file system that also models power loss (only fsynced bytes and fsynced folder
//! entries survive; or torn: un-synced appends cut at a random byte, un-synced name changes
//! kept or lost at random). After every fault a reopen finds every change that was reported
//! durable, losing at most the one in flight; transient faults are retried until saved.
//!
//! The mutation check at the end breaks each fsync and each ordering of the write path in
//! turn (`journal::Options::mutant`) and asserts that this sweep then finds a loss — so these
//! tests would notice if the real code lost a fsync or a rename order.

use huarong_core::fsio::sim::{Fault, Loss, Op, Sim, FAULTS};
use huarong_core::journal::{Journal, Options, SlotData, MUTANT_SITES};
use huarong_engine::slide::{Move, Slide};
use huarong_engine::Session;
use huarong_tests::journal_slide;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::Path;
use std::rc::Rc;
use std::time::Duration;

type World = BTreeMap<String, (Value, Value)>;
type Change = Box<dyn FnMut(&Journal, &mut World)>;

fn world_of(slots: &[SlotData]) -> World {
    slots
        .iter()
        .map(|s| (s.key.clone(), (s.header.clone(), s.saved.clone())))
        .collect()
}

fn opts(mutant: Option<&'static str>) -> Options {
    Options {
        mutant,
        // Small, so the sweep compacts (snapshot + new journal) several times.
        compact_at: Some(300),
        retry_first: Some(Duration::from_millis(1)),
    }
}

fn pick(s: &Session<Slide>, i: usize) -> Move {
    let m = s.current().board().movable();
    Move {
        tile: m[i % m.len()],
    }
}

/// Wait until everything handed over is durable; false when the process "died" first.
fn settle(j: &Journal, sim: &Sim) -> bool {
    loop {
        if j.flush(Duration::from_millis(20)) {
            return true;
        }
        if sim.crashed() {
            return false;
        }
    }
}

/// The change that puts the save of `s` (at `now` ms) as `slot` with the header `head`.
fn put_change(
    s: &Rc<RefCell<Session<Slide>>>,
    slot: &'static str,
    head: Value,
    now: u64,
) -> Change {
    let s = s.clone();
    Box::new(move |j, w| {
        let saved = serde_json::to_value(s.borrow().save(now)).unwrap();
        j.put(slot, head.clone(), saved.clone());
        w.insert(slot.into(), (head.clone(), saved));
    })
}

/// The scenario: the worlds after each change (worlds[0] = empty), and how many changes were
/// reported durable before a crash stopped it (`None`: it ran to the end).
/// The journal on `sim`: written by its background thread, or single-threaded (no threads:
/// every `flush` writes the batch that may be written now, as the host's `step` does).
fn open(sim: &Sim, mutant: Option<&'static str>, threaded: bool) -> (Journal, Vec<SlotData>) {
    let mut platform = huarong_core::Platform::headless().with_io(sim.io());
    if !threaded {
        platform.tasks = std::sync::Arc::new(huarong_core::platform::NoThreads);
    }
    let (j, slots, _) = Journal::open_on(Path::new("/data"), &platform, opts(mutant));
    (j, slots)
}

fn run(sim: &Sim, mutant: Option<&'static str>) -> (Vec<World>, Option<usize>, Journal) {
    run_in(sim, mutant, true)
}

fn run_in(
    sim: &Sim,
    mutant: Option<&'static str>,
    threaded: bool,
) -> (Vec<World>, Option<usize>, Journal) {
    let (j, slots) = open(sim, mutant, threaded);
    assert!(slots.is_empty());
    let mut worlds: Vec<World> = vec![World::new()];
    let mut w = World::new();
    let sa = Rc::new(RefCell::new(Session::<Slide>::open("slide:3x3#5").unwrap()));
    let sb = Rc::new(RefCell::new(Session::<Slide>::open("slide:3x3#9").unwrap()));
    let mut changes: Vec<Change> = Vec::new();
    changes.push(put_change(&sa, "slide:3x3", json!({"n": 0}), 0));
    for i in 0..14usize {
        let sa = sa.clone();
        changes.push(Box::new(move |j, w| {
            let mut s = sa.borrow_mut();
            let t = 100 * (i as u64 + 1);
            if i == 6 {
                s.undo(t).unwrap();
            } else {
                let mv = pick(&s, i * 3 + 1);
                s.play(&mv, t).unwrap();
            }
            let d = serde_json::to_value(s.take_delta(t)).unwrap();
            let h = json!({"n": i + 1});
            j.append("slide:3x3", h.clone(), d);
            w.insert(
                "slide:3x3".into(),
                (h, serde_json::to_value(s.save(t)).unwrap()),
            );
        }));
    }
    changes.push(put_change(&sb, "2048:free", json!({"b": 0}), 0));
    {
        let sb = sb.clone();
        changes.push(Box::new(move |j, w| {
            let mut s = sb.borrow_mut();
            let mv = pick(&s, 0);
            s.play(&mv, 5).unwrap();
            let d = serde_json::to_value(s.take_delta(5)).unwrap();
            j.append("2048:free", json!({"b": 1}), d);
            w.insert(
                "2048:free".into(),
                (json!({"b": 1}), serde_json::to_value(s.save(5)).unwrap()),
            );
        }));
    }
    changes.push(Box::new(|j, _w| j.checkpoint()));
    changes.push(Box::new(|j, w| {
        j.remove("2048:free");
        w.remove("2048:free");
    }));
    changes.push(put_change(&sa, "slide:3x3", json!({"n": "end"}), 9999));
    for (i, c) in changes.iter_mut().enumerate() {
        c(&j, &mut w);
        worlds.push(w.clone());
        if !settle(&j, sim) {
            return (worlds, Some(i), j);
        }
    }
    (worlds, None, j)
}

fn reopen(sim: &Sim) -> World {
    let (j, slots, _) = Journal::open_with(Path::new("/data"), sim.io(), opts(None));
    j.shutdown();
    world_of(&slots)
}

/// A crash at every write step, then: the process restarts (nothing lost by the OS), or the
/// power fails (clean, or torn with several seeds). Returns the first violation found.
fn crash_sweep(mutant: Option<&'static str>) -> Option<String> {
    crash_sweep_in(mutant, true)
}

/// [`crash_sweep`] with the writer on its thread or single-threaded.
fn crash_sweep_in(mutant: Option<&'static str>, threaded: bool) -> Option<String> {
    let probe = Sim::new();
    let (_, crashed, j) = run_in(&probe, mutant, threaded);
    j.shutdown();
    assert_eq!(crashed, None);
    let steps = probe.steps();
    for k in 0..steps {
        let sim = Sim::new();
        sim.fail_step(k, Fault::Crash);
        let (worlds, crashed, j) = run_in(&sim, mutant, threaded);
        j.shutdown();
        // Changes 0..=d were reported durable (d = the one in flight minus one).
        let (lo, hi) = match crashed {
            Some(i) => (i, i + 1), // worlds[i] = before change i, worlds[i + 1] = after it
            None => (worlds.len() - 1, worlds.len() - 1),
        };
        let mut cases = vec![("process crash", sim.after_crash())];
        cases.push(("power loss", sim.power_loss(Loss::Clean)));
        for seed in 1..=6u64 {
            cases.push((
                "torn power loss",
                sim.power_loss(Loss::Torn(seed * 7919 + k)),
            ));
        }
        for (what, fs) in cases {
            let got = reopen(&fs);
            if got != worlds[lo] && got != worlds[hi] {
                return Some(format!(
                    "{what} at step {k}: recovered {} slots, not the state after change {lo} or {hi}: {got:?}",
                    got.len()
                ));
            }
        }
    }
    None
}

#[test]
fn a_crash_or_power_loss_at_any_step_loses_at_most_the_change_in_flight() {
    if let Some(v) = crash_sweep(None) {
        panic!("{v}");
    }
}

/// The same sweep with the writer single-threaded (a platform without threads): the same
/// guarantee.
#[test]
fn single_threaded_a_crash_or_power_loss_at_any_step_loses_at_most_the_change_in_flight() {
    if let Some(v) = crash_sweep_in(None, false) {
        panic!("{v}");
    }
}

/// The mutation check, single-threaded: each broken fsync or ordering is found there too.
#[test]
fn single_threaded_the_crash_sweep_catches_every_write_path_mutant() {
    for site in MUTANT_SITES {
        assert!(
            crash_sweep_in(Some(site), false).is_some(),
            "mutant {site}: the single-threaded crash sweep found no loss"
        );
    }
}

#[test]
fn every_transient_fault_is_retried_until_saved() {
    let probe = Sim::new();
    let (worlds, _, j) = run(&probe, None);
    j.shutdown();
    let end = worlds.last().unwrap().clone();
    let ops = probe.step_ops();
    for (k, op) in ops.iter().enumerate() {
        let k = k as u64;
        for f in FAULTS.into_iter().filter(|f| *f != Fault::Crash) {
            let sim = Sim::new();
            sim.fail_step(k, f);
            let (_, crashed, j) = run(&sim, None);
            assert_eq!(crashed, None);
            let notices = j.take_notices();
            j.shutdown();
            // Removing an old journal after a compaction may fail harmlessly (the next
            // start removes it); every other failure is reported, and then its recovery.
            let failed = notices.iter().any(|n| n.code == "save_failed");
            assert!(
                failed || *op == Op::Remove,
                "step {k} ({op:?}) {f:?}: not reported: {notices:?}"
            );
            assert_eq!(
                failed,
                notices.iter().any(|n| n.code == "saving_resumed"),
                "step {k} {f:?}: {notices:?}"
            );
            assert_eq!(j.error(), None);
            // Everything was saved after all, durable, and no temp file is left.
            assert_eq!(reopen(&sim.power_loss(Loss::Clean)), end, "step {k} {f:?}");
            let tmp: Vec<_> = sim
                .paths()
                .into_iter()
                .filter(|p| p.to_string_lossy().ends_with(".tmp"))
                .collect();
            assert!(tmp.is_empty(), "step {k} {f:?}: temp files left: {tmp:?}");
        }
    }
}

/// A full disk for a while: play goes on, the problem is reported once, saving resumes when
/// space returns and nothing is lost.
#[test]
fn full_disk_then_space_returns() {
    let sim = Sim::new();
    let (j, _, _) = Journal::open_with(Path::new("/data"), sim.io(), opts(None));
    let mut s = journal_slide(&j, "slide:4x4#3", json!({}));
    sim.set_space(Some(0));
    for i in 0..50 {
        let mv = pick(&s, i);
        s.play(&mv, i as u64).unwrap();
        j.append(
            "slide:4x4",
            json!({"i": i}),
            serde_json::to_value(s.take_delta(i as u64)).unwrap(),
        );
    }
    assert!(!j.flush(Duration::from_millis(30)), "nothing can be saved");
    assert!(j.error().unwrap().contains("full"), "{:?}", j.error());
    let n = j.take_notices();
    assert_eq!(
        n.iter().filter(|n| n.code == "save_failed").count(),
        1,
        "{n:?}"
    );
    sim.set_space(None);
    j.checkpoint();
    assert!(j.flush(Duration::from_secs(10)));
    assert_eq!(j.error(), None);
    j.shutdown();
    let got = reopen(&sim.power_loss(Loss::Clean));
    assert_eq!(
        got["slide:4x4"].1,
        serde_json::to_value(s.save(49)).unwrap()
    );
    assert_eq!(got["slide:4x4"].0, json!({"i": 49}));
}

/// At most one fsync per move (plus one per compaction, which comes every few hundred moves
/// or more — none of them when moves are coalesced), and O(1) bytes per move however long the
/// game. Here every move waits until it is durable: the worst case.
#[test]
fn one_fsync_and_constant_bytes_per_move() {
    let sim = Sim::new();
    let (j, _, _) = Journal::open(Path::new("/data"), sim.io());
    let mut s = journal_slide(&j, "slide:5x5#11", json!({}));
    let mut per_block = Vec::new();
    for block in 0..4 {
        let (b0, f0, c0) = (sim.bytes_written(), sim.fsyncs(), creates(&sim));
        for i in 0..500 {
            let mv = pick(&s, i + block);
            s.play(&mv, i as u64).unwrap();
            j.append(
                "slide:5x5",
                json!({"m": i}),
                serde_json::to_value(s.take_delta(0)).unwrap(),
            );
            assert!(j.flush(Duration::from_secs(5)));
        }
        let (b1, f1, c1) = (sim.bytes_written(), sim.fsyncs(), creates(&sim));
        // Each compaction creates two files (snapshot temp, next journal).
        let compactions = (c1 - c0) / 2;
        assert!(compactions <= 2, "block {block}: {compactions} compactions");
        assert!(
            f1 - f0 <= 500 + compactions,
            "block {block}: {} fsyncs for 500 moves, {compactions} compactions",
            f1 - f0
        );
        per_block.push((b1 - b0) / 500);
    }
    j.shutdown();
    assert!(per_block.iter().all(|&b| b < 2048), "{per_block:?}");
    // Compaction is amortised: the last block costs no more than twice the first.
    assert!(per_block[3] <= per_block[0] * 2 + 64, "{per_block:?}");
}

fn creates(sim: &Sim) -> u64 {
    sim.step_ops().iter().filter(|o| **o == Op::Create).count() as u64
}

/// The mutation check: each broken fsync / ordering makes the crash sweep find a loss.
#[test]
fn the_crash_sweep_catches_every_write_path_mutant() {
    for site in MUTANT_SITES {
        match crash_sweep(Some(site)) {
            Some(v) => eprintln!(
                "mutant {site} caught: {}",
                v.chars().take(160).collect::<String>()
            ),
            None => panic!(
                "mutant {site}: the crash sweep found no loss, so it would not notice this bug"
            ),
        }
    }
}

/// An `Io` that panics in its first `fsync` (a bug anywhere under the writer).
struct PanicOnce(Sim, std::sync::atomic::AtomicBool);

impl huarong_core::fsio::Io for PanicOnce {
    fn create_dir_all(&self, d: &Path) -> std::io::Result<()> {
        self.0.create_dir_all(d)
    }
    fn create(&self, p: &Path) -> std::io::Result<()> {
        self.0.create(p)
    }
    fn append(&self, p: &Path, b: &[u8]) -> std::io::Result<()> {
        self.0.append(p, b)
    }
    fn fsync(&self, p: &Path) -> std::io::Result<()> {
        if !self.1.swap(true, std::sync::atomic::Ordering::SeqCst) {
            panic!("injected panic in fsync");
        }
        self.0.fsync(p)
    }
    fn rename(&self, a: &Path, b: &Path) -> std::io::Result<()> {
        self.0.rename(a, b)
    }
    fn sync_dir(&self, d: &Path) -> std::io::Result<()> {
        self.0.sync_dir(d)
    }
    fn remove(&self, p: &Path) -> std::io::Result<()> {
        self.0.remove(p)
    }
    fn read(&self, p: &Path, l: u64) -> std::io::Result<Vec<u8>> {
        self.0.read(p, l)
    }
    fn list(&self, d: &Path) -> std::io::Result<Vec<String>> {
        self.0.list(d)
    }
}

#[test]
fn the_writer_survives_a_panic_and_reports_it() {
    let sim = Sim::new();
    let io = std::sync::Arc::new(PanicOnce(sim.clone(), Default::default()));
    let (j, _, _) = Journal::open_with(Path::new("/data"), io, opts(None));
    let s = Session::<Slide>::open("slide:3x3#4").unwrap();
    let saved = serde_json::to_value(s.save(0)).unwrap();
    j.put("slide:3x3", json!({}), saved.clone());
    assert!(j.flush(Duration::from_secs(10)), "saved after the panic");
    let n = j.take_notices();
    assert!(
        n.iter()
            .any(|n| n.code == "save_failed" && n.message.contains("injected panic")),
        "{n:?}"
    );
    j.shutdown();
    assert_eq!(reopen(&sim.power_loss(Loss::Clean))["slide:3x3"].1, saved);
}
