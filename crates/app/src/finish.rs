//! Records and the finish view: what a finished game changes in the progress.

use crate::core::AppState;
use crate::games::AppGame;
use crate::progress::moves_under;
use crate::progress::BoardResult;
use crate::progress::{self, Progress};
use crate::slots::Slot;
use crate::views::{perfect_of, Action, Finish, FinishFriends, Marks, NextTarget};
use huarong_engine::{registry, Kind, Status};

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
    let marks = match run {
        Some(r) => Marks::of_run(r),
        None => Marks::of_session(sess),
    };
    let Marks {
        undo_used,
        hints_used,
        auto_solved,
    } = marks;
    let won = status == Status::Won;
    let assisted = marks.assisted(sess.redone());
    let stars = if won && run.is_none() {
        stars_of::<G>(sess.start(), &rule, moves, optimal, hints_used, assisted)
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
    let perfect = optimal.map(|o| perfect_of(o, moves, hints_used, assisted));
    let time_ms = run.map_or_else(|| sess.elapsed_ms(now), |r| r.splits_ms());
    let splits = if run.is_none() {
        crate::times::session_splits(sess)
    } else {
        Vec::new()
    };
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
                r.stars = r.stars.max(stars.unwrap_or(0));
                if let Some(i) = level {
                    let open = p
                        .unlocked
                        .entry(G::KIND.as_str().into())
                        .or_insert(FIRST_UNLOCKED);
                    *open = (*open).max(i + 1);
                }
            }
            // Only a game won without help sets a best (as in the statistics, records.rs).
            if won && !assisted {
                if r.best_moves.is_none_or(|b| moves < b) {
                    r.best_moves = Some(moves);
                    r.undo_used = undo_used;
                    r.hints_used = hints_used;
                    better = true;
                }
                if r.best_time_ms.is_none_or(|b| time_ms < b) {
                    r.best_time_ms = Some(time_ms);
                    r.best_splits = splits.clone();
                    better = true;
                }
            }
            // A score of 0 (a game lost before any merge) is no best score to announce.
            if let Some(s) = score.filter(|&s| s > 0 && !assisted) {
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
    let tps = crate::records::tps_of(&entry);
    crate::records::add_finish(p, &scope, entry, !counted_before);
    let outcome = <G as huarong_engine::code::Coded>::outcome(sess.current());
    let kept = crate::challenge::full(p, &slot.key, sess.id()).filter(|_| run.is_none());
    let mine = crate::challenge::Mine {
        won,
        moves: default_moves,
        ms: time_ms,
        outcome,
    };
    let challenge = crate::challenge::finish(kept, &mine);
    let verdict = kept.map(|c| crate::challenge::compare(c, &mine));
    // The result to beat is the player's own best (`race_best`), not a friend's.
    let own_best = kept
        .and_then(|c| c.ghost.as_ref())
        .is_some_and(|g| g.source == "best");
    let day = (counted && run.is_none() && (won || G::DAILY_ON_END))
        .then(|| crate::daily::daily_day(G::KIND, sess.id(), date))
        .flatten();
    let daily = day.map(|day| crate::daily::apply_daily(p, G::KIND, day));
    // The finish's move log for replays; a daily's result onto its board.
    let default_count = g.moves();
    if run.is_none() {
        // A run's one move log would be its last solve's: no replay is kept for it.
        crate::friends::keep_finish(p, sess, &scope, wall_ms, day, date, default_count, time_ms);
    }
    // A daily's board as this finish leaves it: the player's line is this game (the board
    // itself keeps the player's best of the day).
    let friends = day
        .and_then(|d| huarong_engine::daily::number(d).ok())
        .map(|n| {
            let lines = crate::friends::board_with(
                p,
                n,
                Some(G::KIND),
                Some((
                    G::KIND,
                    BoardResult {
                        assisted: assisted || undo_used,
                        moves: default_count,
                        ms: time_ms,
                        score: outcome.map(|o| o.score),
                        verified: true,
                        won: outcome.map(|o| o.won),
                    },
                )),
            );
            FinishFriends {
                daily: n,
                place: crate::friends::place(&lines),
                lines,
            }
        });
    // The one next step (after the daily's result is kept: today's done dailies).
    let is_daily = slot.mode == crate::progress::Mode::Daily
        && run.is_none()
        && (won || (G::DAILY_ON_END && status != Status::Playing));
    let (next, next_target) = decide(&NextContext {
        kind: G::KIND,
        id: sess.id().to_string(),
        won,
        can_go_on: g.can_go_on(),
        run_done: run.is_some(),
        from_editor: slot.from_editor,
        challenge_slot: slot.mode == crate::progress::Mode::Challenge,
        challenge: verdict,
        own_best,
        daily: is_daily,
        next_daily: is_daily.then(|| next_daily(p, G::KIND, date)).flatten(),
        level: slot.mode == crate::progress::Mode::Level,
        next_level: G::next_level(sess.start()),
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
        assisted,
        next,
        next_target,
        run,
        splits,
    })
}

