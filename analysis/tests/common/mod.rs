//! Small real datasets for the analysis tests: seeded games solved by the real solver and
//! written with the real dataset writer, shaped like the example sweeps.
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use hammer_dataset::{ResultRow, write_part};
use hammer_engine::Martello;
use hammer_engine::seeded::{game, run_seed};
use hammer_solver::{Config, Solver};

pub const SEED: u64 = 2013;
pub const SWEEP: &str = "analysis-test";

/// One experiment: sizes x games x configurations (order, schedule, prefix, budget, trials).
pub struct Exp {
    pub name: &'static str,
    pub sizes: Vec<u8>,
    pub games: std::ops::Range<u64>,
    pub configs: Vec<Conf>,
}

#[derive(Clone)]
pub struct Conf {
    pub order: &'static str,
    pub schedule: String,
    pub prefix: u32,
    pub budget: u64,
    pub trials: u32,
}

pub fn conf(order: &'static str, schedule: &str, prefix: u32, trials: u32) -> Conf {
    Conf {
        order,
        schedule: schedule.to_owned(),
        prefix,
        budget: 0,
        trials,
    }
}

/// A budget configuration as the sweep crate builds it: a single attempt of `budget`
/// expansions, schedule written as the budget.
pub fn budget_conf(budget: u64, prefix: u32, trials: u32) -> Conf {
    Conf {
        order: "random",
        schedule: budget.to_string(),
        prefix,
        budget,
        trials,
    }
}

/// The canonical configuration id of `hammer-sweep` (`order=O;schedule=S[;budget=B];prefix=P;trial=T`).
pub fn config_id(c: &Conf, trial: u32) -> String {
    let mut id = format!("order={};schedule={}", c.order, c.schedule);
    if c.budget > 0 {
        id.push_str(&format!(";budget={}", c.budget));
    }
    id.push_str(&format!(";prefix={};trial={trial}", c.prefix));
    id
}

/// Solves every game of every experiment and writes one part per (experiment, n, config).
pub fn write_experiments(dir: &Path, exps: &[Exp]) -> Vec<ResultRow> {
    let started = Instant::now();
    let mut solver = Solver::new(Martello);
    let mut all = Vec::new();
    for exp in exps {
        for &n in &exp.sizes {
            for (ci, c) in exp.configs.iter().enumerate() {
                let config = Config {
                    order: c
                        .order
                        .parse::<hammer_solver::OrderSpec>()
                        .and_then(|spec| spec.load())
                        .expect("order"),
                    schedule: c.schedule.parse().expect("schedule"),
                    prefix: c.prefix,
                    limits: Default::default(),
                    cancel: None,
                    profile: false,
                };
                let mut rows = Vec::new();
                for trial in 0..c.trials {
                    for index in exp.games.clone() {
                        let board = game(SEED, n, index).expect("seeded game");
                        let out = solver.solve(&board, &config, run_seed(SEED, n, index, trial));
                        let text = |moves: &[hammer_engine::Move]| {
                            moves
                                .iter()
                                .map(|m| m.notation(n))
                                .collect::<Vec<_>>()
                                .join(" ")
                        };
                        rows.push(ResultRow {
                            sweep: SWEEP.to_owned(),
                            experiment: exp.name.to_owned(),
                            config: config_id(c, trial),
                            n: i32::from(n),
                            game_index: index as i64,
                            seed: SEED as i64,
                            board: board.to_string(),
                            prefix: c.prefix as i32,
                            prefix_moves: text(&out.prefix_moves),
                            start: out.start.to_string(),
                            order: config.order.to_string(),
                            schedule: config.schedule.to_string(),
                            budget: c.budget as i64,
                            trial: trial as i32,
                            solvable: out.min_score == 1,
                            exhaustive: out.exhaustive,
                            expansions: out.counters.expansions as i64,
                            attempts: out.counters.attempts as i32,
                            solution: text(&out.solution),
                            wall_ns: 1,
                            worker: "test".to_owned(),
                            hammer_version: "test".to_owned(),
                            puzzle: "martello".to_owned(),
                            params: format!("n={n}"),
                            score: out.min_score as i32,
                            lower_bound: out.lower_bound as i32,
                            schedule_complete: config.schedule.always_exact(),
                            capped_by: out.capped_by.map(|c| c.name().to_owned()),
                            memo_bytes: Some(out.memo_bytes as i64),
                            extra: Vec::new(),
                            split_nodes: None,
                            gang_size: None,
                            gang_expansions: None,
                            gang_memo_bytes: None,
                            states_sent: None,
                            split_parts: None,
                        });
                    }
                }
                write_part(dir, exp.name, i32::from(n), &format!("c{ci}"), &rows)
                    .expect("write part");
                all.extend(rows);
            }
        }
    }
    eprintln!(
        "wrote {} rows to {} in {:.1?}",
        all.len(),
        dir.display(),
        started.elapsed()
    );
    all
}

