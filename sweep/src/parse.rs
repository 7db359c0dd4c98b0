//! From TOML text to a validated [`Sweep`].
//!
//! The document is walked as toml's spanned tree (`DeTable`) rather than deserialized
//! with serde: every key and value keeps its byte span, so each check below, semantic
//! ones included, can point at the exact line and column and name the key path, and
//! the messages are ours rather than serde's.

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;

use hammer_engine::MAX_N;
use hammer_engine::seeded::MAX_INDEX;
use hammer_solver::{Order, Schedule};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::error::{Locator, SweepError};
use crate::units::{default_unit_games, series_units};
use crate::{
    Experiment, ExperimentKind, MAX_CONFIGS, MAX_EXPERIMENTS, MAX_PREFIX, MAX_ROWS, MAX_UNITS,
    RunConfig, Sweep,
};

type Value<'i> = Spanned<DeValue<'i>>;

const TOP_KEYS: &[&str] = &["name", "seed", "experiment"];
const EXPERIMENT_KEYS: &[&str] = &[
    "name",
    "sizes",
    "games",
    "first_game",
    "orders",
    "schedules",
    "prefixes",
    "budgets",
    "tries",
    "unit_games",
    "kind",
    "attempts",
    "cap",
];

pub(crate) fn parse(text: &str, origin: &str) -> Result<Sweep, SweepError> {
    parse_with_files(text, origin, None)
}

/// Where schedule files are read from, and the schedules read so far: the byte span of
/// each `"@FILE"` string and the schedule that replaces it.
struct Files<'a> {
    base: Option<&'a Path>,
    substitutions: Vec<(Range<usize>, String)>,
}

/// Parses `text`; with `base`, `"@FILE"` schedules are read from files relative to it
/// and written into the text, and the sweep is the parse of that self-contained text.
/// Workers receive only the text, so the text, and with it the digest, must carry the
/// schedule itself: a schedule file edited later is then a different sweep.
pub(crate) fn parse_with_files(
    text: &str,
    origin: &str,
    base: Option<&Path>,
) -> Result<Sweep, SweepError> {
    let mut files = Files {
        base,
        substitutions: Vec::new(),
    };
    let sweep = parse_inner(text, origin, &mut files)?;
    if files.substitutions.is_empty() {
        return Ok(sweep);
    }
    let mut resolved = String::with_capacity(text.len());
    let mut at = 0;
    files.substitutions.sort_by_key(|(span, _)| span.start);
    for (span, schedule) in &files.substitutions {
        resolved.push_str(&text[at..span.start]);
        // Schedule text is ASCII letters, digits and `x , : . _`: no escaping needed.
        resolved.push('"');
        resolved.push_str(schedule);
        resolved.push('"');
        at = span.end;
    }
    resolved.push_str(&text[at..]);
    let mut none = Files {
        base: None,
        substitutions: Vec::new(),
    };
    parse_inner(&resolved, origin, &mut none)
}

fn parse_inner(text: &str, origin: &str, files: &mut Files<'_>) -> Result<Sweep, SweepError> {
    let loc = Locator { text, origin };
    let doc = DeTable::parse(text).map_err(|e| syntax_error(&loc, &e))?;
    let mut name = None;
    let mut seed = None;
    let mut experiments = None;
    for (key, value) in in_file_order(doc.get_ref()) {
        match key.get_ref().as_ref() {
            "name" => name = Some(sweep_name(&loc, value)?),
            "seed" => seed = Some(seed_value(&loc, value)?),
            "experiment" => experiments = Some(value),
            other => return Err(unknown_key(&loc, key, "", other, TOP_KEYS)),
        }
    }
    let start = 0..0;
    let name = name.ok_or_else(|| {
        loc.error(
            &start,
            "name",
            "missing key: a sweep needs a name (the dataset's `sweep` column)",
        )
    })?;
    let seed = seed.ok_or_else(|| {
        loc.error(
            &start,
            "seed",
            "missing key: a sweep needs a seed (0 <= seed < 2^63)",
        )
    })?;
    let experiments = experiments.ok_or_else(|| {
        loc.error(
            &start,
            "experiment",
            "missing key: a sweep needs at least one [[experiment]] table",
        )
    })?;
    let experiments = experiment_list(&loc, experiments, files)?;
    Ok(Sweep {
        name,
        seed,
        experiments,
        text: text.to_string(),
        digest: crate::digest(text),
    })
}

