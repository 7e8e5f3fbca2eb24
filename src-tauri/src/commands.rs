//! The `#[tauri::command]`s: thin wrappers that validate arguments (`args.rs`) and call the
//! state (`state.rs`). Every argument arrives as raw JSON so any malformed input becomes a
//! typed `AppError` (`bad_argument`), and every call is guarded against panics.
//! The table of commands is in ARCHITECTURE.md ("IPC contract").

use crate::args;
use crate::error::{guard, AppError, AppResult};
use crate::games;
use crate::progress::Settings;
use crate::state::{AppState, GameEntry, HintView, ProgressView, SolveView, View};
use huarong_engine::Kind;
use serde_json::Value;
use tauri::{AppHandle, Runtime, State};

type Arg = Option<Value>;

/// Run blocking work (searches, generators) on a worker thread, off the main thread.
pub(crate) async fn blocking<T: Send + 'static>(
    what: &'static str,
    f: impl FnOnce() -> AppResult<T> + Send + 'static,
) -> AppResult<T> {
    tauri::async_runtime::spawn_blocking(move || guard(what, f))
        .await
        .map_err(|e| AppError::internal(format!("{what}: worker failed: {e}")))?
}

/// `f` on the state with the checked `kind` argument, guarded against panics.
fn for_kind<T>(
    what: &'static str,
    state: &AppState,
    kind: Arg,
    f: impl FnOnce(&AppState, Kind) -> AppResult<T>,
) -> AppResult<T> {
    let kind = args::kind(kind)?;
    guard(what, || f(state, kind))
}

/// The same on a worker thread (searches, generators, analysis).
async fn for_kind_off_main<T: Send + 'static>(
    what: &'static str,
    state: &AppState,
    kind: Arg,
    f: impl FnOnce(&AppState, Kind) -> AppResult<T> + Send + 'static,
) -> AppResult<T> {
    let kind = args::kind(kind)?;
    let st = state.clone();
    blocking(what, move || f(&st, kind)).await
}

/// Open a game by game ID, share code or link, into its slot; `replace: true` confirms
/// replacing an unfinished game with moves there (else `would_replace`).
#[tauri::command]
pub async fn open_game(state: State<'_, AppState>, id: Arg, replace: Arg) -> AppResult<View> {
    let id = args::string("id", id, args::MAX_OPEN)?;
    let replace = args::flag("replace", replace)?;
    let st = state.inner().clone();
    blocking("open_game", move || st.open_game(&id, replace)).await
}

/// Every slot, most recently played first.
#[tauri::command]
pub fn list_games(state: State<'_, AppState>) -> AppResult<Vec<GameEntry>> {
    guard("list_games", || Ok(state.list_games()))
}

/// Make a slot its kind's current game and show it (undo history included).
#[tauri::command]
pub fn resume_game(state: State<'_, AppState>, slot: Arg) -> AppResult<View> {
    let slot = args::string("slot", slot, 128)?;
    guard("resume_game", || state.resume_game(&slot))
}

/// Cancel the running hint/solve of `kind` (of every kind when absent).
#[tauri::command]
pub fn cancel(state: State<'_, AppState>, kind: Arg) -> AppResult<()> {
    let kind = match kind {
        None | Some(Value::Null) => None,
        k => Some(args::kind(k)?),
    };
    state.cancel(kind);
    Ok(())
}

/// Start a new game: `kind`, generator `params` (e.g. `4x4`, `4x4/hard`, `60-90`, ``), and an
/// optional `seed` (random when absent).
#[tauri::command]
pub async fn new_game(
    state: State<'_, AppState>,
    kind: Arg,
    params: Arg,
    seed: Arg,
    replace: Arg,
) -> AppResult<View> {
    let kind = args::kind(kind)?;
    let params = args::params(params)?;
    let seed = args::seed(seed)?;
    let replace = args::flag("replace", replace)?;
    let st = state.inner().clone();
    blocking("new_game", move || {
        st.new_game(kind, &params, seed, replace)
    })
    .await
}

#[tauri::command]
pub fn play(state: State<'_, AppState>, kind: Arg, mv: Arg) -> AppResult<View> {
    let kind = args::kind(kind)?;
    let mv = mv.ok_or_else(|| AppError::bad_argument("`mv` is missing"))?;
    guard("play", || state.play(kind, mv))
}

#[tauri::command]
pub fn undo(state: State<'_, AppState>, kind: Arg) -> AppResult<View> {
    for_kind("undo", state.inner(), kind, AppState::undo)
}

#[tauri::command]
pub fn redo(state: State<'_, AppState>, kind: Arg) -> AppResult<View> {
    for_kind("redo", state.inner(), kind, AppState::redo)
}

#[tauri::command]
pub fn restart(state: State<'_, AppState>, kind: Arg) -> AppResult<View> {
    for_kind("restart", state.inner(), kind, AppState::restart)
}

#[tauri::command]
pub fn snapshot(state: State<'_, AppState>, kind: Arg) -> AppResult<View> {
    for_kind("snapshot", state.inner(), kind, AppState::snapshot)
}

