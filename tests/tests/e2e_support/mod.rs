//! The end-to-end harness: the real debug app (`target/debug/huarong-app`) driven through
//! `tauri-driver` → `WebKitWebDriver` over W3C WebDriver (fantoccini), under an Xvfb display
//! that the harness starts itself (one per test, on a free display number), with a fresh
//! `HUARONG_DATA_DIR` per test.
//!
//! The app binary embeds `ui/` at build time, so a binary that is missing or older than
//! `ui/`, `src-tauri/` or the engine sources is rebuilt first (`cargo build -p huarong-app`,
//! once per test binary).
//!
//! Missing tools (or a failed build): with `HUARONG_E2E=1` the test FAILS with a message
//! saying what is missing; without it the test prints a loud SKIPPED banner and returns.
//!
//! Every E2E test takes [`serial`] first: one app at a time keeps the machine's two cores
//! for the app under test, so the timing figures mean something.

#![allow(dead_code)]

use fantoccini::actions::{
    InputSource, KeyAction, KeyActions, MouseActions, PointerAction, MOUSE_BUTTON_LEFT,
};
use fantoccini::{Client, ClientBuilder};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::fs;
use std::io::Write as _;
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

static SERIAL: Mutex<()> = Mutex::new(());

/// Run E2E tests one at a time (a failed test must not poison the others).
pub fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) => {
            let p = PathBuf::from(d);
            if p.is_absolute() {
                p
            } else {
                workspace_root().join(p)
            }
        }
        None => workspace_root().join("target"),
    }
}

/// The app binary under test (`HUARONG_APP` overrides).
pub fn app_binary() -> PathBuf {
    match std::env::var_os("HUARONG_APP") {
        Some(p) => PathBuf::from(p),
        None => target_dir().join("debug").join("huarong-app"),
    }
}

/// Where screenshots, logs and figures go (gitignored).
/// The log of the driver (and the app's stderr) of the test `name`.
pub fn driver_log(name: &str) -> PathBuf {
    out_dir().join(format!("{name}.driver.log"))
}

pub fn out_dir() -> PathBuf {
    let d = workspace_root().join("tests").join("e2e").join("out");
    fs::create_dir_all(&d).expect("create tests/e2e/out");
    d
}

/// The caches (GStreamer registry, Mesa shaders, fontconfig) shared by all E2E tests.
fn cache_dir() -> PathBuf {
    let d = target_dir().join("e2e-cache");
    let _ = fs::create_dir_all(&d);
    d
}

pub fn required() -> bool {
    std::env::var("HUARONG_E2E")
        .map(|v| v == "1")
        .unwrap_or(false)
}

pub fn find_tool(name: &str) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    if let Some(home) = std::env::var_os("HOME") {
        dirs.push(PathBuf::from(home).join(".cargo").join("bin"));
    }
    dirs.into_iter().map(|d| d.join(name)).find(|p| p.is_file())
}

/// The newest modification time of the files the app binary embeds or compiles.
fn newest_source(dir: &Path, newest: &mut SystemTime) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            newest_source(&p, newest);
        } else if let Ok(m) = e.metadata().and_then(|m| m.modified()) {
            if m > *newest {
                *newest = m;
            }
        }
    }
}

pub struct Tools {
    pub xvfb: PathBuf,
    pub tauri_driver: PathBuf,
    pub webkit_driver: PathBuf,
    pub app: PathBuf,
}

/// True when the app binary is older than a file of `ui/`, `src-tauri/` or the engine.
fn stale(app: &Path) -> bool {
    let Ok(built) = fs::metadata(app).and_then(|m| m.modified()) else {
        return true;
    };
    let mut newest = UNIX_EPOCH;
    let root = workspace_root();
    for d in [
        "ui",
        "src-tauri/src",
        "src-tauri/tauri.conf.json",
        "crates/engine/src",
    ] {
        let p = root.join(d);
        if p.is_file() {
            if let Ok(m) = fs::metadata(&p).and_then(|m| m.modified()) {
                newest = newest.max(m);
            }
        } else {
            newest_source(&p, &mut newest);
        }
    }
    newest > built
}

static BUILD: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();

/// Build the app binary (debug) when it is missing or older than its sources, once per test
/// binary: the UI is embedded at build time, so testing an old binary would test an old UI.
/// (Running cargo from a test is fine: `cargo test` holds no build lock while tests run.)
fn ensure_app_built(app: &Path) -> Result<(), String> {
    if std::env::var_os("HUARONG_APP").is_some() || !stale(app) {
        return Ok(());
    }
    BUILD
        .get_or_init(|| {
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            eprintln!("*** the app binary is missing or older than its sources: cargo build -p huarong-app");
            let status = Command::new(cargo)
                .args(["build", "-p", "huarong-app"])
                .current_dir(workspace_root())
                .status()
                .map_err(|e| format!("could not run cargo: {e}"))?;
            if status.success() {
                Ok(())
            } else {
                Err(format!("cargo build -p huarong-app failed ({status})"))
            }
        })
        .clone()
}

/// Check the tools and the app binary (building it if needed). `None` = skip (only without
/// `HUARONG_E2E=1`).
pub fn tools(test: &str) -> Option<Tools> {
    let xvfb = find_tool("Xvfb");
    let tauri_driver = find_tool("tauri-driver");
    let webkit_driver = find_tool("WebKitWebDriver");
    let app = app_binary();
    if huarong_tests::gate::switched_off() {
        let _ = writeln!(
            std::io::stderr(),
            "*** SKIPPED {test}: HUARONG_E2E=0 (the fast loop)"
        );
        return None;
    }
    let mut missing = Vec::new();
    if xvfb.is_none() {
        missing.push("Xvfb (apt install xvfb)".to_string());
    }
    if tauri_driver.is_none() {
        missing.push("tauri-driver (cargo install tauri-driver --locked)".to_string());
    }
    if webkit_driver.is_none() {
        missing.push("WebKitWebDriver (apt install webkit2gtk-driver)".to_string());
    }
    if missing.is_empty() {
        if let Err(e) = ensure_app_built(&app) {
            missing.push(format!("a fresh app binary: {e}"));
        }
    }
    if !app.is_file() {
        missing.push(format!(
            "the app binary {} (cargo build -p huarong-app)",
            app.display()
        ));
    }
    if !missing.is_empty() {
        let msg = format!("end-to-end test {test}: missing {}", missing.join(", "));
        if required() {
            panic!("{msg} — HUARONG_E2E=1 makes this a failure");
        }
        // Straight to the terminal: the test harness captures `eprintln!` of passing tests.
        let _ = writeln!(
            std::io::stderr(),
            "\n**********************************************************************\n\
             *** SKIPPED {msg}\n\
             *** (set HUARONG_E2E=1 to make missing tools a test failure)\n\
             **********************************************************************\n"
        );
        return None;
    }
    if stale(&app) {
        eprintln!(
            "*** WARNING {test}: {} changed sources since it was built",
            app.display()
        );
    }
    Some(Tools {
        xvfb: xvfb.unwrap(),
        tauri_driver: tauri_driver.unwrap(),
        webkit_driver: webkit_driver.unwrap(),
        app,
    })
}

