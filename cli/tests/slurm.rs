//! hammer under a real Slurm: the test starts a one-node cluster of its own on this
//! machine (munged, slurmctld and slurmd from Debian's `slurm-wlm`, with a config made
//! here: four CPUs declared, process tracking by process group, no cgroups, everything
//! on loopback), then submits `deploy/slurm/hammer.sbatch` (the file users run) with
//! `sbatch`. While the sweep runs it cancels the job with `scancel`, submits the same
//! command again, and checks that the second job completes the sweep: the dataset must
//! be exactly the one `hammer run` makes. Then a sweep of gang games (`gang = 2`)
//! runs with two worker loops, whose peers reach each other at the node's
//! host name: every gang's minimum must be the game's searched alone. Last, the script
//! with a directory alone runs a standing cluster: two sweeps submitted from outside the
//! job with the user token it wrote complete as `hammer run` makes them, and the job
//! stands until `scancel`.
//!
//! Without Slurm the test prints SKIPPED, unless `HAMMER_REQUIRE_SLURM=1` (set by
//! `.ci/run`, which installs `slurm-wlm`).

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use hammer_sweep::Sweep;
use support::{HAMMER, Proc, free_port};

/// 6x6 Martello games, exact: about a minute of CPU in the debug build the tests run,
/// in 20 units, so that the cancel lands in the middle of the sweep.
const SWEEP: &str = r#"
name = "slurm-real"
seed = 4

[[experiment]]
name = "six"
sizes = [6]
games = 5000
orders = ["standard"]
schedules = ["exact"]
unit_games = 250
"#;

/// Games for gangs of two (the two worker loops of `HAMMER_LEASES=2` on the one node),
/// beside plain games.
const GANG_SWEEP: &str = r#"
name = "slurm-gang"
seed = 2013

[[experiment]]
name = "shared"
sizes = [6]
games = 4
gang = 2

[[experiment]]
name = "plain"
sizes = [5]
games = 4
"#;

const PROGRAMS: [&str; 6] = [
    "munged",
    "slurmctld",
    "slurmd",
    "sbatch",
    "scancel",
    "scontrol",
];

