//! `-` as the input of `hammer solve`, `moves` and `replay`: one JSON line per stdin line.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use serde_json::{Value, json};

/// Runs `each` on every line of stdin, printing one JSON line per input. A bad line
/// gives a JSON line with its number and the error; the exit code is then non-zero.
pub fn batch(mut each: impl FnMut(&str) -> Result<Value>) -> Result<ExitCode> {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    let mut failed = false;
    for (i, line) in stdin.lock().lines().enumerate() {
        let line = line.context("reading stdin")?;
        if line.trim().is_empty() {
            continue;
        }
        let value = match each(&line) {
            Ok(v) => v,
            Err(e) => {
                failed = true;
                json!({"line": i + 1, "input": line, "error": hammer_proto::error_chain(e.as_ref())})
            }
        };
        writeln!(stdout, "{value}")?;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
