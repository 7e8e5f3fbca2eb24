//! Opening games: `new_game`, `open_game` (game ID, share code or link) and what the app
//! does with a launch request (`--open`, a deep link, a second instance's arguments).
//!
//! Launch never discards a game: it opens with `replace: false`. If the request's slot
//! holds another unfinished game with moves, the app shows home with a `would_replace`
//! notice (the player can open the code from the code screen and confirm there); the same
//! game in its slot is resumed.

use crate::args;
use crate::core::AppState;
use crate::error::{guard, AppError, AppResult, Code};
use crate::games::{with_game, AppGame};
use crate::persist::Notice;
use crate::progress::SlotChallenge;
use crate::views::View;
use huarong_engine::budget::Budget;
use huarong_engine::code::Challenge;

/// How long `launch` may decode a code on the thread that calls it (the shell's main thread).
const LAUNCH_DECODE: std::time::Duration = std::time::Duration::from_millis(30);
use huarong_engine::{Kind, Session};

impl AppState {
    /// `open_game`: a game ID, share code or link, into its slot (see `slots.rs`).
    pub fn open_game(&self, text: &str, replace: bool) -> AppResult<View> {
        // A group challenge's invite or board code: the group is kept, its puzzle opens.
        if huarong_engine::code::group::is_group_code(text.trim()) {
            let g = self.group_open(text)?;
            return self.open_resolved(&g.id, replace, None, None);
        }
        let (id, challenge, _) = resolve_open_result(text)?;
        let view = self.open_resolved(&id, replace, challenge, None)?;
        // A result for a group kept here joins its board.
        self.group_seen(text);
        Ok(view)
    }

    /// [`AppState::open_game`] of a resolved game ID and the result its code carried.
    /// `made`: the start board (game-ID body) when its generator already ran elsewhere (the
    /// web page's search worker, `offload`): then no generator runs here.
    pub(crate) fn open_resolved(
        &self,
        id: &str,
        replace: bool,
        challenge: Option<SlotChallenge>,
        made: Option<&str>,
    ) -> AppResult<View> {
        if let Some(c) = &challenge {
            self.check_day(c)?;
        }
        let parsed = huarong_engine::GameId::parse(id)?;
        let cancel = self.opening(parsed.kind);
        let bounds = self.budget(&cancel, crate::search::OPEN_TIME);
        self.bounded(
            crate::search_gate::Urgency::Foreground,
            bounds,
            || with_game!(parsed.kind, G => self.open_g::<G>(id, replace, challenge, made)),
        )
    }

    /// `preview`: the start board of a game ID, share code or link as the board's view (the
    /// same data a snapshot's `view` is), to draw it small (home's daily, a Klotski layout, a
    /// friend's code) without opening it. A generator may run, bounded like an opening
    /// (`OPEN_TIME`, 64 MiB); one preview per kind runs: a newer one or `cancel` stops the
    /// older (`cancelled`). Nothing is stored.
    pub fn preview(&self, text: &str) -> AppResult<serde_json::Value> {
        let (id, _, _) = resolve_open_result(text)?;
        let parsed = huarong_engine::GameId::parse(&id)?;
        let cancel = huarong_engine::Cancel::new();
        with_game!(parsed.kind, G => {
            let mut kinds = G::slots(&self.0.games).lock();
            kinds.preview.cancel();
            kinds.preview = cancel.clone();
        });
        let bounds = self.budget(&cancel, crate::search::OPEN_TIME);
        self.bounded(crate::search_gate::Urgency::Foreground, bounds, || {
            preview_view(&id)
        })
    }

    /// A result for a daily after tomorrow is refused (nobody can have played it
    /// yet; a far-future daily's result must not reach the friends' boards).
    fn check_day(&self, c: &SlotChallenge) -> AppResult<()> {
        let Some(n) = c.daily else { return Ok(()) };
        let today = huarong_engine::daily::Date::parse(&self.today())
            .ok()
            .and_then(|d| huarong_engine::daily::number(d).ok());
        match today {
            Some(t) if n > t.saturating_add(1) => Err(AppError::new(
                huarong_engine::ErrorCode::BadCode,
                format!(
                    "this code's result is for daily No. {n}, which is {} days after today's \
                     (No. {t}): no one can have played it yet",
                    n - t
                ),
            )),
            _ => Ok(()),
        }
    }

