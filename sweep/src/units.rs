//! Work units: how an experiment's games are cut up, and the cost table that sizes them.

use hammer_solver::{Order, Schedule};

use crate::{RunConfig, Sweep, Unit};

/// What a default unit should take on one thread. Long enough that per-unit costs (a
/// round trip to the coordinator, one Parquet file) are noise; short enough that a lost
/// worker loses little and progress reports move.
pub const DEFAULT_UNIT_SECONDS: f64 = 15.0;

/// Upper limit of a default unit: tiny boards solve in microseconds, and without a cap a
/// unit of 1x1 games would be millions of rows in one Parquet file.
pub const MAX_UNIT_GAMES: u64 = 50_000;

/// Seconds per game of plain exact search (order `standard`, schedule `exact`) by board
/// size, one thread, measured with `hammer bench` on the 2-core development machine
/// (2026-11): n = 1..5 in a few tens of microseconds, n = 6 at 85-95 games/s, n = 7 at
/// 0.2 games/s over 30 games (one took 50 million expansions). n = 8 was not measured
/// (it would take hours); its entry is a guess, so give `unit_games` for n = 8 sweeps.
const EXACT_SECONDS: [f64; 9] = [0.0, 40e-6, 40e-6, 40e-6, 50e-6, 150e-6, 12e-3, 5.0, 300.0];

/// Seconds per expansion by size (1.5 million expansions/s up to n = 6, 0.67 million at
/// n = 7), for budgeted schedules whose cost is capped by the budget.
const EXPANSION_SECONDS: [f64; 9] = [
    0.0, 0.6e-6, 0.6e-6, 0.6e-6, 0.6e-6, 0.65e-6, 0.65e-6, 1.5e-6, 2.0e-6,
];

/// Fixed cost of one solve (the memo reset, the bounds of the start), measured as the
/// time of budget-100 runs at n = 6.
const SETUP_SECONDS: [f64; 9] = [
    0.0, 20e-6, 20e-6, 30e-6, 30e-6, 50e-6, 100e-6, 200e-6, 300e-6,
];

/// Share of a budget that a budgeted attempt uses on average, since solvable games often
/// finish early: random/B at n = 6 used 90% of B = 1,000 and 55% of B = 10,000.
const BUDGET_USE: f64 = 0.8;

/// Cost of a whole exact search under a move order relative to `standard`, at n = 6:
/// most-options 23 games/s, monte-carlo (100 playouts on 3 levels) 25, against 94 for
/// standard; random measured between 48 games/s (300 games) and par with standard
/// (52,000 sampled solves), heavy tails making the difference.
fn order_factor(order: &Order) -> f64 {
    match order {
        Order::Random => 1.5,
        other => expansion_factor(other),
    }
}

/// Cost of one expansion under a move order relative to `standard`: the random order
/// expands about as fast but needs more expansions in an exact search, the heuristics
/// pay for their lookahead at every expansion (monte-carlo only on its first levels,
/// which dominate).
fn expansion_factor(order: &Order) -> f64 {
    match order {
        Order::Standard => 1.0,
        Order::Random => 1.2,
        Order::MostOptions => 4.0,
        Order::MonteCarlo { playouts, levels } => {
            1.0 + 2.8 * (*playouts as f64) * (*levels as f64) / 300.0
        }
    }
}

/// A rough single-thread time for one game of size `n` under `config`.
///
/// This is the table that sizes default units, so it must be a pure function of the
/// sweep text: only IEEE `+ - * /` and `min`, which give the same bits everywhere. It is
/// part of the format: changing it moves the unit boundaries (and ids) of sweeps that
/// rely on the default, which is why sweeps meant to be resumed across hammer versions
/// should set `unit_games`.
pub fn estimated_game_seconds(n: u8, config: &RunConfig) -> f64 {
    let n = (n as usize).min(EXACT_SECONDS.len() - 1);
    let exact = EXACT_SECONDS[n] * order_factor(&config.order);
    match &config.schedule {
        Schedule::Exact => exact,
        Schedule::List {
            phases,
            then_exact: false,
        } => {
            let total: f64 = phases.iter().map(|&(c, b)| c as f64 * b as f64).sum();
            let per_expansion = EXPANSION_SECONDS[n] * expansion_factor(&config.order);
            (SETUP_SECONDS[n] + BUDGET_USE * total * per_expansion).min(exact)
        }
        // Restarts with a random order find solutions of solvable games far sooner: at
        // n = 6, random/luby:256 ran at 204 games/s and random/paper at 108, against 48
        // for random/exact. With a fixed order they mostly repeat the same search.
        Schedule::Luby { .. } | Schedule::Geometric { .. } | Schedule::Fixed { .. }
            if config.order == Order::Random =>
        {
            exact * 0.22
        }
        _ if config.order == Order::Random => exact * 0.4,
        _ => exact,
    }
}

