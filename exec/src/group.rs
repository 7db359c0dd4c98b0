//! The processes of one process group, read from `/proc`: their summed resident memory
//! now, and the CPU time each has used, kept per process so that one that exits between
//! two polls still counts with what it was last seen to use.

use std::collections::HashMap;
use std::fs;
use std::time::Duration;

/// What the polls of one group have seen.
#[derive(Debug, Default)]
pub(crate) struct GroupWatch {
    /// CPU ticks (user, system) last seen of each process of the group.
    ticks: HashMap<u32, (u64, u64)>,
    /// The largest summed resident size of the group seen by one poll, in bytes.
    pub(crate) peak_memory: u64,
}

/// One poll: the group's summed resident size now, in bytes.
pub(crate) struct Poll {
    pub(crate) memory: u64,
}

impl GroupWatch {
    /// Reads every process whose process group is `pgid`.
    pub(crate) fn poll(&mut self, pgid: u32) -> Poll {
        let mut memory = 0u64;
        let Ok(entries) = fs::read_dir("/proc") else {
            return Poll { memory };
        };
        let page = page_size();
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(pid) = name.to_str().and_then(|n| n.parse::<u32>().ok()) else {
                continue;
            };
            // A process may exit between the listing and the read: skip it.
            let Ok(text) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            let Some(stat) = Stat::parse(&text) else {
                continue;
            };
            if stat.pgrp != pgid {
                continue;
            }
            memory += stat.rss_pages * page;
            self.ticks.insert(pid, (stat.utime, stat.stime));
        }
        self.peak_memory = self.peak_memory.max(memory);
        Poll { memory }
    }

    /// The CPU time (user, system) of every process the polls have seen.
    pub(crate) fn cpu(&self) -> (Duration, Duration) {
        let (user, system) = self
            .ticks
            .values()
            .fold((0, 0), |(u, s), &(pu, ps)| (u + pu, s + ps));
        (ticks(user), ticks(system))
    }
}

/// The fields of `/proc/PID/stat` this reads.
#[derive(Debug, PartialEq, Eq)]
struct Stat {
    pgrp: u32,
    utime: u64,
    stime: u64,
    rss_pages: u64,
}

impl Stat {
    /// Parses the line after the command's name, which is in parentheses and may itself
    /// hold spaces and parentheses: the fields start after the last `)`.
    fn parse(text: &str) -> Option<Stat> {
        let rest = &text[text.rfind(')')? + 1..];
        let fields: Vec<&str> = rest.split_ascii_whitespace().collect();
        // After the name: state(3) ppid(4) pgrp(5) ... utime(14) stime(15) ... rss(24),
        // numbered as proc(5) numbers them; `fields[0]` is field 3.
        let field = |n: usize| fields.get(n - 3)?.parse::<u64>().ok();
        Some(Stat {
            pgrp: u32::try_from(field(5)?).ok()?,
            utime: field(14)?,
            stime: field(15)?,
            rss_pages: field(24)?,
        })
    }
}

fn page_size() -> u64 {
    // SAFETY: sysconf has no preconditions; it only reads a system constant.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    u64::try_from(size).unwrap_or(4096)
}

fn ticks(count: u64) -> Duration {
    // SAFETY: as above.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    let per_second = u64::try_from(per_second).unwrap_or(100).max(1);
    Duration::from_micros(count.saturating_mul(1_000_000) / per_second)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_with_spaces_and_parentheses_is_skipped() {
        let line = "4242 (a (b) c) R 1 4242 4242 0 -1 4194304 100 0 0 0 250 30 0 0 20 0 1 0 \
                    100 1000000 77 18446744073709551615";
        assert_eq!(
            Stat::parse(line),
            Some(Stat {
                pgrp: 4242,
                utime: 250,
                stime: 30,
                rss_pages: 77
            })
        );
        assert_eq!(Stat::parse("12 (x) R 1"), None);
    }

    #[test]
    fn this_process_group_is_found() {
        // SAFETY: getpgrp has no preconditions.
        let pgid = u32::try_from(unsafe { libc::getpgrp() }).unwrap();
        let mut watch = GroupWatch::default();
        let poll = watch.poll(pgid);
        assert!(poll.memory > 0);
        assert!(watch.peak_memory >= poll.memory);
    }
}