    /// Opening a game of `kind` (a generator may run): `cancel` of the kind or a newer
    /// opening stops it with `cancelled`.
    fn opening(&self, kind: Kind) -> huarong_engine::Cancel {
        let cancel = huarong_engine::Cancel::new();
        with_game!(kind, G => {
            let mut kinds = G::slots(&self.0.games).lock();
            kinds.opening.cancel();
            kinds.opening = cancel.clone();
        });
        cancel
    }

    fn open_g<G: AppGame>(
        &self,
        id: &str,
        replace: bool,
        challenge: Option<SlotChallenge>,
        made: Option<&str>,
    ) -> AppResult<View> {
        let sess = open_session::<G>(id, made)?;
        if let Some(c) = challenge.as_ref().filter(|c| !c.verified) {
            // A claim no game can make (fewer moves than the puzzle needs) is no
            // result; a replayed one is what was played.
            if let Some(why) = G::impossible(sess.start(), c.moves, c.outcome) {
                return Err(AppError::new(
                    huarong_engine::ErrorCode::BadCode,
                    format!("this code's result cannot be true: {why}"),
                ));
            }
        }
        let (key, mode) = self.route_id(&sess, true);
        // Whether `place` will resume the slot's game (then a code without a result keeps
        // the result the slot already has).
        let resumes = G::slots(&self.0.games)
            .lock()
            .slots
            .get(&key)
            .cloned()
            .is_some_and(|s| {
                let s = crate::core::lock(&s);
                s.session.id() == id && s.session.status() == huarong_engine::Status::Playing
            });
        // A plain ID of the game whose result the slot keeps is that game tried again (a
        // finish's `retry`): the result to beat stays.
        let retry = challenge.is_none()
            && mode == crate::progress::Mode::Challenge
            && crate::challenge::full(&self.store().progress, &key, id).is_some();
        let view = self.place(key.clone(), mode, sess, replace, true, None)?;
        if challenge.is_some() || !(resumes || retry) {
            self.set_challenge(&key, challenge.clone());
        }
        if let Some(c) = &challenge {
            // A friend's result of a daily: onto that day's board.
            let today = self.today();
            self.commit(|p| crate::friends::add_friend(p, G::KIND, c, &today));
        }
        // The View comes from the slot once its result is kept (`place` built one before),
        // so `challenge` is the same on the first open as on a resume.
        let slot = G::slots(&self.0.games).lock().slots.get(&key).cloned();
        Ok(match slot {
            Some(s) => self.view(&crate::core::lock(&s), view.effect, view.finish),
            None => view,
        })
    }

    /// Keep (or clear) the result to beat of slot `key` (`c.id` is its game).
    pub(crate) fn set_challenge(&self, key: &str, c: Option<SlotChallenge>) {
        let has = self.store().progress.challenges.contains_key(key);
        if c.is_none() && !has {
            return;
        }
        let live: Vec<String> = self.list_games().into_iter().map(|g| g.slot).collect();
        self.commit(|p| crate::challenge::set(p, key, c, &live));
    }

    /// `new_game`: a fresh game of `kind` from generator parameters and a seed (random if
    /// none), into its free-play (or level) slot.
    pub fn new_game(
        &self,
        kind: Kind,
        params: &str,
        seed: Option<u64>,
        replace: bool,
        mode: Option<&str>,
    ) -> AppResult<View> {
        if let Some(mode) = mode {
            // A speedsolving run of the number slide (runs.rs).
            let seed = seed.unwrap_or_else(|| (self.platform().seed)() >> 11);
            return self.new_run(kind, params, mode, seed, replace);
        }
        let id = self.new_game_id(kind, params, seed);
        self.new_resolved(kind, &id, replace, None)
    }

    /// The game ID `new_game` opens (a random seed below 2^53 survives a round trip through a
    /// JS number).
    pub(crate) fn new_game_id(&self, kind: Kind, params: &str, seed: Option<u64>) -> String {
        let seed = seed.unwrap_or_else(|| (self.platform().seed)() >> 11);
        format!("{}:{params}#{seed}", kind.as_str())
    }

