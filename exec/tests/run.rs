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

/// The caller of the next test, run in a process of its own: when `HAMMER_EXEC_CALLER`
/// names a file, it runs a program whose child writes its pid there, and waits.
#[test]
fn caller_for_the_kill_test() {
    let Some(file) = std::env::var_os("HAMMER_EXEC_CALLER") else {
        return;
    };
    let file = PathBuf::from(file);
    let dir = file.parent().unwrap().to_owned();
    let script = format!(
        "sleep 100 & echo $! > {0}.tmp; mv {0}.tmp {0}; sleep 100",
        file.display()
    );
    let _ = run(&sh(&script, &dir));
}

/// The processes whose process group is `pgid`, zombies aside.
fn group_members(pgid: i32) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
                let rest: Vec<&str> = s
                    .rsplit(')')
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .collect();
                rest.first() != Some(&"Z") && rest.get(2).and_then(|g| g.parse().ok()) == Some(pgid)
            })
        })
        .collect()
}

#[test]
fn a_caller_killed_with_sigkill_takes_the_whole_group_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pid");
    let mut caller = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "caller_for_the_kill_test", "--test-threads=1"])
        .env("HAMMER_EXEC_CALLER", &file)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !file.exists() {
        assert!(Instant::now() < deadline, "the program never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let grandchild: i32 = std::fs::read_to_string(&file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let stat = std::fs::read_to_string(format!("/proc/{grandchild}/stat")).unwrap();
    let pgid: i32 = stat
        .rsplit(')')
        .next()
        .unwrap()
        .split_whitespace()
        .nth(2)
        .unwrap()
        .parse()
        .unwrap();
    // The keeper, the shell and its two sleeps.
    assert_eq!(group_members(pgid).len(), 4, "{:?}", group_members(pgid));
    caller.kill().unwrap();
    caller.wait().unwrap();
    let killed = Instant::now();
    while !group_members(pgid).is_empty() {
        assert!(
            killed.elapsed() < Duration::from_secs(1),
            "{:?} outlived their caller by a second",
            group_members(pgid)
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}
