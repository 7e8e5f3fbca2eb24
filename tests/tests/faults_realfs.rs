//! The journal on real, broken folders (issue 13). We run as root in CI, where chmod does not
//! stop writes, so: a small tmpfs filled up for ENOSPC, and a read-only remount for EROFS.
//! Play goes on, the problem is reported once, saving resumes when the folder works again,
//! nothing is lost and no temp file is left. Skipped (with a message) only where mounting is
//! not permitted.

use huarong_app_lib::fsio;
use huarong_app_lib::journal::{Journal, Options};
use huarong_engine::slide::{Move, Slide};
use huarong_engine::Session;
use huarong_tests::{journal_slide, TempDir};
use serde_json::json;
use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

struct Mount(TempDir);

impl Mount {
    fn tmpfs(tag: &str, size: &str) -> Option<Mount> {
        let d = TempDir::new(tag);
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(d.path())
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        if !ok {
            eprintln!(
                "SKIPPED: mounting a tmpfs is not permitted here (needs root / CAP_SYS_ADMIN)"
            );
            return None;
        }
        Some(Mount(d))
    }
    fn remount(&self, opt: &str) {
        let ok = Command::new("mount")
            .args(["-o", &format!("remount,{opt}")])
            .arg(self.0.path())
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        assert!(ok, "remount {opt}");
    }
    fn path(&self) -> &Path {
        self.0.path()
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.0.path()).status();
    }
}

fn opts() -> Options {
    Options {
        retry_first: Some(Duration::from_millis(5)),
        ..Options::default()
    }
}

/// Play `n` moves into the slot (each handed to the journal).
fn play(j: &Journal, s: &mut Session<Slide>, n: usize, from: usize) {
    for i in from..from + n {
        let m = s.current().board().movable();
        let tile = m[(i * 7 + 3) % m.len()];
        s.play(&Move { tile }, i as u64).unwrap();
        let d = serde_json::to_value(s.take_delta(i as u64)).unwrap();
        j.append("slide:4x4", json!({"moves": i + 1}), d);
    }
}

/// A journal on `m` with game `id` saved, then `n` moves played and saved.
fn journal_played(m: &Mount, id: &str, n: usize) -> (Journal, Session<Slide>) {
    let (j, _, _) = Journal::open_with(m.path(), fsio::real(), opts());
    let mut s = journal_slide(&j, id, json!({"moves": 0}));
    play(&j, &mut s, n, 0);
    assert!(j.flush(Duration::from_secs(10)));
    (j, s)
}

fn wait_error(j: &Journal) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(e) = j.error() {
            return e;
        }
        assert!(Instant::now() < deadline, "the failure was never reported");
        j.flush(Duration::from_millis(20));
    }
}

fn check_reopen(dir: &Path, s: &Session<Slide>, moves: usize) {
    let (j, slots, notices) = Journal::open(dir, fsio::real());
    j.shutdown();
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(slots.len(), 1);
    // The last move was played at t = moves - 1.
    let want = serde_json::to_value(s.save(moves as u64 - 1)).unwrap();
    assert!(slots[0].saved == want, "every move was saved");
    assert_eq!(slots[0].header, json!({"moves": moves}));
    let tmp: Vec<_> = std::fs::read_dir(dir.join("games"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(tmp.is_empty(), "temp files left: {tmp:?}");
}

#[test]
fn a_full_disk_then_space_again() {
    let Some(m) = Mount::tmpfs("jfull", "512k") else {
        return;
    };
    let (j, mut s) = journal_played(&m, "slide:4x4#21", 20);
    // Fill the disk.
    let filler = m.path().join("filler");
    {
        let mut f = std::fs::File::create(&filler).unwrap();
        let block = vec![0u8; 4096];
        while f.write_all(&block).is_ok() {}
        let _ = f.sync_all();
    }
    play(&j, &mut s, 200, 20);
    let e = wait_error(&j);
    assert!(e.contains("full"), "{e}");
    play(&j, &mut s, 30, 220); // play goes on
    let n = j.take_notices();
    assert_eq!(
        n.iter().filter(|n| n.code == "save_failed").count(),
        1,
        "once: {n:?}"
    );
    std::fs::remove_file(&filler).unwrap();
    j.checkpoint();
    assert!(j.flush(Duration::from_secs(30)), "{:?}", j.error());
    assert_eq!(j.error(), None);
    assert!(j.take_notices().iter().any(|n| n.code == "saving_resumed"));
    j.shutdown();
    check_reopen(m.path(), &s, 250);
}

#[test]
fn a_read_only_folder_then_writable_again() {
    let Some(m) = Mount::tmpfs("jro", "4m") else {
        return;
    };
    let (j, mut s) = journal_played(&m, "slide:4x4#22", 10);
    m.remount("ro");
    play(&j, &mut s, 10, 10);
    let e = wait_error(&j);
    assert!(e.contains("read-only"), "{e}");
    play(&j, &mut s, 10, 20);
    m.remount("rw");
    j.checkpoint();
    assert!(j.flush(Duration::from_secs(30)), "{:?}", j.error());
    j.shutdown();
    check_reopen(m.path(), &s, 30);
}
