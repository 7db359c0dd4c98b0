//! The `[solvers.NAME]` tables: each read key by key with its span into a
//! [`SolverSpec`] and checked into a [`Solver`], so that an error in a declaration
//! points at the field (and the element of `command`) that is wrong.

use std::collections::BTreeMap;
use std::ops::Range;

use hammer_external::{Solver, SolverSpec};
use toml::de::DeValue;

use crate::SweepError;
use crate::error::Locator;
use crate::parse::{Value, in_file_order, items, join, string, type_error, unknown_key};

const FIELDS: &[&str] = &[
    "preset",
    "command",
    "output",
    "cost",
    "budget_unit",
    "exit_codes",
    "columns",
    "restarts",
    "restarts_off",
];

/// One checked declaration, with where it was written.
#[derive(Clone, Debug)]
pub(crate) struct Declared {
    /// The table as written, its preset filled in.
    pub(crate) spec: SolverSpec,
    /// The checked solver.
    pub(crate) solver: Solver,
    /// Where `command` is, or the table's name when a preset gives it: what an error
    /// about the command (a `{budget}` the schedule cannot fill) points at.
    pub(crate) command_span: Range<usize>,
}

/// The `solvers` table: every declaration, by name.
pub(crate) fn read(
    loc: &Locator<'_>,
    value: &Value<'_>,
) -> Result<BTreeMap<String, Declared>, SweepError> {
    let DeValue::Table(table) = value.get_ref() else {
        return Err(type_error(
            loc,
            value,
            "solvers",
            "a table of [solvers.NAME] tables",
        ));
    };
    let mut out = BTreeMap::new();
    for (key, entry) in in_file_order(table) {
        let name = key.get_ref().as_ref();
        let path = join("solvers", name);
        check_name(loc, &key.span(), &path, name)?;
        let declared = declaration(loc, entry, &path, key.span())?;
        out.insert(name.to_string(), declared);
    }
    Ok(out)
}

/// A solver's name is the dataset's `sat_solver` and a key of messages: a letter, then
/// letters, digits, `_` and `-`.
fn check_name(
    loc: &Locator<'_>,
    span: &Range<usize>,
    path: &str,
    name: &str,
) -> Result<(), SweepError> {
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    if first_ok && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Ok(());
    }
    Err(loc.error(
        span,
        path,
        format!("solver name \"{name}\": use a letter, then letters, digits, `_` or `-`"),
    ))
}

fn declaration(
    loc: &Locator<'_>,
    value: &Value<'_>,
    path: &str,
    name_span: Range<usize>,
) -> Result<Declared, SweepError> {
    let DeValue::Table(table) = value.get_ref() else {
        return Err(type_error(loc, value, path, "a table"));
    };
    let mut spec = SolverSpec::default();
    let mut spans: BTreeMap<&str, &Value<'_>> = BTreeMap::new();
    for (key, v) in in_file_order(table) {
        let field = key.get_ref().as_ref();
        let k = join(path, field);
        match field {
            "preset" => spec.preset = Some(string(loc, v, &k)?.to_string()),
            "command" => spec.command = Some(strings(loc, v, &k)?),
            "output" => spec.output = Some(string(loc, v, &k)?.to_string()),
            "cost" => spec.cost = Some(string(loc, v, &k)?.to_string()),
            "budget_unit" => spec.budget_unit = Some(string(loc, v, &k)?.to_string()),
            "exit_codes" => spec.exit_codes = Some(string_map(loc, v, &k)?),
            "columns" => spec.columns = Some(string_map(loc, v, &k)?),
            "restarts" => match v.get_ref() {
                DeValue::Boolean(b) => spec.restarts = Some(*b),
                _ => return Err(type_error(loc, v, &k, "true or false")),
            },
            "restarts_off" => spec.restarts_off = Some(strings(loc, v, &k)?),
            other => return Err(unknown_key(loc, key, path, other, FIELDS)),
        }
        if let Some(at) = FIELDS.iter().find(|f| **f == field) {
            spans.insert(at, v);
        }
    }
    let solver = spec.validate().map_err(|e| {
        let field = e.field();
        let at = spans.get(field).map(|v| element_span(v, e.index()));
        let span = at.unwrap_or_else(|| name_span.clone());
        loc.error(&span, join(path, field), hammer_proto::error_chain(&e))
    })?;
    let spec = spec
        .with_preset()
        .map_err(|e| loc.error(&name_span, path, hammer_proto::error_chain(&e)))?;
    let command_span = spans.get("command").map_or(name_span, |v| v.span());
    Ok(Declared {
        spec,
        solver,
        command_span,
    })
}

/// The span of element `index` of an array value, or of the whole value.
fn element_span(value: &Value<'_>, index: Option<usize>) -> Range<usize> {
    match (value.get_ref(), index) {
        (DeValue::Array(items), Some(i)) => items.get(i).map_or(value.span(), |v| v.span()),
        _ => value.span(),
    }
}

fn strings(loc: &Locator<'_>, value: &Value<'_>, k: &str) -> Result<Vec<String>, SweepError> {
    if !matches!(value.get_ref(), DeValue::Array(_)) {
        return Err(type_error(loc, value, k, "an array of strings"));
    }
    items(loc, value, k)?
        .into_iter()
        .map(|v| string(loc, v, k).map(str::to_string))
        .collect()
}

fn string_map(
    loc: &Locator<'_>,
    value: &Value<'_>,
    k: &str,
) -> Result<BTreeMap<String, String>, SweepError> {
    let DeValue::Table(table) = value.get_ref() else {
        return Err(type_error(loc, value, k, "a table of strings"));
    };
    let mut out = BTreeMap::new();
    for (key, v) in in_file_order(table) {
        let kk = join(k, key.get_ref());
        out.insert(key.get_ref().to_string(), string(loc, v, &kk)?.to_string());
    }
    Ok(out)
}
