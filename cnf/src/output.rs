//! What a SAT solver answered, read from its output in the SAT competition's form, or
//! from MiniSat's result file.
//!
//! The competition's form: one status line `s SATISFIABLE`, `s UNSATISFIABLE` or
//! `s UNKNOWN` (CryptoMiniSat writes `s INDETERMINATE`, read as unknown), for a
//! satisfiable answer the model on `v` lines whose literals end with `0`, and the exit
//! code 10 for satisfiable, 20 for unsatisfiable. Other lines (`c` comments, banners,
//! statistics) are ignored. An answer whose parts disagree or are incomplete is
//! [`Answer::Malformed`] with the reason; the parse never fails otherwise and never
//! panics, whatever the bytes.
//!
//! The model is not checked against the instance here: [`crate::Cnf::check`] does that,
//! after [`crate::Renaming::to_original`] for a shuffled instance.

use std::fmt;

use thiserror::Error;

use crate::dimacs::{literal_of, quote};
use crate::model::{Model, ModelError};

/// A solver's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Satisfiable, with the model the solver printed (not yet checked).
    Sat(Model),
    /// Unsatisfiable.
    Unsat,
    /// No answer within the solver's own limits.
    Unknown,
    /// Output that does not form an answer.
    Malformed(OutputError),
}

/// A status line's claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// `s SATISFIABLE` (MiniSat's file: `SAT`).
    Satisfiable,
    /// `s UNSATISFIABLE` (`UNSAT`).
    Unsatisfiable,
    /// `s UNKNOWN` or `s INDETERMINATE` (`INDET`).
    Unknown,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Satisfiable => "SATISFIABLE",
            Status::Unsatisfiable => "UNSATISFIABLE",
            Status::Unknown => "UNKNOWN",
        })
    }
}

/// Why an output is not an answer. Lines count from 1.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OutputError {
    /// A second status line.
    #[error("line {line}: a second status line (the first is line {first})")]
    TwoStatusLines {
        /// The second one's line.
        line: u64,
        /// The first one's line.
        first: u64,
    },
    /// A status that is none of the known ones.
    #[error("line {line}: `{text}` is not SATISFIABLE, UNSATISFIABLE or UNKNOWN")]
    UnknownStatus {
        /// The line.
        line: u64,
        /// What stood there, cut to a readable length.
        text: String,
    },
    /// A token of the model that is not an integer literal.
    #[error("line {line}: `{token}` in the model is not a literal")]
    BadLiteral {
        /// The line.
        line: u64,
        /// The token, cut to a readable length.
        token: String,
    },
    /// A literal after the model's terminating 0.
    #[error("line {line}: a literal after the model's terminating 0")]
    AfterTerminator {
        /// The line.
        line: u64,
    },
    /// The model's literals are not ended by 0.
    #[error("the model is not ended by 0")]
    Unterminated,
    /// A variable given both values.
    #[error("the model gives variable {var} both values")]
    Conflict {
        /// The variable.
        var: u32,
    },
    /// A model with a status other than satisfiable.
    #[error("a model (`v` lines) with the status {status}")]
    ModelWithoutSat {
        /// The status given.
        status: Status,
    },
    /// Satisfiable, but no model.
    #[error("SATISFIABLE without a model")]
    NoModel,
    /// A status that the exit code contradicts.
    #[error("status {status} with exit code {code} (10 is SATISFIABLE, 20 UNSATISFIABLE)")]
    ExitDisagrees {
        /// The status given.
        status: Status,
        /// The exit code.
        code: i32,
    },
    /// No status line, and an exit code that is not 0 (or none).
    #[error("no status line{}", match .code { Some(code) => format!(", and exit code {code}"), None => String::new() })]
    NoStatus {
        /// The exit code, if the process exited.
        code: Option<i32>,
    },
}

/// Reads a solver's standard output in the SAT competition's form, with its exit code
/// (`None` where there is none to check: a process ended by a signal, or output read
/// from elsewhere).
///
/// With no status line, exit code 0 is [`Answer::Unknown`]: CaDiCaL stops at its limits
/// that way, printing `c UNKNOWN`.
pub fn parse_output(stdout: &[u8], exit_code: Option<i32>) -> Answer {
    match read_output(stdout).and_then(|claim| claim.answer(exit_code)) {
        Ok(answer) => answer,
        Err(error) => Answer::Malformed(error),
    }
}

/// Reads the result file MiniSat writes (`minisat IN.cnf RESULT`): the line `SAT` and
/// the model's literals ended by 0, or `UNSAT`, or `INDET`, with MiniSat's exit code.
pub fn parse_minisat_result(file: &[u8], exit_code: Option<i32>) -> Answer {
    match read_minisat(file).and_then(|claim| claim.answer(exit_code)) {
        Ok(answer) => answer,
        Err(error) => Answer::Malformed(error),
    }
}

/// A status and model as read, before they are checked against each other.
#[derive(Default)]
struct Claim {
    status: Option<(u64, Status)>,
    model: ModelLines,
}

