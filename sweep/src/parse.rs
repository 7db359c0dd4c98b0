//! From TOML text to a validated [`Sweep`].
//!
//! The document is walked as toml's spanned tree (`DeTable`) rather than deserialized
//! with serde: every key and value keeps its byte span, so each check below, semantic
//! ones included, can point at the exact line and column and name the key path, and
//! the messages are ours rather than serde's.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::{Path, PathBuf};

use hammer_solver::Schedule;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::continuation::Continuation;
use crate::error::{Locator, SweepError};
use crate::{Experiment, MAX_EXPERIMENTS, Sweep, SweepFile};

pub(crate) type Value<'i> = Spanned<DeValue<'i>>;

const TOP_KEYS: &[&str] = &["name", "seed", "solvers", "experiment"];

pub(crate) fn parse(text: &str, origin: &str) -> Result<Sweep, SweepError> {
    parse_inner(text, origin, &mut Files::new(None, Vec::new()))
}

/// Where schedule files and datasets are read from, and what was read so far: the byte
/// span of each `"@FILE"` string (or `unknown_games` table) and the TOML value that
/// replaces it.
pub(crate) struct Files<'a> {
    pub(crate) base: Option<&'a Path>,
    substitutions: Vec<(Range<usize>, String)>,
    /// The sweep's seed, read before the experiments: a continued dataset must be of the
    /// same seed.
    pub(crate) seed: u64,
    /// The continuations that name a dataset, in file order: with their games when the
    /// caller has read them, else found by this parse.
    continuations: Vec<Continuation>,
    /// The `[solvers.NAME]` declarations, read before the experiments that name them.
    pub(crate) solvers: BTreeMap<String, crate::solvers::Declared>,
}

impl<'a> Files<'a> {
    fn new(base: Option<&'a Path>, continuations: Vec<Continuation>) -> Self {
        Files {
            base,
            substitutions: Vec::new(),
            seed: 0,
            continuations,
            solvers: BTreeMap::new(),
        }
    }

    /// Replaces the value at `span` by `value` (TOML text) in the self-contained text.
    pub(crate) fn substitute(&mut self, span: Range<usize>, value: String) {
        self.substitutions.push((span, value));
    }

    /// The games of `found` if the caller has read them; else `None`, and `found` is
    /// listed for the caller to read.
    pub(crate) fn continued(&mut self, found: Continuation) -> Option<BTreeMap<String, Vec<u64>>> {
        match self.continuations.iter().find(|c| c.offset == found.offset) {
            Some(read) => read.games.clone(),
            None => {
                self.continuations.push(found);
                None
            }
        }
    }
}

/// Reads a sweep file's text: `"@FILE"` schedules are read from files relative to
/// `base` and written into the text, and the sweep is the parse of that self-contained
/// text, unless a continuation's games are still to be read. Workers receive only the
/// text, so the text, and with it the digest, must carry the schedule itself: a schedule
/// file edited later is then a different sweep.
pub(crate) fn read_file(
    text: String,
    origin: String,
    base: PathBuf,
) -> Result<SweepFile, SweepError> {
    let mut files = Files::new(Some(&base), Vec::new());
    let sweep = parse_inner(&text, &origin, &mut files)?;
    let (ready, continuations) = if files.continuations.is_empty() {
        (Some(self_contained(sweep, &origin, files)?), Vec::new())
    } else {
        (None, files.continuations)
    };
    Ok(SweepFile {
        text,
        origin,
        base,
        continuations,
        ready,
    })
}

/// Parses a sweep file again with its continuations' games, which the caller read.
pub(crate) fn finish(file: SweepFile) -> Result<Sweep, SweepError> {
    if let Some(sweep) = file.ready {
        return Ok(sweep);
    }
    if let Some(unread) = file.continuations.iter().find(|c| c.games.is_none()) {
        return Err(unread.unread());
    }
    let mut files = Files::new(Some(&file.base), file.continuations);
    let sweep = parse_inner(&file.text, &file.origin, &mut files)?;
    self_contained(sweep, &file.origin, files)
}

/// `sweep` with what `files` read written into its text, and parsed again.
fn self_contained(sweep: Sweep, origin: &str, mut files: Files<'_>) -> Result<Sweep, SweepError> {
    if files.substitutions.is_empty() {
        return Ok(sweep);
    }
    let text = &sweep.text;
    let mut resolved = String::with_capacity(text.len());
    let mut at = 0;
    files.substitutions.sort_by_key(|(span, _)| span.start);
    for (span, value) in &files.substitutions {
        resolved.push_str(&text[at..span.start]);
        resolved.push_str(value);
        at = span.end;
    }
    resolved.push_str(&text[at..]);
    parse_inner(&resolved, origin, &mut Files::new(None, Vec::new()))
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
            "solvers" => files.solvers = crate::solvers::read(&loc, value)?,
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
    files.seed = seed;
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
pub(crate) fn in_file_order<'a, 'i>(
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

pub(crate) fn join(path: &str, key: &str) -> String {
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

pub(crate) fn unknown_key(
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

pub(crate) fn type_error(
    loc: &Locator<'_>,
    value: &Value<'_>,
    key: &str,
    expected: &str,
) -> SweepError {
    loc.error(
        &value.span(),
        key,
        format!("expected {expected}, found {}", describe(value.get_ref())),
    )
}

pub(crate) fn string<'a>(
    loc: &Locator<'_>,
    value: &'a Value<'_>,
    key: &str,
) -> Result<&'a str, SweepError> {
    match value.get_ref() {
        DeValue::String(s) => Ok(s.as_ref()),
        _ => Err(type_error(loc, value, key, "a string")),
    }
}

/// Any TOML integer, as i128 so that values beyond i64 (which the parser hands over as
/// digits) still get a message about their size rather than a generic failure.
pub(crate) fn integer(
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
pub(crate) fn ranged(
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
pub(crate) fn items<'a, 'i>(
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
pub(crate) struct Seen<'l, 't> {
    loc: &'l Locator<'t>,
    key: String,
    what: String,
    first: HashMap<String, (usize, String)>,
}

impl<'l, 't> Seen<'l, 't> {
    pub(crate) fn new(loc: &'l Locator<'t>, key: &str, what: &str) -> Self {
        Seen {
            loc,
            key: key.to_string(),
            what: what.to_string(),
            first: HashMap::new(),
        }
    }

    pub(crate) fn check(
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
pub(crate) struct Totals {
    pub(crate) rows: u128,
    pub(crate) units: u128,
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
        let e = crate::experiment::experiment(loc, &path, table.span(), t, &mut totals, files)?;
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
pub(crate) fn schedule_file(
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
    // Schedule text is ASCII letters, digits and `x , : . _`: no escaping needed.
    files.substitute(value.span(), format!("\"{schedule}\""));
    Ok(schedule)
}
