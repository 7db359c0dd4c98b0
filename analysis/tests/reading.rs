//! Reading a dataset: the memory limit is checked from the footers before any row is read,
//! progress reaches the footers' total, and the report says what was read.

mod common;

use std::sync::Mutex;

use hammer_analysis::{Error, LoadOptions, analyze_with, estimated_bytes, load_with, loaded_bytes};
use tempfile::TempDir;

fn dataset() -> (TempDir, usize) {
    let dir = TempDir::new().expect("temp dir");
    let rows = common::write_experiments(dir.path(), &common::full_experiments()[..2]);
    (dir, rows.len())
}

#[test]
fn a_dataset_above_the_memory_limit_is_refused_with_the_numbers() {
    let (dir, rows) = dataset();
    let limit = loaded_bytes(rows as u64) - 1;
    let options = LoadOptions {
        memory_limit: Some(limit),
        progress: None,
        window_rows: None,
    };
    let err = load_with(dir.path(), &options).expect_err("above the limit");
    assert!(matches!(err, Error::MemoryLimit { rows: r, .. } if r == rows as u64));
    let text = err.to_string();
    assert!(text.contains(&dir.path().display().to_string()), "{text}");
    assert!(text.contains("--memory-limit"), "{text}");
    let options = LoadOptions {
        memory_limit: Some(limit + 1),
        progress: None,
        window_rows: None,
    };
    assert_eq!(
        load_with(dir.path(), &options)
            .expect("at the limit")
            .rows
            .len(),
        rows
    );
}

/// The rows the figures that pair games keep are known after the first pass: a limit the
/// footers' estimate fits but those rows do not is refused then, with the numbers.
#[test]
fn the_kept_rows_are_checked_against_the_limit_after_the_first_pass() {
    let dir = TempDir::new().expect("temp dir");
    let rows = common::write_experiments(dir.path(), &common::full_experiments()).len();
    let report = analyze_with(dir.path(), &LoadOptions::default(), None).expect("analyze");
    // Figures 7, 13, 14 to 16 and the meta-solver keep their rows; the solvability
    // samples are only counted, and their parts are not read again.
    let reading = &report.reading;
    assert!(reading.rows_kept > 0, "{reading:?}");
    assert!(reading.rows_kept < rows as u64, "{reading:?}");
    assert!(reading.parts_reread > 0, "{reading:?}");
    assert!(reading.parts_reread < report.parts, "{reading:?}");
    let options = LoadOptions {
        memory_limit: Some(estimated_bytes(rows as u64)),
        progress: None,
        window_rows: None,
    };
    let err = analyze_with(dir.path(), &options, None).expect_err("kept rows above the limit");
    assert!(
        matches!(err, Error::MemoryLimit { need, limit, .. } if need > limit),
        "{err}"
    );
}

/// The analysis holds no row for the figures that only count, so its own estimate (far
/// below the loaded rows') is what `--memory-limit` is checked against.
#[test]
fn the_analysis_is_refused_above_its_own_estimate() {
    let (dir, rows) = dataset();
    let limit = estimated_bytes(rows as u64) - 1;
    assert!(limit < loaded_bytes(rows as u64));
    let options = LoadOptions {
        memory_limit: Some(limit),
        progress: None,
        window_rows: None,
    };
    let err = analyze_with(dir.path(), &options, None).expect_err("above the limit");
    assert!(matches!(err, Error::MemoryLimit { rows: r, .. } if r == rows as u64));
}

#[test]
fn progress_reaches_the_total_and_the_report_says_what_was_read() {
    let (dir, rows) = dataset();
    let seen = Mutex::new(Vec::new());
    let progress = |read: u64, total: u64| seen.lock().expect("lock").push((read, total));
    let options = LoadOptions {
        memory_limit: None,
        progress: Some(&progress),
        window_rows: None,
    };
    let report = analyze_with(dir.path(), &options, None).expect("analyze");
    let seen = seen.into_inner().expect("lock");
    assert_eq!(seen.last(), Some(&(rows as u64, rows as u64)));
    assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0));
    assert_eq!(report.reading.rows_read, rows as u64);
    // Only solvability samples: every row is counted, none kept, no part read again.
    assert_eq!(report.reading.rows_kept, 0);
    assert_eq!(report.reading.parts_reread, 0);
    assert_eq!(report.reading.parts, report.parts);
    let stages: Vec<&str> = report
        .reading
        .stages
        .iter()
        .map(|(s, _)| s.as_str())
        .collect();
    for stage in [
        "deduplicate",
        "prepare",
        "dataset",
        "fig08",
        "fig13",
        "meta",
    ] {
        assert!(stages.contains(&stage), "no stage {stage} in {stages:?}");
    }
}
