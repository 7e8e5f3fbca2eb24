//! Trust, third round, on the core through its command table with a clock moved by whole
//! days: streaks derived from the days solved, friends' boards that a clock set ahead and
//! back does not empty.

use huarong_core::platform::{Clock, NoEvents, NoHaptics, NoShare, Platform};
use huarong_core::AppState;
use huarong_engine::daily::{self, Date};
use huarong_tests::solve_slide;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const DAY_MS: u64 = 86_400_000;

/// A wall clock set by hand (UTC, noon of a date), with a real monotonic clock.
struct Moved {
    wall: AtomicU64,
    epoch: Instant,
}

impl Clock for Moved {
    fn wall_ms(&self) -> u64 {
        self.wall.load(Ordering::SeqCst)
    }
    fn monotonic(&self) -> Duration {
        self.epoch.elapsed()
    }
    fn utc_offset_minutes(&self, _wall_ms: u64) -> i32 {
        0
    }
}

/// The core without a data folder, on a clock the test moves.
struct App {
    st: AppState,
    clock: Arc<Moved>,
}

impl App {
    fn at(day: &str) -> App {
        let clock = Arc::new(Moved {
            wall: AtomicU64::new(0),
            epoch: Instant::now(),
        });
        let mut platform =
            Platform::native(Arc::new(NoHaptics), Arc::new(NoShare), Arc::new(NoEvents));
        platform.clock = clock.clone();
        let app = App {
            st: AppState::open(None, platform, || Err("no primary copy".into())),
            clock,
        };
        app.set(day);
        app.st.launch(None);
        app
    }
    /// Move the clock to noon (UTC) of `day`.
    fn set(&self, day: &str) {
        let d = Date::parse(day).expect("a date");
        self.clock
            .wall
            .store(d.days() as u64 * DAY_MS + DAY_MS / 2, Ordering::SeqCst);
    }
    fn call(&self, cmd: &str, args: Value) -> Result<Value, Value> {
        let r = huarong_core::dispatch(&self.st, cmd, args);
        self.st.step();
        r.map_err(|e| serde_json::to_value(e).expect("errors are JSON"))
    }
    fn ok(&self, cmd: &str, args: Value) -> Value {
        self.call(cmd, args.clone())
            .unwrap_or_else(|e| panic!("{cmd}({args}) failed: {e}"))
    }
    fn streak(&self) -> (u64, u64) {
        let s = &self.ok("get_progress", json!({}))["streaks"]["slide"];
        (
            s["current"].as_u64().unwrap_or(0),
            s["best"].as_u64().unwrap_or(0),
        )
    }
}

/// The slide daily of `day`, and an optimal solution of it (cached: the solver is not cheap).
struct Dailies(BTreeMap<String, (String, Vec<Value>)>);

impl Dailies {
    fn get(&mut self, day: &str) -> (String, Vec<Value>) {
        self.0
            .entry(day.to_string())
            .or_insert_with(|| {
                let p = daily::puzzles(Date::parse(day).unwrap()).expect("the day's puzzles");
                let id = p.id(huarong_engine::Kind::Slide).expect("a slide daily");
                (id.to_string(), solve_slide(id).0)
            })
            .clone()
    }
}

/// Open `day`'s slide daily (resuming it when it is being played) and play `moves` of it.
fn play(app: &App, id: &str, moves: &[Value]) -> Value {
    let mut last = app.ok("open_game", json!({ "id": id }));
    for m in moves {
        last = app.ok("play", json!({ "kind": "slide", "mv": m }));
    }
    last
}

/// Open and solve `day`'s slide daily from its start.
fn solve(app: &App, d: &mut Dailies, day: &str) -> Value {
    solve_from(app, d, day, 0)
}

/// Solve `day`'s slide daily whose slot has played `done` moves of the solution (0: from
/// its start, a finished slot starting again).
fn solve_from(app: &App, d: &mut Dailies, day: &str, done: usize) -> Value {
    let (id, moves) = d.get(day);
    let v = play(app, &id, &moves[done..]);
    assert_eq!(v["snapshot"]["status"], "won", "{v}");
    v
}

fn plus(day: &str, n: i64) -> String {
    Date::from_days(Date::parse(day).unwrap().days() + n).to_string()
}

/// The set rule: the run of consecutive days ending at the newest day, and the longest run.
fn set_rule(days: &BTreeSet<i64>) -> (u64, u64) {
    let (mut run, mut best, mut prev) = (0u64, 0u64, None::<i64>);
    for &d in days {
        run = if prev == Some(d - 1) { run + 1 } else { 1 };
        best = best.max(run);
        prev = Some(d);
    }
    (run, best)
}

