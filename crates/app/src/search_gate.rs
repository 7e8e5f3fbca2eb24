//! One memory budget for the app's searches: at most one bounded search (a generator, a
//! preview, an optimum, an analysis, a replay, a hint, a solve, a hint's proof, a restored
//! generated game) runs at a time, so the app's process holds one search's 64 MiB at most,
//! never one per thread.
//!
//! A search waits at the gate for the running one to end, with two exceptions that keep a
//! player from waiting on work nobody looks at: a search someone waits for (foreground)
//! stops a running background one (the optimum, a hint's proof), and any search stops a
//! *parked* one (its game left the screen; it would otherwise hold its memory for as long as
//! the player is elsewhere). A stopped background search is started again where it always is
//! (the game shown again, a hint or solve over, a finish waiting for its stars).
//!
//! Without threads (the web page's workers) nothing ever waits: each search runs alone.

use huarong_engine::Cancel;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

thread_local! {
    /// How deep this thread is inside the gate.
    static INSIDE: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// The answer of a search that was cancelled before it could run.
pub(crate) trait Stopped {
    fn stopped() -> Self;
}

impl<T> Stopped for Result<T, crate::error::AppError> {
    fn stopped() -> Self {
        Err(huarong_engine::Error::cancelled().into())
    }
}

impl<T> Stopped for Result<T, huarong_engine::Error> {
    fn stopped() -> Self {
        Err(huarong_engine::Error::cancelled())
    }
}

impl<T> Stopped for Option<T> {
    fn stopped() -> Self {
        None
    }
}

/// Who waits for a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Urgency {
    /// A command's answer (an opening, a preview, a hint, the analysis).
    Foreground,
    /// Nobody (the background optimum, a hint's proof): it gives way.
    Background,
}

struct Holder {
    id: u64,
    urgency: Urgency,
    cancel: Cancel,
}

#[derive(Default)]
struct Inner {
    holder: Option<Holder>,
    next_id: u64,
    /// Searches inside the gate now, and the most there ever were at once (tests).
    running: usize,
    most: usize,
}

/// The gate; one per app state.
#[derive(Default)]
pub(crate) struct SearchGate {
    inner: Mutex<Inner>,
    free: Condvar,
}

