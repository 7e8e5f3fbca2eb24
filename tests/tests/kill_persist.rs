//! Kill test: the real app's persistence (`kill_child`: the app on tauri's mock runtime,
//! saving through the store plugin and the last-good copy) is `kill -9`ed at random moments,
//! 1,000 times by default (`HUARONG_KILLS` overrides), in two lanes (separate data folders)
//! run side by side to keep the wall time near a minute. Every restart is checked against a
//! model replayed with the engine: the resumed game is exactly the last confirmed state or
//! that state plus the one operation in flight (never older, never anything else), and the
//! records (wins, best moves) are exactly those of the confirmed games; every resumed move
//! has its time.

use huarong_engine::rng::{self, RngCore};
use huarong_engine::slide::{Move, Slide};
use huarong_engine::{Game, Session, Status};
use huarong_tests::TempDir;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[derive(Clone, Default)]
struct Model {
    game: Option<Session<Slide>>,
    /// The game asked for a hint: its win is helped and sets no best.
    hinted: bool,
    wins: u64,
    best: Option<u32>,
}

impl Model {
    fn describe(&self) -> String {
        match &self.game {
            None => format!("no game, wins {}, best {:?}", self.wins, self.best),
            Some(g) => format!(
                "{} {} moves {} {:?}, wins {}, best {:?}",
                g.id(),
                g.current().board_body(),
                g.current().moves(),
                g.status(),
                self.wins,
                self.best
            ),
        }
    }

    fn apply(&mut self, op: &Value) {
        if let Some(id) = op.get("new").and_then(Value::as_str) {
            self.game = Some(Session::open(id).expect("the child opened a valid ID"));
            self.hinted = false;
            return;
        }
        self.hinted |= op["hinted"] == true;
        let tile = op["tile"].as_u64().expect("tile") as u16;
        let g = self.game.as_mut().expect("a play needs a game");
        let before = g.status();
        g.play(&Move { tile }, 0)
            .expect("the child's move was legal");
        if before == Status::Playing && g.status() == Status::Won {
            self.wins += 1;
            if !self.hinted {
                let m = g.current().moves();
                self.best = Some(self.best.map_or(m, |b| b.min(m)));
            }
        }
    }

    fn matches(&self, ready: &Value) -> bool {
        let game_ok = match &self.game {
            None => ready["id"].is_null(),
            Some(g) => {
                ready["id"] == g.id()
                    && ready["board"] == g.current().board_body()
                    && ready["moves"] == g.current().moves()
                    // Every move of the resumed line kept its time.
                    && ready["times_ms"].as_array().map(Vec::len) == Some(g.played().len())
            }
        };
        game_ok && ready["wins"] == self.wins && ready["best"] == serde_json::json!(self.best)
    }
}

#[derive(Debug, Default)]
struct Stats {
    kills: usize,
    early_kills: usize,
    restarts: usize,
    ops: usize,
    kept: usize,
    lost: usize,
    restored: usize,
    /// Kills after which the change log held saves (lines) a restart had to read.
    logged: usize,
    /// Kills that left the store file damaged or behind the good copy (inside a whole save).
    split: usize,
    wins: u64,
}

