//! `hammer learn` and the learned move order as a user runs them: a sweep solved by
//! `hammer run`, a knowledge base learned from it, then `solve`, `bench` and a sweep
//! with `orders = ["learned:KB"]`, a worker that gets the knowledge base from its
//! coordinator, and bad knowledge base files.

mod support;

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use support::{HAMMER, Proc, free_port, normalized, s};

fn hammer(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hammer"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("hammer runs")
}

fn ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn fails(out: Output) -> String {
    assert!(!out.status.success(), "should fail");
    String::from_utf8_lossy(&out.stderr).to_string()
}

const TRAIN: &str = r#"
name = "train"
seed = 5
[[experiment]]
name = "exact"
sizes = [4]
games = 150
"#;

const TEST: &str = r#"
name = "test"
seed = 6
[[experiment]]
name = "cmp"
sizes = [4]
games = 60
orders = ["standard", "learned:kb.bin,3"]
"#;

#[test]
fn learn_then_solve_bench_and_sweep_with_the_learned_order() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("train.toml"), TRAIN).unwrap();
    ok(hammer(dir, &["run", "train.toml", "--out", "train"]));
    let text = ok(hammer(
        dir,
        &[
            "learn", "train", "--n", "4", "--radius", "4", "--out", "kb.bin",
        ],
    ));
    assert!(text.starts_with("150 games"), "{text}");
    let first = std::fs::read(dir.join("kb.bin")).unwrap();
    ok(hammer(
        dir,
        &[
            "learn",
            "train",
            "--n",
            "4",
            "--radius",
            "4",
            "--out",
            "again.bin",
        ],
    ));
    assert_eq!(
        first,
        std::fs::read(dir.join("again.bin")).unwrap(),
        "deterministic"
    );

    let solve = |order: &str| {
        let out = ok(hammer(
            dir,
            &[
                "solve", "--random", "--n", "4", "--seed", "9", "--index", "3", "--order", order,
                "--json",
            ],
        ));
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    // No knowledge base serves another family.
    let err = fails(hammer(
        dir,
        &[
            "solve",
            "--puzzle",
            "peg",
            "--order",
            "learned:kb.bin",
            "--param",
            "pegs=6",
            "--random",
            "--index",
            "0",
        ],
    ));
    assert!(err.contains("puzzle peg has none to learn from"), "{err}");
    let standard = solve("standard");
    let learned = solve("learned:kb.bin,4,0.1");
    assert_eq!(learned["min_stones"], standard["min_stones"]);
    assert_eq!(learned["exhaustive"], true);
    let order = learned["order"].as_str().unwrap();
    assert!(order.starts_with("learned:kb.bin,4,0.1#"), "{order}");

    let bench = ok(hammer(
        dir,
        &[
            "bench",
            "--n",
            "4",
            "--games",
            "50",
            "--config",
            "standard/exact",
            "--config",
            "learned:kb.bin/luby:16",
            "--per-game",
            "games.csv",
        ],
    ));
    assert!(bench.contains("| learned:kb.bin/luby:16 |"), "{bench}");
    let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 2 * 50);

    std::fs::write(dir.join("test.toml"), TEST).unwrap();
    let run = ok(hammer(dir, &["run", "test.toml", "--out", "test"]));
    assert!(run.contains("learned:kb.bin,3,0#"), "{run}");

    // Under a schedule that restarts, a temperature left out is 0.1, and 0 is refused:
    // every restart would repeat the same attempt.
    let restarted = |order: &str| {
        hammer(
            dir,
            &[
                "solve",
                "--random",
                "--n",
                "4",
                "--seed",
                "9",
                "--index",
                "3",
                "--order",
                order,
                "--schedule",
                "luby:16",
                "--json",
            ],
        )
    };
    let out: serde_json::Value = serde_json::from_str(&ok(restarted("learned:kb.bin,4"))).unwrap();
    let order = out["order"].as_str().unwrap();
    assert!(order.starts_with("learned:kb.bin,4,0.1#"), "{order}");
    assert_eq!(out["min_stones"], standard["min_stones"]);
    let err = fails(restarted("learned:kb.bin,4,0"));
    assert!(
        err.contains("temperature 0") && err.contains("luby:16") && err.contains("restart"),
        "{err}"
    );
    let err = fails(hammer(
        dir,
        &[
            "bench",
            "--n",
            "4",
            "--games",
            "5",
            "--config",
            "learned:kb.bin,4,0/paper",
        ],
    ));
    assert!(
        err.contains("temperature 0") && err.contains("paper"),
        "{err}"
    );
    std::fs::write(
        dir.join("frozen.toml"),
        TEST.replace(
            "\"learned:kb.bin,3\"]",
            "\"learned:kb.bin,3,0\"]\nschedules = [\"luby:16\"]",
        ),
    )
    .unwrap();
    let err = fails(hammer(dir, &["run", "frozen.toml", "--out", "frozen"]));
    assert!(
        err.contains("frozen.toml:8:") && err.contains("orders") && err.contains("temperature 0"),
        "{err}"
    );
    assert!(!dir.join("frozen").exists(), "nothing may be written");
}

