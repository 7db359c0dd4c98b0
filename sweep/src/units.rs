//! Work units: how an experiment's games are cut up, and the cost table that sizes them.

use crate::{Sweep, Unit};

/// What a default unit should take on one thread. Long enough that per-unit costs (a
/// round trip to the coordinator, one Parquet file) are noise; short enough that a lost
/// worker loses little and progress reports move.
pub const DEFAULT_UNIT_SECONDS: f64 = 15.0;

/// Upper limit of a default unit: tiny boards solve in microseconds, and without a cap a
/// unit of 1x1 games would be millions of rows in one Parquet file.
pub const MAX_UNIT_GAMES: u64 = 50_000;

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
pub(crate) fn default_unit_games(seconds: f64) -> u64 {
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
        let named_by_size = e.named_by_size();
        for (pi, point) in e.points.iter().enumerate() {
            let games = e.games_of(point);
            let n = e.family.size(point);
            for ci in 0..e.configs.len() {
                let size = e.unit_size(ci as u32, pi as u32).max(1);
                let listed = e.listed_games(point);
                for round in 0..series_units(games, size) {
                    // A listed game is a unit of its own (its size is 1).
                    let (start, end) = match listed {
                        Some(list) => (list[round as usize], list[round as usize] + 1),
                        None => (e.first_game + round * size, e.first_game + games),
                    };
                    let unit = Unit {
                        experiment: ei as u32,
                        config: ci as u32,
                        point: pi as u32,
                        n,
                        named_by_size,
                        start,
                        end: (start + size).min(end),
                    };
                    keyed.push((round, series, unit));
                }
                series += 1;
            }
        }
        keyed.sort_by_key(|&(round, series, _)| (round, series));
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

/// The point of a unit id's third field: `n6` (by size) or `n6p0002` (by index).
fn point_field(sweep_experiment: &crate::Experiment, part: Option<&str>) -> Option<u32> {
    let part = part?;
    match part.split_once('p') {
        Some((n, p)) => {
            let index = u32::try_from(field(Some(&format!("p{p}")), 'p')?).ok()?;
            let point = sweep_experiment.points.get(index as usize)?;
            let n = u32::try_from(field(Some(n), 'n')?).ok()?;
            (sweep_experiment.family.size(point) == n).then_some(index)
        }
        None => {
            let n = u32::try_from(field(Some(part), 'n')?).ok()?;
            let index = sweep_experiment
                .points
                .iter()
                .position(|p| sweep_experiment.family.size(p) == n)?;
            u32::try_from(index).ok()
        }
    }
}

pub(crate) fn unit_by_id(sweep: &Sweep, id: &str) -> Option<Unit> {
    let mut parts = id.split('-');
    let experiment = u32::try_from(field(parts.next(), 'e')?).ok()?;
    let config = u32::try_from(field(parts.next(), 'c')?).ok()?;
    let e = sweep.experiments.get(experiment as usize)?;
    let point = point_field(e, parts.next())?;
    let start = field(parts.next(), 'g')?;
    if parts.next().is_some() {
        return None;
    }
    e.configs.get(config as usize)?;
    let p = &e.points[point as usize];
    let (end, size) = match e.listed_games(p) {
        Some(list) => {
            list.binary_search(&start).ok()?;
            (start + 1, 1)
        }
        None => {
            let end = e.first_game + e.games_of(p);
            let size = e.unit_size(config, point).max(1);
            if start < e.first_game || start >= end || (start - e.first_game) % size != 0 {
                return None;
            }
            (end, size)
        }
    };
    let unit = Unit {
        experiment,
        config,
        point,
        n: e.family.size(p),
        named_by_size: e.named_by_size(),
        start,
        end: (start + size).min(end),
    };
    // Only the canonical spelling: other padding, or the wrong form for the experiment.
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
        use crate::RunConfig;
        use hammer_family::{Family, martello::MartelloFamily};
        use hammer_solver::{Order, Schedule};
        let default_unit_games = |n: i64, c: &RunConfig| {
            let point = hammer_family::point_from_pairs(
                &MartelloFamily,
                &[("n".to_string(), hammer_family::ParamValue::Int(n))],
            )
            .unwrap();
            default_unit_games(MartelloFamily.estimated_seconds(&point, &c.solver_config()))
        };
        let exact = RunConfig::new(Order::Standard, Schedule::Exact, 0, 0, 0);
        let luby = RunConfig::new(Order::Random, Schedule::Luby { unit: 256 }, 0, 0, 0);
        let mc = RunConfig::new(
            Order::MonteCarlo {
                playouts: 100,
                levels: 3,
            },
            Schedule::Exact,
            0,
            0,
            0,
        );
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
