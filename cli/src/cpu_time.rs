//! CPU time of this process and of its named threads, from /proc, for the cluster
//! benchmarks (`bench-ingest`, `bench-run`).

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