/// What decides a finish's `next` ([`decide`]): the finish and its slot's context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NextContext {
    pub kind: Kind,
    /// This game's ID (a `retry` opens it again).
    pub id: String,
    pub won: bool,
    /// 2048 at its win tile, before "keep going".
    pub can_go_on: bool,
    /// A speedsolving run ended with this finish.
    pub run_done: bool,
    /// The game was opened from the Klotski editor.
    pub from_editor: bool,
    /// The slot is a friend's puzzle (`Mode::Challenge`).
    pub challenge_slot: bool,
    /// The finish against a kept result to beat.
    pub challenge: Option<crate::challenge::Verdict>,
    /// That result is the player's own best (a race against it), not a friend's.
    pub own_best: bool,
    /// A daily puzzle finished so that it counts (won; 2048: played to its end).
    pub daily: bool,
    /// The first of today's other dailies not done yet (Kind::ALL order).
    pub next_daily: Option<NextTarget>,
    /// The slot is a level's (`Mode::Level`).
    pub level: bool,
    /// The level after this one: game ID and 1-based index.
    pub next_level: Option<(String, u32)>,
}

/// The one primary action of a finish and where it goes. Precedence: keep > new-run >
/// edit > a friend's challenge > the daily > a level > a dealt game (`again`); any other
/// loss is `retry`.
pub(crate) fn decide(c: &NextContext) -> (Action, Option<NextTarget>) {
    let retry = || {
        (
            Action::Retry,
            Some(NextTarget {
                kind: c.kind.as_str().to_string(),
                id: c.id.clone(),
                index: None,
                n: None,
                of: None,
            }),
        )
    };
    if c.can_go_on {
        return (Action::Keep, None);
    }
    if c.run_done {
        return (Action::NewRun, None);
    }
    if c.from_editor && c.won {
        return (Action::Edit, None);
    }
    if let Some(v) = c.challenge {
        let beaten = matches!(v, crate::challenge::Verdict::Beaten);
        if !beaten {
            return retry();
        }
        // A friend's result beaten: send yours back. One's own best beaten: nobody to send
        // it to; the game goes on as it would without a race.
        if !c.own_best {
            return (Action::SendBack, None);
        }
    }
    if c.challenge_slot && c.won && !c.own_best {
        return (Action::SendBack, None);
    }
    if c.daily {
        return match &c.next_daily {
            Some(t) => (Action::NextDaily, Some(t.clone())),
            None => (Action::Share, None),
        };
    }
    if !c.won {
        return retry();
    }
    if c.level {
        return match &c.next_level {
            Some((id, index)) => (
                Action::NextLevel,
                Some(NextTarget {
                    kind: c.kind.as_str().to_string(),
                    id: id.clone(),
                    index: Some(*index),
                    n: None,
                    of: None,
                }),
            ),
            None => (Action::Again, None),
        };
    }
    (Action::Again, None)
}

