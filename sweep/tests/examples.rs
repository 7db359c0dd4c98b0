//! Every example sweep parses, and what it expands to is stable and self-consistent.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use hammer_sweep::{RunConfig, Sweep};

fn example_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        // The learned order's test sweeps name knowledge bases (`learned:data/...`) that
        // `hammer learn` makes from the training example's run; cli/tests/examples.rs
        // runs them after learning the bases, and cli/tests/learn.rs runs sweeps that name one.
        .filter(|p| {
            let text = std::fs::read_to_string(p).unwrap_or_default();
            !text.contains("\"learned:data/")
        })
        .collect();
    files.sort();
    files
}

#[test]
fn the_expected_examples_exist() {
    let names: Vec<String> = example_files()
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for want in [
        "quickstart.toml",
        "fig05_fig08_solvability.toml",
        "fig07_random_prefix.toml",
        "fig13_move_orders.toml",
        "fig14_16_budgets.toml",
        "meta_solver.toml",
        "tune_rtd.toml",
    ] {
        assert!(names.iter().any(|n| n == want), "missing example {want}");
    }
}

#[test]
fn every_example_parses_and_is_consistent() {
    for path in example_files() {
        let sweep = Sweep::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(sweep.text, text);
        assert_eq!(sweep.digest.len(), 32);
        assert!(
            sweep
                .digest
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        );
        // What a worker does with the shipped text gives the same sweep.
        assert_eq!(Sweep::parse(&sweep.text, "<coordinator>").unwrap(), sweep);

        for e in &sweep.experiments {
            hammer_dataset::validate_experiment(&e.name).unwrap();
            let ids: HashSet<&str> = e.configs.iter().map(|c| c.id.as_str()).collect();
            assert_eq!(
                ids.len(),
                e.configs.len(),
                "{}: config ids are not unique",
                e.name
            );
            for c in &e.configs {
                assert_eq!(&RunConfig::from_id(&c.id).unwrap(), c);
            }
        }

        let units = sweep.units();
        let rows: u64 = units.iter().map(|u| u.games()).sum();
        assert_eq!(rows, sweep.total_games(), "{}", path.display());
        let mut ids = HashSet::new();
        for u in &units {
            let id = u.id();
            hammer_dataset::validate_part_id(&id).unwrap();
            assert!(ids.insert(id.clone()), "duplicate unit id {id}");
            assert_eq!(sweep.unit_by_id(&id), Some(*u));
        }
    }
}

#[test]
fn canonical_form_round_trips() {
    for path in example_files() {
        let sweep = Sweep::load(&path).unwrap();
        let canonical = sweep.to_canonical_toml();
        let again =
            Sweep::parse(&canonical, "canonical").unwrap_or_else(|e| panic!("{e}\n{canonical}"));
        assert_eq!(again.name, sweep.name);
        assert_eq!(again.seed, sweep.seed);
        assert_eq!(again.experiments, sweep.experiments, "{}", path.display());
        assert_eq!(again.units(), sweep.units());
        // The canonical form is a fixed point.
        assert_eq!(again.to_canonical_toml(), canonical);
    }
}

#[test]
fn budget_example_pairs_budgets_with_tries() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/fig14_16_budgets.toml");
    let sweep = Sweep::load(&path).unwrap();
    let budgets = &sweep.experiments[0];
    assert_eq!(budgets.configs.len(), 7 * 5 * 100);
    assert!(
        budgets
            .configs
            .iter()
            .all(|c| c.budget > 0 && c.schedule.to_string() == c.budget.to_string())
    );
    assert_eq!(
        budgets.configs[0].id,
        "order=random;schedule=100;budget=100;prefix=1;trial=0"
    );
    assert_eq!(
        budgets.configs.last().unwrap().id,
        "order=random;schedule=10000;budget=10000;prefix=5;trial=99"
    );
    let exact = &sweep.experiments[1];
    assert_eq!(
        (exact.games, exact.first_game),
        (budgets.games, budgets.first_game)
    );
}
