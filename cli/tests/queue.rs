//! A standing coordinator as its users meet it: real processes on loopback, sweeps
//! submitted with `hammer submit`, a `kill -9` of the coordinator and of a worker, stop,
//! cancel and resubmission, refusals that name the problem, and the two token roles.

mod support;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hammer_sweep::Sweep;
use support::{Proc, free_port, hammer, normalized, ok, path_str, read_checked, spawn_hammer};

/// A Martello sweep named `name`; `games` per size, `sizes` as TOML.
fn sweep_text(name: &str, seed: u64, sizes: &str, games: u64) -> String {
    format!(
        "name = \"{name}\"\nseed = {seed}\n\n[[experiment]]\nname = \"exact\"\nsizes = {sizes}\ngames = {games}\nunit_games = 25\n"
    )
}

fn write(dir: &Path, file: &str, text: &str) -> PathBuf {
    let path = dir.join(file);
    std::fs::write(&path, text).expect("write sweep file");
    path
}

/// A standing coordinator on `port`, its datasets in `root`.
fn standing(dir: &Path, name: &str, root: &Path, port: u16, flags: &[&str]) -> Proc {
    let listen = format!("127.0.0.1:{port}");
    let mut args = vec![
        "coordinator",
        "--out",
        path_str(root),
        "--listen",
        &listen,
        "--lease-secs",
        "4",
        "--heartbeat-secs",
        "1",
    ];
    args.extend_from_slice(flags);
    spawn_hammer(dir, name, &args)
}

fn url(port: u16) -> String {
    format!("http://127.0.0.1:{port}")
}

/// `hammer ARGS --coordinator URL`.
fn client(port: u16, args: &[&str]) -> std::process::Output {
    let url = url(port);
    let mut all = args.to_vec();
    all.extend_from_slice(&["--coordinator", &url]);
    hammer(&all)
}

/// Waits until `hammer sweeps` answers (the coordinator is up).
fn wait_up(port: u16) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !client(port, &["sweeps"]).status.success() {
        assert!(Instant::now() < deadline, "the coordinator did not come up");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The line of `hammer sweeps` for sweep `name`.
fn sweep_line(port: u16, name: &str) -> String {
    let table = ok(&client(port, &["sweeps"]));
    table
        .lines()
        .find(|l| l.starts_with(&format!("{name} ")))
        .unwrap_or_else(|| panic!("{name} not in\n{table}"))
        .to_owned()
}

/// Lines of the sweep's journal: its header and one per committed unit.
fn journal_lines(root: &Path, name: &str) -> usize {
    let journal = root
        .join(".hammer-state/sweeps")
        .join(name)
        .join("journal.log");
    std::fs::read_to_string(journal).map_or(0, |t| t.lines().count())
}

fn parts(root: &Path, name: &str) -> usize {
    hammer_dataset::list_parts(&root.join(name)).map_or(0, |p| p.len())
}

/// The rows of `hammer run` of the same file, without timing and worker columns.
fn reference(dir: &Path, file: &Path, sweep: &Sweep) -> Vec<hammer_dataset::ResultRow> {
    let out = dir.join(format!("reference-{}", sweep.name));
    ok(&hammer(&[
        "run",
        path_str(file),
        "--out",
        path_str(&out),
        "--threads",
        "1",
    ]));
    normalized(read_checked(&out, sweep))
}

#[test]
fn three_sweeps_survive_a_kill_9_of_the_coordinator_and_a_lost_worker() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let root = dir.join("root");
    let port = free_port();
    let files = [
        write(dir, "a.toml", &sweep_text("alpha", 1, "[4, 5]", 1000)),
        write(dir, "b.toml", &sweep_text("beta", 2, "[5]", 2000)),
        write(dir, "c.toml", &sweep_text("gamma", 3, "[4]", 600)),
    ];
    let mut coordinator = standing(dir, "coordinator", &root, port, &[]);
    wait_up(port);
    for (file, priority) in files.iter().zip(["0", "0", "1"]) {
        let out = ok(&client(
            port,
            &["submit", path_str(file), "--priority", priority],
        ));
        assert!(out.contains("submitted: queued"), "{out}");
    }
    let url = url(port);
    let worker_args = |name: &str| {
        s_vec(&[
            "worker",
            "--coordinator",
            &url,
            "--name",
            name,
            "--threads",
            "1",
            "--give-up-after-secs",
            "120",
        ])
    };
    let mut first = spawn(dir, "w1", &worker_args("w1"));
    let _second = spawn(dir, "w2", &worker_args("w2"));
    // Part of the queue is committed when the coordinator dies.
    let deadline = Instant::now() + Duration::from_secs(120);
    while parts(&root, "alpha") + parts(&root, "beta") + parts(&root, "gamma") < 4 {
        assert!(Instant::now() < deadline, "no progress");
        std::thread::sleep(Duration::from_millis(50));
    }
    coordinator.kill9();
    let committed = parts(&root, "alpha") + parts(&root, "beta") + parts(&root, "gamma");
    assert!(
        committed < 224,
        "the queue was not complete when the coordinator died"
    );
    let _restarted = standing(dir, "coordinator2", &root, port, &[]);
    wait_up(port);
    // A worker lost and one added while the sweeps run.
    first.kill9();
    let _third = spawn(dir, "w3", &worker_args("w3"));
    for (file, name) in files.iter().zip(["alpha", "beta", "gamma"]) {
        let waited = client(port, &["wait", name]);
        let text = ok(&waited);
        assert!(text.contains("exact"), "{text}");
        let sweep = hammer_sweep::Sweep::load(file).expect("sweep");
        let rows = normalized(read_checked(&root.join(name), &sweep));
        assert_eq!(rows, reference(dir, file, &sweep), "sweep {name}");
        assert!(sweep_line(port, name).contains("complete"));
    }
}