impl Claim {
    fn set_status(&mut self, line: u64, text: &[u8]) -> Result<(), OutputError> {
        if let Some((first, _)) = self.status {
            return Err(OutputError::TwoStatusLines { line, first });
        }
        let status = match text {
            b"SATISFIABLE" | b"SAT" => Status::Satisfiable,
            b"UNSATISFIABLE" | b"UNSAT" => Status::Unsatisfiable,
            b"UNKNOWN" | b"INDETERMINATE" | b"INDET" => Status::Unknown,
            _ => {
                return Err(OutputError::UnknownStatus {
                    line,
                    text: quote(text),
                });
            }
        };
        self.status = Some((line, status));
        Ok(())
    }

    fn answer(self, exit_code: Option<i32>) -> Result<Answer, OutputError> {
        let Some((_, status)) = self.status else {
            return match exit_code {
                Some(0) if !self.model.seen => Ok(Answer::Unknown),
                code => Err(OutputError::NoStatus { code }),
            };
        };
        let expected = match status {
            Status::Satisfiable => Some(10),
            Status::Unsatisfiable => Some(20),
            Status::Unknown => None,
        };
        if let Some(code) = exit_code {
            let agrees = match expected {
                Some(expected) => code == expected,
                None => code != 10 && code != 20,
            };
            if !agrees {
                return Err(OutputError::ExitDisagrees { status, code });
            }
        }
        match status {
            Status::Satisfiable => self.model.finish().map(Answer::Sat),
            _ if self.model.seen => Err(OutputError::ModelWithoutSat { status }),
            Status::Unsatisfiable => Ok(Answer::Unsat),
            Status::Unknown => Ok(Answer::Unknown),
        }
    }
}

/// The model's literals as they are read, up to its terminating 0.
#[derive(Default)]
struct ModelLines {
    lits: Vec<i32>,
    /// Whether any model line was read.
    seen: bool,
    terminated: bool,
}

impl ModelLines {
    fn tokens<'a>(
        &mut self,
        line: u64,
        tokens: impl Iterator<Item = &'a [u8]>,
    ) -> Result<(), OutputError> {
        self.seen = true;
        for token in tokens {
            let lit = literal_of(token).ok_or_else(|| OutputError::BadLiteral {
                line,
                token: quote(token),
            })?;
            if self.terminated {
                return Err(OutputError::AfterTerminator { line });
            }
            if lit == 0 {
                self.terminated = true;
            } else {
                self.lits.push(lit);
            }
        }
        Ok(())
    }

    fn finish(self) -> Result<Model, OutputError> {
        if !self.seen {
            return Err(OutputError::NoModel);
        }
        if !self.terminated {
            return Err(OutputError::Unterminated);
        }
        Model::from_literals(self.lits).map_err(|e| match e {
            ModelError::Conflict { var } => OutputError::Conflict { var },
            // literal_of gives no 0 or i32::MIN, and 0 ends the model.
            ModelError::NotALiteral { lit } => OutputError::BadLiteral {
                line: 0,
                token: lit.to_string(),
            },
        })
    }
}

fn is_blank(b: &u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c')
}

/// The lines of `text`, numbered from 1, each as its blank-separated tokens.
fn lines(text: &[u8]) -> impl Iterator<Item = (u64, impl Iterator<Item = &[u8]>)> {
    text.split(|&b| b == b'\n').zip(1..).map(|(line, number)| {
        let tokens = line.split(is_blank).filter(|token| !token.is_empty());
        (number, tokens)
    })
}

fn read_output(stdout: &[u8]) -> Result<Claim, OutputError> {
    let mut claim = Claim::default();
    for (number, mut tokens) in lines(stdout) {
        match tokens.next() {
            Some(b"s") => {
                let rest: Vec<&[u8]> = tokens.collect();
                claim.set_status(number, &rest.join(&b' '))?;
            }
            Some(b"v") => claim.model.tokens(number, tokens)?,
            _ => {}
        }
    }
    Ok(claim)
}

