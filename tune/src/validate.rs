//! Validation of a tuned schedule on fresh games.
//!
//! The model behind the tuner treats attempts as independent, but the engine keeps every
//! fully explored state from one attempt to the next, and the minimum over many
//! candidates flatters the winner on the games it was picked on. So the advice is checked
//! by measurement: a sweep on a new seed runs the tuned schedule, `paper`, the engine's
//! `luby:U` and plain DFS on the same games, and the comparison is paired by game.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::Tuning;
use crate::{Error, Result};
use hammer_analysis::RowSource;
use hammer_analysis::{Cell, Chart, Figure, Point, Scale, Series, SeriesKind, Table};
use hammer_stats::{Mean, Ratio, mean_t, paired_ratio};

/// Experiment names of the validation sweep.
pub const EXPERIMENT_RANDOM: &str = "validate-random";
pub(crate) const EXPERIMENT_DFS: &str = "validate-dfs";

/// The validation sweep: `games` fresh games of the tuning size under `seed`.
pub fn sweep_text(t: &Tuning, name: &str, seed: u64, games: u64) -> String {
    let n = t.input.n;
    // The tuned schedule may itself be `paper` or the Luby reference: list each once.
    let mut schedules: Vec<String> = Vec::new();
    for s in [
        t.best.to_string(),
        "paper".to_owned(),
        format!("luby:{}", t.luby_unit()),
    ] {
        if !schedules.contains(&s) {
            schedules.push(s);
        }
    }
    let schedules = schedules
        .iter()
        .map(|s| format!("\"{s}\""))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "# Validation of a schedule tuned by `hammer tune` on sweep {} (seed {}), written\n\
         # by `hammer tune --validate`: the tuned schedule, paper and luby:{} in the order\n\
         # {order}, and plain DFS, on the same {games} fresh games (seed {seed}).\n\
         name = \"{name}\"\n\
         seed = {seed}\n\
         \n\
         [[experiment]]\n\
         name = \"{EXPERIMENT_RANDOM}\"\n\
         sizes = [{n}]\n\
         games = {games}\n\
         orders = \"{order}\"\n\
         schedules = [{schedules}]\n\
         \n\
         [[experiment]]\n\
         name = \"{EXPERIMENT_DFS}\"\n\
         sizes = [{n}]\n\
         games = {games}\n\
         orders = \"standard\"\n\
         schedules = \"exact\"\n",
        t.input.sweep,
        t.input.seed,
        t.luby_unit(),
        order = t.input.order,
    )
}

/// One measured schedule.
#[derive(Debug, Clone)]
pub struct Measured {
    /// The move order, by name.
    pub order: String,
    /// The schedule, by name.
    pub schedule: String,
    /// Measured mean expansions a game.
    pub expansions: Mean,
    /// Wall time a game, milliseconds (timing: differs between runs).
    pub wall_ms: Mean,
    /// Plain DFS's expansions over this schedule's, paired by game.
    pub speedup: Ratio,
    /// Plain DFS's wall time over this schedule's, paired by game.
    pub wall_speedup: Ratio,
    /// Games where the result was not exhaustive (should be none: every schedule here
    /// ends exact).
    pub inexact: u64,
}

/// The validation's measurements, to compare with the tuner's predictions.
#[derive(Debug, Clone)]
pub struct Validation {
    /// The validation games' seed.
    pub seed: i64,
    /// Games measured.
    pub games: u64,
    /// Every schedule's measurement.
    pub measured: Vec<Measured>,
    pub(crate) warnings: Vec<String>,
}

impl Validation {
    pub(crate) fn get(&self, order: &str, schedule: &str) -> Option<&Measured> {
        self.measured
            .iter()
            .find(|m| m.order == order && m.schedule == schedule)
    }
}

/// Per game: expansions, wall nanoseconds, exhaustive.
type GameResults = HashMap<i64, (f64, f64, bool)>;