    /// [`AppState::new_game`] of its game ID; `made` as for [`AppState::open_resolved`].
    pub(crate) fn new_resolved(
        &self,
        kind: Kind,
        id: &str,
        replace: bool,
        made: Option<&str>,
    ) -> AppResult<View> {
        let cancel = self.opening(kind);
        with_game!(kind, G => {
            let sess = self.bounded(
                crate::search_gate::Urgency::Foreground,
                self.budget(&cancel, crate::search::OPEN_TIME),
                || open_session::<G>(id, made),
            )?;
            let (key, mode) = G::new_slot(sess.start());
            let view = self.place(key.clone(), mode, sess, replace, false, None)?;
            // A new game in the slot has no result to beat.
            self.set_challenge(&key, None);
            let mut view = view;
            view.snapshot.challenge = None;
            Ok(view)
        })
    }

    /// Apply a launch request (`--open`, a link): open the game and show it, or show home
    /// with a notice. No request: the saved screen stays.
    ///
    /// Called on the shell's main thread during setup, so nothing here generates or
    /// searches for long: the text is decoded under a 30 ms budget (a Klotski
    /// code's solvability check that does not finish in it accepts the board, as for boards
    /// too large to decide), an exact board opens at once, and a game ID that runs a
    /// generator (`#seed`) opens on a task of its own, bounded and cancellable like
    /// `open_game` (`cancel` of its kind stops it); the page hears `huarong-opened` when
    /// it is there (or a notice says why not). Without threads it all runs here.
    pub fn launch(&self, open: Option<&str>) {
        let Some(text) = open else { return };
        let quick = Budget::new(
            huarong_engine::budget::MAX_BYTES,
            huarong_engine::Cancel::new(),
        )
        .within(self.budget_clock(), LAUNCH_DECODE);
        let resolved = huarong_engine::budget::scoped(quick, || resolve_open_full(text));
        let generated = resolved.as_ref().ok().and_then(|(id, _)| {
            huarong_engine::GameId::parse(id)
                .ok()
                .filter(|p| p.seed.is_some())
        });
        let tasks = self.platform().tasks.clone();
        if let (Some(_), true) = (generated, tasks.threaded()) {
            let (state, text) = (self.clone(), text.to_string());
            let job = Box::new(move || {
                state.launch_now(&text);
                state.platform().events.emit(crate::platform::Event::Opened);
            });
            if tasks
                .spawn("huarong-launch", crate::platform::Priority::Normal, job)
                .is_ok()
            {
                return;
            }
        }
        self.launch_now(text);
    }

    /// [`AppState::launch`]'s opening, on the calling thread.
    fn launch_now(&self, text: &str) {
        let shown: String = text.chars().take(80).collect();
        match self.open_game(text, false) {
            Ok(_) => {}
            Err(e) if e.code == Code::WouldReplace => {
                self.notice(Notice::warning(
                    "would_replace",
                    format!(
                        "{shown:?} was not opened: {}. Open it from the code screen to replace it.",
                        e.message
                    ),
                ));
                self.commit(|p| p.screen = "home".into());
            }
            Err(e) => {
                self.notice(Notice::warning(
                    "bad_open",
                    format!("could not open {shown:?}: {}", e.message),
                ));
                self.commit(|p| p.screen = "home".into());
            }
        }
    }
}

/// The session of `id`, refused with `already_solved` when its start is not a game to play
/// (solved, won or over from the start): its finish would be no move's.
/// `made`: the start board (game-ID body) a generator made elsewhere for `id` (then the
/// session is built on it, its ID still `id`).
pub(crate) fn open_session<G: AppGame>(id: &str, made: Option<&str>) -> AppResult<Session<G>> {
    let sess = guard("opening the game", || {
        match made {
            None => Session::<G>::open(id),
            Some(body) => {
                let parsed = huarong_engine::GameId::parse(id)?;
                if parsed.kind != G::KIND {
                    return Err(AppError::bad_argument("the made board is of another game"));
                }
                let start = G::from_id(body, None)?;
                Ok(Session::with_game(parsed.to_string(), start))
            }
        }
        .map_err(AppError::from)
    })?;
    if sess.status() != huarong_engine::Status::Playing {
        return Err(AppError::new(
            Code::AlreadySolved,
            format!(
                "this {} game is already {} at its start: there is nothing to play",
                G::KIND.as_str(),
                match sess.status() {
                    huarong_engine::Status::Won => "solved",
                    _ => "over",
                }
            ),
        ));
    }
    Ok(sess)
}

/// Turn what the player or the command line gave (a game ID, a share code, or a link:
/// `<code::LINK_BASE>?c=` or the first form, `huarong://play?c=`) into a game ID. Bounded and checked before any decoding.
pub fn resolve_open(text: &str) -> AppResult<String> {
    resolve_open_full(text).map(|(id, _)| id)
}

