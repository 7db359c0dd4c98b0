//! `hammer estimate` as a user runs it: a line per experiment with its rows and the
//! sample it solved, a total, and refusals that name what is wrong.

use std::process::{Command, Output};

fn hammer(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hammer"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env("NO_COLOR", "1")
        .output()
        .expect("hammer runs")
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

#[test]
fn every_experiment_gets_a_line_with_its_rows_and_sample() {
    let dir = tempfile::tempdir().unwrap();
    let sweep = dir.path().join("two.toml");
    std::fs::write(
        &sweep,
        "name = \"two\"\nseed = 2013\n\n[[experiment]]\nname = \"small\"\nsizes = [3, 4]\n\
         games = 50\n\n[[experiment]]\nname = \"orders\"\nsizes = [4]\ngames = 20\n\
         orders = [\"standard\", \"random\"]\n",
    )
    .unwrap();
    let out = stdout(&hammer(&[
        "estimate",
        sweep.to_str().unwrap(),
        "--samples",
        "10",
    ]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("two: 140 rows, "), "{out}");
    assert!(lines[1].trim_start().starts_with("small "), "{out}");
    assert!(lines[1].contains(" 100 rows "), "{out}");
    assert!(lines[1].contains("(sample: 10 rows, "), "{out}");
    assert!(lines[2].trim_start().starts_with("orders "), "{out}");
    assert!(lines[2].contains(" 40 rows "), "{out}");
    assert!(lines[2].contains("    2 configs"), "{out}");
    assert!(lines[3].starts_with("total: measured "), "{out}");
}

#[test]
fn a_sample_never_exceeds_the_experiment() {
    let out = stdout(&hammer(&[
        "estimate",
        "examples/quickstart.toml",
        "--samples",
        "3",
    ]));
    assert!(out.starts_with("quickstart: "), "{out}");
    assert!(out.contains("(sample: 3 rows, "), "{out}");
    assert!(out.contains("\ntotal: measured "), "{out}");
}

#[test]
fn bad_input_is_refused_with_its_reason() {
    let zero = hammer(&["estimate", "examples/quickstart.toml", "--samples", "0"]);
    assert_eq!(zero.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&zero.stderr).contains("--samples"));

    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        "name = \"bad\"\nseed = 1\n\n[[experiment]]\nname = \"e\"\nsizes = [9]\ngames = 1\n",
    )
    .unwrap();
    let out = hammer(&["estimate", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.toml:6:10: experiment[0].sizes"), "{err}");
}
