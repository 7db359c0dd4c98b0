//! A sweep that mixes puzzle families (Martello, peg solitaire, Mancala, slide tours),
//! through the real
//! `hammer` binary: `hammer run`, a coordinator with two workers one of which is killed
//! with SIGKILL mid-run, the Python readers and one DuckDB query over the mixed dataset,
//! `hammer analyze`, the spec questions through `hammer ask`, and bad input per family.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use hammer_dataset::{Cell, ResultRow};
use hammer_sweep::Sweep;
use support::{free_port, hammer, ok};

/// Every family, with enough games that a unit of each takes a moment.
const MIXED: &str = r#"
name = "families"
seed = 2026

[[experiment]]
name = "martello"
sizes = [4, 5]
games = 40
unit_games = 10

[[experiment]]
name = "peg_random"
puzzle = "peg"
boards = ["english"]
pegs = [6, 9]
games = 12
unit_games = 4

# Every single-vacancy start of a user's board (a 4x4 block, as a hole mask).
[[experiment]]
name = "peg_classic"
puzzle = "peg"
boards = ["xxxx---/xxxx---/xxxx---/xxxx---/-------/-------/-------"]
unit_games = 4

[[experiment]]
name = "mancala"
puzzle = "mancala"
holes = [2, 3]
stones = [1, 2, 3]
picks = ["all", "own"]
unit_games = 1

# Every position of one obstacle on 4x4 and 5x5 boards (the seed's 5x5 table), counted.
[[experiment]]
name = "tours_single"
puzzle = "tours"
sizes = [4, 5]
k = 1
place = "every"
count = true
unit_games = 8

# Random 6x6 boards with three obstacles, and a fixed start.
[[experiment]]
name = "tours_random"
puzzle = "tours"
sizes = [6]
k = 3
starts = [0, 8]
games = 10
unit_games = 5
"#;

fn write_sweep(dir: &Path) -> PathBuf {
    let path = dir.join("sweep.toml");
    std::fs::write(&path, MIXED).expect("write sweep");
    path
}

fn run(sweep: &Path, out: &Path) {
    ok(&hammer(&[
        "run",
        sweep.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "1",
    ]));
}

