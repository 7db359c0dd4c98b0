//! Writing and reading real part files, each test in its own temporary directory.

mod common;

use std::fs;
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::Arc;

use arrow::array::{ArrayRef, Int64Array, RecordBatch};
use arrow::datatypes::{DataType, Field, Schema};
use common::{partition_rows, row, sorted};
use hammer_dataset::{
    Error, PARTITION_COLUMNS, ResultRow, file_schema, list_parts, read_dataset, read_part,
    remove_stale_temp_files, rows_to_batch, write_part,
};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

/// Everything in `dir`, recursively, relative to it, sorted.
fn tree(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            out.push(path.strip_prefix(root).unwrap().display().to_string());
            if path.is_dir() {
                walk(root, &path, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Writes `batch` as a Parquet file without going through `write_part`, to simulate files made
/// by other tools or older versions.
fn write_raw(path: &Path, batch: &RecordBatch) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let file = fs::File::create(path).unwrap();
    let mut writer = ArrowWriter::try_new(file, batch.schema(), None).unwrap();
    writer.write(batch).unwrap();
    writer.close().unwrap();
}

fn assert_err_contains(err: &Error, needles: &[&str]) {
    let text = err.to_string();
    for needle in needles {
        assert!(
            text.contains(needle),
            "error {text:?} should contain {needle:?}"
        );
    }
}

fn awkward_rows() -> Vec<ResultRow> {
    let mut extremes = row("exp", 7, "", i64::MAX);
    extremes.sweep = "süß ☃ スイープ 🎲".into();
    extremes.seed = i64::MIN;
    extremes.budget = i64::MAX;
    extremes.expansions = i64::MIN;
    extremes.wall_ns = 0;
    extremes.prefix = i32::MIN;
    extremes.trial = i32::MAX;
    extremes.score = i32::MIN;
    extremes.lower_bound = i32::MIN;
    extremes.attempts = i32::MAX;
    extremes.solvable = true;
    extremes.exhaustive = true;

    let mut empty = ResultRow {
        experiment: "exp".into(),
        n: 7,
        game_index: i64::MIN,
        ..ResultRow::default()
    };
    empty.sweep = String::new();

    let mut quoting = row("exp", 7, "cfg \"quoted\", comma\nnewline\ttab\\", 0);
    quoting.solution = "\0nul inside".into();
    vec![extremes, empty, quoting, row("exp", 7, "cfg", 1)]
}

#[test]
fn round_trip_awkward_values() {
    let tmp = tempfile::tempdir().unwrap();
    let rows = awkward_rows();
    let path = write_part(tmp.path(), "exp", 7, "w1-0001", &rows).unwrap();
    assert_eq!(
        path,
        tmp.path().join("experiment=exp/n=7/part-w1-0001.parquet")
    );
    assert_eq!(read_part(&path).unwrap(), sorted(rows.clone()));
    assert_eq!(read_dataset(tmp.path()).unwrap(), sorted(rows));
}

#[test]
fn empty_part_round_trip() {
    let tmp = tempfile::tempdir().unwrap();
    let path = write_part(tmp.path(), "exp", 3, "empty", &[]).unwrap();
    assert!(read_part(&path).unwrap().is_empty());
}

#[test]
fn rows_are_sorted_and_files_deterministic() {
    let tmp = tempfile::tempdir().unwrap();
    let mut rows = partition_rows("exp", 5, 4);
    let mut with_trials = row("exp", 5, "cfg-a", 1);
    with_trials.trial = 2;
    rows.insert(0, with_trials);
    let first = write_part(tmp.path(), "exp", 5, "a", &rows).unwrap();
    rows.reverse();
    let second = write_part(tmp.path(), "exp", 5, "b", &rows).unwrap();

    let read = read_part(&first).unwrap();
    let keys: Vec<(String, i64, i32)> = read
        .iter()
        .map(|r| (r.config.clone(), r.game_index, r.trial))
        .collect();
    let mut expected = keys.clone();
    expected.sort();
    assert_eq!(keys, expected);
    assert_eq!(fs::read(first).unwrap(), fs::read(second).unwrap());
}

#[test]
fn no_temp_file_left_after_write() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("nested/dataset");
    write_part(&dir, "exp", 1, "p1", &partition_rows("exp", 1, 3)).unwrap();
    write_part(&dir, "exp", 2, "p1", &partition_rows("exp", 2, 3)).unwrap();
    assert_eq!(
        tree(&dir),
        [
            "experiment=exp",
            "experiment=exp/n=1",
            "experiment=exp/n=1/part-p1.parquet",
            "experiment=exp/n=2",
            "experiment=exp/n=2/part-p1.parquet",
        ]
    );
    assert_eq!(remove_stale_temp_files(&dir).unwrap(), 0);
}

#[test]
fn existing_part_is_replaced_atomically() {
    let tmp = tempfile::tempdir().unwrap();
    let old_rows = partition_rows("exp", 4, 2);
    let path = write_part(tmp.path(), "exp", 4, "p", &old_rows).unwrap();
    let old_bytes = fs::read(&path).unwrap();
    let old_inode = fs::metadata(&path).unwrap().ino();
    // A reader that opened the old file before the rewrite.
    let mut old_handle = fs::File::open(&path).unwrap();

    let new_rows = partition_rows("exp", 4, 5);
    let path2 = write_part(tmp.path(), "exp", 4, "p", &new_rows).unwrap();
    assert_eq!(path, path2);
    assert_eq!(read_part(&path).unwrap(), sorted(new_rows));

    // Replaced by rename: a new inode, while the open handle still sees the complete old
    // file instead of a truncated or half-rewritten one.
    assert_ne!(fs::metadata(&path).unwrap().ino(), old_inode);
    let mut seen = Vec::new();
    old_handle.read_to_end(&mut seen).unwrap();
    assert_eq!(seen, old_bytes);
    assert_eq!(
        tree(tmp.path()),
        [
            "experiment=exp",
            "experiment=exp/n=4",
            "experiment=exp/n=4/part-p.parquet"
        ]
    );
}

#[test]
fn concurrent_writers_into_new_partitions() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_owned();
    let handles: Vec<_> = (0..8)
        .map(|i| {
            let dir = dir.clone();
            std::thread::spawn(move || {
                let n = i % 2;
                let rows = vec![row("exp", n, &format!("cfg-{i}"), i64::from(i))];
                write_part(&dir, "exp", n, &format!("t{i}"), &rows).unwrap();
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    assert_eq!(list_parts(&dir).unwrap().len(), 8);
    assert_eq!(read_dataset(&dir).unwrap().len(), 8);
}

#[test]
fn truncated_file_names_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let path = write_part(tmp.path(), "exp", 1, "p", &partition_rows("exp", 1, 50)).unwrap();
    let bytes = fs::read(&path).unwrap();
    fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();

    let err = read_part(&path).unwrap_err();
    assert_err_contains(&err, &[&path.display().to_string(), "truncated"]);
    let err = read_dataset(tmp.path()).unwrap_err();
    assert_err_contains(&err, &[&path.display().to_string(), "truncated"]);
}

#[test]
fn random_bytes_name_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("experiment=exp/n=1/part-junk.parquet");
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    // Deterministic pseudo-random bytes (xorshift), no PAR1 anywhere near the ends.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let junk: Vec<u8> = (0..4096)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    fs::write(&path, junk).unwrap();
    let err = read_part(&path).unwrap_err();
    assert_err_contains(&err, &[&path.display().to_string(), "not a Parquet file"]);
    let err = read_dataset(tmp.path()).unwrap_err();
    assert_err_contains(&err, &[&path.display().to_string(), "not a Parquet file"]);

    fs::write(&path, b"").unwrap();
    let err = read_part(&path).unwrap_err();
    assert_err_contains(&err, &[&path.display().to_string(), "empty file"]);
}

#[test]
fn damaged_footer_names_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let path = write_part(tmp.path(), "exp", 1, "p", &partition_rows("exp", 1, 5)).unwrap();
    let mut bytes = fs::read(&path).unwrap();
    let len = bytes.len();
    // Footer length field just before the trailing magic: make it point past the file start.
    bytes[len - 8..len - 4].copy_from_slice(&u32::MAX.to_le_bytes());
    fs::write(&path, &bytes).unwrap();
    let err = read_part(&path).unwrap_err();
    assert_err_contains(&err, &[&path.display().to_string(), "corrupt"]);

    // Garbage inside the footer metadata itself.
    let mut bytes = fs::read(&path).unwrap();
    bytes[len - 8..len - 4].copy_from_slice(&200u32.to_le_bytes());
    for b in &mut bytes[len - 208..len - 8] {
        *b = 0xFF;
    }
    fs::write(&path, &bytes).unwrap();
    let err = read_part(&path).unwrap_err();
    assert_err_contains(&err, &[&path.display().to_string(), "corrupt"]);
}

#[test]
fn missing_column_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let batch = rows_to_batch(&partition_rows("exp", 1, 3)).unwrap();
    let seed = batch.schema().index_of("seed").unwrap();
    let keep: Vec<usize> = (0..batch.num_columns()).filter(|i| *i != seed).collect();
    let path = tmp.path().join("experiment=exp/n=1/part-old.parquet");
    write_raw(&path, &batch.project(&keep).unwrap());

    let err = read_part(&path).unwrap_err();
    assert_err_contains(
        &err,
        &[&path.display().to_string(), "missing column \"seed\""],
    );
    let err = read_dataset(tmp.path()).unwrap_err();
    assert_err_contains(&err, &["missing column \"seed\""]);
}

