//! Measured refinement: the engine's own schedules run on the tuning games.
//!
//! The independent-restart model prices what the run-time data can price, but the engine
//! keeps every fully explored state from one attempt to the next. That memo is what makes
//! endless schedules (`fixed:t`, `luby:U`, `geometric:B,R`) exact, and it makes short
//! restarts far cheaper than independent ones, so the model undervalues exactly the
//! schedules that work best. The refinement measures instead of modelling: a sweep on
//! (a prefix of) the tuning games runs a grid of endless schedules of each family and the
//! model's best lists, and the schedule with the least measured mean wins. Validation on
//! fresh games then checks it, since the minimum of a grid measured on the same games is
//! still optimistic.

use std::collections::{BTreeMap, HashMap};

use hammer_solver::Schedule;

use super::Tuning;
use super::schedule_families::ScheduleFamily;
use crate::{Error, Result};
use hammer_analysis::RowSource;
use hammer_stats::{Mean, Ratio, bootstrap_mean, mean_t, paired_ratio};

/// The experiment name of the refinement sweep.
pub const EXPERIMENT: &str = "refine";

/// A candidate of the refinement: a family and an engine schedule.
#[derive(Debug, Clone, PartialEq)]
pub struct Trial {
    pub(crate) family: ScheduleFamily,
    /// The schedule the refinement sweep runs.
    pub schedule: Schedule,
    /// Whether this is the model's best list (as opposed to an endless grid point).
    pub from_model: bool,
}

/// Values `lo..=hi`, `per_decade` a decade on a log scale, rounded to whole numbers.
fn grid(lo: f64, hi: f64, per_decade: u32) -> Vec<u64> {
    let mut out = Vec::new();
    let steps = ((hi / lo).log10() * f64::from(per_decade)).round().max(0.0) as u32;
    for k in 0..=steps {
        let v = (lo * 10f64.powf(f64::from(k) / f64::from(per_decade))).round() as u64;
        if v >= 1 && out.last() != Some(&v) {
            out.push(v);
        }
    }
    out
}

/// The grid of endless schedules around the cap, plus the model's best list per family.
///
/// The ranges are wide on purpose: the measured optimum with the memo lies well below
/// the model's (short restarts are cheap when finished work is kept), so the grid spans
/// two to three decades below the cap.
pub fn trials(t: &Tuning) -> Vec<Trial> {
    let cap = t.input.cap as f64;
    let mut out = Vec::new();
    for f in &t.families {
        out.push(Trial {
            family: f.family,
            schedule: f.priced.candidate.schedule(),
            from_model: true,
        });
    }
    for cutoff in grid(cap / 100.0, cap, 4) {
        out.push(Trial {
            family: ScheduleFamily::Fixed,
            schedule: Schedule::Fixed { cutoff },
            from_model: false,
        });
    }
    for unit in grid(cap / 1000.0, cap / 10.0, 4) {
        out.push(Trial {
            family: ScheduleFamily::Luby,
            schedule: Schedule::Luby { unit },
            from_model: false,
        });
    }
    for base in grid(cap / 300.0, cap / 3.0, 2) {
        for ratio in [1.1, 1.25, 1.5] {
            out.push(Trial {
                family: ScheduleFamily::Geometric,
                schedule: Schedule::Geometric { base, ratio },
                from_model: false,
            });
        }
    }
    // The same schedule twice (a model list that equals a grid point) is measured once.
    let mut seen = Vec::new();
    out.retain(|c| {
        let s = c.schedule.to_string();
        if seen.contains(&s) {
            false
        } else {
            seen.push(s);
            true
        }
    });
    out
}

/// The first `games` games of the tuning set, which must be consecutive indices.
fn game_range(t: &Tuning, games: u64) -> Option<(i64, u64)> {
    let first = t.input.games.first()?.game_index;
    let games = games.min(t.input.games.len() as u64);
    let consecutive = t
        .input
        .games
        .iter()
        .take(games as usize)
        .enumerate()
        .all(|(i, g)| g.game_index == first + i as i64);
    consecutive.then_some((first, games))
}

