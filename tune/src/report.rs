//! The tuning report: the data, each family's best candidate, the cost curves, and the
//! measured refinement, as the figures `hammer tune` writes.

use hammer_solver::Schedule;

use hammer_analysis::{
    Cell, Chart, Completeness, Figure, Point, Report, Scale, Series, SeriesKind, Table,
};
use hammer_stats::{Mean, Ratio};

use super::input::EXAMPLE_TUNE;
use super::{Tuning, refine, validate};

fn mean_cells(m: &Mean) -> [Cell; 3] {
    [
        Cell::num(m.value, 1),
        Cell::num(m.low, 1),
        Cell::num(m.high, 1),
    ]
}

fn ratio_cells(r: &Ratio) -> [Cell; 3] {
    [
        Cell::num(r.value, 3),
        Cell::num(r.low, 3),
        Cell::num(r.high, 3),
    ]
}

/// Long schedules (a Luby list has hundreds of phases) are cut in tables; the schedule
/// file has the whole text.
fn short(schedule: &str) -> String {
    const MAX: usize = 80;
    if schedule.len() <= MAX {
        schedule.to_owned()
    } else {
        let cut = schedule
            .char_indices()
            .take_while(|(i, _)| *i < MAX)
            .last()
            .map_or(0, |(i, _)| i);
        format!("{}... ({} characters)", &schedule[..cut], schedule.len())
    }
}

fn data_figure(t: &Tuning) -> Figure {
    let i = &t.input;
    let mut f = Figure::new(
        "tune-data",
        "Tuning data: run-time distributions",
        &format!(
            "experiment {} (capped random attempts) and the exact searches on the same games",
            i.experiment
        ),
        EXAMPLE_TUNE,
    );
    let attempts: u64 = i.games.iter().map(|g| u64::from(g.rtd.attempts())).sum();
    let finished: u64 = i.games.iter().map(|g| g.rtd.finished().len() as u64).sum();
    let never = i.games.iter().filter(|g| !g.rtd.ever_finished()).count();
    let solvable = i.games.iter().filter(|g| g.solvable == Some(true)).count();
    let mut table = Table::new("tune_data", "What the tuner read", &["quantity", "value"]);
    let rows: Vec<(&str, String)> = vec![
        ("sweep", format!("{} (seed {})", i.sweep, i.seed)),
        ("board size", i.n.to_string()),
        ("games", i.games.len().to_string()),
        ("attempts a game", i.attempts.to_string()),
        ("cap (expansions an attempt)", i.cap.to_string()),
        ("attempt order", i.order.clone()),
        (
            "attempts that finished within the cap",
            format!("{finished} of {attempts}"),
        ),
        ("games with no attempt finished", never.to_string()),
        ("solvable games (exact search)", solvable.to_string()),
        ("exact searches found", i.exact_orders.join(", ")),
        ("games dropped (no exact row)", i.dropped_games.to_string()),
    ];
    for (k, v) in rows {
        table.push(vec![Cell::text(k), Cell::text(v)]);
    }
    f.tables.push(table);
    let has = |order: &str| i.exact_orders.iter().any(|o| o == order);
    if !i.exact_in_tuning_order() {
        let stand_in = if has("random") { "random" } else { "standard" };
        f.notes.push(format!(
            "No exact search in the tuning order ({}): tuned lists fall back on it, so the {stand_in} order's cost stands in for it.",
            i.order
        ));
    }
    if !has("standard") {
        f.notes.push(
            "No exact search in the standard order: plain DFS and paper's fallback are priced with the tuning order's exact search.".to_owned(),
        );
    }
    f
}

