//! The figures' numbers against independent recomputations over the same files: plain Rust
//! over `hammer_dataset::read_dataset` (every column, not the projected reader), and DuckDB
//! SQL through Python.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use hammer_analysis::{Cell, Report, analyze};
use hammer_dataset::ResultRow;
use tempfile::TempDir;

struct Fixture {
    dir: TempDir,
    rows: Vec<ResultRow>,
    report: Report,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let dir = TempDir::new().expect("temp dir");
        common::write_experiments(dir.path(), &common::full_experiments());
        let rows = hammer_dataset::read_dataset(dir.path()).expect("read back");
        let report = analyze(dir.path()).expect("analyze");
        Fixture { dir, rows, report }
    })
}

fn num(report: &Report, table: &str, keys: &[(&str, &str)], column: &str) -> f64 {
    report
        .table(table)
        .unwrap_or_else(|| panic!("no table {table}"))
        .get(keys, column)
        .and_then(Cell::as_f64)
        .unwrap_or_else(|| panic!("{table}: no {column} at {keys:?}"))
}

fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0),
        "{what}: {a} vs {b}"
    );
}

type Game = (i32, i64, i64);

fn game(r: &ResultRow) -> Game {
    (r.n, r.seed, r.game_index)
}

/// Exact prefix-0 results per game, and the exact standard-order expansions.
fn facts(rows: &[ResultRow]) -> (BTreeMap<Game, i32>, BTreeMap<Game, (i64, i32)>) {
    let mut facts = BTreeMap::new();
    let mut std = BTreeMap::new();
    for r in rows {
        if r.prefix == 0
            && r.budget == 0
            && r.exhaustive
            && (r.schedule == "exact" || r.schedule == "paper")
        {
            facts.entry(game(r)).or_insert(r.score);
            if r.schedule == "exact" && r.order == "standard" {
                std.entry(game(r)).or_insert((r.expansions, r.score));
            }
        }
    }
    (facts, std)
}

#[test]
fn every_figure_is_present() {
    let f = fixture();
    // The learned order's figures need knowledge bases; cli/tests/examples.rs draws them.
    let learned = |id: &str| id.starts_with("learned_");
    for fig in f.report.figures.iter().filter(|f| !learned(&f.id)) {
        assert!(fig.missing.is_none(), "{}: {:?}", fig.id, fig.missing);
    }
    assert!(f.report.warnings.is_empty(), "{:?}", f.report.warnings);
    assert_eq!(f.report.rows as usize, f.rows.len());
}

#[test]
fn solvability_figures_match_a_plain_recomputation() {
    let f = fixture();
    let (facts, std) = facts(&f.rows);
    // Figure 8.
    let mut per_n: BTreeMap<i32, (u64, u64)> = BTreeMap::new();
    for (g, m) in &facts {
        let e = per_n.entry(g.0).or_default();
        e.0 += 1;
        e.1 += u64::from(*m == 1);
    }
    assert_eq!(per_n.keys().copied().collect::<Vec<_>>(), vec![3, 4, 5, 6]);
    for (n, (games, solvable)) in &per_n {
        let key = [("n", &*n.to_string())];
        close(
            num(&f.report, "fig08_solvable_ratio", &key, "games"),
            *games as f64,
            "fig08 games",
        );
        close(
            num(&f.report, "fig08_solvable_ratio", &key, "solvable"),
            *solvable as f64,
            "fig08 solvable",
        );
        let ratio = num(&f.report, "fig08_solvable_ratio", &key, "ratio");
        let lo = num(&f.report, "fig08_solvable_ratio", &key, "ci_low");
        let hi = num(&f.report, "fig08_solvable_ratio", &key, "ci_high");
        assert!(lo <= ratio && ratio <= hi);
    }
    // Figure 5.
    let mut counts: BTreeMap<(i32, i32), u64> = BTreeMap::new();
    for (g, m) in &facts {
        if *m > 1 {
            *counts.entry((g.0, *m)).or_default() += 1;
        }
    }
    assert!(!counts.is_empty(), "the sample must hold unsolvable games");
    for ((n, m), k) in &counts {
        let key = [("n", &*n.to_string()), ("min_stones", &*m.to_string())];
        close(
            num(&f.report, "fig05_min_stones", &key, "games"),
            *k as f64,
            "fig05",
        );
    }
    // Figure 11: mean expansions by min stones.
    let mut groups: BTreeMap<(i32, i32), Vec<f64>> = BTreeMap::new();
    for (g, (e, m)) in &std {
        groups.entry((g.0, *m)).or_default().push(*e as f64);
    }
    for ((n, m), v) in &groups {
        let key = [("n", &*n.to_string()), ("min_stones", &*m.to_string())];
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        close(
            num(
                &f.report,
                "fig11_expansions_by_min_stones",
                &key,
                "mean_expansions",
            ),
            mean,
            "fig11",
        );
    }
    // Figure 12: histogram counts add up to the solvable games.
    let hist = f.report.table("fig12_histogram").expect("histogram");
    for n in [3, 4, 5, 6] {
        let total: f64 = hist
            .rows
            .iter()
            .filter(|r| r[0] == Cell::Int(n))
            .filter_map(|r| r[3].as_f64())
            .sum();
        let solvable = std
            .iter()
            .filter(|(g, (_, m))| g.0 == n as i32 && *m == 1)
            .count();
        close(total, solvable as f64, "fig12 total");
    }
}

