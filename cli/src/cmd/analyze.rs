//! `hammer analyze DATASET --out REPORT_DIR [--format json]`: the 2013 report's figures
//! from a result dataset. All the work is in `hammer-analysis`; this only parses arguments,
//! prints warnings and chooses the output.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};

use crate::dataset_arg::DatasetArg;

#[derive(Args)]
pub struct AnalyzeArgs {
    /// The dataset (DATASET/experiment=NAME/n=N/part-ID.parquet): a directory, or an
    /// object store URL such as s3://BUCKET/PREFIX.
    pub dataset: String,
    /// The report directory to write: index.html, report.md, report.json, one CSV per
    /// table, one PNG and one SVG per chart. It is replaced as a whole at the end, so it
    /// never holds half a report.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// `text` writes the report and prints a summary; `json` prints the tables as JSON on
    /// stdout (and writes the report too when --out is given).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Refuse, before reading any row, a dataset whose analysis would need more memory
    /// than this (512M, 4G, ...; estimated from the part files' row counts), and again
    /// after the first pass if the rows kept for the figures that pair games would not
    /// fit. Default: half of the machine's memory.
    #[arg(long, value_parser = hammer_analysis::parse_size)]
    pub memory_limit: Option<u64>,
}

/// Datasets with at least this many rows get a progress bar while they are read.
const PROGRESS_ROWS: u64 = 1_000_000;

/// Half of `MemTotal` in /proc/meminfo, or 4 GiB where there is no /proc.
fn default_memory_limit() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib * 1024 / 2)
        })
        .unwrap_or(4 << 30)
}

/// A progress bar of rows read, on stderr when it is a terminal, shown only for large
/// datasets (a small one is read before a bar would be drawn).
struct ReadProgress {
    bar: std::sync::OnceLock<indicatif::ProgressBar>,
}

impl ReadProgress {
    fn update(&self, read: u64, total: u64) {
        if total < PROGRESS_ROWS || !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            return;
        }
        let bar = self.bar.get_or_init(|| {
            let bar = indicatif::ProgressBar::new(total);
            let style = indicatif::ProgressStyle::with_template(
                "reading {bar:40.cyan/blue} {human_pos}/{human_len} rows  {per_sec}  ETA {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> ");
            bar.set_style(style);
            bar
        });
        bar.set_position(read);
        if read >= total {
            bar.finish_and_clear();
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

pub fn run(args: AnalyzeArgs) -> Result<ExitCode> {
    if args.out.is_some() && !cfg!(feature = "charts") {
        bail!(
            "this hammer was built without chart support (--no-default-features, as in the \
             container image), so it cannot write a report: use --format json without --out, \
             or run hammer analyze from a default build"
        );
    }
    if args.out.is_none() && args.format == Format::Text {
        bail!("--out REPORT_DIR is required (or --format json to print the tables on stdout)");
    }
    // The coordinator's state directory, when there is one, says exactly how much of the
    // sweep is done; the analysis warns only about an unfinished or running sweep.
    let dataset = DatasetArg::open(&args.dataset)?;
    let state_dir = dataset.dir().join(hammer_dataset::STATE_DIR);
    let progress = ReadProgress {
        bar: std::sync::OnceLock::new(),
    };
    let update = |read: u64, total: u64| progress.update(read, total);
    let options = hammer_analysis::LoadOptions {
        memory_limit: Some(args.memory_limit.unwrap_or_else(default_memory_limit)),
        progress: Some(&update),
        window_rows: None,
    };
    let state = if !dataset.is_copy() && state_dir.is_dir() {
        let state = hammer_coordinator::StateDir::inspect(&state_dir)
            .map(|s| hammer_analysis::SweepState {
                sweep: s.sweep_name,
                units: s.units,
                units_committed: s.units_committed,
                games: s.games,
                games_committed: s.games_committed,
                running: s.running,
            })
            .map_err(|e| hammer_proto::error_chain(&e));
        Some(state)
    } else {
        None
    };
    let mut report = hammer_analysis::analyze_with(dataset.dir(), &options, state)?;
    report.dataset = dataset.shown().to_owned();
    // Warnings go to stderr so that `--format json` output stays machine-readable.
    for warning in &report.warnings {
        eprintln!("warning: {warning}");
    }
    if let Some(out) = &args.out {
        hammer_analysis::write_report(&report, dataset.dir(), out)?;
    }
    let mut text = String::new();
    match args.format {
        Format::Json => {
            text = hammer_analysis::to_json(&report)?;
            text.push('\n');
        }
        Format::Text => {
            let _ = writeln!(
                text,
                "{} rows, {} games from {}",
                report.rows, report.games, report.dataset
            );
            let reading = &report.reading;
            let _ = writeln!(
                text,
                "read {} rows from {} parts in {:.2} s; paired figures: {} rows from {} parts \
                 read again, {} windows, at most {} rows held; {}",
                reading.rows_read,
                reading.parts,
                reading.read_seconds,
                reading.rows_kept,
                reading.parts_reread,
                reading.paired_windows,
                reading.largest_window,
                reading
                    .stages
                    .iter()
                    .map(|(stage, s)| format!("{stage} {s:.2} s"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            for figure in &report.figures {
                let _ = match &figure.missing {
                    None => writeln!(text, "  {}", figure.title),
                    Some(why) => writeln!(
                        text,
                        "  {}: not in this dataset ({why}); see {}",
                        figure.title, figure.example
                    ),
                };
            }
            if let Some(out) = &args.out {
                let _ = writeln!(text, "report: {}", out.join("index.html").display());
            }
        }
    }
    // A reader that stops early (`| head`) is not an error of the analysis.
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(e).context("cannot write to stdout")?
        }
        _ => {}
    }
    Ok(ExitCode::SUCCESS)
}