pub fn free_port() -> u16 {
    free_ports::<1>()[0]
}

/// `N` distinct free ports: each listener is held until all are chosen, so the kernel cannot
/// hand the same port out twice (two ports taken one after the other may be equal, and a
/// tauri-driver whose native port is its own port forwards a session to itself).
pub fn free_ports<const N: usize>() -> [u16; N] {
    let held: Vec<TcpListener> = (0..N)
        .map(|_| TcpListener::bind("127.0.0.1:0").expect("bind a free port"))
        .collect();
    std::array::from_fn(|i| held[i].local_addr().expect("local addr").port())
}

/// Whether the WebDriver server at `port` answers `GET /status` with 200 within 5 s.
/// Through tauri-driver this proves the whole chain: tauri-driver listens, forwards to the
/// native port, and WebKitWebDriver answers there.
fn webdriver_answers(port: u16) -> bool {
    use std::io::Read as _;
    let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
    let _ = s.set_write_timeout(Some(Duration::from_secs(5)));
    let req =
        format!("GET /status HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    if s.write_all(req.as_bytes()).is_err() {
        return false;
    }
    let mut head = [0u8; 12];
    s.read_exact(&mut head).is_ok() && head.starts_with(b"HTTP/1.1 200")
}

/// Wait (30 s at most) until the WebDriver server at `port` answers `GET /status`; a failure
/// names it as `what` and quotes its log.
pub fn wait_webdriver(port: u16, what: &str, log: &Path) {
    let t0 = Instant::now();
    while !webdriver_answers(port) {
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "{what} did not answer GET /status: {}",
            log_tail(log)
        );
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// A WebDriver error with its W3C code: fantoccini's own text of a standard error is only
/// the message, which WebKitWebDriver often leaves empty.
pub fn cmd_error(e: &fantoccini::error::CmdError) -> String {
    match e {
        fantoccini::error::CmdError::Standard(w) => {
            format!("webdriver error `{}`: {:?}", w.error, w.message)
        }
        e => e.to_string(),
    }
}

/// The last 4 KB of a log file (what a failure message quotes).
fn log_tail(path: &Path) -> String {
    let text = fs::read(path).unwrap_or_default();
    let from = text.len().saturating_sub(4096);
    String::from_utf8_lossy(&text[from..]).into_owned()
}

pub fn stamp() -> String {
    let n = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    format!(
        "{}-{}",
        std::process::id(),
        n.as_nanos() % 1_000_000_000_000
    )
}

/// Kill a whole process group (the driver, WebKitWebDriver and the app they spawned).
pub fn kill_group(pgid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pgid}")])
        .stderr(Stdio::null())
        .status();
}

/// (pid, parent pid, command name) of every process.
fn processes() -> Vec<(u32, u32, String)> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir("/proc") else {
        return out;
    };
    for e in entries.flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // pid (comm) state ppid …  — comm may hold spaces and parentheses.
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let comm = stat[open + 1..close].to_string();
        let rest: Vec<&str> = stat[close + 1..].split_whitespace().collect();
        // A zombie has exited already (its parent has not reaped it yet): not running.
        if rest.first() == Some(&"Z") {
            continue;
        }
        let Some(ppid) = rest.get(1).and_then(|s| s.parse().ok()) else {
            continue;
        };
        out.push((pid, ppid, comm));
    }
    out
}

/// Every descendant of `root` as (pid, command name).
pub fn descendants(root: u32) -> Vec<(u32, String)> {
    let procs = processes();
    let mut kids: HashMap<u32, Vec<(u32, String)>> = HashMap::new();
    for (pid, ppid, comm) in procs {
        kids.entry(ppid).or_default().push((pid, comm));
    }
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(p) = stack.pop() {
        if let Some(list) = kids.get(&p) {
            for (pid, comm) in list {
                out.push((*pid, comm.clone()));
                stack.push(*pid);
            }
        }
    }
    out
}

/// An Xvfb server on a free display number.
pub struct Xvfb {
    child: Child,
    pub display: String,
}