#[test]
fn prefix_and_order_figures_match_a_plain_recomputation() {
    let f = fixture();
    let (facts, std) = facts(&f.rows);
    // Figure 7: one start per (game, I, trial).
    let mut starts: BTreeMap<(Game, i32, i32), bool> = BTreeMap::new();
    for r in &f.rows {
        if r.prefix >= 1 && r.budget == 0 && facts.get(&game(r)) == Some(&1) {
            starts
                .entry((game(r), r.prefix, r.trial))
                .or_insert(r.solvable);
        }
    }
    let mut per: BTreeMap<(i32, i32), (u64, u64)> = BTreeMap::new();
    for ((g, i, _), s) in &starts {
        let e = per.entry((g.0, *i)).or_default();
        e.0 += 1;
        e.1 += u64::from(*s);
    }
    assert_eq!(per.len(), 6);
    for ((n, i), (total, solv)) in &per {
        let key = [("n", &*n.to_string()), ("moves", &*i.to_string())];
        close(
            num(&f.report, "fig07_random_prefix", &key, "starts"),
            *total as f64,
            "fig07",
        );
        close(
            num(&f.report, "fig07_random_prefix", &key, "still_solvable"),
            *solv as f64,
            "fig07",
        );
    }
    // Figure 13: the orders on the games all of them solved.
    for n in [4, 5] {
        let mut by_order: BTreeMap<&str, BTreeMap<Game, Vec<f64>>> = BTreeMap::new();
        for r in &f.rows {
            if r.n == n && r.schedule == "exact" && r.prefix == 0 && r.exhaustive && r.solvable {
                by_order
                    .entry(r.order.as_str())
                    .or_default()
                    .entry(game(r))
                    .or_default()
                    .push(r.expansions as f64);
            }
        }
        assert_eq!(by_order.len(), 4, "{:?}", by_order.keys());
        let common: BTreeSet<Game> = by_order
            .values()
            .map(|g| g.keys().copied().collect::<BTreeSet<_>>())
            .reduce(|a, b| a.intersection(&b).copied().collect())
            .expect("orders");
        let mean = |order: &str, f: &dyn Fn(&Vec<f64>) -> f64| {
            common.iter().map(|g| f(&by_order[order][g])).sum::<f64>() / common.len() as f64
        };
        let avg = |v: &Vec<f64>| v.iter().sum::<f64>() / v.len() as f64;
        let min = |v: &Vec<f64>| v.iter().copied().fold(f64::INFINITY, f64::min);
        let n_s = n.to_string();
        for (label, want) in [
            ("standard", mean("standard", &avg)),
            ("most-options", mean("most-options", &avg)),
            ("monte-carlo:10,2", mean("monte-carlo:10,2", &avg)),
            ("random (mean of runs)", mean("random", &avg)),
            ("random (min of runs)", mean("random", &min)),
        ] {
            let key = [("n", n_s.as_str()), ("order", label)];
            close(
                num(&f.report, "fig13_move_orders", &key, "mean_expansions"),
                want,
                label,
            );
            close(
                num(&f.report, "fig13_move_orders", &key, "games"),
                common.len() as f64,
                "fig13 games",
            );
        }
    }
    // The meta-solver, paired with exact standard search.
    let mut paper = BTreeMap::new();
    for r in &f.rows {
        if r.schedule == "paper" && r.prefix == 0 {
            paper.insert(game(r), r.expansions as f64);
        }
    }
    let (mut a, mut b) = (0.0, 0.0);
    for (g, e) in &paper {
        a += e;
        b += std[g].0 as f64;
    }
    let key = [("n", "5"), ("order", "random")];
    close(
        num(&f.report, "meta_solver", &key, "reduction"),
        1.0 - a / b,
        "meta reduction",
    );
    let lo = num(&f.report, "meta_solver", &key, "reduction_ci_low");
    let hi = num(&f.report, "meta_solver", &key, "reduction_ci_high");
    assert!(lo <= 1.0 - a / b && 1.0 - a / b <= hi, "{lo} {hi}");
}

