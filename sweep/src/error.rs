//! The one error type of sweep files, with a position a person can jump to.

use std::fmt;
use std::ops::Range;

/// Something wrong with a sweep file, located as precisely as we can.
///
/// Sweep files are written by hand and a bad one must be refused before a cluster spends
/// hours on it, so every error carries the file, the line and column (1-based, columns
/// in characters) and the key path, in the `file:line:col: key: message` form that
/// editors and terminals turn into links.
///
/// `line` and `column` are 0 when the error concerns the file as a whole (it cannot be
/// read, say); `key` is empty when no key is involved (a TOML syntax error outside any
/// key). Key paths count experiments from 0, as in `experiment[1].sizes`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct SweepError {
    /// The sweep file as named, or the origin of sweep text.
    pub file: String,
    /// 1-based; 0 for the file as a whole.
    pub line: usize,
    /// 1-based, in characters; 0 for the file as a whole.
    pub column: usize,
    /// The key path, such as `experiment[1].sizes`; empty when no key is involved.
    pub key: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SweepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if self.line > 0 {
            write!(f, ":{}:{}", self.line, self.column)?;
        }
        if !self.key.is_empty() {
            write!(f, ": {}", self.key)?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Turns byte offsets of one text into 1-based lines and columns.
pub(crate) struct Locator<'a> {
    pub(crate) text: &'a str,
    pub(crate) origin: &'a str,
}

impl<'a> Locator<'a> {
    /// Line and column (both 1-based, the column in characters) of byte `offset`.
    ///
    /// Offsets past the end (toml reports an unexpected end of file there) or inside a
    /// multi-byte character are clamped to the nearest valid position rather than
    /// trusted, since this runs on the error path and must not fail itself.
    pub(crate) fn position(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        (line, column)
    }

    /// An error at the start of `span`.
    pub(crate) fn error(
        &self,
        span: &Range<usize>,
        key: impl Into<String>,
        message: impl Into<String>,
    ) -> SweepError {
        let (line, column) = self.position(span.start);
        SweepError {
            file: self.origin.to_string(),
            line,
            column,
            key: key.into(),
            message: message.into(),
        }
    }

    /// `line:col` of byte `offset`, for messages that refer to a second place.
    pub(crate) fn at(&self, offset: usize) -> String {
        let (line, column) = self.position(offset);
        format!("{line}:{column}")
    }
}

/// An error about the file as a whole (unreadable, not UTF-8), which has no position.
pub(crate) fn file_error(origin: &str, message: impl Into<String>) -> SweepError {
    SweepError {
        file: origin.to_string(),
        line: 0,
        column: 0,
        key: String::new(),
        message: message.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_based_and_count_characters() {
        let loc = Locator {
            text: "a = 1\nnäme = \"x\"\n",
            origin: "f.toml",
        };
        assert_eq!(loc.position(0), (1, 1));
        assert_eq!(loc.position(4), (1, 5));
        assert_eq!(loc.position(6), (2, 1));
        // 'ä' is two bytes but one column.
        assert_eq!(loc.position(6 + "näme = ".len()), (2, 8));
        assert_eq!(loc.position(1000), (3, 1));
        // Inside the two bytes of 'ä': clamped back to its start.
        assert_eq!(loc.position(8), (2, 2));
    }

    #[test]
    fn display_leaves_out_what_is_missing() {
        let e = SweepError {
            file: "x.toml".into(),
            line: 7,
            column: 9,
            key: "experiment[1].sizes".into(),
            message: "size 9 is outside 1..=8".into(),
        };
        assert_eq!(
            e.to_string(),
            "x.toml:7:9: experiment[1].sizes: size 9 is outside 1..=8"
        );
        let e = file_error("x.toml", "cannot read: gone");
        assert_eq!(e.to_string(), "x.toml: cannot read: gone");
    }
}
