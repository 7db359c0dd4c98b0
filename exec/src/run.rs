//! One run: start the program contained, watch its group until it ends or crosses a
//! limit, stop it when it does, and reap it with its resource usage.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::Stdio;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use crate::capture::Capture;
use crate::group::GroupWatch;
use crate::{Command, ExecError, Exit, Measured, Method, STDERR_TAIL, Termination};

/// The first poll of the group comes this soon; the interval then doubles up to
/// [`LONGEST_POLL`]. A short run ends before its first poll and costs no `/proc` scan.
const FIRST_POLL: Duration = Duration::from_millis(5);
/// The longest time between two polls: how late a CPU or memory limit may be seen.
const LONGEST_POLL: Duration = Duration::from_millis(100);
/// How long the output of a finished run is waited for, when a process that left the
/// group holds the pipes open.
const OUTPUT_WAIT: Duration = Duration::from_secs(1);
/// The kernel's own CPU limit (RLIMIT_CPU) lies this far beyond the run's, as a backstop
/// should this process be unable to enforce it.
const CPU_BACKSTOP: Duration = Duration::from_secs(5);

/// Where the run is on its way to an end forced by a limit.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Stopping {
    /// No limit crossed.
    Running,
    /// SIGTERM sent; SIGKILL follows at this instant.
    Terminated { kill_at: Instant },
    /// SIGKILL sent.
    Killed,
}

