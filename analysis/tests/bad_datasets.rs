//! Directories that are not (complete) hammer datasets: clear errors that name the file, or
//! warnings that say how complete an unfinished sweep is.

mod common;

use std::fs;
use std::path::Path;
use std::sync::Arc;

use arrow::array::{ArrayRef, Int32Array, RecordBatch};
use arrow::datatypes::{DataType, Field, Schema};
use hammer_analysis::analyze;
use hammer_dataset::{ResultRow, file_schema, rows_to_batch};
use parquet::arrow::ArrowWriter;
use tempfile::TempDir;

fn small(dir: &Path) -> Vec<ResultRow> {
    common::write_experiments(
        dir,
        &[common::Exp {
            name: "exact",
            sizes: vec![3],
            games: 0..20,
            configs: vec![common::conf("standard", "exact", 0, 1)],
        }],
    )
}

fn error_of(dir: &Path) -> String {
    match analyze(dir) {
        Ok(_) => panic!("{} was accepted", dir.display()),
        Err(e) => e.to_string(),
    }
}

/// Writes `rows` as a Parquet file at `path` with the file schema, after `edit` changes
/// the columns.
fn write_edited(
    path: &Path,
    rows: &[ResultRow],
    edit: impl Fn(&mut Vec<Field>, &mut Vec<ArrayRef>),
) {
    let batch = rows_to_batch(rows).expect("batch");
    let keep: Vec<usize> = batch
        .schema()
        .fields()
        .iter()
        .enumerate()
        .filter(|(_, f)| file_schema().field_with_name(f.name()).is_ok())
        .map(|(i, _)| i)
        .collect();
    let batch = batch.project(&keep).expect("project");
    let mut fields: Vec<Field> = batch
        .schema()
        .fields()
        .iter()
        .map(|f| (**f).clone())
        .collect();
    let mut columns = batch.columns().to_vec();
    edit(&mut fields, &mut columns);
    let batch = RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).expect("edited");
    fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
    let file = fs::File::create(path).expect("create");
    let mut w = ArrowWriter::try_new(file, batch.schema(), None).expect("writer");
    w.write(&batch).expect("write");
    w.close().expect("close");
}

#[test]
fn a_missing_or_empty_directory_is_not_a_dataset() {
    let tmp = TempDir::new().expect("temp");
    let missing = tmp.path().join("nope");
    let err = error_of(&missing);
    assert!(
        err.contains("nope") && err.contains("not a hammer dataset"),
        "{err}"
    );

    let empty = tmp.path().join("empty");
    fs::create_dir(&empty).expect("dir");
    let err = error_of(&empty);
    assert!(err.contains("no part files"), "{err}");

    let file = tmp.path().join("file.parquet");
    fs::write(&file, b"PAR1").expect("file");
    let err = error_of(&file);
    assert!(
        err.contains("file.parquet") && err.contains("is a file"),
        "{err}"
    );
}

#[test]
fn a_stray_entry_is_named() {
    let tmp = TempDir::new().expect("temp");
    small(tmp.path());
    fs::write(tmp.path().join("README"), "notes").expect("stray");
    let err = error_of(tmp.path());
    assert!(
        err.contains("README") && err.contains("not part of the dataset layout"),
        "{err}"
    );
}