/// Measures every (order, schedule) of the validation dataset at the tuning size, paired
/// over the games that every one of them has.
pub fn compare(t: &Tuning, rows: RowSource) -> Result<Validation> {
    let refuse = |reason: String| Error::Refused {
        path: rows.dir().to_owned(),
        reason,
    };
    let n = t.input.n;
    let mut by_id: BTreeMap<(u32, u32), GameResults> = BTreeMap::new();
    let mut seeds = BTreeSet::new();
    let names = rows.visit(&mut |_, r| {
        if r.n != n || r.prefix != 0 || r.budget != 0 || r.trial != 0 {
            return;
        }
        seeds.insert(r.seed);
        by_id.entry((r.order, r.schedule)).or_default().insert(
            r.game_index,
            (r.expansions as f64, r.wall_ns as f64, r.exhaustive),
        );
    })?;
    let groups: BTreeMap<(String, String), GameResults> = by_id
        .into_iter()
        .map(|((order, schedule), games)| {
            let key = (
                names.name(order).to_owned(),
                names.name(schedule).to_owned(),
            );
            (key, games)
        })
        .collect();
    let dfs_key = ("standard".to_owned(), "exact".to_owned());
    if !groups.contains_key(&dfs_key) {
        return Err(refuse(format!(
            "the validation dataset has no plain DFS rows (order standard, schedule exact) of size {n} to compare with"
        )));
    }
    let mut warnings = Vec::new();
    if seeds.contains(&t.input.seed) {
        warnings.push(format!(
            "the validation games use the tuning seed {}: they are not fresh, so the comparison flatters the tuned schedule",
            t.input.seed
        ));
    }
    let mut common: Option<BTreeSet<i64>> = None;
    for games in groups.values() {
        let set: BTreeSet<i64> = games.keys().copied().collect();
        common = Some(match common {
            None => set,
            Some(c) => c.intersection(&set).copied().collect(),
        });
    }
    let common: Vec<i64> = common.unwrap_or_default().into_iter().collect();
    if common.is_empty() {
        return Err(refuse(
            "the validation schedules share no game: is the validation sweep finished?".to_owned(),
        ));
    }
    let column = |key: &(String, String), pick: fn(&(f64, f64, bool)) -> f64| -> Vec<f64> {
        let g = &groups[key];
        common.iter().filter_map(|i| g.get(i).map(pick)).collect()
    };
    let dfs = column(&dfs_key, |v| v.0);
    let dfs_wall = column(&dfs_key, |v| v.1);
    let mut measured = Vec::new();
    for key in groups.keys() {
        let exp = column(key, |v| v.0);
        let wall = column(key, |v| v.1 / 1e6);
        let wall_ns = column(key, |v| v.1);
        let inexact = column(key, |v| if v.2 { 0.0 } else { 1.0 })
            .iter()
            .sum::<f64>() as u64;
        let label = format!("validate/{}/{}", key.0, key.1);
        measured.push(Measured {
            order: key.0.clone(),
            schedule: key.1.clone(),
            expansions: mean_t(&exp),
            wall_ms: mean_t(&wall),
            speedup: paired_ratio(&dfs, &exp, &label),
            wall_speedup: paired_ratio(&dfs_wall, &wall_ns, &format!("{label}/wall")),
            inexact,
        });
    }
    Ok(Validation {
        seed: seeds.first().copied().unwrap_or(0),
        games: common.len() as u64,
        measured,
        warnings,
    })
}

/// A display name for a measured schedule, from the tuner's predictions.
fn name_of(t: &Tuning, m: &Measured) -> String {
    t.prediction(&m.order, &m.schedule).map_or_else(
        || format!("{} / {}", m.order, m.schedule),
        |p| p.name.clone(),
    )
}