#[test]
fn yesterdays_daily_finished_after_todays_keeps_the_run() {
    let mut d = Dailies(BTreeMap::new());
    let app = App::at("2026-12-05");
    solve(&app, &mut d, "2026-12-05");
    // 12-06's daily begun before midnight…
    app.set("2026-12-06");
    let (id6, moves6) = d.get("2026-12-06");
    app.ok("open_game", json!({ "id": id6 }));
    play(&app, &id6, &moves6[..moves6.len() - 1]);
    // …finished on 12-07, after 12-07's.
    app.set("2026-12-07");
    solve(&app, &mut d, "2026-12-07");
    let v = play(&app, &id6, &moves6[moves6.len() - 1..]);
    assert_eq!(v["snapshot"]["status"], "won", "{v}");
    app.set("2026-12-08");
    let v = solve(&app, &mut d, "2026-12-08");
    assert_eq!(v["finish"]["daily"]["current"], 4, "{}", v["finish"]);
    assert_eq!(app.streak(), (4, 4));
}

#[test]
fn yesterdays_daily_replayed_after_todays_does_not_break_the_run() {
    let mut d = Dailies(BTreeMap::new());
    let app = App::at("2026-12-05");
    solve(&app, &mut d, "2026-12-05");
    app.set("2026-12-06");
    solve(&app, &mut d, "2026-12-06");
    // Yesterday's again, after today's.
    solve(&app, &mut d, "2026-12-05");
    assert_eq!(app.streak(), (2, 2));
    app.set("2026-12-07");
    solve(&app, &mut d, "2026-12-07");
    assert_eq!(app.streak(), (3, 3));
}

#[test]
fn re_solving_two_dailies_in_turn_does_not_grow_the_streak() {
    let mut d = Dailies(BTreeMap::new());
    let app = App::at("2026-12-06");
    solve(&app, &mut d, "2026-12-05");
    solve(&app, &mut d, "2026-12-06");
    assert_eq!(app.streak(), (2, 2));
    for _ in 0..5 {
        solve(&app, &mut d, "2026-12-05");
        solve(&app, &mut d, "2026-12-06");
        assert_eq!(app.streak(), (2, 2));
    }
    // Undo and redo of the winning move: a finish again, the same day.
    app.ok("undo", json!({ "kind": "slide" }));
    app.ok("redo", json!({ "kind": "slide" }));
    assert_eq!(app.streak(), (2, 2));
}

/// Random orders of solving, re-solving and undo/redo across 30 days: the streak shown is
/// always the set rule over the days whose daily was solved on its day or the next.
#[test]
fn the_streak_is_the_set_rule_in_any_order_of_play() {
    let mut d = Dailies(BTreeMap::new());
    let first = "2026-11-01";
    let app = App::at(first);
    let mut rng = huarong_engine::rng::stream(46, "streak-orders");
    let mut solved = BTreeSet::new();
    // Dailies begun and not finished: moves of the solution played.
    let mut begun: BTreeMap<String, usize> = BTreeMap::new();
    for i in 0..30 {
        let today = plus(first, i);
        app.set(&today);
        let actions = huarong_engine::rng::below(&mut rng, 5);
        for _ in 0..actions {
            let back = huarong_engine::rng::below(&mut rng, 2) as i64;
            let day = plus(&today, -back);
            match huarong_engine::rng::below(&mut rng, 4) {
                // Solve (or solve again) today's or yesterday's.
                0 | 1 => {
                    let done = begun.remove(&day).unwrap_or(0);
                    solve_from(&app, &mut d, &day, done);
                    solved.insert(Date::parse(&day).unwrap().days());
                }
                // Undo and redo the last move of the current game.
                2 => {
                    if app.call("undo", json!({ "kind": "slide" })).is_ok() {
                        app.ok("redo", json!({ "kind": "slide" }));
                    }
                }
                // Begin a daily and leave it unfinished.
                _ => {
                    if !begun.contains_key(&day) {
                        let (id, moves) = d.get(&day);
                        play(&app, &id, &moves[..moves.len() / 2]);
                        begun.insert(day.clone(), moves.len() / 2);
                    }
                }
            }
            assert_eq!(app.streak(), set_rule(&solved), "on {today}: {solved:?}");
        }
    }
    assert!(solved.len() > 5, "the test solved too little: {solved:?}");
}

