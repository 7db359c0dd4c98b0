//! One status per run, in BenchExec's order of precedence: what the runner saw (could
//! not start, a limit, a signal) outranks what the program said, and what it said is
//! believed only when a check of it holds.

use crate::{Exit, Measured, Termination};

/// What the program's own answer says, once read and checked by whoever understands its
/// output form (the runner does not parse output).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It found a solution, and the solution checked.
    Solved,
    /// It proved there is none.
    Refuted,
    /// It stopped at its own budget without an answer.
    Unknown,
    /// Its answer is false: a solution that does not check, or an answer that another
    /// run of the same instance contradicts.
    Wrong,
    /// Its output could not be understood.
    NotUnderstood,
}

/// The one status of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RunStatus {
    /// The program could not be started.
    CouldNotStart,
    /// It crossed the CPU or wall-clock limit.
    Timeout,
    /// It crossed the memory limit.
    Memout,
    /// A signal that the runner did not send ended it.
    Crash,
    /// Its answer is false.
    Wrong,
    /// It found a solution, which checked.
    Solved,
    /// It proved there is none.
    Refuted,
    /// It stopped at its own budget.
    Unknown,
    /// Its output was not understood, it printed past the output limit, or it exited
    /// with a code its output form does not allow.
    Error,
}

impl RunStatus {
    /// The status of a run from what the runner measured and what its output says, in
    /// this order: could not start, timeout, memout, crash, then the verdict (wrong,
    /// solved, refuted, unknown), then error.
    pub fn of(measured: &Measured, verdict: Verdict) -> RunStatus {
        if let Exit::NotStarted(_) = measured.exit {
            return RunStatus::CouldNotStart;
        }
        match measured.termination {
            Termination::CpuLimit | Termination::WallLimit => return RunStatus::Timeout,
            Termination::MemoryLimit => return RunStatus::Memout,
            Termination::OutputLimit => return RunStatus::Error,
            Termination::Ended => {}
        }
        if let Exit::Signal(_) = measured.exit {
            return RunStatus::Crash;
        }
        match verdict {
            Verdict::Wrong => RunStatus::Wrong,
            Verdict::Solved => RunStatus::Solved,
            Verdict::Refuted => RunStatus::Refuted,
            Verdict::Unknown => RunStatus::Unknown,
            Verdict::NotUnderstood => RunStatus::Error,
        }
    }

    /// The name a row records.
    pub fn name(self) -> &'static str {
        match self {
            RunStatus::CouldNotStart => "could-not-start",
            RunStatus::Timeout => "timeout",
            RunStatus::Memout => "memout",
            RunStatus::Crash => "crash",
            RunStatus::Wrong => "wrong",
            RunStatus::Solved => "solved",
            RunStatus::Refuted => "refuted",
            RunStatus::Unknown => "unknown",
            RunStatus::Error => "error",
        }
    }

    /// Whether a run-time distribution counts the run: as an observation (solved,
    /// refuted) or censored at its budget or limit (unknown, timeout). Crashes, memouts,
    /// wrong answers and errors are left out and reported.
    pub fn in_distribution(self) -> bool {
        matches!(
            self,
            RunStatus::Solved | RunStatus::Refuted | RunStatus::Unknown | RunStatus::Timeout
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn measured(exit: Exit, termination: Termination) -> Measured {
        Measured::bare(exit, termination, Duration::ZERO)
    }

    #[test]
    fn the_runner_outranks_the_answer() {
        let of = |exit, termination, verdict| RunStatus::of(&measured(exit, termination), verdict);
        let killed = Exit::Signal(libc::SIGTERM);
        assert_eq!(
            of(
                Exit::NotStarted("no such file".into()),
                Termination::Ended,
                Verdict::Solved
            ),
            RunStatus::CouldNotStart
        );
        assert_eq!(
            of(killed.clone(), Termination::CpuLimit, Verdict::Solved),
            RunStatus::Timeout
        );
        assert_eq!(
            of(killed.clone(), Termination::WallLimit, Verdict::Wrong),
            RunStatus::Timeout
        );
        assert_eq!(
            of(killed.clone(), Termination::MemoryLimit, Verdict::Solved),
            RunStatus::Memout
        );
        assert_eq!(
            of(killed, Termination::OutputLimit, Verdict::Solved),
            RunStatus::Error
        );
        assert_eq!(
            of(
                Exit::Signal(libc::SIGSEGV),
                Termination::Ended,
                Verdict::Solved
            ),
            RunStatus::Crash
        );
        let ended = |verdict| of(Exit::Code(10), Termination::Ended, verdict);
        assert_eq!(ended(Verdict::Wrong), RunStatus::Wrong);
        assert_eq!(ended(Verdict::Solved), RunStatus::Solved);
        assert_eq!(ended(Verdict::Refuted), RunStatus::Refuted);
        assert_eq!(ended(Verdict::Unknown), RunStatus::Unknown);
        assert_eq!(ended(Verdict::NotUnderstood), RunStatus::Error);
    }
}
