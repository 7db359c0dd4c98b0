//! What the viewer's tests share (`view_browser.rs`, `view_http.rs`): a small real
//! dataset, `hammer view` started on a free port, and its address.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{HAMMER, Proc, hammer, ok, s};

/// A sweep of 60 exact Martello games, 30 of 4x4 and 30 of 5x5.
pub const SWEEP: &str = r#"
name = "viewtest"
seed = 77

[[experiment]]
name = "exact"
sizes = [4, 5]
games = 30
"#;

/// Runs [`SWEEP`] with `hammer run` into `DIR/data`.
pub fn make_dataset(dir: &Path) -> PathBuf {
    let sweep = dir.join("sweep.toml");
    std::fs::write(&sweep, SWEEP).unwrap();
    let out = dir.join("data");
    ok(&hammer(&[
        "run",
        sweep.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "2",
    ]));
    out
}

/// Starts `hammer view ARGS` and returns it with the URL it printed. Unless ARGS say
/// where to listen, it listens on a free loopback port (`--listen 127.0.0.1:0`).
pub fn start_view(dir: &Path, name: &str, args: &[&str]) -> (Proc, String) {
    let mut all = s(&["view"]);
    if !args
        .iter()
        .any(|a| ["--listen", "--addr", "--port"].contains(a))
    {
        all.extend(s(&["--listen", "127.0.0.1:0"]));
    }
    all.extend(s(args));
    let proc = Proc::spawn(name, HAMMER, &all, &[], dir.join(format!("{name}.log")));
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let log = proc.log_text();
        if let Some(line) = log.lines().find(|l| l.starts_with("hammer view: http://")) {
            let url = line.trim_start_matches("hammer view: ").trim().to_owned();
            return (proc, url);
        }
        assert!(Instant::now() < deadline, "no URL printed; log:\n{log}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Copies a directory tree (a dataset to damage without touching the original).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The socket address of a URL that `hammer view` printed.
pub fn addr_of(url: &str) -> std::net::SocketAddr {
    let rest = url.trim_start_matches("http://");
    rest.split('/').next().unwrap().parse().unwrap()
}