impl Xvfb {
    pub fn start(bin: &Path) -> Xvfb {
        let base = 100 + (std::process::id() % 300);
        for n in base..base + 200 {
            reclaim_stale_display(n);
            if Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
                || Path::new(&format!("/tmp/.X{n}-lock")).exists()
            {
                continue;
            }
            let mut child = Command::new(bin)
                .args([
                    &format!(":{n}"),
                    "-screen",
                    "0",
                    "1600x1400x24",
                    "-nolisten",
                    "tcp",
                    "-noreset",
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .process_group(0)
                .spawn()
                .expect("spawn Xvfb");
            let t0 = Instant::now();
            while t0.elapsed() < Duration::from_secs(10) {
                if let Ok(Some(_)) = child.try_wait() {
                    break; // display taken by someone else: try the next one
                }
                if Path::new(&format!("/tmp/.X11-unix/X{n}")).exists() {
                    return Xvfb {
                        child,
                        display: format!(":{n}"),
                    };
                }
                std::thread::sleep(Duration::from_millis(25));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        panic!("could not start Xvfb on any display :{base}…");
    }
}

/// A display whose lock file names a process that no longer exists (an X server killed
/// without a chance to clean up) is free: remove its lock and socket. Without this, stale
/// files pile up run after run until no display number is left.
fn reclaim_stale_display(n: u32) {
    let lock = format!("/tmp/.X{n}-lock");
    let Ok(text) = fs::read_to_string(&lock) else {
        return;
    };
    let Ok(pid) = text.trim().parse::<u32>() else {
        return;
    };
    if !Path::new(&format!("/proc/{pid}")).exists() {
        let _ = fs::remove_file(&lock);
        let _ = fs::remove_file(format!("/tmp/.X11-unix/X{n}"));
    }
}

impl Drop for Xvfb {
    /// SIGTERM first, so that Xvfb removes its lock file and socket; SIGKILL if it lingers.
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .stderr(Stdio::null())
            .status();
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_secs(2) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A private D-Bus session bus (`dbus-daemon --session --nofork`), stopped when dropped. Each
/// test's app runs in a session with a bus, as on a player's desktop: the single-instance
/// plugin works as it does there, and WebKit's media sessions (every sound the page plays)
/// register instead of each failing to find a bus (a warning per sound, and a path no
/// player's machine takes).
pub struct SessionBus {
    child: Child,
    pub address: String,
}

impl SessionBus {
    pub fn start() -> Result<SessionBus, String> {
        let mut child = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--print-address=1"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .map_err(|e| format!("dbus-daemon could not be started ({e}); install dbus-daemon"))?;
        let out = child.stdout.take().ok_or("no stdout of dbus-daemon")?;
        let mut line = String::new();
        let read = std::io::BufRead::read_line(&mut std::io::BufReader::new(out), &mut line);
        let address = line.trim().to_string();
        if read.is_err() || address.is_empty() {
            let _ = child.kill();
            let _ = child.wait();
            return Err("dbus-daemon printed no bus address".into());
        }
        Ok(SessionBus { child, address })
    }
}

impl Drop for SessionBus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One tauri-driver (with its own Xvfb, session bus and data directory) for one test.
pub struct Driver {
    child: Child,
    pub port: u16,
    pub data_dir: PathBuf,
    pub app: PathBuf,
    pub name: String,
    /// The session bus of the driver's apps (None only where dbus-daemon is missing).
    pub bus: Option<SessionBus>,
    _xvfb: Xvfb,
}

impl Driver {
    pub fn start(tools: &Tools, name: &str) -> Driver {
        Self::start_with(tools, name, None)
    }

    /// Start with an existing data directory (to reuse a player's progress).
    pub fn start_with(tools: &Tools, name: &str, data_dir: Option<PathBuf>) -> Driver {
        let lang = std::env::var("HUARONG_E2E_LANG").unwrap_or_else(|_| "en_US.UTF-8".into());
        Self::start_full(tools, name, data_dir, &lang)
    }

    fn start_full(tools: &Tools, name: &str, data_dir: Option<PathBuf>, lang: &str) -> Driver {
        let xvfb = Xvfb::start(&tools.xvfb);
        let bus = match SessionBus::start() {
            Ok(b) => Some(b),
            Err(e) if required() => panic!("HUARONG_E2E=1 but {e}"),
            Err(e) => {
                eprintln!("(the app runs without a session bus: {e})");
                None
            }
        };
        let data_dir = data_dir.unwrap_or_else(|| {
            let d = std::env::temp_dir().join(format!("huarong-e2e-{name}-{}", stamp()));
            fs::create_dir_all(&d).expect("create the test data dir");
            d
        });
        fs::create_dir_all(data_dir.join("home")).expect("create the test home");
        let [port, native] = free_ports::<2>();
        let log = fs::File::create(driver_log(name)).expect("driver log");
        let mut cmd = Command::new(&tools.tauri_driver);
        cmd.args([
            "--port",
            &port.to_string(),
            "--native-port",
            &native.to_string(),
        ])
        .args(["--native-driver", &tools.webkit_driver.to_string_lossy()])
        .env("DISPLAY", &xvfb.display)
        .env(
            "DBUS_SESSION_BUS_ADDRESS",
            bus.as_ref().map_or("", |b| b.address.as_str()),
        )
        .env("HUARONG_DATA_DIR", &data_dir)
        // The settable clock (`test_clock`): every input below comes after a player's pause on
        // it, so that the screenshots show a person's times and pace.
        .env("HUARONG_TEST_CLOCK", "1")
        // A home of its own: whatever the app or WebKit writes outside the data dir
        // (the desktop share card goes to ~/Pictures) stays in the test's directory.
        .env("HOME", data_dir.join("home"))
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        // …but caches are shared between tests, like on a real machine: a fresh cache makes
        // GStreamer rescan its plugins (≈ 1 s of main thread at the first sound) and Mesa
        // recompile its shaders on every launch.
        .env("XDG_CACHE_HOME", cache_dir())
        .env("GDK_BACKEND", "x11")
        .env("LANG", lang)
        .env_remove("LANGUAGE")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null())
        .stdout(log.try_clone().expect("log"))
        .stderr(log)
        .process_group(0);
        let child = cmd.spawn().expect("spawn tauri-driver");
        // Ready means the chain answers: tauri-driver on `port` forwards `GET /status` to the
        // WebKitWebDriver it starts on `native`, which answers 200. tauri-driver listens first;
        // under load WebKitWebDriver may take seconds to listen, and a session asked for before
        // that fails (the old `could not start a WebDriver session` flake of e2e_records).
        wait_webdriver(
            port,
            &format!("tauri-driver (port {port}, WebKitWebDriver port {native})"),
            &driver_log(name),
        );
        Driver {
            child,
            port,
            data_dir,
            app: tools.app.clone(),
            name: name.to_string(),
            bus,
            _xvfb: xvfb,
        }
    }

    /// Launch the app (a new WebDriver session) with command-line arguments; waits for the
    /// UI to report ready. Returns the app and the wall time from the request to ready.
    pub async fn launch(&self, args: &[&str]) -> App {
        // One app at a time: an app that quit may still be exiting, and with the session bus
        // a launch beside it would hand its arguments over (single instance) and exit.
        let t0 = Instant::now();
        while !self.app_pids().is_empty() && t0.elapsed() < Duration::from_secs(15) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(
            self.app_pids().is_empty(),
            "an earlier app still runs 15 s after it was closed: {:?}",
            descendants(self.child.id())
        );
        let mut caps = serde_json::Map::new();
        caps.insert(
            "tauri:options".into(),
            json!({ "application": self.app, "args": args }),
        );
        caps.insert("browserName".into(), json!("wry"));
        let t0 = Instant::now();
        let conn = hyper_util::client::legacy::connect::HttpConnector::new();
        let c = match ClientBuilder::new(conn)
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
        {
            Ok(c) => c,
            Err(e) => panic!(
                "could not start a WebDriver session with the app: {e}\n\
                 running under tauri-driver: {:?}\n--- {}.driver.log (tail) ---\n{}",
                descendants(self.child.id()),
                self.name,
                log_tail(&driver_log(&self.name))
            ),
        };
        let mut app = App {
            c,
            name: self.name.clone(),
            ready_ms: 0.0,
            in_page_ready_ms: 0.0,
            process_ready_ms: None,
            driver_pid: self.child.id(),
        };
        app.wait_ready(30_000).await;
        app.ready_ms = t0.elapsed().as_secs_f64() * 1000.0;
        app.in_page_ready_ms = app
            .js("return window.__huarongReadyAt || 0")
            .await
            .as_f64()
            .unwrap_or(0.0);
        app.process_ready_ms = self.process_to_ready(&app).await;
        app
    }

    /// Launch without arguments and wait for the home screen.
    pub async fn launch_home(&self) -> App {
        let app = self.launch(&[]).await;
        app.wait_screen("home").await;
        app
    }

    /// Launch with `--open <id>` and wait for the board; returns the app and the board.
    pub async fn launch_open(&self, id: &str) -> (App, Board) {
        let app = self.launch(&["--open", id]).await;
        let b = app.wait_board().await;
        (app, b)
    }

    /// Milliseconds from the app process's start to the page's ready flag: the process's age
    /// (/proc/uptime minus its start time, both since boot, 10 ms ticks) taken against the
    /// wall clock at the same moment, then `performance.timeOrigin + readyAt` (epoch ms).
    /// (Not /proc/stat's `btime`: whole seconds, which would bias the figure by up to 1 s.)
    async fn process_to_ready(&self, app: &App) -> Option<f64> {
        let pid = *self.app_pids().first()?;
        let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let close = stat.rfind(')')?;
        let fields: Vec<&str> = stat[close + 1..].split_whitespace().collect();
        // fields[0] is the state (field 3), so starttime (field 22) is fields[19].
        let start_ticks: f64 = fields.get(19)?.parse().ok()?;
        let ticks: f64 = Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
            .unwrap_or(100.0);
        let uptime: f64 = fs::read_to_string("/proc/uptime")
            .ok()?
            .split_whitespace()
            .next()?
            .parse()
            .ok()?;
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?
            .as_secs_f64()
            * 1000.0;
        let started_ms = now_ms - (uptime - start_ticks / ticks) * 1000.0;
        let ready_epoch = app
            .js("return performance.timeOrigin + (window.__huarongReadyAt || 0)")
            .await
            .as_f64()?;
        let nav_epoch = app.js("return performance.timeOrigin").await.as_f64()?;
        eprintln!(
            "launch: process start → navigation start {:.0} ms, → ready {:.0} ms",
            nav_epoch - started_ms,
            ready_epoch - started_ms
        );
        Some(ready_epoch - started_ms)
    }

    /// The X display the driver's apps run on (for a process started beside them).
    pub fn display(&self) -> &str {
        &self._xvfb.display
    }

    /// The processes under this driver whose name starts with `name` (as /proc shows it:
    /// at most 15 bytes).
    fn pids_named(&self, name: &str) -> Vec<u32> {
        descendants(self.child.id())
            .into_iter()
            .filter(|(_, comm)| comm.starts_with(name))
            .map(|(p, _)| p)
            .collect()
    }

    /// The app processes (huarong-app) currently running under this driver.
    pub fn app_pids(&self) -> Vec<u32> {
        self.pids_named("huarong-app")
    }

    /// The app's WebKit web processes (the page's renderer).
    pub fn web_process_pids(&self) -> Vec<u32> {
        self.pids_named("WebKitWebProc")
    }

    /// `kill -9` the app (what a phone OS or a crash does). Returns how many were killed.
    pub fn kill_app(&self) -> usize {
        let pids = self.app_pids();
        for p in &pids {
            let _ = Command::new("kill")
                .args(["-KILL", &p.to_string()])
                .status();
        }
        let t0 = Instant::now();
        while !self.app_pids().is_empty() && t0.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(20));
        }
        pids.len()
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        for (pid, _) in descendants(self.child.id()) {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .stderr(Stdio::null())
                .status();
        }
        kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        if !std::thread::panicking() {
            let _ = fs::remove_dir_all(&self.data_dir);
        } else {
            eprintln!(
                "(kept the data dir of the failed test: {})",
                self.data_dir.display()
            );
        }
    }
}

/// What the board element says (the test hooks).
#[derive(Debug, Clone, PartialEq)]
pub struct Board {
    pub game: String,
    pub state: String,
    pub moves: u32,
    pub status: String,
}

#[derive(Debug, Clone, Copy)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    pub fn cx(&self) -> f64 {
        self.x + self.w / 2.0
    }
    pub fn cy(&self) -> f64 {
        self.y + self.h / 2.0
    }
}

