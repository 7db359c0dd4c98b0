//! `hammer tune`: restart schedules chosen from measured run-time distributions.
//!
//! The data is a run-time experiment (`kind = "run-time"` in a sweep: `K` independent
//! random-order attempts per game, each capped at `C` expansions) plus the exact searches
//! on the same games. `model` prices any schedule on one game under the
//! independent-restart model; `schedule_families` searches the fixed, Luby and
//! geometric families of schedules for the parameters with the least mean cost over the
//! games; this crate puts intervals on the result (bootstrap over games), writes the best
//! schedule, and builds the report. [`validate`] checks the advice on fresh games, because
//! the engine's memo carries work from one attempt to the next, which the model ignores.
//!
//! It reads datasets only through `hammer_analysis::RowSource` and writes its report as a
//! `hammer_analysis::Report`, so the analysis knows nothing of the tuner.

mod input;
mod model;
pub mod refine;
mod report;
mod schedule_families;
pub mod validate;

use std::collections::BTreeSet;
use std::path::PathBuf;

use hammer_solver::Schedule;

use hammer_stats::{Mean, Ratio, bootstrap_mean, mean_t, paired_ratio};

pub use input::{TuneInput, collect};
pub use report::report;
pub use schedule_families::{Candidate, Priced, ScheduleFamily};

/// Result alias so that every public function reports [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can stop the tuner.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The dataset could not be read; the inner error names the file.
    #[error(transparent)]
    Analysis(#[from] hammer_analysis::Error),

    /// The dataset lacks what the tuner needs (a run-time experiment, exact costs).
    #[error("{}: cannot tune: {reason}", .path.display())]
    Refused {
        /// The dataset.
        path: PathBuf,
        /// What is missing, for the message.
        reason: String,
    },
}

/// A family's best candidate with its intervals.
#[derive(Debug, Clone)]
pub struct FamilyBest {
    /// The family the candidate belongs to.
    pub family: ScheduleFamily,
    /// The candidate and its modelled cost.
    pub priced: Priced,
    /// Mean expansions a game, with a bootstrap interval over the games.
    pub mean: Mean,
    /// Plain DFS's cost over this schedule's, paired by game: the predicted speed-up.
    pub speedup: Ratio,
}

/// A prediction for one (order, schedule), which validation compares with measurements.
#[derive(Debug, Clone)]
pub struct Prediction {
    /// What the summary and the report call it.
    pub name: String,
    pub(crate) order: String,
    pub(crate) schedule: String,
    /// Predicted mean expansions a game.
    pub mean: Mean,
    /// Plain DFS's cost over this one's, paired by game.
    pub speedup: Ratio,
    /// Share of the probability mass beyond the cap: the prediction is a lower bound.
    pub beyond_cap: f64,
    /// Where the number comes from: the model, or a measurement on the tuning games.
    pub source: &'static str,
}

/// Sources of a prediction.
pub const MODEL: &str = "model";
pub(crate) const MEASURED: &str = "measured on the tuning games";

/// The tuner's whole result.
#[derive(Debug, Clone)]
pub struct Tuning {
    /// What the tuner read, which the summary and the sweeps it writes repeat.
    pub input: TuneInput,
    /// Each tuned family's best candidate.
    pub families: Vec<FamilyBest>,
    /// The best family's schedule; it ends in an exact search, so it is always exact.
    pub best: Schedule,
    /// The family `best` comes from.
    pub best_family: ScheduleFamily,
    /// The tuned schedule's prediction first, then the references'.
    pub predictions: Vec<Prediction>,
    /// Per family, the best cost at each value of its main parameter.
    pub curves: Vec<(ScheduleFamily, Curve)>,
    /// The measured refinement, when it ran; its best is then `best`.
    pub refinement: Option<refine::Refinement>,
}

impl Tuning {
    /// The prediction for a schedule in an order, to set beside its measurement.
    pub fn prediction(&self, order: &str, schedule: &str) -> Option<&Prediction> {
        self.predictions
            .iter()
            .find(|p| p.order == order && p.schedule == schedule)
    }

    /// The engine's endless Luby schedule with the best unit, for validation: the best
    /// measured one after a refinement, else the model's.
    pub fn luby_unit(&self) -> u64 {
        if let Some(r) = &self.refinement {
            let best = r
                .measured
                .iter()
                .filter_map(|m| match m.trial.schedule {
                    Schedule::Luby { unit } => Some((m.expansions.value, unit)),
                    _ => None,
                })
                .min_by(|a, b| a.0.total_cmp(&b.0));
            if let Some((_, unit)) = best {
                return unit;
            }
        }
        self.families
            .iter()
            .find(|f| f.family == ScheduleFamily::Luby)
            .map_or(256, |f| f.priced.candidate.x)
    }
}

/// A family's cost curve: (parameter, its best candidate's parameters, mean cost).
pub type Curve = Vec<(u64, String, Mean)>;

/// Grid density: budgets per decade tried for `t`, `U` and `B`.
const PER_DECADE: u32 = 12;