/// The files of the games folder of `dir`, by name.
fn games_files(dir: &std::path::Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir.join(huarong_core::journal::GAMES_DIR))
        .expect("the games folder")
        .map(|e| e.expect("an entry"))
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(e.path()).expect("a file"))
        })
        .collect()
}

/// A slot whose game does not restore (a newer app's save version) still holds its key:
/// `new_game` there without `replace` is `would_replace`, and with it the old file is moved
/// aside, never overwritten.
#[test]
fn a_key_that_failed_to_restore_is_occupied() {
    use huarong_tests::{TempDir, TestApp};
    let dir = TempDir::new("trust3-unrestored");
    {
        let paths = huarong_core::persist::Paths::new(dir.path());
        let (j, _, _) =
            huarong_core::journal::Journal::open(&paths.dir, huarong_core::fsio::real());
        let mut s = huarong_engine::Session::<huarong_engine::slide::Slide>::open("slide:4x4#3")
            .expect("a 4x4");
        let mut saved = serde_json::to_value(s.save(0)).unwrap();
        saved["version"] = json!(99);
        let _ = s.take_delta(0);
        j.put("slide:4x4", json!({"kind": "slide", "mode": "free"}), saved);
        assert!(j.flush(Duration::from_secs(10)));
        j.shutdown();
    }
    let before = games_files(dir.path());
    let snap = before
        .iter()
        .find(|(n, _)| n.ends_with(".snap"))
        .map(|(n, b)| (n.clone(), b.clone()))
        .expect("the slot's snapshot");
    let app = TestApp::start(dir.path(), None);
    let notices = app.ok("get_progress", json!({}))["notices"].clone();
    assert!(
        notices.to_string().contains("game_not_resumed"),
        "{notices}"
    );
    assert_eq!(
        app.err(
            "new_game",
            json!({"kind": "slide", "params": "4x4", "seed": 1})
        ),
        "would_replace"
    );
    assert!(app.state().flush(Duration::from_secs(10)));
    assert_eq!(games_files(dir.path()).get(&snap.0), Some(&snap.1));
    // Confirmed: the new game takes the key, the old file is kept beside it.
    app.new_game(json!({"kind": "slide", "params": "4x4", "seed": 1, "replace": true}));
    app.close();
    let after = games_files(dir.path());
    assert!(
        after.iter().any(|(n, b)| n != &snap.0 && b == &snap.1),
        "the old game's file is gone: {:?}",
        after.keys().collect::<Vec<_>>()
    );
    let app = TestApp::start(dir.path(), None);
    let games = app.ok("list_games", json!({}));
    assert_eq!(games[0]["slot"], "slide:4x4", "{games}");
    let notices = app.ok("get_progress", json!({}))["notices"].clone();
    assert!(
        !notices.to_string().contains("game_not_resumed"),
        "{notices}"
    );
    // Dropping that slot later leaves the kept file alone.
    app.close();
    assert!(games_files(dir.path())
        .iter()
        .any(|(n, b)| n != &snap.0 && b == &snap.1));
}

