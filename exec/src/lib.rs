//! Runs an outside program once, measured and contained, as BenchExec and runsolver run
//! a solver: the CPU time, wall time and peak memory of its whole process tree, limits
//! that are enforced, and how the run ended.
//!
//! - **Contained.** The program starts in a process group of its own, in the directory it
//!   is given, with exactly the environment it is given (nothing of the caller's: no
//!   store credentials, no tokens), with core dumps off. When a limit is crossed the
//!   whole group gets SIGTERM, then SIGKILL after a grace period; when the program
//!   exits, what is left of its group is killed. If the caller dies, even by SIGKILL,
//!   a keeper process (the group's leader, `keeper.rs`) kills the whole group.
//! - **Measured.** CPU time is the larger of what `wait4` reports for the program and its
//!   waited-for descendants and what polling `/proc` saw the group's processes use (which
//!   also counts children that were never waited for). Peak memory is the larger of the
//!   largest summed resident size of the group seen by a poll and the kernel's
//!   `ru_maxrss` of the largest single process. [`Method`] says which way was used.
//! - **Bounded.** Standard output is kept up to the output limit and standard error as a
//!   tail; both count toward the limit, so a program that prints a gigabyte is stopped
//!   with [`Termination::OutputLimit`] while the caller's memory stays bounded.
//!
//! cgroup v2 is the precise way to do this where a delegated cgroup exists; the
//! machines this runs on today have the v1 layout, so this crate takes the fallback that
//! BenchExec and runsolver take there: a process group, rlimits, `wait4` and `/proc`.
//!
//! Invariant: [`run`] returns only after the program's direct child is reaped and its
//! group has been sent SIGKILL, so a finished run leaves no process of its group behind
//! (a process that leaves the group with `setsid` is beyond a process group's reach).

mod capture;
mod group;
mod keeper;
mod run;
mod status;

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

pub use run::run;
pub use status::{RunStatus, Verdict};

/// What to run: an executable, its arguments (never passed to a shell), its directory and
/// its whole environment.
#[derive(Clone, Debug)]
pub struct Command {
    /// The executable, as a path (resolved by the caller).
    pub program: PathBuf,
    /// The arguments after the program's name.
    pub args: Vec<OsString>,
    /// The working directory of the run.
    pub dir: PathBuf,
    /// The program's entire environment; nothing else is inherited.
    pub env: Vec<(OsString, OsString)>,
    /// Bytes written to the program's standard input, which is then closed.
    pub stdin: Vec<u8>,
    /// The limits of the run.
    pub limits: Limits,
}

/// The limits of one run. `None` is no limit of that kind; the output limit always holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// CPU time of the whole process tree.
    pub cpu: Option<Duration>,
    /// Wall-clock time from the start.
    pub wall: Option<Duration>,
    /// Summed resident memory of the process tree, in bytes.
    pub memory: Option<u64>,
    /// Bytes of standard output and standard error together.
    pub output: u64,
    /// Time between SIGTERM and SIGKILL once a limit is crossed.
    pub grace: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            cpu: None,
            wall: None,
            memory: None,
            output: 64 << 20,
            grace: Duration::from_secs(1),
        }
    }
}

/// How the program ended, as the kernel reported it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this code.
    Code(i32),
    /// A signal ended it.
    Signal(i32),
    /// It never started (no such file, not executable, ...): the system's reason.
    NotStarted(String),
}

/// Whether this runner stopped the program, and for which limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The program ended by itself.
    Ended,
    /// Its CPU time crossed the CPU limit.
    CpuLimit,
    /// The wall-clock limit passed.
    WallLimit,
    /// Its resident memory crossed the memory limit.
    MemoryLimit,
    /// It printed more than the output limit.
    OutputLimit,
}

impl Termination {
    /// The name a row records.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Ended => "ended",
            Termination::CpuLimit => "cpu",
            Termination::WallLimit => "wall",
            Termination::MemoryLimit => "memory",
            Termination::OutputLimit => "output",
        }
    }
}

/// How the figures of a run were measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// A process group, rlimits, `wait4` and `/proc` polling (no delegated cgroup v2).
    ProcessGroup,
}

impl Method {
    /// The name a row records.
    pub fn name(self) -> &'static str {
        match self {
            Method::ProcessGroup => "process-group",
        }
    }
}

/// What one run did.
#[derive(Clone, Debug)]
pub struct Measured {
    /// How it ended.
    pub exit: Exit,
    /// Whether a limit ended it.
    pub termination: Termination,
    /// Wall time from the start to the reaping of the direct child.
    pub wall: Duration,
    /// User CPU time of the process tree.
    pub cpu_user: Duration,
    /// System CPU time of the process tree.
    pub cpu_system: Duration,
    /// Peak resident memory of the process tree, in bytes.
    pub peak_memory: u64,
    /// Standard output, up to the output limit.
    pub stdout: Vec<u8>,
    /// The last bytes of standard error (at most [`STDERR_TAIL`]).
    pub stderr_tail: Vec<u8>,
    /// Bytes printed in all, on both streams (more than was kept when the limit cut it).
    pub output_bytes: u64,
    /// How the figures were measured.
    pub method: Method,
}

impl Measured {
    /// A run that used nothing and printed nothing: one that never started, or a
    /// status's test case.
    pub(crate) fn bare(exit: Exit, termination: Termination, wall: Duration) -> Measured {
        Measured {
            exit,
            termination,
            wall,
            cpu_user: Duration::ZERO,
            cpu_system: Duration::ZERO,
            peak_memory: 0,
            stdout: Vec::new(),
            stderr_tail: Vec::new(),
            output_bytes: 0,
            method: Method::ProcessGroup,
        }
    }

    /// User plus system CPU time.
    pub fn cpu(&self) -> Duration {
        self.cpu_user + self.cpu_system
    }
}

/// How many bytes of standard error a run keeps: its end, where the reason of a failure
/// is printed.
pub const STDERR_TAIL: usize = 4096;

/// A failure of the runner itself, not of the program (which is a [`Measured`] outcome).
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// A pipe or thread for the run could not be made.
    #[error("cannot set up the run of {}", .program.display())]
    Setup {
        /// The program.
        program: PathBuf,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
    /// Waiting for the program failed.
    #[error("cannot wait for {}", .program.display())]
    Wait {
        /// The program.
        program: PathBuf,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
}
