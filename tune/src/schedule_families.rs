//! Schedule families and the search for their best parameters.
//!
//! Every tuned candidate is a finite list of budgets no larger than the cap, followed by
//! an exact search in the list's own order: the only schedules the data prices without
//! extrapolation (see [`super::model`]). For each family the tuner searches a grid:
//!
//! - `fixed`: `m` attempts of cutoff `t`, then exact (`m x t, exact`);
//! - `luby`: the first `2^k - 1` terms of Luby's sequence times `U` (whole blocks, all
//!   within the cap), then exact;
//! - `geometric`: `B, B R, B R^2, ...` up to `J` terms within the cap, then exact.
//!
//! The objective is the mean expected cost over the games of the tuning set.

use hammer_solver::{OrderKind, PAPER_PHASES, Schedule, luby};

use super::input::TuneGame;
use super::model::{fixed, walk};

/// A family's name as `--families` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ScheduleFamily {
    /// Repeated attempts of one cutoff.
    Fixed,
    /// Luby's sequence times a unit.
    Luby,
    /// Budgets growing by a constant ratio.
    Geometric,
}

impl ScheduleFamily {
    pub(crate) const ALL: [ScheduleFamily; 3] = [
        ScheduleFamily::Fixed,
        ScheduleFamily::Luby,
        ScheduleFamily::Geometric,
    ];

    /// The name `--families` takes and reports show.
    pub fn name(self) -> &'static str {
        match self {
            ScheduleFamily::Fixed => "fixed",
            ScheduleFamily::Luby => "luby",
            ScheduleFamily::Geometric => "geometric",
        }
    }

    /// The family of a `--families` name.
    pub fn parse(text: &str) -> Option<ScheduleFamily> {
        ScheduleFamily::ALL
            .into_iter()
            .find(|f| f.name() == text.trim())
    }
}

/// One candidate schedule: its parameters and its budgets before the exact fallback.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub(crate) family: ScheduleFamily,
    /// The parameter the cost curve is drawn against: `t`, `U` or `B`.
    pub x: u64,
    /// Human-readable parameters, such as `t=300 m=20`.
    pub params: String,
    pub(crate) budgets: Vec<u64>,
}

impl Candidate {
    /// The schedule as the engine runs it: runs of equal budgets, then exact.
    pub fn schedule(&self) -> Schedule {
        let mut phases: Vec<(u32, u64)> = Vec::new();
        for &b in &self.budgets {
            match phases.last_mut() {
                Some((count, budget)) if *budget == b && *count < u32::MAX => *count += 1,
                _ => phases.push((1, b)),
            }
        }
        if phases.is_empty() {
            Schedule::Exact
        } else {
            Schedule::List {
                phases,
                then_exact: true,
            }
        }
    }
}

/// A candidate with its expected cost on every game of the tuning set.
#[derive(Debug, Clone)]
pub struct Priced {
    /// The candidate priced.
    pub candidate: Candidate,
    pub(crate) costs: Vec<f64>,
    pub(crate) mean: f64,
}

/// Budgets from 1 to `cap`, about `per_decade` a decade, rounded and deduplicated; the
/// cap itself is always included.
pub fn log_grid(cap: u64, per_decade: u32) -> Vec<u64> {
    let mut out = Vec::new();
    let mut k = 0u32;
    loop {
        let v = 10f64.powf(f64::from(k) / f64::from(per_decade)).round() as u64;
        if v > cap {
            break;
        }
        if out.last() != Some(&v) {
            out.push(v);
        }
        k += 1;
    }
    if out.last() != Some(&cap) {
        out.push(cap);
    }
    out
}

/// Restart counts tried for the fixed family.
const FIXED_COUNTS: [u32; 24] = [
    1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 150, 200, 300, 500, 1000,
    2000,
];

/// Ratios tried for the geometric family.
const RATIOS: [f64; 6] = [1.25, 1.5, 2.0, 3.0, 4.0, 8.0];

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

