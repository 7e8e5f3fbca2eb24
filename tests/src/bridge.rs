//! A test-only bridge between a browser page and the real command layer (never shipped).
//!
//! The real app runs on tauri's mock runtime ([`TestApp`]: plugins, commands, set-up and
//! persistence in a private data folder). A loopback HTTP server (127.0.0.1, a free port)
//! serves `ui/` and takes the page's `invoke` calls:
//!
//! - `GET /<path>`: a file of `ui/` (`/` is `index.html`), with the shipped CSP from
//!   `src-tauri/tauri.conf.json`, where `connect-src` also allows `'self'` (this origin);
//! - `POST /__invoke` with `{"cmd": "...", "args": {...}}`: the app's real invoke handler
//!   ([`TestApp::call`]), answered `{"ok": value}` or `{"error": {code, message}}`.
//!
//! Connection threads only parse HTTP; every command runs on the thread that owns the app
//! ([`Bridge::serve`]), one at a time, in the order they arrive, and is logged.

use crate::TestApp;
use serde_json::{json, Value};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Largest request head (request line + headers) and body accepted.
const MAX_HEAD: usize = 16 * 1024;
const MAX_BODY: usize = 1024 * 1024;
/// Connections handled at once (a browser opens about six per host).
const MAX_CONNECTIONS: usize = 32;
/// A connection that sends nothing for this long is dropped.
const IO_TIMEOUT: Duration = Duration::from_secs(30);

/// One command the page called, and how it ended (`Ok` or the error's `code`).
#[derive(Debug, Clone)]
pub struct Call {
    pub cmd: String,
    pub args: Value,
    pub result: Result<(), String>,
}

/// What the serving loop is told: a command to run, or that it should stop.
enum Msg {
    Invoke {
        cmd: String,
        args: Value,
        reply: Sender<Result<Value, Value>>,
    },
    Stop(String),
}

/// Why [`Bridge::serve`] returned.
#[derive(Debug)]
pub enum Ended {
    /// `stop` was called (e.g. the driver process exited), with its message.
    Stopped(String),
    /// The deadline passed first.
    TimedOut,
}

/// The HTTP side of the bridge; the app itself is passed to [`Bridge::serve`].
pub struct Bridge {
    addr: SocketAddr,
    tx: Sender<Msg>,
    rx: Receiver<Msg>,
    closing: Arc<AtomicBool>,
}

/// A handle that stops [`Bridge::serve`] from another thread.
#[derive(Clone)]
pub struct Stopper(Sender<Msg>);

impl Stopper {
    pub fn stop(&self, why: impl Into<String>) {
        let _ = self.0.send(Msg::Stop(why.into()));
    }
}

/// The shipped CSP (`app.security.csp` of `tauri.conf.json`) with `'self'` added to
/// `connect-src`, so the page may call this origin's `/__invoke`.
pub fn bridge_csp(tauri_conf: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(tauri_conf)
        .map_err(|e| format!("cannot read {}: {e}", tauri_conf.display()))?;
    let conf: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not JSON: {e}", tauri_conf.display()))?;
    let csp = conf["app"]["security"]["csp"]
        .as_str()
        .ok_or_else(|| format!("{} has no app.security.csp string", tauri_conf.display()))?;
    let mut found = false;
    let parts: Vec<String> = csp
        .split(';')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| {
            if d == "connect-src" || d.starts_with("connect-src ") {
                found = true;
                format!("connect-src 'self'{}", &d["connect-src".len()..])
            } else {
                d.to_string()
            }
        })
        .collect();
    if !found {
        return Err(format!("the CSP has no connect-src directive: {csp}"));
    }
    Ok(parts.join("; "))
}