#[test]
fn a_mixed_sweep_runs_once_per_key_on_one_machine_and_on_a_cluster_with_a_kill() {
    let dir = tempfile::tempdir().unwrap();
    let sweep_path = write_sweep(dir.path());
    let sweep = Sweep::parse(MIXED, "test").unwrap();
    let local = dir.path().join("local");
    run(&sweep_path, &local);
    let rows = support::normalized(support::read_checked(&local, &sweep));

    // Every family is there, with its own columns filled and the others' empty.
    let families: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r.puzzle.as_str()).collect();
    assert_eq!(
        families.into_iter().collect::<Vec<_>>(),
        ["mancala", "martello", "peg", "tours"]
    );
    for row in &rows {
        let family = hammer_family::by_name(&row.puzzle).unwrap();
        assert_eq!(row.extra.len(), family.columns().len(), "{row:?}");
        assert!(row.schedule_complete && row.exhaustive, "{row:?}");
        assert!(row.lower_bound <= row.score, "{row:?}");
    }
    // The single-vacancy starts of the 4x4 board: one instance per hole, 15 pegs each;
    // a one-peg finish is listed exactly when one peg remains.
    let classic: Vec<&ResultRow> = rows
        .iter()
        .filter(|r| r.experiment == "peg_classic")
        .collect();
    assert_eq!(classic.len(), 16);
    for row in &classic {
        assert_eq!(row.n, 15);
        assert!(row.params.starts_with("board=xxxx---/"), "{row:?}");
        let finishes_at = hammer_family::by_name("peg")
            .unwrap()
            .columns()
            .iter()
            .position(|c| c.name == "peg_finishes")
            .unwrap();
        let Cell::Text(finishes) = &row.extra[finishes_at] else {
            panic!("peg_finishes is {:?}", row.extra[finishes_at]);
        };
        assert_eq!(finishes.is_empty(), row.score > 1, "{row:?}");
    }
    // Mancala: one instance per point, twelve points.
    let mancala: Vec<&ResultRow> = rows.iter().filter(|r| r.puzzle == "mancala").collect();
    assert_eq!(mancala.len(), 12);
    let column = |name: &str| {
        let columns = hammer_family::by_name("mancala").unwrap().columns();
        columns.iter().position(|c| c.name == name).unwrap()
    };
    for row in &mancala {
        let int = |name: &str| match &row.extra[column(name)] {
            Cell::Int(v) => *v,
            other => panic!("{name} is {other:?}"),
        };
        let (max_home, total) = (int("mancala_max_home"), int("mancala_total"));
        assert_eq!(max_home, total - i64::from(row.score), "{row:?}");
    }
    check_tours(&rows);

    // The same sweep on a coordinator and two workers, one killed with SIGKILL as soon
    // as results arrive: the same rows, every key once.
    let port = free_port();
    let out = dir.path().join("cluster");
    let state = dir.path().join("state");
    let mut coordinator = support::coordinator(
        dir.path(),
        "coordinator",
        &sweep_path,
        &out,
        port,
        &[
            "--state",
            support::path_str(&state),
            "--lease-secs",
            "2",
            "--heartbeat-secs",
            "0.5",
            "--linger-secs",
            "5",
        ],
    );
    let worker = |name: &str| support::worker(dir.path(), name, port, &["--threads", "1"]);
    let mut victim = worker("victim");
    let started = std::time::Instant::now();
    while !state.join("journal.log").exists()
        || std::fs::read_to_string(state.join("journal.log"))
            .unwrap_or_default()
            .lines()
            .filter(|l| l.starts_with("commit "))
            .count()
            < 3
    {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no commits: {}",
            coordinator.log_text()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    victim.kill9();
    let mut survivor = worker("survivor");
    coordinator.wait_ok(Duration::from_secs(180));
    survivor.wait_ok(Duration::from_secs(30));
    let cluster_rows = support::normalized(support::read_checked(&out, &sweep));
    assert_eq!(cluster_rows, rows);

    python_readers(&local, &rows);
    analyze(&local, rows.len());
}

/// Slide tours: every path replays and is a tour exactly when the score is 0; the 5x5
/// single-obstacle boards are solvable exactly when the obstacle is on an odd cell (the
/// seed's table); the counts agree with solvability.
fn check_tours(rows: &[ResultRow]) {
    let family = hammer_family::by_name("tours").unwrap();
    let column = |name: &str| {
        let columns = family.columns();
        columns.iter().position(|c| c.name == name).unwrap()
    };
    let tours: Vec<&ResultRow> = rows.iter().filter(|r| r.puzzle == "tours").collect();
    assert_eq!(tours.len(), 16 + 25 + 20);
    for row in &tours {
        let Cell::Text(board) = &row.extra[column("tours_board")] else {
            panic!("tours_board: {row:?}");
        };
        let Cell::Text(path) = &row.extra[column("tours_path")] else {
            panic!("tours_path: {row:?}");
        };
        let path: Vec<u32> = path
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        let check = family
            .answer(&serde_json::json!({"kind": "check", "board": board, "path": path}))
            .unwrap();
        assert_eq!(check["valid"], row.score == 0, "{row:?}");
        // The path is a legal partial tour: its cells leave exactly `score` unvisited.
        let free = board.chars().filter(|&c| c == '.').count();
        assert_eq!(free - path.len(), row.score as usize, "{row:?}");
        if row.params.contains("start=8") {
            assert_eq!(path.first(), Some(&8), "{row:?}");
        }
    }
    for row in tours.iter().filter(|r| r.experiment == "tours_single") {
        let Cell::Int(count) = row.extra[column("tours_count")] else {
            panic!("tours_count: {row:?}");
        };
        assert_eq!(count > 0, row.solvable, "{row:?}");
        if row.n == 5 {
            let Cell::Text(board) = &row.extra[column("tours_board")] else {
                unreachable!()
            };
            let obstacle = board.replace('/', "").find('#').unwrap() + 1;
            assert_eq!(row.solvable, obstacle % 2 == 1, "{row:?}");
        }
    }
}