/// One running app (one WebDriver session).
pub struct App {
    pub c: Client,
    pub name: String,
    /// Wall time from the new-session request to the UI's ready flag, in ms.
    pub ready_ms: f64,
    /// `performance.now()` at ready: from navigation start to interactive home, in ms.
    pub in_page_ready_ms: f64,
    /// From the app process's start (kernel start time) to the UI's ready flag, in ms.
    pub process_ready_ms: Option<f64>,
    /// The tauri-driver this session runs under (a timed-out wait lists its processes).
    pub driver_pid: u32,
}

impl App {
    pub async fn js(&self, script: &str) -> Value {
        self.c
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    pub async fn js_args(&self, script: &str, args: Vec<Value>) -> Value {
        self.c
            .execute(script, args)
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// [`App::js_args`] with the one string argument `arg`.
    pub async fn js_arg(&self, script: &str, arg: &str) -> Value {
        self.js_args(script, vec![json!(arg)]).await
    }

    /// Poll `script` until it returns something other than null/false; return that value.
    pub async fn wait_js(&self, script: &str, timeout_ms: u64) -> Value {
        let t0 = Instant::now();
        let mut last;
        let mut failures = 0;
        loop {
            let call = Instant::now();
            match self.c.execute(script, vec![]).await {
                Ok(v) if !v.is_null() && v != Value::Bool(false) => return v,
                Ok(v) => last = v,
                Err(e) => {
                    failures += 1;
                    last = json!(format!(
                        "error after {} ms ({failures} failed calls so far): {}",
                        call.elapsed().as_millis(),
                        cmd_error(&e)
                    ));
                }
            }
            if t0.elapsed() > Duration::from_millis(timeout_ms) {
                self.shot(&format!("{}-timeout", self.name)).await;
                // What the page knew: its uncaught errors, its start-up milestones, its text.
                let page = self
                    .c
                    .execute(
                        "return JSON.stringify({ url: location.href, errors: window.__huarongErrors || null, \
                         boot: window.__huarongBoot || null, text: document.body ? document.body.innerText.slice(0, 400) : '' });",
                        vec![],
                    )
                    .await
                    .map_or_else(|e| format!("error: {}", cmd_error(&e)), |v| v.to_string());
                // What the app and WebKit printed last (the app's panics and warnings go to
                // the driver's log), without the D-Bus noise of every WebKit process.
                let log = log_tail(&driver_log(&self.name));
                let log: Vec<&str> = log
                    .lines()
                    .filter(|l| !l.trim().is_empty() && !l.contains("D-Bus address"))
                    .collect();
                // Whether the app and its web process still run (a crashed web process or
                // app fails every command at once, with no message).
                panic!(
                    "timed out after {timeout_ms} ms waiting for: {script}\nlast value: {last}\nthe page: {page}\n\
                     running under tauri-driver: {:?}\n\
                     --- {}.driver.log (tail, D-Bus warnings left out) ---\n{}",
                    descendants(self.driver_pid),
                    self.name,
                    log[log.len().saturating_sub(30)..].join("\n")
                );
            }
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }

    /// The board's test hooks, or None when no board is on screen.
    pub async fn board(&self) -> Option<Board> {
        let v = self
            .js(
                "const b = document.querySelector('[data-game][data-state]');
                 return b ? [b.dataset.game, b.dataset.state, b.dataset.moves, b.dataset.status] : null;",
            )
            .await;
        let a = v.as_array()?;
        Some(Board {
            game: a[0].as_str()?.to_string(),
            state: a[1].as_str()?.to_string(),
            moves: a[2].as_str()?.parse().ok()?,
            status: a[3].as_str()?.to_string(),
        })
    }

    pub async fn wait_board(&self) -> Board {
        self.wait_js(
            "return document.querySelector('[data-game][data-state]') ? true : null",
            10_000,
        )
        .await;
        self.board().await.expect("board on screen")
    }

    /// Wait until the board's move count differs from `moves` (or status changes).
    pub async fn wait_moves_change(&self, moves: u32) -> Board {
        let script = format!(
            "const b = document.querySelector('[data-game][data-state]');
             return b && b.dataset.moves !== '{moves}' ? true : null;"
        );
        self.wait_js(&script, 10_000).await;
        self.board().await.expect("board")
    }

    /// Wait until the board's state differs from `state`.
    pub async fn wait_state_change(&self, state: &str) -> Board {
        let script = format!(
            "const b = document.querySelector('[data-game][data-state]');
             return b && b.dataset.state !== {} ? true : null;",
            json!(state)
        );
        self.wait_js(&script, 10_000).await;
        self.board().await.expect("board")
    }

    pub async fn screen(&self) -> String {
        self.js("return document.getElementById('app').dataset.screen || ''")
            .await
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    pub async fn wait_screen(&self, name: &str) {
        let script = format!(
            "const a = document.getElementById('app'); return a && a.dataset.screen === '{name}' && a.firstElementChild ? true : null;"
        );
        self.wait_js(&script, 10_000).await;
    }

    pub async fn rect(&self, css: &str) -> Rect {
        let v = self
            .js_arg(
                "const e = document.querySelector(arguments[0]);
                 if (!e) return null;
                 const r = e.getBoundingClientRect();
                 return [r.left, r.top, r.width, r.height];",
                css,
            )
            .await;
        let a = v
            .as_array()
            .unwrap_or_else(|| panic!("no element matches {css}"));
        Rect {
            x: a[0].as_f64().unwrap(),
            y: a[1].as_f64().unwrap(),
            w: a[2].as_f64().unwrap(),
            h: a[3].as_f64().unwrap(),
        }
    }

    pub async fn exists(&self, css: &str) -> bool {
        self.js_arg("return !!document.querySelector(arguments[0]);", css)
            .await
            .as_bool()
            .unwrap_or(false)
    }

    /// Wait (up to 10 s) until an element matches `css`.
    pub async fn wait_for(&self, css: &str) {
        self.wait_js(
            &format!(
                "return document.querySelector({}) ? true : null",
                json!(css)
            ),
            10_000,
        )
        .await;
    }

    /// [`App::click`] on `css`, then wait for screen `screen`.
    pub async fn click_to(&self, css: &str, screen: &str) {
        self.click(css).await;
        self.wait_screen(screen).await;
    }

    /// A player's pause before an input: the app's test clock (`HUARONG_TEST_CLOCK=1`, set by
    /// [`Driver`]) moves on by 300–450 ms. The pauses follow one fixed sequence, so a 4×4
    /// solved in about a hundred moves takes about 40 s and 2–3 moves a second.
    pub async fn human_step(&self) {
        static STEPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = STEPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        let ms = 300 + (n * 67) % 151;
        let v = self
            .c
            .execute_async(
                "const [ms, done] = arguments;
                 // A page outside the app (the web build in MiniBrowser) has its own clock.
                 if (!window.__TAURI__) { done(null); return; }
                 window.__TAURI__.core.invoke('test_clock', { advance_ms: ms })
                   .then(() => done(null), (e) => done(e || 'rejected'));",
                vec![json!(ms)],
            )
            .await
            .unwrap_or_else(|e| panic!("test_clock: {}", cmd_error(&e)));
        assert!(v.is_null(), "test_clock failed: {v}");
    }

    /// A real pointer click (down/up through WebDriver actions) at the element's centre, after
    /// a player's pause ([`App::tap_at`]).
    pub async fn click(&self, css: &str) {
        self.wait_for(css).await;
        // Like a player, scroll a control into view before touching it.
        self.js_arg(
            "const e = document.querySelector(arguments[0]); const r = e.getBoundingClientRect();
             if (r.top < 0 || r.bottom > innerHeight) e.scrollIntoView({ block: 'center' });",
            css,
        )
        .await;
        // …and wait until it is at rest: the rect of a tile still sliding from the last move
        // is where it *was* (the cause of the old `kill_resume` flake: under load the tap
        // landed on the cell the tile had just left, which is blank, so it was no move).
        self.wait_at_rest(css).await;
        let r = self.rect(css).await;
        self.tap_at(r.cx(), r.cy()).await;
    }

    /// Wait (up to 3 s) until the element is at rest: no finite animation or transition runs on
    /// it, inside it or on an ancestor (a dialog still fading in), and its box is where it was
    /// two frames ago (content that arrived late, such as a finish dialog's analysis, may have
    /// moved it). An animation that runs for ever (a spinner) is not waited for.
    pub async fn wait_at_rest(&self, css: &str) {
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_millis(3000) {
            let busy = self
                .c
                .execute_async(
                    "const [css, done] = arguments;
                     const e = document.querySelector(css);
                     if (!e || !document.getAnimations) { done(false); return; }
                     const moving = document.getAnimations().some((a) => {
                       const t = a.effect && a.effect.target;
                       return a.playState === 'running' && t && a.effect.getTiming().iterations !== Infinity
                         && (t === e || t.contains(e) || e.contains(t));
                     });
                     if (moving) { done(true); return; }
                     const box = () => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].join(); };
                     const before = box();
                     requestAnimationFrame(() => requestAnimationFrame(() => done(box() !== before)));",
                    vec![json!(css)],
                )
                .await
                .unwrap_or(Value::Bool(false));
            if busy != Value::Bool(true) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }

    /// Fast taps at viewport points, `gap_ms` apart (press 10 ms), in one action chain: the
    /// page sees them as fast as a player's thumb, whatever the WebDriver round trip costs.
    pub async fn fast_taps(&self, points: &[(f64, f64)], gap_ms: u64) {
        let mut m = MouseActions::new("finger".into());
        for (i, &(x, y)) in points.iter().enumerate() {
            if i > 0 {
                m = m.pause(Duration::from_millis(gap_ms.saturating_sub(10)));
            }
            m = press(m, x, y, 10);
        }
        self.c.perform_actions(m).await.expect("taps");
        let _ = self.c.release_actions().await;
    }

    /// `history.back()` in the page (what Android's back gesture does to the webview).
    pub async fn history_back(&self) {
        self.js("history.back(); return true").await;
    }

    /// How many history entries the UI keeps (screens and dialogs; 1 = home alone).
    pub async fn nav_depth(&self) -> u64 {
        self.js("return window.__huarongNav ? window.__huarongNav.depth() : 0")
            .await
            .as_u64()
            .unwrap_or(0)
    }

    /// A tap at a viewport point, after a player's pause.
    pub async fn tap_at(&self, x: f64, y: f64) {
        self.human_step().await;
        let m = press(MouseActions::new("finger".into()), x, y, 30);
        self.c.perform_actions(m).await.expect("tap");
        let _ = self.c.release_actions().await;
    }

    /// A drag through the given viewport points (first = press, last = release), with
    /// `steps` intermediate pointer moves per segment so the page sees a finger moving.
    pub async fn drag(&self, points: &[(f64, f64)], steps: usize) {
        assert!(points.len() >= 2);
        self.human_step().await;
        let m = press_along(points, steps)
            .pause(Duration::from_millis(40))
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        self.c.perform_actions(m).await.expect("drag");
        let _ = self.c.release_actions().await;
    }

    /// Press a key (a character, or one of fantoccini's `Key` code points as a char).
    pub async fn key(&self, key: char) {
        self.human_step().await;
        let k = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value: key })
            .then(KeyAction::Up { value: key });
        self.c.perform_actions(k).await.expect("key");
        let _ = self.c.release_actions().await;
    }

    /// Resize the window so that the *viewport* is w × h CSS pixels.
    pub async fn set_viewport(&self, w: u32, h: u32) {
        for _ in 0..3 {
            let inner = self
                .js("return [window.innerWidth, window.innerHeight]")
                .await;
            let iw = inner[0].as_u64().unwrap_or(0) as i64;
            let ih = inner[1].as_u64().unwrap_or(0) as i64;
            if iw == w as i64 && ih == h as i64 {
                return;
            }
            let (ow, oh) = self
                .c
                .get_window_size()
                .await
                .unwrap_or((w as u64, h as u64));
            let nw = (w as i64 + (ow as i64 - iw)).max(100) as u32;
            let nh = (h as i64 + (oh as i64 - ih)).max(100) as u32;
            let _ = self.c.set_window_size(nw, nh).await;
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        let inner = self
            .js("return [window.innerWidth, window.innerHeight]")
            .await;
        assert_eq!(
            (inner[0].as_u64(), inner[1].as_u64()),
            (Some(w as u64), Some(h as u64)),
            "could not size the viewport to {w}x{h}"
        );
    }

    /// Save a screenshot under tests/e2e/out/<name>.png. A picture of that name kept in git
    /// (tests/e2e/screenshots/<name>.png, the README's gallery) is retaken with it, so that
    /// no kept picture outlives the state it shows.
    pub async fn shot(&self, name: &str) -> PathBuf {
        let path = out_dir().join(format!("{name}.png"));
        match self.c.screenshot().await {
            Ok(png) => {
                let mut f = fs::File::create(&path).expect("screenshot file");
                f.write_all(&png).expect("write screenshot");
                let kept = workspace_root()
                    .join("tests/e2e/screenshots")
                    .join(format!("{name}.png"));
                if kept.is_file() {
                    fs::write(&kept, &png).expect("retake the kept screenshot");
                }
            }
            Err(e) => eprintln!("screenshot {name} failed: {}", cmd_error(&e)),
        }
        path
    }

    /// Close the session (the app exits normally).
    pub async fn quit(self) {
        let _ = self.c.close().await;
    }

    /// Forget the session without closing it (after the app was killed).
    pub async fn abandon(self) {
        let _ = tokio::time::timeout(Duration::from_secs(5), self.c.close()).await;
    }
}

/// The frame of one E2E test: take [`serial`], check the tools ([`tools`]: a skip returns
/// here, or fails under `HUARONG_E2E=1`), start a [`Driver`] whose logs and screenshots are
/// named `name`, and run `body` with it on a fresh runtime. The driver (its Xvfb, app and
/// data directory) goes before the serial lock is released. Messages name the test by its
/// thread (the test harness names each test's thread after the test).
pub fn e2e_test(name: &str, body: impl AsyncFnOnce(&Driver)) {
    let lang = std::env::var("HUARONG_E2E_LANG").unwrap_or_else(|_| "en_US.UTF-8".into());
    e2e_test_lang(name, &lang, body)
}

/// [`e2e_test`] of a test that starts on the home screen ([`Driver::launch_home`]) and ends
/// by quitting the app: `body` gets the driver and the app.
pub fn e2e_home(name: &str, body: impl AsyncFnOnce(&Driver, &App)) {
    e2e_test(name, async move |driver| {
        let app = driver.launch_home().await;
        body(driver, &app).await;
        app.quit().await;
    })
}

/// `e2e_test` with the app's system locale (`LANG`) set to `lang`, e.g. `zh_CN.UTF-8`.
pub fn e2e_test_lang(name: &str, lang: &str, body: impl AsyncFnOnce(&Driver)) {
    let _serial = serial();
    let thread = std::thread::current();
    let test = thread.name().unwrap_or(name);
    let Some(tools) = tools(test) else {
        return;
    };
    let driver = Driver::start_full(&tools, name, None, lang);
    run(body(&driver));
}

/// The finger's actions for a press at `points[0]` then moves through the other points, with
/// `steps` pointer moves (16 ms each) per segment; the pointer stays down.
fn press_along(points: &[(f64, f64)], steps: usize) -> MouseActions {
    let mut m = MouseActions::new("finger".into())
        .then(PointerAction::MoveTo {
            duration: None,
            x: points[0].0.round(),
            y: points[0].1.round(),
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        });
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        for i in 1..=steps {
            let t = i as f64 / steps as f64;
            m = m.then(PointerAction::MoveTo {
                duration: Some(Duration::from_millis(16)),
                x: (a.0 + (b.0 - a.0) * t).round(),
                y: (a.1 + (b.1 - a.1) * t).round(),
            });
        }
    }
    m
}

/// Run an async test body on a fresh single-threaded runtime.
pub fn run<F: std::future::Future<Output = ()>>(f: F) {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime")
        .block_on(f)
}

/// Percentile of a sample (nearest rank).
pub fn percentile(v: &[f64], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let rank = ((p / 100.0) * s.len() as f64).ceil().max(1.0) as usize;
    s[rank.min(s.len()) - 1]
}

/// Append one line to tests/e2e/out/figures.txt and print it.
pub fn figure(line: &str) {
    println!("FIGURE {line}");
    eprintln!("FIGURE {line}");
    if let Ok(mut f) = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out_dir().join("figures.txt"))
    {
        let _ = writeln!(f, "{line}");
    }
}