fn families_figure(t: &Tuning) -> Figure {
    let mut f = Figure::new(
        "tune-families",
        "Best schedule of each family, and the references",
        "the independent-restart model over each game's measured attempts (docs/tuning.md)",
        EXAMPLE_TUNE,
    );
    let mut table = Table::new(
        "tune_families",
        "Predicted mean expansions a game (95% bootstrap over games) and speed-up over plain DFS (paired)",
        &[
            "schedule",
            "order",
            "parameters",
            "predicted mean",
            "low",
            "high",
            "speed-up vs DFS",
            "speed-up low",
            "speed-up high",
            "note",
        ],
    );
    for b in &t.families {
        let mut row = vec![
            Cell::text(format!("{} (tuned)", b.family.name())),
            Cell::text(t.input.order.clone()),
            Cell::text(b.priced.candidate.params.clone()),
        ];
        row.extend(mean_cells(&b.mean));
        row.extend(ratio_cells(&b.speedup));
        row.push(Cell::text(format!(
            "{}{}",
            if b.family == t.best_family && t.refinement.is_none() {
                "best; "
            } else {
                ""
            },
            short(&b.priced.candidate.schedule().to_string())
        )));
        table.push(row);
    }
    for p in t.predictions.iter().skip(1) {
        let mut row = vec![
            Cell::text(p.name.clone()),
            Cell::text(p.order.clone()),
            Cell::text(p.schedule.clone()),
        ];
        row.extend(mean_cells(&p.mean));
        row.extend(ratio_cells(&p.speedup));
        row.push(Cell::text(if p.beyond_cap > 0.0 {
            format!(
                "lower bound: {:.1}% of the probability mass reaches budgets beyond the cap {}, which the data cannot price",
                100.0 * p.beyond_cap,
                t.input.cap
            )
        } else {
            String::new()
        }));
        table.push(row);
    }
    f.tables.push(table);
    if let Some(p) = t.predictions.first() {
        f.notes.push(format!(
            "Tuned schedule ({} family): {} — predicted {:.0} expansions a game (95% {:.0}..{:.0}), {:.2}x fewer than plain DFS (95% {:.2}..{:.2}).",
            t.best_family.name(),
            short(&p.schedule),
            p.mean.value,
            p.mean.low,
            p.mean.high,
            p.speedup.value,
            p.speedup.low,
            p.speedup.high
        ));
    }
    f.notes.push(format!(
        "Every tuned candidate uses budgets up to the cap {} and then falls back on exact search, so its prediction needs no extrapolation. The model assumes independent restarts; the engine keeps fully explored states between attempts, so measured costs are usually lower. The minimum over many candidates is optimistic on the games it was chosen on: check it on fresh games with --validate.",
        t.input.cap
    ));
    f
}

/// Horizontal lines at the predicted means of the named references, across the x range
/// the other series span, so a cost curve reads against them.
fn reference_lines(t: &Tuning, series: &mut Vec<Series>, names: &[&str]) {
    let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.x));
    let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    });
    if !(lo.is_finite() && hi.is_finite()) {
        return;
    }
    for p in t.predictions.iter().skip(1) {
        if names.contains(&p.name.as_str()) {
            series.push(Series {
                name: p.name.clone(),
                kind: SeriesKind::Report,
                points: [lo, hi]
                    .into_iter()
                    .map(|x| Point::new(x, p.mean.value, f64::NAN, f64::NAN))
                    .collect(),
            });
        }
    }
}

fn curve_figure(t: &Tuning) -> Figure {
    let mut f = Figure::new(
        "tune-curve",
        "Expected cost against cutoff, by family",
        "the best candidate at each value of the family's budget parameter (t, U or B)",
        EXAMPLE_TUNE,
    );
    let mut table = Table::new(
        "tune_curve",
        "Predicted mean expansions a game at each cutoff (95% t interval over games)",
        &["family", "cutoff", "parameters", "mean", "low", "high"],
    );
    let mut series = Vec::new();
    for (family, curve) in &t.curves {
        let mut points = Vec::new();
        for (x, params, m) in curve {
            let mut row = vec![
                Cell::text(family.name()),
                Cell::num(*x as f64, 0),
                Cell::text(params.clone()),
            ];
            row.extend(mean_cells(m));
            table.push(row);
            points.push(Point::new(*x as f64, m.value, m.low, m.high));
        }
        series.push(Series {
            name: format!("{} (t, U or B)", family.name()),
            kind: SeriesKind::Line,
            points,
        });
    }
    reference_lines(t, &mut series, &["paper", "plain DFS"]);
    f.tables.push(table);
    f.charts.push(Chart {
        name: "tune_curve".to_owned(),
        title: format!("Predicted cost against cutoff, n = {}", t.input.n),
        x_label: "cutoff t, Luby unit U, geometric base B (expansions)".to_owned(),
        y_label: "expected expansions a game".to_owned(),
        x_scale: Scale::Log,
        y_scale: Scale::Log,
        categories: None,
        series,
    });
    f
}