/// The slot cap drops what loses nothing first: a 2048 5×5 game with 160 swipes stays while
/// 70 friends' puzzles opened but never played go past 64 slots; before a game with moves
/// would have to go, the player is told.
#[test]
fn the_cap_drops_empty_games_before_a_game_with_moves() {
    let (_d, app) = huarong_tests::fresh_app("trust3-cap");
    app.ok(
        "new_game",
        json!({"kind": "2048", "params": "5x5", "seed": 7}),
    );
    let mut swipes = 0;
    let dirs = ["left", "down", "right", "up"];
    let mut i = 0;
    while swipes < 160 {
        let mut moved = false;
        for k in 0..4 {
            let d = dirs[(i + k) % 4];
            if app
                .call("play", json!({"kind": "2048", "mv": {"dir": d}}))
                .is_ok()
            {
                moved = true;
                break;
            }
        }
        assert!(moved, "the 5x5 game ended after {swipes} swipes");
        swipes += 1;
        i += 1;
    }
    let slot = app.ok("snapshot", json!({"kind": "2048"}))["snapshot"].clone();
    assert_eq!(slot["slot"], "2048:5x5");
    assert_eq!(slot["status"], "playing");
    assert_eq!(slot["moves"], 160);
    // Another 2048 game is current; then 70 friends' puzzles, opened and not played.
    app.ok("new_game", json!({"kind": "2048", "params": "", "seed": 3}));
    for i in 0..70 {
        app.ok("open_game", json!({"id": format!("slide:3x3#{}", 500 + i)}));
    }
    let list = app.ok("list_games", json!({}));
    let list = list.as_array().expect("a list");
    assert_eq!(list.len(), 64);
    assert!(
        list.iter()
            .any(|g| g["slot"] == "2048:5x5" && g["moves"] == 160),
        "the 160-move game was dropped"
    );
    let notices = app.ok("get_progress", json!({}))["notices"].clone();
    let dropped: Vec<&str> = notices
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["code"] == "slot_dropped")
        .map(|n| n["message"].as_str().unwrap())
        .collect();
    assert_eq!(dropped.len(), 8, "{notices}");
    assert!(dropped.iter().all(|m| m.contains("0 moves")), "{dropped:?}");
    // Every other slot has moves: a 65th would drop one, and the player is asked first.
    app.ok("dismiss_notices", json!({}));
    let mut played = 0;
    for g in app.ok("list_games", json!({})).as_array().unwrap() {
        if g["kind"] == "slide" && g["moves"] == 0 {
            app.ok("resume_game", json!({"slot": g["slot"]}));
            let s = app.ok("snapshot", json!({"kind": "slide"}))["snapshot"].clone();
            let t = huarong_tests::gap_neighbours(&s)[0];
            app.ok("play", json!({"kind": "slide", "mv": {"tile": t}}));
            played += 1;
        }
    }
    assert!(played > 50, "{played}");
    assert_eq!(
        app.err("open_game", json!({"id": "slide:3x3#9000"})),
        "would_replace"
    );
    let list = app.ok("list_games", json!({}));
    assert_eq!(list.as_array().unwrap().len(), 64);
    assert!(list
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["slot"] == "2048:5x5" && g["moves"] == 160));
    // Confirmed: the oldest game with moves goes, and the notice says how many it had.
    app.ok(
        "open_game",
        json!({"id": "slide:3x3#9000", "replace": true}),
    );
    let notices = app.ok("get_progress", json!({}))["notices"].clone();
    assert!(
        notices.to_string().contains("unfinished (160 moves)"),
        "{notices}"
    );
}

/// The number of the daily of `day`.
fn number(day: &str) -> u32 {
    daily::number(Date::parse(day).unwrap()).unwrap()
}

/// The lines of daily `n`'s slide board: (friends' names, whether the player's own is there).
fn board(app: &App, n: u32) -> (Vec<String>, bool) {
    let lines = app.ok("friends", json!({"daily": n, "kind": "slide"}));
    let lines = lines.as_array().expect("lines");
    let names = lines
        .iter()
        .filter(|l| l["me"] == false)
        .map(|l| l["name"].as_str().unwrap_or("").to_string())
        .collect();
    (names, lines.iter().any(|l| l["me"] == true))
}

/// A clock set ahead and back, by 60 and by 3,650 days, with daily finishes in between,
/// deletes no friend line and no own daily result.
#[test]
fn a_clock_moved_any_distance_deletes_no_board_line() {
    let mut d = Dailies(BTreeMap::new());
    let day = "2026-12-01";
    let app = App::at(day);
    solve(&app, &mut d, day);
    let (id, moves) = d.get(day);
    for name in ["Mei", "Bo", "Ana"] {
        let code = huarong_tests::daily_result_code(
            &id,
            number(day),
            Some(name),
            moves.len() as u32 + 4,
            90_000,
            None,
        );
        app.ok("open_game", json!({"id": code}));
    }
    let want = (vec!["Ana".to_string(), "Bo".into(), "Mei".into()], true);
    let mut sorted = board(&app, number(day));
    sorted.0.sort();
    assert_eq!(sorted, want);
    let mut own = vec![day.to_string()];
    for shift in [60, -60, 3650, -3650, 46, 0] {
        let at = plus(day, shift);
        app.set(&at);
        if daily::number(Date::parse(&at).unwrap()).is_ok() {
            solve(&app, &mut d, &at);
            own.push(at.clone());
        }
        // Back to the real day, and a finish there.
        app.set(day);
        solve(&app, &mut d, day);
        let mut b = board(&app, number(day));
        b.0.sort();
        assert_eq!(b, want, "after the clock at {at}");
        for o in &own {
            assert!(
                board(&app, number(o)).1,
                "own result of {o} gone after {at}"
            );
        }
    }
}

