//! `hammer tune DATASET --out DIR`: restart schedules tuned from a run-time experiment,
//! and their validation on fresh games. The estimator and the report live in
//! `hammer_tune`; this runs the validation sweep and lays out DIR:
//!
//! ```text
//! DIR/best.schedule            the tuned schedule (`--schedule @DIR/best.schedule`)
//! DIR/report/                  index.html, report.md, CSV tables, PNG and SVG charts
//! DIR/validate.toml            the validation sweep (with --validate or --emit-validation)
//! DIR/validation-DIGEST/       its dataset, named by the sweep's digest so that a
//!                              re-tuned schedule never resumes another sweep's run
//! ```

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use hammer_analysis::RowSource;
use hammer_tune::{self as tune, ScheduleFamily, Tuning, validate};

use crate::args::load_sweep;
use crate::cmd::run::{RunEnd, run_sweep, tell_outcome};
use crate::dataset_arg::DatasetArg;

#[derive(Args)]
pub struct TuneArgs {
    /// The tuning dataset: a run-time experiment (kind = "run-time") and the exact
    /// searches on the same games, as made by examples/tune_rtd.toml: a directory, or an
    /// object store URL.
    pub dataset: String,
    /// The output directory (best.schedule, report/, validate.toml, validation data).
    #[arg(long, short)]
    pub out: PathBuf,
    /// Families to tune, comma-separated: fixed, luby, geometric (default: all). `paper`,
    /// the engine's endless luby and plain DFS are always priced as references.
    #[arg(long, value_delimiter = ',')]
    pub families: Vec<String>,
    /// The run-time experiment, when the dataset has several.
    #[arg(long)]
    pub experiment: Option<String>,
    /// Board size to tune for (default: the largest in the run-time experiment).
    #[arg(long)]
    pub n: Option<i32>,
    /// Measure the engine's own schedules (endless fixed, Luby and geometric ones on a
    /// grid, and the model's best lists) on the tuning games, memo and all, and tune to
    /// the best measured: the model ignores the memo, which favours short restarts.
    /// Writes DIR/refine.toml and runs it into DIR/refine-DIGEST/.
    #[arg(long)]
    pub refine: bool,
    /// Tuning games the refinement runs on (the first ones of the tuning set). Default:
    /// all of them, since fewer games pick a worse schedule more often
    /// (docs/benchmarks.md).
    #[arg(long)]
    pub refine_games: Option<u64>,
    /// Write the validation sweep to DIR/validate.toml, run it on this machine, and
    /// compare measured costs with the predictions.
    #[arg(long)]
    pub validate: bool,
    /// Only write DIR/validate.toml (to run it elsewhere, for instance on a cluster),
    /// then compare with --validation-data.
    #[arg(long, conflicts_with = "validate")]
    pub emit_validation: bool,
    /// A finished validation dataset to compare with the predictions.
    #[arg(long, conflicts_with_all = ["validate", "emit_validation"])]
    pub validation_data: Option<PathBuf>,
    /// Fresh games in the validation sweep (default: as many as the tuning set has).
    #[arg(long)]
    pub validation_games: Option<u64>,
    /// Seed of the validation games (default: the tuning seed + 1, so no game repeats).
    #[arg(long)]
    pub validation_seed: Option<u64>,
    /// Solver threads for --validate; default: one per core.
    #[arg(long)]
    pub threads: Option<usize>,
    /// With --validate: submit the validation sweep to this standing coordinator, wait
    /// for it, and read its dataset where the coordinator wrote it (a shared directory or
    /// an object store URL), instead of running it on this machine. The token is
    /// HAMMER_TOKEN's (a user token).
    #[arg(long, value_name = "URL", requires = "validate")]
    pub coordinator: Option<String>,
}

fn families(names: &[String]) -> Result<Vec<ScheduleFamily>> {
    names
        .iter()
        .filter(|n| !n.trim().is_empty())
        .map(|n| {
            ScheduleFamily::parse(n).ok_or_else(|| {
                anyhow!(
                    "--families: unknown family '{}'; the tuner knows fixed, luby and geometric (paper and plain DFS are always shown as references)",
                    n.trim()
                )
            })
        })
        .collect()
}

