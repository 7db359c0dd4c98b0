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
mod pages;
mod paired;
mod paper;
mod prepare;
mod report;
mod runs;
mod scan;
mod stream;

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Instant;

pub use error::{Error, Result};
pub use load::{Data, Names, READ_COLUMNS, Row};
pub use output::{MARKER, csv, html, markdown};
pub use report::{
    Cell, Chart, Completeness, Figure, Point, ReadStats, Report, Scale, Series, SeriesKind,
    SweepState, Table,
};
pub use scan::{
    BYTES_PER_FAMILY_COUNTED_ROW, BYTES_PER_FAMILY_ROW, LoadOptions, RowSource, estimated_bytes,
    load, load_with, loaded_bytes, parse_size,
};

/// The heading of `hammer analyze`'s page.
pub const REPORT_TITLE: &str = "Martello solo: the 2013 report's figures, reproduced";

/// The version written into reports, so a report says which analysis code made it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Reads the dataset at `dir` and computes every figure it has the rows for.
pub fn analyze(dir: &Path) -> Result<Report> {
    analyze_with(dir, &LoadOptions::default(), None)
}

/// [`analyze`] with a memory limit and a progress callback (`options`), told what the
/// dataset's coordinator state directory ([`hammer_dataset::STATE_DIR`]) says or why it could not be read
/// (`None` when the caller did not read one). With it the report states exactly how
/// complete the sweep is, and a finished sweep gets no warning.
pub fn analyze_with(
    dir: &Path,
    options: &LoadOptions,
    state: Option<std::result::Result<SweepState, String>>,
) -> Result<Report> {
    let streamed = scan::stream(dir, options)?;
    Ok(analyze_streamed(dir, streamed, state))
}

/// The analysis of rows already loaded.
pub fn analyze_data(data: Data) -> Report {
    let dir = data.dir.clone();
    analyze_streamed(&dir, scan::stream_rows(data), None)
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
    games: u64,
    sweeps: BTreeSet<String>,
    experiments: BTreeSet<String>,
}

fn family_part(family_parts: &[std::path::PathBuf]) -> FamilyPart {
    if family_parts.is_empty() {
        return FamilyPart::default();
    }
    let by_family = match families::read(family_parts) {
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
    for acc in by_family.into_values() {
        part.rows += acc.count;
        part.games += acc.games();
        part.sweeps.extend(acc.sweeps);
        part.experiments.extend(acc.experiments);
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

/// Runs `f`, recording its wall time under `name`.
fn timed<T>(stats: &mut ReadStats, name: &str, f: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let out = f();
    stats.stage(name, started.elapsed());
    out
}

/// The 2013 report's figures over the Martello rows, each timed into `stats`.
fn martello_figures(
    p: &prepare::Prepared,
    paired: &paired::Paired,
    stats: &mut ReadStats,
) -> Vec<Figure> {
    let mut figures = vec![
        timed(stats, "dataset", || figures::overview(p)),
        timed(stats, "fig05", || figures::fig05(p)),
        timed(stats, "fig07", || figures::fig07(&paired.fig07)),
        timed(stats, "fig08", || figures::fig08(p)),
        timed(stats, "fig11", || figures::fig11(p)),
        timed(stats, "fig12", || figures::fig12(p)),
        timed(stats, "fig13", || figures::fig13(p, &paired.fig13)),
    ];
    figures.extend(timed(stats, "fig14-16", || {
        figures::fig14_16(p, &paired.budgets)
    }));
    figures.push(timed(stats, "meta", || figures::meta(p, &paired.meta)));
    // Drawn from Figure 13's rows.
    let fig13 = figures.iter().find(|f| f.id == "fig13");
    let learned = fig13.map(|f| [figures::learned_radius(f), figures::learned_curve(f)]);
    figures.extend(learned.into_iter().flatten());
    figures
}

fn analyze_streamed(
    dir: &Path,
    streamed: scan::Streamed,
    state: Option<std::result::Result<SweepState, String>>,
) -> Report {
    let scan::Streamed {
        prepared: p,
        paired,
        family_parts,
        parts,
        mut stats,
    } = streamed;
    let family = timed(&mut stats, "families", || family_part(&family_parts));
    let (completeness, completeness_warnings) = timed(&mut stats, "completeness", || {
        completeness::check(&p, dir, state, family.rows)
    });
    let mut warnings = p.warnings.clone();
    warnings.extend(completeness_warnings);
    warnings.extend(family.warnings);
    // A dataset of other families only gets their sections, not eleven Martello figures
    // marked missing.
    let martello = p.martello_rows > 0 || family_parts.is_empty();
    let mut figures = if martello {
        martello_figures(&p, &paired, &mut stats)
    } else {
        Vec::new()
    };
    figures.extend(family.figures);
    let mut sweeps: BTreeSet<String> = p.sweeps.iter().map(|&id| p.name(id).to_owned()).collect();
    sweeps.extend(family.sweeps);
    let mut experiments: BTreeSet<String> = p
        .experiments
        .iter()
        .map(|&id| p.name(id).to_owned())
        .collect();
    experiments.extend(family.experiments);
    Report {
        title: report_title(martello, &family.names),
        dataset: dir.display().to_string(),
        hammer_version: VERSION.to_owned(),
        rows: p.martello_rows + family.rows,
        parts: parts as u64,
        games: p.games + family.games,
        sweeps: sweeps.into_iter().collect(),
        experiments: experiments.into_iter().collect(),
        warnings,
        completeness,
        figures,
        reading: stats,
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
