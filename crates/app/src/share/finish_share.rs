//! `share {kind, lang?, theme?, picture?}`: the one call the finish makes to share. Everything
//! it shares comes from the slot's own finish: the share code of the start (with the daily or
//! classic it is, and the player's result to beat when the game was won without auto-solve),
//! the result code (the move log when it fits), the score card and the line of text that goes
//! with it. The page sends only how to say it (language, theme) and, for a picture puzzle,
//! the picture the card shows; never moves, times, stars or verdicts.

use super::card::card_png;
use super::codes::{self, CodeInfo};
use crate::core::AppState;
use crate::error::{AppError, AppResult};
use crate::friends::ResultCode;
use crate::games::{with_game, AppGame};
use crate::platform::ShareOutcome;
use huarong_card::{Card, CardSpec, Lang, Theme};
use huarong_engine::{code, daily, Kind, Status};
use serde::Serialize;

/// What `share` answers.
#[derive(Debug, Clone, Serialize)]
pub struct Shared {
    /// The start's share code (with the result to beat when there is one).
    pub code: CodeInfo,
    /// The finish as a result code, when the game was won (or a 2048 game played out) and
    /// not auto-solved; null otherwise.
    pub result: Option<ResultCode>,
    /// The link that was shared: the result code's, else the share code's.
    pub link: String,
    /// The line of text that goes with the card ("Ann solved it in 33 moves · 横刀立马 …").
    pub text: String,
    /// What the platform did with the card (saved on the desktop, the share sheet on phones).
    pub card: ShareOutcome,
    /// Whether the card carries a picture (a picture puzzle's).
    pub picture: bool,
}

/// The facts of a finished game that a share needs, read from the slot under its lock.
struct Facts {
    id: String,
    kind: Kind,
    /// Moves under the game's default rule (what codes and cards carry).
    moves: u32,
    ms: u64,
    /// Won or played out, and not auto-solved: the result is the player's own to share.
    mine: bool,
    optimal: Option<u32>,
    stars: Option<u8>,
    score: Option<u64>,
    best_tile: Option<u64>,
    /// The friend's result this finish beat.
    beat: Option<code::Challenge>,
    /// The finished board in game-ID body form.
    board: String,
    classic: Option<usize>,
}

impl AppState {
    /// `share {kind, lang, theme, picture}` (see the module's doc).
    pub fn share(
        &self,
        kind: Kind,
        lang: Lang,
        theme: Theme,
        picture: Option<Vec<u8>>,
    ) -> AppResult<Shared> {
        if !cfg!(feature = "card") {
            return Err(AppError::not_in_build("the share card"));
        }
        let facts = with_game!(kind, G => self.share_facts::<G>())?;
        let today = self.today();
        let day = crate::daily::daily_day(facts.kind, &facts.id, &today);
        let extra = code::Extra {
            daily: day.and_then(|d| daily::number(d).ok()),
            classic: facts.classic,
        };
        let challenge = if facts.mine {
            Some(code::Challenge::new(facts.moves, facts.ms)?)
        } else {
            None
        };
        let plain = codes::encode(&facts.id, extra, challenge)?;
        // The result code is the better link where there is one; a finish it cannot carry
        // (too long, an older kind of game) shares the plain code.
        let result = if facts.mine {
            self.result_code(kind).ok()
        } else {
            None
        };
        let card_code = result.as_ref().map_or(&plain.code, |r| &r.code).clone();
        let mut spec = CardSpec {
            code: card_code,
            lang,
            theme,
            moves: facts.moves,
            seconds: facts.ms / 1000,
            ms: Some(facts.ms),
            name: None,
            friends_beaten: None,
            optimum: facts.optimal,
            stars: facts.stars,
            score: facts.score,
            best_tile: facts.best_tile.and_then(|t| u32::try_from(t).ok()),
            date: day.map(|d| (d.year, d.month, d.day)),
            picture,
            own_photo: false,
            beat: facts.beat.filter(|_| facts.mine),
            board: Some(facts.board),
        };
        self.mark_own_photo(&mut spec);
        self.fill_card(&mut spec);
        let described = Card::describe(&spec)?;
        let link = result.as_ref().map_or(&plain.link, |r| &r.link).clone();
        let text = share_text(&described, &link);
        let png = card_png(&spec)?;
        let platform = self.platform();
        let name = super::card::card_file_name(platform.clock.wall_ms() as i64);
        let outcome = platform.share.share_png(&png, &name)?;
        Ok(Shared {
            code: plain,
            result,
            link,
            text,
            card: outcome,
            picture: spec.picture.is_some(),
        })
    }

    fn share_facts<G: AppGame>(&self) -> AppResult<Facts> {
        let slot_ref = self.current::<G>()?;
        let slot = crate::core::lock(&slot_ref);
        let sess = &slot.session;
        let status = sess.status();
        if status == Status::Playing || sess.played().is_empty() {
            return Err(AppError::bad_argument(format!(
                "the current {} game is not finished: there is nothing to share yet",
                G::KIND.as_str()
            )));
        }
        if slot.run.is_some() {
            return Err(AppError::bad_argument(
                "a speedsolving run is many puzzles: there is no one puzzle to share",
            ));
        }
        let g = sess.current();
        let f = slot.finish.as_ref();
        let played_out = status == Status::Won || G::DAILY_ON_END;
        let ms = f.map_or_else(|| sess.elapsed_ms(self.now()), |f| f.time_ms);
        let beat = f
            .and_then(|f| f.challenge.as_ref())
            .filter(|c| c.get("beaten").and_then(|b| b.as_bool()) == Some(true))
            .and_then(|c| {
                let moves = u32::try_from(c.get("moves")?.as_u64()?).ok()?;
                let ms = c.get("ms")?.as_u64()?;
                code::Challenge::new(moves, ms).ok()
            });
        Ok(Facts {
            id: sess.id().to_string(),
            kind: G::KIND,
            moves: g.moves(),
            ms,
            mine: played_out && !sess.auto_solved(),
            optimal: f.and_then(|f| f.optimal),
            stars: f.and_then(|f| f.stars),
            score: G::score(g),
            best_tile: G::best_tile(g),
            beat,
            board: g.board_body(),
            // A classic's share code names it (`Extra::classic` is 0-based): the level slot's
            // own number first (two classics may share a layout), else the board's classic.
            classic: level_of_key(&slot.key)
                .or_else(|| G::level_index(sess.start()))
                .and_then(|i| usize::try_from(i).ok()?.checked_sub(1)),
        })
    }
}

/// The 1-based level of a level slot's key (`klotski:level:3`).
fn level_of_key(key: &str) -> Option<u32> {
    let mut parts = key.split(':');
    let (_, level, n) = (parts.next()?, parts.next()?, parts.next()?);
    (level == "level" && parts.next().is_none())
        .then(|| n.parse().ok())
        .flatten()
}

/// The line that goes with the card in a chat: its headline, the puzzle, the friend beaten
/// and the link, in the card's language.
fn share_text(card: &Card, link: &str) -> String {
    let mut parts = vec![card.headline.clone()];
    let title = [card.title.as_str(), card.subtitle.as_str()]
        .iter()
        .filter(|s| !s.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    if !title.is_empty() {
        parts.push(title);
    }
    if let Some(b) = &card.beaten {
        parts.push(b.clone());
    }
    format!("{} {link}", parts.join(" · "))
}
