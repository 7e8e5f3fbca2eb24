//! A file system in memory for fault tests: it tracks, per file, the contents written and
//! the contents made durable by `fsync`, and per folder, the names present and the names made
//! durable by `sync_dir`. Any step can be made to fail (EIO, ENOSPC, EROFS, a short write,
//! a crash that stops all later steps), and [`Sim::power_loss`] gives the file system a
//! reboot would find: only what was durable, or (torn mode) un-synced appends cut at a random
//! byte and each un-synced name change kept or lost at random.

mod counting;

pub use counting::Counting;

use super::{too_large, Io};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

/// The steps a fault can hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    Create,
    Write,
    Fsync,
    Rename,
    SyncDir,
    Remove,
    Read,
    List,
}

pub const WRITE_OPS: [Op; 5] = [Op::Create, Op::Write, Op::Fsync, Op::Rename, Op::SyncDir];

/// What a fault does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// `EIO`.
    Eio,
    /// `ENOSPC`.
    NoSpace,
    /// `EROFS`.
    ReadOnly,
    /// A write that stores only half its bytes and then fails (`ENOSPC`).
    Short,
    /// The process dies here: this step and every later one fail and change nothing.
    Crash,
}

pub const FAULTS: [Fault; 5] = [
    Fault::Eio,
    Fault::NoSpace,
    Fault::ReadOnly,
    Fault::Short,
    Fault::Crash,
];

#[derive(Debug, Clone, Default)]
struct Inode {
    data: Vec<u8>,
    durable: Vec<u8>,
}

#[derive(Debug, Clone, Default)]
struct State {
    inodes: Vec<Inode>,
    /// Names now (path → inode).
    names: BTreeMap<PathBuf, usize>,
    /// Names as a power loss would find them.
    durable_names: BTreeMap<PathBuf, usize>,
    dirs: Vec<PathBuf>,
    /// Count of each step so far (for targeting "the n-th write").
    counts: BTreeMap<String, u64>,
    /// Steps so far of any write kind, and which kind each was.
    steps: u64,
    ops: Vec<Op>,
    /// Fail the step with this global index (counting the write steps only) …
    fault_at: Option<(u64, Fault)>,
    /// … or every step of this kind while set.
    fault_all: Option<(Op, Fault)>,
    crashed: bool,
    /// Free bytes (ENOSPC past it); `None` = unlimited.
    space: Option<u64>,
    /// Totals for benchmarks.
    bytes_written: u64,
    fsyncs: u64,
}

/// The simulated file system (cheap to clone: shared state).
#[derive(Debug, Clone, Default)]
pub struct Sim(Arc<Mutex<State>>);

/// How a power loss treats what was not durable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loss {
    /// Everything not fsynced is gone.
    Clean,
    /// Torn: un-synced appends survive up to a random byte; each un-synced name change
    /// survives or not at random (seeded).
    Torn(u64),
}

fn err(f: Fault) -> io::Error {
    match f {
        Fault::Eio => io::Error::from_raw_os_error(5),
        Fault::NoSpace | Fault::Short => io::Error::from_raw_os_error(28),
        Fault::ReadOnly => io::Error::from_raw_os_error(30),
        Fault::Crash => io::Error::other("simulated crash: the process is gone"),
    }
}

fn not_found(p: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::NotFound,
        format!("{}: no such file", p.display()),
    )
}

fn parent(p: &Path) -> PathBuf {
    p.parent().map(Path::to_path_buf).unwrap_or_default()
}