/// The entries of a table sorted by where their key appears, so the first error reported
/// is the first in the file whatever map type toml was built with.
fn in_file_order<'a, 'i>(
    table: &'a DeTable<'i>,
) -> Vec<(&'a Spanned<std::borrow::Cow<'i, str>>, &'a Value<'i>)> {
    let mut entries: Vec<_> = table.iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    entries
}

/// A TOML syntax error, with the key path guessed from the text because the parser gives
/// none: the `[[experiment]]` tables before the error and the key on the error's line.
fn syntax_error(loc: &Locator<'_>, err: &toml::de::Error) -> SweepError {
    let span = err.span().unwrap_or(0..0);
    let before = &loc.text[..span.start.min(loc.text.len())];
    let headers = before
        .lines()
        .filter(|l| {
            let l: String = l.chars().filter(|c| !c.is_whitespace()).collect();
            l.starts_with("[[experiment]]")
        })
        .count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = loc.text[line_start..].lines().next().unwrap_or("");
    let key = line.split_once('=').map(|(k, _)| k.trim()).filter(|k| {
        !k.is_empty()
            && k.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    });
    let path = match (headers, key) {
        (0, Some(k)) => k.to_string(),
        (0, None) => String::new(),
        (h, Some(k)) => format!("experiment[{}].{k}", h - 1),
        (h, None) => format!("experiment[{}]", h - 1),
    };
    let message = err
        .message()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    loc.error(&span, path, format!("TOML syntax error: {message}"))
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// Levenshtein distance, for "did you mean" on misspelt keys.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

fn unknown_key(
    loc: &Locator<'_>,
    key: &Spanned<std::borrow::Cow<'_, str>>,
    path: &str,
    name: &str,
    known: &[&str],
) -> SweepError {
    let close = known
        .iter()
        .map(|k| (distance(name, k), *k))
        .filter(|&(d, _)| d <= 2)
        .min();
    let hint = match close {
        Some((_, k)) => format!("did you mean `{k}`? "),
        None => String::new(),
    };
    loc.error(
        &key.span(),
        join(path, name),
        format!("unknown key; {hint}known keys here: {}", known.join(", ")),
    )
}

/// What a value is, for "expected X, found Y" messages; strings are quoted so that
/// `games = "2000"` shows why it was refused.
fn describe(value: &DeValue<'_>) -> String {
    match value {
        DeValue::String(s) => format!("the string \"{s}\""),
        DeValue::Integer(i) => format!("the integer {i}"),
        DeValue::Float(f) => format!("the float {f}"),
        DeValue::Boolean(b) => format!("the boolean {b}"),
        DeValue::Datetime(d) => format!("the datetime {d}"),
        DeValue::Array(_) => "an array".to_string(),
        DeValue::Table(_) => "a table".to_string(),
    }
}

fn type_error(loc: &Locator<'_>, value: &Value<'_>, key: &str, expected: &str) -> SweepError {
    loc.error(
        &value.span(),
        key,
        format!("expected {expected}, found {}", describe(value.get_ref())),
    )
}

fn string<'a>(loc: &Locator<'_>, value: &'a Value<'_>, key: &str) -> Result<&'a str, SweepError> {
    match value.get_ref() {
        DeValue::String(s) => Ok(s.as_ref()),
        _ => Err(type_error(loc, value, key, "a string")),
    }
}

