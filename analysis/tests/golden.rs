//! The report pinned byte for byte: every table (the CSVs `hammer analyze` writes), chart,
//! note, warning and header count of the test datasets, against files written by the
//! analysis as it was before it streamed the dataset (`analysis/tests/golden/`).
//!
//! The streaming analysis must give exactly the old numbers; this is the check. To write
//! the files again after a deliberate change of a figure, run the test with
//! `HAMMER_BLESS=1` and review the diff.

mod common;

use std::path::Path;

use hammer_analysis::{Report, analyze, analyze_data, load};
use tempfile::TempDir;

/// The report as pretty JSON without what differs from run to run, machine to machine or
/// release to release: the dataset's path, the version, and the reading statistics (rows
/// read, time per figure).
fn stable_json(report: &Report) -> String {
    let mut v = serde_json::to_value(report).expect("report json");
    let obj = v.as_object_mut().expect("report object");
    obj.remove("dataset");
    obj.remove("hammer_version");
    obj.remove("reading");
    serde_json::to_string_pretty(&v).expect("json") + "\n"
}

/// Every table as CSV, one after another under its name.
fn csvs(report: &Report) -> String {
    let mut out = String::new();
    for table in report.tables() {
        out.push_str(&format!("## {}\n", table.name));
        out.push_str(&hammer_analysis::csv(table));
        out.push('\n');
    }
    out
}

fn check(name: &str, got: &str) {
    let path = common::tests_dir().join("golden").join(name);
    if std::env::var("HAMMER_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, got).expect("write golden file");
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    if want != got {
        let line = want
            .lines()
            .zip(got.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(want.lines().count().min(got.lines().count()));
        panic!(
            "{name} differs from the golden file, first at line {}:\n want: {:?}\n  got: {:?}",
            line + 1,
            want.lines().nth(line),
            got.lines().nth(line)
        );
    }
}

fn check_report(prefix: &str, dir: &Path) {
    let report = analyze(dir).expect("analyze");
    check(&format!("{prefix}.csv.txt"), &csvs(&report));
    check(&format!("{prefix}.json"), &stable_json(&report));
    // The same analysis of rows already in memory (one part, read by `load`).
    let report = analyze_data(load(dir).expect("load"));
    check(&format!("{prefix}.csv.txt"), &csvs(&report));
    check(&format!("{prefix}.json"), &stable_json(&report));
}

#[test]
fn the_full_dataset_gives_the_pinned_report() {
    let dir = TempDir::new().expect("temp dir");
    common::write_experiments(dir.path(), &common::full_experiments());
    check_report("full", dir.path());
}

/// A part copied under a second part id: the duplicates are dropped and counted, and the
/// figures are those of the dataset without the copy.
#[test]
fn a_copied_part_gives_the_pinned_report() {
    let dir = TempDir::new().expect("temp dir");
    common::write_experiments(dir.path(), &common::full_experiments());
    let part = dir.path().join("experiment=orders/n=5");
    let first = std::fs::read_dir(&part)
        .expect("orders/n=5")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .min()
        .expect("a part file");
    std::fs::copy(&first, part.join("part-copy.parquet")).expect("copy part");
    check_report("copied", dir.path());
}