impl Bridge {
    /// Bind 127.0.0.1 on a free port and serve `ui_dir` with `csp` from a background thread.
    pub fn start(ui_dir: &Path, csp: String) -> io::Result<Bridge> {
        let ui_dir = ui_dir.canonicalize()?;
        let listener = TcpListener::bind(("127.0.0.1", 0))?;
        let addr = listener.local_addr()?;
        let (tx, rx) = mpsc::channel();
        let closing = Arc::new(AtomicBool::new(false));
        let site = Arc::new(Site { ui_dir, csp });
        let open = Arc::new(AtomicUsize::new(0));
        let (tx2, closing2) = (tx.clone(), closing.clone());
        std::thread::Builder::new()
            .name("bridge-accept".into())
            .spawn(move || {
                for stream in listener.incoming() {
                    if closing2.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                        open.fetch_sub(1, Ordering::SeqCst);
                        let mut s = stream;
                        let _ = respond(&mut s, 503, "text/plain", b"too many connections", None);
                        continue;
                    }
                    let (site, tx, open) = (site.clone(), tx2.clone(), open.clone());
                    let spawned = std::thread::Builder::new()
                        .name("bridge-conn".into())
                        .spawn(move || {
                            handle(stream, &site, &tx);
                            open.fetch_sub(1, Ordering::SeqCst);
                        });
                    if spawned.is_err() {
                        eprintln!("bridge: could not start a connection thread");
                    }
                }
            })?;
        Ok(Bridge {
            addr,
            tx,
            rx,
            closing,
        })
    }

    /// The page's address, e.g. `http://127.0.0.1:41234/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    pub fn stopper(&self) -> Stopper {
        Stopper(self.tx.clone())
    }

    /// Run the page's commands on `app` until [`Stopper::stop`] or `deadline`. Returns why it
    /// ended and every call made, in order.
    pub fn serve(&self, app: &TestApp, deadline: Instant) -> (Ended, Vec<Call>) {
        let mut calls = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(Msg::Invoke { cmd, args, reply }) => {
                    let res = app.call(&cmd, args.clone());
                    let result = match &res {
                        Ok(_) => Ok(()),
                        Err(e) => Err(e["code"].as_str().unwrap_or("untyped").to_string()),
                    };
                    calls.push(Call { cmd, args, result });
                    let _ = reply.send(res);
                }
                Ok(Msg::Stop(why)) => return (Ended::Stopped(why), calls),
                Err(RecvTimeoutError::Timeout) => return (Ended::TimedOut, calls),
                Err(RecvTimeoutError::Disconnected) => {
                    return (Ended::Stopped("bridge channel closed".into()), calls)
                }
            }
        }
    }
}

impl Drop for Bridge {
    fn drop(&mut self) {
        // Wake the accept loop so that its thread ends.
        self.closing.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
    }
}

struct Site {
    ui_dir: PathBuf,
    csp: String,
}

/// A parsed request: method, path (query dropped) and body.
struct Request {
    method: String,
    path: String,
    body: Vec<u8>,
}

fn read_request(stream: &TcpStream) -> Result<Request, (u16, String)> {
    let mut r = BufReader::new(stream.take((MAX_HEAD + MAX_BODY) as u64));
    let mut head_len = 0usize;
    let mut line = String::new();
    let mut read_line = |r: &mut BufReader<_>, line: &mut String| -> Result<(), (u16, String)> {
        line.clear();
        let n = r
            .read_line(line)
            .map_err(|e| (400, format!("unreadable request: {e}")))?;
        head_len += n;
        if n == 0 {
            return Err((400, "connection closed mid-request".into()));
        }
        if head_len > MAX_HEAD {
            return Err((431, "request head too large".into()));
        }
        Ok(())
    };
    read_line(&mut r, &mut line)?;
    let mut words = line.split_whitespace();
    let (Some(method), Some(target)) = (words.next(), words.next()) else {
        return Err((400, format!("bad request line {line:?}")));
    };
    let method = method.to_string();
    let path = target.split(['?', '#']).next().unwrap_or("/").to_string();
    let mut length = 0usize;
    loop {
        read_line(&mut r, &mut line)?;
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':') {
            if k.trim().eq_ignore_ascii_case("content-length") {
                length = v
                    .trim()
                    .parse()
                    .map_err(|_| (400, format!("bad Content-Length {v:?}")))?;
            }
        }
    }
    if length > MAX_BODY {
        return Err((413, format!("body of {length} bytes is over {MAX_BODY}")));
    }
    let mut body = vec![0; length];
    r.read_exact(&mut body)
        .map_err(|e| (400, format!("short body: {e}")))?;
    Ok(Request { method, path, body })
}