/// Any TOML integer, as i128 so that values beyond i64 (which the parser hands over as
/// digits) still get a message about their size rather than a generic failure.
fn integer(
    loc: &Locator<'_>,
    value: &Value<'_>,
    key: &str,
    expected: &str,
) -> Result<i128, SweepError> {
    match value.get_ref() {
        DeValue::Integer(i) => i128::from_str_radix(i.as_str(), i.radix())
            .map_err(|_| loc.error(&value.span(), key, format!("{i} is far too large"))),
        _ => Err(type_error(loc, value, key, expected)),
    }
}

/// An integer in `min..=max`; `what` names it in messages ("games", "size").
fn ranged(
    loc: &Locator<'_>,
    value: &Value<'_>,
    key: &str,
    what: &str,
    min: u64,
    max: u64,
) -> Result<u64, SweepError> {
    let expected = if max < 1000 {
        format!("an integer in {min}..={max}")
    } else if min == 0 {
        "a whole number (0 or more)".to_string()
    } else {
        format!("a whole number ({min} or more)")
    };
    let v = integer(loc, value, key, &expected)?;
    if v < min as i128 || v > max as i128 {
        // Small ranges read best as a range; for counts the bound that was missed is
        // what matters.
        let message = if max < 1000 {
            format!("{what} {v} is outside {min}..={max}")
        } else if v < min as i128 {
            format!("{what} {v} must be at least {min}")
        } else {
            format!("{what} {v} is more than the limit of {max}")
        };
        return Err(loc.error(&value.span(), key, message));
    }
    Ok(v as u64)
}

/// The items of a list key. A single value stands for a list of one, because
/// `orders = "random"` is what people write; errors still point at that value.
fn items<'a, 'i>(
    loc: &Locator<'_>,
    value: &'a Value<'i>,
    key: &str,
) -> Result<Vec<&'a Value<'i>>, SweepError> {
    match value.get_ref() {
        DeValue::Array(a) if a.is_empty() => Err(loc.error(
            &value.span(),
            key,
            "the list is empty; leave the key out for the default, or give at least one entry",
        )),
        DeValue::Array(a) => Ok(a.iter().collect()),
        _ => Ok(vec![value]),
    }
}

/// Refuses the second occurrence of an entry, naming where the first one is. `shown` is
/// the canonical text, so `monte-carlo` and `monte-carlo:100,3` count as the same.
struct Seen<'l, 't> {
    loc: &'l Locator<'t>,
    key: String,
    what: &'static str,
    first: HashMap<String, (usize, String)>,
}

impl<'l, 't> Seen<'l, 't> {
    fn new(loc: &'l Locator<'t>, key: &str, what: &'static str) -> Self {
        Seen {
            loc,
            key: key.to_string(),
            what,
            first: HashMap::new(),
        }
    }

    fn check(
        &mut self,
        canonical: String,
        written: &str,
        span: &Range<usize>,
    ) -> Result<(), SweepError> {
        if let Some((at, first_written)) = self.first.get(&canonical) {
            let same = if first_written == written {
                String::new()
            } else {
                format!(" (the same as {first_written})")
            };
            return Err(self.loc.error(
                span,
                self.key.clone(),
                format!(
                    "{} {written}{same} is listed twice; the first is at {}",
                    self.what,
                    self.loc.at(*at)
                ),
            ));
        }
        self.first
            .insert(canonical, (span.start, written.to_string()));
        Ok(())
    }
}

fn sweep_name(loc: &Locator<'_>, value: &Value<'_>) -> Result<String, SweepError> {
    let name = string(loc, value, "name")?;
    let reason = if name.is_empty() {
        Some("it is empty")
    } else if name.len() > hammer_dataset::MAX_NAME_LEN {
        Some("it is longer than 100 characters")
    } else if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        Some("it must start with a letter")
    } else if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
    {
        Some(
            "only ASCII letters, digits, '_', '.' and '-' are allowed, so that it can name files too",
        )
    } else {
        None
    };
    match reason {
        Some(reason) => Err(loc.error(
            &value.span(),
            "name",
            format!("invalid sweep name \"{name}\": {reason}"),
        )),
        None => Ok(name.to_string()),
    }
}