/// The refinement sweep: every trial schedule in the tuning order on the first `games`
/// tuning games (same seed, so the plain DFS costs of the tuning data pair with them).
pub fn sweep_text(t: &Tuning, name: &str, games: u64) -> Option<String> {
    let (first, games) = game_range(t, games)?;
    let schedules: Vec<String> = trials(t)
        .iter()
        .map(|c| format!("  \"{}\",", c.schedule))
        .collect();
    Some(format!(
        "# Measured refinement for `hammer tune` on sweep {} (seed {}): every schedule below\n\
         # runs in the engine, memo and all, on the first {games} tuning games.\n\
         name = \"{name}\"\n\
         seed = {seed}\n\
         \n\
         [[experiment]]\n\
         name = \"{EXPERIMENT}\"\n\
         sizes = [{n}]\n\
         first_game = {first}\n\
         games = {games}\n\
         orders = \"{order}\"\n\
         schedules = [\n{}\n]\n",
        t.input.sweep,
        t.input.seed,
        schedules.join("\n"),
        seed = t.input.seed,
        n = t.input.n,
        order = t.input.order,
    ))
}

/// One measured trial.
#[derive(Debug, Clone)]
pub struct Measured {
    /// What was run.
    pub trial: Trial,
    /// Measured mean expansions a game.
    pub expansions: Mean,
    pub(crate) wall_ms: Mean,
    /// Plain DFS (from the tuning data) over this schedule, paired by game.
    pub speedup: Ratio,
    /// Games measured, the same for every trial.
    pub games: u64,
}

/// The refinement's measurements, from which the tuned schedule is then chosen.
#[derive(Debug, Clone)]
pub struct Refinement {
    /// Every trial's measurement.
    pub measured: Vec<Measured>,
    /// Index into `measured` of the least mean expansions.
    pub best: usize,
}

impl Refinement {
    pub(crate) fn best(&self) -> Option<&Measured> {
        self.measured.get(self.best)
    }
}

/// Reads the refinement dataset and measures every trial on the games all of them have.
pub fn measure(t: &Tuning, rows: RowSource) -> Result<Refinement> {
    let refuse = |reason: String| Error::Refused {
        path: rows.dir().to_owned(),
        reason,
    };
    let dfs: HashMap<i64, f64> = t
        .input
        .games
        .iter()
        .filter_map(|g| g.exact_standard.map(|x| (g.game_index, x)))
        .collect();
    let mut by_id: BTreeMap<u32, BTreeMap<i64, (f64, f64)>> = BTreeMap::new();
    let names = rows.visit(&mut |_, r| {
        if r.n == t.input.n && r.seed == t.input.seed && r.prefix == 0 && r.budget == 0 {
            by_id
                .entry(r.schedule)
                .or_default()
                .insert(r.game_index, (r.expansions as f64, r.wall_ns as f64 / 1e6));
        }
    })?;
    let by_schedule: BTreeMap<&str, BTreeMap<i64, (f64, f64)>> = by_id
        .into_iter()
        .map(|(id, games)| (names.name(id), games))
        .collect();
    let mut measured = Vec::new();
    for trial in trials(t) {
        let key = trial.schedule.to_string();
        let Some(rows) = by_schedule.get(key.as_str()) else {
            return Err(refuse(format!(
                "the refinement dataset has no rows of schedule {key}; is the refinement sweep finished?"
            )));
        };
        let games: Vec<i64> = rows
            .keys()
            .copied()
            .filter(|g| dfs.contains_key(g))
            .collect();
        let exp: Vec<f64> = games.iter().map(|g| rows[g].0).collect();
        let wall: Vec<f64> = games.iter().map(|g| rows[g].1).collect();
        let base: Vec<f64> = games.iter().map(|g| dfs[g]).collect();
        let label = format!("refine/{key}");
        measured.push(Measured {
            expansions: bootstrap_mean(&exp, &label),
            wall_ms: mean_t(&wall),
            speedup: paired_ratio(&base, &exp, &label),
            games: games.len() as u64,
            trial,
        });
    }
    let best = measured
        .iter()
        .enumerate()
        .filter(|(_, m)| m.expansions.value.is_finite() && m.games > 0)
        .min_by(|a, b| a.1.expansions.value.total_cmp(&b.1.expansions.value))
        .map(|(i, _)| i)
        .ok_or_else(|| refuse("the refinement measured no game".to_owned()))?;
    Ok(Refinement { measured, best })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_span_the_range() {
        assert_eq!(grid(100.0, 10_000.0, 2), [100, 316, 1000, 3162, 10_000]);
        assert_eq!(grid(10.0, 10.0, 4), [10]);
    }
}