/// Where `program` is: on PATH, or in /usr/sbin (daemons, not on every user's PATH).
fn find(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/sbin")])
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// A one-node Slurm cluster in a directory of its own; stops its jobs and daemons when
/// dropped, whether the test passed or not.
struct Cluster {
    dir: tempfile::TempDir,
    conf: PathBuf,
    jobs: Vec<String>,
    // Dropped (killed) in reverse order of start: slurmd, slurmctld, munged.
    daemons: Vec<Proc>,
}

impl Cluster {
    fn start() -> Cluster {
        let dir = tempfile::tempdir().expect("temp dir");
        // munged wants its socket's directory open to all.
        set_mode(dir.path(), 0o755);
        let path = |name: &str| dir.path().join(name);
        for sub in ["state", "spool", "log"] {
            std::fs::create_dir(path(sub)).expect("mkdir");
        }
        let mut key = vec![0u8; 1024];
        std::io::Read::read_exact(
            &mut std::fs::File::open("/dev/urandom").expect("open /dev/urandom"),
            &mut key,
        )
        .expect("read /dev/urandom");
        std::fs::write(path("munge.key"), key).expect("write munge key");
        set_mode(&path("munge.key"), 0o400);
        let munged = Proc::spawn(
            "munged",
            &text(&find("munged").expect("munged")),
            &[
                "--foreground".to_owned(),
                format!("--socket={}", text(&path("munge.socket"))),
                format!("--key-file={}", text(&path("munge.key"))),
                format!("--pid-file={}", text(&path("munged.pid"))),
                format!("--seed-file={}", text(&path("munged.seed"))),
                format!("--log-file={}", text(&path("log/munged.log"))),
            ],
            &[],
            path("log/munged.out"),
        );
        let host = String::from_utf8(
            Command::new("hostname")
                .arg("-s")
                .output()
                .expect("hostname")
                .stdout,
        )
        .expect("UTF-8 host name")
        .trim()
        .to_owned();
        let d = text(dir.path());
        let conf = format!(
            "ClusterName=hammertest\n\
             SlurmctldHost={host}(127.0.0.1)\n\
             SlurmctldPort={ctld}\n\
             SlurmdPort={slurmd}\n\
             SlurmUser=root\n\
             AuthType=auth/munge\n\
             AuthInfo=socket={d}/munge.socket\n\
             StateSaveLocation={d}/state\n\
             SlurmdSpoolDir={d}/spool\n\
             SlurmctldPidFile={d}/slurmctld.pid\n\
             SlurmdPidFile={d}/slurmd.pid\n\
             SlurmctldLogFile={d}/log/slurmctld.log\n\
             SlurmdLogFile={d}/log/slurmd.log\n\
             ProctrackType=proctrack/pgid\n\
             TaskPlugin=task/none\n\
             SelectType=select/cons_tres\n\
             SelectTypeParameters=CR_CPU\n\
             JobAcctGatherType=jobacct_gather/none\n\
             AccountingStorageType=accounting_storage/none\n\
             MpiDefault=none\n\
             ReturnToService=2\n\
             SlurmdParameters=config_overrides\n\
             MinJobAge=3600\n\
             KillWait=10\n\
             NodeName=localhost NodeHostname={host} NodeAddr=127.0.0.1 CPUs=4 State=UNKNOWN\n\
             PartitionName=hammer Nodes=ALL Default=YES MaxTime=60 State=UP\n",
            ctld = free_port(),
            slurmd = free_port(),
        );
        let conf_path = path("slurm.conf");
        std::fs::write(&conf_path, conf).expect("write slurm.conf");
        let mut cluster = Cluster {
            conf: conf_path.clone(),
            dir,
            jobs: Vec::new(),
            daemons: vec![munged],
        };
        cluster.wait_for("munged", || {
            cluster.dir.path().join("munge.socket").exists()
        });
        let conf = text(&conf_path);
        let env = [("SLURM_CONF", conf.as_str())];
        let ctld = Proc::spawn(
            "slurmctld",
            &text(&find("slurmctld").expect("slurmctld")),
            &["-D".to_owned(), "-f".to_owned(), conf.clone()],
            &env,
            cluster.dir.path().join("log/slurmctld.out"),
        );
        cluster.daemons.push(ctld);
        let slurmd = Proc::spawn(
            "slurmd",
            &text(&find("slurmd").expect("slurmd")),
            &[
                "-D".to_owned(),
                "-f".to_owned(),
                conf.clone(),
                "-N".to_owned(),
                "localhost".to_owned(),
            ],
            &env,
            cluster.dir.path().join("log/slurmd.out"),
        );
        cluster.daemons.push(slurmd);
        cluster.wait_for("the node to be idle", || {
            let out = cluster.slurm("sinfo", &["-h", "-o", "%T"]);
            String::from_utf8_lossy(&out.stdout).trim() == "idle"
        });
        cluster
    }

    /// Runs a Slurm client command against this cluster.
    fn slurm(&self, program: &str, args: &[&str]) -> Output {
        Command::new(find(program).unwrap_or_else(|| PathBuf::from(program)))
            .args(args)
            .env("SLURM_CONF", &self.conf)
            .env_remove("HAMMER_TOKEN")
            .output()
            .unwrap_or_else(|e| panic!("run {program}: {e}"))
    }

    /// `sbatch --parsable ARGS`, with `env` added to the job's environment; the job id.
    fn sbatch(&mut self, args: &[&str], env: &[(&str, &str)]) -> String {
        let out = Command::new(find("sbatch").expect("sbatch"))
            .arg("--parsable")
            .args(args)
            .env("SLURM_CONF", &self.conf)
            .env_remove("HAMMER_TOKEN")
            .envs(env.iter().copied())
            .output()
            .expect("run sbatch");
        assert!(
            out.status.success(),
            "sbatch failed: {}\n{}",
            String::from_utf8_lossy(&out.stderr),
            self.logs()
        );
        let id = String::from_utf8_lossy(&out.stdout)
            .trim()
            .split(';')
            .next()
            .expect("a job id")
            .to_owned();
        self.jobs.push(id.clone());
        id
    }

    /// `JobState` and `ExitCode` of a job, from `scontrol show job`.
    fn job(&self, id: &str) -> (String, String) {
        let out = self.slurm("scontrol", &["show", "job", "-o", id]);
        let text = String::from_utf8_lossy(&out.stdout);
        let field = |name: &str| {
            text.split_whitespace()
                .find_map(|w| w.strip_prefix(name))
                .unwrap_or_default()
                .to_owned()
        };
        (field("JobState="), field("ExitCode="))
    }

    /// Waits for a job to leave the queue; its final state and exit code.
    fn wait_job(&self, id: &str, limit: Duration) -> (String, String) {
        let started = Instant::now();
        loop {
            let (state, code) = self.job(id);
            if !["PENDING", "RUNNING", "COMPLETING", "CONFIGURING", ""].contains(&state.as_str()) {
                return (state, code);
            }
            assert!(
                started.elapsed() < limit,
                "job {id} still {state} after {limit:?}\n{}",
                self.logs()
            );
            std::thread::sleep(Duration::from_millis(500));
        }
    }

    #[track_caller]
    fn wait_for(&self, what: &str, mut done: impl FnMut() -> bool) {
        let started = Instant::now();
        while !done() {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "timed out waiting for {what}\n{}",
                self.logs()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn logs(&self) -> String {
        let mut out = String::new();
        for name in ["slurmctld.log", "slurmd.log", "munged.log"] {
            let text =
                std::fs::read_to_string(self.dir.path().join("log").join(name)).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(20).collect();
            out += &format!("--- {name}\n");
            for line in tail.iter().rev() {
                out += line;
                out.push('\n');
            }
        }
        out
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if self.jobs.is_empty() {
            return;
        }
        let ids: Vec<&str> = self.jobs.iter().map(String::as_str).collect();
        let _ = self.slurm("scancel", &ids);
        // Let slurmd end the jobs' steps before it goes.
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline
            && self.jobs.iter().any(|id| {
                matches!(
                    self.job(id).0.as_str(),
                    "RUNNING" | "COMPLETING" | "PENDING" | "CONFIGURING"
                )
            })
        {
            std::thread::sleep(Duration::from_millis(500));
        }
    }
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

fn text(path: &Path) -> String {
    path.to_str().expect("UTF-8 path").to_owned()
}

#[test]
fn sbatch_runs_a_sweep_resumes_it_forms_gangs_and_stands_for_submitted_sweeps() {
    let missing: Vec<&str> = PROGRAMS.into_iter().filter(|p| find(p).is_none()).collect();
    if !missing.is_empty() {
        assert!(
            std::env::var("HAMMER_REQUIRE_SLURM").as_deref() != Ok("1"),
            "HAMMER_REQUIRE_SLURM=1 but {missing:?} are not installed"
        );
        println!("SKIPPED: {missing:?} not installed (Debian: apt-get install slurm-wlm)");
        return;
    }
    let mut cluster = Cluster::start();
    let work = tempfile::tempdir().expect("temp dir");
    let sweep_path = work.path().join("sweep.toml");
    std::fs::write(&sweep_path, SWEEP).expect("write sweep");
    let run = work.path().join("run1");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/slurm/hammer.sbatch");
    let output = text(&work.path().join("hammer-%j.out"));
    let port = free_port().to_string();
    // What a user types, with this cluster's partition, one node and a time limit.
    let (script, sweep_arg, run_arg) = (text(&script), text(&sweep_path), text(&run));
    let args = [
        "--partition=hammer",
        "--nodes=1",
        "--time=00:20:00",
        &format!("--output={output}"),
        &script,
        &sweep_arg,
        &run_arg,
    ];
    let env = [("HAMMER", HAMMER), ("HAMMER_PORT", port.as_str())];
    let job_output = |id: &str| {
        std::fs::read_to_string(work.path().join(format!("hammer-{id}.out"))).unwrap_or_default()
    };

    let started = Instant::now();
    let first = cluster.sbatch(&args, &env);
    let results = run.join("results");
    let parts = || {
        hammer_dataset::list_parts(&results)
            .map(|p| p.len())
            .unwrap_or(0)
    };
    cluster.wait_for("the first unit", || parts() > 0);
    println!(
        "first unit written {:.1} s after sbatch",
        started.elapsed().as_secs_f64()
    );
    // scancel: SIGTERM to the job's steps; the coordinator journals its complete units.
    let cancel = cluster.slurm("scancel", &[&first]);
    assert!(cancel.status.success(), "scancel: {cancel:?}");
    let (state, _) = cluster.wait_job(&first, Duration::from_secs(120));
    assert_eq!(state, "CANCELLED", "{}", job_output(&first));
    let sweep = Sweep::parse(SWEEP, "slurm test").expect("sweep parses");
    let units = sweep.units().len();
    let after_cancel = parts();
    assert!(
        after_cancel < units,
        "the sweep was complete before the cancel"
    );
    println!("cancelled with {after_cancel} of {units} units written");

    // The same command again resumes from the journal.
    let second = cluster.sbatch(&args, &env);
    let (state, code) = cluster.wait_job(&second, Duration::from_secs(600));
    let log = job_output(&second);
    assert_eq!(
        (state.as_str(), code.as_str()),
        ("COMPLETED", "0:0"),
        "{log}"
    );
    assert!(log.contains("coordinator on localhost"), "{log}");
    assert!(log.contains("coordinator exited with 0"), "{log}");
    println!(
        "sweep complete {:.1} s after the first sbatch",
        started.elapsed().as_secs_f64()
    );

    // Every key once, one part per unit, and the rows of `hammer run`.
    let rows = support::normalized(support::read_checked(&results, &sweep));
    let reference = work.path().join("reference");
    support::ok(&support::hammer(&[
        "run",
        &sweep_arg,
        "--out",
        &text(&reference),
    ]));
    let expected = support::normalized(support::read_checked(&reference, &sweep));
    assert_eq!(rows.len(), expected.len());
    assert!(rows == expected, "the rows differ from `hammer run`'s");
    let names = |dir: &Path| -> Vec<String> {
        let mut names: Vec<String> = hammer_dataset::list_parts(dir)
            .expect("list parts")
            .iter()
            .map(|p| {
                p.path
                    .strip_prefix(dir)
                    .unwrap_or(&p.path)
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        names.sort();
        names
    };
    assert_eq!(names(&results), names(&reference), "the same part files");
    support::python_readers(&results, rows.len());

    // A gang sweep: one worker of two loops on the node, which reach each other at the
    // node's host name and the ports from HAMMER_PEER_PORT on.
    let gang_path = work.path().join("gang.toml");
    std::fs::write(&gang_path, GANG_SWEEP).expect("write sweep");
    let gang_run = work.path().join("gang");
    let (gang_arg, gang_run_arg) = (text(&gang_path), text(&gang_run));
    let gang_args = [
        "--partition=hammer",
        "--nodes=1",
        "--time=00:20:00",
        &format!("--output={output}"),
        &script,
        &gang_arg,
        &gang_run_arg,
    ];
    let peer_port = free_port().to_string();
    let gang_env = [
        ("HAMMER", HAMMER),
        ("HAMMER_PORT", port.as_str()),
        ("HAMMER_PEER_PORT", peer_port.as_str()),
        ("HAMMER_LEASES", "2"),
    ];
    let gang_started = Instant::now();
    let gang_job = cluster.sbatch(&gang_args, &gang_env);
    let (state, code) = cluster.wait_job(&gang_job, Duration::from_secs(600));
    let log = job_output(&gang_job);
    assert_eq!(
        (state.as_str(), code.as_str()),
        ("COMPLETED", "0:0"),
        "{log}"
    );
    println!(
        "gang sweep complete {:.1} s after its sbatch",
        gang_started.elapsed().as_secs_f64()
    );
    let rows =
        support::gang::check_gang_dataset(&gang_run.join("results"), GANG_SWEEP, work.path());
    assert_eq!(rows.iter().filter(|r| r.gang_size == Some(2)).count(), 4);

    standing_cluster(&mut cluster, work.path(), &script, &output);
}

/// The script with a directory alone: a standing cluster, up until `scancel`, that takes
/// two sweeps submitted from outside the job with the user token it wrote.
fn standing_cluster(cluster: &mut Cluster, work: &Path, script: &str, output: &str) {
    let dir = work.join("cluster");
    let args = [
        "--partition=hammer",
        "--nodes=1",
        "--time=00:20:00",
        &format!("--output={output}"),
        script,
        &text(&dir),
    ];
    let port = free_port().to_string();
    let env = [("HAMMER", HAMMER), ("HAMMER_PORT", port.as_str())];
    let started = Instant::now();
    let job = cluster.sbatch(&args, &env);
    let url_file = dir.join("coordinator.url");
    cluster.wait_for("the standing coordinator's URL", || url_file.is_file());
    println!(
        "standing coordinator serving {:.1} s after sbatch",
        started.elapsed().as_secs_f64()
    );
    let url = std::fs::read_to_string(&url_file).expect("read coordinator.url");
    let url = url.trim();
    let user_token = text(&dir.join("user.token"));
    let client = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend_from_slice(&["--coordinator", url, "--token-file", &user_token]);
        support::hammer(&all)
    };
    let sweeps = [("first", 11, 300), ("second", 12, 200)];
    let mut files = Vec::new();
    for (name, seed, games) in sweeps {
        let file = work.join(format!("{name}.toml"));
        std::fs::write(
            &file,
            format!(
                "name = \"{name}\"\nseed = {seed}\n\n[[experiment]]\nname = \"exact\"\nsizes = [5]\ngames = {games}\nunit_games = 25\n"
            ),
        )
        .expect("write sweep");
        let out = support::ok(&client(&["submit", &text(&file)]));
        assert!(out.contains(name), "{out}");
        files.push((name, file));
    }
    // The worker's token may not submit: the roles hold on Slurm too.
    let refused = support::hammer(&[
        "submit",
        &text(&files[0].1),
        "--coordinator",
        url,
        "--token-file",
        &text(&dir.join("worker.token")),
    ]);
    assert!(!refused.status.success());
    for (name, file) in &files {
        support::ok(&client(&["wait", name]));
        let sweep = Sweep::parse(&std::fs::read_to_string(file).expect("read"), "sweep")
            .expect("sweep parses");
        let rows = support::normalized(support::read_checked(
            &dir.join("datasets").join(name),
            &sweep,
        ));
        let reference = work.join(format!("reference-{name}"));
        support::ok(&support::hammer(&[
            "run",
            &text(file),
            "--out",
            &text(&reference),
        ]));
        let expected = support::normalized(support::read_checked(&reference, &sweep));
        assert!(
            rows == expected,
            "{name}: the rows differ from `hammer run`'s"
        );
    }
    println!(
        "both submitted sweeps complete {:.1} s after sbatch",
        started.elapsed().as_secs_f64()
    );
    let table = support::ok(&client(&["sweeps"]));
    assert_eq!(table.matches(" complete ").count(), 2, "{table}");
    // The cluster stands until it is cancelled.
    assert_eq!(cluster.job(&job).0, "RUNNING");
    let cancel = cluster.slurm("scancel", &[&job]);
    assert!(cancel.status.success(), "scancel: {cancel:?}");
    let (state, _) = cluster.wait_job(&job, Duration::from_secs(120));
    assert_eq!(state, "CANCELLED");
}
