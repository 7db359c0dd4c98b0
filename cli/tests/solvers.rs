//! Outside solvers through `hammer run`: the guide's sweep (`examples/threshold.toml`,
//! cut down) with Debian's CaDiCaL, its rows read back by the Python readers; the same
//! rows whatever the threads and unit sizes; and programs that crash, hang, print
//! garbage or a wrong model, each given its status while the sweep goes on.
//!
//! CaDiCaL comes from Debian's `cadical` package; without it the tests that need it
//! print SKIPPED, unless `HAMMER_REQUIRE_SOLVERS=1` (set by `.ci/run` when it installed
//! the solvers), which makes its absence fail.

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use hammer_dataset::{Cell, ResultRow};
use hammer_sweep::Sweep;
use support::{hammer, normalized, ok, path_str, python_readers, read_checked};

/// Whether CaDiCaL is on PATH; else SKIPPED, or a failure when it is required.
fn have_cadical() -> bool {
    let found = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("cadical").is_file()));
    if !found {
        assert!(
            std::env::var("HAMMER_REQUIRE_SOLVERS").as_deref() != Ok("1"),
            "HAMMER_REQUIRE_SOLVERS=1 but cadical is not installed"
        );
        println!("SKIPPED: no cadical (Debian: apt-get install cadical)");
    }
    found
}

/// `examples/threshold.toml` with fewer points and games: the same solver declaration,
/// generator, budget and limits.
fn threshold(games: u64, unit_games: Option<u64>) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/threshold.toml");
    let text = std::fs::read_to_string(path).expect("read examples/threshold.toml");
    let mut text = text
        .replace("vars = [50, 100, 150]", "vars = [40, 60]")
        .replace(
            "ratio = [3.8, 4.0, 4.2, 4.26, 4.4, 4.6]",
            "ratio = [3.5, 4.26, 5.5]",
        )
        .replace("games = 200", &format!("games = {games}"));
    if let Some(u) = unit_games {
        text.push_str(&format!("unit_games = {u}\n"));
    }
    assert!(text.contains("vars = [40, 60]") && text.contains("5.5"));
    text
}

/// Where the sat family's column `name` is in a row's `extra`.
fn column(name: &str) -> usize {
    let family = hammer_family::by_name("sat").expect("the sat family");
    family
        .columns()
        .iter()
        .position(|c| c.name == name)
        .unwrap_or_else(|| panic!("no column {name}"))
}

/// The sat family's cell `name` of `row`.
fn cell<'a>(row: &'a ResultRow, name: &str) -> &'a Cell {
    &row.extra[column(name)]
}

fn text(c: &Cell) -> &str {
    match c {
        Cell::Text(t) => t,
        other => panic!("not text: {other:?}"),
    }
}

/// Runs `text` as a sweep file in `dir` with `flags`; returns the sweep and its rows.
fn run(dir: &Path, name: &str, text: &str, flags: &[&str]) -> (Sweep, Vec<ResultRow>) {
    let file = dir.join(format!("{name}.toml"));
    std::fs::write(&file, text).expect("write the sweep");
    let out = dir.join(name);
    let mut args = vec!["run", path_str(&file), "--out", path_str(&out)];
    args.extend(flags);
    ok(&hammer(&args));
    let sweep = Sweep::load(&file).expect("the sweep parses");
    let rows = read_checked(&out, &sweep);
    (sweep, rows)
}

