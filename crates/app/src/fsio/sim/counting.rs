//! A pass-through [`Io`] that counts what it writes (benchmarks).

use crate::fsio::Io;
use std::io;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// An `Io` that counts bytes written and fsyncs (benchmarks), over another `Io`.
#[derive(Clone)]
pub struct Counting {
    inner: Arc<dyn Io>,
    counts: Arc<Mutex<(u64, u64)>>,
}

impl Counting {
    pub fn new(inner: Arc<dyn Io>) -> Counting {
        Counting {
            inner,
            counts: Arc::default(),
        }
    }
    /// (bytes written, fsyncs incl. folder fsyncs) so far.
    pub fn totals(&self) -> (u64, u64) {
        *self.counts.lock().unwrap_or_else(|p| p.into_inner())
    }
    fn add(&self, bytes: u64, syncs: u64) {
        let mut c = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        c.0 += bytes;
        c.1 += syncs;
    }
}

impl Io for Counting {
    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        self.inner.create_dir_all(dir)
    }
    fn create(&self, path: &Path) -> io::Result<()> {
        self.inner.create(path)
    }
    fn append(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        self.add(bytes.len() as u64, 0);
        self.inner.append(path, bytes)
    }
    fn fsync(&self, path: &Path) -> io::Result<()> {
        self.add(0, 1);
        self.inner.fsync(path)
    }
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.inner.rename(from, to)
    }
    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        self.add(0, 1);
        self.inner.sync_dir(dir)
    }
    fn remove(&self, path: &Path) -> io::Result<()> {
        self.inner.remove(path)
    }
    fn read(&self, path: &Path, limit: u64) -> io::Result<Vec<u8>> {
        self.inner.read(path, limit)
    }
    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        self.inner.list(dir)
    }
    fn lock_dir(&self, dir: &Path) -> io::Result<Option<crate::fsio::DirLock>> {
        self.inner.lock_dir(dir)
    }
}
