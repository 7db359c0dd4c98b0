//! Real programs run through the runner: exit codes, signals, each limit, a clean
//! environment, output past the limit, the CPU and memory of children, and no process
//! of the group left behind. The programs are `/bin/sh` and Debian's `/usr/bin/python3`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hammer_exec::{Command, Exit, Limits, RunStatus, Termination, Verdict, run};

const PYTHON: &str = "/usr/bin/python3";

fn command(program: &str, args: &[&str], dir: &Path) -> Command {
    Command {
        program: PathBuf::from(program),
        args: args.iter().map(OsString::from).collect(),
        dir: dir.to_owned(),
        env: vec![("HAMMER_SEED".into(), "7".into())],
        stdin: Vec::new(),
        limits: Limits::default(),
    }
}

fn sh(script: &str, dir: &Path) -> Command {
    command("/bin/sh", &["-c", script], dir)
}

fn python(script: &str, dir: &Path) -> Command {
    assert!(
        Path::new(PYTHON).is_file(),
        "{PYTHON} is missing: apt-get install python3"
    );
    command(PYTHON, &["-c", script], dir)
}

fn alive(pid: i32) -> bool {
    // A zombie is dead for this purpose: read its state.
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| {
            !s.rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
        .unwrap_or(false)
}

#[test]
fn a_run_sees_only_its_own_environment_and_directory() {
    let dir = tempfile::tempdir().unwrap();
    // SAFETY: this test binary's tests read no environment of their own.
    unsafe { std::env::set_var("AWS_SECRET_ACCESS_KEY", "do-not-leak") };
    let mut cmd = sh("env; pwd; cat; exit 3", dir.path());
    cmd.stdin = b"from stdin\n".to_vec();
    let out = run(&cmd).unwrap();
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(out.exit, Exit::Code(3));
    assert_eq!(out.termination, Termination::Ended);
    assert!(text.contains("HAMMER_SEED=7"), "{text}");
    assert!(!text.contains("do-not-leak"), "{text}");
    assert!(text.contains(&dir.path().display().to_string()), "{text}");
    assert!(text.ends_with("from stdin\n"), "{text}");
    assert_eq!(RunStatus::of(&out, Verdict::Unknown), RunStatus::Unknown);
}

#[test]
fn a_missing_program_could_not_start() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&command("/no/such/solver", &[], dir.path())).unwrap();
    assert!(matches!(out.exit, Exit::NotStarted(_)), "{:?}", out.exit);
    assert_eq!(
        RunStatus::of(&out, Verdict::Solved),
        RunStatus::CouldNotStart
    );
}

#[test]
fn a_segfault_is_a_crash_with_its_signal_and_stderr_tail() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&sh("echo dying >&2; kill -SEGV $$", dir.path())).unwrap();
    assert_eq!(out.exit, Exit::Signal(libc::SIGSEGV));
    assert_eq!(out.stderr_tail, b"dying\n");
    assert_eq!(RunStatus::of(&out, Verdict::Solved), RunStatus::Crash);
}

#[test]
fn the_wall_limit_stops_a_sleeper_and_its_children() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = sh("sleep 100 & echo $!; sleep 100", dir.path());
    cmd.limits.wall = Some(Duration::from_millis(500));
    let started = Instant::now();
    let out = run(&cmd).unwrap();
    assert_eq!(out.termination, Termination::WallLimit);
    assert_eq!(out.exit, Exit::Signal(libc::SIGTERM));
    assert!(started.elapsed() < Duration::from_secs(5));
    let child: i32 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    assert!(
        !alive(child),
        "the background sleep {child} outlived the run"
    );
    assert_eq!(RunStatus::of(&out, Verdict::Solved), RunStatus::Timeout);
}

#[test]
fn a_program_that_ignores_sigterm_is_killed_after_the_grace() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = sh("trap '' TERM; while :; do :; done", dir.path());
    cmd.limits.wall = Some(Duration::from_millis(300));
    cmd.limits.grace = Duration::from_millis(300);
    let out = run(&cmd).unwrap();
    assert_eq!(out.exit, Exit::Signal(libc::SIGKILL));
    assert_eq!(out.termination, Termination::WallLimit);
    assert!(out.wall >= Duration::from_millis(600), "{:?}", out.wall);
}

#[test]
fn the_cpu_limit_counts_cpu_not_wall_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = python("while True: pass", dir.path());
    cmd.limits.cpu = Some(Duration::from_millis(700));
    let out = run(&cmd).unwrap();
    assert_eq!(out.termination, Termination::CpuLimit);
    assert!(out.cpu() >= Duration::from_millis(700), "{:?}", out.cpu());
    // A sleeper under the same limit ends by itself.
    let mut cmd = sh("sleep 1", dir.path());
    cmd.limits.cpu = Some(Duration::from_millis(700));
    let out = run(&cmd).unwrap();
    assert_eq!(out.termination, Termination::Ended);
    assert_eq!(out.exit, Exit::Code(0));
}

#[test]
fn the_memory_limit_stops_an_allocation() {
    let dir = tempfile::tempdir().unwrap();
    let script = "import time\nb = bytearray(600 << 20)\ntime.sleep(30)";
    let mut cmd = python(script, dir.path());
    cmd.limits.memory = Some(200 << 20);
    let out = run(&cmd).unwrap();
    assert_eq!(out.termination, Termination::MemoryLimit);
    assert!(out.wall < Duration::from_secs(10), "{:?}", out.wall);
    assert_eq!(RunStatus::of(&out, Verdict::Solved), RunStatus::Memout);
}

#[test]
fn output_past_the_limit_is_cut_and_the_program_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = command("/usr/bin/yes", &["a long line of output"], dir.path());
    cmd.limits.output = 1 << 20;
    let out = run(&cmd).unwrap();
    assert_eq!(out.termination, Termination::OutputLimit);
    assert_eq!(out.stdout.len(), 1 << 20);
    assert!(out.output_bytes > 1 << 20);
    assert_eq!(RunStatus::of(&out, Verdict::Solved), RunStatus::Error);
}

#[test]
fn the_cpu_and_memory_of_children_count() {
    let dir = tempfile::tempdir().unwrap();
    // Half the CPU in a child that is waited for; a child that is never waited for.
    let burn = "import os, time\n\
        def burn(s):\n    end = time.process_time() + s\n    while time.process_time() < end: pass\n\
        pid = os.fork()\n\
        if pid == 0:\n    burn(0.4); os._exit(0)\n\
        burn(0.4); os.waitpid(pid, 0)\n";
    let out = run(&python(burn, dir.path())).unwrap();
    assert_eq!(out.exit, Exit::Code(0));
    let cpu = out.cpu().as_secs_f64();
    assert!((0.75..1.2).contains(&cpu), "cpu {cpu}");
    let alloc = "import time\nb = bytearray(300 << 20)\ntime.sleep(0.3)";
    let out = run(&python(alloc, dir.path())).unwrap();
    let mib = out.peak_memory as f64 / f64::from(1 << 20);
    assert!((300.0..360.0).contains(&mib), "peak {mib} MiB");
}

#[test]
fn an_orphan_is_killed_when_the_run_ends() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&sh("sleep 100 >/dev/null 2>&1 & echo $!", dir.path())).unwrap();
    assert_eq!(out.exit, Exit::Code(0));
    let child: i32 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    let deadline = Instant::now() + Duration::from_secs(2);
    while alive(child) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(child), "the orphan {child} outlived the run");
}