#[test]
fn budget_figures_match_a_plain_recomputation() {
    let f = fixture();
    let (facts, std) = facts(&f.rows);
    // (depth, budget) -> game -> (tries, successes, expansions of failed tries, of
    // successful tries)
    type PerGame = BTreeMap<Game, (u64, u64, f64, f64)>;
    let mut cells: BTreeMap<(i32, i64), PerGame> = BTreeMap::new();
    for r in &f.rows {
        if r.n == 5 && r.budget > 0 && facts.get(&game(r)) == Some(&1) {
            let e = cells
                .entry((r.prefix, r.budget))
                .or_default()
                .entry(game(r))
                .or_default();
            e.0 += 1;
            if r.solvable {
                e.1 += 1;
                e.3 += r.expansions as f64;
            } else {
                e.2 += r.expansions as f64;
            }
        }
    }
    assert_eq!(cells.len(), 6);
    for ((d, b), games) in &cells {
        let key = [
            ("n", "5"),
            ("order", "random"),
            ("depth", &*d.to_string()),
            ("budget", &*b.to_string()),
        ];
        let solved = games.values().filter(|g| g.1 > 0).count();
        close(
            num(&f.report, "fig14_success_rate", &key, "games"),
            games.len() as f64,
            "fig14",
        );
        close(
            num(&f.report, "fig14_success_rate", &key, "solved_games"),
            solved as f64,
            "fig14 solved",
        );
        // Geometric expectation per game: (T - s)/s failed tries of mean cost F plus one
        // success of mean cost S, which is the sum of all tries' expansions over s.
        let geometric = |&(t, s, fail, succ): &(u64, u64, f64, f64)| {
            let p = s as f64 / t as f64;
            let mean_fail = if t > s { fail / (t - s) as f64 } else { 0.0 };
            (1.0 - p) / p * mean_fail + succ / s as f64
        };
        let per_game: Vec<f64> = games.values().filter(|g| g.1 > 0).map(geometric).collect();
        if !per_game.is_empty() {
            let want = per_game.iter().sum::<f64>() / per_game.len() as f64;
            close(
                num(&f.report, "fig15_expected_to_success", &key, "mean"),
                want,
                "fig15",
            );
        }
        let overall: Vec<f64> = games
            .iter()
            .map(|(g, t)| {
                if t.1 > 0 {
                    geometric(t)
                } else {
                    std[g].0 as f64
                }
            })
            .collect();
        let want = overall.iter().sum::<f64>() / overall.len() as f64;
        close(
            num(&f.report, "fig16_expected_overall", &key, "mean"),
            want,
            "fig16",
        );
    }
    // The small budgets must fail somewhere, or Figure 16's fallback is never exercised.
    let failed: f64 = f
        .report
        .table("fig16_expected_overall")
        .expect("fig16")
        .column("failed_games")
        .iter()
        .filter_map(|c| c.as_f64())
        .sum();
    assert!(
        failed > 0.0,
        "no budget cell has a game whose tries all failed"
    );
}

