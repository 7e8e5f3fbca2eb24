//! Records and the finish view: what a finished game changes in the progress.

use crate::core::AppState;
use crate::games::AppGame;
use crate::progress::moves_under;
use crate::progress::BoardResult;
use crate::progress::{self, Progress};
use crate::slots::Slot;
use crate::views::{Finish, FinishFriends};
use huarong_engine::{registry, Status};

/// How many Klotski classics (in difficulty order) are open before any is won; the famous
/// ones in `games::klotski::OPEN_FROM_START` are open besides.
pub const FIRST_UNLOCKED: u32 = crate::games::FIRST_UNLOCKED;

/// Which finished game of a slot a record belongs to: `<game ID>@<moves in the log>`.
pub(crate) fn marker<G: AppGame>(slot: &Slot<G>) -> String {
    format!("{}@{}", slot.session.id(), slot.session.played().len())
}

impl AppState {
    /// At start: give every finished game the journal kept, whose record did not reach the
    /// progress (a kill between the two writes), its record now.
    pub(crate) fn settle_unrecorded<G: AppGame>(&self) {
        let refs: Vec<_> = G::slots(&self.0.games)
            .lock()
            .slots
            .values()
            .cloned()
            .collect();
        for r in refs {
            let slot = crate::core::lock(&r);
            // A finish no move made (a start already solved, from an older version that
            // opened such codes) is no game: never recorded.
            if slot.session.status() == Status::Playing || slot.session.played().is_empty() {
                continue;
            }
            let mark = marker(&slot);
            let known = self.store().progress.settled.get(&slot.key) == Some(&mark);
            if !known {
                // The game's own finish: its date, its wall time (the slot's last change)
                // and whether the session had counted a win before it (win, undo, win).
                let date = slot.finish_date.clone().unwrap_or_else(|| self.today());
                let (now, key, wall) = (self.now(), slot.key.clone(), slot.updated_ms);
                let before = slot.counted_before;
                self.commit(|p| {
                    settle(&slot, before, p, now, &date, wall, false);
                    p.settled.insert(key, mark);
                });
            }
        }
    }
}

