//! The placeholders of a command's elements: `{instance}`, `{seed}`, `{budget}` and
//! `{tmp}`, with `{{` and `}}` for literal braces.
//!
//! Each element of a command is one argument of the program and stays one argument
//! whatever its placeholders expand to: a path with a space in it is never split, since
//! no shell ever sees the command. A placeholder may sit inside an element
//! (`--seed={seed}`, `{tmp}/result`).

use std::ffi::{OsStr, OsString};
use std::fmt;

/// One of the values an element may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Placeholder {
    /// `{instance}`: the absolute path of the instance file.
    Instance,
    /// `{seed}`: the attempt's seed, in decimal.
    Seed,
    /// `{budget}`: the attempt's budget in the solver's unit, in decimal.
    Budget,
    /// `{tmp}`: the run's private directory, which is also its working directory.
    Tmp,
}

impl Placeholder {
    /// Every placeholder, in the order the documentation lists them.
    pub const ALL: [Placeholder; 4] = [
        Placeholder::Instance,
        Placeholder::Seed,
        Placeholder::Budget,
        Placeholder::Tmp,
    ];

    /// The name between the braces.
    pub fn name(self) -> &'static str {
        match self {
            Placeholder::Instance => "instance",
            Placeholder::Seed => "seed",
            Placeholder::Budget => "budget",
            Placeholder::Tmp => "tmp",
        }
    }

    fn of_name(name: &str) -> Option<Placeholder> {
        Placeholder::ALL.into_iter().find(|p| p.name() == name)
    }
}

impl fmt::Display for Placeholder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{}}}", self.name())
    }
}

/// Why an element's braces do not parse, with the byte offset in the element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BraceError {
    /// `{name}` with a name that is no placeholder.
    Unknown { name: String },
    /// A `{` with no `}` after it, or a lone `}`.
    Lone { at: usize },
}

/// A piece of an element: text as written, or a placeholder.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Text(String),
    Value(Placeholder),
}

/// One element of a command, parsed: its text with the placeholders it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    pieces: Vec<Piece>,
}

impl Template {
    /// Parses an element: `{name}` is a placeholder, `{{` and `}}` are braces.
    pub(crate) fn parse(element: &str) -> Result<Template, BraceError> {
        let mut pieces = Vec::new();
        let mut text = String::new();
        let mut rest = element;
        while let Some(at) = rest.find(['{', '}']) {
            text.push_str(&rest[..at]);
            let offset = element.len() - rest.len() + at;
            let tail = &rest[at..];
            if tail.starts_with("{{") || tail.starts_with("}}") {
                text.push_str(&tail[..1]);
                rest = &tail[2..];
                continue;
            }
            if tail.starts_with('}') {
                return Err(BraceError::Lone { at: offset });
            }
            let Some(end) = tail.find('}') else {
                return Err(BraceError::Lone { at: offset });
            };
            let name = &tail[1..end];
            if name.contains('{') {
                return Err(BraceError::Lone { at: offset });
            }
            let placeholder = Placeholder::of_name(name).ok_or_else(|| BraceError::Unknown {
                name: name.to_owned(),
            })?;
            if !text.is_empty() {
                pieces.push(Piece::Text(std::mem::take(&mut text)));
            }
            pieces.push(Piece::Value(placeholder));
            rest = &tail[end + 1..];
        }
        text.push_str(rest);
        if !text.is_empty() || pieces.is_empty() {
            pieces.push(Piece::Text(text));
        }
        Ok(Template { pieces })
    }

    /// Whether the element names `placeholder`.
    pub fn uses(&self, placeholder: Placeholder) -> bool {
        self.pieces.contains(&Piece::Value(placeholder))
    }

    /// The element's text when it names no placeholder (braces unescaped).
    pub fn literal(&self) -> Option<&str> {
        match self.pieces.as_slice() {
            [Piece::Text(text)] => Some(text),
            _ => None,
        }
    }

    /// The element with each placeholder replaced by its value.
    pub fn expand(&self, values: &Values<'_>) -> OsString {
        let mut out = OsString::new();
        for piece in &self.pieces {
            match piece {
                Piece::Text(text) => out.push(text),
                Piece::Value(Placeholder::Instance) => out.push(values.instance),
                Piece::Value(Placeholder::Tmp) => out.push(values.tmp),
                Piece::Value(Placeholder::Seed) => out.push(values.seed.to_string()),
                // A budget is checked to be there before a command that names it runs.
                Piece::Value(Placeholder::Budget) => {
                    out.push(values.budget.map(|b| b.to_string()).unwrap_or_default())
                }
            }
        }
        out
    }
}

/// The values of the placeholders for one attempt.
#[derive(Clone, Copy, Debug)]
pub struct Values<'a> {
    /// The instance file's absolute path.
    pub instance: &'a OsStr,
    /// The seed.
    pub seed: u64,
    /// The budget, if the attempt has one.
    pub budget: Option<u64>,
    /// The run's private directory.
    pub tmp: &'a OsStr,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand(element: &str) -> String {
        let values = Values {
            instance: OsStr::new("/i/x.cnf"),
            seed: 7,
            budget: Some(100),
            tmp: OsStr::new("/t"),
        };
        let template = Template::parse(element).expect("parses");
        template.expand(&values).into_string().expect("utf-8")
    }

    #[test]
    fn placeholders_expand_inside_elements() {
        assert_eq!(expand("--seed={seed}"), "--seed=7");
        assert_eq!(expand("{instance}"), "/i/x.cnf");
        assert_eq!(expand("{tmp}/result"), "/t/result");
        assert_eq!(expand("-c{budget}x{seed}"), "-c100x7");
        assert_eq!(expand("{{seed}}"), "{seed}");
        assert_eq!(expand("a}}b{{"), "a}b{");
        assert_eq!(expand(""), "");
        assert_eq!(Template::parse("-q").expect("ok").literal(), Some("-q"));
        assert_eq!(Template::parse("{{x}}").expect("ok").literal(), Some("{x}"));
        assert!(
            Template::parse("{seed}")
                .expect("ok")
                .uses(Placeholder::Seed)
        );
        assert!(
            !Template::parse("{{seed}}")
                .expect("ok")
                .uses(Placeholder::Seed)
        );
    }

    #[test]
    fn bad_braces_are_named() {
        assert_eq!(
            Template::parse("x{instanse}"),
            Err(BraceError::Unknown {
                name: "instanse".into()
            })
        );
        assert_eq!(Template::parse("ab{seed"), Err(BraceError::Lone { at: 2 }));
        assert_eq!(Template::parse("a}b"), Err(BraceError::Lone { at: 1 }));
        assert_eq!(Template::parse("{a{seed}"), Err(BraceError::Lone { at: 0 }));
        assert_eq!(
            Template::parse("{}"),
            Err(BraceError::Unknown {
                name: String::new()
            })
        );
        assert_eq!(
            Template::parse("{Seed}"),
            Err(BraceError::Unknown {
                name: "Seed".into()
            })
        );
    }
}
