//! Group challenges through the command table: an invite, result codes naming the group
//! pasted in any order, the board, late results, board codes and their flags, sizes.

use huarong_core::platform::{Clock, NoEvents, NoHaptics, NoShare, Platform};
use huarong_core::AppState;
use huarong_engine::code::{self, group as gc, Challenge, Extra, Sender};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

const ID: &str = "slide:3x3:4,1,3,7,2,6,5,8,0";
const T0: u64 = 1_800_000_000_000;
const HOUR: u64 = 3_600_000;

/// A wall clock the test sets, back as well as forward.
struct SetClock(AtomicU64);
impl Clock for SetClock {
    fn wall_ms(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
    fn monotonic(&self) -> Duration {
        Duration::from_millis(self.0.load(Ordering::SeqCst))
    }
    fn utc_offset_minutes(&self, _wall_ms: u64) -> i32 {
        480
    }
}

fn app(clock: &Arc<SetClock>) -> AppState {
    let mut p = Platform::native(Arc::new(NoHaptics), Arc::new(NoShare), Arc::new(NoEvents));
    p.clock = clock.clone();
    AppState::open(None, p, || Err("no file".into()))
}

fn clock() -> Arc<SetClock> {
    Arc::new(SetClock(AtomicU64::new(T0)))
}

fn ok(st: &AppState, cmd: &str, args: Value) -> Value {
    match huarong_core::dispatch(st, cmd, args) {
        Ok(v) => v,
        Err(e) => panic!("{cmd}: {e:?}"),
    }
}

fn err(st: &AppState, cmd: &str, args: Value) -> String {
    match huarong_core::dispatch(st, cmd, args) {
        Ok(v) => panic!("{cmd} answered {v}"),
        Err(e) => serde_json::to_value(e).unwrap()["code"]
            .as_str()
            .unwrap()
            .to_string(),
    }
}

fn solution() -> Vec<Value> {
    [5, 4, 1, 5, 8]
        .iter()
        .map(|t| json!({ "tile": t }))
        .collect()
}

/// A result code for `group`: verified (with the log) or a claim, in `moves` (claims only)
/// and `ms`.
fn result(group: u64, name: &str, verified: bool, moves: u32, ms: u64) -> String {
    let s = Sender {
        name: Some(name.into()),
        log: verified.then(solution),
    };
    let moves = if verified { 8 } else { moves };
    let c =
        code::encode_result(ID, Extra::default(), Challenge::new(moves, ms).unwrap(), &s).unwrap();
    gc::with_group(&c, group).unwrap()
}

fn new_group(st: &AppState, title: &str) -> (u64, String) {
    let g = ok(
        st,
        "group_new",
        json!({ "id": ID, "title": title, "deadline_ms": T0 + 2 * HOUR }),
    );
    let key = g["group"].as_str().unwrap().to_string();
    (
        u64::from_str_radix(&key, 16).unwrap(),
        g["code"].as_str().unwrap().to_string(),
    )
}

struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// 50 codes: 40 verified players, 10 claims, and a few players twice with other times.
fn fifty(group: u64) -> Vec<String> {
    let mut out = Vec::new();
    for i in 0..40 {
        out.push(result(group, &format!("P{i:02}"), true, 8, 5_000 + i * 700));
    }
    for i in 0..6 {
        out.push(result(group, &format!("C{i}"), false, 6 + i as u32, 9_000));
    }
    for i in 0..4 {
        out.push(result(group, &format!("P{i:02}"), true, 8, 4_000 + i * 10));
    }
    assert_eq!(out.len(), 50);
    out
}

#[test]
fn fifty_codes_in_ten_orders_with_repeats_store_the_same_bytes() {
    let c = clock();
    let host = app(&c);
    let (g, invite) = new_group(&host, "周五擂台");
    let codes = fifty(g);
    let mut saved = Vec::new();
    let mut boards = Vec::new();
    let mut rng = Lcg(45);
    for round in 0..10 {
        let st = app(&c);
        // Each round: the invite somewhere, every code, 20 repeats, in chunks of chat.
        let mut items: Vec<String> = codes.clone();
        for _ in 0..20 {
            items.push(codes[rng.next(codes.len())].clone());
        }
        items.push(invite.clone());
        for i in (1..items.len()).rev() {
            items.swap(i, rng.next(i + 1));
        }
        for chunk in items.chunks(1 + rng.next(12)) {
            let text: String = chunk
                .iter()
                .map(|c| format!("[10:0{round}] 某人: 我的成绩 {}\n", code::link(c)))
                .collect();
            ok(&st, "group_paste", json!({ "text": text }));
        }
        // Everything the invite came after is pasted again once it is known.
        let all: String = codes.join("\n");
        ok(&st, "group_paste", json!({ "text": all }));
        saved.push(st.groups_saved().unwrap());
        let key = format!("{g:012x}");
        let mut b = ok(&st, "group", json!({ "group": key }));
        b.as_object_mut().unwrap().remove("left_ms");
        boards.push(b);
    }
    for s in &saved[1..] {
        assert_eq!(s, &saved[0], "stored groups differ between orders");
    }
    for b in &boards[1..] {
        assert_eq!(b, &boards[0]);
    }
    let b = &boards[0];
    // 46 players: 40 verified before 6 claims; each player's best; fewer moves never beats
    // a verified line.
    let rows = b["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 46);
    assert!(rows[..40].iter().all(|r| r["verified"] == true));
    assert!(rows[40..].iter().all(|r| r["verified"] == false));
    assert_eq!(rows[0]["name"], "P00");
    assert_eq!(rows[0]["ms"], 4_000);
    // One player's same moves sent twice: one line (its key is the log), the better time.
    assert_eq!(rows[0]["lines"], 1);
    assert_eq!(rows[40]["name"], "C0");
    let times: Vec<u64> = rows[..40]
        .iter()
        .map(|r| r["ms"].as_u64().unwrap())
        .collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
}

/// A chat of about 4,000 characters holding 20 codes among ordinary messages.
fn chat(codes: &[String]) -> String {
    let talk = [
        "今天这个好难，我卡在最后三步",
        "谁有空晚上一起？",
        "哈哈哈 我又输了",
        "刚才网络卡了，重发一下",
        "周末去爬山吗 2024年那条路线",
        "ok",
        "这个码是上周的: 2abc 不算",
        "I think 23 moves is possible",
    ];
    let mut text = String::new();
    let mut i = 0;
    let mut k = 0;
    while text.chars().count() < 3_950 || k < codes.len() {
        i += 1;
        text.push_str(&format!(
            "[20:{:02}] 群友{}: {}\n",
            i % 60,
            i % 9,
            talk[i % talk.len()]
        ));
        if i % 3 == 0 && k < codes.len() {
            let c = &codes[k];
            let shown = if k % 2 == 0 { code::link(c) } else { c.clone() };
            text.push_str(&format!(
                "[20:{:02}] 群友{}: 我的结果 {shown} 来比比\n",
                i % 60,
                k
            ));
            k += 1;
        }
    }
    text
}

#[test]
fn a_chat_excerpt_yields_exactly_its_twenty_codes() {
    let c = clock();
    let st = app(&c);
    let (g, invite) = new_group(&st, "chat");
    let codes: Vec<String> = (0..20)
        .map(|i| {
            result(
                g,
                &format!("友{i}"),
                i % 4 != 3,
                9 + i as u32,
                6_000 + i * 100,
            )
        })
        .collect();
    let text = chat(&codes);
    let n = text.chars().count();
    assert!((3_900..=4_300).contains(&n), "{n} characters");
    let t = std::time::Instant::now();
    let r = ok(&st, "group_paste", json!({ "text": text }));
    eprintln!("group_paste of {n} characters, 20 codes: {:?}", t.elapsed());
    assert_eq!(r["added"], 20, "{r}");
    assert_eq!(r["duplicates"], 0);
    assert_eq!(r["invalid"], 0);
    assert_eq!(r["late"], 0);
    assert_eq!(r["board"]["players"], 20);
    assert_eq!(r["board"]["rows"][0]["verified"], true);
    // The invite in the same text is no line; the same text again adds nothing.
    let again = ok(
        &st,
        "group_paste",
        json!({ "text": format!("{text}\n{}", code::link(&invite)) }),
    );
    assert_eq!(again["added"], 0);
    assert_eq!(again["duplicates"], 20);
    // At most 250 codes are decoded a paste; the rest are counted, not read.
    let many = vec![codes[0].clone(); 260].join(" ");
    let r = ok(&st, "group_paste", json!({ "text": many }));
    assert_eq!(
        (r["duplicates"].as_u64(), r["skipped"].as_u64()),
        (Some(250), Some(10))
    );
}

#[test]
fn a_tampered_log_is_refused_and_a_disagreeing_board_line_is_flagged() {
    let c = clock();
    let st = app(&c);
    let (g, invite) = new_group(&st, "t");
    let good = result(g, "Mei", true, 8, 7_000);
    let mut p = code::payload_of(&good).unwrap();
    let last = p.len() - 1;
    p[last] ^= 0b0100_0000;
    let tampered = code::seal(&p);
    let r = ok(
        &st,
        "group_paste",
        json!({ "text": format!("look {tampered} !") }),
    );
    assert_eq!(
        (r["added"].as_u64(), r["invalid"].as_u64()),
        (Some(0), Some(1)),
        "{r}"
    );

    // A board code whose line for Mei claims 5 moves where her own code says 8.
    let inv = match gc::decode_group(&invite).unwrap() {
        gc::GroupCode::Invite(i) => i,
        other => panic!("{other:?}"),
    };
    let hash = gc::log_hash(&code::decode_full(&good).unwrap());
    let line = gc::Line {
        name: "Mei".into(),
        moves: 5,
        ms: 7_000,
        verified: true,
        assisted: false,
        outcome: None,
        log_hash: hash,
    };
    let (board, _) = gc::encode_board(&inv, Some("Bo"), &[line]).unwrap();
    let key = format!("{g:012x}");
    let mut states = Vec::new();
    for first_board in [true, false] {
        let st = app(&c);
        ok(&st, "group_paste", json!({ "text": invite }));
        let order = if first_board {
            [board.clone(), good.clone()]
        } else {
            [good.clone(), board.clone()]
        };
        let r = ok(&st, "group_paste", json!({ "text": order[0] }));
        if first_board {
            let row = &r["board"]["rows"][0];
            assert_eq!(row["via"], "Bo");
            assert_eq!(row["verified"], false);
            assert_eq!(row["flagged"], false);
        }
        ok(&st, "group_paste", json!({ "text": order[1] }));
        let v = ok(&st, "group", json!({ "group": key }));
        let row = &v["rows"][0];
        assert_eq!(row["moves"], 8, "its own code's facts, not the board's");
        assert_eq!(row["flagged"], true);
        assert_eq!(row["verified"], true);
        assert_eq!(row["via"], Value::Null);
        states.push(st.groups_saved().unwrap());
    }
    assert_eq!(states[0], states[1]);
}

#[test]
fn late_is_first_sight_after_the_deadline_and_the_clock_set_back_moves_nothing() {
    let c = clock();
    let st = app(&c);
    let (g, _) = new_group(&st, "late");
    let key = format!("{g:012x}");
    let r = ok(
        &st,
        "group_paste",
        json!({ "text": result(g, "Early", true, 8, 9_000) }),
    );
    assert_eq!(r["late"], 0);
    c.0.store(T0 + 3 * HOUR, Ordering::SeqCst);
    let late = result(g, "Late", true, 8, 3_000);
    let r = ok(&st, "group_paste", json!({ "text": late }));
    assert_eq!(
        (r["added"].as_u64(), r["late"].as_u64()),
        (Some(1), Some(1))
    );
    let before = ok(&st, "group", json!({ "group": key }));
    // The late line, though faster, ranks after the one on time.
    assert_eq!(before["rows"][0]["name"], "Early");
    assert_eq!(before["rows"][1]["late"], true);
    // The clock set back a day: the same lines in the same places, still late.
    c.0.store(T0 + 3 * HOUR - 24 * HOUR, Ordering::SeqCst);
    let r = ok(&st, "group_paste", json!({ "text": late }));
    assert_eq!(r["duplicates"], 1);
    let after = ok(&st, "group", json!({ "group": key }));
    assert_eq!(before["rows"], after["rows"]);
}

#[test]
fn sizes_errors_and_the_players_own_result() {
    let c = clock();
    let st = app(&c);
    // The longest title, on puzzles of every game.
    let title = "周末华容道擂台赛第一百二十三期决赛圈高手对决";
    for id in [ID, "slide:4x4/hard#77", "klotski:60-90#3", "2048:#12345"] {
        let g = ok(
            &st,
            "group_new",
            json!({ "id": id, "title": title, "deadline_ms": T0 + 14 * 24 * HOUR }),
        );
        let link = g["link"].as_str().unwrap();
        assert!(link.chars().count() <= 180, "{id}: {} {link}", link.len());
    }
    // A 10-line board code.
    let (g, _) = new_group(&st, "十人");
    let codes: Vec<String> = (0..10)
        .map(|i| result(g, &format!("Player {i}"), true, 8, 10_000 + i * 1234))
        .collect();
    ok(&st, "group_paste", json!({ "text": codes.join(" ") }));
    let key = format!("{g:012x}");
    let b = ok(&st, "group_code", json!({ "group": key }));
    assert_eq!(b["lines"], 10);
    let n = b["code"].as_str().unwrap().len();
    assert!(n <= 600, "a 10-line board code is {n} characters");
    // Another device gets the standings in one paste, each line via the sharer.
    let other = app(&c);
    let r = ok(&other, "group_paste", json!({ "text": b["link"] }));
    assert_eq!(r["groups"], 1);
    assert_eq!(r["added"], 10);
    assert_eq!(r["board"]["rows"][0]["name"], "Player 0");

    // Typed errors.
    for (cmd, args) in [
        (
            "group_new",
            json!({ "id": ID, "deadline_ms": T0 + HOUR / 2 }),
        ),
        (
            "group_new",
            json!({ "id": ID, "deadline_ms": T0 + 15 * 24 * HOUR }),
        ),
        (
            "group_new",
            json!({ "id": ID, "title": "a\nb", "deadline_ms": T0 + 2 * HOUR }),
        ),
        (
            "group_new",
            json!({ "id": "nonsense", "deadline_ms": T0 + 2 * HOUR }),
        ),
        ("group_paste", json!({ "text": "x".repeat(20_001) })),
        ("group", json!({ "group": "zz" })),
        ("group", json!({ "group": "000000000001" })),
        ("group_code", json!({ "group": 5 })),
    ] {
        let code = err(&st, cmd, args.clone());
        assert!(
            ["bad_argument", "bad_code", "out_of_range"].contains(&code.as_str()),
            "{cmd} {args}: {code}"
        );
    }

    // Opening an invite, playing it: the result code names the group and the player's line
    // joins the board.
    let (g2, invite) = new_group(&st, "play");
    let player = app(&c);
    ok(
        &player,
        "set_settings",
        json!({ "settings": { "name": "Me" } }),
    );
    let v = ok(
        &player,
        "group_open",
        json!({ "code": code::link(&invite) }),
    );
    assert_eq!(v["id"], ID);
    ok(&player, "open_game", json!({ "id": ID }));
    for mv in solution() {
        c.0.fetch_add(1_000, Ordering::SeqCst);
        ok(&player, "play", json!({ "kind": "slide", "mv": mv }));
    }
    let rc = ok(&player, "result_code", json!({ "kind": "slide" }));
    let d = code::decode_full(rc["code"].as_str().unwrap()).unwrap();
    assert_eq!(d.sent.as_ref().unwrap().group, Some(g2));
    let view = ok(&player, "group", json!({ "group": format!("{g2:012x}") }));
    assert_eq!(view["place"], 1);
    assert_eq!(view["rows"][0]["me"], true);
    // The host pastes it.
    let r = ok(&st, "group_paste", json!({ "text": rc["link"] }));
    assert_eq!(r["added"], 1);

    // `open_game` of an invite link opens its puzzle and keeps the group; of a result code
    // naming a kept group, the line joins the board.
    let third = app(&c);
    let v = ok(&third, "open_game", json!({ "id": code::link(&invite) }));
    assert_eq!(v["snapshot"]["id"], ID, "{v}");
    let key2 = format!("{g2:012x}");
    assert_eq!(ok(&third, "group", json!({ "group": key2 }))["players"], 0);
    ok(
        &third,
        "open_game",
        json!({ "id": rc["code"], "replace": true }),
    );
    let seen = ok(&third, "group", json!({ "group": key2 }));
    assert_eq!(seen["players"], 1);
    assert_eq!(seen["rows"][0]["name"], "Me");
}