/// Tunes the families in `families` (all when empty) on `input`.
pub fn tune(input: TuneInput, families: &[ScheduleFamily]) -> Tuning {
    let families: BTreeSet<ScheduleFamily> = if families.is_empty() {
        ScheduleFamily::ALL.into_iter().collect()
    } else {
        families.iter().copied().collect()
    };
    let games = &input.games;
    let grid = schedule_families::log_grid(input.cap, PER_DECADE);
    let dfs = schedule_families::dfs(games);
    let mut bests = Vec::new();
    let mut curves = Vec::new();
    for &family in &families {
        let all = match family {
            ScheduleFamily::Fixed => schedule_families::fixed_family(games, input.cap, &grid),
            ScheduleFamily::Luby => schedule_families::luby_family(games, input.cap, &grid),
            ScheduleFamily::Geometric => {
                schedule_families::geometric_family(games, input.cap, &grid)
            }
        };
        let curve: Curve = schedule_families::curve(&all)
            .into_iter()
            .map(|p| (p.candidate.x, p.candidate.params.clone(), mean_t(&p.costs)))
            .collect();
        curves.push((family, curve));
        if let Some(best) = schedule_families::best(&all) {
            let label = format!("tune/{}", family.name());
            bests.push(FamilyBest {
                family,
                mean: bootstrap_mean(&best.costs, &label),
                speedup: paired_ratio(&dfs.costs, &best.costs, &label),
                priced: best.clone(),
            });
        }
    }
    let overall = bests
        .iter()
        .min_by(|a, b| a.priced.mean.total_cmp(&b.priced.mean));
    let (best, best_family) = match overall {
        Some(b) => (b.priced.candidate.schedule(), b.family),
        None => (Schedule::Exact, ScheduleFamily::Fixed),
    };

    let mut predictions = Vec::new();
    predictions.push(Prediction {
        name: "tuned".to_owned(),
        order: input.order.clone(),
        schedule: best.to_string(),
        mean: overall.map_or_else(|| bootstrap_mean(&dfs.costs, "tune/tuned"), |b| b.mean),
        speedup: overall.map_or_else(
            || paired_ratio(&dfs.costs, &dfs.costs, "tune/tuned"),
            |b| b.speedup,
        ),
        beyond_cap: 0.0,
        source: MODEL,
    });
    let luby_unit = bests
        .iter()
        .find(|f| f.family == ScheduleFamily::Luby)
        .map_or(256, |f| f.priced.candidate.x);
    for r in [
        schedule_families::paper(games, &input.order),
        schedule_families::endless_luby(games, &input.order, luby_unit),
        schedule_families::exact(games, &input.order),
        dfs.clone(),
    ] {
        let label = format!("tune/{}/{}", r.order, r.schedule);
        predictions.push(Prediction {
            mean: bootstrap_mean(&r.costs, &label),
            speedup: paired_ratio(&dfs.costs, &r.costs, &label),
            name: r.name,
            order: r.order,
            schedule: r.schedule,
            beyond_cap: r.beyond_cap,
            source: MODEL,
        });
    }
    Tuning {
        input,
        families: bests,
        best,
        best_family,
        predictions,
        curves,
        refinement: None,
    }
}

/// Makes the refinement's best measured schedule the tuned one; its measured mean on the
/// tuning games becomes the prediction that validation checks on fresh games.
pub fn apply_refinement(t: &mut Tuning, r: refine::Refinement) {
    if let Some(best) = r.best() {
        t.best = best.trial.schedule.clone();
        t.best_family = best.trial.family;
        let prediction = Prediction {
            name: "tuned".to_owned(),
            order: t.input.order.clone(),
            schedule: t.best.to_string(),
            mean: best.expansions,
            speedup: best.speedup,
            beyond_cap: 0.0,
            source: MEASURED,
        };
        match t.predictions.first_mut() {
            Some(p) if p.name == "tuned" => *p = prediction,
            _ => t.predictions.insert(0, prediction),
        }
    }
    t.refinement = Some(r);
    // The endless Luby reference becomes the best measured unit, priced by measurement.
    let unit = t.luby_unit();
    let measured = t.refinement.as_ref().and_then(|r| {
        r.measured
            .iter()
            .find(|m| m.trial.schedule == Schedule::Luby { unit })
            .cloned()
    });
    if let Some(m) = measured {
        t.predictions.retain(|p| !p.schedule.starts_with("luby:"));
        t.predictions.push(Prediction {
            name: format!("luby:{unit}"),
            order: t.input.order.clone(),
            schedule: format!("luby:{unit}"),
            mean: m.expansions,
            speedup: m.speedup,
            beyond_cap: 0.0,
            source: MEASURED,
        });
    }
}

/// The text of the schedule file: comments that say where it came from, then the
/// schedule in the syntax `--schedule` and sweep files take.
pub fn schedule_file(t: &Tuning) -> String {
    let mut s = String::new();
    s.push_str("# A restart schedule tuned by `hammer tune` (see docs/tuning.md).\n");
    s.push_str(&format!(
        "# Data: sweep {} (seed {}), experiment {}, n = {}, {} games x {} attempts capped at {} expansions.\n",
        t.input.sweep,
        t.input.seed,
        t.input.experiment,
        t.input.n,
        t.input.games.len(),
        t.input.attempts,
        t.input.cap
    ));
    if let Some(p) = t.predictions.first() {
        s.push_str(&format!(
            "# Family {}; mean {:.0} expansions a game ({}; 95% {:.0}..{:.0}), {:.2}x fewer than plain DFS.\n",
            t.best_family.name(),
            p.mean.value,
            p.source,
            p.mean.low,
            p.mean.high,
            p.speedup.value
        ));
    }
    s.push_str(&format!(
        "# Use with the {} order: hammer solve --order {} --schedule @FILE ...\n",
        t.input.order, t.input.order
    ));
    s.push_str(&t.best.to_string());
    s.push('\n');
    s
}