#[test]
fn corrupt_and_foreign_files_are_named() {
    let tmp = TempDir::new().expect("temp");
    small(tmp.path());
    let part = tmp.path().join("experiment=exact/n=3/part-c0.parquet");
    let bytes = fs::read(&part).expect("part");

    fs::write(&part, &bytes[..bytes.len() / 2]).expect("truncate");
    let err = error_of(tmp.path());
    assert!(
        err.contains("part-c0.parquet") && err.contains("truncated"),
        "{err}"
    );

    fs::write(&part, b"sweep,config\nx,y\n").expect("csv");
    let err = error_of(tmp.path());
    assert!(
        err.contains("part-c0.parquet") && err.contains("not a Parquet file"),
        "{err}"
    );

    fs::write(&part, b"").expect("empty");
    let err = error_of(tmp.path());
    assert!(
        err.contains("part-c0.parquet") && err.contains("empty file"),
        "{err}"
    );

    // Valid magic at both ends, garbage in between.
    let mut garbled = bytes.clone();
    let mid = garbled.len() / 2;
    for b in &mut garbled[8..mid] {
        *b = 0x55;
    }
    let footer_len = garbled.len() - 8;
    for b in &mut garbled[footer_len - 40..footer_len] {
        *b = 0xAA;
    }
    fs::write(&part, &garbled).expect("garble");
    let err = error_of(tmp.path());
    assert!(
        err.contains("part-c0.parquet") && err.contains("corrupt"),
        "{err}"
    );
}

#[test]
fn missing_and_mistyped_columns_are_named_with_the_file() {
    let tmp = TempDir::new().expect("temp");
    let rows = small(tmp.path());
    let part = tmp.path().join("experiment=exact/n=3/part-bad.parquet");

    write_edited(&part, &rows, |fields, columns| {
        let i = fields
            .iter()
            .position(|f| f.name() == "expansions")
            .expect("col");
        fields.remove(i);
        columns.remove(i);
    });
    let err = error_of(tmp.path());
    assert!(
        err.contains("part-bad.parquet") && err.contains("missing column \"expansions\""),
        "{err}"
    );

    // A column the analysis does not read is still required: the file is not a hammer part.
    write_edited(&part, &rows, |fields, columns| {
        let i = fields
            .iter()
            .position(|f| f.name() == "solution")
            .expect("col");
        fields.remove(i);
        columns.remove(i);
    });
    let err = error_of(tmp.path());
    assert!(
        err.contains("part-bad.parquet") && err.contains("missing column \"solution\""),
        "{err}"
    );

    write_edited(&part, &rows, |fields, columns| {
        let i = fields
            .iter()
            .position(|f| f.name() == "min_stones")
            .expect("col");
        fields[i] = Field::new("min_stones", DataType::Int64, false);
        columns[i] = arrow::compute::cast(&columns[i], &DataType::Int64).expect("cast");
    });
    let err = error_of(tmp.path());
    assert!(
        err.contains("part-bad.parquet") && err.contains("wrong type of column \"min_stones\""),
        "{err}"
    );

    // A foreign writer that stored n, with a value that contradicts the path.
    write_edited(&part, &rows, |fields, columns| {
        fields.push(Field::new("n", DataType::Int32, false));
        columns.push(Arc::new(Int32Array::from(vec![4; rows.len()])));
    });
    let err = error_of(tmp.path());
    assert!(
        err.contains("part-bad.parquet") && err.contains("disagrees with column \"n\""),
        "{err}"
    );
}

#[test]
fn an_unfinished_sweep_is_analysed_with_a_warning() {
    let tmp = TempDir::new().expect("temp");
    let exps = [common::Exp {
        name: "two_orders",
        sizes: vec![3],
        games: 0..30,
        configs: vec![
            common::conf("standard", "exact", 0, 1),
            common::conf("most-options", "exact", 0, 1),
        ],
    }];
    common::write_experiments(tmp.path(), &exps);
    // A unit of the second configuration never arrived: rewrite its part without games
    // 10..20, as if they were still running.
    let part = tmp.path().join("experiment=two_orders/n=3/part-c1.parquet");
    let rows: Vec<ResultRow> = hammer_dataset::read_part(&part)
        .expect("read")
        .into_iter()
        .filter(|r| !(10..20).contains(&r.game_index))
        .collect();
    hammer_dataset::write_part(tmp.path(), "two_orders", 3, "c1", &rows).expect("rewrite");

    let report = analyze(tmp.path()).expect("an unfinished sweep is still analysed");
    let text = report.warnings.join("\n");
    assert!(text.contains("looks unfinished"), "{text}");
    assert!(text.contains("first gap at 10"), "{text}");
    assert!(text.contains("50 rows of the 60 expected"), "{text}");
    assert!(text.contains("83.3% complete"), "{text}");
    assert_eq!(report.completeness.rows_present, 50);
    assert_eq!(report.completeness.rows_expected, 60);
    assert_eq!(report.completeness.groups_with_gaps, 1);
    assert!(report.figure("fig08").expect("fig08").missing.is_none());

    // A coordinator state directory says more may come.
    fs::create_dir(tmp.path().join(".hammer-state")).expect("state dir");
    fs::write(tmp.path().join(".hammer-state/journal"), "").expect("journal");
    let report = analyze(tmp.path()).expect("analyse");
    assert!(report.completeness.coordinator_state);
    let text = report.warnings.join("\n");
    assert!(
        text.contains(".hammer-state") && text.contains("journal"),
        "{text}"
    );
}