#[test]
fn wrong_column_type_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let batch = rows_to_batch(&partition_rows("exp", 1, 3)).unwrap();
    let idx = batch.schema().index_of("n").unwrap();
    let mut fields: Vec<Field> = batch
        .schema()
        .fields()
        .iter()
        .map(|f| (**f).clone())
        .collect();
    let mut columns: Vec<ArrayRef> = batch.columns().to_vec();
    fields[idx] = Field::new("n", DataType::Int64, false);
    columns[idx] = Arc::new(Int64Array::from(vec![1i64; batch.num_rows()]));
    let bad = RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).unwrap();
    let path = tmp.path().join("experiment=exp/n=1/part-wide.parquet");
    write_raw(&path, &bad);

    let err = read_part(&path).unwrap_err();
    assert_err_contains(
        &err,
        &[
            &path.display().to_string(),
            "wrong type of column \"n\"",
            "expected Int32, found Int64",
        ],
    );
}

#[test]
fn partition_columns_live_only_in_the_path() {
    let tmp = tempfile::tempdir().unwrap();
    let rows = partition_rows("exp", 1, 2);
    let path = write_part(tmp.path(), "exp", 1, "p", &rows).unwrap();
    let file = fs::File::open(&path).unwrap();
    let stored = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .schema()
        .clone();
    assert_eq!(stored, file_schema());
    for column in PARTITION_COLUMNS.iter() {
        assert!(stored.column_with_name(column).is_none(), "{column} stored");
    }
    assert_eq!(read_part(&path).unwrap(), sorted(rows.clone()));

    // The same file copied into another partition belongs to that partition.
    let moved = tmp.path().join("experiment=other/n=2/part-p.parquet");
    fs::create_dir_all(moved.parent().unwrap()).unwrap();
    fs::copy(&path, &moved).unwrap();
    assert!(
        read_part(&moved)
            .unwrap()
            .iter()
            .all(|r| r.experiment == "other" && r.n == 2)
    );

    // Outside the layout the partition values are lost, and the error says why.
    let loose = tmp.path().join("loose.parquet");
    fs::copy(&path, &loose).unwrap();
    let err = read_part(&loose).unwrap_err();
    assert_err_contains(
        &err,
        &[
            &loose.display().to_string(),
            "missing column \"experiment\"",
            "not inside experiment=NAME/n=N/",
        ],
    );
}

