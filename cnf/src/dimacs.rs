//! DIMACS CNF text: parsed from bytes with the line and column of every error, and
//! written in one canonical form.
//!
//! The form read:
//! - Comment lines start with `c` (after optional blanks) and may stand anywhere, even
//!   between the lines of one clause.
//! - One header `p cnf VARIABLES CLAUSES` comes before the first clause.
//! - Clauses are nonzero integers ended by `0`. A clause may span lines, and a line may
//!   hold several clauses. Blanks are spaces, tabs, carriage returns, vertical tabs and
//!   form feeds, so files with CRLF line ends read as well.
//! - A line starting with `%` ends the formula. SATLIB's random 3-SAT files (`uf*`,
//!   `uuf*`) end with `%` and `0`, and their many users read them this way.
//!
//! Every literal names a variable no larger than the header's count, the last clause is
//! ended by its `0`, and the number of clauses equals the header's.

use std::io::{self, Write};

use thiserror::Error;

use crate::formula::{Cnf, MAX_VARS};

/// Where a DIMACS text is wrong, and how.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{line}:{col}: {kind}")]
pub struct ParseError {
    /// The 1-based line.
    pub line: u64,
    /// The 1-based column, in bytes.
    pub col: u64,
    /// What is wrong there.
    pub kind: ParseErrorKind,
}

/// The ways a DIMACS text can be wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseErrorKind {
    /// A token where a literal belongs that is not a 32-bit integer.
    #[error("`{token}` is not a literal (a nonzero integer, or 0 to end a clause)")]
    BadLiteral {
        /// The token, cut to a readable length.
        token: String,
    },
    /// A literal whose variable is above the header's count.
    #[error("literal `{token}` names a variable above the header's {vars}")]
    VariableAboveHeader {
        /// The literal as written.
        token: String,
        /// The header's variable count.
        vars: u32,
    },
    /// A `p` line that is not `p cnf VARIABLES CLAUSES`.
    #[error(
        "`{token}` does not fit the header `p cnf VARIABLES CLAUSES` (VARIABLES at most {MAX_VARS})"
    )]
    BadHeader {
        /// The token that does not fit.
        token: String,
    },
    /// A `p` line that ends before its clause count.
    #[error("the header ends early: it is `p cnf VARIABLES CLAUSES`")]
    ShortHeader,
    /// A second `p` line.
    #[error("a second `p cnf` header")]
    DuplicateHeader,
    /// A clause before the header.
    #[error("a clause before the `p cnf` header")]
    ClauseBeforeHeader,
    /// No header in the whole text.
    #[error("no `p cnf VARIABLES CLAUSES` header")]
    NoHeader,
    /// One clause more than the header declares (at its start).
    #[error("more clauses than the header's {declared}")]
    TooManyClauses {
        /// The header's clause count.
        declared: u64,
    },
    /// Fewer clauses than the header declares (at the end of the text).
    #[error("{found} clauses where the header declares {declared}")]
    TooFewClauses {
        /// The header's clause count.
        declared: u64,
        /// The clauses read.
        found: u64,
    },
    /// The last clause (at its start) has no `0` after it.
    #[error("the last clause has no terminating 0")]
    UnterminatedClause,
}

/// The longest token an error message quotes; longer ones are cut with `…`.
const TOKEN_CHARS: usize = 32;

/// A token for an error message: lossy UTF-8, cut to [`TOKEN_CHARS`] characters.
pub(crate) fn quote(token: &[u8]) -> String {
    let text = String::from_utf8_lossy(token);
    let mut chars = text.chars();
    let mut quoted: String = chars.by_ref().take(TOKEN_CHARS).collect();
    if chars.next().is_some() {
        quoted.push('…');
    }
    quoted
}

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c')
}

/// Parses a DIMACS CNF text (see the module documentation for the form read).
pub fn parse(text: &[u8]) -> Result<Cnf, ParseError> {
    let mut parser = Parser {
        text_len: text.len(),
        ..Parser::default()
    };
    let mut last = (1, 1);
    for (index, line) in text.split(|&b| b == b'\n').enumerate() {
        let number = index as u64 + 1;
        last = (number, line.len() as u64 + 1);
        if parser.line(number, line)? == Flow::Stop {
            last = (number, 1);
            break;
        }
    }
    parser.finish(last.0, last.1)
}

#[derive(PartialEq, Eq)]
enum Flow {
    Go,
    Stop,
}

/// The header: variables and declared clauses.
struct Header {
    vars: u32,
    clauses: u64,
}

#[derive(Default)]
struct Parser {
    header: Option<Header>,
    cnf: Option<Cnf>,
    /// Where the clause being read started, while one is open.
    open: Option<(u64, u64)>,
    clauses: u64,
    /// The length of the whole text, which bounds what a header can make the parse
    /// reserve.
    text_len: usize,
}

