//! The native file layer: [`Io`] on `std::fs` (desktop and phones).

use super::{too_large, Io};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::Arc;

/// The real file system.
pub fn real() -> Arc<dyn Io> {
    Arc::new(Real)
}

/// `Io` on `std::fs`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Real;

impl Io for Real {
    fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        fs::create_dir_all(dir)
    }
    fn create(&self, path: &Path) -> io::Result<()> {
        File::create(path).map(drop)
    }
    fn append(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        let mut f = OpenOptions::new().append(true).open(path)?;
        f.write_all(bytes)
    }
    fn fsync(&self, path: &Path) -> io::Result<()> {
        // fsync acts on the file (inode), so a fresh descriptor flushes earlier writes too.
        OpenOptions::new().read(true).open(path)?.sync_all()
    }
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        fs::rename(from, to)
    }
    #[cfg(unix)]
    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    fn sync_dir(&self, _dir: &Path) -> io::Result<()> {
        Ok(())
    }
    fn remove(&self, path: &Path) -> io::Result<()> {
        fs::remove_file(path)
    }
    fn read(&self, path: &Path, limit: u64) -> io::Result<Vec<u8>> {
        let f = File::open(path)?;
        let len = f.metadata()?.len();
        if len > limit {
            return Err(too_large(len, limit));
        }
        let mut out = Vec::with_capacity(len as usize);
        f.take(limit.saturating_add(1)).read_to_end(&mut out)?;
        if out.len() as u64 > limit {
            return Err(too_large(out.len() as u64, limit));
        }
        Ok(out)
    }
    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        let mut out = Vec::new();
        for e in fs::read_dir(dir)? {
            let e = e?;
            if let Some(name) = e.file_name().to_str() {
                out.push(name.to_string());
            }
        }
        Ok(out)
    }
    /// `File::try_lock` (flock on Linux, Android, macOS and iOS; LockFileEx on Windows): an
    /// advisory lock the OS drops with the process, so a killed app never leaves it behind.
    fn lock_dir(&self, dir: &Path) -> io::Result<Option<super::DirLock>> {
        fs::create_dir_all(dir)?;
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(dir.join(super::LOCK_FILE))?;
        match file.try_lock() {
            Ok(()) => Ok(Some(super::DirLock(Box::new(file)))),
            Err(fs::TryLockError::WouldBlock) => Err(io::Error::new(
                io::ErrorKind::WouldBlock,
                "another Huarong holds this data folder",
            )),
            Err(fs::TryLockError::Error(e)) => Err(e),
        }
    }
}
