//! The one small file-operation layer every durable write goes through (the move journal,
//! the settings/records store's last-good copy). Path-based, so a test can swap in a
//! simulated file system (`fsio::sim`) that breaks any step or loses power at any point.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
mod real;
pub mod sim;

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use real::{real, Real};

use std::io;
use std::path::Path;

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
    /// Take the one-writer lock of a data folder (an OS lock on `<dir>/huarong.lock`, held
    /// until the guard is dropped). `Err` of kind `WouldBlock` when another process (or
    /// another app state of this one) holds it; `Ok(None)` on a file layer without locks
    /// (the simulated ones: each test opens its folder once at a time).
    fn lock_dir(&self, dir: &Path) -> io::Result<Option<DirLock>> {
        let _ = dir;
        Ok(None)
    }
}

/// A held data-folder lock ([`Io::lock_dir`]); dropping it releases the lock.
pub struct DirLock(pub Box<dyn Send + Sync>);

impl std::fmt::Debug for DirLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DirLock")
    }
}

/// The lock file's name in the data folder.
pub const LOCK_FILE: &str = "huarong.lock";

/// The error for a file over a read limit.
pub fn too_large(len: u64, limit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("file of {len} bytes is over the limit of {limit} bytes"),
    )
}
