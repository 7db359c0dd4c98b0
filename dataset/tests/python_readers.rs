//! The dataset must read as it is in the Python tools the analysis uses. This test writes a
//! small dataset and runs `.ci/python_readers.py` with the interpreter in `HAMMER_PYTHON`.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::path::PathBuf;
use std::process::Command;

use common::partition_rows;
use hammer_dataset::{ResultRow, read_dataset, write_part};
use serde_json::Value;

const READERS: [&str; 4] = ["pyarrow", "polars", "duckdb", "pandas"];

#[test]
fn python_readers_agree_with_what_was_written() {
    let python = match std::env::var_os("HAMMER_PYTHON").filter(|p| !p.is_empty()) {
        Some(python) => python,
        None => {
            assert!(
                std::env::var("HAMMER_REQUIRE_PYTHON").as_deref() != Ok("1"),
                "HAMMER_REQUIRE_PYTHON=1 but HAMMER_PYTHON is not set: point HAMMER_PYTHON at a \
                 Python interpreter with the packages of .ci/requirements.lock installed"
            );
            println!("skipped: HAMMER_PYTHON not set");
            return;
        }
    };

    let tmp = tempfile::tempdir().unwrap();
    // HAMMER_KEEP_DATASET=DIR keeps the sample dataset for trying readers by hand.
    let dir = match std::env::var_os("HAMMER_KEEP_DATASET") {
        Some(keep) => PathBuf::from(keep),
        None => tmp.path().join("dataset"),
    };
    assert!(!dir.exists(), "{} already exists", dir.display());
    let mut written: Vec<ResultRow> = Vec::new();
    for (experiment, games) in [("prefix_sweep", 3), ("budget.v2-a", 2)] {
        for n in [5, 7] {
            let rows = partition_rows(experiment, n, games);
            // Two parts per partition, as two workers would write.
            let (first, second) = rows.split_at(rows.len() / 2);
            write_part(&dir, experiment, n, "w1-0", first).unwrap();
            write_part(&dir, experiment, n, "w2-0", second).unwrap();
            written.extend(rows);
        }
    }
    // A crashed writer's leftover must not disturb any reader.
    fs::write(
        dir.join("experiment=prefix_sweep/n=5/.part-w3-0.parquet.4242-0.tmp"),
        b"half a file",
    )
    .unwrap();
    assert_eq!(read_dataset(&dir).unwrap().len(), written.len());

    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.ci/python_readers.py");
    let output = Command::new(&python)
        .arg(&script)
        .arg(&dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python:?} {}: {e}", script.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("{stdout}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{} failed ({}):\nstdout:\n{stdout}\nstderr:\n{stderr}",
        script.display(),
        output.status
    );

    // The shared columns and every family's own (all null in these Martello rows).
    let schema = hammer_dataset::schema();
    let expected_columns: BTreeSet<&str> =
        schema.fields().iter().map(|f| f.name().as_str()).collect();
    let expected_sum: i64 = written.iter().map(|r| r.expansions).sum();
    let expected_n: BTreeSet<i64> = written.iter().map(|r| i64::from(r.n)).collect();
    let expected_experiments: BTreeSet<&str> =
        written.iter().map(|r| r.experiment.as_str()).collect();

    let summaries: Vec<Value> = stdout
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad JSON line {l:?}: {e}")))
        .collect();
    let readers: Vec<&str> = summaries
        .iter()
        .map(|s| s["reader"].as_str().unwrap())
        .collect();
    assert_eq!(readers, READERS, "stdout:\n{stdout}");

    for s in &summaries {
        let reader = s["reader"].as_str().unwrap();
        let columns: BTreeSet<&str> = s["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        assert_eq!(columns, expected_columns, "{reader}: column set");
        assert_eq!(
            s["columns"].as_array().unwrap().len(),
            expected_columns.len(),
            "{reader}: duplicated columns"
        );
        assert_eq!(
            s["rows"].as_u64(),
            Some(written.len() as u64),
            "{reader}: rows"
        );
        assert_eq!(
            s["sum_expansions"].as_i64(),
            Some(expected_sum),
            "{reader}: sum of expansions"
        );
        let n_values: BTreeSet<i64> = s["n_values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        assert_eq!(n_values, expected_n, "{reader}: n values");
        let experiments: BTreeSet<&str> = s["experiments"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(experiments, expected_experiments, "{reader}: experiments");
    }
    // Each reader agrees with what was written, hence with every other reader; this last
    // comparison only makes a disagreement easier to read in the failure output.
    let comparable = |s: &Value| {
        let mut s = s.clone();
        let object = s.as_object_mut().unwrap();
        object.remove("reader");
        // Partition column types are inferred from the path and legitimately differ.
        object.remove("types");
        s
    };
    for s in &summaries[1..] {
        assert_eq!(
            comparable(s),
            comparable(&summaries[0]),
            "{} disagrees with {}",
            s["reader"],
            summaries[0]["reader"]
        );
    }
}
