//! The native platform (desktop and phones): the system clocks, threads, `std::fs`
//! (`fsio::Real`) and the operating system's random numbers. The shell adds haptics, the
//! share sheet and its event sink.

use super::{Clock, Events, Haptics, Job, Platform, Priority, Share, ShareOutcome, Tasks};
use crate::error::{AppError, AppResult};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The system clocks and the local time zone (chrono).
pub struct SystemClock {
    epoch: Instant,
}

impl Default for SystemClock {
    fn default() -> Self {
        SystemClock {
            epoch: Instant::now(),
        }
    }
}

impl Clock for SystemClock {
    fn wall_ms(&self) -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64)
    }
    fn monotonic(&self) -> Duration {
        self.epoch.elapsed()
    }
    fn utc_offset_minutes(&self, wall_ms: u64) -> i32 {
        use chrono::{Local, Offset, TimeZone};
        match Local.timestamp_millis_opt(wall_ms as i64) {
            chrono::LocalResult::Single(t) | chrono::LocalResult::Ambiguous(t, _) => {
                t.offset().fix().local_minus_utc() / 60
            }
            chrono::LocalResult::None => 0,
        }
    }
}

/// One thread a job; background jobs at a lower priority where the system allows.
pub struct Threads;

impl Tasks for Threads {
    fn spawn(&self, name: &str, priority: Priority, job: Job) -> Result<(), String> {
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                if priority == Priority::Background {
                    background_priority();
                }
                job()
            })
            .map(drop)
            .map_err(|e| e.to_string())
    }
    fn threaded(&self) -> bool {
        true
    }
    fn parallelism(&self) -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
}

/// Run the calling thread below the UI threads (nice 10): the background optimum and a
/// hint's proof must not take CPU from the page on a 2-core phone.
fn background_priority() {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    // SAFETY: setpriority on this thread's own id changes only its scheduling priority.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 10);
    }
}

/// Blocks of 1 MiB and more (a search's arrays and tables) are mapped and unmapped on their
/// own, so a finished search gives its memory back to the system at once. By default glibc
/// raises that threshold to 32 MiB after the first large block is freed, and freed blocks then
/// stay in the freeing thread's arena: a second search on another thread adds its own peak
/// on top of the first one's leftovers (+33 MiB held after an 8×8 optimum). Once per process.
fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        // SAFETY: mallopt only sets the allocator's thresholds; it is safe to call at any time.
        ONCE.call_once(|| unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
        });
    }
}

/// The one process-wide clock: every `Platform::native` shares its epoch.
fn clock() -> Arc<SystemClock> {
    static CLOCK: OnceLock<Arc<SystemClock>> = OnceLock::new();
    CLOCK
        .get_or_init(|| Arc::new(SystemClock::default()))
        .clone()
}

impl Platform {
    /// The native services with the shell's haptics, share sheet and event sink.
    pub fn native(
        haptics: Arc<dyn Haptics>,
        share: Arc<dyn Share>,
        events: Arc<dyn Events>,
    ) -> Platform {
        return_freed_memory();
        Platform {
            clock: clock(),
            io: crate::fsio::real(),
            tasks: Arc::new(Threads),
            haptics,
            share,
            events,
            seed: Arc::new(rand::random::<u64>),
        }
    }

    /// The native services without haptics, sharing or events (tests and tools).
    pub fn headless() -> Platform {
        Platform::native(
            Arc::new(super::NoHaptics),
            Arc::new(super::NoShare),
            Arc::new(super::NoEvents),
        )
    }
}

/// Keeps the card as a file in a folder (the desktop: Pictures; phones: the app cache, before
/// the share sheet opens it).
#[derive(Debug, Clone)]
pub struct SaveTo {
    pub dir: std::path::PathBuf,
}

impl SaveTo {
    /// Writes `png` into the folder (created if needed) under `name`, or `<stem>-2.png`, … when
    /// that exists: the file is created exclusively, so two saves never collide. Fails with
    /// `share_failed`.
    pub fn save(&self, png: &[u8], name: &str) -> AppResult<std::path::PathBuf> {
        use std::io::Write;
        let dir = &self.dir;
        let failed = |what: &str, path: &std::path::Path, e: std::io::Error| {
            AppError::share_failed(format!("cannot {what} {}: {e}", path.display()))
        };
        std::fs::create_dir_all(dir).map_err(|e| failed("create", dir, e))?;
        let (stem, ext) = name.rsplit_once('.').unwrap_or((name, "png"));
        for n in 1..1000 {
            let name = if n == 1 {
                format!("{stem}.{ext}")
            } else {
                format!("{stem}-{n}.{ext}")
            };
            let path = dir.join(name);
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    f.write_all(png)
                        .and_then(|_| f.sync_all())
                        .map_err(|e| failed("write", &path, e))?;
                    return Ok(path);
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(failed("write", &path, e)),
            }
        }
        Err(AppError::share_failed(format!(
            "too many cards named {stem}-… in {}",
            dir.display()
        )))
    }
}

impl Share for SaveTo {
    fn share_png(&self, png: &[u8], name: &str) -> AppResult<ShareOutcome> {
        self.share_file(png, name, "image/png")
    }
    fn share_file(&self, bytes: &[u8], name: &str, _mime: &str) -> AppResult<ShareOutcome> {
        let path = self.save(bytes, name)?;
        Ok(ShareOutcome {
            saved: Some(path.to_string_lossy().into_owned()),
            file: None,
            shared: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Code;

    #[test]
    fn saved_cards_get_names_no_other_file_has() {
        let dir = std::env::temp_dir().join(format!("huarong-share-{}", std::process::id()));
        let to = SaveTo { dir: dir.clone() };
        let name = "huarong-20261129-010203.png";
        let a = to.save(b"png", name).unwrap();
        let b = to.save(b"png", name).unwrap();
        assert_ne!(a, b);
        assert!(b
            .to_string_lossy()
            .ends_with("huarong-20261129-010203-2.png"));
        assert_eq!(std::fs::read(&b).unwrap(), b"png");
        // A folder that cannot be made (a file stands in its way) is `share_failed`.
        let blocked = SaveTo { dir: a.join("sub") };
        assert_eq!(
            blocked.save(b"png", name).unwrap_err().code,
            Code::ShareFailed
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