#[test]
fn stop_cancel_and_resubmit_and_the_refusals_of_bad_requests() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let root = dir.join("root");
    let port = free_port();
    // 6x6 games: a unit of 25 takes a fraction of a second, so units are in flight.
    let file = write(dir, "long.toml", &sweep_text("long", 7, "[6]", 1500));
    let _coordinator = standing(dir, "coordinator", &root, port, &[]);
    wait_up(port);

    // Bad input: the file's error with its place, and the queue unchanged.
    let bad = write(
        dir,
        "bad.toml",
        "name = \"bad\"\nseed = 1\n\n[[experiment]]\nname = \"e\"\nsizes = [4]\ngames = \"many\"\n",
    );
    let refused = client(port, &["submit", path_str(&bad)]);
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("bad.toml:7:"), "{err}");
    for verb in ["stop", "cancel", "wait", "status"] {
        let out = client(port, &[verb, "nope"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains("no sweep \"nope\""),
            "{verb}: {err}"
        );
    }
    assert_eq!(
        ok(&client(port, &["sweeps"])).lines().count(),
        1,
        "only the header"
    );

    ok(&client(port, &["submit", path_str(&file)]));
    let changed = write(dir, "changed.toml", &sweep_text("long", 8, "[6]", 1500));
    let clash = client(port, &["submit", path_str(&changed)]);
    let err = String::from_utf8_lossy(&clash.stderr);
    assert!(
        !clash.status.success() && err.matches("digest").count() >= 2,
        "{err}"
    );

    let url = url(port);
    let _worker = spawn(
        dir,
        "worker",
        &s_vec(&[
            "worker",
            "--coordinator",
            &url,
            "--threads",
            "1",
            "--give-up-after-secs",
            "120",
        ]),
    );
    let progressed = |at_least: usize| {
        let deadline = Instant::now() + Duration::from_secs(120);
        while parts(&root, "long") < at_least {
            assert!(Instant::now() < deadline, "no progress");
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    progressed(2);

    // Stop: the leased unit finishes, nothing new starts.
    ok(&client(port, &["stop", "long"]));
    let deadline = Instant::now() + Duration::from_secs(60);
    while !sweep_line(port, "long").contains("stopped") {
        assert!(Instant::now() < deadline, "{}", sweep_line(port, "long"));
        std::thread::sleep(Duration::from_millis(100));
    }
    let stopped_at = parts(&root, "long");
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(
        parts(&root, "long"),
        stopped_at,
        "nothing written while stopped"
    );
    assert!(
        !client(port, &["wait", "long"]).status.success(),
        "a stopped sweep is not complete"
    );

    // Resubmitted, it resumes; cancelled while a unit is leased, nothing more is written.
    let again = ok(&client(port, &["submit", path_str(&file)]));
    assert!(again.contains("known"), "{again}");
    progressed(stopped_at + 2);
    ok(&client(port, &["cancel", "long"]));
    let (journal, written) = (journal_lines(&root, "long"), parts(&root, "long"));
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(
        journal_lines(&root, "long"),
        journal,
        "no commit after the cancel"
    );
    assert_eq!(parts(&root, "long"), written, "no part after the cancel");
    assert!(sweep_line(port, "long").contains("cancelled"));

    // Resubmitted once more, it completes with every key once.
    ok(&client(port, &["submit", path_str(&file)]));
    ok(&client(port, &["wait", "long"]));
    let sweep = hammer_sweep::Sweep::load(&file).expect("sweep");
    read_checked(&root.join("long"), &sweep);
}

#[test]
fn a_worker_token_cannot_submit_and_a_user_token_cannot_lease() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dir = dir.path();
    let root = dir.join("root");
    let port = free_port();
    let worker_token = write(dir, "worker.token", "worker-secret\n");
    let user_token = write(dir, "user.token", "user-secret\n");
    let _coordinator = standing(
        dir,
        "coordinator",
        &root,
        port,
        &[
            "--worker-token-file",
            path_str(&worker_token),
            "--user-token-file",
            path_str(&user_token),
        ],
    );
    let file = write(dir, "t.toml", &sweep_text("tokens", 4, "[4]", 100));
    let with = |token: &Path, args: &[&str]| {
        let mut all = args.to_vec();
        all.extend_from_slice(&["--token-file", path_str(token)]);
        client(port, &all)
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while !with(&user_token, &["sweeps"]).status.success() {
        assert!(Instant::now() < deadline, "the coordinator did not come up");
        std::thread::sleep(Duration::from_millis(100));
    }
    let refused = with(&worker_token, &["submit", path_str(&file)]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && err.contains("needs the user role"),
        "{err}"
    );
    let refused = with(&worker_token, &["sweeps"]);
    assert!(!refused.status.success());
    ok(&with(&user_token, &["submit", path_str(&file)]));

    let url = url(port);
    let mut wrong = spawn(
        dir,
        "wrong",
        &s_vec(&[
            "worker",
            "--coordinator",
            &url,
            "--token-file",
            path_str(&user_token),
        ]),
    );
    assert_ne!(wrong.wait(Duration::from_secs(30)), 0);
    assert!(
        wrong.log_text().contains("needs the worker role"),
        "{}",
        wrong.log_text()
    );
    let _worker = spawn(
        dir,
        "worker",
        &s_vec(&[
            "worker",
            "--coordinator",
            &url,
            "--token-file",
            path_str(&worker_token),
        ]),
    );
    ok(&with(&user_token, &["wait", "tokens"]));
}

fn s_vec(args: &[&str]) -> Vec<String> {
    support::s(args)
}

fn spawn(dir: &Path, name: &str, args: &[String]) -> Proc {
    Proc::spawn(
        name,
        support::HAMMER,
        args,
        &[],
        dir.join(format!("{name}.log")),
    )
}