/// The next move of a solution (or the AI's choice). Runs off the main thread; a newer
/// hint/solve of the same kind, or a move, cancels it (`cancelled`).
#[tauri::command]
pub async fn hint(state: State<'_, AppState>, kind: Arg) -> AppResult<HintView> {
    for_kind_off_main("hint", state.inner(), kind, AppState::hint).await
}

/// The hint the current game already holds (after `huarong-hint`), or null; counts nothing.
#[tauri::command]
pub fn hint_status(state: State<'_, AppState>, kind: Arg) -> AppResult<Option<HintView>> {
    for_kind("hint_status", state.inner(), kind, AppState::hint_status)
}

/// A whole solution from here; the UI replays it with `play`. Marks the game auto-solved.
#[tauri::command]
pub async fn solve(state: State<'_, AppState>, kind: Arg) -> AppResult<SolveView> {
    for_kind_off_main("solve", state.inner(), kind, AppState::solve).await
}

/// Where a Klotski piece can go in one move: `[{to: [r, c], path: [[r, c], …]}]`.
#[tauri::command]
pub fn klotski_targets(state: State<'_, AppState>, piece: Arg) -> AppResult<Value> {
    let piece = args::piece(piece)?;
    guard("klotski_targets", || state.klotski_targets(piece))
}

#[tauri::command]
pub fn get_settings(state: State<'_, AppState>) -> AppResult<Settings> {
    Ok(state.settings())
}

/// Change any subset of the settings; returns them all.
#[tauri::command]
pub fn set_settings(state: State<'_, AppState>, settings: Arg) -> AppResult<Settings> {
    let settings = settings.ok_or_else(|| AppError::bad_argument("`settings` is missing"))?;
    let len = serde_json::to_string(&settings)
        .map(|s| s.len())
        .unwrap_or(usize::MAX);
    if len > 4096 {
        return Err(AppError::bad_argument(
            "`settings` is larger than 4096 bytes of JSON",
        ));
    }
    guard("set_settings", || state.set_settings(settings))
}

#[tauri::command]
pub fn get_progress(state: State<'_, AppState>) -> AppResult<ProgressView> {
    guard("get_progress", || Ok(state.progress()))
}

/// Forget the notices shown so far.
#[tauri::command]
pub fn dismiss_notices(state: State<'_, AppState>) -> AppResult<()> {
    state.dismiss_notices();
    Ok(())
}

/// Remember the screen the player is on (`home`, `game:<kind>`, …) for the next start.
#[tauri::command]
pub fn set_screen(state: State<'_, AppState>, screen: Arg) -> AppResult<()> {
    let screen = args::string("screen", screen, 64)?;
    guard("set_screen", || state.set_screen(&screen))
}

/// Stop the clock of `kind` (or all games when absent): the window was hidden.
#[tauri::command]
pub fn pause(state: State<'_, AppState>, kind: Arg) -> AppResult<()> {
    let kind = match kind {
        None | Some(Value::Null) => None,
        k => Some(args::kind(k)?),
    };
    guard("pause", || {
        state.pause(kind);
        Ok(())
    })
}

/// Haptic feedback of a kind (`tap`, `move`, `blocked`, `merge`, `win`, `lose`, `undo`),
/// honouring the setting. Returns whether feedback was requested from the device.
#[tauri::command]
pub fn haptic<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    kind: Arg,
) -> AppResult<bool> {
    let kind = args::string("kind", kind, 16)?;
    let feedback = crate::haptics::Feedback::parse(&kind)?;
    if !state.settings().haptics {
        return Ok(false);
    }
    guard("haptic", || {
        crate::haptics::play(&app, feedback).map(|()| true)
    })
}

/// The level list of a game with the player's bests (and unlocks for Klotski).
#[tauri::command]
pub async fn levels(state: State<'_, AppState>, kind: Arg) -> AppResult<Value> {
    for_kind_off_main("levels", state.inner(), kind, |st, k| {
        Ok(games::levels(st, k))
    })
    .await
}

/// Statistics of a record scope (`records.rs`); without `scope`, every scope the player has.
#[tauri::command]
pub fn records(state: State<'_, AppState>, scope: Arg) -> AppResult<Value> {
    let scope = args::opt_string("scope", scope, crate::records::MAX_SCOPE_LEN)?;
    guard("records", || state.records(scope.as_deref()))
}

/// The optimal distance after each move of the current game of `kind` (`analysis.rs`).
/// Off the main thread; `cancel` or a change of the game cancels it.
#[tauri::command]
pub async fn analysis(state: State<'_, AppState>, kind: Arg) -> AppResult<Value> {
    for_kind_off_main("analysis", state.inner(), kind, AppState::analysis).await
}

/// Keep the player's own (already cropped and scaled) picture (`pictures.rs`).
#[tauri::command]
pub async fn save_picture(state: State<'_, AppState>, data: Arg) -> AppResult<Value> {
    let data = args::string("data", data, crate::pictures::MAX_DATA_LEN)?;
    let st = state.inner().clone();
    blocking("save_picture", move || st.save_picture(&data)).await
}

/// The player's picture as a data URL, or null.
#[tauri::command]
pub async fn load_picture(state: State<'_, AppState>) -> AppResult<Option<String>> {
    let st = state.inner().clone();
    blocking("load_picture", move || st.load_picture()).await
}
