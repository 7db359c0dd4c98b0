//! Units cover every (experiment, config, size, game) exactly once, ids are stable, and
//! the digest identifies the text.

use std::collections::HashSet;

use hammer_sweep::{Sweep, Unit};
use proptest::prelude::*;

/// One experiment of a generated sweep.
#[derive(Debug, Clone)]
struct Shape {
    sizes: Vec<u8>,
    games: u64,
    first_game: u64,
    unit_games: Option<u64>,
    orders: usize,
    prefixes: usize,
    tries: u32,
    budgets: bool,
}

fn shape() -> impl Strategy<Value = Shape> {
    (
        proptest::sample::subsequence(vec![1u8, 2, 3, 4, 5, 6, 7, 8], 1..=4),
        1u64..400,
        prop_oneof![Just(0u64), 0u64..100_000],
        prop_oneof![Just(None), (1u64..120).prop_map(Some)],
        1usize..=3,
        1usize..=3,
        1u32..=3,
        any::<bool>(),
    )
        .prop_map(
            |(sizes, games, first_game, unit_games, orders, prefixes, tries, budgets)| Shape {
                sizes,
                games,
                first_game,
                unit_games,
                orders,
                prefixes,
                tries,
                budgets,
            },
        )
}

fn text(shapes: &[Shape]) -> String {
    let orders = ["\"standard\"", "\"random\"", "\"most-options\""];
    let mut t = String::from("name = \"prop\"\nseed = 7\n");
    for (i, s) in shapes.iter().enumerate() {
        let sizes: Vec<String> = s.sizes.iter().map(|n| n.to_string()).collect();
        let prefixes: Vec<String> = (0..s.prefixes).map(|p| p.to_string()).collect();
        t += &format!(
            "\n[[experiment]]\nname = \"e{i}\"\nsizes = [{}]\ngames = {}\nfirst_game = {}\norders = [{}]\nprefixes = [{}]\ntries = {}\n",
            sizes.join(", "),
            s.games,
            s.first_game,
            orders[..s.orders].join(", "),
            prefixes.join(", "),
            s.tries
        );
        if s.budgets {
            t += "budgets = [100, 2500]\n";
        } else {
            t += "schedules = [\"exact\", \"luby:64\"]\n";
        }
        if let Some(u) = s.unit_games {
            t += &format!("unit_games = {u}\n");
        }
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn units_cover_every_game_exactly_once(shapes in proptest::collection::vec(shape(), 1..=3)) {
        let sweep = Sweep::parse(&text(&shapes), "prop.toml").unwrap();
        let units = sweep.units();
        prop_assert_eq!(&units, &sweep.units(), "units() is not deterministic");

        let mut covered: HashSet<(u32, u32, u32, u64)> = HashSet::new();
        let mut ids = HashSet::new();
        for u in &units {
            prop_assert!(u.start < u.end, "empty unit {:?}", u);
            let (e, _) = sweep.config_of(u).unwrap();
            let point = &e.points[u.point as usize];
            prop_assert_eq!(e.family.size(point), u.n);
            prop_assert!(u.start >= e.first_game && u.end <= e.first_game + e.games);
            let size = e.unit_size(u.config, u.point);
            if let Some(want) = e.unit_games {
                prop_assert_eq!(size, want);
            }
            prop_assert!(u.games() <= size);
            for g in u.start..u.end {
                prop_assert!(covered.insert((u.experiment, u.config, u.point, g)), "game covered twice by {:?}", u);
            }
            let id = u.id();
            hammer_dataset::validate_part_id(&id).unwrap();
            prop_assert!(ids.insert(id.clone()), "duplicate id {}", id);
            prop_assert_eq!(sweep.unit_by_id(&id), Some(*u));
        }
        prop_assert_eq!(covered.len() as u64, sweep.total_games());
        for (ei, e) in sweep.experiments.iter().enumerate() {
            let configs: HashSet<&str> = e.configs.iter().map(|c| c.id.as_str()).collect();
            prop_assert_eq!(configs.len(), e.configs.len());
            prop_assert_eq!(e.configs.len(), shapes[ei].orders * 2 * shapes[ei].prefixes * shapes[ei].tries as usize);
            for (ci, _) in e.configs.iter().enumerate() {
                for p in 0..e.points.len() as u32 {
                    for g in e.first_game..e.first_game + e.games {
                        prop_assert!(covered.contains(&(ei as u32, ci as u32, p, g)));
                    }
                }
            }
        }
    }
}

const SMALL: &str = r#"name = "small"
seed = 2013

[[experiment]]
name = "exact"
sizes = [3, 6]
games = 2500
first_game = 100
unit_games = 1000

[[experiment]]
name = "budgets"
sizes = [6]
games = 10
orders = ["random", "standard"]
budgets = [100, 1000]
prefixes = [1, 2]
tries = 2
"#;

#[test]
fn units_are_ordered_round_robin_and_ids_are_stable() {
    let sweep = Sweep::parse(SMALL, "small.toml").unwrap();
    let ids: Vec<String> = sweep.units().iter().take(8).map(Unit::id).collect();
    assert_eq!(
        ids,
        [
            "e000-c0000-n3-g000000000100",
            "e000-c0000-n6-g000000000100",
            "e000-c0000-n3-g000000001100",
            "e000-c0000-n6-g000000001100",
            "e000-c0000-n3-g000000002100",
            "e000-c0000-n6-g000000002100",
            "e001-c0000-n6-g000000000000",
            "e001-c0001-n6-g000000000000",
        ]
    );
    let last = sweep.unit_by_id("e000-c0000-n6-g000000002100").unwrap();
    assert_eq!((last.start, last.end, last.games()), (2100, 2600, 500));
    assert_eq!(sweep.total_games(), 2 * 2500 + 16 * 10);

    let configs: Vec<&str> = sweep.experiments[1]
        .configs
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(
        configs[..5],
        [
            "order=random;schedule=100;budget=100;prefix=1;trial=0",
            "order=random;schedule=100;budget=100;prefix=1;trial=1",
            "order=random;schedule=100;budget=100;prefix=2;trial=0",
            "order=random;schedule=100;budget=100;prefix=2;trial=1",
            "order=random;schedule=1000;budget=1000;prefix=1;trial=0",
        ]
    );
    assert_eq!(
        configs[15],
        "order=standard;schedule=1000;budget=1000;prefix=2;trial=1"
    );
    assert_eq!(
        sweep.experiments[0].configs[0].id,
        "order=standard;schedule=exact;prefix=0;trial=0"
    );
}

#[test]
fn unit_by_id_refuses_what_is_not_a_unit() {
    let sweep = Sweep::parse(SMALL, "small.toml").unwrap();
    for id in [
        "e000-c0000-n3-g000000000100x",
        "e0-c0000-n3-g000000000100",   // not canonical padding
        "e000-c0000-n3-g000000000150", // inside a unit
        "e000-c0000-n3-g000000000000", // before first_game
        "e000-c0000-n3-g000000002600", // past the end
        "e000-c0000-n4-g000000000100", // size not in the experiment
        "e000-c0001-n3-g000000000100", // no such config
        "e002-c0000-n3-g000000000100", // no such experiment
        "e000-c0000-n3",
        "",
        "e000-c0000-n3-g-00000000100",
    ] {
        assert_eq!(sweep.unit_by_id(id), None, "{id}");
    }
}

#[test]
fn digest_is_xxh3_128_of_the_text() {
    let sweep = Sweep::parse(SMALL, "small.toml").unwrap();
    assert_eq!(sweep.digest, "004dae5466cb2d52e1aa9a6f8a94a816");
    // Any change to the text, even a comment, is another sweep.
    let other = Sweep::parse(&format!("# note\n{SMALL}"), "small.toml").unwrap();
    assert_ne!(other.digest, sweep.digest);
    assert_eq!(other.experiments, sweep.experiments);
}

#[test]
fn solver_config_and_run_seed() {
    let sweep = Sweep::parse(SMALL, "small.toml").unwrap();
    let c = &sweep.experiments[1].configs[3];
    let solver = c.solver_config();
    assert_eq!(solver.order, hammer_solver::Order::Random);
    assert_eq!(solver.prefix, 2);
    assert_eq!(solver.schedule.budgets().collect::<Vec<_>>(), [Some(100)]);
    let e = &sweep.experiments[1];
    let six = e.points.iter().find(|p| e.family.size(p) == 6).unwrap();
    assert_eq!(
        c.run_seed(e.family, six, sweep.seed, 4),
        hammer_engine::seeded::run_seed(2013, 6, 4, 1)
    );
    // Same trial, other budget: same run seed, so the same random prefix.
    let d = &sweep.experiments[1].configs[7];
    assert_eq!((d.budget, d.trial), (1000, 1));
    assert_eq!(
        d.run_seed(e.family, six, sweep.seed, 4),
        c.run_seed(e.family, six, sweep.seed, 4)
    );
}
