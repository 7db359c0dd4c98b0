//! The learned move order: a knowledge base learned from solved games only reorders
//! successors, so every exact minimum stays the same; the order parses, names its file
//! by digest, and refuses bad files and other board sizes.

use std::path::PathBuf;
use std::sync::OnceLock;

use hammer_engine::martello::signature::FEATURE_VERSION;
use hammer_engine::{Martello, seeded};
use hammer_solver::learned::Learner;
use hammer_solver::{Config, Order, Schedule, Solver};
use proptest::prelude::*;

/// A knowledge base learned from 300 solved 5x5 games of seed 5 (not the test seed),
/// written once per test process.
fn kb_path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let mut learner = Learner::new(5, 6, FEATURE_VERSION);
        let mut solver = Solver::new(Martello);
        for index in 0..300 {
            let board = seeded::game(5, 5, index).unwrap();
            let out = solver.solve(&board, &Config::default(), 0);
            learner.game(&Martello, &out.start, &out.solution).unwrap();
        }
        let path = std::env::temp_dir().join(format!("hammer-learned-{}.kb", std::process::id()));
        learner.finish().write(&path).unwrap();
        path
    })
}

fn order(spec: &str) -> Order {
    format!("learned:{}{spec}", kb_path().display())
        .parse()
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn learned_orders_keep_every_exact_minimum(
        index in 0u64..100_000, radius in 1u8..=6, temp in 0usize..3, schedule in 0usize..3,
    ) {
        let temps = ["0", "0.05", "1"];
        let schedules = ["exact", "luby:16", "fixed:40"];
        let cfg = Config {
            order: order(&format!(",{radius},{}", temps[temp])),
            schedule: schedules[schedule].parse::<Schedule>().unwrap(),
            prefix: 0,
            limits: Default::default(),
            split: None,
            cancel: None,
        };
        let board = seeded::game(11, 5, index).unwrap();
        let seed = seeded::run_seed(11, 5, index, 0);
        let out = Solver::new(Martello).solve(&board, &cfg, seed);
        prop_assert!(out.exhaustive);
        let mut state = board;
        for &mv in &out.solution {
            let parsed = state.parse_move(&mv.notation(5)).map_err(|e| TestCaseError::fail(e.to_string()))?;
            state = state.apply(parsed);
        }
        prop_assert_eq!(state.stone_count(), out.min_score);
        let plain = Solver::new(Martello).solve(&board, &Config::default(), 0);
        prop_assert_eq!(plain.min_score, out.min_score);
        // Same KB, same seed: the same search.
        let again = Solver::new(Martello).solve(&board, &cfg, seed);
        prop_assert_eq!(again.counters, out.counters);
    }
}

#[test]
fn the_order_reorders_and_names_its_digest() {
    let learned = order(",6");
    let text = learned.to_string();
    assert!(
        text.starts_with("learned:") && text.contains(",6,0#"),
        "{text}"
    );
    assert_eq!(text.parse::<Order>().unwrap(), learned);
    // Over 200 games, the learned order expands differently from the standard one.
    let (mut standard, mut with_kb) = (0, 0);
    for index in 0..200 {
        let board = seeded::game(11, 5, index).unwrap();
        let mut cfg = Config::default();
        standard += Solver::new(Martello)
            .solve(&board, &cfg, 0)
            .counters
            .expansions;
        cfg.order = learned;
        with_kb += Solver::new(Martello)
            .solve(&board, &cfg, 0)
            .counters
            .expansions;
    }
    assert_ne!(standard, with_kb);
}

#[test]
fn bad_specs_and_files_are_refused_with_the_file_named() {
    let path = kb_path().display().to_string();
    let err = |s: String| s.parse::<Order>().unwrap_err().to_string();
    let wrong = format!("learned:{path}#{}", "0".repeat(32));
    assert!(err(wrong).contains("digest"));
    assert!(err(format!("learned:{path},0")).contains("radius"));
    assert!(err(format!("learned:{path},3,-1")).contains("temperature"));
    let missing = err("learned:/nonexistent/kb.bin".into());
    assert!(
        missing.contains("/nonexistent/kb.bin") && missing.contains("cannot read"),
        "{missing}"
    );
    let corrupt = std::env::temp_dir().join(format!("hammer-corrupt-{}.kb", std::process::id()));
    let mut bytes = std::fs::read(kb_path()).unwrap();
    let last = bytes.len() - 20;
    bytes[last] ^= 0xff;
    std::fs::write(&corrupt, &bytes).unwrap();
    let message = err(format!("learned:{}", corrupt.display()));
    assert!(message.contains("digest mismatch"), "{message}");
    // Learned on 5x5, refused on 6x6.
    let size = order("").check_size(6).unwrap_err().to_string();
    assert!(size.contains("5x5") && size.contains("6x6"), "{size}");
    assert!(order("").check_size(5).is_ok());
}
