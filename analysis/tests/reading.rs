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

/// The other families' sections hold their whole rows, so their rows count against
/// `--memory-limit` at their own estimate: a limit that the Martello estimate fits but
/// those rows do not is refused after the first pass, naming the sizes.
#[test]
fn the_rows_of_other_families_count_against_the_limit() {
    let dir = TempDir::new().expect("temp dir");
    let martello = common::write_experiments(dir.path(), &common::full_experiments()[..1]);
    let family: Vec<_> = (0..500)
        .map(|i| {
            let mut row = martello[0].clone();
            row.puzzle = "peg".to_owned();
            row.params = "board=english;pegs=20".to_owned();
            row.experiment = "peg".to_owned();
            row.game_index = i;
            row.n = 0;
            row
        })
        .collect();
    hammer_dataset::write_part(dir.path(), "peg", 0, "peg0", &family).expect("family part");
    let total = (martello.len() + family.len()) as u64;
    let family_bytes = family.len() as u64 * hammer_analysis::BYTES_PER_FAMILY_COUNTED_ROW;
    let fits = estimated_bytes(total) + family_bytes;
    let options = LoadOptions {
        memory_limit: Some(fits - 1),
        ..LoadOptions::default()
    };
    let err = analyze_with(dir.path(), &options, None).expect_err("family rows above the limit");
    assert!(
        matches!(err, Error::MemoryLimit { need, .. } if need == fits),
        "{err}"
    );
    let options = LoadOptions {
        memory_limit: Some(fits),
        ..LoadOptions::default()
    };
    let report = analyze_with(dir.path(), &options, None).expect("at the limit");
    assert_eq!(report.rows, total);
}