/// The first of `today`'s dailies, other than `kind`'s, that the player's own results
/// (`friends.days[n].mine`, as the calendar reads them) do not have yet: its kind, game ID
/// and place among the day's dailies.
pub(crate) fn next_daily(p: &Progress, kind: Kind, today: &str) -> Option<NextTarget> {
    use huarong_engine::daily;
    let day = daily::Date::parse(today).ok()?;
    let n = daily::number(day).ok()?;
    let puzzles = daily::puzzles(day).ok()?;
    let all: Vec<(Kind, &str)> = Kind::ALL
        .into_iter()
        .filter_map(|k| puzzles.id(k).map(|id| (k, id)))
        .collect();
    let done = |k: Kind| {
        k == kind
            || p.friends
                .days
                .get(&n)
                .is_some_and(|b| b.mine.contains_key(k.as_str()))
    };
    let of = u32::try_from(all.len()).ok()?;
    all.iter()
        .enumerate()
        .find(|(_, (k, _))| !done(*k))
        .map(|(i, (k, id))| NextTarget {
            kind: k.as_str().to_string(),
            id: id.to_string(),
            index: None,
            n: u32::try_from(i + 1).ok(),
            of: Some(of),
        })
}

/// The stars of a won game: its game's star rule, then the engine's rule for hints
/// (`registry::with_hints`), the same cap for any other help (`assisted`). `None` where the game gives none (no optimum, another rule).
fn stars_of<G: AppGame>(
    start: &G,
    rule: &str,
    moves: u32,
    optimal: Option<u32>,
    hints: u32,
    assisted: bool,
) -> Option<u8> {
    G::stars(start, rule, moves, optimal).map(|s| {
        let s = registry::with_hints(s, hints);
        if assisted {
            s.min(registry::HINTED_STARS)
        } else {
            s
        }
    })
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
            stars_of::<G>(start, &f.rule, f.moves, Some(n), f.hints_used, f.assisted)
        } else {
            None
        };
        f.optimal = Some(n);
        f.stars = stars;
        f.perfect = Some(perfect_of(n, f.moves, f.hints_used, f.assisted));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::challenge::Verdict;

    /// A dealt number slide won: the base every row changes.
    fn dealt() -> NextContext {
        NextContext {
            kind: Kind::Slide,
            id: "slide:3x3#7".into(),
            won: true,
            can_go_on: false,
            run_done: false,
            from_editor: false,
            challenge_slot: false,
            challenge: None,
            own_best: false,
            daily: false,
            next_daily: None,
            level: false,
            next_level: None,
        }
    }

    fn target(kind: &str, id: &str) -> Option<NextTarget> {
        Some(NextTarget {
            kind: kind.into(),
            id: id.into(),
            index: None,
            n: None,
            of: None,
        })
    }

    fn daily_target() -> NextTarget {
        NextTarget {
            kind: "klotski".into(),
            id: "klotski:4x5#9".into(),
            index: None,
            n: Some(2),
            of: Some(3),
        }
    }

    #[test]
    fn every_row_of_the_next_table() {
        let retry = |c: &NextContext| (Action::Retry, target(c.kind.as_str(), &c.id));
        // A dealt game won: again.
        assert_eq!(decide(&dealt()), (Action::Again, None));
        // A level won: the next level; the last level: again.
        let level = NextContext {
            kind: Kind::Klotski,
            id: "klotski:level-3".into(),
            level: true,
            next_level: Some(("klotski:next".into(), 4)),
            ..dealt()
        };
        let (next, t) = decide(&level);
        assert_eq!(next, Action::NextLevel);
        assert_eq!(
            t,
            Some(NextTarget {
                kind: "klotski".into(),
                id: "klotski:next".into(),
                index: Some(4),
                n: None,
                of: None,
            })
        );
        let last = NextContext {
            next_level: None,
            ..level.clone()
        };
        assert_eq!(decide(&last), (Action::Again, None));
        // A daily with another of today's undone; the last of today's.
        let daily = NextContext {
            daily: true,
            next_daily: Some(daily_target()),
            ..dealt()
        };
        assert_eq!(decide(&daily), (Action::NextDaily, Some(daily_target())));
        let all_done = NextContext {
            next_daily: None,
            ..daily.clone()
        };
        assert_eq!(decide(&all_done), (Action::Share, None));
        // A friend's challenge beaten, tied, lost; a friend's puzzle without a result.
        let chal = |v| NextContext {
            challenge_slot: true,
            challenge: Some(v),
            ..dealt()
        };
        assert_eq!(decide(&chal(Verdict::Beaten)), (Action::SendBack, None));
        let tied = chal(Verdict::Tied);
        assert_eq!(decide(&tied), retry(&tied));
        let lost = chal(Verdict::Lost);
        assert_eq!(decide(&lost), retry(&lost));
        let lost_game = NextContext {
            won: false,
            ..chal(Verdict::Lost)
        };
        assert_eq!(decide(&lost_game), retry(&lost_game));
        let plain = NextContext {
            challenge_slot: true,
            ..dealt()
        };
        assert_eq!(decide(&plain), (Action::SendBack, None));
        // A race against one's own best: beaten, the game goes on as without a race (a
        // level: the next one; a dealt game: again), never "send back"; lost or tied: again.
        let best = |v| NextContext {
            challenge: Some(v),
            own_best: true,
            ..dealt()
        };
        assert_eq!(decide(&best(Verdict::Beaten)), (Action::Again, None));
        let best_level = NextContext {
            level: true,
            next_level: Some(("slide:next".into(), 2)),
            ..best(Verdict::Beaten)
        };
        assert_eq!(decide(&best_level).0, Action::NextLevel);
        let best_in_friends_slot = NextContext {
            challenge_slot: true,
            ..best(Verdict::Beaten)
        };
        assert_eq!(decide(&best_in_friends_slot), (Action::Again, None));
        let best_lost = best(Verdict::Lost);
        assert_eq!(decide(&best_lost), retry(&best_lost));
        // 2048 won at its tile; 2048 over.
        let g = NextContext {
            kind: Kind::G2048,
            id: "2048:#5".into(),
            can_go_on: true,
            ..dealt()
        };
        assert_eq!(decide(&g), (Action::Keep, None));
        let over = NextContext {
            can_go_on: false,
            won: false,
            ..g.clone()
        };
        assert_eq!(decide(&over), retry(&over));
        // A speed run ended; a layout from the editor solved.
        let run = NextContext {
            run_done: true,
            ..dealt()
        };
        assert_eq!(decide(&run), (Action::NewRun, None));
        let editor = NextContext {
            kind: Kind::Klotski,
            from_editor: true,
            challenge_slot: true,
            ..dealt()
        };
        assert_eq!(decide(&editor), (Action::Edit, None));
        // Any other loss.
        let lost = NextContext {
            won: false,
            ..dealt()
        };
        assert_eq!(decide(&lost), retry(&lost));
    }

    #[test]
    fn the_precedence_of_the_next_step() {
        // keep > new-run > edit > challenge > daily > level > dealt.
        let everything = NextContext {
            can_go_on: true,
            run_done: true,
            from_editor: true,
            challenge_slot: true,
            challenge: Some(Verdict::Beaten),
            daily: true,
            next_daily: Some(daily_target()),
            level: true,
            next_level: Some(("klotski:next".into(), 4)),
            ..dealt()
        };
        assert_eq!(decide(&everything).0, Action::Keep);
        let c = NextContext {
            can_go_on: false,
            ..everything
        };
        assert_eq!(decide(&c).0, Action::NewRun);
        let c = NextContext {
            run_done: false,
            ..c
        };
        assert_eq!(decide(&c).0, Action::Edit);
        let c = NextContext {
            from_editor: false,
            ..c
        };
        assert_eq!(decide(&c).0, Action::SendBack);
        let c = NextContext {
            challenge: None,
            challenge_slot: false,
            ..c
        };
        assert_eq!(decide(&c).0, Action::NextDaily);
        let c = NextContext { daily: false, ..c };
        assert_eq!(decide(&c).0, Action::NextLevel);
        let c = NextContext { level: false, ..c };
        assert_eq!(decide(&c).0, Action::Again);
        // A 2048 daily played to its end (over) is a daily finish, not a retry.
        let daily_over = NextContext {
            kind: Kind::G2048,
            won: false,
            daily: true,
            ..dealt()
        };
        assert_eq!(decide(&daily_over), (Action::Share, None));
        // A layout from the editor not solved (no loss exists in Klotski, but the rule holds).
        let editor_lost = NextContext {
            from_editor: true,
            won: false,
            ..dealt()
        };
        assert_eq!(decide(&editor_lost).0, Action::Retry);
    }

    #[test]
    fn the_next_daily_is_the_first_of_todays_not_done() {
        use crate::progress::BoardResult;
        use huarong_engine::daily::{self, Date};
        let today = "2026-03-02";
        let day = Date::parse(today).unwrap();
        let n = daily::number(day).unwrap();
        let puzzles = daily::puzzles(day).unwrap();
        let of = Kind::ALL
            .iter()
            .filter(|k| puzzles.id(**k).is_some())
            .count() as u32;
        assert_eq!(of, 3, "today's dailies: the number slide, Klotski, 2048");
        let mut p = Progress::default();
        let t = next_daily(&p, Kind::Slide, today).unwrap();
        assert_eq!(
            t,
            NextTarget {
                kind: "klotski".into(),
                id: puzzles.id(Kind::Klotski).unwrap().into(),
                index: None,
                n: Some(2),
                of: Some(3),
            }
        );
        // Klotski's done: 2048 is next (3 of 3); from 2048, the slide (1 of 3).
        let r = BoardResult {
            moves: 90,
            ms: 60_000,
            verified: true,
            ..Default::default()
        };
        let number = daily::number(day).unwrap();
        p.friends.add_mine(n, "klotski", r, number);
        let t = next_daily(&p, Kind::Slide, today).unwrap();
        assert_eq!((t.kind.as_str(), t.n, t.of), ("2048", Some(3), Some(3)));
        let t = next_daily(&p, Kind::G2048, today).unwrap();
        assert_eq!((t.kind.as_str(), t.n), ("slide", Some(1)));
        p.friends.add_mine(n, "2048", r, number);
        assert_eq!(next_daily(&p, Kind::Slide, today), None, "all done: share");
        // Another day's results do not count for today.
        let mut q = Progress::default();
        q.friends.add_mine(n - 1, "klotski", r, number);
        assert_eq!(next_daily(&q, Kind::Slide, today).unwrap().kind, "klotski");
    }

    #[test]
    fn assisted_games_are_never_perfect_and_keep_the_hinted_stars() {
        assert!(perfect_of(22, 22, 0, false));
        assert!(!perfect_of(22, 22, 0, true), "auto-solve or a win by redo");
        assert!(!perfect_of(22, 22, 3, true));
        assert!(!perfect_of(22, 23, 0, false));
        use huarong_engine::klotski::Klotski;
        let c = &huarong_engine::klotski::classics()[0];
        let id = huarong_engine::GameId::parse(&c.id()).unwrap();
        let start = <Klotski as huarong_engine::Game>::from_id(&id.body, id.seed).unwrap();
        let o = Klotski::quick_optimum(&start);
        let best = o.unwrap();
        let clean = stars_of::<Klotski>(&start, "piece", best, o, 0, false);
        assert_eq!(clean, Some(3));
        for (hints, assisted) in [(1, true), (15, true), (0, true)] {
            let s = stars_of::<Klotski>(&start, "piece", best, o, hints, assisted).unwrap();
            assert!(s <= registry::HINTED_STARS, "{hints} {assisted}: {s}");
        }
    }
}
