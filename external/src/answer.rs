//! A run's answer read in its declaration's output form, and checked where it can be:
//! a [`Verdict`] for [`hammer_exec::RunStatus::of`], with the reason when the answer is
//! not understood or wrong, and the values the program reported.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use hammer_cnf::{Answer, Cnf, Renaming, parse_minisat_result, parse_output};
use hammer_exec::{Exit, Measured, Verdict};

use crate::json::{self, Value};
use crate::spec::{ColumnType, Output, Reported, Solver};

/// The file in the run's private directory that MiniSat's preset writes its answer to.
pub const MINISAT_RESULT: &str = "result";
/// The file in the run's private directory that `HAMMER_RESULT` names.
pub const JSON_RESULT: &str = "result.json";

/// What a run's output says, read and checked.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Reading {
    pub(crate) verdict: Verdict,
    pub(crate) reason: Option<String>,
    pub(crate) score: Option<i64>,
    pub(crate) cost: Option<f64>,
    pub(crate) extras: BTreeMap<String, Value>,
}

impl Reading {
    fn of(verdict: Verdict) -> Reading {
        Reading {
            verdict,
            reason: None,
            score: None,
            cost: None,
            extras: BTreeMap::new(),
        }
    }

    fn because(verdict: Verdict, reason: impl Into<String>) -> Reading {
        Reading {
            reason: Some(reason.into()),
            ..Reading::of(verdict)
        }
    }
}

/// The formula a model is checked against, and the renaming that takes a model of the
/// instance the program read back to it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Check<'a> {
    pub(crate) formula: Option<&'a Cnf>,
    pub(crate) renaming: Option<&'a Renaming>,
}

/// Reads the answer of a finished run whose private directory is `tmp`; files it reads
/// there are read up to `max_file` bytes.
pub(crate) fn read(
    solver: &Solver,
    measured: &Measured,
    tmp: &Path,
    check: Check<'_>,
    max_file: u64,
) -> Reading {
    let code = match &measured.exit {
        Exit::Code(code) => Some(*code),
        Exit::Signal(_) => None,
        Exit::NotStarted(reason) => {
            return Reading::because(Verdict::NotUnderstood, format!("not started: {reason}"));
        }
    };
    let mut reading = match solver.output() {
        Output::Dimacs => checked(parse_output(&measured.stdout, code), check),
        Output::Minisat => match read_bounded(&tmp.join(MINISAT_RESULT), max_file) {
            Ok(Some(file)) => checked(parse_minisat_result(&file, code), check),
            Ok(None) => Reading::because(
                Verdict::NotUnderstood,
                format!("no result file {{tmp}}/{MINISAT_RESULT}"),
            ),
            Err(reason) => Reading::because(Verdict::NotUnderstood, reason),
        },
        Output::Json { columns } => json_reading(measured, tmp, columns, max_file),
        Output::ExitCode { codes } => match code.and_then(|code| codes.get(&code)) {
            Some(&status) => reported(status),
            None => match code {
                Some(code) => Reading::because(
                    Verdict::NotUnderstood,
                    format!("exit code {code} is not in `exit_codes`"),
                ),
                None => Reading::because(Verdict::NotUnderstood, "no exit code"),
            },
        },
    };
    read_cost(solver, measured, &mut reading);
    reading
}

/// The cost by the declaration's pattern, which comes before a cost a program reports:
/// the last match in standard output, else in standard error's tail. A capture that is
/// no number makes an answer not understood (a wrong one stays wrong).
fn read_cost(solver: &Solver, measured: &Measured, reading: &mut Reading) {
    let Some(pattern) = solver.cost() else {
        return;
    };
    let found = match pattern.find(&measured.stdout) {
        Ok(None) => pattern.find(&measured.stderr_tail),
        other => other,
    };
    match found {
        Ok(cost) => reading.cost = cost.or(reading.cost),
        Err(error) => {
            reading.cost = None;
            if reading.verdict != Verdict::Wrong {
                reading.verdict = Verdict::NotUnderstood;
                reading.reason = Some(error.to_string());
            }
        }
    }
}

/// The JSON answer: the file `HAMMER_RESULT` names if the program wrote it, else the
/// last non-empty line of standard output.
fn json_reading(
    measured: &Measured,
    tmp: &Path,
    columns: &BTreeMap<String, ColumnType>,
    max_file: u64,
) -> Reading {
    let text = match read_bounded(&tmp.join(JSON_RESULT), max_file) {
        Ok(Some(file)) => file,
        Ok(None) => json::last_line(&measured.stdout).to_vec(),
        Err(reason) => return Reading::because(Verdict::NotUnderstood, reason),
    };
    match json::read(&text, columns) {
        Ok(answer) => Reading {
            score: answer.score,
            cost: answer.cost,
            extras: answer.extras,
            ..reported(answer.reported)
        },
        Err(reason) => Reading::because(Verdict::NotUnderstood, reason),
    }
}

fn reported(status: Reported) -> Reading {
    match status {
        Reported::Solved => Reading::of(Verdict::Solved),
        Reported::Refuted => Reading::of(Verdict::Refuted),
        Reported::Unknown => Reading::of(Verdict::Unknown),
        Reported::Error => {
            Reading::because(Verdict::NotUnderstood, "the program reported an error")
        }
    }
}

/// A SAT answer as a verdict, its model mapped back and checked against the formula.
fn checked(answer: Answer, check: Check<'_>) -> Reading {
    match answer {
        Answer::Sat(model) => {
            let Some(formula) = check.formula else {
                return Reading::because(
                    Verdict::NotUnderstood,
                    "a model, but no formula to check it against",
                );
            };
            let model = match check.renaming {
                Some(renaming) => match renaming.to_original(&model) {
                    Ok(model) => model,
                    Err(violation) => {
                        return Reading::because(Verdict::Wrong, violation.to_string());
                    }
                },
                None => model,
            };
            match formula.check(&model) {
                Ok(()) => Reading::of(Verdict::Solved),
                Err(violation) => Reading::because(Verdict::Wrong, violation.to_string()),
            }
        }
        Answer::Unsat => Reading::of(Verdict::Refuted),
        Answer::Unknown => Reading::of(Verdict::Unknown),
        Answer::Malformed(error) => Reading::because(Verdict::NotUnderstood, error.to_string()),
    }
}

/// A file's bytes if it exists, up to `max` of them; the error is a reason.
fn read_bounded(path: &Path, max: u64) -> Result<Option<Vec<u8>>, String> {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot open {{tmp}}/{name}: {e}")),
    };
    let mut bytes = Vec::new();
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {{tmp}}/{name}: {e}"))?;
    if bytes.len() as u64 > max {
        return Err(format!("{{tmp}}/{name} is larger than {max} bytes"));
    }
    Ok(Some(bytes))
}