fn refine_figure(t: &Tuning, r: &refine::Refinement) -> Figure {
    let games = r.measured.first().map_or(0, |m| m.games);
    let mut f = Figure::new(
        "tune-refine",
        "Measured refinement: engine schedules on the tuning games",
        &format!(
            "a refinement sweep of every schedule below on {games} tuning games, memo kept between attempts"
        ),
        "hammer tune --refine",
    );
    let mut table = Table::new(
        "tune_refine",
        "Measured mean expansions a game (95% bootstrap), wall time, and speed-up over plain DFS on the same games (paired)",
        &[
            "family",
            "schedule",
            "source",
            "measured mean",
            "low",
            "high",
            "wall ms",
            "speed-up vs DFS",
            "speed-up low",
            "speed-up high",
        ],
    );
    let mut series: Vec<Series> = Vec::new();
    for (i, m) in r.measured.iter().enumerate() {
        let mut row = vec![
            Cell::text(m.trial.family.name()),
            Cell::text(m.trial.schedule.to_string()),
            Cell::text(format!(
                "{}{}",
                if m.trial.from_model {
                    "model's best list"
                } else {
                    "grid"
                },
                if i == r.best { "; best" } else { "" }
            )),
        ];
        row.extend(mean_cells(&m.expansions));
        row.push(Cell::num(m.wall_ms.value, 3));
        row.extend(ratio_cells(&m.speedup));
        table.push(row);
        let (name, x) = match m.trial.schedule {
            Schedule::Fixed { cutoff } => ("fixed:t".to_owned(), cutoff),
            Schedule::Luby { unit } => ("luby:U".to_owned(), unit),
            Schedule::Geometric { base, ratio } => (format!("geometric:B,{ratio}"), base),
            _ => continue,
        };
        let point = Point::new(
            x as f64,
            m.expansions.value,
            m.expansions.low,
            m.expansions.high,
        );
        match series.iter_mut().find(|s| s.name == name) {
            Some(s) => s.points.push(point),
            None => series.push(Series {
                name,
                kind: SeriesKind::Line,
                points: vec![point],
            }),
        }
    }
    reference_lines(t, &mut series, &["plain DFS"]);
    f.tables.push(table);
    f.charts.push(Chart {
        name: "tune_refine".to_owned(),
        title: format!("Measured cost of endless schedules, n = {}", t.input.n),
        x_label: "cutoff t, Luby unit U, geometric base B (expansions)".to_owned(),
        y_label: "mean expansions a game".to_owned(),
        x_scale: Scale::Log,
        y_scale: Scale::Log,
        categories: None,
        series,
    });
    if let Some(b) = r.best() {
        f.notes.push(format!(
            "Best measured: {} with {:.0} expansions a game (95% {:.0}..{:.0}), {:.2}x fewer than plain DFS on the same games (95% {:.2}..{:.2}). It is the tuned schedule.",
            b.trial.schedule,
            b.expansions.value,
            b.expansions.low,
            b.expansions.high,
            b.speedup.value,
            b.speedup.low,
            b.speedup.high
        ));
    }
    f
}

/// The tuning report; `validation` adds the comparison with a validation run.
pub fn report(t: &Tuning, dataset: &str, validation: Option<&validate::Validation>) -> Report {
    let mut figures = vec![data_figure(t), families_figure(t), curve_figure(t)];
    match &t.refinement {
        Some(r) => figures.push(refine_figure(t, r)),
        None => figures.push(
            Figure::new(
                "tune-refine",
                "Measured refinement",
                "the engine's schedules measured on the tuning games",
                "hammer tune --refine",
            )
            .missing("not run: pass --refine to measure the engine's schedules (with their memo) on the tuning games"),
        ),
    }
    let mut warnings = Vec::new();
    match validation {
        Some(v) => {
            figures.push(validate::figure(t, v));
            warnings.extend(v.warnings.iter().cloned());
        }
        None => figures.push(
            Figure::new(
                "tune-validation",
                "Validation on fresh games",
                "a validation sweep on a new seed",
                "hammer tune --validate",
            )
            .missing("not run: pass --validate to run the validation sweep, or --validation-data DIR to compare a finished one"),
        ),
    }
    Report {
        title: format!(
            "Tuning restart schedules for {}x{} Martello",
            t.input.n, t.input.n
        ),
        dataset: dataset.to_owned(),
        hammer_version: hammer_analysis::VERSION.to_owned(),
        rows: t
            .input
            .games
            .iter()
            .map(|g| u64::from(g.rtd.attempts()))
            .sum(),
        parts: 0,
        games: t.input.games.len() as u64,
        sweeps: vec![t.input.sweep.clone()],
        experiments: vec![t.input.experiment.clone()],
        warnings,
        completeness: Completeness::default(),
        figures,
        reading: hammer_analysis::ReadStats::default(),
    }
}
