//! The one small file-operation layer every durable write goes through (the move journal,
//! the settings/records store's last-good copy). Path-based, so a test can swap in a
//! simulated file system (`fsio::sim`) that breaks any step or loses power at any point.

pub mod sim;

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::Arc;

/// File operations. Nothing written is durable until `fsync` (file contents and size) and,
/// for a created, renamed or removed name, `sync_dir` of its folder.
pub trait Io: Send + Sync + 'static {
    /// Create the folder and its parents.
    fn create_dir_all(&self, dir: &Path) -> io::Result<()>;
    /// Create an empty file, or empty an existing one.
    fn create(&self, path: &Path) -> io::Result<()>;
    /// Append bytes at the end of an existing file (`NotFound` if it does not exist).
    fn append(&self, path: &Path, bytes: &[u8]) -> io::Result<()>;
    /// Make the file's contents durable.
    fn fsync(&self, path: &Path) -> io::Result<()>;
    /// Replace `to` by `from` in one step.
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// Make the folder's entries (created, renamed, removed names) durable.
    fn sync_dir(&self, dir: &Path) -> io::Result<()>;
    fn remove(&self, path: &Path) -> io::Result<()>;
    /// The whole file; a file longer than `limit` bytes is an `InvalidData` error and is not
    /// read (bounded memory for hostile files).
    fn read(&self, path: &Path, limit: u64) -> io::Result<Vec<u8>>;
    /// The names of the files in a folder (not recursive, any order).
    fn list(&self, dir: &Path) -> io::Result<Vec<String>>;
    /// Whether this is the real file system (code that also needs `std::fs` checks it).
    fn is_real(&self) -> bool {
        false
    }
}

/// The real file system.
pub fn real() -> Arc<dyn Io> {
    Arc::new(Real)
}

/// `Io` on `std::fs`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Real;

/// The error for a file over a read limit.
pub fn too_large(len: u64, limit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("file of {len} bytes is over the limit of {limit} bytes"),
    )
}

impl Io for Real {
    fn is_real(&self) -> bool {
        true
    }
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
}
