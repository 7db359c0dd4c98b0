//! `hammer compact` on the datasets of real sweeps.
//!
//! - The rows are the same before and after, as hammer, pyarrow, polars and DuckDB read
//!   them (and deltalake through the Delta log), and the partitions stay.
//! - A resume of the sweep after compaction runs nothing, with its journal or with a new
//!   state directory (the compacted files' footers name their units); a sweep killed
//!   midway, compacted, then resumed, ends with every game exactly once.
//! - A continuation (`unknown_games`) reads the compacted dataset.
//! - A crash (the process aborted) between any two steps leaves the old rows or the new
//!   ones, and the next `hammer compact` or the next start of the sweep finishes it.

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use hammer_dataset::{ResultRow, list_parts, read_dataset};
use support::{HAMMER, hammer, ok, path_str, s};

/// Two experiments of quick games in units of 5: many small parts. `capped` leaves some
/// games unknown, for a continuation.
const SWEEP: &str = "name = \"small\"\nseed = 7\n\n\
[[experiment]]\nname = \"exact\"\nsizes = [5, 6]\ngames = 60\nunit_games = 5\n\n\
[[experiment]]\nname = \"capped\"\nsizes = [6]\ngames = 40\nunit_games = 5\n\
max_expansions = 300\n";

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write file");
    path
}

/// `hammer run SWEEP --out OUT --state STATE` to the end; returns its stderr.
fn run(sweep: &Path, out: &Path, state: &Path, flags: &[&str]) -> String {
    let mut args = vec![
        "run",
        path_str(sweep),
        "--out",
        path_str(out),
        "--state",
        path_str(state),
        "--threads",
        "1",
    ];
    args.extend(flags);
    let output = hammer(&args);
    ok(&output);
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn compact(out: &Path, target: &str) -> String {
    ok(&hammer(&[
        "compact",
        path_str(out),
        "--target-size",
        target,
    ]))
}

/// Every row, sorted by key; the values themselves are compared, timing columns too.
fn rows(out: &Path) -> Vec<ResultRow> {
    let mut rows: Vec<ResultRow> = files(out)
        .iter()
        .flat_map(|path| hammer_dataset::read_part(path).expect("read a part"))
        .collect();
    rows.sort_by_key(ResultRow::key);
    rows
}

/// The part files' paths below `out`, beside a Delta log (which `list_parts` refuses).
fn files(out: &Path) -> BTreeSet<PathBuf> {
    let visible = |dir: &Path| -> Vec<PathBuf> {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default();
        entries.retain(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or(".");
            !name.starts_with('.') && !name.starts_with('_')
        });
        entries
    };
    visible(out)
        .iter()
        .flat_map(|e| visible(e))
        .flat_map(|n| visible(&n))
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .collect()
}

/// Each reader's row count and digest, or `None` without the tests' Python.
fn readers(out: &Path, delta: bool) -> Option<Vec<serde_json::Value>> {
    let python = support::python()?;
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/support/compact_readers.py");
    let mut command = Command::new(python);
    command.arg(script).arg(out);
    if delta {
        command.arg("--delta");
    }
    let output = command.output().expect("run python");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(
        stdout
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON line"))
            .collect(),
    )
}

/// The games of `experiment` without an exhaustive row.
fn unknown(rows: &[ResultRow], experiment: &str) -> BTreeSet<i64> {
    let solved: BTreeSet<(String, i64)> = rows
        .iter()
        .filter(|r| r.experiment == experiment && r.exhaustive)
        .map(|r| (r.params.clone(), r.game_index))
        .collect();
    rows.iter()
        .filter(|r| {
            r.experiment == experiment && !solved.contains(&(r.params.clone(), r.game_index))
        })
        .map(|r| r.game_index)
        .collect()
}