/// A number-slide body `WxH:<tiles>` as (w, h, tiles).
pub fn parse_slide(body: &str) -> (usize, usize, Vec<u32>) {
    let (size, tiles) = body.split_once(':').expect("WxH:tiles");
    let (w, h) = size.split_once('x').expect("WxH");
    let tiles: Vec<u32> = tiles.split(',').map(|t| t.parse().expect("tile")).collect();
    (w.parse().unwrap(), h.parse().unwrap(), tiles)
}

/// The tiles next to the blank (each can move into it with one tap).
pub fn slide_neighbours(body: &str) -> Vec<u32> {
    let (w, h, tiles) = parse_slide(body);
    let b = tiles.iter().position(|&t| t == 0).expect("blank");
    let (r, c) = (b / w, b % w);
    let mut out = Vec::new();
    if r > 0 {
        out.push(tiles[b - w]);
    }
    if r + 1 < h {
        out.push(tiles[b + w]);
    }
    if c > 0 {
        out.push(tiles[b - 1]);
    }
    if c + 1 < w {
        out.push(tiles[b + 1]);
    }
    out
}

/// The top-left cell (row, column) of a Klotski piece in a body (rows joined by '/').
pub fn piece_at(body: &str, piece: char) -> (usize, usize) {
    for (r, row) in body.split('/').enumerate() {
        if let Some(c) = row.chars().position(|ch| ch == piece) {
            return (r, c);
        }
    }
    panic!("no piece {piece} in {body}");
}

