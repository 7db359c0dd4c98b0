//! The JSON answer of a program that speaks hammer's own protocol: one object,
//!
//! ```json
//! {"status": "solved", "score": 12, "cost": 4711, "extra": {"restarts": 3}}
//! ```
//!
//! with `status` one of `solved`, `refuted`, `unknown` or `error`; `score` an integer;
//! `cost` a number; `extra` an object whose keys are among the declaration's `columns`,
//! each value of its column's type. Every field but `status` may be left out. Anything
//! else (another key, a wrong type, a `null`) makes the answer not understood, with the
//! reason.
//!
//! A program writes the object to a file of its own in the directory of
//! `HAMMER_RESULT` and renames it onto `HAMMER_RESULT`: the rename is atomic, so a run
//! stopped mid-write leaves no half object. A program that writes no such file answers
//! on the last non-empty line of its standard output instead.

use std::collections::BTreeMap;

use serde_json::{Map, Value as Json};

use crate::spec::{ColumnType, Reported};

/// An extra value a program reported, of its column's type.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An `int` column's value.
    Int(i64),
    /// A `float` column's value.
    Float(f64),
    /// A `text` column's value.
    Text(String),
    /// A `bool` column's value.
    Bool(bool),
}

/// A JSON answer as read.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct JsonAnswer {
    pub(crate) reported: Reported,
    pub(crate) score: Option<i64>,
    pub(crate) cost: Option<f64>,
    pub(crate) extras: BTreeMap<String, Value>,
}

/// The last line of `stdout` that holds more than blanks.
pub(crate) fn last_line(stdout: &[u8]) -> &[u8] {
    stdout
        .split(|&b| b == b'\n')
        .rfind(|line| !line.trim_ascii().is_empty())
        .unwrap_or_default()
}

/// Reads one answer; the error is the reason it is not understood.
pub(crate) fn read(
    text: &[u8],
    columns: &BTreeMap<String, ColumnType>,
) -> Result<JsonAnswer, String> {
    let json: Json =
        serde_json::from_slice(text.trim_ascii()).map_err(|e| format!("not JSON: {e}"))?;
    let Json::Object(object) = json else {
        return Err(format!("{}, not an object", kind(&json)));
    };
    if let Some(key) = object
        .keys()
        .find(|k| !["status", "score", "cost", "extra"].contains(&k.as_str()))
    {
        return Err(format!(
            "the key `{}` is none of status, score, cost and extra",
            cut(key)
        ));
    }
    let reported = match object.get("status") {
        None => return Err("no `status`".into()),
        Some(Json::String(name)) => Reported::of_name(name).ok_or_else(|| {
            format!(
                "the status `{}` is not solved, refuted, unknown or error",
                cut(name)
            )
        })?,
        Some(other) => return Err(format!("`status` is {}, not a string", kind(other))),
    };
    let score = match object.get("score") {
        None => None,
        Some(Json::Number(n)) if n.as_i64().is_some() => n.as_i64(),
        Some(other) => {
            return Err(format!("`score` is {}, not a 64-bit integer", kind(other)));
        }
    };
    let cost = match object.get("cost") {
        None => None,
        Some(Json::Number(n)) => n.as_f64(),
        Some(other) => return Err(format!("`cost` is {}, not a number", kind(other))),
    };
    let extras = match object.get("extra") {
        None => BTreeMap::new(),
        Some(Json::Object(extra)) => extras(extra, columns)?,
        Some(other) => return Err(format!("`extra` is {}, not an object", kind(other))),
    };
    Ok(JsonAnswer {
        reported,
        score,
        cost,
        extras,
    })
}