fn seed_value(loc: &Locator<'_>, value: &Value<'_>) -> Result<u64, SweepError> {
    let v = integer(loc, value, "seed", "an integer seed (0 <= seed < 2^63)")?;
    if v < 0 {
        return Err(loc.error(
            &value.span(),
            "seed",
            format!("seed {v} is negative; it must be 0 <= seed < 2^63"),
        ));
    }
    if v > i64::MAX as i128 {
        return Err(loc.error(
            &value.span(),
            "seed",
            format!("seed {v} is not below 2^63; the dataset stores it in an Int64 column"),
        ));
    }
    Ok(v as u64)
}

/// Running totals over experiments, for the limits on the sweep as a whole.
struct Totals {
    rows: u128,
    units: u128,
}

fn experiment_list(
    loc: &Locator<'_>,
    value: &Value<'_>,
    files: &mut Files<'_>,
) -> Result<Vec<Experiment>, SweepError> {
    let tables = match value.get_ref() {
        DeValue::Array(a) => a,
        DeValue::Table(_) => {
            return Err(loc.error(
                &value.span(),
                "experiment",
                "write each experiment as [[experiment]] (an array of tables), not [experiment]",
            ));
        }
        _ => {
            return Err(type_error(
                loc,
                value,
                "experiment",
                "[[experiment]] tables",
            ));
        }
    };
    if tables.is_empty() {
        return Err(loc.error(
            &value.span(),
            "experiment",
            "a sweep needs at least one experiment",
        ));
    }
    if tables.len() > MAX_EXPERIMENTS {
        return Err(loc.error(
            &tables[MAX_EXPERIMENTS].span(),
            format!("experiment[{MAX_EXPERIMENTS}]"),
            format!("more than {MAX_EXPERIMENTS} experiments in one sweep; split the sweep"),
        ));
    }
    let mut names = Seen::new(loc, "", "experiment");
    let mut totals = Totals { rows: 0, units: 0 };
    let mut out = Vec::with_capacity(tables.len());
    for (index, table) in tables.iter().enumerate() {
        let path = format!("experiment[{index}]");
        let DeValue::Table(t) = table.get_ref() else {
            return Err(type_error(loc, table, &path, "a table"));
        };
        let e = experiment(loc, &path, table.span(), t, &mut totals, files)?;
        names.key = join(&path, "name");
        let name_span = t
            .get("name")
            .map(|v| v.span())
            .unwrap_or_else(|| table.span());
        names.check(e.name.clone(), &format!("\"{}\"", e.name), &name_span)?;
        out.push(e);
    }
    Ok(out)
}

/// A `"@FILE"` schedule: read relative to the sweep file and remembered for
/// substitution into the text.
fn schedule_file(
    loc: &Locator<'_>,
    value: &Value<'_>,
    key: &str,
    file: &str,
    files: &mut Files<'_>,
) -> Result<Schedule, SweepError> {
    let Some(base) = files.base else {
        return Err(loc.error(
            &value.span(),
            key,
            format!(
                "schedule file \"@{file}\" in sweep text that was not loaded from a file; load the sweep with its path so that the file can be read"
            ),
        ));
    };
    let path = base.join(file);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        loc.error(
            &value.span(),
            key,
            format!("cannot read the schedule file {}: {e}", path.display()),
        )
    })?;
    let schedule = Schedule::from_file_text(&text)
        .map_err(|e| loc.error(&value.span(), key, format!("{}: {e}", path.display())))?;
    files
        .substitutions
        .push((value.span(), schedule.to_string()));
    Ok(schedule)
}

/// The schedule axis: either `schedules` or `budgets`, never both.
enum Axis {
    Schedules(Vec<Schedule>),
    Budgets(Vec<u64>),
}