impl Parser {
    fn line(&mut self, number: u64, line: &[u8]) -> Result<Flow, ParseError> {
        let Some(first) = line.iter().position(|&b| !is_blank(b)) else {
            return Ok(Flow::Go);
        };
        match line[first] {
            b'c' => Ok(Flow::Go),
            b'%' => Ok(Flow::Stop),
            b'p' => self.header(number, line, first).map(|()| Flow::Go),
            _ => self.clause_line(number, line, first).map(|()| Flow::Go),
        }
    }

    fn header(&mut self, number: u64, line: &[u8], first: usize) -> Result<(), ParseError> {
        let error = |col: usize, kind| ParseError {
            line: number,
            col: col as u64 + 1,
            kind,
        };
        if self.header.is_some() {
            return Err(error(first, ParseErrorKind::DuplicateHeader));
        }
        let mut tokens = Tokens { line, at: first };
        let bad = |(col, token): (usize, &[u8])| {
            error(
                col,
                ParseErrorKind::BadHeader {
                    token: quote(token),
                },
            )
        };
        let mut field = |expect: fn(&[u8]) -> bool| match tokens.next() {
            Some((_, token)) if expect(token) => Ok(token),
            Some(found) => Err(bad(found)),
            None => Err(error(line.len(), ParseErrorKind::ShortHeader)),
        };
        field(|t| t == b"p")?;
        field(|t| t == b"cnf")?;
        let vars = field(|t| number_of(t).is_some_and(|v| v <= u64::from(MAX_VARS)))?;
        let clauses = field(|t| number_of(t).is_some())?;
        if let Some(extra) = tokens.next() {
            return Err(bad(extra));
        }
        let vars = number_of(vars).unwrap_or_default() as u32;
        let clauses = number_of(clauses).unwrap_or_default();
        // Room for the declared clauses, but never more than the text could hold (a clause
        // and a literal take two bytes at least), so a header that lies about its size
        // cannot make the parse allocate without bound.
        let declared = usize::try_from(clauses).unwrap_or(usize::MAX);
        let most = self.text_len / 2;
        let room = declared.min(most);
        self.cnf = Some(Cnf::with_capacity(
            vars,
            room,
            room.saturating_mul(3).min(most),
        ));
        self.header = Some(Header { vars, clauses });
        Ok(())
    }

    fn clause_line(&mut self, number: u64, line: &[u8], first: usize) -> Result<(), ParseError> {
        let (Some(header), Some(cnf)) = (&self.header, &mut self.cnf) else {
            return Err(ParseError {
                line: number,
                col: first as u64 + 1,
                kind: ParseErrorKind::ClauseBeforeHeader,
            });
        };
        let tokens = Tokens { line, at: first };
        for (col, token) in tokens {
            let at = (number, col as u64 + 1);
            let error = |kind| ParseError {
                line: at.0,
                col: at.1,
                kind,
            };
            let lit = literal_of(token).ok_or_else(|| {
                error(ParseErrorKind::BadLiteral {
                    token: quote(token),
                })
            })?;
            let start = *self.open.get_or_insert(at);
            if lit == 0 {
                self.clauses += 1;
                if self.clauses > header.clauses {
                    return Err(ParseError {
                        line: start.0,
                        col: start.1,
                        kind: ParseErrorKind::TooManyClauses {
                            declared: header.clauses,
                        },
                    });
                }
                cnf.end_clause();
                self.open = None;
            } else if lit.unsigned_abs() > header.vars {
                return Err(error(ParseErrorKind::VariableAboveHeader {
                    token: quote(token),
                    vars: header.vars,
                }));
            } else {
                cnf.push_unchecked(lit);
            }
        }
        Ok(())
    }

    fn finish(self, line: u64, col: u64) -> Result<Cnf, ParseError> {
        let error = |(line, col), kind| Err(ParseError { line, col, kind });
        if let Some(start) = self.open {
            return error(start, ParseErrorKind::UnterminatedClause);
        }
        let (Some(header), Some(cnf)) = (self.header, self.cnf) else {
            return error((line, col), ParseErrorKind::NoHeader);
        };
        if self.clauses < header.clauses {
            return error(
                (line, col),
                ParseErrorKind::TooFewClauses {
                    declared: header.clauses,
                    found: self.clauses,
                },
            );
        }
        Ok(cnf)
    }
}

/// The blank-separated tokens of a line with their 0-based columns.
struct Tokens<'a> {
    line: &'a [u8],
    at: usize,
}