/// Key code points of the W3C WebDriver spec.
pub mod keys {
    pub const LEFT: char = '\u{e012}';
    pub const UP: char = '\u{e013}';
    pub const RIGHT: char = '\u{e014}';
    pub const DOWN: char = '\u{e015}';
    pub const ESCAPE: char = '\u{e00c}';
}

impl App {
    /// How many times the UI called a command since it started.
    pub async fn invoked(&self, cmd: &str) -> usize {
        self.js_arg(
            "return (window.__huarongPerf.invokes || []).filter((x) => x[0] === arguments[0]).length;",
            cmd,
        )
        .await
        .as_u64()
        .unwrap_or(0) as usize
    }

    /// Call a command of the app directly (for checks only: what Rust holds).
    pub async fn invoke(&self, cmd: &str, args: Value) -> Value {
        let v = self
            .c
            .execute_async(
                "const [cmd, args, done] = arguments;
                 window.__TAURI__.core.invoke(cmd, args).then((r) => done({ ok: r }), (e) => done({ err: e }));",
                vec![json!(cmd), args],
            )
            .await
            .expect("invoke");
        if let Some(e) = v.get("err") {
            panic!("{cmd} failed: {e}");
        }
        v["ok"].clone()
    }

    /// Tap the centre of a number tile.
    pub async fn tap_tile(&self, n: u32) {
        self.click(&format!("[data-tile='{n}']")).await;
    }