fn read_minisat(file: &[u8]) -> Result<Claim, OutputError> {
    let mut claim = Claim::default();
    for (number, mut tokens) in lines(file) {
        if claim.status.is_none() {
            let Some(first) = tokens.next() else {
                continue;
            };
            let rest: Vec<&[u8]> = std::iter::once(first).chain(tokens).collect();
            claim.set_status(number, &rest.join(&b' '))?;
        } else {
            let mut tokens = tokens.peekable();
            if tokens.peek().is_some() {
                claim.model.tokens(number, tokens)?;
            }
        }
    }
    Ok(claim)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sat(lits: &[i32]) -> Answer {
        Answer::Sat(Model::from_literals(lits.iter().copied()).expect("model"))
    }

    fn malformed(stdout: &str, code: Option<i32>) -> OutputError {
        match parse_output(stdout.as_bytes(), code) {
            Answer::Malformed(error) => error,
            other => panic!("{stdout:?} read as {other:?}"),
        }
    }

    #[test]
    fn the_competition_form() {
        let out = "c banner\ns SATISFIABLE\nv 1 -2\nv 3 0\nc done\n";
        assert_eq!(parse_output(out.as_bytes(), Some(10)), sat(&[1, -2, 3]));
        assert_eq!(parse_output(out.as_bytes(), None), sat(&[1, -2, 3]));
        let crlf = "s SATISFIABLE\r\nv -1 0\r\n";
        assert_eq!(parse_output(crlf.as_bytes(), Some(10)), sat(&[-1]));
        assert_eq!(parse_output(b"s UNSATISFIABLE\n", Some(20)), Answer::Unsat);
        assert_eq!(parse_output(b"s UNKNOWN\n", Some(0)), Answer::Unknown);
        assert_eq!(
            parse_output(b"s INDETERMINATE\n", Some(15)),
            Answer::Unknown
        );
        assert_eq!(parse_output(b"c UNKNOWN\n", Some(0)), Answer::Unknown);
        assert_eq!(parse_output(b"s SATISFIABLE\nv 0\n", Some(10)), sat(&[]));
        // A duplicate literal counts once.
        assert_eq!(
            parse_output(b"s SATISFIABLE\nv 2 2 0\n", Some(10)),
            sat(&[2])
        );
    }

    #[test]
    fn disagreements_and_gaps() {
        assert_eq!(
            malformed("s SATISFIABLE\nv 1 0\n", Some(20)),
            OutputError::ExitDisagrees {
                status: Status::Satisfiable,
                code: 20
            }
        );
        assert_eq!(
            malformed("s UNKNOWN\n", Some(10)),
            OutputError::ExitDisagrees {
                status: Status::Unknown,
                code: 10
            }
        );
        assert_eq!(malformed("s SATISFIABLE\n", Some(10)), OutputError::NoModel);
        assert_eq!(
            malformed("s SATISFIABLE\nv 1 2\n", Some(10)),
            OutputError::Unterminated
        );
        assert_eq!(
            malformed("s UNSATISFIABLE\nv 1 0\n", Some(20)),
            OutputError::ModelWithoutSat {
                status: Status::Unsatisfiable
            }
        );
        assert_eq!(
            malformed("c crashed\n", Some(1)),
            OutputError::NoStatus { code: Some(1) }
        );
        assert_eq!(
            malformed("v 1 0\n", Some(0)),
            OutputError::NoStatus { code: Some(0) }
        );
        assert_eq!(malformed("", None), OutputError::NoStatus { code: None });
        assert_eq!(
            malformed("", Some(10)),
            OutputError::NoStatus { code: Some(10) }
        );
    }

    #[test]
    fn garbage_is_named() {
        assert_eq!(
            malformed("s SATISFIABLE\nv 1 x 0\n", Some(10)),
            OutputError::BadLiteral {
                line: 2,
                token: "x".into()
            }
        );
        assert_eq!(
            malformed("s SATISFIABLE\nv 1 -1 0\n", Some(10)),
            OutputError::Conflict { var: 1 }
        );
        assert_eq!(
            malformed("s SATISFIABLE\nv 1 0 2\n", Some(10)),
            OutputError::AfterTerminator { line: 2 }
        );
        assert_eq!(
            malformed("s SATISFIABLE\nv 1 0\nv 2 0\n", Some(10)),
            OutputError::AfterTerminator { line: 3 }
        );
        assert_eq!(
            malformed("s SATISFIABLE\ns SATISFIABLE\nv 0\n", Some(10)),
            OutputError::TwoStatusLines { line: 2, first: 1 }
        );
        assert_eq!(
            malformed("s MAYBE SO\n", Some(0)),
            OutputError::UnknownStatus {
                line: 1,
                text: "MAYBE SO".into()
            }
        );
        assert_eq!(
            malformed("s SATISFIABLE\nv 99999999999 0\n", Some(10)),
            OutputError::BadLiteral {
                line: 2,
                token: "99999999999".into()
            }
        );
        let huge = format!("s SATISFIABLE\nv {} 0\n", "7".repeat(1 << 20));
        let OutputError::BadLiteral { token, .. } = malformed(&huge, Some(10)) else {
            panic!("a huge token is a bad literal");
        };
        assert!(token.chars().count() <= 33, "the token is cut: {token}");
    }

    #[test]
    fn minisat_result_files() {
        assert_eq!(
            parse_minisat_result(b"SAT\n1 -2 3 0\n", Some(10)),
            sat(&[1, -2, 3])
        );
        assert_eq!(parse_minisat_result(b"UNSAT\n", Some(20)), Answer::Unsat);
        assert_eq!(parse_minisat_result(b"INDET\n", Some(0)), Answer::Unknown);
        assert_eq!(
            parse_minisat_result(b"SAT\n", Some(10)),
            Answer::Malformed(OutputError::NoModel)
        );
        assert_eq!(
            parse_minisat_result(b"", Some(1)),
            Answer::Malformed(OutputError::NoStatus { code: Some(1) })
        );
        assert_eq!(
            parse_minisat_result(b"SAT\n1 2 0\n", Some(20)),
            Answer::Malformed(OutputError::ExitDisagrees {
                status: Status::Satisfiable,
                code: 20
            })
        );
    }
}