impl SearchGate {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Run `search` once no other search runs (see the module). A search cancelled while it
    /// waits does not run: its answer is `cancelled` ([`Stopped`]), as its own poll would say.
    pub(crate) fn run<R: Stopped>(
        &self,
        urgency: Urgency,
        cancel: &Cancel,
        search: impl FnOnce() -> R,
    ) -> R {
        // A search inside a search on the same thread is part of it (no wait for itself).
        if INSIDE.with(|d| d.get()) > 0 {
            return search();
        }
        let id = {
            let mut g = self.lock();
            loop {
                match &g.holder {
                    None => break,
                    Some(h) => {
                        if h.cancel.is_parked()
                            || (h.urgency == Urgency::Background && urgency == Urgency::Foreground)
                        {
                            h.cancel.cancel();
                        }
                    }
                }
                if cancel.cancelled_now() {
                    return R::stopped();
                }
                // Woken when the holder leaves; the timeout re-checks a holder that was
                // parked meanwhile and this search's own flag.
                g = self
                    .free
                    .wait_timeout(g, Duration::from_millis(20))
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
            }
            g.next_id += 1;
            let id = g.next_id;
            g.holder = Some(Holder {
                id,
                urgency,
                cancel: cancel.clone(),
            });
            g.running += 1;
            g.most = g.most.max(g.running);
            id
        };
        struct Leave<'a>(&'a SearchGate, u64);
        impl Drop for Leave<'_> {
            fn drop(&mut self) {
                INSIDE.with(|d| d.set(d.get() - 1));
                let mut g = self.0.lock();
                g.running -= 1;
                if g.holder.as_ref().is_some_and(|h| h.id == self.1) {
                    g.holder = None;
                }
                drop(g);
                self.0.free.notify_all();
            }
        }
        INSIDE.with(|d| d.set(d.get() + 1));
        let _leave = Leave(self, id);
        search()
    }

    /// The most searches that ran at once since the start (1 when the gate holds).
    #[cfg(test)]
    pub(crate) fn most_at_once(&self) -> usize {
        self.lock().most
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::time::Instant;

    /// Several searches from several threads: never two inside at once, and every one runs.
    #[test]
    fn one_search_at_a_time() {
        let gate = Arc::new(SearchGate::default());
        let inside = Arc::new(AtomicUsize::new(0));
        let ran = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..6)
            .map(|i| {
                let (gate, inside, ran) = (gate.clone(), inside.clone(), ran.clone());
                std::thread::spawn(move || {
                    let urgency = if i % 2 == 0 {
                        Urgency::Foreground
                    } else {
                        Urgency::Background
                    };
                    gate.run(urgency, &Cancel::new(), || {
                        assert_eq!(inside.fetch_add(1, Ordering::SeqCst), 0, "two at once");
                        std::thread::sleep(Duration::from_millis(15));
                        inside.fetch_sub(1, Ordering::SeqCst);
                        ran.fetch_add(1, Ordering::SeqCst);
                        Some(())
                    })
                })
            })
            .collect();
        for t in threads {
            t.join().expect("a search thread");
        }
        assert_eq!(ran.load(Ordering::SeqCst), 6);
        assert_eq!(gate.most_at_once(), 1);
    }

    /// A search that polls its flag (as the engine's do) until cancelled or `limit`.
    fn polling(cancel: &Cancel, limit: Duration) -> Option<bool> {
        let t = Instant::now();
        while t.elapsed() < limit {
            if cancel.is_cancelled() {
                return Some(true);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        Some(false)
    }

    /// A foreground search stops a running background one instead of waiting for its end;
    /// a background search waits for a foreground one.
    #[test]
    fn the_foreground_stops_the_background() {
        let gate = Arc::new(SearchGate::default());
        let bg = Cancel::new();
        let (g, c) = (gate.clone(), bg.clone());
        let background = std::thread::spawn(move || {
            g.run(Urgency::Background, &c, || {
                polling(&c, Duration::from_secs(30))
            })
        });
        while gate.lock().holder.is_none() {
            std::thread::sleep(Duration::from_millis(1));
        }
        let t = Instant::now();
        let fg = Cancel::new();
        gate.run(Urgency::Foreground, &fg, || Some(()));
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "it did not wait 30 s"
        );
        assert!(
            background.join().unwrap() == Some(true),
            "the background search was cancelled"
        );
        assert!(!fg.is_cancelled());

        // The other way round: the background one waits.
        let fg = Cancel::new();
        let (g, c) = (gate.clone(), fg.clone());
        let foreground = std::thread::spawn(move || {
            g.run(Urgency::Foreground, &c, || {
                polling(&c, Duration::from_millis(150))
            })
        });
        while gate.lock().holder.is_none() {
            std::thread::sleep(Duration::from_millis(1));
        }
        let bg = Cancel::new();
        gate.run(Urgency::Background, &bg, || Some(()));
        assert!(
            foreground.join().unwrap() == Some(false),
            "the foreground search ran to its end"
        );
        assert!(!bg.is_cancelled());
        assert_eq!(gate.most_at_once(), 1);
    }

    /// A parked search (its game off screen) gives way to any search, background too.
    #[test]
    fn a_parked_search_gives_way() {
        let gate = Arc::new(SearchGate::default());
        let parked = Cancel::new();
        let (g, c) = (gate.clone(), parked.clone());
        let holder = std::thread::spawn(move || {
            c.arm_here();
            g.run(Urgency::Background, &c, || {
                polling(&c, Duration::from_secs(30))
            })
        });
        while gate.lock().holder.is_none() {
            std::thread::sleep(Duration::from_millis(1));
        }
        parked.park();
        let t = Instant::now();
        gate.run(Urgency::Background, &Cancel::new(), || Some(()));
        assert!(t.elapsed() < Duration::from_secs(10));
        assert!(
            holder.join().unwrap() == Some(true),
            "the parked search was cancelled"
        );
        assert_eq!(gate.most_at_once(), 1);
    }

    /// A search inside a search on the same thread runs at once.
    #[test]
    fn a_nested_search_runs() {
        let gate = SearchGate::default();
        let inner = gate.run(Urgency::Foreground, &Cancel::new(), || {
            gate.run(Urgency::Foreground, &Cancel::new(), || Some(7))
        });
        assert_eq!(inner, Some(7));
    }

    /// A search cancelled while it waits stops waiting and does not run.
    #[test]
    fn a_cancelled_wait_ends() {
        let gate = Arc::new(SearchGate::default());
        let first = Cancel::new();
        let (g, c) = (gate.clone(), first.clone());
        let holder = std::thread::spawn(move || {
            g.run(Urgency::Foreground, &c, || {
                polling(&c, Duration::from_secs(30))
            })
        });
        while gate.lock().holder.is_none() {
            std::thread::sleep(Duration::from_millis(1));
        }
        let waiting = Cancel::new();
        let w = waiting.clone();
        let canceller = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            w.cancel();
        });
        let ran = gate.run(Urgency::Foreground, &waiting, || Some(true));
        assert_eq!(ran, None, "a cancelled search does not run");
        canceller.join().unwrap();
        first.cancel();
        assert_eq!(holder.join().unwrap(), Some(true));
    }

    /// Through the app's commands: a Klotski board's background optimum, a hint, a costly
    /// generator's preview, a code's decoding and a generated opening at once from five threads, with
    /// the game parked and shown again in between: never two searches at once, each command
    /// answers.
    #[test]
    fn the_apps_searches_run_one_at_a_time() {
        use crate::{dispatch, AppState, Platform};
        use serde_json::json;
        let st = AppState::open(None, Platform::headless(), || Err("no store".into()));
        dispatch(&st, "set_screen", json!({ "screen": "game:klotski" })).expect("screen");
        // An 8×8 board whose optimum runs to its bounds, in the background.
        let board =
            "klotski:CC..a.b./CC..a.b./c.d.e.f./c.d.e.f./g.h.i.j./g.h.i.j./k.l.m.n./........";
        dispatch(&st, "open_game", json!({ "id": board })).expect("the board opens");
        let calls: Vec<(&str, serde_json::Value)> = vec![
            ("preview", json!({ "id": "klotski:1+:8x8:g12s20#2" })),
            ("hint", json!({ "kind": "klotski" })),
            (
                "decode_code",
                json!({ "text": "1AYjAMMAAMMMMAAMMMMAAIIIIAAAAANrtvCw" }),
            ),
            ("preview", json!({ "id": "klotski:1+:6x6:g9s6#21" })),
            (
                "open_game",
                json!({ "id": "klotski:1+:4x5:g2s2#1", "replace": true }),
            ),
        ];
        let threads: Vec<_> = calls
            .into_iter()
            .map(|(cmd, args)| {
                let st = st.clone();
                std::thread::spawn(move || (cmd, dispatch(&st, cmd, args)))
            })
            .collect();
        dispatch(&st, "set_screen", json!({ "screen": "home" })).expect("screen");
        dispatch(&st, "set_screen", json!({ "screen": "game:klotski" })).expect("screen");
        for t in threads {
            let (cmd, r) = t.join().expect("a command thread");
            // An answer or a typed error (a preview past its budget, a hint overtaken).
            if let Err(e) = r {
                assert!(
                    ["unsupported", "cancelled"].contains(&e.code.as_str()),
                    "{cmd}: {e:?}"
                );
            }
        }
        assert_eq!(st.0.searches.most_at_once(), 1, "two searches ran at once");
    }
}
