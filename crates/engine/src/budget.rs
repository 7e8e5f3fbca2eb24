//! Work bounds of the searches, analyses and generators that may grow with their input:
//! a memory bound in bytes, an optional deadline on the caller's clock, and a
//! cancel flag. Running out of bytes or time is [`ErrorCode::Unsupported`] ("too large for
//! this app"); a cancelled run is [`ErrorCode::Cancelled`].
//!
//! A [`Budget`] is passed explicitly where an API takes one; code reached through
//! [`Game::from_id`](crate::Game::from_id) (the Klotski generator behind a game ID) reads
//! the *ambient* budget the caller set for the thread with [`scoped`], else
//! [`Budget::default`] (64 MiB, no deadline, never cancelled).

use crate::clock::{Clock, Deadline};
use crate::error::{Error, ErrorCode, Result};
use crate::game::Cancel;
use std::cell::RefCell;
use std::sync::Arc;
use std::time::Duration;

/// The most bytes any one bounded search holds at once (its arrays and tables, counted as
/// allocated, growth transients included).
pub const MAX_BYTES: usize = 64 << 20;

/// Bytes, time and a cancel flag for one run.
#[derive(Clone)]
pub struct Budget {
    pub max_bytes: usize,
    pub cancel: Cancel,
    /// Stop once `clock` reads `at` or later.
    pub deadline: Option<(Arc<dyn Clock>, Duration)>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_bytes: MAX_BYTES,
            cancel: Cancel::new(),
            deadline: None,
        }
    }
}

impl std::fmt::Debug for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Budget")
            .field("max_bytes", &self.max_bytes)
            .field("deadline", &self.deadline.as_ref().map(|d| d.1))
            .finish()
    }
}

impl Budget {
    /// `max_bytes`, no deadline, cancelled through `cancel`.
    pub fn new(max_bytes: usize, cancel: Cancel) -> Budget {
        Budget {
            max_bytes,
            cancel,
            deadline: None,
        }
    }

    /// This budget, ending `time` from now on `clock`.
    pub fn within(mut self, clock: Arc<dyn Clock>, time: Duration) -> Budget {
        let at = clock.now().saturating_add(time);
        self.deadline = Some((clock, at));
        self
    }

    /// This budget with another cancel flag.
    pub fn with_cancel(mut self, cancel: Cancel) -> Budget {
        self.cancel = cancel;
        self
    }

    /// The deadline as the pattern-database searches take it.
    pub fn deadline(&self) -> Option<Deadline<'_>> {
        self.deadline
            .as_ref()
            .map(|(c, at)| Deadline::at(c.as_ref(), *at))
    }

    /// `Cancelled` when cancelled, `Unsupported` when the deadline has passed.
    pub fn check(&self, what: &str) -> Result<()> {
        if self.cancel.is_cancelled() {
            return Err(Error::cancelled());
        }
        if let Some((c, at)) = &self.deadline {
            if c.now() >= *at {
                return Err(Error::unsupported(format!(
                    "{what} ran out of its time budget"
                )));
            }
        }
        Ok(())
    }

    /// The error of a run that would hold `bytes`, more than `max_bytes`.
    pub fn over(&self, what: &str, bytes: usize) -> Error {
        Error::new(
            ErrorCode::Unsupported,
            format!(
                "{what} is too large: it would hold {:.1} MB, more than its {:.1} MB",
                bytes as f64 / (1u64 << 20) as f64,
                self.max_bytes as f64 / (1u64 << 20) as f64
            ),
        )
    }
}

thread_local! {
    static AMBIENT: RefCell<Vec<Budget>> = const { RefCell::new(Vec::new()) };
}

/// Run `f` with `budget` as this thread's ambient budget (nested calls stack).
pub fn scoped<R>(budget: Budget, f: impl FnOnce() -> R) -> R {
    struct Pop;
    impl Drop for Pop {
        fn drop(&mut self) {
            AMBIENT.with(|a| a.borrow_mut().pop());
        }
    }
    AMBIENT.with(|a| a.borrow_mut().push(budget));
    let _pop = Pop;
    f()
}

/// This thread's ambient budget (see [`scoped`]), else the default.
pub fn ambient() -> Budget {
    AMBIENT.with(|a| a.borrow().last().cloned().unwrap_or_default())
}

/// Byte accounting of a search's growing arrays: every growth is checked *before* it
/// allocates, counting the old and the new block both (a reallocation holds them at once).
#[derive(Debug)]
pub(crate) struct Meter {
    pub max: usize,
    /// Bytes held now (capacities, not lengths).
    pub held: usize,
    /// The most held at once, growth transients included.
    pub peak: usize,
}

impl Meter {
    pub fn new(max: usize) -> Meter {
        Meter {
            max,
            held: 0,
            peak: 0,
        }
    }

    /// Charge `bytes` more, held from now on (or fail before).
    pub fn charge(&mut self, bytes: usize) -> std::result::Result<(), usize> {
        let during = self.held + bytes;
        if during > self.max {
            return Err(during);
        }
        self.held = during;
        self.peak = self.peak.max(during);
        Ok(())
    }

    /// A transient of `bytes` on top of what is held (a rehash's new block), then `keep`
    /// bytes more held after it (`keep` ≤ `bytes`), the old block freed: net `keep - freed`.
    pub fn grow(&mut self, new_block: usize, old_block: usize) -> std::result::Result<(), usize> {
        let during = self.held + new_block;
        if during > self.max {
            return Err(during);
        }
        self.peak = self.peak.max(during);
        self.held = during - old_block;
        Ok(())
    }

    /// Push `x` on `v`, doubling its capacity by hand (exact sizes) when full.
    #[inline(always)]
    pub fn push<T>(&mut self, v: &mut Vec<T>, x: T) -> std::result::Result<(), usize> {
        if v.len() == v.capacity() {
            let size = std::mem::size_of::<T>();
            let old = v.capacity() * size;
            let more = v.capacity().max(1024);
            self.grow(old + more * size, old)?;
            v.reserve_exact(more);
            // The allocator may round up: count what was given.
            self.held += v.capacity() * size - (old + more * size);
        }
        v.push(x);
        Ok(())
    }
}
