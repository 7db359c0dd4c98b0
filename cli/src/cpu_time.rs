//! CPU time of this process and of its named threads, from /proc, for the cluster
//! benchmarks (`bench-ingest`, `bench-run`), and of the calling thread, for `estimate`.

use std::time::Instant;

/// User plus system CPU time of this process's live threads whose name starts with
/// `prefix`, from /proc (Linux only; None elsewhere).
pub fn thread_cpu_seconds(prefix: &str) -> Option<f64> {
    let mut total = 0.0;
    for entry in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue; // the thread ended meanwhile
        };
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        if !stat[open + 1..close].starts_with(prefix) {
            continue;
        }
        total += cpu_of_stat(&stat[close + 1..])?;
    }
    Some(total)
}

/// utime + stime of a /proc stat line, given the part after the command name.
fn cpu_of_stat(rest: &str) -> Option<f64> {
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 of `rest`.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    // USER_HZ is 100 on every Linux configuration in use.
    Some((utime + stime) / 100.0)
}

/// User plus system CPU time of this process so far, from /proc (Linux only; None
/// elsewhere). Wall time on shared cores varies by tens of percent with other load,
/// while CPU time shows what hammer itself spends.
pub fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses and may contain spaces.
    cpu_of_stat(stat.rsplit_once(')')?.1)
}

/// On-CPU time of the calling thread where Linux tells it (`/proc/thread-self/schedstat`,
/// in nanoseconds), so that other jobs on a shared machine do not inflate a measurement;
/// wall time elsewhere.
pub enum ThreadClock {
    /// The thread's on-CPU nanoseconds when the clock started.
    Cpu(u64),
    /// When the clock started, where the thread's CPU time is not available.
    Wall(Instant),
}

impl ThreadClock {
    fn cpu_ns() -> Option<u64> {
        let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        text.split_whitespace().next()?.parse().ok()
    }

    /// Starts the clock.
    pub fn now() -> ThreadClock {
        match ThreadClock::cpu_ns() {
            Some(ns) => ThreadClock::Cpu(ns),
            None => ThreadClock::Wall(Instant::now()),
        }
    }

    /// Seconds since [`ThreadClock::now`], on the calling thread's CPU or the wall.
    pub fn elapsed_secs(&self) -> f64 {
        match self {
            ThreadClock::Cpu(start) => {
                ThreadClock::cpu_ns().map_or(0.0, |now| now.saturating_sub(*start) as f64 * 1e-9)
            }
            ThreadClock::Wall(start) => start.elapsed().as_secs_f64(),
        }
    }
}