#[test]
fn a_compacted_sweep_reads_the_same_resumes_without_running_and_continues() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let sweep = write(dir, "small.toml", SWEEP);
    let out = dir.join("out");
    run(&sweep, &out, &dir.join("state"), &[]);
    let before = rows(&out);
    let parts_before = files(&out);
    assert_eq!(parts_before.len(), 32, "one part per unit");
    let readers_before = readers(&out, false);

    let printed = compact(&out, "1MiB");
    assert!(printed.contains("32 parts"), "{printed}");
    let after_files = files(&out);
    assert!(after_files.len() < 12, "{after_files:?}");
    for path in &after_files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        assert!(name.starts_with("part-compact-"), "{name}");
    }
    // The partitions stay: exact's n=5 and n=6, capped's n=6.
    let partitions: BTreeSet<_> = after_files
        .iter()
        .filter_map(|p| p.parent().map(Path::to_owned))
        .collect();
    assert_eq!(partitions.len(), 3, "{partitions:?}");
    assert_eq!(rows(&out), before, "the same rows");
    assert_eq!(
        readers(&out, false),
        readers_before,
        "the same rows to every reader"
    );
    assert!(hammer_list(&out.join(".hammer-compact")).is_empty());
    // Compacting again finds nothing to do.
    assert!(compact(&out, "1MiB").contains("nothing to compact"));

    // The resume with the journal, and one with a new state that finds every unit in
    // the compacted files' footers: neither runs anything.
    for state in ["state", "fresh-state"] {
        let said = run(&sweep, &out, &dir.join(state), &[]);
        assert!(said.contains("already complete"), "{state}: {said}");
        assert_eq!(files(&out), after_files, "{state}");
        assert_eq!(rows(&out), before, "{state}");
    }

    // A continuation of the capped games reads the compacted dataset.
    let more = format!(
        "name = \"more\"\nseed = 7\n\n[[experiment]]\nname = \"more\"\nsizes = [6]\n\
         unknown_games = {{ dataset = \"{}\", experiment = \"capped\" }}\n",
        path_str(&out)
    );
    let more = write(dir, "more.toml", &more);
    let more_out = dir.join("more-out");
    run(&more, &more_out, &dir.join("more-state"), &[]);
    let expected = unknown(&before, "capped");
    assert!(!expected.is_empty(), "the cap leaves games unknown");
    let continued: BTreeSet<i64> = rows(&more_out).iter().map(|r| r.game_index).collect();
    assert_eq!(continued, expected);
}

#[test]
fn a_sweep_killed_midway_compacted_and_resumed_has_every_game_once() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let sweep = write(
        dir,
        "long.toml",
        "name = \"long\"\nseed = 3\n\n[[experiment]]\nname = \"exact\"\nsizes = [6]\n\
         games = 400\nunit_games = 4\n",
    );
    let (out, state) = (dir.join("out"), dir.join("state"));
    let args = s(&[
        "run",
        path_str(&sweep),
        "--out",
        path_str(&out),
        "--state",
        path_str(&state),
        "--threads",
        "1",
    ]);
    let mut first = support::Proc::spawn("first", HAMMER, &args, &[], dir.join("first.log"));
    let deadline = Instant::now() + Duration::from_secs(120);
    while list_parts(&out).map_or(0, |p| p.len()) < 20 {
        assert!(Instant::now() < deadline, "{}", first.log_text());
        std::thread::sleep(Duration::from_millis(20));
    }
    first.kill9();
    let done = list_parts(&out).expect("parts").len();
    assert!(done < 100, "killed before the end: {done} of 100 units");
    compact(&out, "1MiB");
    assert_eq!(files(&out).len(), 1, "one compacted file");
    let said = run(&sweep, &out, &state, &[]);
    assert!(said.contains("resuming sweep long"), "{said}");
    let rows = rows(&out);
    let keys: BTreeSet<_> = rows.iter().map(ResultRow::key).collect();
    assert_eq!(keys.len(), rows.len(), "no game twice");
    assert_eq!(rows.len(), 400, "every game");
    // The same rows as a run that was never stopped, timing aside.
    let whole = dir.join("whole");
    run(&sweep, &whole, &dir.join("whole-state"), &[]);
    assert_eq!(
        support::normalized(rows),
        support::normalized(read_dataset(&whole).expect("read"))
    );
}

