//! Helpers shared by the end-to-end tests (`cluster.rs`, `tls.rs`, `deploy.rs`,
//! `metrics.rs`, `multihost.rs`, `examples.rs`, `tune.rs`, `compose.rs`,
//! `frontier.rs`, `leases.rs`, `families.rs`): running `hammer` to the end, child
//! processes that die with the test (a coordinator and its workers among them), free
//! ports, reading a dataset back with the exactly-once checks and with the Python
//! readers, and a raw HTTP GET.
//!
//! Each test binary uses a different subset, hence the `dead_code` allowance.
#![allow(dead_code)]

pub mod browser;
pub mod gang;
pub mod view;

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use hammer_dataset::{ResultRow, RowKey, list_parts, read_dataset};
use hammer_sweep::Sweep;

pub const HAMMER: &str = env!("CARGO_BIN_EXE_hammer");

/// A child process that is killed when the test ends, passing or failing.
pub struct Proc {
    child: Option<Child>,
    pub name: String,
    pub log: PathBuf,
}

impl Proc {
    /// Starts `program args` with stdout and stderr appended to `log`, without any
    /// HAMMER_TOKEN of the caller's environment.
    pub fn spawn(
        name: &str,
        program: &str,
        args: &[String],
        env: &[(&str, &str)],
        log: PathBuf,
    ) -> Proc {
        Proc::spawn_in(None, name, program, args, env, log)
    }