fn handle(mut stream: TcpStream, site: &Site, tx: &Sender<Msg>) {
    let _ = stream.set_read_timeout(Some(IO_TIMEOUT));
    let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
    let req = match read_request(&stream) {
        Ok(r) => r,
        Err((status, msg)) => {
            let _ = respond(&mut stream, status, "text/plain", msg.as_bytes(), None);
            return;
        }
    };
    let _ = match (req.method.as_str(), req.path.as_str()) {
        ("POST", "/__invoke") => {
            let (status, body) = invoke(&req.body, tx);
            respond(
                &mut stream,
                status,
                "application/json",
                body.to_string().as_bytes(),
                None,
            )
        }
        ("GET" | "HEAD", _) => match static_file(&site.ui_dir, &req.path) {
            Ok((bytes, mime)) => {
                let body: &[u8] = if req.method == "HEAD" { &[] } else { &bytes };
                respond(&mut stream, 200, mime, body, Some(&site.csp))
            }
            Err((status, msg)) => respond(&mut stream, status, "text/plain", msg.as_bytes(), None),
        },
        _ => respond(
            &mut stream,
            405,
            "text/plain",
            b"only GET of ui/ files and POST /__invoke",
            None,
        ),
    };
    let _ = stream.shutdown(Shutdown::Write);
}

/// `{cmd, args}` → the serving loop → `{ok}` / `{error}`.
fn invoke(body: &[u8], tx: &Sender<Msg>) -> (u16, Value) {
    let bad = |m: String| (400, json!({"error": {"code": "bridge", "message": m}}));
    let req: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => return bad(format!("the body is not JSON: {e}")),
    };
    let Some(cmd) = req["cmd"]
        .as_str()
        .filter(|c| !c.is_empty() && c.len() <= 64)
    else {
        return bad(format!("no command name in {req}"));
    };
    let args = match &req["args"] {
        Value::Null => json!({}),
        a @ Value::Object(_) => a.clone(),
        other => return bad(format!("args must be an object, not {other}")),
    };
    let (reply, answer) = mpsc::channel();
    let sent = tx.send(Msg::Invoke {
        cmd: cmd.to_string(),
        args,
        reply,
    });
    if sent.is_err() {
        return (
            503,
            json!({"error": {"code": "bridge", "message": "the app has stopped"}}),
        );
    }
    match answer.recv() {
        Ok(Ok(v)) => (200, json!({ "ok": v })),
        Ok(Err(e)) => (200, json!({ "error": e })),
        Err(_) => (
            503,
            json!({"error": {"code": "bridge", "message": "the app has stopped"}}),
        ),
    }
}

fn mime(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "webp" => "image/webp",
        "wav" => "audio/wav",
        "mp3" => "audio/mpeg",
        "ogg" => "audio/ogg",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        "wasm" => "application/wasm",
        "webmanifest" => "application/manifest+json",
        "bin" => "application/octet-stream",
        _ => "application/octet-stream",
    }
}

/// A file under `root` named by a URL path; anything that leaves `root` is a 404.
fn static_file(root: &Path, url_path: &str) -> Result<(Vec<u8>, &'static str), (u16, String)> {
    // The query is the page's (`/?test-game=lights`), not part of the file's name.
    let file = url_path.split(['?', '#']).next().unwrap_or("");
    let rel = file.trim_start_matches('/');
    let rel = if rel.is_empty() { "index.html" } else { rel };
    let rel = Path::new(rel);
    if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err((404, format!("no such file {url_path}")));
    }
    let full = root.join(rel);
    match full.canonicalize() {
        Ok(p) if p.starts_with(root) && p.is_file() => std::fs::read(&p)
            .map(|b| (b, mime(&p)))
            .map_err(|e| (500, format!("cannot read {url_path}: {e}"))),
        _ => Err((404, format!("no such file {url_path}"))),
    }
}

