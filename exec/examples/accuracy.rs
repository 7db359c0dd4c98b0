//! The runner's accuracy and cost, for docs/benchmarks.md:
//!
//! - CPU time of a program that burns 2 s, half of it in a child process, against what
//!   the program itself reads from `time.process_time()` in each process;
//! - peak memory of a 300 MiB allocation;
//! - how long after a CPU limit is crossed the program is stopped;
//! - runs per second of a program that answers at once (`/bin/true`).
//!
//! `cargo run --release -p hammer-exec --example accuracy -- [REPEATS]`

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use hammer_exec::{Command, Limits, Termination, run};

const PYTHON: &str = "/usr/bin/python3";

fn command(program: &str, args: &[&str]) -> Command {
    Command {
        program: PathBuf::from(program),
        args: args.iter().map(OsString::from).collect(),
        dir: std::env::temp_dir(),
        env: Vec::new(),
        stdin: Vec::new(),
        limits: Limits::default(),
    }
}

/// Burns 1 s in a child and 1 s in itself, and prints the two processes' own CPU times.
const BURN: &str = "import os, time\n\
def burn(s):\n    end = time.process_time() + s\n    while time.process_time() < end: pass\n\
r, w = os.pipe()\n\
pid = os.fork()\n\
if pid == 0:\n    burn(1.0); os.write(w, str(time.process_time()).encode()); os._exit(0)\n\
burn(1.0); os.waitpid(pid, 0)\n\
print(time.process_time() + float(os.read(r, 64)))\n";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let repeats: usize = std::env::args().nth(1).map_or(Ok(5), |a| a.parse())?;
    let mut cpu_errors = Vec::new();
    for _ in 0..repeats {
        let out = run(&command(PYTHON, &["-c", BURN]))?;
        let own: f64 = String::from_utf8_lossy(&out.stdout).trim().parse()?;
        cpu_errors.push((out.cpu().as_secs_f64() - own) / own);
    }
    println!(
        "cpu, 2 s half in a child: relative error {}",
        summary(&cpu_errors)
    );

    let mut memory_errors = Vec::new();
    for _ in 0..repeats {
        let alloc = "import time\nb = bytearray(300 << 20)\ntime.sleep(0.2)";
        let base = run(&command(PYTHON, &["-c", "import time\ntime.sleep(0.2)"]))?;
        let out = run(&command(PYTHON, &["-c", alloc]))?;
        let extra = out.peak_memory.saturating_sub(base.peak_memory) as f64;
        memory_errors.push(extra / f64::from(300u32 << 20) - 1.0);
    }
    println!(
        "peak memory, 300 MiB above the interpreter's own: relative error {}",
        summary(&memory_errors)
    );

    let mut late = Vec::new();
    for _ in 0..repeats {
        let mut cmd = command(PYTHON, &["-c", "while True: pass"]);
        let limit = Duration::from_millis(500);
        cmd.limits.cpu = Some(limit);
        let out = run(&cmd)?;
        assert_eq!(out.termination, Termination::CpuLimit);
        late.push((out.cpu().as_secs_f64() - limit.as_secs_f64()).max(0.0));
    }
    println!(
        "cpu limit of 0.5 s: CPU seconds past the limit {}",
        summary(&late)
    );

    let trivial = command("/bin/true", &[]);
    let runs = 300 * repeats;
    let started = Instant::now();
    for _ in 0..runs {
        run(&trivial)?;
    }
    let rate = runs as f64 / started.elapsed().as_secs_f64();
    println!("/bin/true: {rate:.0} runs/s on one thread ({runs} runs)");
    Ok(())
}

/// Min, median and max of a sample.
fn summary(values: &[f64]) -> String {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
    format!(
        "min {:+.4} median {:+.4} max {:+.4} (n = {})",
        at(0.0),
        at(0.5),
        at(1.0),
        sorted.len()
    )
}
