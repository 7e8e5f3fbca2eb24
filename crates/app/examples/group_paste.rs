//! Times `group_paste` on a chat excerpt of about 4,000 characters holding 20 result codes of
//! one group among ordinary messages (10 of them as links), on an app without a data folder.
//! Prints the median and the worst of 21 runs (each on a fresh app, so every code is new).
//!
//! `cargo run --release -p huarong-core --example group_paste`

use huarong_core::platform::Platform;
use huarong_core::AppState;
use huarong_engine::code::{self, group as gc, Challenge, Extra, Sender};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const ID: &str = "slide:3x3:4,1,3,7,2,6,5,8,0";

fn call(st: &AppState, name: &str, args: Value) -> Value {
    match huarong_core::dispatch(st, name, args) {
        Ok(v) => v,
        Err(e) => panic!("{name}: {e:?}"),
    }
}

fn main() {
    let log: Vec<Value> = [5, 4, 1, 5, 8]
        .iter()
        .map(|t| json!({ "tile": t }))
        .collect();
    let host = AppState::open(None, Platform::headless(), || Err("no file".into()));
    let deadline = host_now() + 86_400_000;
    let g = call(
        &host,
        "group_new",
        json!({ "id": ID, "title": "bench", "deadline_ms": deadline }),
    );
    let group = u64::from_str_radix(g["group"].as_str().unwrap_or_default(), 16).unwrap_or(1);
    let invite = g["code"].as_str().unwrap_or_default().to_string();
    let codes: Vec<String> = (0..20u64)
        .map(|i| {
            let s = Sender {
                name: Some(format!("友{i}")),
                log: (i % 4 != 3).then(|| log.clone()),
            };
            let moves = if i % 4 != 3 { 8 } else { 9 + i as u32 };
            let c = code::encode_result(
                ID,
                Extra::default(),
                Challenge::new(moves, 6_000 + i * 100).unwrap(),
                &s,
            )
            .unwrap();
            gc::with_group(&c, group).unwrap()
        })
        .collect();
    let talk = [
        "今天这个好难，我卡在最后三步",
        "谁有空晚上一起？",
        "哈哈哈 我又输了",
        "周末去爬山吗 2024年那条路线",
        "I think 23 moves is possible",
    ];
    let mut text = String::new();
    let (mut i, mut k) = (0usize, 0usize);
    while text.chars().count() < 3_950 || k < codes.len() {
        i += 1;
        text.push_str(&format!(
            "[20:{:02}] 群友{}: {}\n",
            i % 60,
            i % 9,
            talk[i % talk.len()]
        ));
        if i % 3 == 0 && k < codes.len() {
            let shown = if k % 2 == 0 {
                code::link(&codes[k])
            } else {
                codes[k].clone()
            };
            text.push_str(&format!(
                "[20:{:02}] 群友{k}: 我的结果 {shown} 来比比\n",
                i % 60
            ));
            k += 1;
        }
    }
    let mut times: Vec<Duration> = Vec::new();
    for _ in 0..21 {
        let st = AppState::open(None, Platform::headless(), || Err("no file".into()));
        call(&st, "group_paste", json!({ "text": invite }));
        let t = Instant::now();
        let r = call(&st, "group_paste", json!({ "text": text }));
        times.push(t.elapsed());
        assert_eq!(r["added"], 20, "{r}");
    }
    times.sort();
    println!(
        "group_paste: {} characters, 20 codes: median {:.2} ms, worst {:.2} ms (21 runs)",
        text.chars().count(),
        times[10].as_secs_f64() * 1000.0,
        times[20].as_secs_f64() * 1000.0
    );
}

fn host_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}