fn respond(
    stream: &mut TcpStream,
    status: u16,
    mime: &str,
    body: &[u8],
    csp: Option<&str>,
) -> io::Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    };
    let mut head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {mime}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n",
        body.len()
    );
    if let Some(csp) = csp {
        head.push_str(&format!("Content-Security-Policy: {csp}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("workspace")
            .to_path_buf()
    }

    #[test]
    fn the_csp_is_the_shipped_one_plus_self_for_fetch() {
        let csp = bridge_csp(&root().join("src-tauri/tauri.conf.json")).unwrap();
        assert!(csp.contains("connect-src 'self' ipc:"), "{csp}");
        assert!(csp.contains("style-src 'self';"), "{csp}");
        assert!(csp.contains("script-src 'self';"), "{csp}");
        let dir = crate::TempDir::new("bridge-csp");
        let conf = dir.path().join("tauri.conf.json");
        std::fs::write(
            &conf,
            r#"{"app":{"security":{"csp":"default-src 'self'"}}}"#,
        )
        .unwrap();
        assert!(bridge_csp(&conf).unwrap_err().contains("no connect-src"));
        std::fs::write(&conf, "{").unwrap();
        assert!(bridge_csp(&conf).unwrap_err().contains("not JSON"));
    }

    #[test]
    fn only_files_of_ui_are_served() {
        let ui = root().join("ui").canonicalize().unwrap();
        let (index, mime) = static_file(&ui, "/").unwrap();
        assert!(String::from_utf8_lossy(&index).contains("<div id=\"app\""));
        assert!(mime.starts_with("text/html"));
        assert_eq!(
            static_file(&ui, "/js/main.js").unwrap().1,
            "text/javascript; charset=utf-8"
        );
        // The page's query names no file.
        assert_eq!(static_file(&ui, "/?test-game=lights").unwrap().0, index);
        for bad in [
            "/../Cargo.toml",
            "/js/../../Cargo.toml",
            "//etc/passwd",
            "/nope.js",
            "/js",
        ] {
            assert_eq!(static_file(&ui, bad).unwrap_err().0, 404, "{bad}");
        }
    }

    /// One raw HTTP exchange with the bridge: (status line, body).
    fn exchange(url_addr: SocketAddr, raw: &[u8]) -> (String, String) {
        let mut s = TcpStream::connect(url_addr).unwrap();
        s.write_all(raw).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        let (head, body) = out.split_once("\r\n\r\n").unwrap();
        (head.lines().next().unwrap().to_string(), body.to_string())
    }

    #[test]
    fn invokes_reach_the_app_and_bad_requests_are_refused() {
        let dir = crate::TempDir::new("bridge-http");
        let app = crate::TestApp::start(dir.path(), None);
        let bridge = Bridge::start(&root().join("ui"), "default-src 'self'".into()).unwrap();
        let addr = bridge.addr;
        let stop = bridge.stopper();
        let client = std::thread::spawn(move || {
            let post = |body: &str| {
                exchange(
                    addr,
                    format!(
                        "POST /__invoke HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
                        body.len()
                    )
                    .as_bytes(),
                )
            };
            let ok = post(r#"{"cmd":"open_game","args":{"id":"slide:3x3:1,2,3,4,5,6,7,0,8"}}"#);
            let err = post(r#"{"cmd":"play","args":{"kind":"slide","mv":{"tile":1}}}"#);
            let garbage = post("not json");
            let no_cmd = post(r#"{"args":{}}"#);
            let get = exchange(addr, b"GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n");
            let put = exchange(addr, b"PUT / HTTP/1.1\r\nHost: x\r\n\r\n");
            let huge = exchange(
                addr,
                b"POST /__invoke HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n",
            );
            stop.stop("done");
            (ok, err, garbage, no_cmd, get, put, huge)
        });
        let deadline = Instant::now() + Duration::from_secs(60);
        let (ended, calls) = bridge.serve(&app, deadline);
        let (ok, err, garbage, no_cmd, get, put, huge) = client.join().unwrap();
        assert!(matches!(ended, Ended::Stopped(_)));
        assert!(ok.0.contains("200"), "{ok:?}");
        let v: Value = serde_json::from_str(&ok.1).unwrap();
        assert_eq!(v["ok"]["snapshot"]["kind"], "slide");
        let v: Value = serde_json::from_str(&err.1).unwrap();
        assert_eq!(v["error"]["code"], "illegal_move", "{v}");
        assert!(garbage.0.contains("400") && garbage.1.contains("not JSON"));
        assert!(no_cmd.0.contains("400"));
        assert!(get.0.contains("200") && get.1.contains("id=\"app\""));
        assert!(put.0.contains("405"));
        assert!(huge.0.contains("413"));
        assert_eq!(calls.len(), 2, "only well-formed invokes reach the app");
        assert_eq!(calls[1].result, Err("illegal_move".to_string()));
        app.close();
    }
}
