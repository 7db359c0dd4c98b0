//! `hammer ask`: answers questions of a family's spec (`docs/FAMILY.md`, "Questions"),
//! one JSON object per line, as the conformance cases are written.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use hammer_family::FamilyRef;
use serde_json::{Value, json};

#[derive(Args)]
pub struct AskArgs {
    /// A file of questions, one JSON object a line, or `-` for stdin.
    #[arg(default_value = "-")]
    questions: PathBuf,
    /// The family whose spec the questions follow, unless a question names its own
    /// with a "puzzle" key.
    #[arg(long, default_value = hammer_family::DEFAULT_FAMILY)]
    puzzle: String,
}

/// The answer to one line: `{"answer": ...}`, or `{"line": N, "error": ...}`.
fn answer_line(default: FamilyRef, line: &str) -> Result<Value> {
    let question: Value = serde_json::from_str(line).context("not a JSON object")?;
    let family = match question.get("puzzle").and_then(Value::as_str) {
        Some(name) => FamilyRef::named(name)?,
        None => default,
    };
    Ok(json!({ "answer": family.answer(&question)? }))
}

pub fn ask(args: AskArgs) -> Result<ExitCode> {
    let default = FamilyRef::named(&args.puzzle)?;
    let input: Box<dyn BufRead> = if args.questions.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(&args.questions)
            .with_context(|| format!("cannot open {}", args.questions.display()))?;
        Box::new(std::io::BufReader::new(file))
    };
    let mut out = std::io::stdout().lock();
    let mut failed = false;
    for (i, line) in input.lines().enumerate() {
        let line = line.context("reading the questions")?;
        if line.trim().is_empty() {
            continue;
        }
        let value = answer_line(default, &line).unwrap_or_else(|e| {
            failed = true;
            json!({"line": i + 1, "error": format!("{e:#}")})
        });
        writeln!(out, "{value}")?;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