/// A machine-solved daily earns no result: `result_code` refuses it in the core.
#[test]
fn an_auto_solved_daily_gives_no_result_code() {
    let day = "2026-12-07";
    let app = App::at(day);
    let p = daily::puzzles(Date::parse(day).unwrap()).expect("the day's puzzles");
    let id = p
        .id(huarong_engine::Kind::Klotski)
        .expect("a klotski daily");
    app.ok("open_game", json!({ "id": id }));
    let s = app.ok("solve", json!({ "kind": "klotski" }));
    let moves = s["moves"].as_array().expect("a solution").clone();
    let mut last = Value::Null;
    for m in &moves {
        last = app.ok("play", json!({ "kind": "klotski", "mv": m }));
    }
    assert_eq!(last["snapshot"]["status"], "won", "{last}");
    assert_eq!(last["finish"]["counted"], false);
    let e = app
        .call("result_code", json!({ "kind": "klotski" }))
        .expect_err("an auto-solved game has no result to share");
    assert_eq!(e["code"], "bad_argument", "{e}");
    // The same moves played without `solve`: a result.
    app.ok("open_game", json!({ "id": id, "replace": true }));
    for m in &moves {
        app.ok("play", json!({ "kind": "klotski", "mv": m }));
    }
    let r = app.ok("result_code", json!({ "kind": "klotski" }));
    assert_eq!(r["moves"], moves.len(), "{r}");
}

/// A 2048 result with undo is never "verified": undo restores the spawn sequence, so a replay
/// of an undo-scummed game proves nothing. Its code carries no move log.
#[test]
fn a_2048_result_with_undo_is_never_verified() {
    let (_d, app) = huarong_tests::fresh_app("trust3-undo-2048");
    let board = "2048:1024,1024,0,0,2,0,0,0,0,0,0,0,0,0,0,0";
    let win = |undo: bool| {
        app.ok("open_game", json!({ "id": board, "replace": true }));
        if undo {
            app.ok("play", json!({ "kind": "2048", "mv": { "dir": "down" } }));
            app.ok("undo", json!({ "kind": "2048" }));
        }
        let v = app.ok("play", json!({ "kind": "2048", "mv": { "dir": "left" } }));
        assert_eq!(v["snapshot"]["status"], "won", "{v}");
        let r = app.ok("result_code", json!({ "kind": "2048" }));
        let d = app.ok("decode_code", json!({ "text": r["code"] }));
        (r["replay"].clone(), d["verified"].clone())
    };
    assert_eq!(
        win(false),
        (json!(true), json!(true)),
        "a clean win replays"
    );
    assert_eq!(win(true), (json!(false), json!(false)), "a win with undo");
}

/// `preview` is an opening: one preview per kind runs, a newer one cancels the older, so three
/// previews of a costly generated game ID in a row leave one search running.
#[test]
fn three_previews_in_a_row_leave_one_running_search() {
    let app = App::at("2026-12-01");
    let id = "klotski:1+:8x8:g12s20#2";
    let t0 = Instant::now();
    let mut runs = Vec::new();
    for _ in 0..3 {
        let st = app.st.clone();
        runs.push(std::thread::spawn(move || {
            let r = huarong_core::commands::dispatch(&st, "preview", json!({ "id": id }));
            (r, t0.elapsed())
        }));
        std::thread::sleep(Duration::from_millis(120));
    }
    let out: Vec<_> = runs.into_iter().map(|h| h.join().unwrap()).collect();
    for (i, (r, at)) in out[..2].iter().enumerate() {
        let e = r.as_ref().expect_err("an older preview is cancelled");
        assert_eq!(
            e.code,
            huarong_core::Code::Engine(huarong_engine::ErrorCode::Cancelled),
            "preview {i}: {e:?}"
        );
        // It stopped when the newer one began, not when its own work was done.
        assert!(
            *at < out[2].1,
            "preview {i} ended at {at:?}, the last at {:?}",
            out[2].1
        );
        assert!(
            *at < Duration::from_millis(120 * (i as u64 + 1) + 1_500),
            "{at:?}"
        );
    }
    match &out[2].0 {
        Ok(v) => assert_eq!(v["kind"], "klotski"),
        Err(e) => assert_ne!(
            e.code,
            huarong_core::Code::Engine(huarong_engine::ErrorCode::Cancelled),
            "{e:?}"
        ),
    }
    // Through the offload API (a shell without threads): a preview of it is a job, not a
    // reply on the board's core; a plain ID's is answered there.
    let begun = app.st.offload_command("preview", json!({ "id": id }));
    match begun {
        Some(Ok(huarong_core::offload::Begun::Job(j))) => {
            assert_eq!(j.op, huarong_core::offload::Op::Preview)
        }
        other => panic!("{other:?}"),
    }
    assert!(app
        .st
        .offload_command("preview", json!({ "id": "slide:3x3:1,2,3,4,5,6,7,0,8" }))
        .is_none());
}