#[test]
fn foreign_files_with_partition_columns_are_checked_against_the_path() {
    let tmp = tempfile::tempdir().unwrap();
    let rows = partition_rows("exp", 1, 2);
    let full = rows_to_batch(&rows).unwrap();

    let agreeing = tmp.path().join("experiment=exp/n=1/part-foreign.parquet");
    write_raw(&agreeing, &full);
    assert_eq!(read_part(&agreeing).unwrap(), rows);

    let moved_n = tmp.path().join("experiment=exp/n=2/part-p.parquet");
    write_raw(&moved_n, &full);
    let err = read_part(&moved_n).unwrap_err();
    assert_err_contains(
        &err,
        &[
            &moved_n.display().to_string(),
            "disagrees with column \"n\"",
            "the path says 2",
            "says 1",
        ],
    );

    let moved_exp = tmp.path().join("experiment=other/n=1/part-p.parquet");
    write_raw(&moved_exp, &full);
    let err = read_part(&moved_exp).unwrap_err();
    assert_err_contains(
        &err,
        &[
            &moved_exp.display().to_string(),
            "disagrees with column \"experiment\"",
            "\"other\"",
            "\"exp\"",
        ],
    );

    // Loose files that carry their partition columns need no path.
    let loose = tmp.path().join("loose.parquet");
    write_raw(&loose, &full);
    assert_eq!(read_part(&loose).unwrap(), rows);
}