    /// Press, move through `points` and keep the pointer down (finish with `release`).
    pub async fn press_and_move(&self, points: &[(f64, f64)], steps: usize) {
        self.human_step().await;
        let m = press_along(points, steps);
        self.c.perform_actions(m).await.expect("press and move");
    }

    pub async fn release(&self) {
        let m = MouseActions::new("finger".into()).then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
        self.c.perform_actions(m).await.expect("release");
        let _ = self.c.release_actions().await;
    }

    /// Drag an element's centre by (dx, dy) through the given relative waypoints.
    pub async fn drag_el(&self, css: &str, waypoints: &[(f64, f64)]) {
        let r = self.rect(css).await;
        let mut pts = vec![(r.cx(), r.cy())];
        for (dx, dy) in waypoints {
            pts.push((r.cx() + dx, r.cy() + dy));
        }
        self.drag(&pts, 6).await;
    }

    /// Wait until the finish dialog is open.
    pub async fn wait_finish(&self) {
        self.wait_js(
            "return document.querySelector('[data-finish]') ? true : null",
            10_000,
        )
        .await;
    }

    /// After the winning move: the board says won in `moves` moves, the finish dialog is up;
    /// then screenshot `shot`.
    pub async fn expect_won(&self, moves: u32, shot: &str) {
        let b = self.wait_moves_change(moves - 1).await;
        assert_eq!((b.status.as_str(), b.moves), ("won", moves));
        self.wait_finish().await;
        self.shot(shot).await;
    }