/// `x` rounded down to 1, 2 or 5 times a power of ten, so unit boundaries are round
/// game numbers that a person can read in a unit id.
fn round_down_nicely(x: u64) -> u64 {
    let mut power = 1u64;
    while power <= x / 10 {
        power *= 10;
    }
    [5, 2, 1]
        .into_iter()
        .map(|m| m * power)
        .find(|&v| v <= x)
        .unwrap_or(1)
}

/// The default games per unit: about [`DEFAULT_UNIT_SECONDS`] of work, between 1 and
/// [`MAX_UNIT_GAMES`], rounded down to 1, 2 or 5 times a power of ten.
pub(crate) fn default_unit_games(n: u8, config: &RunConfig) -> u64 {
    let seconds = estimated_game_seconds(n, config);
    let raw = if seconds > 0.0 {
        // `as` saturates, and the min below caps it anyway.
        (DEFAULT_UNIT_SECONDS / seconds) as u64
    } else {
        MAX_UNIT_GAMES
    };
    round_down_nicely(raw.clamp(1, MAX_UNIT_GAMES))
}

/// How many units one (experiment, config, size) series has.
pub(crate) fn series_units(games: u64, unit: u64) -> u64 {
    games.div_ceil(unit.max(1))
}

pub(crate) fn units(sweep: &Sweep) -> Vec<Unit> {
    let mut out = Vec::new();
    for (ei, e) in sweep.experiments.iter().enumerate() {
        // (round, series, unit): sorting on the first two interleaves the series.
        let mut keyed: Vec<(u64, usize, Unit)> = Vec::new();
        let mut series = 0usize;
        for &n in &e.sizes {
            for ci in 0..e.configs.len() {
                let size = e.unit_size(ci as u32, n).max(1);
                let end = e.first_game + e.games;
                for round in 0..series_units(e.games, size) {
                    let start = e.first_game + round * size;
                    keyed.push((
                        round,
                        series,
                        Unit {
                            experiment: ei as u32,
                            config: ci as u32,
                            n,
                            start,
                            end: (start + size).min(end),
                        },
                    ));
                }
                series += 1;
            }
        }
        keyed.sort_unstable_by_key(|&(round, series, _)| (round, series));
        out.extend(keyed.into_iter().map(|(_, _, u)| u));
    }
    out
}

/// The number after `letter` in one dash-separated field of a unit id.
fn field(part: Option<&str>, letter: char) -> Option<u64> {
    let digits = part?.strip_prefix(letter)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

pub(crate) fn unit_by_id(sweep: &Sweep, id: &str) -> Option<Unit> {
    let mut parts = id.split('-');
    let experiment = u32::try_from(field(parts.next(), 'e')?).ok()?;
    let config = u32::try_from(field(parts.next(), 'c')?).ok()?;
    let n = u8::try_from(field(parts.next(), 'n')?).ok()?;
    let start = field(parts.next(), 'g')?;
    if parts.next().is_some() {
        return None;
    }
    let e = sweep.experiments.get(experiment as usize)?;
    e.configs.get(config as usize)?;
    if !e.sizes.contains(&n) {
        return None;
    }
    let end = e.first_game + e.games;
    let size = e.unit_size(config, n).max(1);
    if start < e.first_game || start >= end || (start - e.first_game) % size != 0 {
        return None;
    }
    let unit = Unit {
        experiment,
        config,
        n,
        start,
        end: (start + size).min(end),
    };
    (unit.id() == id).then_some(unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_rounding() {
        let got: Vec<u64> = [
            1, 2, 3, 4, 5, 9, 10, 19, 20, 49, 50, 99, 100, 1250, 1562, 50_000,
        ]
        .into_iter()
        .map(round_down_nicely)
        .collect();
        assert_eq!(
            got,
            [
                1, 2, 2, 2, 5, 5, 10, 10, 20, 20, 50, 50, 100, 1000, 1000, 50_000
            ]
        );
    }

    #[test]
    fn default_units_take_seconds_not_hours() {
        let exact = RunConfig::new(Order::Standard, Schedule::Exact, 0, 0, 0);
        let luby = RunConfig::new(Order::Random, Schedule::Luby { unit: 256 }, 0, 0, 0);
        let mc = RunConfig::new("monte-carlo".parse().unwrap(), Schedule::Exact, 0, 0, 0);
        let b100 = RunConfig::with_budget(Order::Random, 100, 1, 0);
        assert_eq!(default_unit_games(3, &exact), MAX_UNIT_GAMES);
        assert_eq!(default_unit_games(6, &exact), 1000);
        assert_eq!(default_unit_games(6, &luby), 2000);
        assert_eq!(default_unit_games(6, &mc), 200);
        assert_eq!(default_unit_games(6, &b100), 50_000);
        let b1000 = RunConfig::with_budget(Order::Random, 1000, 1, 0);
        let b10000 = RunConfig::with_budget(Order::Random, 10_000, 1, 0);
        assert_eq!(default_unit_games(6, &b1000), 20_000);
        assert_eq!(default_unit_games(6, &b10000), 2000);
        assert_eq!(default_unit_games(7, &exact), 2);
        assert_eq!(default_unit_games(8, &mc), 1);
    }
}