#[test]
fn bad_names_are_refused_and_nothing_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    for bad in [
        "",
        ".hidden",
        "../escape",
        "a/b",
        "a=b",
        "with space",
        "ü",
        "42",
        "true",
    ] {
        let rows = vec![row(bad, 1, "c", 0)];
        let err = write_part(tmp.path(), bad, 1, "p", &rows).unwrap_err();
        assert!(matches!(err, Error::InvalidName { .. }), "{err}");
        assert_err_contains(&err, &["experiment name", &format!("{bad:?}")]);
    }
    let long = "x".repeat(101);
    let err = write_part(tmp.path(), &long, 1, "p", &[]).unwrap_err();
    assert_err_contains(&err, &[&long, "longer than 100"]);

    let err = write_part(tmp.path(), "exp", 1, "../p", &[]).unwrap_err();
    assert_err_contains(&err, &["part id", "\"../p\""]);
    assert!(tree(tmp.path()).is_empty());
}

#[test]
fn rows_of_another_partition_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let mut rows = partition_rows("exp", 1, 2);
    rows.push(row("exp", 2, "c", 9));
    let err = write_part(tmp.path(), "exp", 1, "p", &rows).unwrap_err();
    assert_err_contains(&err, &["row 4", "n=2", "n=1"]);
    let rows = vec![row("other", 1, "c", 0)];
    let err = write_part(tmp.path(), "exp", 1, "p", &rows).unwrap_err();
    assert_err_contains(&err, &["row 0", "\"other\"", "\"exp\""]);
    assert!(tree(tmp.path()).is_empty());
}

#[test]
fn list_parts_follows_layout_and_skips_hidden() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write_part(dir, "b", 2, "x", &partition_rows("b", 2, 1)).unwrap();
    write_part(dir, "a", 10, "y", &partition_rows("a", 10, 1)).unwrap();
    write_part(dir, "a", 9, "z", &partition_rows("a", 9, 1)).unwrap();
    fs::write(
        dir.join("experiment=a/n=9/.part-q.parquet.1-0.tmp"),
        b"junk",
    )
    .unwrap();
    fs::write(dir.join(".DS_Store"), b"junk").unwrap();
    fs::create_dir(dir.join(".hidden-dir")).unwrap();

    let parts = list_parts(dir).unwrap();
    let summary: Vec<(String, i32, String)> = parts
        .iter()
        .map(|p| (p.experiment.clone(), p.n, p.part_id.clone()))
        .collect();
    assert_eq!(
        summary,
        [
            ("a".to_owned(), 10, "y".to_owned()),
            ("a".to_owned(), 9, "z".to_owned()),
            ("b".to_owned(), 2, "x".to_owned()),
        ]
    );
    assert!(parts[2].path.ends_with("experiment=b/n=2/part-x.parquet"));
    assert_eq!(read_dataset(dir).unwrap().len(), 6);
}

