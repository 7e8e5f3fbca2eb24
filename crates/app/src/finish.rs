//! Records and the finish view: what a finished game changes in the progress.

use crate::core::AppState;
use crate::games::AppGame;
use crate::progress::moves_under;
use crate::progress::{self, Progress};
use crate::slots::Slot;
use crate::views::Finish;
use huarong_engine::Status;

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
                    settle(&slot, before, p, now, &date, wall);
                    p.settled.insert(key, mark);
                });
            }
        }
    }
}

/// Settle a finished game in `p`: records, unlocks, the daily streak; and the finish view.
/// `counted_before`: this session had already counted a win (an undo and a second win).
/// Runs inside the save of the move (so it must not take the progress lock itself).
/// `now`: the session clock; `date`: today's local date; `wall_ms`: Unix ms of the finish.
pub(crate) fn settle<G: AppGame>(
    slot: &Slot<G>,
    counted_before: bool,
    p: &mut Progress,
    now: u64,
    date: &str,
    wall_ms: u64,
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
    let moves = moves_under(&g.counters(), &rule, g.moves());
    let optimal = if rule == default_rule {
        slot.optimal.or_else(|| G::quick_optimum(sess.start()))
    } else {
        None
    };
    let won = status == Status::Won;
    let stars = if won {
        G::stars(sess.start(), &rule, moves, optimal)
    } else {
        None
    };
    let time_ms = sess.elapsed_ms(now);
    let (score, best_tile) = (G::score(g), G::best_tile(g));
    let counted = !sess.auto_solved();
    let key = format!("{}/{rule}", G::scope(sess.start()));
    let level = G::level_index(sess.start());
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
                    r.undo_used = sess.undo_used();
                    r.hints_used = sess.hints_used();
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
            if let Some(s) = score {
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
            .map(|r| (r.to_string(), moves_under(&counters, r, g.moves())))
            .collect(),
        ms: time_ms,
        optimal: slot.optimal.or_else(|| G::quick_optimum(sess.start())),
        won,
        undo_used: sess.undo_used(),
        hints_used: sess.hints_used(),
        auto_solved: sess.auto_solved(),
    };
    let default_moves = entry.moves.get(default_rule).copied().unwrap_or(moves);
    crate::records::add_finish(p, &G::scope(sess.start()), entry, !counted_before);
    let challenge = crate::challenge::finish(
        crate::challenge::of(p, &slot.key, sess.id()),
        won,
        default_moves,
        time_ms,
    );
    let day = (counted && (won || G::DAILY_ON_END))
        .then(|| crate::daily::daily_day(G::KIND, sess.id(), date))
        .flatten();
    let daily = day.map(|day| crate::daily::apply_daily(p, G::KIND, day));
    // Issue 25: the finish's move log for replays; a daily's result onto its board.
    let default_count = g.moves();
    crate::friends::keep_finish(
        p,
        sess,
        &G::scope(sess.start()),
        wall_ms,
        day,
        date,
        default_count,
        time_ms,
    );
    p.sanitize();
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
        undo_used: sess.undo_used(),
        hints_used: sess.hints_used(),
        counted,
        new_record,
        key,
        record,
        challenge,
    })
}
