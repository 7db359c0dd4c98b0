//! A solver's cost in its own unit (conflicts, decisions, propagations), read from its
//! output by a pattern the user gives.

use regex::bytes::{Regex, RegexBuilder};
use thiserror::Error;

use crate::dimacs::quote;

/// A regular expression (the `regex` crate's syntax) with exactly one capture group,
/// whose text is the cost: `c\s+conflicts:\s+(\d+)` for CaDiCaL, `conflicts\s+:\s+(\d+)`
/// for MiniSat.
///
/// The pattern runs in multi-line mode, so `^` and `$` match at line starts and ends,
/// over the output's bytes (which need not be UTF-8). When it matches several times the
/// last match counts, since solvers that print progress print the final count last.
#[derive(Clone, Debug)]
pub struct CostPattern {
    regex: Regex,
}

/// A cost pattern that cannot be used, or a capture that is not a number.
#[derive(Debug, Error)]
pub enum CostError {
    /// The pattern does not compile.
    #[error("the cost pattern `{pattern}` does not compile")]
    Compile {
        /// The pattern.
        pattern: String,
        /// The compiler's complaint, which points into the pattern.
        #[source]
        source: Box<regex::Error>,
    },
    /// The pattern has no capture group, or more than one.
    #[error(
        "the cost pattern `{pattern}` has {groups} capture groups; it needs exactly one, around the cost"
    )]
    Groups {
        /// The pattern.
        pattern: String,
        /// Its capture groups.
        groups: usize,
    },
    /// The group captured text that is not a finite number (or took no part in the match).
    #[error("the cost pattern `{pattern}` captured `{capture}`, which is not a number")]
    NotANumber {
        /// The pattern.
        pattern: String,
        /// What the group captured, cut to a readable length.
        capture: String,
    },
}

impl CostPattern {
    /// Compiles `pattern` and checks that it has one capture group.
    pub fn new(pattern: &str) -> Result<Self, CostError> {
        let regex = RegexBuilder::new(pattern)
            .multi_line(true)
            .build()
            .map_err(|source| CostError::Compile {
                pattern: pattern.to_owned(),
                source: Box::new(source),
            })?;
        let groups = regex.captures_len() - 1;
        if groups != 1 {
            return Err(CostError::Groups {
                pattern: pattern.to_owned(),
                groups,
            });
        }
        Ok(CostPattern { regex })
    }

    /// The pattern's text.
    pub fn as_str(&self) -> &str {
        self.regex.as_str()
    }

    /// The cost in `output`: the group of the last match read as a number, or `None`
    /// when the pattern does not match (CaDiCaL, for one, prints no conflict count when
    /// it solved an instance without a conflict).
    pub fn find(&self, output: &[u8]) -> Result<Option<f64>, CostError> {
        let Some(captures) = self.regex.captures_iter(output).last() else {
            return Ok(None);
        };
        let capture = captures.get(1).map_or(&b""[..], |m| m.as_bytes());
        std::str::from_utf8(capture)
            .ok()
            .and_then(|text| text.trim().parse::<f64>().ok())
            .filter(|cost| cost.is_finite())
            .map(Some)
            .ok_or_else(|| CostError::NotANumber {
                pattern: self.as_str().to_owned(),
                capture: quote(capture),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CADICAL: &str = r"c\s+conflicts:\s+(\d+)";

    #[test]
    fn the_last_match_counts() {
        let pattern = CostPattern::new(CADICAL).expect("compiles");
        let output = b"c conflicts:  12 per second\nc\nc conflicts:                 4711        23.5 per second\n";
        assert_eq!(pattern.find(output).expect("a number"), Some(4711.0));
        assert_eq!(pattern.find(b"s SATISFIABLE\n").expect("no match"), None);
        assert_eq!(pattern.as_str(), CADICAL);
    }

    #[test]
    fn lines_anchor_and_bytes_need_not_be_utf8() {
        let pattern = CostPattern::new(r"^conflicts\s+:\s+(\d+)").expect("compiles");
        let output = b"\xff\xfe garbage\nconflicts             : 93             (2017 /sec)\n";
        assert_eq!(pattern.find(output).expect("a number"), Some(93.0));
        let decimal = CostPattern::new(r"time: ([0-9.e+-]+)").expect("compiles");
        assert_eq!(decimal.find(b"time: 1.5e3").expect("number"), Some(1500.0));
    }

    #[test]
    fn refusals_name_the_pattern() {
        let error = CostPattern::new(r"c conflicts: (\d+").expect_err("unclosed group");
        assert_eq!(
            error.to_string(),
            r"the cost pattern `c conflicts: (\d+` does not compile"
        );
        assert!(std::error::Error::source(&error).is_some());
        let error = CostPattern::new(r"conflicts: \d+").expect_err("no group");
        assert!(matches!(error, CostError::Groups { groups: 0, .. }));
        let error = CostPattern::new(r"(conflicts): (\d+)").expect_err("two groups");
        assert!(matches!(error, CostError::Groups { groups: 2, .. }));
        assert!(CostPattern::new(r"(?:conflicts): (\d+)").is_ok());
        let words = CostPattern::new(r"cost (\w+)").expect("compiles");
        let error = words.find(b"cost inf").expect_err("not finite");
        assert_eq!(
            error.to_string(),
            r"the cost pattern `cost (\w+)` captured `inf`, which is not a number"
        );
        let optional = CostPattern::new(r"cost(\d+)?").expect("compiles");
        assert!(optional.find(b"cost none").is_err());
    }
}