/// Settle a finished game in `p`: records, unlocks, the daily streak; and the finish view.
/// `counted_before`: this session had already counted a win (an undo and a second win).
/// Runs inside the save of the move (so it must not take the progress lock itself).
/// `now`: the session clock; `date`: today's local date; `wall_ms`: Unix ms of the finish;
/// `optimum_coming`: the platform searches the start's optimum in the background (a thread,
/// or the web's proof worker), so an optimum not known yet is *pending* (see
/// [`AppState::optimum_known`]).
pub(crate) fn settle<G: AppGame>(
    slot: &Slot<G>,
    counted_before: bool,
    p: &mut Progress,
    now: u64,
    date: &str,
    wall_ms: u64,
    optimum_coming: bool,
) -> Option<Finish> {
    let sess = &slot.session;
    if sess.played().is_empty() {
        // No move made this finish: nothing was played, nothing is recorded.
        return None;
    }
    let g = sess.current();
    let rule = p.settings.rule(G::KIND.as_str()).to_string();
    let default_rule = progress::rules_of(G::KIND.as_str())
        .first()
        .copied()
        .unwrap_or("");
    let status = sess.status();
    // A speedsolving run finishes as one game of its own scope: the run's moves and time,
    // no optimum or stars (runs.rs).
    let run = slot.run.as_ref().filter(|r| r.done());
    let scope = crate::runs::scope_of(slot);
    let moves = match run {
        Some(r) => r.splits_moves(&rule),
        None => moves_under(&g.counters(), &rule, g.moves()),
    };
    let optimal = if run.is_some() {
        None
    } else if rule == default_rule {
        slot.optimal.or_else(|| G::quick_optimum(sess.start()))
    } else {
        None
    };
    // Marks of a run: any of its solves'.
    let (undo_used, hints_used, auto_solved) = match run {
        Some(r) => r.splits().iter().fold((false, 0u32, false), |a, s| {
            (
                a.0 || s.undo_used,
                a.1.saturating_add(s.hints_used),
                a.2 || s.auto_solved,
            )
        }),
        None => (sess.undo_used(), sess.hints_used(), sess.auto_solved()),
    };
    let won = status == Status::Won;
    let stars = if won && run.is_none() {
        stars_of::<G>(sess.start(), &rule, moves, optimal, hints_used)
    } else {
        None
    };
    // Stars and the optimum come later when the optimum is the one thing missing and it is
    // being searched: the verdict is then pending, never "no stars".
    let pending = won
        && run.is_none()
        && rule == default_rule
        && optimal.is_none()
        && stars.is_none()
        && optimum_coming
        && optimum_searchable(slot);
    let perfect = optimal.map(|o| registry::perfect(o, moves, hints_used));
    let time_ms = run.map_or_else(|| sess.elapsed_ms(now), |r| r.splits_ms());
    let (score, best_tile) = (G::score(g), G::best_tile(g));
    let counted = !auto_solved;
    let key = format!("{scope}/{rule}");
    let level = run
        .is_none()
        .then(|| G::level_index(sess.start()))
        .flatten();
    let mut new_record = false;
    let record = {
        let r = p.records.entry(key.clone()).or_default();
        r.rule = rule.clone();
        if optimal.is_some() {
            r.optimal = optimal;
        }
        if counted {
            let mut better = false;
            if won {
                if !counted_before {
                    r.wins = r.wins.saturating_add(1);
                }
                if r.best_moves.is_none_or(|b| moves < b) {
                    r.best_moves = Some(moves);
                    r.undo_used = undo_used;
                    r.hints_used = hints_used;
                    better = true;
                }
                if r.best_time_ms.is_none_or(|b| time_ms < b) {
                    r.best_time_ms = Some(time_ms);
                    better = true;
                }
                r.stars = r.stars.max(stars.unwrap_or(0));
                if let Some(i) = level {
                    let open = p
                        .unlocked
                        .entry(G::KIND.as_str().into())
                        .or_insert(FIRST_UNLOCKED);
                    *open = (*open).max(i + 1);
                }
            }
            // A score of 0 (a game lost before any merge) is no best score to announce.
            if let Some(s) = score.filter(|&s| s > 0) {
                if r.best_score.is_none_or(|b| s > b) {
                    r.best_score = Some(s);
                    better = true;
                }
            }
            if let Some(t) = best_tile {
                if r.best_tile.is_none_or(|b| t > b) {
                    r.best_tile = Some(t);
                }
            }
            if better {
                r.date = date.to_string();
            }
            new_record = better;
        }
        r.clone()
    };
    // A daily puzzle solved (2048: played to its end) extends the streak.
    // Statistics (records.rs): every finish, moves under every rule of the game.
    let counters = g.counters();
    let entry = crate::records::FinishEntry {
        date: date.to_string(),
        at_ms: wall_ms,
        moves: progress::rules_of(G::KIND.as_str())
            .iter()
            .map(|r| {
                let n = match run {
                    Some(run) => run.splits_moves(r),
                    None => moves_under(&counters, r, g.moves()),
                };
                (r.to_string(), n)
            })
            .collect(),
        ms: time_ms,
        optimal: if run.is_some() {
            None
        } else {
            slot.optimal.or_else(|| G::quick_optimum(sess.start()))
        },
        splits: run.map_or_else(Vec::new, |r| r.splits().iter().map(|s| s.ms).collect()),
        won,
        undo_used,
        hints_used,
        auto_solved,
    };
    let default_moves = entry.moves.get(default_rule).copied().unwrap_or(moves);
    let tps = entry
        .moves
        .get("tile")
        .and_then(|&t| huarong_engine::slide::run::tps(t, time_ms));
    crate::records::add_finish(p, &scope, entry, !counted_before);
    let challenge = crate::challenge::finish(
        crate::challenge::of(p, &slot.key, sess.id()).filter(|_| run.is_none()),
        won,
        default_moves,
        time_ms,
    );
    let day = (counted && run.is_none() && (won || G::DAILY_ON_END))
        .then(|| crate::daily::daily_day(G::KIND, sess.id(), date))
        .flatten();
    let daily = day.map(|day| crate::daily::apply_daily(p, G::KIND, day));
    // Issue 25: the finish's move log for replays; a daily's result onto its board.
    let default_count = g.moves();
    if run.is_none() {
        // A run's one move log would be its last solve's: no replay is kept for it.
        crate::friends::keep_finish(p, sess, &scope, wall_ms, day, date, default_count, time_ms);
    }
    // A daily's board as this finish leaves it: the player's line is this game (the board
    // itself keeps the player's best of the day).
    let outcome = <G as huarong_engine::code::Coded>::outcome(sess.current());
    let friends = day
        .and_then(|d| huarong_engine::daily::number(d).ok())
        .map(|n| FinishFriends {
            daily: n,
            lines: crate::friends::board_with(
                p,
                n,
                Some(G::KIND),
                Some((
                    G::KIND,
                    BoardResult {
                        moves: default_count,
                        ms: time_ms,
                        score: outcome.map(|o| o.score),
                        verified: true,
                        won: outcome.map(|o| o.won),
                    },
                )),
            ),
        });
    p.sanitize();
    let run = crate::runs::view(slot, now, &rule);
    Some(Finish {
        daily,
        status,
        rule,
        moves,
        optimal,
        time_ms,
        stars,
        score,
        best_tile,
        undo_used,
        hints_used,
        counted,
        new_record,
        key,
        record,
        challenge,
        at_ms: wall_ms,
        pending,
        perfect,
        friends,
        tps,
        run,
    })
}