impl<'a> Iterator for Tokens<'a> {
    type Item = (usize, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.line.get(self.at..)?;
        let start = self.at + rest.iter().position(|&b| !is_blank(b))?;
        let len = self.line[start..]
            .iter()
            .position(|&b| is_blank(b))
            .unwrap_or(self.line.len() - start);
        self.at = start + len;
        Some((start, &self.line[start..start + len]))
    }
}

/// A token of decimal digits as a number, or `None` (also past `u64::MAX`).
fn number_of(token: &[u8]) -> Option<u64> {
    if token.is_empty() || token.len() > 20 {
        return None;
    }
    token.iter().try_fold(0u64, |n, &b| {
        let digit = b.wrapping_sub(b'0');
        (digit < 10)
            .then_some(())
            .and_then(|()| n.checked_mul(10)?.checked_add(u64::from(digit)))
    })
}

/// A token as a DIMACS literal: an optional `-`, then digits, within `-i32::MAX..=i32::MAX`.
pub(crate) fn literal_of(token: &[u8]) -> Option<i32> {
    let (negative, digits) = match token.split_first() {
        Some((b'-', digits)) => (true, digits),
        _ => (false, token),
    };
    if digits.len() > 10 {
        return None;
    }
    let magnitude = number_of(digits)?;
    let magnitude = i32::try_from(magnitude).ok()?;
    Some(if negative { -magnitude } else { magnitude })
}

/// Writes `cnf` as DIMACS: the header `p cnf V C`, then one clause a line, its literals
/// separated by single spaces and ended by ` 0` (an empty clause is the line `0`).
///
/// This form is canonical, with no comments, so that the digest of a generated or
/// shuffled instance depends on the formula alone.
pub fn write<W: Write>(cnf: &Cnf, out: W) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    writeln!(out, "p cnf {} {}", cnf.vars(), cnf.num_clauses())?;
    let mut buffer = itoa_buffer();
    for clause in cnf.clauses() {
        for &lit in clause {
            out.write_all(format_literal(&mut buffer, lit))?;
            out.write_all(b" ")?;
        }
        out.write_all(b"0\n")?;
    }
    out.flush()
}

/// The DIMACS text of `cnf`, as [`write()`] writes it.
pub fn to_bytes(cnf: &Cnf) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(cnf.num_literals() * 5 + cnf.num_clauses() * 2 + 32);
    // Writing into a Vec cannot fail.
    let _ = write(cnf, &mut bytes);
    bytes
}

fn itoa_buffer() -> [u8; 11] {
    [0; 11]
}