/// [`resolve_open`] and the sender's result a code carries.
pub fn resolve_open_full(text: &str) -> AppResult<(String, Option<Challenge>)> {
    resolve_open_result(text).map(|(id, c, _)| {
        (
            id,
            c.map(|c| Challenge {
                moves: c.moves,
                ms: c.ms,
            }),
        )
    })
}

/// [`resolve_open`], the sender's result a code carries as a slot keeps it (with their
/// name, the daily number and whether the move log came with it), and the
/// decoded code (`None` for a game ID).
pub fn resolve_open_result(
    text: &str,
) -> AppResult<(
    String,
    Option<SlotChallenge>,
    Option<huarong_engine::code::Decoded>,
)> {
    let t = text.trim();
    if t.is_empty() {
        return Err(AppError::bad_argument(
            "nothing to open: the game ID is empty",
        ));
    }
    if t.len() > args::MAX_OPEN {
        return Err(AppError::bad_argument(format!(
            "{} bytes is too long for a game ID, code or link (at most {})",
            t.len(),
            args::MAX_OPEN
        )));
    }
    if t.chars().any(|c| c.is_control()) {
        return Err(AppError::bad_argument(
            "the game ID contains control characters",
        ));
    }
    guard("reading the game ID or code", || {
        if huarong_engine::code::is_game_id(t) {
            return Ok((huarong_engine::code::resolve(t)?, None, None));
        }
        let d = huarong_engine::code::decode_full(t)?;
        // A daily's code opens that daily's own game (its slot, its streak) when it is that
        // day's puzzle.
        let id = daily_game(&d)?.unwrap_or_else(|| d.id.clone());
        let ghost = crate::ghost::of_code(&d);
        let c = d.challenge.map(|c| SlotChallenge {
            assisted: d.sent.as_ref().is_some_and(|s| s.assisted),
            ghost,
            id: id.clone(),
            moves: c.moves,
            ms: c.ms,
            name: d.name().map(str::to_string),
            daily: d.daily,
            outcome: d.sent.as_ref().and_then(|s| s.outcome),
            replay: d.log().is_some(),
            verified: d.verified(),
        });
        Ok((id, c, Some(d)))
    })
}

/// The game ID of the daily puzzle a code names with its daily number, if the code's board
/// is that puzzle (compared in the codes' canonical form). Making that day's board may need the
/// 4×4 tables (a 4×4 made to a difficulty): where the build leaves them out and they are not
/// installed yet, that is the error (`slide::TABLES_MISSING`; the web page installs them and
/// asks again), not "some other puzzle" — else a friend's daily result would open as a plain
/// challenge and never reach the friends' board. The same for a build without the generators
/// (`huarong_engine::NOT_IN_BUILD`: the web page's board build, which then moves onto its full one).
pub(crate) fn daily_game(
    d: &huarong_engine::code::Decoded,
) -> Result<Option<String>, huarong_engine::Error> {
    use huarong_engine::{code, daily, slide};
    let Some(n) = d.daily else { return Ok(None) };
    let Some(puzzles) = daily::date_of(n).and_then(daily::puzzles).ok() else {
        return Ok(None);
    };
    let Some(id) = puzzles.id(d.kind) else {
        return Ok(None);
    };
    match code::encode(id).and_then(|c| code::decode(&c)) {
        Ok(made) => Ok((made == d.id).then(|| id.to_string())),
        Err(e)
            if e.message == slide::TABLES_MISSING
                || e.message.contains(huarong_engine::NOT_IN_BUILD) =>
        {
            Err(e)
        }
        Err(_) => Ok(None),
    }
}

/// The preview of game ID `id` (its generator runs under the caller's budget):
/// `{id, kind, view}`, the start board as a snapshot's `view` shows it.
pub(crate) fn preview_view(id: &str) -> AppResult<serde_json::Value> {
    let parsed = huarong_engine::GameId::parse(id)?;
    let view = with_game!(parsed.kind, G => {
        let g = <G as huarong_engine::Game>::from_id(&parsed.body, parsed.seed)?;
        huarong_engine::Game::view(&g, &g)
    });
    Ok(serde_json::json!({ "id": id, "kind": parsed.kind.as_str(), "view": view }))
}