impl Sim {
    pub fn new() -> Sim {
        Sim::default()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// This file system as an `Io`.
    pub fn io(&self) -> Arc<dyn Io> {
        Arc::new(self.clone())
    }

    /// Fail the `n`-th write step (0-based, counting create/write/fsync/rename/dir fsync/remove).
    pub fn fail_step(&self, n: u64, f: Fault) {
        self.lock().fault_at = Some((n, f));
    }

    /// Fail every step of one kind until [`Sim::heal`].
    pub fn fail_all(&self, op: Op, f: Fault) {
        self.lock().fault_all = Some((op, f));
    }

    /// No more faults (a crash stays: the process is gone).
    pub fn heal(&self) {
        let mut s = self.lock();
        s.fault_at = None;
        s.fault_all = None;
    }

    /// Limit the free space (`None` = unlimited).
    pub fn set_space(&self, bytes: Option<u64>) {
        self.lock().space = bytes;
    }

    pub fn steps(&self) -> u64 {
        self.lock().steps
    }
    /// The kind of every write step so far, in order.
    pub fn step_ops(&self) -> Vec<Op> {
        self.lock().ops.clone()
    }
    pub fn crashed(&self) -> bool {
        self.lock().crashed
    }
    pub fn bytes_written(&self) -> u64 {
        self.lock().bytes_written
    }
    pub fn fsyncs(&self) -> u64 {
        self.lock().fsyncs
    }

    /// The file system after the process died (everything written stays: the OS has it).
    pub fn after_crash(&self) -> Sim {
        let mut s = self.lock().clone();
        s.crashed = false;
        s.fault_at = None;
        s.fault_all = None;
        Sim(Arc::new(Mutex::new(s)))
    }

    /// The file system after a power loss.
    pub fn power_loss(&self, loss: Loss) -> Sim {
        let old = self.lock().clone();
        let mut rng = match loss {
            Loss::Clean => 0,
            Loss::Torn(seed) => seed | 1,
        };
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut s = State {
            dirs: old.dirs.clone(),
            ..State::default()
        };
        // Names: the durable ones, plus (torn) each differing name at random.
        let mut names = old.durable_names.clone();
        if let Loss::Torn(_) = loss {
            let keys: Vec<PathBuf> = old
                .names
                .keys()
                .chain(old.durable_names.keys())
                .cloned()
                .collect();
            for k in keys {
                let now = old.names.get(&k);
                if now != old.durable_names.get(&k) && next() % 2 == 0 {
                    match now {
                        Some(&i) => names.insert(k, i),
                        None => names.remove(&k),
                    };
                }
            }
        }
        let mut inodes = old.inodes.clone();
        for ino in &mut inodes {
            let mut data = ino.durable.clone();
            if let Loss::Torn(_) = loss {
                if ino.data.len() > ino.durable.len() && ino.data.starts_with(&ino.durable) {
                    let extra = ino.data.len() - ino.durable.len();
                    let keep = (next() % (extra as u64 + 1)) as usize;
                    data = ino.data[..ino.durable.len() + keep].to_vec();
                }
            }
            ino.data = data.clone();
            ino.durable = data;
        }
        s.inodes = inodes;
        s.durable_names = names.clone();
        s.names = names;
        Sim(Arc::new(Mutex::new(s)))
    }

    /// A file's current contents (tests).
    pub fn contents(&self, path: &Path) -> Option<Vec<u8>> {
        let s = self.lock();
        s.names.get(path).map(|&i| s.inodes[i].data.clone())
    }

    /// Put a file in place, durable (tests: hostile files).
    pub fn install(&self, path: &Path, bytes: &[u8]) {
        let mut s = self.lock();
        let i = s.inodes.len();
        s.inodes.push(Inode {
            data: bytes.to_vec(),
            durable: bytes.to_vec(),
        });
        s.names.insert(path.to_path_buf(), i);
        s.durable_names.insert(path.to_path_buf(), i);
    }

    /// Every file name now.
    pub fn paths(&self) -> Vec<PathBuf> {
        self.lock().names.keys().cloned().collect()
    }

    /// Count a write step; the fault to apply, if any.
    fn step(&self, s: &mut State, op: Op) -> Option<Fault> {
        if s.crashed {
            return Some(Fault::Crash);
        }
        *s.counts.entry(format!("{op:?}")).or_default() += 1;
        let n = s.steps;
        s.steps += 1;
        s.ops.push(op);
        let mut f = match s.fault_at {
            Some((at, f)) if at == n => Some(f),
            _ => None,
        };
        if let Some((o, g)) = s.fault_all {
            if o == op {
                f = Some(g);
            }
        }
        if f == Some(Fault::Crash) {
            s.crashed = true;
        }
        f
    }

    /// Lock for a write step of `op`: the state, or the fault the step meets as the error.
    fn begin(&self, op: Op) -> io::Result<MutexGuard<'_, State>> {
        let mut s = self.lock();
        match self.step(&mut s, op) {
            Some(f) => Err(err(f)),
            None => Ok(s),
        }
    }