/// The four Python readers read every family's rows as they are, and one DuckDB query
/// groups the mixed sweep by family.
fn python_readers(out: &Path, rows: &[ResultRow]) {
    let Some(summaries) = support::python_readers(out, rows.len()) else {
        return;
    };
    let python = support::python().expect("HAMMER_PYTHON");
    let mut by_family = std::collections::BTreeMap::new();
    for r in rows {
        *by_family.entry(r.puzzle.clone()).or_insert(0u64) += 1;
    }
    let expansions: i64 = rows.iter().map(|r| r.expansions).sum();
    for s in &summaries {
        assert_eq!(s["sum_expansions"].as_i64(), Some(expansions), "{s}");
        assert_eq!(s["puzzles"], serde_json::json!(by_family), "{s}");
    }

    // The query of docs/dataset.md.
    let query = format!(
        "import duckdb, json\n\
         rows = duckdb.sql(\"\"\"SELECT puzzle, experiment, params, count(*) AS games, \
         sum(solvable::INT) AS solved FROM read_parquet('{}/**/*.parquet', hive_partitioning = true) \
         GROUP BY ALL ORDER BY ALL\"\"\").fetchall()\n\
         print(json.dumps([list(r) for r in rows]))",
        out.display()
    );
    let output = Command::new(&python)
        .arg("-c")
        .arg(&query)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let got: Vec<(String, String, String, u64, u64)> =
        serde_json::from_slice(&output.stdout).unwrap();
    let mut want = std::collections::BTreeMap::new();
    for r in rows {
        let at = want
            .entry((r.puzzle.clone(), r.experiment.clone(), r.params.clone()))
            .or_insert((0u64, 0u64));
        at.0 += 1;
        at.1 += u64::from(r.solvable);
    }
    let want: Vec<(String, String, String, u64, u64)> = want
        .into_iter()
        .map(|((p, e, x), (g, s))| (p, e, x, g, s))
        .collect();
    assert_eq!(got, want);
}

