//! `hammer compact`: rewrite a dataset's many small parts as few files of a target size,
//! each partition directory on its own, all or nothing across a crash.

use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;
use hammer_parts::compact::{Options, Step, compact};
use hammer_store::Store;

use crate::runtime::runtime;

#[derive(Args)]
pub struct CompactArgs {
    /// The dataset: a directory, or an object store URL (s3://bucket/prefix, ...). No
    /// coordinator may be writing it meanwhile.
    dataset: String,
    /// The size a compacted file grows to, counted in its inputs' bytes: a number with an
    /// optional unit, B, KB, MB, GB (powers of 1000) or KiB, MiB, GiB (of 1024).
    #[arg(long, default_value = "128MiB", value_parser = parse_size)]
    target_size: u64,
}

/// Compacts the dataset and prints what it did.
pub fn compact_cmd(args: CompactArgs) -> Result<ExitCode> {
    let store = Store::open(&args.dataset)?;
    let options = Options {
        target_size: args.target_size,
    };
    let crash_at = crash_point()?;
    let at = |step: Step| {
        if crash_at == Some(step) {
            eprintln!("stopping at {step:?} as HAMMER_COMPACT_CRASH_AT asks");
            std::process::abort();
        }
    };
    let report = runtime()?.block_on(compact(&store, options, &at))?;
    if report.recovered > 0 {
        println!(
            "finished {} compaction(s) that a crash had left",
            report.recovered
        );
    }
    if report.outputs == 0 {
        println!("{store}: nothing to compact");
        return Ok(ExitCode::SUCCESS);
    }
    let mib = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
    println!(
        "{store}: {} parts ({:.1} MiB) -> {} files ({:.1} MiB) in {} partitions, {} rows",
        report.inputs,
        mib(report.input_bytes),
        report.outputs,
        mib(report.output_bytes),
        report.partitions,
        report.rows
    );
    if let Some(version) = report.delta_version {
        println!("Delta log version {version} records the rewrite");
    }
    Ok(ExitCode::SUCCESS)
}

/// The step a test asks the process to abort at, from `HAMMER_COMPACT_CRASH_AT`
/// (`staged`, `planned` or `published`): the crash tests' way to stop between steps.
fn crash_point() -> Result<Option<Step>> {
    Ok(match std::env::var("HAMMER_COMPACT_CRASH_AT").as_deref() {
        Err(_) | Ok("") => None,
        Ok("staged") => Some(Step::Staged),
        Ok("planned") => Some(Step::Planned),
        Ok("published") => Some(Step::Published),
        Ok(other) => {
            bail!("HAMMER_COMPACT_CRASH_AT={other}: expected staged, planned or published")
        }
    })
}

/// `128MiB`, `1GB`, `500000` -> bytes.
fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a size such as 128MiB"))?;
    let scale: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "kb" => 1e3,
        "mb" => 1e6,
        "gb" => 1e9,
        "kib" => 1024.0,
        "mib" => 1024.0 * 1024.0,
        "gib" => 1024.0 * 1024.0 * 1024.0,
        other => {
            return Err(format!(
                "unknown size unit {other:?} (B, KB, MB, GB, KiB, MiB, GiB)"
            ));
        }
    };
    let bytes = number * scale;
    if !(1.0..1e15).contains(&bytes) {
        return Err(format!(
            "{text:?}: a target size is between 1 byte and 1 PB"
        ));
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("128MiB"), Ok(128 << 20));
        assert_eq!(parse_size("1GB"), Ok(1_000_000_000));
        assert_eq!(parse_size("500"), Ok(500));
        assert_eq!(parse_size("1.5KiB"), Ok(1536));
        assert!(parse_size("0").is_err());
        assert!(parse_size("12 parsecs").is_err());
    }
}