    /// Lock for a look that is not a step: fails once the machine has crashed.
    fn live(&self) -> io::Result<MutexGuard<'_, State>> {
        let s = self.lock();
        if s.crashed {
            return Err(err(Fault::Crash));
        }
        Ok(s)
    }

    fn used(s: &State) -> u64 {
        let mut seen = std::collections::BTreeSet::new();
        s.names
            .values()
            .filter(|i| seen.insert(**i))
            .map(|&i| s.inodes[i].data.len() as u64)
            .sum()
    }
}

impl Io for Sim {
    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        let mut s = self.live()?;
        if !s.dirs.iter().any(|d| d == dir) {
            s.dirs.push(dir.to_path_buf());
        }
        Ok(())
    }

    fn create(&self, path: &Path) -> io::Result<()> {
        let mut s = self.begin(Op::Create)?;
        match s.names.get(path) {
            Some(&i) => s.inodes[i].data.clear(),
            None => {
                let i = s.inodes.len();
                s.inodes.push(Inode::default());
                s.names.insert(path.to_path_buf(), i);
            }
        }
        Ok(())
    }

    fn append(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        let mut s = self.lock();
        let fault = self.step(&mut s, Op::Write);
        let i = match (fault, s.names.get(path)) {
            (Some(Fault::Crash), _) => return Err(err(Fault::Crash)),
            (_, None) => return Err(not_found(path)),
            (_, Some(&i)) => i,
        };
        let mut n = bytes.len();
        let mut fail = None;
        match fault {
            Some(Fault::Short) => {
                n /= 2;
                fail = Some(Fault::Short);
            }
            Some(f) => return Err(err(f)),
            None => {}
        }
        if let Some(space) = s.space {
            let free = space.saturating_sub(Self::used(&s)) as usize;
            if free < n {
                n = free;
                fail = Some(Fault::NoSpace);
            }
        }
        s.inodes[i].data.extend_from_slice(&bytes[..n]);
        s.bytes_written += n as u64;
        match fail {
            Some(f) => Err(err(f)),
            None => Ok(()),
        }
    }

    fn fsync(&self, path: &Path) -> io::Result<()> {
        let mut s = self.begin(Op::Fsync)?;
        let i = *s.names.get(path).ok_or_else(|| not_found(path))?;
        s.inodes[i].durable = s.inodes[i].data.clone();
        s.fsyncs += 1;
        Ok(())
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        let mut s = self.begin(Op::Rename)?;
        let i = s.names.remove(from).ok_or_else(|| not_found(from))?;
        s.names.insert(to.to_path_buf(), i);
        Ok(())
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        let mut s = self.begin(Op::SyncDir)?;
        s.fsyncs += 1;
        let st = &mut *s;
        st.durable_names.retain(|p, _| parent(p) != dir);
        for (p, &i) in &st.names {
            if parent(p) == dir {
                st.durable_names.insert(p.clone(), i);
            }
        }
        Ok(())
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        let mut s = self.begin(Op::Remove)?;
        s.names
            .remove(path)
            .map(drop)
            .ok_or_else(|| not_found(path))
    }

    fn read(&self, path: &Path, limit: u64) -> io::Result<Vec<u8>> {
        let s = self.live()?;
        let i = *s.names.get(path).ok_or_else(|| not_found(path))?;
        let d = &s.inodes[i].data;
        if d.len() as u64 > limit {
            return Err(too_large(d.len() as u64, limit));
        }
        Ok(d.clone())
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        let s = self.live()?;
        Ok(s.names
            .keys()
            .filter(|p| parent(p) == dir)
            .filter_map(|p| p.file_name()?.to_str().map(str::to_string))
            .collect())
    }
}