/// The SHA-256 of a file, by coreutils, to check the row's digests independently.
fn sha256(path: &Path) -> String {
    let out = std::process::Command::new("sha256sum")
        .arg(path)
        .output()
        .expect("sha256sum runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}

fn which(program: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{program} on PATH"))
}

#[test]
fn the_guide_sweep_runs_cadical_and_checks_its_answers() {
    if !have_cadical() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (_, rows) = run(dir.path(), "threshold", &threshold(12, None), &[]);
    assert_eq!(rows.len(), 2 * 3 * 12);
    let cadical = sha256(&std::fs::canonicalize(which("cadical")).expect("resolve cadical"));
    let mut sat_by_ratio: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    for row in &rows {
        let status = text(cell(row, "sat_status"));
        // A million conflicts decide every formula of 60 variables.
        assert!(
            status == "solved" || status == "refuted",
            "{status}: {row:?}"
        );
        assert_eq!(row.solvable, status == "solved", "{row:?}");
        assert!(row.exhaustive);
        assert_eq!(row.attempts, 1);
        assert_eq!(row.puzzle, "sat");
        assert_eq!(text(cell(row, "sat_solver")), "cadical");
        assert_eq!(text(cell(row, "sat_executable_digest")), cadical);
        assert_eq!(text(cell(row, "sat_instance_digest")).len(), 64);
        assert_eq!(text(cell(row, "sat_measured_by")), "process-group");
        assert_eq!(
            cell(row, "sat_exit_code"),
            &Cell::Int(if row.solvable { 10 } else { 20 })
        );
        // CaDiCaL prints no `conflicts:` line for a formula it decides without one.
        match cell(row, "sat_cost") {
            Cell::Int(c) => assert_eq!(*c, row.expansions),
            Cell::Null => assert_eq!(row.expansions, 0),
            other => panic!("cost: {other:?}"),
        }
        let ratio = row
            .params
            .rsplit('=')
            .next()
            .unwrap_or_default()
            .to_string();
        let entry = sat_by_ratio.entry(ratio).or_default();
        entry.0 += u32::from(row.solvable);
        entry.1 += 1;
    }
    // Far below the threshold nearly every formula is satisfiable, far above nearly none.
    let share = |r: &str| {
        let (sat, all) = sat_by_ratio[r];
        f64::from(sat) / f64::from(all)
    };
    assert!(share("3.5") > 0.8, "{sat_by_ratio:?}");
    assert!(share("5.5") < 0.2, "{sat_by_ratio:?}");
    python_readers(&dir.path().join("threshold"), rows.len());
}

/// Rows with the columns that measure time and memory cleared: what two runs agree on.
fn untimed(rows: Vec<ResultRow>) -> Vec<ResultRow> {
    let timing = ["sat_cpu_user_ns", "sat_cpu_system_ns", "sat_peak_bytes"];
    let mut rows = normalized(rows);
    for row in &mut rows {
        for name in timing {
            row.extra[column(name)] = Cell::Null;
        }
    }
    rows
}

#[test]
fn rows_do_not_depend_on_threads_or_unit_sizes() {
    if !have_cadical() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (_, one) = run(
        dir.path(),
        "one",
        &threshold(6, Some(1)),
        &["--threads", "1"],
    );
    let (_, two) = run(
        dir.path(),
        "two",
        &threshold(6, Some(4)),
        &["--threads", "2"],
    );
    assert_eq!(one.len(), 36);
    assert_eq!(untimed(one), untimed(two));
}

/// A program of `body` (Python), executable, in `dir`.
fn program(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/usr/bin/env python3\n{body}")).expect("write program");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path
}

#[test]
fn failing_programs_get_their_status_and_the_sweep_goes_on() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let d = dir.path();
    let programs = [
        (
            "crash",
            "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n",
            "crash",
        ),
        (
            "hang",
            "import time\nwhile True:\n    time.sleep(1)\n",
            "timeout",
        ),
        (
            "garbage",
            "print('s SATISFIABLE')\nprint('v x y z')\n",
            "error",
        ),
        (
            "wrong",
            "import sys\nn = int(open(sys.argv[1]).readline().split()[2])\nprint('s SATISFIABLE')\nprint('v ' + ' '.join(str(-v) for v in range(1, n + 1)) + ' 0')\nsys.exit(10)\n",
            "wrong",
        ),
        ("silent", "pass\n", "unknown"),
        ("early", "import sys\nsys.exit(1)\n", "error"),
        (
            "memory",
            "x = bytearray(400 << 20)\nimport time\ntime.sleep(5)\n",
            "memout",
        ),
    ];
    let mut sweep = String::from("name = \"faults\"\nseed = 3\n");
    for (name, body, _) in &programs {
        let path = program(d, name, body);
        sweep.push_str(&format!(
            "\n[solvers.{name}]\ncommand = [\"{}\", \"{{instance}}\"]\noutput = \"dimacs\"\n",
            path.display()
        ));
    }
    for (name, _, _) in &programs {
        sweep.push_str(&format!(
            "\n[[experiment]]\nname = \"{name}\"\nsolver = \"{name}\"\ninstances = {{ generator = \"ksat\", vars = 200, ratio = 4.26 }}\ngames = 2\nschedules = [\"exact\"]\nlimits = {{ wall_seconds = 2, memory_mb = 200 }}\n"
        ));
    }
    let (_, rows) = run(d, "faults", &sweep, &[]);
    assert_eq!(rows.len(), 2 * programs.len());
    for (name, _, want) in &programs {
        for row in rows.iter().filter(|r| r.experiment == *name) {
            assert_eq!(text(cell(row, "sat_status")), *want, "{name}: {row:?}");
            assert!(!row.solvable && !row.exhaustive, "{name}: {row:?}");
            assert_eq!(row.score, 2);
        }
    }
    let crash = rows
        .iter()
        .find(|r| r.experiment == "crash")
        .expect("a crash row");
    assert_eq!(cell(crash, "sat_signal"), &Cell::Int(11));
}

#[test]
fn a_worker_runs_only_the_solvers_it_allows() {
    if !have_cadical() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let d = dir.path();
    let file = d.join("threshold.toml");
    std::fs::write(&file, threshold(4, None)).expect("write the sweep");
    let out = d.join("out");
    let port = support::free_port();
    let flags = [
        "--lease-secs",
        "2",
        "--heartbeat-secs",
        "0.5",
        "--linger-secs",
        "5",
    ];
    let mut coordinator = support::coordinator(d, "coordinator", &file, &out, port, &flags);
    // A worker started without --allow-solver runs none of the sweep and says why.
    let mut refused = support::worker(d, "refused", port, &[]);
    let code = refused.wait(std::time::Duration::from_secs(60));
    let log = refused.log_text();
    assert_ne!(code, 0, "{log}");
    assert!(
        log.contains("sweep threshold: solver cadical: ")
            && log.contains("is not among this worker's --allow-solver programs"),
        "{log}"
    );
    // One allowed the very executable runs it all.
    let mut allowed = support::worker(d, "allowed", port, &["--allow-solver", "cadical"]);
    allowed.wait_ok(std::time::Duration::from_secs(120));
    coordinator.wait_ok(std::time::Duration::from_secs(60));
    let sweep = Sweep::load(&file).expect("the sweep parses");
    assert_eq!(read_checked(&out, &sweep).len(), 2 * 3 * 4);
}
