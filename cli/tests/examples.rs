//! Every example sweep feeds the figures that name it: each example, cut down to a few
//! games (the same experiments, configurations and seeds, fewer game indices), runs
//! through `hammer run` and `hammer analyze`, and every figure whose `example` is that
//! file must be present in the report, not marked missing.
//!
//! The full-size runs take tens of minutes each and are not part of the
//! tests. This test guards the wiring between the example files and the analysis, which
//! a renamed experiment or a changed configuration would break. What the full-size runs
//! gave is in docs/analysis.md.
//!
//! With `HAMMER_KEEP_EXAMPLES=DIR` the cut-down datasets and reports are kept in `DIR`
//! (made if missing, refused if not empty) instead of a temporary directory:
//! `docs/scripts/compare_datasets.py` then compares two such directories, made before and
//! after a change that must not change results.

mod support;

use std::path::{Path, PathBuf};
use support::{hammer, ok};

fn examples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    files
}

/// The first outside program the sweep declares that is not on this machine's PATH.
fn missing_program(text: &str, name: &str) -> Option<String> {
    let sweep = hammer_sweep::Sweep::parse(text, name).ok()?;
    let path = std::env::var_os("PATH").unwrap_or_default();
    sweep
        .experiments
        .iter()
        .filter_map(|e| e.program.as_ref())
        .map(|p| p.solver.program().to_string())
        .find(|program| hammer_external::resolve(program, &path).is_err())
}

/// Budgets above this are cut to it: a family example that caps each instance (Mancala's
/// table) then runs in seconds; the experiments and points stay the same.
const MAX_BUDGET: u64 = 20_000;

