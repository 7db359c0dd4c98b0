//! A family's parameters: what a sweep file's experiment lists and a command line's
//! `--param key=value` give, validated against the family's [`ParamSpec`]s.

use std::fmt;

use crate::error::bad;

/// The type and range of one parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// An integer in `min..=max`.
    Int {
        /// The smallest value allowed.
        min: i64,
        /// The largest value allowed.
        max: i64,
    },
    /// One of these words.
    Choice(&'static [&'static str]),
    /// `true` or `false`.
    Bool,
    /// Free text that the family checks itself in [`crate::Family::point`] (a peg
    /// board's hole mask, a list of obstacles).
    Text,
    /// A finite decimal number in `min..=max` (whole bounds, so that kinds stay `Eq`), kept as its shortest text (`4.26`) in a
    /// [`ParamValue::Text`], so that a point's text, and so its seeds, never depend on
    /// how a float is printed elsewhere.
    Decimal {
        /// The smallest value allowed.
        min: i64,
        /// The largest value allowed.
        max: i64,
    },
}

/// One parameter of a family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    /// The key in the canonical point text and on the command line (`n`, `board`, `h`).
    pub key: &'static str,
    /// The key of the list in a sweep file's experiment (`sizes` for Martello's `n`,
    /// kept so every existing sweep file keeps its meaning). A sweep file may give a
    /// single value or a list; an experiment crosses the lists of all its parameters.
    pub sweep_key: &'static str,
    /// The type and range of its values.
    pub kind: ParamKind,
    /// The value when the sweep file or command line gives none, as command-line text
    /// (`"6"`, `"english"`, `"true"`); `None` makes the parameter required.
    pub default: Option<&'static str>,
    /// One line for the docs and error messages.
    pub doc: &'static str,
}

/// A parameter value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ParamValue {
    /// A [`ParamKind::Int`] value.
    Int(i64),
    /// A [`ParamKind::Choice`], [`ParamKind::Text`] or [`ParamKind::Decimal`] value.
    Text(String),
    /// A [`ParamKind::Bool`] value.
    Bool(bool),
}

impl ParamValue {
    /// Checks the value against `spec`'s kind and range; the message is for a `BadParam`.
    pub fn check(&self, spec: &ParamSpec) -> Result<(), String> {
        match (spec.kind, self) {
            (ParamKind::Int { min, max }, ParamValue::Int(v)) => {
                if (min..=max).contains(v) {
                    Ok(())
                } else {
                    Err(format!("{v} is out of range {min}..={max}"))
                }
            }
            (ParamKind::Choice(words), ParamValue::Text(t)) => {
                if words.contains(&t.as_str()) {
                    Ok(())
                } else {
                    Err(format!("'{t}' is not one of {}", words.join(", ")))
                }
            }
            (ParamKind::Bool, ParamValue::Bool(_)) | (ParamKind::Text, ParamValue::Text(_)) => {
                Ok(())
            }
            (ParamKind::Decimal { min, max }, ParamValue::Text(t)) => match t.parse::<f64>() {
                Ok(v) if v < min as f64 || v > max as f64 => {
                    Err(format!("{t} is out of range {min}..={max}"))
                }
                Ok(v) if v.is_finite() && decimal_text(v) == *t => Ok(()),
                Ok(v) if v.is_finite() => {
                    Err(format!("'{t}' is not written as {}", decimal_text(v)))
                }
                _ => Err(format!("'{t}' is not a number in {min}..={max}")),
            },
            (kind, value) => Err(format!("expected {}, got {value}", kind_name(kind))),
        }
    }

    /// Parses command-line text (`6`, `english`, `true`) as a value of `spec`'s kind.
    pub fn parse(text: &str, spec: &ParamSpec) -> Result<ParamValue, String> {
        let value = match spec.kind {
            ParamKind::Int { .. } => ParamValue::Int(
                text.trim()
                    .parse()
                    .map_err(|_| format!("expected an integer, got '{text}'"))?,
            ),
            ParamKind::Bool => match text.trim() {
                "true" => ParamValue::Bool(true),
                "false" => ParamValue::Bool(false),
                _ => return Err(format!("expected true or false, got '{text}'")),
            },
            ParamKind::Choice(_) | ParamKind::Text => ParamValue::Text(text.trim().to_string()),
            ParamKind::Decimal { .. } => match text.trim().parse::<f64>() {
                Ok(v) => ParamValue::decimal(v),
                Err(_) => return Err(format!("expected a number, got '{text}'")),
            },
        };
        value.check(spec)?;
        Ok(value)
    }