fn priced(candidate: Candidate, costs: Vec<f64>) -> Priced {
    Priced {
        mean: mean(&costs),
        candidate,
        costs,
    }
}

/// Every fixed candidate `(t, m)` on the grid, priced.
pub fn fixed_family(games: &[TuneGame], cap: u64, grid: &[u64]) -> Vec<Priced> {
    let mut out = Vec::new();
    for &t in grid.iter().filter(|&&t| t <= cap) {
        for m in FIXED_COUNTS {
            let costs: Vec<f64> = games
                .iter()
                .map(|g| {
                    fixed(&g.rtd, t, Some(m))
                        .map_or(f64::NAN, |w| w.with_fallback(g.fallback_tuned()))
                })
                .collect();
            let candidate = Candidate {
                family: ScheduleFamily::Fixed,
                x: t,
                params: format!("t={t} m={m}"),
                budgets: vec![t; m as usize],
            };
            out.push(priced(candidate, costs));
        }
    }
    out
}

/// Every Luby candidate `(U, blocks)` on the grid, priced. One walk per game and unit
/// prices all truncations, since a longer one extends a shorter one.
pub fn luby_family(games: &[TuneGame], cap: u64, grid: &[u64]) -> Vec<Priced> {
    let mut out = Vec::new();
    for &unit in grid.iter().filter(|&&u| u <= cap) {
        // Blocks k = 1.. while the block's largest term U 2^(k-1) fits under the cap.
        let mut blocks = 0u32;
        while blocks < 40 && unit.saturating_mul(1u64 << blocks) <= cap {
            blocks += 1;
        }
        let mut costs = vec![Vec::with_capacity(games.len()); blocks as usize];
        for g in games {
            let x = g.fallback_tuned();
            let (mut spent, mut survive) = (0.0, 1.0);
            let mut i = 1u64;
            for (k, block) in costs.iter_mut().enumerate() {
                let end = (1u64 << (k + 1)) - 1;
                while i <= end {
                    if survive > 1e-12 {
                        let step = g.rtd.at(luby(i) * unit);
                        if let Some(step) = step {
                            spent += survive * step.expected;
                            survive *= 1.0 - step.finish;
                        }
                    }
                    i += 1;
                }
                block.push(spent + survive * x);
            }
        }
        for (k, costs) in costs.into_iter().enumerate() {
            let terms = (1u64 << (k + 1)) - 1;
            let candidate = Candidate {
                family: ScheduleFamily::Luby,
                x: unit,
                params: format!("U={unit} terms={terms}"),
                budgets: (1..=terms).map(|i| luby(i) * unit).collect(),
            };
            out.push(priced(candidate, costs));
        }
    }
    out
}

/// The budgets `B R^j` as the engine's geometric schedule rounds them.
fn geometric_budgets(base: u64, ratio: f64, cap: u64) -> Vec<u64> {
    let mut out = Vec::new();
    for j in 0..200 {
        let b = ((base as f64) * ratio.powi(j)).round() as u64;
        if b > cap {
            break;
        }
        out.push(b);
    }
    out
}

/// Every geometric candidate `(B, R, J)` on the grid, priced.
pub fn geometric_family(games: &[TuneGame], cap: u64, grid: &[u64]) -> Vec<Priced> {
    let mut out = Vec::new();
    for &base in grid.iter().filter(|&&b| b <= cap) {
        for ratio in RATIOS {
            let budgets = geometric_budgets(base, ratio, cap);
            let mut costs = vec![Vec::with_capacity(games.len()); budgets.len()];
            for g in games {
                let x = g.fallback_tuned();
                let (mut spent, mut survive) = (0.0, 1.0);
                for (j, &b) in budgets.iter().enumerate() {
                    if let Some(step) = g.rtd.at(b) {
                        spent += survive * step.expected;
                        survive *= 1.0 - step.finish;
                    }
                    costs[j].push(spent + survive * x);
                }
            }
            for (j, costs) in costs.into_iter().enumerate() {
                let candidate = Candidate {
                    family: ScheduleFamily::Geometric,
                    x: base,
                    params: format!("B={base} R={ratio} terms={}", j + 1),
                    budgets: budgets[..=j].to_vec(),
                };
                out.push(priced(candidate, costs));
            }
        }
    }
    out
}