#[test]
fn bad_knowledge_bases_are_refused_with_the_file_and_the_problem() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let solve = |order: &str| hammer(dir, &["solve", "A1B2/B1A2", "--order", order]);
    let err = fails(solve("learned:missing.kb"));
    assert!(
        err.contains("missing.kb") && err.contains("cannot read"),
        "{err}"
    );
    std::fs::write(dir.join("junk.kb"), b"not a knowledge base").unwrap();
    let err = fails(solve("learned:junk.kb"));
    assert!(err.contains("junk.kb") && err.contains("magic"), "{err}");
    std::fs::write(dir.join("train.toml"), TRAIN).unwrap();
    ok(hammer(dir, &["run", "train.toml", "--out", "train"]));
    ok(hammer(
        dir,
        &["learn", "train", "--n", "4", "--out", "kb.bin"],
    ));
    let bytes = std::fs::read(dir.join("kb.bin")).unwrap();
    std::fs::write(dir.join("cut.kb"), &bytes[..bytes.len() / 2]).unwrap();
    let err = fails(solve("learned:cut.kb"));
    assert!(
        err.contains("cut.kb") && err.contains("truncated or corrupted"),
        "{err}"
    );
    // Learned on 4x4: a 2x2 board is refused.
    let err = fails(solve("learned:kb.bin"));
    assert!(err.contains("4x4") && err.contains("2x2"), "{err}");
    // No 5x5 game in the dataset.
    let err = fails(hammer(
        dir,
        &["learn", "train", "--n", "5", "--out", "x.kb"],
    ));
    assert!(err.contains("no exact 5x5"), "{err}");
    // A family without transition features, and a radius past Martello's features.
    let err = fails(hammer(
        dir,
        &["learn", "train", "--puzzle", "peg", "--out", "x.kb"],
    ));
    assert!(
        err.contains("puzzle peg") && err.contains("none to learn from"),
        "{err}"
    );
    let err = fails(hammer(
        dir,
        &[
            "learn", "train", "--n", "4", "--radius", "13", "--out", "x.kb",
        ],
    ));
    assert!(err.contains("radius 12 at most"), "{err}");
}

/// A worker with no copy of the knowledge base (and a junk file under its name in its
/// own directory) solves a learned-order sweep with the coordinator's bytes, and the
/// dataset is `hammer run`'s.
#[test]
fn a_worker_gets_the_knowledge_base_from_its_coordinator() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("train.toml"), TRAIN).unwrap();
    ok(hammer(dir, &["run", "train.toml", "--out", "train"]));
    ok(hammer(
        dir,
        &[
            "learn", "train", "--n", "4", "--radius", "3", "--out", "kb.bin",
        ],
    ));
    std::fs::write(dir.join("test.toml"), TEST).unwrap();
    ok(hammer(dir, &["run", "test.toml", "--out", "local"]));

    let elsewhere = dir.join("worker-home");
    std::fs::create_dir(&elsewhere).unwrap();
    std::fs::write(elsewhere.join("kb.bin"), b"not the knowledge base").unwrap();
    let listen = format!("127.0.0.1:{}", free_port());
    // The coordinator resolves `kb.bin` against its working directory, as `hammer run`.
    let mut coordinator = Proc::spawn_in(
        Some(dir),
        "coordinator",
        HAMMER,
        &s(&[
            "coordinator",
            "--sweep",
            "test.toml",
            "--out",
            "dist",
            "--state",
            "state",
            "--listen",
            &listen,
        ]),
        &[],
        dir.join("coordinator.log"),
    );
    let worker = Command::new(HAMMER)
        .args([
            "worker",
            "--coordinator",
            &format!("http://{listen}"),
            "--threads",
            "1",
        ])
        .current_dir(&elsewhere)
        .env_remove("HAMMER_TOKEN")
        .output()
        .expect("worker runs");
    assert!(
        worker.status.success(),
        "worker: {}\ncoordinator: {}",
        String::from_utf8_lossy(&worker.stderr),
        coordinator.log_text()
    );
    coordinator.wait_ok(Duration::from_secs(60));
    let read = |name: &str| {
        let mut rows = normalized(hammer_dataset::read_dataset(&dir.join(name)).unwrap());
        rows.sort_by_key(|r| r.key());
        rows
    };
    let (local, dist) = (read("local"), read("dist"));
    assert_eq!(local.len(), 120);
    assert_eq!(local, dist);
    assert!(
        local
            .iter()
            .any(|r| r.order.starts_with("learned:kb.bin,3,0#"))
    );
}
