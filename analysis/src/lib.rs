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

mod budgets;
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

/// The figures of the other puzzle families' parts of a dataset (see `families/`).
fn family_figures(data: &Data) -> (Vec<Figure>, Vec<String>) {
    if data.family_parts.is_empty() {
        return (Vec::new(), Vec::new());
    }
    match families::load(&data.family_parts) {
        Ok(by_family) => (families::figures(&by_family), Vec::new()),
        Err(e) => (
            Vec::new(),
            vec![format!("the puzzle-family parts could not be read: {e}")],
        ),
    }
}

fn analyze_rows(mut data: Data, state: Option<std::result::Result<SweepState, String>>) -> Report {
    let duplicates = prepare::dedupe(&mut data.rows);
    let p = prepare::Prepared::new(&data, duplicates);
    let (completeness, completeness_warnings) = completeness::check(&p, &data.dir, state);
    let mut warnings = p.warnings.clone();
    warnings.extend(completeness_warnings);

    let [f14, f15, f16] = budgets::figures(&p);
    let (family_figures, family_warnings) = family_figures(&data);
    warnings.extend(family_warnings);
    let mut figures = vec![
        figures::overview(&p),
        figures::fig05(&p),
        figures::fig07(&p),
        figures::fig08(&p),
        figures::fig11(&p),
        figures::fig12(&p),
        figures::fig13(&p),
        f14,
        f15,
        f16,
        figures::meta(&p),
    ];
    figures.extend(family_figures);
    let games: BTreeSet<prepare::GameKey> = p.rows.iter().map(prepare::GameKey::of).collect();
    let sweeps: BTreeSet<&str> = p.rows.iter().map(|r| p.name(r.sweep)).collect();
    let experiments: BTreeSet<&str> = p.rows.iter().map(|r| p.name(r.experiment)).collect();
    Report {
        title: REPORT_TITLE.to_owned(),
        dataset: data.dir.display().to_string(),
        hammer_version: VERSION.to_owned(),
        rows: p.rows.len() as u64,
        parts: data.parts as u64,
        games: games.len() as u64,
        sweeps: sweeps.into_iter().map(str::to_owned).collect(),
        experiments: experiments.into_iter().map(str::to_owned).collect(),
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