/// The best candidate of a list (lowest finite mean); ties keep the earlier, which is the
/// simpler schedule in the order the families are generated.
pub fn best(candidates: &[Priced]) -> Option<&Priced> {
    candidates
        .iter()
        .filter(|p| p.mean.is_finite())
        .min_by(|a, b| a.mean.total_cmp(&b.mean))
}

/// For the cost curve: the best candidate at each value of the family's parameter.
pub fn curve(candidates: &[Priced]) -> Vec<&Priced> {
    let mut out: Vec<&Priced> = Vec::new();
    for p in candidates.iter().filter(|p| p.mean.is_finite()) {
        match out.iter_mut().find(|q| q.candidate.x == p.candidate.x) {
            Some(q) if p.mean < q.mean => *q = p,
            Some(_) => {}
            None => out.push(p),
        }
    }
    out.sort_by_key(|p| p.candidate.x);
    out
}

/// A reference schedule's predicted cost per game: `paper`, plain DFS, exact search in the
/// tuning order, and the engine's endless `luby:U`.
#[derive(Debug, Clone)]
pub struct Reference {
    pub name: String,
    pub order: String,
    pub schedule: String,
    pub costs: Vec<f64>,
    /// Mean probability of reaching a budget beyond the cap, where the prediction is only
    /// a lower bound. Zero for exact predictions.
    pub beyond_cap: f64,
}

/// `paper`: its budgeted attempts in the tuning order `order` (the run-time data's),
/// then the standard order's exact search.
pub fn paper(games: &[TuneGame], order: &str) -> Reference {
    let budgets: Vec<u64> = PAPER_PHASES
        .iter()
        .flat_map(|&(count, b)| std::iter::repeat_n(b, count as usize))
        .collect();
    let mut beyond = 0.0;
    let costs: Vec<f64> = games
        .iter()
        .map(|g| {
            let w = walk(&g.rtd, budgets.iter().copied());
            beyond += w.beyond_cap;
            // `paper` falls back on the standard order, as the report's meta-solver did.
            w.with_fallback(g.fallback_standard())
        })
        .collect();
    reference("paper", order, "paper", costs, beyond / games.len() as f64)
}

/// Plain DFS: the exact search in the standard order.
pub fn dfs(games: &[TuneGame]) -> Reference {
    let costs = games.iter().map(TuneGame::fallback_standard).collect();
    reference("plain DFS", "standard", "exact", costs, 0.0)
}

/// The exact search in the tuning order `order` (the tuned lists' fallback).
pub fn exact(games: &[TuneGame], order: &str) -> Reference {
    let costs = games.iter().map(TuneGame::fallback_tuned).collect();
    let name = if OrderKind::of_name(order) == Some(OrderKind::Random) {
        "exact, random order"
    } else {
        "exact, tuning order"
    };
    reference(name, order, "exact", costs, 0.0)
}

/// The engine's `luby:U`, which never falls back: restarts beyond the cap cannot be
/// priced, so the cost is a lower bound wherever [`Reference::beyond_cap`] is not zero.
pub fn endless_luby(games: &[TuneGame], order: &str, unit: u64) -> Reference {
    let mut beyond = 0.0;
    let costs: Vec<f64> = games
        .iter()
        .map(|g| {
            let w = walk(&g.rtd, (1u64..).map(|i| luby(i).saturating_mul(unit)));
            beyond += w.beyond_cap;
            w.spent
        })
        .collect();
    reference(
        &format!("luby:{unit}"),
        order,
        &format!("luby:{unit}"),
        costs,
        beyond / games.len() as f64,
    )
}

