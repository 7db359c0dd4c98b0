//! The learned move order: a knowledge base learned from solved games only reorders
//! successors, so every exact minimum stays the same; the order parses, names its file
//! by digest, and refuses bad files and other board sizes.

use std::path::PathBuf;
use std::sync::OnceLock;

use hammer_engine::martello::signature::FEATURE_VERSION;
use hammer_engine::{Martello, Move, State, seeded};
use hammer_solver::learned::Learner;
use hammer_solver::{Config, Order, OrderError, OrderSpec, Schedule, Solver};
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

/// An error with its causes, as the binary prints it.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        text = format!("{text}: {cause}");
        source = cause.source();
    }
    text
}

fn order(spec: &str) -> Order {
    format!("learned:{}{spec}", kb_path().display())
        .parse::<OrderSpec>()
        .unwrap()
        .load()
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
            cancel: None,
            profile: false,
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
    let learned = order(",6,0");
    let text = learned.to_string();
    assert!(
        text.starts_with("learned:") && text.contains(",6,0#"),
        "{text}"
    );
    // Parsing reads no file; loading finds the knowledge base the digest names.
    let spec = text.parse::<OrderSpec>().unwrap();
    assert!(matches!(spec, OrderSpec::Learned { .. }), "{spec:?}");
    assert_eq!(spec.load().unwrap(), learned);
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
    let err = |s: String| {
        let loaded = s.parse::<OrderSpec>().and_then(|spec| spec.load());
        error_chain(&loaded.unwrap_err())
    };
    // A missing file is a problem of loading, not of the text.
    assert!("learned:/nonexistent/kb.bin".parse::<OrderSpec>().is_ok());
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
    let size = order("")
        .check_learned(FEATURE_VERSION, Some(6))
        .unwrap_err()
        .to_string();
    assert!(size.contains("5x5") && size.contains("6x6"), "{size}");
    assert!(order("").check_learned(FEATURE_VERSION, Some(5)).is_ok());
    assert!(order("").check_learned(FEATURE_VERSION, None).is_ok());
    // Learned with other features: refused for any size.
    let features = error_chain(
        &order("")
            .check_learned(FEATURE_VERSION + 1, None)
            .unwrap_err(),
    );
    assert!(
        features.contains(&path) && features.contains("feature version"),
        "{features}"
    );
    // Other orders fit every puzzle.
    assert!(Order::Standard.check_learned(0, Some(3)).is_ok());
}

fn solved(board: &str) -> (State, Vec<Move>) {
    let state = State::parse(board).unwrap();
    let out = Solver::new(Martello).solve(&state, &Config::default(), 0);
    (state, out.solution)
}

const BOARDS: &[&str] = &["C2A1B3/A3B1C1/B2C3A2", "A1B2C3/C1A3B1/B3A2C2"];

#[test]
fn learning_counts_one_taken_move_per_step() {
    let mut learner = Learner::new(3, 3, FEATURE_VERSION);
    for b in BOARDS {
        let (start, solution) = solved(b);
        learner.game(&Martello, &start, &solution).unwrap();
    }
    let kb = learner.finish();
    assert_eq!(kb.games, 2);
    let steps: usize = BOARDS.iter().map(|b| solved(b).1.len()).sum();
    for r in 1..=3 {
        let (_, taken, untaken) = kb.stats(r);
        assert_eq!(taken as usize, steps, "radius {r}");
        assert!(untaken > 0);
    }
    // The same games give the same bytes.
    let mut again = Learner::new(3, 3, FEATURE_VERSION);
    for b in BOARDS {
        let (start, solution) = solved(b);
        again.game(&Martello, &start, &solution).unwrap();
    }
    assert_eq!(again.finish().to_bytes(), kb.to_bytes());
}

#[test]
fn a_replay_error_names_the_move() {
    let (start, mut solution) = solved(BOARDS[0]);
    solution.swap(0, 1);
    let mut learner = Learner::new(3, 2, FEATURE_VERSION);
    let err = learner.game(&Martello, &start, &solution);
    assert!(err.is_err());
}

/// A learned order's temperature left out is settled by the schedule: 0 for one attempt,
/// 0.1 when the schedule restarts; a written 0 under restarts is refused, because every
/// restart would repeat the same attempt.
#[test]
fn the_temperature_follows_the_schedule_and_zero_is_refused_under_restarts() {
    let schedule = |text: &str| text.parse::<Schedule>().unwrap();
    for (text, restarts) in [
        ("exact", false),
        ("5000", false),
        ("1x5000,exact", true),
        ("2x5000", true),
        ("paper", true),
        ("luby:256", true),
        ("geometric:200,1.2", true),
        ("fixed:500", true),
    ] {
        assert_eq!(schedule(text).restarts(), restarts, "{text}");
    }
    let unset = order(",6");
    let exact = unset.for_schedule(&schedule("exact")).unwrap();
    assert!(exact.to_string().contains(",6,0#"), "{exact}");
    let luby = unset.for_schedule(&schedule("luby:256")).unwrap();
    assert!(luby.to_string().contains(",6,0.1#"), "{luby}");
    let frozen = order(",6,0");
    assert_eq!(frozen.for_schedule(&schedule("exact")).unwrap(), frozen);
    let err = frozen.for_schedule(&schedule("luby:256")).unwrap_err();
    assert!(
        matches!(err, OrderError::FrozenRestarts { .. }) && err.to_string().contains("luby:256"),
        "{err}"
    );
    let warm = order(",6,0.3");
    assert_eq!(warm.for_schedule(&schedule("paper")).unwrap(), warm);
    assert_eq!(
        Order::Random.for_schedule(&schedule("luby:1")).unwrap(),
        Order::Random
    );
}