fn experiment(
    loc: &Locator<'_>,
    path: &str,
    span: Range<usize>,
    table: &DeTable<'_>,
    totals: &mut Totals,
    files: &mut Files<'_>,
) -> Result<Experiment, SweepError> {
    let mut name = None;
    let mut sizes = None;
    let mut games = None;
    let mut first_game = None;
    let mut orders = None;
    let mut schedules: Option<(Vec<Schedule>, Range<usize>)> = None;
    let mut budgets: Option<(Vec<u64>, Range<usize>)> = None;
    let mut prefixes = None;
    let mut tries = None;
    let mut unit_games = None;
    let mut kind: Option<(String, Range<usize>)> = None;
    let mut attempts: Option<(u32, Range<usize>)> = None;
    let mut cap: Option<(u64, Range<usize>)> = None;
    for (key, value) in in_file_order(table) {
        let k = join(path, key.get_ref());
        match key.get_ref().as_ref() {
            "name" => {
                let s = string(loc, value, &k)?;
                hammer_dataset::validate_experiment(s)
                    .map_err(|e| loc.error(&value.span(), &k, e.to_string()))?;
                name = Some(s.to_string());
            }
            "sizes" => {
                let mut seen = Seen::new(loc, &k, "size");
                let mut out = Vec::new();
                for v in items(loc, value, &k)? {
                    let n = ranged(loc, v, &k, "size", 1, MAX_N as u64)? as u8;
                    seen.check(n.to_string(), &n.to_string(), &v.span())?;
                    out.push(n);
                }
                sizes = Some(out);
            }
            "games" => {
                games = Some((
                    ranged(loc, value, &k, "games", 1, MAX_INDEX + 1)?,
                    value.span(),
                ))
            }
            "first_game" => first_game = Some(ranged(loc, value, &k, "first_game", 0, MAX_INDEX)?),
            "orders" => {
                let mut seen = Seen::new(loc, &k, "order");
                let mut out = Vec::new();
                for v in items(loc, value, &k)? {
                    let s = string(loc, v, &k)?;
                    let o: Order = s.parse().map_err(|e: hammer_solver::OrderError| {
                        loc.error(&v.span(), &k, e.to_string())
                    })?;
                    seen.check(o.to_string(), &format!("\"{s}\""), &v.span())?;
                    out.push(o);
                }
                orders = Some(out);
            }
            "schedules" => {
                let mut seen = Seen::new(loc, &k, "schedule");
                let mut out = Vec::new();
                for v in items(loc, value, &k)? {
                    let s = string(loc, v, &k)?;
                    let sch: Schedule = match s.strip_prefix('@') {
                        Some(file) => schedule_file(loc, v, &k, file, files)?,
                        None => s.parse().map_err(|e: hammer_solver::ScheduleError| {
                            loc.error(&v.span(), &k, e.to_string())
                        })?,
                    };
                    seen.check(sch.to_string(), &format!("\"{s}\""), &v.span())?;
                    out.push(sch);
                }
                schedules = Some((out, key.span()));
            }
            "budgets" => {
                let mut seen = Seen::new(loc, &k, "budget");
                let mut out = Vec::new();
                for v in items(loc, value, &k)? {
                    let b = ranged(loc, v, &k, "budget", 1, i64::MAX as u64)?;
                    seen.check(b.to_string(), &b.to_string(), &v.span())?;
                    out.push(b);
                }
                budgets = Some((out, key.span()));
            }
            "prefixes" => {
                let mut seen = Seen::new(loc, &k, "prefix");
                let mut out = Vec::new();
                for v in items(loc, value, &k)? {
                    let p = ranged(loc, v, &k, "prefix", 0, MAX_PREFIX as u64)? as u32;
                    seen.check(p.to_string(), &p.to_string(), &v.span())?;
                    out.push(p);
                }
                prefixes = Some(out);
            }
            "tries" => {
                tries = Some((
                    ranged(loc, value, &k, "tries", 1, MAX_CONFIGS as u64)? as u32,
                    key.span(),
                ))
            }
            "kind" => {
                let s = string(loc, value, &k)?;
                if s != "solve" && s != "run-time" {
                    return Err(loc.error(
                        &value.span(),
                        &k,
                        format!("unknown experiment kind \"{s}\"; expected \"solve\" (the default) or \"run-time\""),
                    ));
                }
                kind = Some((s.to_string(), key.span()));
            }
            "attempts" => {
                attempts = Some((
                    ranged(loc, value, &k, "attempts", 1, MAX_CONFIGS as u64)? as u32,
                    key.span(),
                ))
            }
            "cap" => {
                cap = Some((
                    ranged(loc, value, &k, "cap", 1, i64::MAX as u64)?,
                    key.span(),
                ))
            }
            "unit_games" => {
                unit_games = Some((
                    ranged(loc, value, &k, "unit_games", 1, MAX_INDEX + 1)?,
                    value.span(),
                ))
            }
            other => return Err(unknown_key(loc, key, path, other, EXPERIMENT_KEYS)),
        }
    }

    let missing =
        |key: &str, why: &str| loc.error(&span, join(path, key), format!("missing key: {why}"));
    let name = name.ok_or_else(|| {
        missing(
            "name",
            "every experiment needs a name (the dataset's `experiment` partition)",
        )
    })?;
    let sizes = sizes.ok_or_else(|| {
        missing(
            "sizes",
            "every experiment needs its board sizes, such as sizes = [6]",
        )
    })?;
    let (games, games_span) = games.ok_or_else(|| {
        missing(
            "games",
            "every experiment needs its number of games per size",
        )
    })?;
    let first_game = first_game.unwrap_or(0);
    if first_game as u128 + games as u128 - 1 > MAX_INDEX as u128 {
        return Err(loc.error(
            &games_span,
            join(path, "games"),
            format!(
                "games {first_game}..{} go past the largest game index {MAX_INDEX} (2^56 - 1)",
                first_game as u128 + games as u128
            ),
        ));
    }
    // A run-time experiment is a budget experiment in disguise: `attempts` independent
    // tries of one attempt capped at `cap`, with the random order by default. It is its
    // own kind so that the file says what the rows are for (the tuner), and so that the
    // keys that would change that meaning are refused rather than combined.
    let run_time = matches!(&kind, Some((k, _)) if k == "run-time");
    let experiment_kind = if run_time {
        let kind_span = kind.as_ref().map_or(span.clone(), |(_, s)| s.clone());
        for (present, key) in [
            (schedules.as_ref().map(|(_, s)| s.clone()), "schedules"),
            (budgets.as_ref().map(|(_, s)| s.clone()), "budgets"),
            (tries.as_ref().map(|(_, s)| s.clone()), "tries"),
        ] {
            if let Some(at) = present {
                return Err(loc.error(
                    &at,
                    join(path, key),
                    format!(
                        "a run-time experiment (kind = \"run-time\" at {}) sets its own attempts and cap; `{key}` cannot be used with it",
                        loc.at(kind_span.start)
                    ),
                ));
            }
        }
        let (attempts, _) = attempts.clone().ok_or_else(|| {
            missing(
                "attempts",
                "a run-time experiment needs the number of independent attempts per game, such as attempts = 20",
            )
        })?;
        let (cap, cap_span) = cap.clone().ok_or_else(|| {
            missing(
                "cap",
                "a run-time experiment needs the expansion cap of each attempt, such as cap = 10000",
            )
        })?;
        budgets = Some((vec![cap], cap_span.clone()));
        tries = Some((attempts, cap_span));
        if orders.is_none() {
            orders = Some(vec![Order::Random]);
        }
        ExperimentKind::RunTime { attempts, cap }
    } else {
        for (present, key) in [
            (attempts.as_ref().map(|(_, s)| s.clone()), "attempts"),
            (cap.as_ref().map(|(_, s)| s.clone()), "cap"),
        ] {
            if let Some(at) = present {
                return Err(loc.error(
                    &at,
                    join(path, key),
                    format!("`{key}` belongs to run-time experiments; add kind = \"run-time\" or use `budgets` and `tries`"),
                ));
            }
        }
        ExperimentKind::Solve
    };
    let orders = orders.unwrap_or_else(|| vec![Order::Standard]);
    let axis = match (schedules, budgets) {
        (Some((_, s_span)), Some((_, b_span))) => {
            let (span, key, other) = if b_span.start > s_span.start {
                (b_span, "budgets", s_span)
            } else {
                (s_span, "schedules", b_span)
            };
            let other_key = if key == "budgets" {
                "schedules"
            } else {
                "budgets"
            };
            return Err(loc.error(
                &span,
                join(path, key),
                format!(
                    "`budgets` and `schedules` cannot be combined (`{other_key}` is at {}): each budget B already is the schedule \"B\", one attempt of B expansions; put other schedules in a separate experiment",
                    loc.at(other.start)
                ),
            ));
        }
        (Some((s, _)), None) => Axis::Schedules(s),
        (None, Some((b, _))) => Axis::Budgets(b),
        (None, None) => Axis::Schedules(vec![Schedule::Exact]),
    };
    let prefixes = prefixes.unwrap_or_else(|| vec![0]);
    let tries = tries.map_or(1, |(t, _)| t);

    let axis_len = match &axis {
        Axis::Schedules(s) => s.len(),
        Axis::Budgets(b) => b.len(),
    };
    let count = orders.len() as u128 * axis_len as u128 * prefixes.len() as u128 * tries as u128;
    if count > MAX_CONFIGS as u128 {
        return Err(loc.error(
            &span,
            path,
            format!(
                "{count} configurations ({} orders x {axis_len} {} x {} prefixes x {tries} tries), more than {MAX_CONFIGS}; split the experiment",
                orders.len(),
                if matches!(axis, Axis::Budgets(_)) { "budgets" } else { "schedules" },
                prefixes.len()
            ),
        ));
    }

    let mut configs = Vec::with_capacity(count as usize);
    for &order in &orders {
        let settings: Vec<(Schedule, u64)> = match &axis {
            Axis::Schedules(s) => s.iter().map(|s| (s.clone(), 0)).collect(),
            Axis::Budgets(b) => b
                .iter()
                .map(|&b| {
                    (
                        Schedule::List {
                            phases: vec![(1, b)],
                            then_exact: false,
                        },
                        b,
                    )
                })
                .collect(),
        };
        for (schedule, budget) in settings {
            for &prefix in &prefixes {
                for trial in 0..tries {
                    configs.push(RunConfig::new(
                        order,
                        schedule.clone(),
                        prefix,
                        budget,
                        trial,
                    ));
                }
            }
        }
    }

    let rows = configs.len() as u128 * sizes.len() as u128 * games as u128;
    totals.rows += rows;
    if totals.rows > MAX_ROWS as u128 {
        return Err(loc.error(
            &games_span,
            join(path, "games"),
            format!(
                "this experiment has {rows} result rows ({} configurations x {} sizes x {games} games), which takes the sweep to {} rows, more than the limit of {MAX_ROWS}",
                configs.len(),
                sizes.len(),
                totals.rows
            ),
        ));
    }

    let mut units = 0u128;
    for &n in &sizes {
        for c in &configs {
            let size = unit_games
                .as_ref()
                .map_or_else(|| default_unit_games(n, c), |(u, _)| *u);
            units += series_units(games, size) as u128;
        }
    }
    totals.units += units;
    if totals.units > MAX_UNITS as u128 {
        let at = unit_games.as_ref().map_or(span.clone(), |(_, s)| s.clone());
        return Err(loc.error(
            &at,
            join(path, "unit_games"),
            format!(
                "this experiment has {units} work units, which takes the sweep to {}, more than {MAX_UNITS}; give a larger unit_games",
                totals.units
            ),
        ));
    }

    Ok(Experiment {
        name,
        kind: experiment_kind,
        sizes,
        games,
        first_game,
        unit_games: unit_games.map(|(u, _)| u),
        configs,
    })
}