#[test]
fn the_delta_log_records_the_compaction() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let sweep = write(dir, "small.toml", SWEEP);
    let (out, state) = (dir.join("out"), dir.join("state"));
    run(&sweep, &out, &state, &["--delta"]);
    let before = rows(&out);
    let readers_before = readers(&out, true);
    let printed = compact(&out, "1MiB");
    assert!(printed.contains("Delta log version"), "{printed}");
    assert_eq!(rows(&out), before);
    assert_eq!(readers(&out, true), readers_before, "deltalake too");
    let log = out.join("_delta_log");
    let last = std::fs::read_dir(&log)
        .expect("log")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .max()
        .expect("a version");
    let text = std::fs::read_to_string(&last).expect("read version");
    assert!(text.contains("\"OPTIMIZE\""), "{text}");
    assert_eq!(text.matches("\"remove\"").count(), 32, "{text}");
    let said = run(&sweep, &out, &state, &["--delta"]);
    assert!(said.contains("already complete"), "{said}");
    assert_eq!(readers(&out, true), readers_before, "after the resume");
}

/// `hammer compact` aborted at `step`: the exit is a failure.
fn compact_crashing_at(out: &Path, step: &str) {
    let output = Command::new(HAMMER)
        .args(["compact", path_str(out), "--target-size", "1MiB"])
        .env("HAMMER_COMPACT_CRASH_AT", step)
        .output()
        .expect("run hammer");
    assert!(!output.status.success(), "{step}: should have aborted");
}

#[test]
fn a_crash_at_any_step_leaves_the_old_rows_or_the_new() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let sweep = write(dir, "small.toml", SWEEP);
    let base = dir.join("base");
    run(&sweep, &base, &dir.join("base-state"), &["--delta"]);
    let before = rows(&base);
    let old_files = files(&base);
    let readers_before = readers(&base, true);
    for step in ["staged", "planned", "published"] {
        let out = dir.join(step);
        let state = dir.join(format!("{step}-state"));
        let copied = Command::new("cp")
            .args(["-a", path_str(&base), path_str(&out)])
            .status()
            .expect("cp");
        assert!(copied.success());
        compact_crashing_at(&out, step);
        // A local partition is swapped whole: a reader of the directories sees the old
        // parts alone before the exchange, the new files alone after it.
        assert_eq!(rows(&out), before, "{step}");
        if step == "published" {
            assert!(
                files(&out).len() < old_files.len(),
                "{step}: the new files alone"
            );
            if let (Some(now), Some(then)) = (readers(&out, false), &readers_before) {
                assert_eq!(
                    now[..],
                    then[..now.len()],
                    "{step}: the directories' readers"
                );
            }
        } else {
            assert_eq!(
                files(&out).len(),
                old_files.len(),
                "{step}: no compacted file visible"
            );
            if let (Some(now), Some(then)) = (readers(&out, true), &readers_before) {
                assert_eq!(
                    now.last(),
                    then.last(),
                    "{step}: the Delta log shows the old parts"
                );
            }
        }
        // Finished by the next compaction (staged: rolled back and done again), or by
        // the sweep's next start.
        if step == "planned" {
            let said = run(&sweep, &out, &state, &["--delta"]);
            assert!(said.contains("already complete"), "{said}");
        } else {
            let printed = compact(&out, "1MiB");
            if step == "published" {
                assert!(printed.contains("finished 1 compaction"), "{printed}");
            }
        }
        assert_eq!(rows(&out), before, "{step}: the new files alone");
        assert!(files(&out).len() < old_files.len(), "{step}");
        assert_eq!(readers(&out, true), readers_before, "{step}");
        let leftovers: Vec<String> = hammer_list(&out.join(".hammer-compact"));
        assert!(leftovers.is_empty(), "{step}: {leftovers:?}");
    }
}

/// Files left below `dir` (none when it is gone).
fn hammer_list(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(d) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                found.push(path.display().to_string());
            }
        }
    }
    found
}
