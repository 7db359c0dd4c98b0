//! The cluster with real processes: a coordinator and workers started from the built
//! `hammer` binary, talking gRPC on loopback, killed with SIGKILL and SIGTERM at awkward
//! moments. Every test has its own temporary directories and ports, and the sweeps are
//! small enough to finish in seconds.

mod support;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hammer_dataset::{ResultRow, list_parts, read_dataset};
use hammer_proto::PROTOCOL_VERSION;
use hammer_proto::v1::{
    GameResult, LeaseRequest, RegisterRequest, ResultBatch, StatusRequest, StatusResponse,
    UnitWritten, lease_response,
};
use hammer_sweep::Sweep;
use hammer_worker::ConnectOptions;
use support::{HAMMER, Proc, free_port, hammer};

/// Fast games: sizes 4 and 5, two orders, 24 units.
const SMALL: &str = r#"
name = "cluster-small"
seed = 11

[[experiment]]
name = "small"
sizes = [4, 5]
games = 60
orders = ["standard", "random"]
schedules = ["exact"]
unit_games = 10
"#;

/// Slower games (6x6, about 10 ms each), so that a unit takes around half a second and
/// processes can be killed in the middle of one.
const SLOW: &str = r#"
name = "cluster-slow"
seed = 5

[[experiment]]
name = "six"
sizes = [6]
games = 400
orders = ["standard"]
schedules = ["exact"]
unit_games = 50
"#;

struct Cluster {
    dir: tempfile::TempDir,
    port: u16,
    listen: String,
}