pub(crate) fn figure(t: &Tuning, v: &Validation) -> Figure {
    let mut f = Figure::new(
        "tune-validation",
        "Validation on fresh games: measured against predicted",
        &format!(
            "a validation sweep of {} games of size {} under seed {}, every schedule on the same games",
            v.games, t.input.n, v.seed
        ),
        "hammer tune --validate",
    );
    let mut table = Table::new(
        "tune_validation",
        "Measured mean expansions and wall time a game (95% t intervals), speed-up over plain DFS (paired bootstrap), and the tuner's prediction",
        &[
            "schedule",
            "order",
            "measured mean",
            "low",
            "high",
            "wall ms",
            "wall low",
            "wall high",
            "speed-up vs DFS",
            "speed-up low",
            "speed-up high",
            "wall speed-up vs DFS",
            "predicted mean",
            "predicted low",
            "predicted high",
            "prediction within measured interval",
        ],
    );
    let mut measured_points = Vec::new();
    let mut predicted_points = Vec::new();
    let mut categories = Vec::new();
    for (i, m) in v.measured.iter().enumerate() {
        let p = t.prediction(&m.order, &m.schedule);
        let within = p.map(|p| {
            if p.beyond_cap > 0.0 {
                "lower bound".to_owned()
            } else if p.mean.value >= m.expansions.low && p.mean.value <= m.expansions.high {
                "yes".to_owned()
            } else {
                "no".to_owned()
            }
        });
        table.push(vec![
            Cell::text(name_of(t, m)),
            Cell::text(m.order.clone()),
            Cell::num(m.expansions.value, 1),
            Cell::num(m.expansions.low, 1),
            Cell::num(m.expansions.high, 1),
            Cell::num(m.wall_ms.value, 3),
            Cell::num(m.wall_ms.low, 3),
            Cell::num(m.wall_ms.high, 3),
            Cell::num(m.speedup.value, 3),
            Cell::num(m.speedup.low, 3),
            Cell::num(m.speedup.high, 3),
            Cell::num(m.wall_speedup.value, 3),
            Cell::opt(p.map(|p| p.mean.value), 1),
            Cell::opt(p.map(|p| p.mean.low), 1),
            Cell::opt(p.map(|p| p.mean.high), 1),
            Cell::text(within.unwrap_or_else(|| "no prediction".to_owned())),
        ]);
        categories.push(name_of(t, m));
        measured_points.push(Point::new(
            i as f64,
            m.expansions.value,
            m.expansions.low,
            m.expansions.high,
        ));
        if let Some(p) = p {
            predicted_points.push(Point::new(i as f64, p.mean.value, p.mean.low, p.mean.high));
        }
    }
    f.tables.push(table);
    f.charts.push(Chart {
        name: "tune_validation".to_owned(),
        title: format!("Measured and predicted mean expansions, n = {}", t.input.n),
        x_label: "schedule".to_owned(),
        y_label: "mean expansions a game".to_owned(),
        x_scale: Scale::Linear,
        y_scale: Scale::Log,
        categories: Some(categories),
        series: vec![
            Series {
                name: "measured (fresh games)".to_owned(),
                kind: SeriesKind::Points,
                points: measured_points,
            },
            Series {
                name: "predicted (tuning games)".to_owned(),
                kind: SeriesKind::Report,
                points: predicted_points,
            },
        ],
    });
    let tuned = t.best.to_string();
    if let Some(m) = v.get(&t.input.order, &tuned) {
        f.notes.push(format!(
            "The tuned schedule used {:.0} expansions a game on the fresh games against plain DFS's {:.0}: {:.2}x fewer (95% {:.2}..{:.2}); wall time {:.2}x.",
            m.expansions.value,
            v.get("standard", "exact").map_or(f64::NAN, |d| d.expansions.value),
            m.speedup.value,
            m.speedup.low,
            m.speedup.high,
            m.wall_speedup.value
        ));
    }
    for m in &v.measured {
        if m.inexact > 0 {
            f.notes.push(format!(
                "{} / {}: {} games ended without an exact result.",
                m.order, m.schedule, m.inexact
            ));
        }
    }
    f
}