#[test]
fn kill_nine_during_saves_loses_at_most_the_move_in_flight() {
    let kills: usize = std::env::var("HUARONG_KILLS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let started = Instant::now();
    let lanes: Vec<_> = (0..2u64)
        .map(|lane| {
            let n = kills / 2 + if lane == 0 { kills % 2 } else { 0 };
            std::thread::spawn(move || run_lane(lane, n))
        })
        .collect();
    let mut t = Stats::default();
    for l in lanes {
        let s = match l.join() {
            Ok(s) => s,
            Err(p) => std::panic::resume_unwind(p),
        };
        t.kills += s.kills;
        t.early_kills += s.early_kills;
        t.restarts += s.restarts;
        t.ops += s.ops;
        t.kept += s.kept;
        t.lost += s.lost;
        t.restored += s.restored;
        t.logged += s.logged;
        t.split += s.split;
        t.wins += s.wins;
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "kill test: {} kills ({} during start-up) in {secs:.1} s; {} restarts checked; {} confirmed \
         operations; the operation in flight was kept {}x and lost {}x; {} restarts restored the \
         last good copy and {} kills left the store file damaged or behind it (inside a whole \
         save; lane 0 writes every save whole); {} kills left saves in the change log (lane 1); \
         {} wins recorded",
        t.kills,
        t.early_kills,
        t.restarts,
        t.ops,
        t.kept,
        t.lost,
        t.restored,
        t.split,
        t.logged,
        t.wins
    );
    assert!(
        t.restarts >= kills * 8 / 10,
        "too few restarts reached READY: {}",
        t.restarts
    );
    assert!(
        t.wins > 0,
        "the child never won a game: records were not exercised"
    );
    assert!(
        t.restored + t.split > 0 || kills < 200,
        "no kill ever hit a whole save between its good copy and the primary file"
    );
    assert!(
        t.logged > 0 || kills < 200,
        "no kill ever left saves in the change log: the log was not exercised"
    );
}

/// One lane of kills on a data folder of its own. Lane 0's child writes every save whole (the
/// store file's in-place write is what kills hit), lane 1's appends to the change log as the
/// app does.
fn run_lane(lane: u64, kills: usize) -> Stats {
    let dir = TempDir::new(&format!("kill{lane}"));
    let exe = env!("CARGO_BIN_EXE_kill_child");
    let mut rng = rng::stream(20261129 + lane, "kill-parent");
    let mut model = Model::default();
    let mut inflight: Option<Value> = None;
    // The last protocol lines, for the failure message.
    let mut history: std::collections::VecDeque<String> = Default::default();
    let (mut restarts, mut early_kills, mut lost, mut kept, mut restored, mut ops_total) =
        (0, 0, 0, 0, 0, 0);
    let (mut logged, mut split) = (0, 0);
    let paths = huarong_core::persist::Paths::new(dir.path());
    let gen_of = |p: &std::path::Path| {
        std::fs::read(p)
            .ok()
            .and_then(|b| huarong_core::persist::decode(&b).ok())
            .map(|(d, _)| d.gen)
    };

    for i in 0..kills {
        let mut child = Command::new(exe)
            .arg(dir.path())
            .arg((lane << 32 | i as u64).to_string())
            .args((lane == 0).then_some("whole"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the child");
        let (tx, rx) = mpsc::channel();
        let out = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                let _ = tx.send(l);
            }
        });
        let mut err = child.stderr.take().unwrap();
        let err_reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = err.read_to_string(&mut s);
            s
        });
        let mut lines = Vec::new();
        // One kill in ten lands during start-up (file checks, recovery, replay); the others
        // 0-60 ms after the child is ready, while it plays and saves (a save with its fsyncs
        // takes some 10-30 ms here, so most kills land inside one).
        if rng::below(&mut rng, 10) == 0 {
            early_kills += 1;
            std::thread::sleep(Duration::from_micros(rng::below(&mut rng, 40_000)));
        } else {
            let deadline = Instant::now() + Duration::from_secs(60);
            while let Ok(l) = rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                let ready = l.starts_with("READY ");
                lines.push(l);
                if ready {
                    break;
                }
            }
            std::thread::sleep(Duration::from_micros(rng.next_u64() % 60_000));
        }
        let exited_by_itself = child.try_wait().ok().flatten();
        let _ = child.kill();
        let _ = child.wait();
        if std::fs::read(&paths.log).is_ok_and(|b| b.contains(&b'\n')) {
            logged += 1;
        }
        if let Some(good) = gen_of(&paths.good) {
            if gen_of(&paths.store).is_none_or(|s| s < good) {
                split += 1;
            }
        }
        let _ = reader.join();
        lines.extend(rx.try_iter());
        let stderr = err_reader.join().unwrap_or_default();
        assert!(
            exited_by_itself.is_none(),
            "child {i} exited by itself ({exited_by_itself:?}):\n{}\n{stderr}",
            lines.join("\n")
        );

        for l in &lines {
            history.push_back(format!("[{i}] {l}"));
            if history.len() > 40 {
                history.pop_front();
            }
            let recent = || history.iter().cloned().collect::<Vec<_>>().join("\n");
            if let Some(json) = l.strip_prefix("READY ") {
                restarts += 1;
                let ready: Value = serde_json::from_str(json).expect("READY json");
                if ready["notices"]
                    .as_array()
                    .is_some_and(|n| n.iter().any(|c| c == "restored"))
                {
                    restored += 1;
                }
                if model.matches(&ready) {
                    if inflight.take().is_some() {
                        lost += 1;
                    }
                } else {
                    let mut ahead = model.clone();
                    let op = inflight.take().unwrap_or_else(|| {
                        panic!("run {i}: resumed {ready} but the last confirmed state differs ({}) and nothing was in flight\n{}", model.describe(), recent())
                    });
                    ahead.apply(&op);
                    assert!(
                        ahead.matches(&ready),
                        "run {i}: resumed {ready}, expected the confirmed state ({}) or it plus {op} ({})\n{}",
                        model.describe(),
                        ahead.describe(),
                        recent()
                    );
                    model = ahead;
                    kept += 1;
                }
            } else if let Some(json) = l.strip_prefix("OP ") {
                assert!(inflight.is_none(), "run {i}: two operations in flight");
                inflight = Some(serde_json::from_str(json).expect("OP json"));
            } else if l == "DONE" {
                let op = inflight.take().expect("DONE without OP");
                model.apply(&op);
                ops_total += 1;
            }
        }
    }
    Stats {
        kills,
        early_kills,
        restarts,
        ops: ops_total,
        kept,
        lost,
        restored,
        logged,
        split,
        wins: model.wins,
    }
}
