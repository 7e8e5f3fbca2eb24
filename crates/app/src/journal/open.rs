//! Opening the journal: recovery of every slot and the start of its writer.

use super::{describe, recover, writer, Inner, Journal, NoClock, Options, Slot, SlotData, State};
use super::{GAMES_DIR, RETRY_FIRST};
use crate::persist::Notice;
use crate::platform::{Platform, Priority};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex};

impl Journal {
    /// Open `<data dir>/games/` on the native platform with `io` (tests and tools).
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    pub fn open(dir: &Path, io: Arc<dyn crate::fsio::Io>) -> (Journal, Vec<SlotData>, Vec<Notice>) {
        Self::open_with(dir, io, Options::default())
    }

    /// [`Journal::open`] with test options.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    pub fn open_with(
        dir: &Path,
        io: Arc<dyn crate::fsio::Io>,
        opts: Options,
    ) -> (Journal, Vec<SlotData>, Vec<Notice>) {
        Self::open_on(dir, &Platform::headless().with_io(io), opts)
    }

    /// Open `<data dir>/games/` through the platform's file layer, recover every slot
    /// (snapshot + valid journal prefix, torn tail dropped), clean temp files, and start the
    /// writer: a background task where the platform has threads, else [`Journal::step`].
    /// Never fails: problems become notices.
    pub fn open_on(
        dir: &Path,
        platform: &Platform,
        opts: Options,
    ) -> (Journal, Vec<SlotData>, Vec<Notice>) {
        let io = platform.io.clone();
        let gdir = dir.join(GAMES_DIR);
        let mut notices = Vec::new();
        let mut slots = HashMap::new();
        if let Err(e) = io.create_dir_all(&gdir) {
            notices.push(Notice::warning(
                "save_failed",
                format!(
                    "the games folder {} cannot be created ({}); games are kept until it can",
                    gdir.display(),
                    describe(&e)
                ),
            ));
        } else {
            recover(&gdir, io.as_ref(), &mut slots, &mut notices);
        }
        let mut out: Vec<SlotData> = slots
            .iter()
            .map(|(k, s): (&String, &Slot)| SlotData {
                key: k.clone(),
                header: s.header.clone(),
                saved: serde_json::to_value(&s.saved).unwrap_or(Value::Null),
            })
            .collect();
        out.sort_by(|a, b| a.key.cmp(&b.key));
        let backoff = opts.retry_first.unwrap_or(RETRY_FIRST);
        // A slot recovered from a torn or damaged journal needs a fresh snapshot; a damaged
        // journal was moved aside, so until that snapshot is written the moves before the
        // damage are only in memory. Write it at once (one change pending), not at the next
        // change: a stop before any change must not lose them.
        let seq = u64::from(slots.values().any(|s| s.snap));
        let threaded = platform.tasks.threaded();
        let mut j = Journal {
            inner: Arc::new(Inner {
                dir: Some(gdir),
                io: Some(io),
                opts,
                state: Mutex::new(State {
                    slots,
                    backoff,
                    seq,
                    exited: !threaded,
                    ..State::default()
                }),
                wake: Condvar::new(),
                done: Condvar::new(),
                clock: platform.clock.clone(),
                threaded,
            }),
        };
        if threaded {
            let inner = j.inner.clone();
            let spawned = platform.tasks.spawn(
                "huarong-journal",
                Priority::Normal,
                Box::new(move || writer(inner)),
            );
            if let Err(e) = spawned {
                // No thread: write one batch after each command instead.
                let inner = Arc::get_mut(&mut j.inner).expect("the journal is not shared yet");
                inner.threaded = false;
                let st = inner.state.get_mut().unwrap_or_else(|p| p.into_inner());
                st.exited = true;
                st.error = Some(format!(
                    "the saver thread cannot start ({e}); saving after each change instead"
                ));
            }
        }
        (j, out, notices)
    }

    /// No data folder: everything is kept in memory only.
    pub fn disabled() -> Journal {
        Journal {
            inner: Arc::new(Inner {
                dir: None,
                io: None,
                opts: Options::default(),
                state: Mutex::new(State::default()),
                wake: Condvar::new(),
                done: Condvar::new(),
                clock: Arc::new(NoClock),
                threaded: false,
            }),
        }
    }
}