impl Cluster {
    fn new(sweep: &str) -> Cluster {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("sweep.toml"), sweep).expect("write sweep");
        let port = free_port();
        Cluster {
            dir,
            port,
            listen: format!("127.0.0.1:{port}"),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn out(&self) -> PathBuf {
        self.path("out")
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    fn spawn(&self, name: &str, args: &[&str], env: &[(&str, &str)]) -> Proc {
        let log = self.path(&format!("{name}.log"));
        Proc::spawn(name, HAMMER, &support::s(args), env, log)
    }

    fn coordinator(&self, extra: &[&str], env: &[(&str, &str)]) -> Proc {
        let sweep = self.path("sweep.toml");
        let out = self.out();
        let state = self.path("state");
        let listen = self.listen.clone();
        let mut args = vec![
            "coordinator",
            "--sweep",
            sweep.to_str().expect("utf-8 path"),
            "--out",
            out.to_str().expect("utf-8 path"),
            "--state",
            state.to_str().expect("utf-8 path"),
            "--listen",
            &listen,
            "--lease-secs",
            "2",
            "--heartbeat-secs",
            "0.5",
            "--speculate-after-secs",
            "1",
            "--linger-secs",
            "5",
        ];
        args.extend_from_slice(extra);
        let owned: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let refs: Vec<&str> = owned.iter().map(String::as_str).collect();
        self.spawn("coordinator", &refs, env)
    }

    fn worker(&self, name: &str, env: &[(&str, &str)]) -> Proc {
        let url = self.url();
        self.spawn(
            name,
            &[
                "worker",
                "--coordinator",
                &url,
                "--threads",
                "1",
                "--give-up-after-secs",
                "60",
            ],
            env,
        )
    }

    fn status(&self) -> Option<StatusResponse> {
        let options = ConnectOptions {
            url: self.url(),
            ..ConnectOptions::default()
        };
        runtime().block_on(async {
            let mut client = options.connect().await.ok()?;
            Some(
                client
                    .status(StatusRequest::default())
                    .await
                    .ok()?
                    .into_inner(),
            )
        })
    }

    /// Polls the coordinator until `pred` holds.
    fn wait_status(&self, what: &str, pred: impl Fn(&StatusResponse) -> bool) -> StatusResponse {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = self.status()
                && pred(&status)
            {
                return status;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime")
}

/// Reads the dataset with the exactly-once checks of `support::read_checked`,
/// normalized for comparison.
fn read_checked(out: &Path, sweep: &Sweep) -> Vec<ResultRow> {
    support::normalized(support::read_checked(out, sweep))
}

/// `hammer run SWEEP --out OUT --threads 1`, which must succeed.
fn run_single_thread(sweep_path: &Path, out: &Path) {
    support::ok(&hammer(&[
        "run",
        sweep_path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "1",
    ]));
}

/// `hammer run` of the same sweep into a fresh directory: the single-process reference.
fn reference_run(sweep_text: &str) -> Vec<ResultRow> {
    let dir = tempfile::tempdir().expect("temp dir");
    let sweep_path = dir.path().join("sweep.toml");
    std::fs::write(&sweep_path, sweep_text).expect("write sweep");
    let out = dir.path().join("out");
    run_single_thread(&sweep_path, &out);
    let sweep = Sweep::parse(sweep_text, "test").expect("sweep parses");
    read_checked(&out, &sweep)
}

#[test]
fn three_workers_write_every_key_once_and_match_direct_solving() {
    let cluster = Cluster::new(SMALL);
    let mut coordinator = cluster.coordinator(&[], &[]);
    let mut workers: Vec<Proc> = (0..3)
        .map(|i| cluster.worker(&format!("worker{i}"), &[]))
        .collect();
    coordinator.wait_ok(Duration::from_secs(120));
    for w in &mut workers {
        w.wait_ok(Duration::from_secs(30));
    }
    let sweep = Sweep::parse(SMALL, "test").unwrap();
    let rows = read_checked(&cluster.out(), &sweep);

    // A few games solved directly with the worker's function must match the cluster.
    let mut solvers = hammer_worker::GameSolvers::new();
    for unit in sweep.units().iter().step_by(7) {
        let shared = hammer_sweep::UnitRows::new(&sweep, unit).expect("unit of the sweep");
        for index in [unit.start, unit.end - 1] {
            let game =
                hammer_worker::solve_game(&sweep, unit, index, &mut solvers).expect("direct solve");
            let direct = shared.owned_row(&game, "", hammer_worker::HAMMER_VERSION);
            let key = direct.key();
            let row = rows
                .iter()
                .find(|r| r.key() == key)
                .expect("key in dataset");
            assert_eq!(support::normalized(vec![direct])[0], *row);
        }
    }

    // Determinism: one worker in one process gives the same rows as three.
    assert_eq!(reference_run(SMALL), rows);
    // The journal has one commit line per unit.
    let journal = std::fs::read_to_string(cluster.path("state/journal.log")).unwrap();
    assert_eq!(
        journal.lines().filter(|l| l.starts_with("commit ")).count(),
        sweep.units().len()
    );
}

#[test]
fn a_worker_killed_mid_unit_loses_nothing() {
    let cluster = Cluster::new(SLOW);
    let mut coordinator = cluster.coordinator(&[], &[]);
    let mut victim = cluster.worker("victim", &[]);
    // The victim alone first, so it certainly holds a unit with results in flight.
    cluster.wait_status("results of a partly done unit", |s| {
        s.games_pending > 0 && s.units_committed >= 1
    });
    victim.kill9();
    let mut survivor = cluster.worker("survivor", &[]);
    coordinator.wait_ok(Duration::from_secs(120));
    survivor.wait_ok(Duration::from_secs(30));
    let sweep = Sweep::parse(SLOW, "test").unwrap();
    let rows = read_checked(&cluster.out(), &sweep);
    assert_eq!(reference_run(SLOW), rows);
}

#[test]
fn coordinator_sigterm_then_sigkill_then_restart_completes_exactly_once() {
    let cluster = Cluster::new(SLOW);
    let sweep = Sweep::parse(SLOW, "test").unwrap();
    let mut coordinator = cluster.coordinator(&[], &[]);
    let mut workers: Vec<Proc> = (0..2)
        .map(|i| cluster.worker(&format!("worker{i}"), &[]))
        .collect();
    let pids: Vec<u32> = workers.iter().map(Proc::pid).collect();

    // SIGTERM: drains, commits what is complete, exits 0.
    cluster.wait_status("a first commit", |s| s.units_committed >= 1 && !s.complete);
    coordinator.sigterm();
    coordinator.wait_ok(Duration::from_secs(30));
    let journal = std::fs::read_to_string(cluster.path("state/journal.log")).unwrap();
    let committed = journal.lines().filter(|l| l.starts_with("commit ")).count();
    assert_eq!(
        list_parts(&cluster.out()).unwrap().len(),
        committed,
        "every part is journaled after a clean stop"
    );

    // Restart; then SIGKILL in the middle of the sweep.
    let mut coordinator = cluster.coordinator(&[], &[]);
    cluster.wait_status("progress after the restart", |s| {
        s.units_committed as usize > committed && s.games_pending > 0 && !s.complete
    });
    coordinator.kill9();
    // A torn journal line, as a crash during an append leaves, must be tolerated.
    {
        use std::io::Write;
        let mut journal = std::fs::OpenOptions::new()
            .append(true)
            .open(cluster.path("state/journal.log"))
            .unwrap();
        journal.write_all(b"commit e000-c0000-n6-g0000000").unwrap();
    }
    std::thread::sleep(Duration::from_millis(300));

    // The workers kept their results and reconnect to the restarted coordinator.
    let mut coordinator = cluster.coordinator(&[], &[]);
    coordinator.wait_ok(Duration::from_secs(120));
    for w in &mut workers {
        w.wait_ok(Duration::from_secs(30));
    }
    assert!(coordinator.log_text().contains("torn last journal line"));
    // Each worker process keeps one id through its reconnects to three coordinators, so
    // the `worker` column names at most the two processes (default name HOST-PID).
    let names: std::collections::BTreeSet<String> = read_dataset(&cluster.out())
        .unwrap()
        .into_iter()
        .map(|r| r.worker)
        .collect();
    assert!(names.len() <= 2, "one id per worker process: {names:?}");
    for name in &names {
        assert!(
            pids.iter().any(|pid| name.contains(&format!("-{pid}-"))),
            "{name} names one of the worker processes {pids:?}"
        );
    }
    let rows = read_checked(&cluster.out(), &sweep);
    // Identical to an uninterrupted single-worker run.
    assert_eq!(reference_run(SLOW), rows);
    // Resume of a complete sweep says so.
    let again = cluster.coordinator(&[], &[]).wait(Duration::from_secs(30));
    assert_eq!(again, 0);
}

#[test]
fn a_malformed_sweep_is_refused_with_its_location_and_nothing_is_written() {
    let cluster = Cluster::new(
        "name = \"bad\"\nseed = 1\n\n[[experiment]]\nname = \"x\"\nsizes = [4]\ngames = 10\norders = [\"sideways\"]\nschedules = [\"exact\"]\n",
    );
    let mut coordinator = cluster.coordinator(&[], &[]);
    assert_ne!(coordinator.wait(Duration::from_secs(30)), 0);
    let log = coordinator.log_text();
    assert!(
        log.contains("sweep.toml:8:"),
        "the error names file and line: {log}"
    );
    assert!(log.contains("orders"), "the error names the key: {log}");
    assert!(
        !cluster.out().exists() && !cluster.path("state").exists(),
        "nothing is written"
    );

    let out = cluster.out();
    let sweep = cluster.path("sweep.toml");
    let output = hammer(&[
        "run",
        sweep.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("sweep.toml:8:"));
    assert!(!out.exists());
}

#[test]
fn a_port_in_use_is_reported_with_its_cause_once() {
    let cluster = Cluster::new(SMALL);
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let addr = taken.local_addr().expect("the port's address").to_string();
    let sweep = cluster.path("sweep.toml");
    let out = cluster.out();
    let output = hammer(&[
        "coordinator",
        "--sweep",
        sweep.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--listen",
        &addr,
    ]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!("error: cannot listen on {addr}: ")),
        "the error names the address, then its cause: {stderr}"
    );
    assert_eq!(
        stderr.matches("already in use").count(),
        1,
        "the cause is printed once: {stderr}"
    );
}

#[test]
fn a_wrong_or_missing_token_is_refused_on_both_sides() {
    let cluster = Cluster::new(SMALL);
    let mut coordinator = cluster.coordinator(&[], &[("HAMMER_TOKEN", "s3cret-token")]);
    std::thread::sleep(Duration::from_millis(300));
    let mut wrong = cluster.worker("wrong", &[("HAMMER_TOKEN", "guess")]);
    assert_ne!(wrong.wait(Duration::from_secs(30)), 0);
    let log = wrong.log_text();
    assert!(
        log.contains("refused this worker's token: wrong token"),
        "{log}"
    );
    let mut missing = cluster.worker("missing", &[]);
    assert_ne!(missing.wait(Duration::from_secs(30)), 0);
    assert!(
        missing
            .log_text()
            .contains("requires a token and none was sent"),
        "{}",
        missing.log_text()
    );
    let log = coordinator.log_text();
    assert!(
        log.contains("refused a request with a wrong token"),
        "{log}"
    );
    assert!(log.contains("refused a request without a token"), "{log}");
    assert!(
        list_parts(&cluster.out()).map_or(true, |p| p.is_empty()),
        "nothing is written"
    );

    // The right token works.
    let token_file = cluster.path("token");
    std::fs::write(&token_file, "s3cret-token\n").unwrap();
    let url = cluster.url();
    let mut right = cluster.spawn(
        "right",
        &[
            "worker",
            "--coordinator",
            &url,
            "--threads",
            "1",
            "--token-file",
            token_file.to_str().unwrap(),
        ],
        &[],
    );
    coordinator.wait_ok(Duration::from_secs(120));
    assert_eq!(right.wait(Duration::from_secs(30)), 0);

    // Listening beyond loopback without a token is refused before anything starts.
    let mut other = Cluster::new(SMALL);
    other.listen = format!("0.0.0.0:{}", other.port);
    let mut open = other.coordinator(&[], &[]);
    assert_ne!(open.wait(Duration::from_secs(30)), 0);
    assert!(
        open.log_text().contains("requires a shared token"),
        "{}",
        open.log_text()
    );
}

#[test]
fn forged_results_and_old_protocols_are_refused() {
    let cluster = Cluster::new(SMALL);
    let mut coordinator = cluster.coordinator(&[], &[]);
    cluster.wait_status("the coordinator", |_| true);
    let options = ConnectOptions {
        url: cluster.url(),
        ..ConnectOptions::default()
    };
    runtime().block_on(async {
        let mut client = options.connect().await.unwrap();
        let old = client
            .register(RegisterRequest {
                protocol_version: PROTOCOL_VERSION + 1,
                name: "future".into(),
                threads: 1,
                hammer_version: "9.9.9".into(),
                instance: String::new(),
                peer_addr: String::new(),
            })
            .await
            .expect_err("another protocol version is refused");
        assert_eq!(old.code(), tonic::Code::FailedPrecondition);
        assert!(
            old.message()
                .contains(&format!("protocol {}", PROTOCOL_VERSION + 1))
                && old
                    .message()
                    .contains(&format!("speaks {PROTOCOL_VERSION}")),
            "{}",
            old.message()
        );

        let reg = client
            .register(RegisterRequest {
                protocol_version: PROTOCOL_VERSION,
                name: "forger".into(),
                threads: 1,
                hammer_version: "0".into(),
                instance: String::new(),
                peer_addr: String::new(),
            })
            .await
            .unwrap()
            .into_inner();
        let lease = match client
            .lease(LeaseRequest {
                worker_id: reg.worker_id.clone(),
                ..LeaseRequest::default()
            })
            .await
            .unwrap()
            .into_inner()
            .outcome
        {
            Some(lease_response::Outcome::Lease(lease)) => lease,
            other => panic!("expected a lease, got {other:?}"),
        };
        let unit = lease.unit.unwrap();
        let sweep = Sweep::parse(SMALL, "test").unwrap();
        let experiment = &sweep.experiments[unit.experiment as usize];
        let config = &experiment.configs[unit.config as usize];
        let good = |game_index| GameResult {
            game_index,
            board: "A1B2/B1A2".into(),
            start: "A1B2/B1A2".into(),
            score: 1,
            ..GameResult::default()
        };
        // Every game of the unit, plus one just past its end.
        let mut results: Vec<GameResult> = (unit.start..unit.end).map(good).collect();
        results.push(good(unit.end));
        let header = ResultBatch {
            worker_id: reg.worker_id.clone(),
            lease_id: lease.lease_id.clone(),
            experiment: experiment.name.clone(),
            config: config.id.clone(),
            n: unit.n,
            params: format!("n={}", unit.n),
            results: Vec::new(),
            written: None,
        };
        // One batch on a Submit stream of its own; its answer.
        let mut submit_one = async |batch: ResultBatch| {
            let (tx, rx) = tokio::sync::mpsc::channel(1);
            tx.send(batch).await.unwrap();
            drop(tx);
            let mut acks = client
                .submit(tokio_stream::wrappers::ReceiverStream::new(rx))
                .await
                .unwrap()
                .into_inner();
            acks.message().await
        };
        let batch = ResultBatch {
            results,
            ..header.clone()
        };
        let refused = submit_one(batch)
            .await
            .expect_err("the forged batch is refused");
        assert_eq!(refused.code(), tonic::Code::InvalidArgument);
        assert!(
            refused
                .message()
                .contains(&format!("game index {} is outside the lease", unit.end)),
            "{}",
            refused.message()
        );
        // A worker that says it put the unit's part, when the dataset has no such part.
        let claim = ResultBatch {
            written: Some(UnitWritten {
                unit_id: unit.unit_id.clone(),
                games: unit.end - unit.start,
                solvable: 0,
                expansions: 0,
                bytes: 4096,
            }),
            ..header
        };
        let refused = submit_one(claim).await.expect_err("the claim is refused");
        assert_eq!(refused.code(), tonic::Code::FailedPrecondition);
        assert!(
            refused.message().contains("no such part"),
            "{}",
            refused.message()
        );
        let status = client
            .status(StatusRequest::default())
            .await
            .unwrap()
            .into_inner();
        assert_eq!(
            status.games_pending, 0,
            "nothing of the forged batch is kept"
        );
        assert!(status.refused > 0);
    });
    assert!(
        list_parts(&cluster.out()).map_or(true, |p| p.is_empty()),
        "nothing is written"
    );
    coordinator.sigterm();
    assert_eq!(coordinator.wait(Duration::from_secs(30)), 0);
    assert!(
        coordinator.log_text().contains("refused a result batch"),
        "logged"
    );
}

#[test]
fn python_readers_read_a_dataset_made_by_hammer_run() {
    if support::python().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sweep_path = dir.path().join("sweep.toml");
    std::fs::write(&sweep_path, SMALL).unwrap();
    let out = dir.path().join("out");
    let output = hammer(&[
        "run",
        sweep_path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The state directory sits inside the dataset, hidden.
    assert!(out.join(".hammer-state/journal.log").exists());
    let rows = read_dataset(&out).unwrap();
    let expansions: i64 = rows.iter().map(|r| r.expansions).sum();
    let summaries = support::python_readers(&out, rows.len()).expect("HAMMER_PYTHON");
    for s in &summaries {
        assert_eq!(s["sum_expansions"].as_i64(), Some(expansions), "{s}");
        assert_eq!(s["experiments"], serde_json::json!(["small"]), "{s}");
        assert_eq!(s["n_values"], serde_json::json!([4, 5]), "{s}");
    }
}

/// `hammer analyze --format json` on `out`: (the report's JSON, stderr).
fn analyze_json(out: &Path) -> (serde_json::Value, String) {
    let output = hammer(&["analyze", out.to_str().unwrap(), "--format", "json"]);
    let stdout = support::ok(&output);
    let json = serde_json::from_str(&stdout).expect("analyze prints JSON");
    (json, String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn analyze_reads_the_coordinators_journal_to_say_how_complete_the_sweep_is() {
    let cluster = Cluster::new(SMALL);
    let out = cluster.out();
    let sweep_path = cluster.path("sweep.toml");
    run_single_thread(&sweep_path, &out);
    let sweep = Sweep::parse(SMALL, "test").unwrap();
    let units = sweep.units().len() as u64;

    // Finished: the journal says so, and there is nothing to warn about.
    let (json, stderr) = analyze_json(&out);
    let state = &json["completeness"]["sweep_state"];
    assert_eq!(state["sweep"], "cluster-small");
    assert_eq!(state["units"], units);
    assert_eq!(state["units_committed"], units);
    assert_eq!(state["games_committed"], sweep.total_games());
    assert_eq!(state["running"], false);
    assert!(!stderr.contains("warning"), "{stderr}");

    // A coordinator holding the state directory: the sweep may be running.
    let state_dir = out.join(".hammer-state");
    let mut coordinator = cluster.spawn(
        "coordinator",
        &[
            "coordinator",
            "--sweep",
            sweep_path.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--state",
            state_dir.to_str().unwrap(),
            "--listen",
            &cluster.listen,
            "--stay-after-complete",
        ],
        &[],
    );
    cluster.wait_status("the coordinator", |s| s.complete);
    let (json, stderr) = analyze_json(&out);
    assert_eq!(json["completeness"]["sweep_state"]["running"], true);
    assert!(stderr.contains("a coordinator is running"), "{stderr}");
    coordinator.sigterm();
    assert_eq!(coordinator.wait(Duration::from_secs(30)), 0);

    // A journal cut back to its header and 5 commits, as after an interrupted run: an
    // unfinished sweep, with the exact count.
    let journal = out.join(".hammer-state/journal.log");
    let text = std::fs::read_to_string(&journal).unwrap();
    let kept: String = text.lines().take(6).map(|l| format!("{l}\n")).collect();
    std::fs::write(&journal, kept).unwrap();
    let (json, stderr) = analyze_json(&out);
    assert_eq!(json["completeness"]["sweep_state"]["units_committed"], 5);
    assert!(
        stderr.contains(&format!("is unfinished: 5 of {units} units committed")),
        "{stderr}"
    );

    // Part files gone after the sweep wrote them: the journal says more than the rows.
    std::fs::write(&journal, &text).unwrap();
    let part = list_parts(&out).unwrap().remove(0);
    std::fs::remove_file(&part.path).unwrap();
    let (_, stderr) = analyze_json(&out);
    assert!(
        stderr.contains("part files were removed or moved"),
        "{stderr}"
    );
}