/// The stars of a won game: its game's star rule, then the engine's rule for hints
/// (`registry::with_hints`). `None` where the game gives none (no optimum, another rule).
fn stars_of<G: AppGame>(
    start: &G,
    rule: &str,
    moves: u32,
    optimal: Option<u32>,
    hints: u32,
) -> Option<u8> {
    G::stars(start, rule, moves, optimal).map(|s| registry::with_hints(s, hints))
}

/// Whether `slot`'s start has an optimum that may still be found (the game has one and its
/// search did not fail for this game).
fn optimum_searchable<G: AppGame>(slot: &Slot<G>) -> bool {
    G::has_optimum(slot.session.start())
        && slot.optimum_failed.as_deref() != Some(slot.session.id())
}

impl AppState {
    /// Whether this platform finds a start's optimum in the background: a thread natively,
    /// the proof worker on the web (the shell said so, [`AppState::set_offloads_optimum`]).
    pub(crate) fn optimum_coming(&self) -> bool {
        self.platform().tasks.threaded()
            || self
                .0
                .offloads_optimum
                .load(std::sync::atomic::Ordering::SeqCst)
    }

    /// The start's optimum of `slot` is known (the background search, or an analysis that
    /// computed it): kept in the slot, and a finish of this slot still pending gets its
    /// verdict — optimum, stars, `perfect` — in its view, its level record and its row of the
    /// records' history, and the page hears `huarong-finish`. Call with the slot locked.
    pub(crate) fn optimum_known<G: AppGame>(&self, slot: &mut Slot<G>, n: u32) {
        slot.optimal = Some(n);
        let run_scope = crate::runs::scope_of(slot);
        let Some(f) = slot.finish.as_mut().filter(|f| f.pending) else {
            return;
        };
        let start = slot.session.start();
        let stars = if f.status == Status::Won {
            stars_of::<G>(start, &f.rule, f.moves, Some(n), f.hints_used)
        } else {
            None
        };
        f.optimal = Some(n);
        f.stars = stars;
        f.perfect = Some(registry::perfect(n, f.moves, f.hints_used));
        f.pending = false;
        let (key, scope, at, counted, won) = (
            f.key.clone(),
            run_scope,
            f.at_ms,
            f.counted,
            f.status == Status::Won,
        );
        let mut record = None;
        self.commit(|p| {
            if let Some(r) = p.records.get_mut(&key) {
                r.optimal = Some(n);
                if counted && won {
                    r.stars = r.stars.max(stars.unwrap_or(0));
                }
                record = Some(r.clone());
            }
            if let Some(s) = p.stats.get_mut(&scope) {
                if let Some(e) = s.history.iter_mut().rev().find(|e| e.at_ms == at) {
                    e.optimal = Some(n);
                }
            }
        });
        if let (Some(f), Some(r)) = (slot.finish.as_mut(), record) {
            f.record = r;
        }
        self.finish_ready(G::KIND);
    }

    /// The start's optimum of `slot` will not be found (its search failed or gave up): a
    /// pending finish becomes final without one (no stars rather than wrong ones), and the
    /// page hears `huarong-finish`. Call with the slot locked.
    pub(crate) fn optimum_failed<G: AppGame>(&self, slot: &mut Slot<G>) {
        slot.optimum_failed = Some(slot.session.id().to_string());
        if let Some(f) = slot.finish.as_mut().filter(|f| f.pending) {
            f.pending = false;
            self.finish_ready(G::KIND);
        }
    }

    /// `finish {kind}`: the finish view of `kind`'s current game as it stands now (a pending
    /// optimum since resolved included), or null when that game's last change was no finish.
    pub fn finish(&self, kind: huarong_engine::Kind) -> crate::error::AppResult<Option<Finish>> {
        crate::games::with_game!(kind, G => {
            let slot_ref = self.current::<G>()?;
            let slot = crate::core::lock(&slot_ref);
            Ok(slot.finish.clone())
        })
    }
}
