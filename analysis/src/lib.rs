//! The 2013 Martello report's figures from a hammer result dataset.
//!
//! [`analyze`] reads the columns it needs from a hive-partitioned dataset (see
//! `docs/dataset.md`), works out from the columns (never from experiment names) which rows
//! feed which figure, and returns a [`Report`]: tables with 95% intervals and the
//! report's published values beside ours, chart descriptions, and warnings about an
//! unfinished sweep. [`write_report`] renders it as a self-contained HTML page, Markdown,
//! CSV, PNG and SVG; [`to_json`] gives the same tables to scripts. The formulas are in
//! `docs/analysis.md`.
//!
//! DataFusion is deliberately not used: it pins an older arrow/parquet than the
//! workspace, and the aggregations here are simple group-bys over a dozen columns.

mod chart;
mod completeness;
mod error;
mod families;
mod figures;
mod load;
mod output;
pub mod paper;
mod prepare;
mod report;
pub mod stats;
pub mod tune;

use std::collections::BTreeSet;
use std::path::Path;

pub use completeness::STATE_DIR;
pub use error::{Error, Result};
pub use figures::{
    EXAMPLE_BUDGETS, EXAMPLE_META, EXAMPLE_ORDERS, EXAMPLE_PREFIX, EXAMPLE_SOLVABILITY,
};
pub use load::{Data, READ_COLUMNS, Row, load};
pub use output::{MARKER, csv, html, markdown};
pub use report::{
    Cell, Chart, Completeness, Figure, Point, Report, Scale, Series, SeriesKind, SweepState, Table,
};

/// The heading of `hammer analyze`'s page.
pub const REPORT_TITLE: &str = "Martello solo: the 2013 report's figures, reproduced";

/// The version written into reports, so a report says which analysis code made it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Reads the dataset at `dir` and computes every figure it has the rows for.
pub fn analyze(dir: &Path) -> Result<Report> {
    Ok(analyze_data(load::load(dir)?))
}

/// [`analyze`], told what the dataset's coordinator state directory ([`STATE_DIR`]) says,
/// or why it could not be read. With it the report states exactly how complete the sweep
/// is, and a finished sweep gets no warning.
pub fn analyze_with_state(
    dir: &Path,
    state: std::result::Result<SweepState, String>,
) -> Result<Report> {
    Ok(analyze_rows(load::load(dir)?, Some(state)))
}

/// The analysis of rows already loaded.
pub fn analyze_data(data: Data) -> Report {
    analyze_rows(data, None)
}

/// The other puzzle families' part of a dataset (see `families/`): their figures, the
/// warnings of reading them, and what the report's header counts of them.
#[derive(Default)]
struct FamilyPart {
    figures: Vec<Figure>,
    warnings: Vec<String>,
    /// The families present, by name.
    names: Vec<String>,
    rows: u64,
    /// Distinct (sweep, experiment, params, game index).
    games: BTreeSet<(String, String, String, i64)>,
    sweeps: BTreeSet<String>,
    experiments: BTreeSet<String>,
}

fn family_part(data: &Data) -> FamilyPart {
    if data.family_parts.is_empty() {
        return FamilyPart::default();
    }
    let by_family = match families::load(&data.family_parts) {
        Ok(by_family) => by_family,
        Err(e) => {
            return FamilyPart {
                warnings: vec![format!("the puzzle-family parts could not be read: {e}")],
                ..FamilyPart::default()
            };
        }
    };
    let mut part = FamilyPart {
        figures: families::figures(&by_family),
        names: by_family.keys().cloned().collect(),
        ..FamilyPart::default()
    };
    for row in by_family.values().flatten() {
        part.rows += 1;
        part.games.insert((
            row.sweep.clone(),
            row.experiment.clone(),
            row.params.clone(),
            row.game_index,
        ));
        part.sweeps.insert(row.sweep.clone());
        part.experiments.insert(row.experiment.clone());
    }
    part
}

/// The page's heading: the 2013 report's when the dataset has Martello rows (or nothing
/// else), the families' names otherwise, so that a peg-only dataset is not presented as
/// a Martello report with every figure missing.
fn report_title(martello: bool, families: &[String]) -> String {
    match (martello, families.is_empty()) {
        (true, true) => REPORT_TITLE.to_owned(),
        (true, false) => format!("{REPORT_TITLE}; and {}", families.join(", ")),
        (false, _) => format!("Puzzle families: {}", families.join(", ")),
    }
}

/// The 2013 report's figures over the Martello rows.
fn martello_figures(p: &prepare::Prepared) -> Vec<Figure> {
    let [f14, f15, f16] = figures::fig14_16(p);
    vec![
        figures::overview(p),
        figures::fig05(p),
        figures::fig07(p),
        figures::fig08(p),
        figures::fig11(p),
        figures::fig12(p),
        figures::fig13(p),
        f14,
        f15,
        f16,
        figures::meta(p),
    ]
}

fn analyze_rows(mut data: Data, state: Option<std::result::Result<SweepState, String>>) -> Report {
    let duplicates = prepare::dedupe(&mut data.rows);
    let p = prepare::Prepared::new(&data, duplicates);
    let family = family_part(&data);
    let (completeness, completeness_warnings) =
        completeness::check(&p, &data.dir, state, family.rows);
    let mut warnings = p.warnings.clone();
    warnings.extend(completeness_warnings);
    warnings.extend(family.warnings);
    // A dataset of other families only gets their sections, not eleven Martello figures
    // marked missing.
    let martello = !p.rows.is_empty() || data.family_parts.is_empty();
    let mut figures = if martello {
        martello_figures(&p)
    } else {
        Vec::new()
    };
    figures.extend(family.figures);
    let games: BTreeSet<prepare::GameKey> = p.rows.iter().map(prepare::GameKey::of).collect();
    let mut sweeps: BTreeSet<String> = p.rows.iter().map(|r| p.name(r.sweep).to_owned()).collect();
    sweeps.extend(family.sweeps);
    let mut experiments: BTreeSet<String> = p
        .rows
        .iter()
        .map(|r| p.name(r.experiment).to_owned())
        .collect();
    experiments.extend(family.experiments);
    Report {
        title: report_title(martello, &family.names),
        dataset: data.dir.display().to_string(),
        hammer_version: VERSION.to_owned(),
        rows: p.rows.len() as u64 + family.rows,
        parts: data.parts as u64,
        games: (games.len() + family.games.len()) as u64,
        sweeps: sweeps.into_iter().collect(),
        experiments: experiments.into_iter().collect(),
        warnings,
        completeness,
        figures,
    }
}

/// Writes the report directory `out` (HTML, Markdown, JSON, CSV, PNG, SVG) atomically.
/// `dataset` is only used to refuse an `out` inside it.
pub fn write_report(report: &Report, dataset: &Path, out: &Path) -> Result<()> {
    output::write_report(report, dataset, out)
}

/// The report as pretty-printed JSON.
pub fn to_json(report: &Report) -> Result<String> {
    output::json(report)
}