/// Writes `rows` again as parts of a few consecutive games per (experiment, n, config),
/// the part size cycling through `sizes` from one configuration to the next; rows keep
/// their order within a part. Returns the number of parts.
pub fn write_in_parts(dir: &Path, rows: &[ResultRow], sizes: &[i64]) -> u64 {
    type Group<'r> = ((String, i32, String), Vec<&'r ResultRow>);
    let mut groups: Vec<Group> = Vec::new();
    for r in rows {
        let key = (r.experiment.clone(), r.n, r.config.clone());
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, group)) => group.push(r),
            None => groups.push((key, vec![r])),
        }
    }
    let mut parts = 0;
    for (ci, ((experiment, n, _), group)) in groups.iter().enumerate() {
        let size = sizes[ci % sizes.len()];
        let last = group.iter().map(|r| r.game_index).max().unwrap_or(0);
        let mut start = 0;
        while start <= last {
            let part: Vec<ResultRow> = group
                .iter()
                .filter(|r| (start..start + size).contains(&r.game_index))
                .map(|r| (*r).clone())
                .collect();
            if !part.is_empty() {
                write_part(dir, experiment, *n, &format!("c{ci}-g{start}"), &part)
                    .expect("write part");
                parts += 1;
            }
            start += size;
        }
    }
    parts
}

/// The full test dataset: every figure of the report has rows.
pub fn full_experiments() -> Vec<Exp> {
    vec![
        Exp {
            name: "solvability3",
            sizes: vec![3],
            games: 0..1500,
            configs: vec![conf("standard", "exact", 0, 1)],
        },
        Exp {
            name: "solvability",
            sizes: vec![4, 5],
            games: 0..150,
            configs: vec![conf("standard", "exact", 0, 1)],
        },
        Exp {
            name: "solvability6",
            sizes: vec![6],
            games: 0..12,
            configs: vec![conf("standard", "exact", 0, 1)],
        },
        Exp {
            name: "prefixes",
            sizes: vec![4, 5],
            games: 0..40,
            configs: (1..=3).map(|i| conf("standard", "exact", i, 2)).collect(),
        },
        Exp {
            name: "orders",
            sizes: vec![4, 5],
            games: 0..30,
            configs: vec![
                conf("standard", "exact", 0, 1),
                conf("most-options", "exact", 0, 1),
                conf("monte-carlo:10,2", "exact", 0, 1),
                conf("random", "exact", 0, 4),
            ],
        },
        Exp {
            name: "budgets",
            sizes: vec![5],
            games: 0..40,
            configs: [30u64, 60, 200]
                .iter()
                .flat_map(|&b| (1..=2).map(move |d| budget_conf(b, d, 6)))
                .collect(),
        },
        Exp {
            name: "budgets6",
            sizes: vec![6],
            games: 0..12,
            configs: [100u64, 250]
                .iter()
                .flat_map(|&b| (1..=2).map(move |d| budget_conf(b, d, 4)))
                .collect(),
        },
        Exp {
            name: "meta",
            sizes: vec![5],
            games: 0..40,
            configs: vec![conf("random", "paper", 0, 1)],
        },
    ]
}

/// The Python interpreter for the cross-checks, or `None` after printing why the check is
/// skipped; panics when `HAMMER_REQUIRE_PYTHON=1` demands it.
pub fn python() -> Option<String> {
    let required = std::env::var("HAMMER_REQUIRE_PYTHON").is_ok_and(|v| v == "1");
    match std::env::var("HAMMER_PYTHON") {
        Ok(p) if !p.is_empty() => Some(p),
        _ if required => panic!("HAMMER_REQUIRE_PYTHON=1 but HAMMER_PYTHON is not set"),
        _ => {
            println!("skipped: HAMMER_PYTHON not set");
            None
        }
    }
}

/// Runs `python script args...` and returns stdout; panics with stderr on failure.
pub fn run_python(python: &str, script: &Path, args: &[&str], envs: &[(&str, &str)]) -> String {
    let mut cmd = Command::new(python);
    cmd.arg(script).args(args);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("start python");
    assert!(
        out.status.success(),
        "{} failed:\n{}\n{}",
        script.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn tests_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}