/// The decimal text of `lit` in `buffer`, without going through `fmt`, which the writer
/// would otherwise call for every literal.
fn format_literal(buffer: &mut [u8; 11], lit: i32) -> &[u8] {
    let mut n = lit.unsigned_abs();
    let mut at = buffer.len();
    loop {
        at -= 1;
        buffer[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if lit < 0 {
        at -= 1;
        buffer[at] = b'-';
    }
    &buffer[at..]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> ParseError {
        parse(text.as_bytes()).expect_err("must be refused")
    }

    fn at(line: u64, col: u64, kind: ParseErrorKind) -> ParseError {
        ParseError { line, col, kind }
    }

    #[test]
    fn comments_spans_and_several_clauses_a_line() {
        let text = "c a comment\n\
                    p cnf 4 4\n\
                    1 -2\n\
                    c inside a clause\n  3 0 -4 0\n\
                    \t0\r\n\
                    2 4 0\n";
        let cnf = parse(text.as_bytes()).expect("valid");
        assert_eq!(cnf.vars(), 4);
        let clauses: Vec<&[i32]> = cnf.clauses().collect();
        assert_eq!(clauses, vec![&[1, -2, 3][..], &[-4], &[], &[2, 4]]);
    }

    #[test]
    fn satlib_files_end_at_the_percent_line() {
        let text = "c SATLIB\np cnf 3 2\n 1 -2 3 0\n-1 2 0\n%\n0\n\n";
        let cnf = parse(text.as_bytes()).expect("valid");
        assert_eq!(cnf.num_clauses(), 2);
    }

    #[test]
    fn written_text_reads_back() {
        let mut cnf = Cnf::new(12);
        cnf.push_clause(&[1, -12, 7]).expect("fits");
        cnf.push_clause(&[]).expect("fits");
        cnf.push_clause(&[-10]).expect("fits");
        let text = to_bytes(&cnf);
        assert_eq!(
            String::from_utf8_lossy(&text),
            "p cnf 12 3\n1 -12 7 0\n0\n-10 0\n"
        );
        assert_eq!(parse(&text).expect("reads back"), cnf);
    }

    #[test]
    fn literals_at_the_limits() {
        let cnf = parse(b"p cnf 2147483647 1\n2147483647 -2147483647 0\n").expect("valid");
        assert_eq!(cnf.clause(0), Some(&[i32::MAX, -i32::MAX][..]));
        assert_eq!(
            error("p cnf 2147483647 1\n-2147483648 0\n"),
            at(
                2,
                1,
                ParseErrorKind::BadLiteral {
                    token: "-2147483648".into()
                }
            )
        );
        assert_eq!(
            error("p cnf 2147483648 0\n"),
            at(
                1,
                7,
                ParseErrorKind::BadHeader {
                    token: "2147483648".into()
                }
            )
        );
    }

    #[test]
    fn bad_literals_name_line_column_and_token() {
        assert_eq!(
            error("p cnf 3 2\n1 2 0\n3 x1 0\n"),
            at(3, 3, ParseErrorKind::BadLiteral { token: "x1".into() })
        );
        assert_eq!(
            error("p cnf 3 1\n1 --2 0\n"),
            at(
                2,
                3,
                ParseErrorKind::BadLiteral {
                    token: "--2".into()
                }
            )
        );
        assert_eq!(
            error("p cnf 3 1\n1 +2 0\n"),
            at(2, 3, ParseErrorKind::BadLiteral { token: "+2".into() })
        );
        let long = "9".repeat(100);
        let ParseError { kind, .. } = error(&format!("p cnf 3 1\n{long} 0\n"));
        assert_eq!(
            kind,
            ParseErrorKind::BadLiteral {
                token: format!("{}…", "9".repeat(32))
            }
        );
    }

    #[test]
    fn a_variable_above_the_header() {
        let e = error("p cnf 3 2\n1 2 0\n -3  -4 0\n");
        assert_eq!(
            e,
            at(
                3,
                6,
                ParseErrorKind::VariableAboveHeader {
                    token: "-4".into(),
                    vars: 3
                }
            )
        );
        assert_eq!(
            e.to_string(),
            "3:6: literal `-4` names a variable above the header's 3"
        );
    }

    #[test]
    fn clause_counts_must_match() {
        assert_eq!(
            error("p cnf 3 1\n1 0\n2\n 3 0\n"),
            at(3, 1, ParseErrorKind::TooManyClauses { declared: 1 })
        );
        assert_eq!(
            error("p cnf 3 3\n1 0\n2 0\n"),
            at(
                4,
                1,
                ParseErrorKind::TooFewClauses {
                    declared: 3,
                    found: 2
                }
            )
        );
        assert_eq!(
            error("p cnf 3 3\n1 0\n2 0"),
            at(
                3,
                4,
                ParseErrorKind::TooFewClauses {
                    declared: 3,
                    found: 2
                }
            )
        );
    }

    #[test]
    fn a_missing_final_zero_points_at_the_clause() {
        assert_eq!(
            error("p cnf 3 2\n1 0\n  2\n3\n"),
            at(3, 3, ParseErrorKind::UnterminatedClause)
        );
        assert_eq!(
            error("p cnf 3 2\n1 0\n2 3\n%\n0\n"),
            at(3, 1, ParseErrorKind::UnterminatedClause)
        );
    }

    #[test]
    fn headers() {
        assert_eq!(error(""), at(1, 1, ParseErrorKind::NoHeader));
        assert_eq!(error("c only\n"), at(2, 1, ParseErrorKind::NoHeader));
        assert_eq!(
            error("1 2 0\np cnf 2 1\n"),
            at(1, 1, ParseErrorKind::ClauseBeforeHeader)
        );
        assert_eq!(
            error("p cnf 2 0\np cnf 2 0\n"),
            at(2, 1, ParseErrorKind::DuplicateHeader)
        );
        assert_eq!(
            error("p wcnf 2 1\n"),
            at(
                1,
                3,
                ParseErrorKind::BadHeader {
                    token: "wcnf".into()
                }
            )
        );
        assert_eq!(error("p cnf 2\n"), at(1, 8, ParseErrorKind::ShortHeader));
        assert_eq!(
            error("p cnf 2 1 7\n"),
            at(1, 11, ParseErrorKind::BadHeader { token: "7".into() })
        );
        assert_eq!(
            error("pcnf 2 1\n"),
            at(
                1,
                1,
                ParseErrorKind::BadHeader {
                    token: "pcnf".into()
                }
            )
        );
        let cnf = parse(b"p cnf 0 0\n").expect("the empty formula");
        assert_eq!((cnf.vars(), cnf.num_clauses()), (0, 0));
    }

    #[test]
    fn a_lying_header_allocates_little() {
        let e = error("p cnf 5 18446744073709551615\n1 0\n");
        assert!(matches!(
            e.kind,
            ParseErrorKind::TooFewClauses { found: 1, .. }
        ));
    }
}