fn reference(
    name: &str,
    order: &str,
    schedule: &str,
    costs: Vec<f64>,
    beyond_cap: f64,
) -> Reference {
    Reference {
        name: name.to_owned(),
        order: order.to_owned(),
        schedule: schedule.to_owned(),
        costs,
        beyond_cap,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::GameRtd;

    fn game(finished: Vec<u64>, attempts: u32, cap: u64, exact: f64) -> TuneGame {
        TuneGame {
            game_index: 0,
            rtd: GameRtd::new(finished, attempts, cap),
            exact_tuned: Some(exact),
            exact_standard: Some(exact),
            solvable: Some(true),
        }
    }

    #[test]
    fn grids_include_the_cap() {
        assert_eq!(log_grid(10, 4), [1, 2, 3, 6, 10]);
        assert_eq!(log_grid(7, 2), [1, 3, 7]);
    }

    /// A population with a known optimum: every game has one attempt that finished after
    /// 10 expansions and one after 1,000 (the cap), and the exact fallback costs 1,000.
    /// A cutoff t < 10 never finishes; t >= 10 gives E[min(T,t)] = (10 + t) / 2 and
    /// F(t) = 1/2, so m restarts then the fallback cost
    /// (10 + t)(1 - 2^-m) + 2^-m 1000, least at t = 10 and the largest m: t* = 10.
    #[test]
    fn the_fixed_family_finds_the_hand_computed_cutoff() {
        let games: Vec<TuneGame> = (0..10)
            .map(|_| game(vec![10, 1000], 2, 1000, 1000.0))
            .collect();
        let grid = log_grid(1000, 10);
        let all = fixed_family(&games, 1000, &grid);
        let b = best(&all).unwrap();
        assert_eq!(b.candidate.x, 10);
        // Beyond about 50 restarts 2^-m vanishes in floating point, so the costs tie and
        // the fewest restarts that reach the minimum win.
        let want = 20.0;
        assert!((b.mean - want).abs() < 1e-9, "{} vs {want}", b.mean);
        let schedule = b.candidate.schedule().to_string();
        assert!(schedule.ends_with("x10,exact"), "{schedule}");
        let m: u32 = schedule.split('x').next().unwrap().parse().unwrap();
        assert!(m >= 40, "{schedule}");
    }

    #[test]
    fn luby_truncations_are_whole_blocks_under_the_cap() {
        let games = vec![game(vec![3], 1, 8, 100.0)];
        let all = luby_family(&games, 8, &[1, 2, 8]);
        let params: Vec<&str> = all.iter().map(|p| p.candidate.params.as_str()).collect();
        assert_eq!(
            params,
            [
                "U=1 terms=1",
                "U=1 terms=3",
                "U=1 terms=7",
                "U=1 terms=15",
                "U=2 terms=1",
                "U=2 terms=3",
                "U=2 terms=7",
                "U=8 terms=1"
            ]
        );
        // U=1, 15 terms: 1,1,2,1,1,2,4,1,1,2,1,1,2,4,8; T = 3 always, so only the
        // term 4 (7th) finishes: spent = 1+1+2+1+1+2 + 3 = 11.
        let u1 = all
            .iter()
            .find(|p| p.candidate.params == "U=1 terms=15")
            .unwrap();
        assert!((u1.mean - 11.0).abs() < 1e-9, "{}", u1.mean);
        // And the three-term truncation never finishes: 4 spent plus the fallback.
        let u1 = all
            .iter()
            .find(|p| p.candidate.params == "U=1 terms=3")
            .unwrap();
        assert!((u1.mean - 104.0).abs() < 1e-9, "{}", u1.mean);
    }

    #[test]
    fn the_endless_luby_reports_mass_beyond_the_cap() {
        // Never finishes within the cap: the walk stops at the first budget above it.
        let games = vec![game(vec![], 4, 4, 100.0)];
        let r = endless_luby(&games, "random", 1);
        assert_eq!(r.beyond_cap, 1.0);
        // Terms up to the first 8: 1,1,2,1,1,2,4,1,1,2,1,1,2,4 = 24.
        assert!((mean(&r.costs) - 24.0).abs() < 1e-9, "{:?}", r.costs);
    }
}