    /// [`Proc::spawn`] in the working directory `dir` (the test's own when `None`).
    pub fn spawn_in(
        dir: Option<&Path>,
        name: &str,
        program: &str,
        args: &[String],
        env: &[(&str, &str)],
        log: PathBuf,
    ) -> Proc {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .expect("log file");
        let mut command = Command::new(program);
        command
            .args(args)
            .env("HAMMER_LOG", "info")
            .env_remove("HAMMER_TOKEN")
            .stdin(Stdio::null())
            .stdout(file.try_clone().expect("log file"))
            .stderr(file);
        for (k, v) in env {
            command.env(k, v);
        }
        if let Some(dir) = dir {
            command.current_dir(dir);
        }
        Proc {
            child: Some(command.spawn().expect("start a process")),
            name: name.to_owned(),
            log,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().map_or(0, Child::id)
    }

    pub fn kill9(&mut self) {
        if let Some(mut child) = self.child.take() {
            child.kill().expect("SIGKILL");
            child.wait().expect("wait after SIGKILL");
        }
    }

    pub fn sigterm(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.pid().to_string()])
            .status()
            .expect("run kill");
        assert!(status.success());
    }

    /// Waits for the exit code, failing the test after `limit`.
    pub fn wait(&mut self, limit: Duration) -> i32 {
        let deadline = Instant::now() + limit;
        let child = self.child.as_mut().expect("process already reaped");
        loop {
            if let Some(status) = child.try_wait().expect("try_wait") {
                self.child = None;
                return status.code().unwrap_or(-1);
            }
            if Instant::now() > deadline {
                panic!(
                    "{} did not exit within {limit:?}; log:\n{}",
                    self.name,
                    self.log_text()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits for a successful exit; otherwise fails the test with the exit code and the
    /// process's log.
    #[track_caller]
    pub fn wait_ok(&mut self, limit: Duration) {
        let code = self.wait(limit);
        assert_eq!(
            code,
            0,
            "{} exited with {code}; log:\n{}",
            self.name,
            self.log_text()
        );
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The JSON object `proc` printed last (the line of `hammer ... --json` in its log).
pub fn last_json(proc: &Proc) -> serde_json::Value {
    let text = proc.log_text();
    let line = text.lines().rev().find(|l| l.starts_with('{'));
    let line = line.unwrap_or_else(|| panic!("{} printed no JSON; log:\n{text}", proc.name));
    serde_json::from_str(line).expect("one JSON object")
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .port()
}

pub fn s(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| (*a).to_owned()).collect()
}

/// Reads the dataset, checking that every part opens, that every key is there exactly
/// once, and that there is one part per unit. Returns the rows as read.
pub fn read_checked(out: &Path, sweep: &Sweep) -> Vec<ResultRow> {
    let rows = read_dataset(out).expect("every part file opens");
    let mut counts: BTreeMap<RowKey, usize> = BTreeMap::new();
    for row in &rows {
        *counts.entry(row.key()).or_default() += 1;
    }
    let dupes: Vec<_> = counts.iter().filter(|&(_, &c)| c > 1).collect();
    assert!(dupes.is_empty(), "keys written more than once: {dupes:?}");
    assert_eq!(
        rows.len() as u64,
        sweep.total_games(),
        "every key exactly once"
    );
    let parts = list_parts(out).expect("list parts");
    assert_eq!(parts.len(), sweep.units().len(), "one part per unit");
    for part in &parts {
        assert!(
            sweep.unit_by_id(&part.part_id).is_some(),
            "stray part {}",
            part.part_id
        );
    }
    rows
}

/// An HTTP response: status code, headers (lower-case names), body.
pub struct HttpResponse {
    pub code: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl HttpResponse {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One HTTP/1.1 request without a body (GET, HEAD, ...). Written by hand so that the
/// test checks the bytes on the wire.
pub fn http(method: &str, addr: SocketAddr, path: &str) -> std::io::Result<HttpResponse> {
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nUser-Agent: hammer-test\r\nAccept: */*\r\nConnection: close\r\n\r\n"
    )?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response)?;
    let text = String::from_utf8(response).map_err(std::io::Error::other)?;
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| std::io::Error::other(format!("no end of headers in {text:?}")))?;
    let mut lines = head.lines();
    let status_line = lines.next().unwrap_or_default();
    let code = status_line
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("bad status line {status_line:?}")))?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Ok(HttpResponse {
        code,
        headers,
        body: body.to_owned(),
    })
}

/// Runs `hammer ARGS` to the end and returns its output (no token from the caller's
/// environment, plain output).
pub fn hammer(args: &[&str]) -> std::process::Output {
    Command::new(HAMMER)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("HAMMER_TOKEN")
        .output()
        .expect("hammer runs")
}

/// The stdout of a run that must have succeeded; otherwise fails with its exit code and
/// both streams.
#[track_caller]
pub fn ok(out: &std::process::Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The Python interpreter of the readers' venv (`HAMMER_PYTHON`), or `None` after
/// printing "skipped", unless `HAMMER_REQUIRE_PYTHON=1`, which makes its absence fail.
pub fn python() -> Option<std::ffi::OsString> {
    let python = std::env::var_os("HAMMER_PYTHON").filter(|p| !p.is_empty());
    if python.is_none() {
        assert!(
            std::env::var("HAMMER_REQUIRE_PYTHON").as_deref() != Ok("1"),
            "HAMMER_REQUIRE_PYTHON=1 but HAMMER_PYTHON is not set"
        );
        println!("python readers skipped: HAMMER_PYTHON not set");
    }
    python
}

/// Reads the dataset in `out` with pyarrow, polars, DuckDB and pandas
/// (`.ci/python_readers.py`): each must see `rows` rows. Returns the four readers'
/// summaries (JSON objects) for further checks, or `None` when Python is skipped.
pub fn python_readers(out: &Path, rows: usize) -> Option<Vec<serde_json::Value>> {
    let python = python()?;
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.ci/python_readers.py");
    let output = Command::new(&python)
        .arg(&script)
        .arg(out)
        .output()
        .expect("run python");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summaries: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(summaries.len(), 4, "{stdout}");
    for s in &summaries {
        assert_eq!(s["rows"].as_u64(), Some(rows as u64), "{s}");
    }
    Some(summaries)
}

/// Rows without the columns that legitimately differ between runs (wall time, worker),
/// sorted by key: what two runs of one sweep must agree on.
pub fn normalized(mut rows: Vec<hammer_dataset::ResultRow>) -> Vec<hammer_dataset::ResultRow> {
    for row in &mut rows {
        row.wall_ns = 0;
        row.worker = String::new();
    }
    rows.sort_by_key(hammer_dataset::ResultRow::key);
    rows
}

/// A path as the `&str` a command line takes.
pub fn path_str(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// Starts `hammer ARGS` as `name`, logging to `dir/NAME.log`; killed when the test ends.
pub fn spawn_hammer(dir: &Path, name: &str, args: &[&str]) -> Proc {
    Proc::spawn(name, HAMMER, &s(args), &[], dir.join(format!("{name}.log")))
}

/// `hammer coordinator` of the sweep file `sweep`, writing `out`, on 127.0.0.1:`port`,
/// with the test's own `flags` (state directory, lease and heartbeat seconds, linger).
pub fn coordinator(
    dir: &Path,
    name: &str,
    sweep: &Path,
    out: &Path,
    port: u16,
    flags: &[&str],
) -> Proc {
    let listen = format!("127.0.0.1:{port}");
    let mut args = vec![
        "coordinator",
        "--sweep",
        path_str(sweep),
        "--out",
        path_str(out),
        "--listen",
        &listen,
    ];
    args.extend_from_slice(flags);
    spawn_hammer(dir, name, &args)
}

/// `hammer worker` named `name`, of the coordinator on 127.0.0.1:`port`, that gives up
/// after a minute without one (so that a failed test does not hang), with `flags`.
pub fn worker(dir: &Path, name: &str, port: u16, flags: &[&str]) -> Proc {
    let url = format!("http://127.0.0.1:{port}");
    let mut args = vec![
        "worker",
        "--coordinator",
        &url,
        "--name",
        name,
        "--give-up-after-secs",
        "60",
    ];
    args.extend_from_slice(flags);
    spawn_hammer(dir, name, &args)
}

/// The `weed` binary: `HAMMER_WEED`, else beside the tests' Python, else on PATH.
pub fn weed_program() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("HAMMER_WEED") {
        return Some(PathBuf::from(path));
    }
    let beside_python = std::env::var_os("HAMMER_PYTHON")
        .map(PathBuf::from)
        .and_then(|p| p.parent().map(|d| d.join("weed")))
        .filter(|p| p.is_file());
    beside_python.or_else(|| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join("weed"))
                .find(|p| p.is_file())
        })
    })
}