#[test]
fn figures_match_duckdb() {
    let Some(python) = common::python() else {
        return;
    };
    let f = fixture();
    let script = common::tests_dir().join("duckdb_check.py");
    let dir = f.dir.path().to_string_lossy().into_owned();
    let out = common::run_python(&python, &script, &[&dir], &[]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("duckdb json");
    let rows = |k: &str| v[k].as_array().cloned().unwrap_or_default();
    let s = |r: &serde_json::Value, k: &str| match &r[k] {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let x = |r: &serde_json::Value, k: &str| r[k].as_f64().unwrap_or(f64::NAN);
    let check = |fig: &str, table: &str, keys: &[&str], cols: &[(&str, &str)]| {
        let rs = rows(fig);
        assert!(!rs.is_empty(), "duckdb gave no rows for {fig}");
        for r in &rs {
            let key_vals: Vec<(String, String)> =
                keys.iter().map(|k| ((*k).to_owned(), s(r, k))).collect();
            let key: Vec<(&str, &str)> = key_vals
                .iter()
                .map(|(a, b)| (a.as_str(), b.as_str()))
                .collect();
            for (duck, ours) in cols {
                let want = x(r, duck);
                if want.is_nan() {
                    // SQL's NULL (an average over no game) is an empty cell in our table.
                    let cell = f.report.table(table).and_then(|t| t.get(&key, ours));
                    assert_eq!(cell, Some(&Cell::Empty), "{fig} {duck} {key:?}");
                } else {
                    close(
                        num(&f.report, table, &key, ours),
                        want,
                        &format!("{fig} {duck} {key:?}"),
                    );
                }
            }
        }
    };
    check(
        "fig08",
        "fig08_solvable_ratio",
        &["n"],
        &[("games", "games"), ("solvable", "solvable")],
    );
    check(
        "fig05",
        "fig05_min_stones",
        &["n", "min_stones"],
        &[("games", "games")],
    );
    check(
        "fig07",
        "fig07_random_prefix",
        &["n", "moves"],
        &[("starts", "starts"), ("still_solvable", "still_solvable")],
    );
    check(
        "fig11",
        "fig11_expansions_by_min_stones",
        &["n", "min_stones"],
        &[("games", "games"), ("mean_expansions", "mean_expansions")],
    );
    check(
        "fig14",
        "fig14_success_rate",
        &["n", "depth", "budget"],
        &[("games", "games"), ("solved_games", "solved_games")],
    );
    check(
        "fig14",
        "fig15_expected_to_success",
        &["n", "depth", "budget"],
        &[("expected_to_success", "mean")],
    );
    check(
        "fig14",
        "fig16_expected_overall",
        &["n", "depth", "budget"],
        &[("expected_overall", "mean")],
    );
    check(
        "meta",
        "meta_solver",
        &["n", "order"],
        &[
            ("games", "games"),
            ("mean_paper", "mean_paper"),
            ("mean_exact", "mean_exact"),
            ("reduction", "reduction"),
        ],
    );
}

#[test]
fn the_analysis_is_deterministic() {
    let f = fixture();
    // Everything but the reading statistics, which are wall times.
    let stable = |report: &Report| {
        let mut report = report.clone();
        report.reading = hammer_analysis::ReadStats::default();
        hammer_analysis::to_json(&report).expect("json")
    };
    let again = analyze(f.dir.path()).expect("analyze");
    assert_eq!(stable(&f.report), stable(&again));
}
