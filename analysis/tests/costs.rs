//! Figures 11 and 12 for a size that was never searched in the standard order (the
//! frontier sweeps run random order with restarts): the size gets the cost of the exact
//! configuration it has, named in the tables, and a size with standard-order rows keeps
//! those whatever else it has.

mod common;

use std::collections::BTreeMap;

use common::{Exp, conf};
use hammer_analysis::{Cell, analyze};
use tempfile::TempDir;

#[test]
fn a_size_without_standard_rows_gets_the_cost_of_its_own_exact_configuration() {
    let dir = TempDir::new().expect("temp dir");
    // Size 3 has both standard/exact and random/luby:16; size 4 only random/luby:16, in
    // two trials (the first read is the one used).
    let rows = common::write_experiments(
        dir.path(),
        &[
            Exp {
                name: "luby",
                sizes: vec![3, 4],
                games: 0..40,
                configs: vec![conf("random", "luby:16", 0, 2)],
            },
            Exp {
                name: "standard",
                sizes: vec![3],
                games: 0..40,
                configs: vec![conf("standard", "exact", 0, 1)],
            },
        ],
    );
    let report = analyze(dir.path()).expect("analyze");

    // The expected means: standard rows for n=3, the first trial of luby:16 for n=4.
    let mut groups: BTreeMap<(i32, i32), Vec<f64>> = BTreeMap::new();
    for r in &rows {
        let used = match r.n {
            3 => r.order == "standard",
            _ => r.order == "random" && r.trial == 0,
        };
        if used {
            assert!(r.exhaustive);
            groups
                .entry((r.n, r.score))
                .or_default()
                .push(r.expansions as f64);
        }
    }
    let fig11 = report
        .table("fig11_expansions_by_min_stones")
        .expect("fig11 table");
    assert_eq!(
        fig11.rows.len(),
        groups.len(),
        "one row per (n, min_stones)"
    );
    for ((n, min), v) in &groups {
        let key = [("n", &*n.to_string()), ("min_stones", &*min.to_string())];
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        let got = fig11
            .get(&key, "mean_expansions")
            .and_then(Cell::as_f64)
            .expect("mean");
        assert!(
            (got - mean).abs() <= 1e-9 * mean.max(1.0),
            "{key:?}: {got} vs {mean}"
        );
        let config = fig11.get(&key, "configuration").expect("configuration");
        let want = if *n == 3 {
            "standard/exact"
        } else {
            "random/luby:16"
        };
        assert_eq!(config, &Cell::Text(want.to_owned()), "{key:?}");
    }

    let summary = report.table("fig12_summary").expect("fig12 summary");
    for n in [3, 4] {
        let solvable = groups.get(&(n, 1)).map_or(0, Vec::len);
        let games = summary
            .get(&[("n", &*n.to_string())], "games")
            .and_then(Cell::as_f64)
            .expect("games");
        assert_eq!(games as usize, solvable, "n={n}");
        let open = summary.get(&[("n", &*n.to_string())], "open");
        assert_eq!(open, Some(&Cell::Int(0)), "n={n}");
    }
}