    /// One number-slide move: tap a tile next to the blank of `b` other than `last` (the tile
    /// moved before: never straight back, unless it is the only one) and wait until the move
    /// count changes. Returns the new board and the tile tapped.
    pub async fn tap_next(&self, b: &Board, last: u32) -> (Board, u32) {
        let choices = slide_neighbours(&b.state);
        let tile = *choices.iter().find(|&&t| t != last).unwrap_or(&choices[0]);
        self.tap_tile(tile).await;
        (self.wait_moves_change(b.moves).await, tile)
    }

    /// Make `n` number-slide moves by tapping tiles next to the blank (never straight back).
    pub async fn tap_moves(&self, n: usize) -> Board {
        let mut b = self.wait_board().await;
        let mut last = 0;
        for _ in 0..n {
            (b, last) = self.tap_next(&b, last).await;
        }
        b
    }

    /// Press `keys` in turn, `pause_ms` apart, until one makes a move; returns whether one did.
    pub async fn key_until_moved(&self, keys: &[char], pause_ms: u64) -> bool {
        let before = self.board().await.expect("board").moves;
        for &key in keys {
            self.key(key).await;
            tokio::time::sleep(Duration::from_millis(pause_ms)).await;
            if self.board().await.expect("board").moves > before {
                return true;
            }
        }
        false
    }

    /// Open a game ID (or share code) through the code screen: home's code button, type, open.
    pub async fn open_code(&self, text: &str) {
        self.click("[data-action='code']").await;
        self.wait_screen("code").await;
        self.type_into("#code-input", text).await;
        // The screen decodes the text a moment after the typing and may move `open` into the
        // code's card (as "Play"): tapped once that has settled.
        self.wait_for("#code-input[data-decoded]").await;
        self.click("[data-action='open']").await;
    }

    /// Tap a settings choice: the segment `value` of `[data-setting=setting]`.
    pub async fn pick_setting(&self, setting: &str, value: &str) {
        self.click(&format!(
            "[data-setting='{setting}'] label[data-value='{value}']"
        ))
        .await;
    }

    /// Wait (up to 5 s) until the page's `h1` reads `text`.
    pub async fn wait_heading(&self, text: &str) {
        self.wait_js(
            &format!(
                "return document.querySelector('h1').textContent === {} ? true : null",
                json!(text)
            ),
            5000,
        )
        .await;
    }

    /// Read a number-slide cell size (px) from the first tile.
    pub async fn cell_px(&self) -> f64 {
        self.js("const g = document.querySelector('.grid'); return g ? g.clientWidth / Number(getComputedStyle(g).getPropertyValue('--cols')) : 0;")
            .await
            .as_f64()
            .unwrap_or(0.0)
    }

    /// Type text into the element matching `css`.
    pub async fn type_into(&self, css: &str, text: &str) {
        self.wait_for(css).await;
        let el = self
            .c
            .find(fantoccini::Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"));
        el.send_keys(text).await.expect("type");
    }
}

impl App {
    /// Reload the page (the UI starts again from what Rust holds) and wait until it is ready.
    pub async fn reload(&self) {
        let _ = self
            .c
            .execute(
                "document.body.dataset.ready = '0'; setTimeout(() => location.reload(), 0);",
                vec![],
            )
            .await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        self.wait_ready(15_000).await;
    }

    /// Wait until the UI has set its ready flag (`body[data-ready=1]`).
    pub async fn wait_ready(&self, timeout_ms: u64) {
        self.wait_js(
            "return document.body && document.body.dataset.ready === '1' ? true : null",
            timeout_ms,
        )
        .await;
    }
}

/// `m` then a finger press at viewport point (`x`, `y`), held `hold_ms` before it lifts.
fn press(m: MouseActions, x: f64, y: f64, hold_ms: u64) -> MouseActions {
    m.then(PointerAction::MoveTo {
        duration: None,
        x: x.round(),
        y: y.round(),
    })
    .then(PointerAction::Down {
        button: MOUSE_BUTTON_LEFT,
    })
    .pause(Duration::from_millis(hold_ms))
    .then(PointerAction::Up {
        button: MOUSE_BUTTON_LEFT,
    })
}