#[test]
fn duplicate_rows_are_counted_once() {
    let tmp = TempDir::new().expect("temp");
    let rows = small(tmp.path());
    hammer_dataset::write_part(tmp.path(), "exact", 3, "copy", &rows).expect("copy");
    let report = analyze(tmp.path()).expect("analyse");
    assert_eq!(report.rows as usize, rows.len());
    assert_eq!(report.completeness.duplicate_rows as usize, rows.len());
    assert!(
        report.warnings.iter().any(|w| w.contains("repeat the key")),
        "{:?}",
        report.warnings
    );
    let games = report
        .table("fig08_solvable_ratio")
        .and_then(|t| t.get(&[("n", "3")], "games"))
        .and_then(|c| c.as_f64());
    assert_eq!(games, Some(20.0));
}

/// An experiment that plays only the games another left unknown (`unknown_games` in a
/// sweep file) has holes on purpose: no warning once it plays all of them, a count while
/// it plays some; holes of any other shape still look unfinished.
#[test]
fn a_continuation_of_the_unknown_games_is_not_taken_for_unfinished() {
    let tmp = TempDir::new().expect("temp");
    let exps = [common::Exp {
        name: "base",
        sizes: vec![3],
        games: 0..12,
        configs: vec![common::conf("standard", "exact", 0, 1)],
    }];
    let rows = common::write_experiments(tmp.path(), &exps);
    // Games 3, 5 and 7 stopped by a per-game limit: unknown.
    let unknown = [3, 5, 7];
    let base: Vec<ResultRow> = rows
        .iter()
        .cloned()
        .map(|mut r| {
            if unknown.contains(&r.game_index) {
                r.exhaustive = false;
                r.capped_by = Some("max_expansions".to_owned());
            }
            r
        })
        .collect();
    hammer_dataset::write_part(tmp.path(), "base", 3, "c0", &base).expect("rewrite");
    let write = |experiment: &str, games: &[i64]| {
        let rows: Vec<ResultRow> = rows
            .iter()
            .filter(|r| games.contains(&r.game_index))
            .cloned()
            .map(|mut r| {
                r.experiment = experiment.to_owned();
                r
            })
            .collect();
        hammer_dataset::write_part(tmp.path(), experiment, 3, "c0", &rows).expect("write");
    };
    let warnings = |dir: &Path| analyze(dir).expect("analyse").warnings.join("\n");

    write("more", &[3, 5]);
    let text = warnings(tmp.path());
    assert!(
        text.contains("experiment \"more\" plays only games another experiment left unknown")
            && text.contains("n=3: 2 of the 3 games experiment \"base\" left unknown"),
        "{text}"
    );
    assert!(!text.contains("looks unfinished"), "{text}");

    write("more", &[3, 5, 7]);
    let text = warnings(tmp.path());
    assert!(!text.contains("\"more\""), "{text}");

    // Game 6 was settled by "base": this one is no continuation of it.
    write("other", &[3, 6]);
    let text = warnings(tmp.path());
    assert!(
        text.contains("experiment \"other\" looks unfinished"),
        "{text}"
    );
}