fn layout_error_names(dir: &Path, offender: &Path) {
    let err = list_parts(dir).unwrap_err();
    assert!(matches!(err, Error::Layout { .. }), "{err}");
    assert_err_contains(&err, &[&offender.display().to_string()]);
    let err = read_dataset(dir).unwrap_err();
    assert_err_contains(&err, &[&offender.display().to_string()]);
}

#[test]
fn stray_entries_are_layout_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write_part(dir, "exp", 1, "p", &partition_rows("exp", 1, 1)).unwrap();

    let foo = dir.join("foo");
    fs::create_dir(&foo).unwrap();
    layout_error_names(dir, &foo);
    fs::remove_dir(&foo).unwrap();

    let readme = dir.join("README.md");
    fs::write(&readme, b"hi").unwrap();
    layout_error_names(dir, &readme);
    fs::remove_file(&readme).unwrap();

    let bad_n = dir.join("experiment=exp/n=abc");
    fs::create_dir(&bad_n).unwrap();
    layout_error_names(dir, &bad_n);
    fs::remove_dir(&bad_n).unwrap();

    let notes = dir.join("experiment=exp/n=1/notes.txt");
    fs::write(&notes, b"hi").unwrap();
    layout_error_names(dir, &notes);
    fs::remove_file(&notes).unwrap();

    let numeric = dir.join("experiment=123");
    fs::create_dir(&numeric).unwrap();
    layout_error_names(dir, &numeric);
    let err = list_parts(dir).unwrap_err();
    assert_err_contains(&err, &["must start with a letter"]);
    fs::remove_dir(&numeric).unwrap();

    let no_id = dir.join("experiment=exp/n=1/part-.parquet");
    fs::write(&no_id, b"hi").unwrap();
    layout_error_names(dir, &no_id);
    fs::remove_file(&no_id).unwrap();

    let file_as_experiment = dir.join("experiment=file");
    fs::write(&file_as_experiment, b"hi").unwrap();
    layout_error_names(dir, &file_as_experiment);
    fs::remove_file(&file_as_experiment).unwrap();

    let nested = dir.join("experiment=exp/n=1/part-dir.parquet");
    fs::create_dir(&nested).unwrap();
    layout_error_names(dir, &nested);
    fs::remove_dir(&nested).unwrap();

    assert_eq!(list_parts(dir).unwrap().len(), 1);
    let missing = dir.join("does-not-exist");
    let err = list_parts(&missing).unwrap_err();
    assert_err_contains(&err, &[&missing.display().to_string(), "cannot list"]);
}

#[test]
fn stale_temp_files_are_removed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let part = write_part(dir, "exp", 1, "p", &partition_rows("exp", 1, 1)).unwrap();
    let stale = [
        dir.join("experiment=exp/n=1/.part-p.parquet.999-0.tmp"),
        dir.join("experiment=exp/n=1/.part-q.parquet.999-1.tmp"),
        dir.join(".top.tmp"),
    ];
    for path in &stale {
        fs::write(path, b"half").unwrap();
    }
    let keep = [
        dir.join("experiment=exp/n=1/visible.tmp"),
        dir.join("experiment=exp/n=1/.hidden-not-tmp"),
    ];
    for path in &keep {
        fs::write(path, b"keep").unwrap();
    }

    assert_eq!(remove_stale_temp_files(dir).unwrap(), 3);
    assert!(stale.iter().all(|p| !p.exists()));
    assert!(keep.iter().all(|p| p.exists()));
    assert!(part.exists());
    assert_eq!(remove_stale_temp_files(dir).unwrap(), 0);
    assert_eq!(remove_stale_temp_files(&dir.join("absent")).unwrap(), 0);
}