/// Writes `text` to `path` through a temporary file and a rename, so that a reader
/// never sees half a schedule or half a sweep.
fn write_atomic(path: &Path, text: &str) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("cannot create a file in {}", dir.display()))?;
    std::io::Write::write_all(&mut tmp, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    tmp.as_file()
        .sync_all()
        .with_context(|| format!("cannot write {}", path.display()))?;
    tmp.persist(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

pub fn run(args: TuneArgs) -> Result<ExitCode> {
    let families = families(&args.families)?;
    let dataset = DatasetArg::open(&args.dataset)?;
    let input = tune::collect(RowSource(dataset.dir()), args.experiment.as_deref(), args.n)?;
    let mut tuning = tune::tune(input, &families);

    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    if args.refine {
        let name: String = format!("{}-refine", tuning.input.sweep)
            .chars()
            .take(100)
            .collect();
        let text = tune::refine::sweep_text(
            &tuning,
            &name,
            args.refine_games.unwrap_or(u64::MAX).max(1),
        )
        .ok_or_else(|| {
            anyhow!(
                "--refine: the tuning games are not consecutive indices, so no sweep can name them"
            )
        })?;
        let sweep_path = args.out.join("refine.toml");
        write_atomic(&sweep_path, &text)?;
        eprintln!("refinement sweep: {}", sweep_path.display());
        let data_dir = run_to_end(&sweep_path, &args.out, "refine", args.threads)?;
        let refinement = tune::refine::measure(&tuning, RowSource(&data_dir))?;
        tune::apply_refinement(&mut tuning, refinement);
    }
    let schedule_path = args.out.join("best.schedule");
    write_atomic(&schedule_path, &tune::schedule_file(&tuning))?;

    let validation = if args.validate || args.emit_validation {
        let sweep_path = args.out.join("validate.toml");
        write_atomic(&sweep_path, &validation_sweep(&tuning, &args)?)?;
        eprintln!("validation sweep: {}", sweep_path.display());
        if let Some(url) = args.validate.then_some(()).and(args.coordinator.as_ref()) {
            let dataset = crate::cmd::queue::run_on_cluster(&sweep_path, url)?;
            let dataset = DatasetArg::open(&dataset)?;
            Some(compare(&tuning, dataset.dir())?)
        } else if args.validate {
            let data_dir = run_to_end(&sweep_path, &args.out, "validation", args.threads)?;
            Some(compare(&tuning, &data_dir)?)
        } else {
            None
        }
    } else if let Some(dir) = &args.validation_data {
        Some(compare(&tuning, dir)?)
    } else {
        None
    };

    let report = tune::report(&tuning, dataset.shown(), validation.as_ref());
    for warning in &report.warnings {
        eprintln!("warning: {warning}");
    }
    let report_dir = args.out.join("report");
    hammer_analysis::write_report(&report, dataset.dir(), &report_dir)?;
    print!("{}", summary(&tuning, validation.as_ref()));
    println!("schedule: {}", schedule_path.display());
    println!("report: {}", report_dir.join("index.html").display());
    Ok(ExitCode::SUCCESS)
}

/// Runs the sweep file at `sweep_path` on this machine into `OUT/WHAT-DIGEST` (named by
/// the digest, so that a changed sweep never resumes another one's data) and returns
/// that directory once the sweep is complete.
fn run_to_end(
    sweep_path: &Path,
    out: &Path,
    what: &str,
    threads: Option<usize>,
) -> Result<PathBuf> {
    let sweep = load_sweep(sweep_path)?;
    let digest: String = sweep.digest.chars().take(12).collect();
    let data_dir = out.join(format!("{what}-{digest}"));
    let pool = crate::args::pool(threads, &Default::default())?;
    let store = hammer_store::Store::local(&data_dir);
    let state = crate::args::default_state(&data_dir);
    let outcome = run_sweep(sweep, store.clone(), state, pool, None)?;
    tell_outcome(&outcome, &store);
    if let RunEnd::Interrupted(_) = outcome.end {
        bail!("the {what} sweep was interrupted; run the same command again to resume it");
    }
    Ok(data_dir)
}

fn validation_sweep(t: &Tuning, args: &TuneArgs) -> Result<String> {
    let seed = match args.validation_seed {
        Some(s) => s,
        None => (t.input.seed as u64 + 1) % (1u64 << 63),
    };
    if seed >= 1u64 << 63 {
        bail!("--validation-seed must be below 2^63");
    }
    let games = args
        .validation_games
        .unwrap_or(t.input.games.len() as u64)
        .max(1);
    let name = format!("{}-validate", t.input.sweep);
    // A sweep name is at most 100 characters; the tuning sweep's may already be long.
    let name: String = name.chars().take(100).collect();
    Ok(validate::sweep_text(t, &name, seed, games))
}

fn compare(t: &Tuning, dir: &Path) -> Result<validate::Validation> {
    Ok(validate::compare(t, RowSource(dir))?)
}

fn summary(t: &Tuning, v: Option<&validate::Validation>) -> String {
    let mut s = String::new();
    let i = &t.input;
    let _ = writeln!(
        s,
        "tuned on {} games of size {} ({} attempts each, cap {}), experiment {} of sweep {}",
        i.games.len(),
        i.n,
        i.attempts,
        i.cap,
        i.experiment,
        i.sweep
    );
    let _ = writeln!(
        s,
        "{:<24} {:>12} {:>23} {:>9}",
        "schedule", "predicted", "95% interval", "vs DFS"
    );
    for f in &t.families {
        let _ = writeln!(
            s,
            "{:<24} {:>12.0} {:>11.0}..{:<11.0} {:>8.2}x  {}",
            format!("{} ({})", f.family.name(), f.priced.candidate.params),
            f.mean.value,
            f.mean.low,
            f.mean.high,
            f.speedup.value,
            if f.family == t.best_family {
                "best"
            } else {
                ""
            }
        );
    }
    for p in t.predictions.iter().skip(1) {
        let _ = writeln!(
            s,
            "{:<24} {:>12.0} {:>11.0}..{:<11.0} {:>8.2}x  {}",
            p.name,
            p.mean.value,
            p.mean.low,
            p.mean.high,
            p.speedup.value,
            if p.beyond_cap > 0.0 {
                "lower bound (beyond the cap)"
            } else {
                ""
            }
        );
    }
    if let Some(r) = &t.refinement {
        let games = r.measured.first().map_or(0, |m| m.games);
        let _ = writeln!(
            s,
            "refinement on {games} tuning games: measured mean expansions (memo kept between attempts)"
        );
        for (i, m) in r.measured.iter().enumerate() {
            let _ = writeln!(
                s,
                "{:<24} {:>12.0} {:>11.0}..{:<11.0} {:>8.2}x  {}",
                m.trial
                    .schedule
                    .to_string()
                    .chars()
                    .take(24)
                    .collect::<String>(),
                m.expansions.value,
                m.expansions.low,
                m.expansions.high,
                m.speedup.value,
                if i == r.best { "best" } else { "" }
            );
        }
        let _ = writeln!(s, "tuned schedule: {}", t.best);
    }
    if let Some(v) = v {
        let _ = writeln!(
            s,
            "validation on {} fresh games (seed {}): measured mean expansions and wall time a game",
            v.games, v.seed
        );
        for m in &v.measured {
            let name = t
                .prediction(&m.order, &m.schedule)
                .map_or_else(|| m.schedule.clone(), |p| p.name.clone());
            let _ = writeln!(
                s,
                "{:<24} {:>12.0} {:>11.0}..{:<11.0} {:>8.2}x  {:.2} ms (wall {:.2}x)",
                name,
                m.expansions.value,
                m.expansions.low,
                m.expansions.high,
                m.speedup.value,
                m.wall_ms.value,
                m.wall_speedup.value
            );
        }
    }
    s
}