    /// A [`ParamKind::Decimal`] value: its shortest text.
    pub fn decimal(value: f64) -> ParamValue {
        ParamValue::Text(decimal_text(value))
    }

    pub(crate) fn as_int(&self) -> Option<i64> {
        match self {
            ParamValue::Int(v) => Some(*v),
            _ => None,
        }
    }

    pub(crate) fn as_text(&self) -> Option<&str> {
        match self {
            ParamValue::Text(t) => Some(t),
            _ => None,
        }
    }

    /// The value if it is a boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            ParamValue::Bool(b) => Some(*b),
            _ => None,
        }
    }
}

/// What a kind of parameter is called in messages.
pub fn kind_name(kind: ParamKind) -> &'static str {
    match kind {
        ParamKind::Int { .. } => "an integer",
        ParamKind::Choice(_) => "one of the listed words",
        ParamKind::Bool => "true or false",
        ParamKind::Text => "a string",
        ParamKind::Decimal { .. } => "a number",
    }
}

/// The shortest text that reads back as `value` (`4.26`, `4` for 4.0).
fn decimal_text(value: f64) -> String {
    format!("{value}")
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Int(v) => write!(f, "{v}"),
            ParamValue::Text(t) => f.write_str(t),
            ParamValue::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// A checked parameter point: one value per parameter of the family, in the family's
/// canonical order. Its text (`h=6;s=4;picks=all;...`) is the dataset's `params` column
/// and part of every result key.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    family: &'static str,
    values: Vec<(&'static str, ParamValue)>,
}

impl Point {
    /// A point of `family` from values already checked by the family, in spec order.
    pub fn new(family: &'static str, values: Vec<(&'static str, ParamValue)>) -> Point {
        Point { family, values }
    }

    /// The name of the family the point belongs to.
    pub fn family(&self) -> &'static str {
        self.family
    }

    /// The value of `key`; families ask only for their own keys, which a checked point
    /// always has.
    pub fn get(&self, key: &str) -> Option<&ParamValue> {
        self.values.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// The integer value of `key`, if it has one.
    pub fn int(&self, key: &str) -> Option<i64> {
        self.get(key).and_then(ParamValue::as_int)
    }

    /// The text value of `key`, if it has one.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(ParamValue::as_text)
    }

    /// The boolean value of `key`, if it has one.
    pub fn bool(&self, key: &str) -> Option<bool> {
        self.get(key).and_then(ParamValue::as_bool)
    }

    /// The values in the family's parameter order.
    pub fn values(&self) -> &[(&'static str, ParamValue)] {
        &self.values
    }
}

impl fmt::Display for Point {
    /// `key=value;key=value` in canonical order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (k, v)) in self.values.iter().enumerate() {
            if i > 0 {
                f.write_str(";")?;
            }
            write!(f, "{k}={v}")?;
        }
        Ok(())
    }
}

/// Builds a point of `family` from `(key, value)` pairs: unknown keys are refused, each
/// value is checked, missing keys take their defaults, and the family checks the whole.
/// The command line and the sweep parser both come through here.
pub fn point_from_pairs(
    family: &dyn crate::Family,
    pairs: &[(String, ParamValue)],
) -> Result<Point, crate::FamilyError> {
    use crate::FamilyError;
    let specs = family.params();
    for (key, _) in pairs {
        if !specs.iter().any(|s| s.key == key) {
            return Err(FamilyError::UnknownParam {
                family: family.name(),
                key: key.clone(),
                expected: specs.iter().map(|s| s.key).collect::<Vec<_>>().join(", "),
            });
        }
    }
    let mut values = Vec::with_capacity(specs.len());
    for spec in specs {
        let value = match pairs.iter().rev().find(|(k, _)| k == spec.key) {
            Some((_, v)) => v.clone(),
            None => {
                let text = spec.default.ok_or_else(|| bad(spec.key, "required"))?;
                ParamValue::parse(text, spec)
                    .map_err(|reason| bad(spec.key, format!("default '{text}': {reason}")))?
            }
        };
        value.check(spec).map_err(|reason| bad(spec.key, reason))?;
        values.push(value);
    }
    family.point(values)
}
