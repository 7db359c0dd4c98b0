//! The report pinned byte for byte: every table (the CSVs `hammer analyze` writes), chart,
//! note, warning and header count of the test datasets, against files written by the
//! analysis as it was before it streamed the dataset (`analysis/tests/golden/`).
//!
//! The streaming analysis must give exactly the old numbers; this is the check. To write
//! the files again after a deliberate change of a figure, run the test with
//! `HAMMER_BLESS=1` and review the diff.

mod common;

use std::path::Path;

use hammer_analysis::{LoadOptions, Report, analyze, analyze_data, analyze_with, load};
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
    // The paired figures fed in many windows of games (a window is cut at the start of a
    // part once it holds this many rows; parts that cross a cut are read once per window).
    for window_rows in [1, 50, 700] {
        let options = LoadOptions {
            window_rows: Some(window_rows),
            ..LoadOptions::default()
        };
        let report = analyze_with(dir, &options, None).expect("analyze in windows");
        assert!(
            report.reading.paired_windows > 1,
            "{window_rows} rows a window: {:?}",
            report.reading
        );
        check(&format!("{prefix}.csv.txt"), &csvs(&report));
        check(&format!("{prefix}.json"), &stable_json(&report));
    }
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

/// The report without what depends on how the rows are cut into part files.
fn partless_json(report: &Report) -> String {
    let mut v: serde_json::Value = serde_json::from_str(&stable_json(report)).expect("report json");
    v.as_object_mut().expect("report object").remove("parts");
    serde_json::to_string_pretty(&v).expect("json")
}

/// The same rows in parts of a few games each, of different sizes per configuration, so
/// that the parts of one game's configurations start and end at different games: cut
/// into small windows of games, parts cross the windows' edges and are read once per
/// window they meet, and every figure is still the same.
#[test]
fn parts_of_a_few_games_read_in_small_windows_give_the_same_report() {
    let whole = TempDir::new().expect("temp dir");
    let rows = common::write_experiments(whole.path(), &common::full_experiments());
    let cut = TempDir::new().expect("temp dir");
    let parts = common::write_in_parts(cut.path(), &rows, &[7, 11, 13, 29]);
    let want = analyze(whole.path()).expect("analyze");
    let (want_csv, want_json) = (csvs(&want), partless_json(&want));
    for window_rows in [None, Some(1), Some(50), Some(700)] {
        let options = LoadOptions {
            window_rows,
            ..LoadOptions::default()
        };
        let report = analyze_with(cut.path(), &options, None).expect("analyze in windows");
        assert_eq!(report.parts, parts, "{window_rows:?}");
        assert_eq!(csvs(&report), want_csv, "{window_rows:?}");
        assert_eq!(partless_json(&report), want_json, "{window_rows:?}");
        let reading = &report.reading;
        if window_rows == Some(1) {
            // A window per distinct part start, and parts read again for each window
            // they cross into.
            assert!(reading.paired_windows > 20, "{reading:?}");
            assert!(reading.largest_window < 400, "{reading:?}");
        }
    }
}