fn extras(
    extra: &Map<String, Json>,
    columns: &BTreeMap<String, ColumnType>,
) -> Result<BTreeMap<String, Value>, String> {
    let mut out = BTreeMap::new();
    for (key, json) in extra {
        let Some(&ty) = columns.get(key) else {
            return Err(format!(
                "`extra` has `{}`, which `columns` does not declare",
                cut(key)
            ));
        };
        let value = match (ty, json) {
            (ColumnType::Int, Json::Number(n)) if n.as_i64().is_some() => {
                n.as_i64().map(Value::Int)
            }
            (ColumnType::Float, Json::Number(n)) => n.as_f64().map(Value::Float),
            (ColumnType::Text, Json::String(s)) => Some(Value::Text(s.clone())),
            (ColumnType::Bool, Json::Bool(b)) => Some(Value::Bool(*b)),
            _ => None,
        };
        let value = value.ok_or_else(|| {
            format!(
                "`extra.{}` is {}, but its column is {}",
                cut(key),
                kind(json),
                ty.name()
            )
        })?;
        out.insert(key.clone(), value);
    }
    Ok(out)
}

/// A JSON value's kind with its article, for a reason.
fn kind(json: &Json) -> &'static str {
    match json {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(n) if n.is_i64() || n.is_u64() => "an integer",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

/// A program's text cut to a readable length.
fn cut(text: &str) -> String {
    const MAX: usize = 40;
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn columns() -> BTreeMap<String, ColumnType> {
        [
            ("n".to_owned(), ColumnType::Int),
            ("x".to_owned(), ColumnType::Float),
            ("t".to_owned(), ColumnType::Text),
            ("b".to_owned(), ColumnType::Bool),
        ]
        .into()
    }

    fn reason(text: &str) -> String {
        read(text.as_bytes(), &columns()).expect_err("refused")
    }

    #[test]
    fn answers_read() {
        let answer = read(
            br#"{"status":"solved","score":-3,"cost":12.5,"extra":{"n":2,"x":1,"t":"a","b":true}}"#,
            &columns(),
        )
        .expect("reads");
        assert_eq!(answer.reported, Reported::Solved);
        assert_eq!(answer.score, Some(-3));
        assert_eq!(answer.cost, Some(12.5));
        assert_eq!(answer.extras["n"], Value::Int(2));
        assert_eq!(answer.extras["x"], Value::Float(1.0));
        assert_eq!(answer.extras["t"], Value::Text("a".into()));
        assert_eq!(answer.extras["b"], Value::Bool(true));
        let bare = read(b" {\"status\":\"unknown\"}\r\n", &BTreeMap::new()).expect("reads");
        assert_eq!(bare.reported, Reported::Unknown);
        assert_eq!((bare.score, bare.cost, bare.extras.len()), (None, None, 0));
        assert_eq!(last_line(b"a\nb\n \n\n"), b"b");
        assert_eq!(last_line(b""), b"");
    }

    #[test]
    fn everything_else_is_refused_with_a_reason() {
        assert!(reason("{").starts_with("not JSON"));
        assert_eq!(reason("[1]"), "an array, not an object");
        assert_eq!(reason("{}"), "no `status`");
        assert_eq!(
            reason(r#"{"status":"done"}"#),
            "the status `done` is not solved, refuted, unknown or error"
        );
        assert_eq!(
            reason(r#"{"status":1}"#),
            "`status` is an integer, not a string"
        );
        assert_eq!(
            reason(r#"{"status":"solved","score":1.5}"#),
            "`score` is a number, not a 64-bit integer"
        );
        assert_eq!(
            reason(r#"{"status":"solved","cost":"7"}"#),
            "`cost` is a string, not a number"
        );
        assert_eq!(
            reason(r#"{"status":"solved","extra":{"m":1}}"#),
            "`extra` has `m`, which `columns` does not declare"
        );
        assert_eq!(
            reason(r#"{"status":"solved","extra":{"n":1.5}}"#),
            "`extra.n` is a number, but its column is int"
        );
        assert_eq!(
            reason(r#"{"status":"solved","extra":{"b":null}}"#),
            "`extra.b` is null, but its column is bool"
        );
        assert_eq!(
            reason(r#"{"status":"solved","seed":1}"#),
            "the key `seed` is none of status, score, cost and extra"
        );
        assert!(read(b"\xff\xfe", &columns()).is_err());
    }
}
