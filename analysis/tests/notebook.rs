//! Runs `analysis/notebooks/martello.ipynb` with nbclient on a small dataset written here,
//! and fails if any cell raises. Skipped (with a printed reason) without `HAMMER_PYTHON`,
//! unless `HAMMER_REQUIRE_PYTHON=1`.

mod common;

use std::path::Path;

use tempfile::TempDir;

#[test]
fn the_notebook_runs_on_a_real_dataset() {
    let Some(python) = common::python() else {
        return;
    };
    let tmp = TempDir::new().expect("temp");
    let exps: Vec<common::Exp> = common::full_experiments()
        .into_iter()
        .filter(|e| ["solvability3", "solvability", "prefixes"].contains(&e.name))
        .collect();
    common::write_experiments(tmp.path(), &exps);
    let notebook = Path::new(env!("CARGO_MANIFEST_DIR")).join("notebooks/martello.ipynb");
    let dataset = tmp.path().to_string_lossy().into_owned();
    let out = common::run_python(
        &python,
        &common::tests_dir().join("run_notebook.py"),
        &[&notebook.to_string_lossy()],
        &[("HAMMER_DATASET", dataset.as_str())],
    );
    // Three figures, each drawn only when its rows exist: all three must be there.
    assert!(out.contains("3 images"), "{out}");
}