/// The example with at most `games` games per experiment and `tries` tries, and its
/// budgets and per-game expansion limits at most [`MAX_BUDGET`]. An experiment without
/// `games` (every instance of a finite family point, such as peg's single-vacancy starts)
/// gets `games` added.
fn cut_down(text: &str, games: u64, tries: u64) -> String {
    let text = with_games(text, games);
    text.lines()
        .map(|line| {
            let limited = |key: &str, limit: u64| -> Option<String> {
                let value = line.strip_prefix(key)?.trim().strip_prefix('=')?.trim();
                let n: u64 = value.replace('_', "").parse().ok()?;
                Some(format!("{key} = {}", n.min(limit)))
            };
            let budgets = || -> Option<String> {
                let list = line
                    .strip_prefix("budgets")?
                    .trim()
                    .strip_prefix('=')?
                    .trim();
                let inner = list.strip_prefix('[')?.strip_suffix(']')?;
                let cut: Option<Vec<String>> = inner
                    .split(',')
                    .map(|b| {
                        let b: u64 = b.trim().replace('_', "").parse().ok()?;
                        Some(b.min(MAX_BUDGET).to_string())
                    })
                    .collect();
                let mut cut = cut?;
                cut.dedup();
                Some(format!("budgets = [{}]", cut.join(", ")))
            };
            limited("games", games)
                .or_else(|| limited("max_expansions", MAX_BUDGET))
                .or_else(budgets)
                .or_else(|| limited("tries", tries))
                .or_else(|| limited("attempts", tries))
                .unwrap_or_else(|| line.to_owned())
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// `games = N` added right after the header of every experiment that has no `games`.
fn with_games(text: &str, games: u64) -> String {
    let mut blocks = text.split("[[experiment]]\n");
    let mut out = blocks.next().unwrap_or_default().to_owned();
    for block in blocks {
        let has_games = block.lines().any(|l| l.trim_start().starts_with("games"));
        out.push_str("[[experiment]]\n");
        if !has_games {
            out.push_str(&format!("games = {games}\n"));
        }
        out.push_str(block);
    }
    out
}

/// Where the cut-down runs go: a temporary directory, or `HAMMER_KEEP_EXAMPLES`.
enum WorkDir {
    Temporary(tempfile::TempDir),
    Kept(PathBuf),
}

impl WorkDir {
    fn new() -> WorkDir {
        match std::env::var_os("HAMMER_KEEP_EXAMPLES") {
            Some(dir) => {
                let dir = PathBuf::from(dir);
                std::fs::create_dir_all(&dir).unwrap();
                assert!(
                    std::fs::read_dir(&dir).unwrap().next().is_none(),
                    "HAMMER_KEEP_EXAMPLES={} is not empty",
                    dir.display()
                );
                WorkDir::Kept(dir)
            }
            None => WorkDir::Temporary(tempfile::tempdir().unwrap()),
        }
    }

    fn path(&self) -> &Path {
        match self {
            WorkDir::Temporary(dir) => dir.path(),
            WorkDir::Kept(dir) => dir,
        }
    }
}

#[test]
fn every_example_sweep_feeds_the_figures_that_name_it() {
    let dir = WorkDir::new();
    let mut claimed = Vec::new();
    for path in examples() {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let name = format!("examples/{file}");
        let text = std::fs::read_to_string(&path).unwrap();
        if let Some(missing) = missing_program(&text, &name) {
            assert!(
                std::env::var("HAMMER_REQUIRE_SOLVERS").as_deref() != Ok("1"),
                "HAMMER_REQUIRE_SOLVERS=1 but {name} runs {missing}, which is not installed"
            );
            println!("SKIPPED {name}: it runs {missing}, which is not installed");
            continue;
        }
        // Exact-search examples need a few hundred 6x6 games to meet an unsolvable one
        // (figure 5); the others show their figures with a handful.
        let games = if file.starts_with("fig05") || file.starts_with("meta") {
            300
        } else {
            16
        };
        let small = dir.path().join(&file);
        // The learned order's examples read the knowledge bases learned from the training
        // sweeps' cut-down runs, which ran just before them.
        let learned = format!("{}/learned-", dir.path().display());
        let text = text.replace("data/learned-", &learned);
        std::fs::write(&small, cut_down(&text, games, 3)).unwrap();
        let data = dir.path().join(format!("{file}.data"));
        ok(&hammer(&[
            "run",
            small.to_str().unwrap(),
            "--out",
            data.to_str().unwrap(),
        ]));
        let learn = |radius: &str, games: &str, kb: &str| {
            let kb = format!("{learned}{kb}");
            let data = data.to_str().unwrap();
            ok(&hammer(&[
                "learn", data, "--n", "6", "--radius", radius, "--games", games, "--out", &kb,
            ]));
        };
        if file == "learned_1_train.toml" {
            learn("8", "10000", "kb8.bin");
        }
        if file == "learned_3_train_more.toml" {
            // Bases of different contents (a file loaded twice under two names would be
            // one base): 4, 8, 12 and 16 of the cut-down run's games.
            for (i, games) in ["1000", "10000", "100000", "1000000"].iter().enumerate() {
                let few = (4 * (i + 1)).to_string();
                learn("1", &few, &format!("kb1-{games}.bin"));
            }
        }
        let json = ok(&hammer(&[
            "analyze",
            data.to_str().unwrap(),
            "--format",
            "json",
        ]));
        std::fs::write(dir.path().join(format!("{file}.report.json")), &json).unwrap();
        let report: serde_json::Value = serde_json::from_str(&json).unwrap();
        let figures = report["figures"].as_array().unwrap();
        for f in figures.iter().filter(|f| f["example"] == name.as_str()) {
            assert!(
                f["missing"].is_null(),
                "{name}: figure {} is missing: {}",
                f["id"],
                f["missing"]
            );
            assert!(
                !f["tables"].as_array().unwrap().is_empty(),
                "{name}: figure {} has no table",
                f["id"]
            );
            claimed.push((f["id"].as_str().unwrap().to_owned(), name.clone()));
        }
    }
    // Every figure of the report is produced by some example.
    let ids: Vec<&str> = claimed.iter().map(|(id, _)| id.as_str()).collect();
    for want in [
        "fig05",
        "fig07",
        "fig08",
        "fig11",
        "fig12",
        "fig13",
        "fig14",
        "fig15",
        "fig16",
        "meta",
        "learned_radius",
        "learned_curve",
    ] {
        assert!(
            ids.contains(&want),
            "no example produces {want}: {claimed:?}"
        );
    }
}