/// `hammer analyze` writes a section per family present, beside Martello's figures, and
/// counts every family's rows: the finished sweep gets no warning.
fn analyze(out: &Path, rows: usize) {
    let json = analyze_json(out);
    assert_eq!(json["rows"].as_u64(), Some(rows as u64), "{}", json["rows"]);
    assert_eq!(json["warnings"], serde_json::json!([]));
    let title = json["title"].as_str().unwrap();
    assert!(
        title.contains("Martello") && title.contains("mancala, peg"),
        "{title}"
    );
    let ids: Vec<&str> = json["figures"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["id"].as_str())
        .collect();
    for id in ["fig08", "family-peg", "family-mancala", "family-tours"] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
    let peg = json["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "family-peg")
        .unwrap();
    let tables: Vec<&str> = peg["tables"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(tables, ["peg_summary", "peg_instances"]);
    let tours = json["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "family-tours")
        .unwrap();
    let tables: Vec<&str> = tours["tables"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    for want in [
        "tours_summary",
        "tours_single_obstacle_map_tours_single_n5",
        "tours_single_obstacle",
        "tours_solved_ratio",
        "tours_cost_by_size",
    ] {
        assert!(tables.contains(&want), "{want} missing from {tables:?}");
    }
}

fn analyze_json(out: &Path) -> serde_json::Value {
    serde_json::from_str(&ok(&hammer(&[
        "analyze",
        out.to_str().unwrap(),
        "--format",
        "json",
    ])))
    .unwrap()
}

/// A dataset of another family only is analysed as that family's: its heading names the
/// family, and no Martello figure is listed as missing.
#[test]
fn a_dataset_without_martello_gets_only_its_family_sections() {
    let dir = tempfile::tempdir().unwrap();
    let sweep = dir.path().join("peg.toml");
    std::fs::write(
        &sweep,
        "name = \"peg-only\"\nseed = 7\n\n[[experiment]]\nname = \"classic\"\npuzzle = \"peg\"\n\
         boards = [\"xxxx---/xxxx---/xxxx---/xxxx---/-------/-------/-------\"]\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    run(&sweep, &out);
    let json = analyze_json(&out);
    assert_eq!(json["title"], "Puzzle families: peg");
    // Every single-vacancy start of the 16-hole board: one row each.
    assert_eq!(json["rows"].as_u64(), Some(16));
    assert_eq!(json["experiments"], serde_json::json!(["classic"]));
    assert_eq!(json["warnings"], serde_json::json!([]));
    let ids: Vec<&str> = json["figures"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["id"].as_str())
        .collect();
    assert_eq!(ids, ["family-peg"]);
}

#[test]
fn every_conformance_case_passes_through_hammer_ask() {
    let cases = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/cases");
    for (family, file) in [
        ("peg", "peg"),
        ("mancala", "mancala"),
        ("tours", "machinarium"),
        ("clobber", "clobber"),
    ] {
        let path = cases.join(format!("{file}.jsonl"));
        let text = std::fs::read_to_string(&path).unwrap();
        let output = hammer(&["ask", "--puzzle", family, path.to_str().unwrap()]);
        let stdout = ok(&output);
        let answers: Vec<serde_json::Value> = stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let expected: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["answer"].clone())
            .collect();
        assert_eq!(answers.len(), expected.len(), "{family}");
        for (i, (got, want)) in answers.iter().zip(&expected).enumerate() {
            assert_eq!(&got["answer"], want, "{family} case {}", i + 1);
        }

        let bad = cases.join(format!("{file}-bad.jsonl"));
        let output = hammer(&["ask", "--puzzle", family, bad.to_str().unwrap()]);
        assert!(!output.status.success(), "{family}: bad cases must fail");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let lines = std::fs::read_to_string(&bad).unwrap().lines().count();
        assert_eq!(
            stdout.lines().filter(|l| l.contains("\"error\"")).count(),
            lines,
            "{family}: every bad case refused:\n{stdout}"
        );
    }
}

#[test]
fn bad_input_per_family_is_refused_with_a_clear_message_and_nothing_written() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str)] = &[
        (
            "puzzle = \"sudoku\"\ngames = 1",
            "experiment[0].puzzle: unknown puzzle 'sudoku'",
        ),
        (
            "puzzle = \"mancala\"\nholes = [0]",
            "experiment[0].holes: h = 0 is outside 1..=12",
        ),
        (
            "puzzle = \"mancala\"\nrelay = [\"yes\"]",
            "experiment[0].relay: expected true or false",
        ),
        (
            "puzzle = \"peg\"\nboards = [\"hexagonal\"]\ngames = 1",
            "experiment[0].boards",
        ),
        (
            "puzzle = \"peg\"\nsizes = [6]\ngames = 1",
            "experiment[0].sizes: unknown key",
        ),
        (
            "puzzle = \"tours\"\nboards = [\"../...\"]\ngames = 1",
            "experiment[0].boards: board: row 2 has 3 cells, expected 2 (board must be square)",
        ),
        (
            "puzzle = \"tours\"\nsizes = [4]\nobstacles = [\"3,17\"]\ngames = 1",
            "cell 17 is outside the 4x4 board",
        ),
        (
            "puzzle = \"tours\"\nsizes = [4]\nobstacles = [\"3, 3\"]\ngames = 1",
            "cell 3 is listed twice",
        ),
        (
            "puzzle = \"tours\"\nboards = [\"#../.../...\"]\nobstacles = [\"1\"]\ngames = 1",
            "cell 1 is listed twice",
        ),
        (
            "puzzle = \"tours\"\nboards = [\"#../.../...\"]\nstarts = [1]\ngames = 1",
            "experiment[0].starts: start: cell 1 is an obstacle",
        ),
        (
            "puzzle = \"tours\"\nsizes = [3]\nk = [9]\ngames = 1",
            "experiment[0].k: k: 9 obstacles do not fit",
        ),
        (
            "puzzle = \"clobber\"\ngames = 1",
            "experiment[0].rules: missing key: every clobber experiment needs `rules`",
        ),
        (
            "puzzle = \"clobber\"\nrules = [\"partisan\"]\nrows = [8]\ncolumns = [9]\ngames = 1",
            "experiment[0].columns: n: a board has at most 64 cells, got 72",
        ),
        (
            "puzzle = \"clobber\"\nrules = [\"impartial\"]\nturns = [\"x\"]\ngames = 1",
            "experiment[0].turns: turn: the impartial rule has no colour to move",
        ),
    ];
    for (i, (keys, expected)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("bad{i}.toml"));
        let out = dir.path().join(format!("out{i}"));
        std::fs::write(
            &path,
            format!("name = \"bad\"\nseed = 1\n[[experiment]]\nname = \"e\"\n{keys}\n"),
        )
        .unwrap();
        let output = hammer(&[
            "run",
            path.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{keys}");
        assert!(stderr.contains(expected), "{keys}: {stderr}");
        let at_key = [3, 5, 6, 7, 8].map(|line| format!("bad{i}.toml:{line}:"));
        assert!(
            at_key.iter().any(|a| stderr.contains(a.as_str())),
            "{keys}: {stderr}"
        );
        assert!(!out.exists(), "{keys}: nothing may be written");
    }
    // Positions and moves on the command line.
    for (args, expected) in [
        (
            vec![
                "solve",
                "--puzzle",
                "peg",
                "ooo/ooo/ooooooo/oooxooo/ooooooo/ooo/ooo",
            ],
            "bad character 'x'",
        ),
        (
            vec!["moves", "--puzzle", "mancala", "--param", "h=0", "1,1|0"],
            "h",
        ),
        (
            vec!["solve", "--puzzle", "tours", "../..."],
            "row 2 has 3 cells, expected 2 (board must be square)",
        ),
        (
            vec!["replay", "--puzzle", "tours", "#../.../...", "1"],
            "cell 1 is an obstacle",
        ),
        (
            vec!["moves", "--puzzle", "tours", ".../.../...:1,5"],
            "step 1 -> 5 breaks the rules",
        ),
        (
            vec![
                "solve",
                "--puzzle",
                "tours",
                "--random",
                "--index",
                "0",
                "--param",
                "board=#../.../...",
                "--param",
                "start=1",
            ],
            "start: cell 1 is an obstacle",
        ),
        (
            vec![
                "replay",
                "--puzzle",
                "peg",
                "ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo",
                "d2-d9",
            ],
            "d2-d9",
        ),
    ] {
        let output = hammer(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn game_commands_take_a_puzzle() {
    let v: serde_json::Value = serde_json::from_str(&ok(&hammer(&[
        "solve",
        "--puzzle",
        "peg",
        "ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo",
        "--json",
    ])))
    .unwrap();
    assert_eq!(v["puzzle"], "peg");
    assert_eq!(v["score"], 1);
    assert_eq!(v["solvable"], true);
    assert_eq!(v["exhaustive"], true);
    let solution: Vec<&str> = v["solution"].as_str().unwrap().split_whitespace().collect();
    assert_eq!(solution.len(), 31);
    assert_eq!(v["columns"]["peg_finishes"], "d1 a4 d4 g4 d7");
    // A parameter given beside a position keeps the position's own point (the tours
    // board's size here) and adds to it.
    let counted: serde_json::Value = serde_json::from_str(&ok(&hammer(&[
        "solve",
        "--puzzle",
        "tours",
        "--param",
        "count=true",
        "...../...../..#../...../.....",
        "--json",
    ])))
    .unwrap();
    assert_eq!(counted["n"], 5);
    assert_eq!(counted["columns"]["tours_count"], 64);
    // The solution replays to one peg.
    let mut args = vec![
        "replay",
        "--puzzle",
        "peg",
        "ooo/ooo/ooooooo/ooo.ooo/ooooooo/ooo/ooo",
        "--json",
    ];
    args.extend(&solution);
    let r: serde_json::Value = serde_json::from_str(&ok(&hammer(&args))).unwrap();
    assert_eq!(r["score"], 1);

    // Mancala: the seed's 48 of 48 (picks from all holes), proved.
    let v: serde_json::Value = serde_json::from_str(&ok(&hammer(&[
        "solve", "--puzzle", "mancala", "--random", "--index", "0", "--json",
    ])))
    .unwrap();
    assert_eq!(v["score"], 0, "{v}");
    assert_eq!(v["exhaustive"], true);
    let moves: serde_json::Value = serde_json::from_str(&ok(&hammer(&[
        "moves",
        "--puzzle",
        "mancala",
        "--param",
        "h=2",
        "--param",
        "s=1",
        "1,1,1,1|0",
        "--json",
    ])))
    .unwrap();
    assert_eq!(moves["puzzle"], "mancala");
    assert_eq!(moves["moves"].as_object().unwrap().len(), 4, "{moves}");
    // Without parameters, the position's hole count tells the holes per side.
    let told: serde_json::Value = serde_json::from_str(&ok(&hammer(&[
        "moves",
        "--puzzle",
        "mancala",
        "1,1,1,1|0",
        "--json",
    ])))
    .unwrap();
    assert_eq!(told["moves"], moves["moves"]);

    // Slide tours: the seed's 3x3 example board, solved to its first tour, replayed.
    let v: serde_json::Value = serde_json::from_str(&ok(&hammer(&[
        "solve",
        "--puzzle",
        "tours",
        "#../.../...",
        "--json",
    ])))
    .unwrap();
    assert_eq!(v["score"], 0, "{v}");
    assert_eq!(v["solution"], "2 R D L U R");
    let replayed = ok(&hammer(&[
        "replay",
        "--puzzle",
        "tours",
        "#../.../...",
        "2",
        "R",
        "D",
        "L",
        "U",
        "R",
    ]));
    assert!(
        replayed.contains("#../.../...:2,3,6,9,8,7,4,5"),
        "{replayed}"
    );
    assert!(replayed.contains(" 7  8* 3"), "{replayed}");
    let moves: serde_json::Value = serde_json::from_str(&ok(&hammer(&[
        "moves",
        "--puzzle",
        "tours",
        "#../.../...:2,3,6,9",
        "--json",
    ])))
    .unwrap();
    assert_eq!(
        moves["moves"],
        serde_json::json!({"L": "#../.../...:2,3,6,9,8,7"})
    );
}

/// docs/families.md's table of families is `hammer families`' output, so the docs list
/// exactly the registered families with their parameters.
#[test]
fn the_docs_list_the_registered_families() {
    let table = ok(&hammer(&["families"]));
    let docs = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/families.md"),
    )
    .unwrap();
    assert!(
        docs.contains(&table),
        "docs/families.md must hold the table `hammer families` prints:\n{table}"
    );
    for family in hammer_family::families() {
        let help = ok(&hammer(&["solve", "--help"]));
        assert!(help.contains(family.name()), "--puzzle help: {help}");
    }
}