/// Runs `command` to its end, or until a limit stops it, and measures it. A program
/// that cannot start is an outcome ([`Exit::NotStarted`]), not an error.
pub fn run(command: &Command) -> Result<Measured, ExecError> {
    let setup = |source| ExecError::Setup {
        program: command.program.clone(),
        source,
    };
    let start = Instant::now();
    let mut child = match spawn(command) {
        Ok(child) => child,
        Err(e) => return Ok(not_started(e, start)),
    };
    let pid = child.id();
    let (Some(mut stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        kill_group(pid, libc::SIGKILL);
        return Err(setup(std::io::Error::other(
            "a stream of the child is not piped",
        )));
    };
    let input = command.stdin.clone();
    thread::Builder::new()
        .name("exec-stdin".into())
        .spawn(move || {
            // A program that exits without reading its input closes the pipe: not a fault.
            let _ = stdin.write_all(&input);
        })
        .map_err(setup)?;
    let capture =
        Capture::start(stdout, stderr, command.limits.output, STDERR_TAIL).map_err(setup)?;
    let exited = watch_exit(pid).map_err(setup)?;
    let mut watch = GroupWatch::default();
    let (termination, wall) = supervise(command, pid, start, &exited, &capture, &mut watch)
        .map_err(|source| ExecError::Wait {
            program: command.program.clone(),
            source,
        })?;
    // The direct child is a zombie still, so its pid is still the group's id: no other
    // process can have taken it.
    kill_group(pid, libc::SIGKILL);
    let (status, usage) = reap(pid).map_err(|source| ExecError::Wait {
        program: command.program.clone(),
        source,
    })?;
    let output_bytes = capture.bytes();
    let (stdout, stderr_tail) = capture.finish(Instant::now() + OUTPUT_WAIT);
    let (cpu_user, cpu_system) = cpu_of(&usage, &watch);
    let peak_memory = watch.peak_memory.max(
        u64::try_from(usage.ru_maxrss)
            .unwrap_or(0)
            .saturating_mul(1024),
    );
    let exit = exit_of(status);
    // The kernel's backstop may have ended it before a poll saw the limit crossed.
    let termination = match (termination, command.limits.cpu) {
        (Termination::Ended, Some(limit))
            if matches!(exit, Exit::Signal(_)) && cpu_user + cpu_system >= limit =>
        {
            Termination::CpuLimit
        }
        (termination, _) => termination,
    };
    Ok(Measured {
        exit,
        termination,
        wall,
        cpu_user,
        cpu_system,
        peak_memory,
        stdout,
        stderr_tail,
        output_bytes,
        method: Method::ProcessGroup,
    })
}

/// Starts the program in a process group of its own, with only its own environment,
/// core dumps off, the kernel's CPU backstop, under a keeper that kills the group when
/// this process dies (`keeper.rs`).
fn spawn(command: &Command) -> std::io::Result<std::process::Child> {
    let mut cmd = std::process::Command::new(&command.program);
    cmd.args(&command.args)
        .current_dir(&command.dir)
        .env_clear()
        .envs(command.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let backstop = command
        .limits
        .cpu
        .map(|cpu| (cpu + command.limits.grace + CPU_BACKSTOP).as_secs() as libc::rlim_t);
    let parent = std::process::id();
    // SAFETY: the closure runs in the forked child before exec, and calls only
    // async-signal-safe functions (setrlimit, and the keeper's) on its own stack.
    unsafe {
        cmd.pre_exec(move || {
            let none = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            libc::setrlimit(libc::RLIMIT_CORE, &none);
            if let Some(seconds) = backstop {
                let cpu = libc::rlimit {
                    rlim_cur: seconds,
                    rlim_max: seconds + 1,
                };
                libc::setrlimit(libc::RLIMIT_CPU, &cpu);
            }
            // Returns in the program; the keeper stays behind to watch it.
            crate::keeper::split(parent)
        });
    }
    cmd.spawn()
}

/// A thread that waits until `pid` has ended, without reaping it, and then says so.
fn watch_exit(pid: u32) -> std::io::Result<mpsc::Receiver<std::io::Result<Instant>>> {
    let (tx, rx) = mpsc::channel();
    thread::Builder::new()
        .name("exec-wait".into())
        .spawn(move || {
            let _ = tx.send(wait_ended(pid).map(|()| Instant::now()));
        })?;
    Ok(rx)
}

fn wait_ended(pid: u32) -> std::io::Result<()> {
    loop {
        // SAFETY: a zeroed siginfo_t is a valid value for waitid to fill in.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: `info` is a valid, writable siginfo_t; WNOWAIT leaves the child a zombie.
        let rc = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if rc == 0 {
            return Ok(());
        }
        let error = std::io::Error::last_os_error();
        if error.kind() != std::io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}

/// Watches the run until its direct child ends, stopping it when it crosses a limit;
/// returns why it ended and its wall time.
fn supervise(
    command: &Command,
    pid: u32,
    start: Instant,
    exited: &mpsc::Receiver<std::io::Result<Instant>>,
    capture: &Capture,
    watch: &mut GroupWatch,
) -> std::io::Result<(Termination, Duration)> {
    let limits = &command.limits;
    let wall_deadline = limits.wall.map(|wall| start + wall);
    let mut interval = FIRST_POLL;
    let mut next_poll = start + interval;
    let mut termination = Termination::Ended;
    let mut stopping = Stopping::Running;
    loop {
        let mut wake = next_poll;
        if let Stopping::Terminated { kill_at } = stopping {
            wake = wake.min(kill_at);
        }
        if let (Some(deadline), Stopping::Running) = (wall_deadline, stopping) {
            wake = wake.min(deadline);
        }
        match exited.recv_timeout(wake.saturating_duration_since(Instant::now())) {
            Ok(ended) => return Ok((termination, ended?.duration_since(start))),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(std::io::Error::other("the waiting thread ended"));
            }
        }
        let now = Instant::now();
        if now >= next_poll {
            let poll = watch.poll(pid);
            let (user, system) = watch.cpu();
            if stopping == Stopping::Running {
                if limits.memory.is_some_and(|limit| poll.memory > limit) {
                    termination = Termination::MemoryLimit;
                } else if limits.cpu.is_some_and(|limit| user + system >= limit) {
                    termination = Termination::CpuLimit;
                }
            }
            interval = (interval * 2).min(LONGEST_POLL);
            next_poll = now + interval;
        }
        if stopping == Stopping::Running && termination == Termination::Ended {
            if capture.bytes() > limits.output {
                termination = Termination::OutputLimit;
            } else if wall_deadline.is_some_and(|deadline| now >= deadline) {
                termination = Termination::WallLimit;
            }
        }
        stopping = match stopping {
            Stopping::Running if termination != Termination::Ended => {
                kill_group(pid, libc::SIGTERM);
                Stopping::Terminated {
                    kill_at: now + limits.grace,
                }
            }
            Stopping::Terminated { kill_at } if now >= kill_at => {
                kill_group(pid, libc::SIGKILL);
                Stopping::Killed
            }
            other => other,
        };
    }
}

/// Sends `signal` to the process group `pgid`; a group already gone is no fault.
fn kill_group(pgid: u32, signal: libc::c_int) {
    // SAFETY: kill has no memory-safety preconditions; a negative pid names a group.
    unsafe {
        libc::kill(-(pgid as libc::pid_t), signal);
    }
}

/// Reaps `pid`, with the resource usage of it and the descendants it waited for.
fn reap(pid: u32) -> std::io::Result<(libc::c_int, libc::rusage)> {
    loop {
        let mut status = 0;
        // SAFETY: a zeroed rusage is a valid value for wait4 to fill in.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: both out-pointers are valid and writable.
        let rc = unsafe { libc::wait4(pid as libc::pid_t, &mut status, 0, &mut usage) };
        if rc >= 0 {
            return Ok((status, usage));
        }
        let error = std::io::Error::last_os_error();
        if error.kind() != std::io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}

/// The larger, kind by kind, of what `wait4` and the polls saw.
fn cpu_of(usage: &libc::rusage, watch: &GroupWatch) -> (Duration, Duration) {
    let time = |t: libc::timeval| {
        Duration::from_secs(u64::try_from(t.tv_sec).unwrap_or(0))
            + Duration::from_micros(u64::try_from(t.tv_usec).unwrap_or(0))
    };
    let (user, system) = watch.cpu();
    (
        time(usage.ru_utime).max(user),
        time(usage.ru_stime).max(system),
    )
}

fn exit_of(status: libc::c_int) -> Exit {
    if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    }
}

fn not_started(error: std::io::Error, start: Instant) -> Measured {
    Measured::bare(
        Exit::NotStarted(error.to_string()),
        Termination::Ended,
        start.elapsed(),
    )
}
