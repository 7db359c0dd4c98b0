//! Reading one `[[experiment]]` table's keys, each with its span, checked one by one;
//! combining them is the job of the stages in the parent module.

use std::ops::Range;
use std::time::Duration;

use hammer_family::{
    DEFAULT_FAMILY, FamilyRef, ParamKind, ParamSpec, ParamValue, Search, Shuffle, families,
};
use hammer_proto::error_chain;
use hammer_puzzle::seeded::MAX_INDEX;
use hammer_solver::{Limits, Order, OrderSpec, Schedule};
use toml::de::{DeTable, DeValue};

use crate::continuation::{self, Listing};
use crate::error::Locator;
use crate::parse::{
    Files, Seen, Value, in_file_order, items, join, ranged, schedule_file, string, type_error,
    unknown_key,
};
use crate::{MAX_CONFIGS, MAX_PREFIX, SweepError};

/// The longest `max_seconds`: a week.
const MAX_SECONDS: u64 = 7 * 24 * 3600;
/// The most members one gang may have.
const MAX_GANG: u64 = 1024;
/// The largest `max_memo_mb`: 1 TiB.
const MAX_MEMO_MB: u64 = 1 << 20;

/// The keys every experiment may have, whatever its puzzle; the family's parameter keys
/// come on top (`sizes` for Martello).
const COMMON_KEYS: &[&str] = &[
    "name",
    "puzzle",
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
    "max_expansions",
    "max_seconds",
    "max_memo_mb",
    "unknown_games",
    "gang",
];

/// A value with the span it was read from.
pub(super) type At<T> = (T, Range<usize>);

/// An experiment's keys as read, before they are combined.
#[derive(Default)]
pub(super) struct Keys {
    pub(super) name: Option<String>,
    /// Per family parameter (in the family's order): its values in file order, if given.
    pub(super) params: Vec<Option<At<Vec<ParamValue>>>>,
    pub(super) games: Option<At<u64>>,
    pub(super) first_game: Option<u64>,
    pub(super) orders: Option<At<Vec<Order>>>,
    pub(super) schedules: Option<At<Vec<Schedule>>>,
    pub(super) budgets: Option<At<Vec<u64>>>,
    pub(super) prefixes: Option<Vec<u32>>,
    pub(super) tries: Option<At<u32>>,
    pub(super) unit_games: Option<At<u64>>,
    pub(super) kind: Option<At<String>>,
    pub(super) attempts: Option<At<u32>>,
    pub(super) cap: Option<At<u64>>,
    /// `max_expansions`, `max_seconds` and `max_memo_mb`: every configuration's limits.
    pub(super) limits: Limits,
    /// `unknown_games`: the games another experiment left unknown.
    pub(super) unknown: Option<Listing>,
    /// `gang`: the workers that search each game together.
    pub(super) gang: Option<At<u32>>,
    /// `solver`: the declared program an outside-search family runs.
    pub(super) solver: Option<At<String>>,
    /// `limits`: what each of the program's runs may use.
    pub(super) run_limits: hammer_exec::Limits,
    /// `instances.shuffle`: a seeded shuffle of the instance per attempt.
    pub(super) shuffle: Shuffle,
}

/// The keys of an experiment whose family runs an outside program.
const PROGRAM_KEYS: &[&str] = &["solver", "instances", "limits"];

/// The generators `instances = { generator = ... }` knows.
const GENERATORS: &[&str] = &["ksat"];

/// The `puzzle` key, read before the others because it decides which keys are known.
pub(super) fn read_family(
    loc: &Locator<'_>,
    path: &str,
    table: &DeTable<'_>,
) -> Result<FamilyRef, SweepError> {
    if let Some(solver) = table.get("solver") {
        let Some(sat) = families().iter().find(|f| f.search() == Search::Program) else {
            return Err(loc.error(
                &solver.span(),
                join(path, "solver"),
                "no puzzle family runs outside programs",
            ));
        };
        let sat = FamilyRef(sat.as_ref());
        return match table.get("puzzle") {
            None => Ok(sat),
            Some(value) if string(loc, value, &join(path, "puzzle"))? == sat.name() => Ok(sat),
            Some(_) => Err(loc.error(
                &solver.span(),
                join(path, "solver"),
                format!(
                    "`solver` runs an outside program on puzzle {}'s instances; the puzzle this experiment names is searched by hammer itself: leave out `puzzle` or `solver`",
                    sat.name()
                ),
            )),
        };
    }
    let Some(value) = table.get("puzzle") else {
        return FamilyRef::named(DEFAULT_FAMILY)
            .map_err(|e| loc.error(&(0..0), join(path, "puzzle"), e.to_string()));
    };
    let k = join(path, "puzzle");
    let name = string(loc, value, &k)?;
    FamilyRef::named(name).map_err(|e| loc.error(&value.span(), &k, e.to_string()))
}

pub(super) fn read_keys(
    loc: &Locator<'_>,
    path: &str,
    table: &DeTable<'_>,
    family: FamilyRef,
    files: &mut Files<'_>,
) -> Result<Keys, SweepError> {
    let specs = family.params();
    let mut keys = Keys {
        params: vec![None; specs.len()],
        ..Keys::default()
    };
    for (key, value) in in_file_order(table) {
        let k = join(path, key.get_ref());
        let span = key.span();
        match key.get_ref().as_ref() {
            "puzzle" => {}
            "name" => {
                let s = string(loc, value, &k)?;
                hammer_dataset::validate_experiment(s)
                    .map_err(|e| loc.error(&value.span(), &k, e.to_string()))?;
                keys.name = Some(s.to_string());
            }
            "games" => {
                let games = ranged(loc, value, &k, "games", 1, MAX_INDEX + 1)?;
                keys.games = Some((games, value.span()));
            }
            "first_game" => {
                keys.first_game = Some(ranged(loc, value, &k, "first_game", 0, MAX_INDEX)?)
            }
            "orders" => keys.orders = Some((orders(loc, value, &k, family)?, span)),
            "schedules" => keys.schedules = Some((schedules(loc, value, &k, files)?, span)),
            "budgets" => keys.budgets = Some((budgets(loc, value, &k)?, span)),
            "prefixes" => keys.prefixes = Some(prefixes(loc, value, &k)?),
            "tries" => {
                let tries = ranged(loc, value, &k, "tries", 1, MAX_CONFIGS as u64)? as u32;
                keys.tries = Some((tries, span));
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
                keys.kind = Some((s.to_string(), span));
            }
            "attempts" => {
                let a = ranged(loc, value, &k, "attempts", 1, MAX_CONFIGS as u64)? as u32;
                keys.attempts = Some((a, span));
            }
            "cap" => keys.cap = Some((ranged(loc, value, &k, "cap", 1, i64::MAX as u64)?, span)),
            "max_expansions" => {
                let max = ranged(loc, value, &k, "max_expansions", 1, i64::MAX as u64)?;
                keys.limits.max_expansions = Some(max);
            }
            "max_seconds" => {
                let secs = ranged(loc, value, &k, "max_seconds", 1, MAX_SECONDS)?;
                keys.limits.max_time = Some(Duration::from_secs(secs));
            }
            "unknown_games" => keys.unknown = Some(continuation::read(loc, value, &k, files)?),
            "gang" => {
                let members = ranged(loc, value, &k, "gang", 2, MAX_GANG)? as u32;
                keys.gang = Some((members, span));
            }
            "split" | "split_mode" => {
                return Err(loc.error(
                    &span,
                    &k,
                    format!(
                        "`{key}` is retired: split parts are gone; use `gang = K` to search each game with a gang of K workers, or neither to search it whole",
                        key = key.get_ref()
                    ),
                ));
            }
            "max_memo_mb" => {
                let mb = ranged(loc, value, &k, "max_memo_mb", 1, MAX_MEMO_MB)?;
                keys.limits.memo_bytes = Some(mb << 20);
            }
            "unit_games" => {
                let u = ranged(loc, value, &k, "unit_games", 1, MAX_INDEX + 1)?;
                keys.unit_games = Some((u, value.span()));
            }
            "solver" if family.search() == Search::Program => {
                keys.solver = Some((string(loc, value, &k)?.to_string(), value.span()));
            }
            "instances" if family.search() == Search::Program => {
                instances(loc, value, &k, specs, &mut keys)?;
            }
            "limits" if family.search() == Search::Program => {
                keys.run_limits = run_limits(loc, value, &k)?;
            }
            other => match specs.iter().position(|s| s.sweep_key == other) {
                Some(i) => keys.params[i] = Some((param_values(loc, value, &k, &specs[i])?, span)),
                None => {
                    let mut known: Vec<&str> = vec!["name", "puzzle"];
                    known.extend(specs.iter().map(|s| s.sweep_key));
                    known.extend(&COMMON_KEYS[2..]);
                    if family.search() == Search::Program {
                        known.extend(PROGRAM_KEYS);
                    }
                    return Err(unknown_key(loc, key, path, other, &known));
                }
            },
        }
    }
    Ok(keys)
}

/// `instances = { generator = "ksat", k = 3, vars = [...], ratio = [...] }`: the
/// generator and its parameters, which are the family's.
fn instances(
    loc: &Locator<'_>,
    value: &Value<'_>,
    k: &str,
    specs: &[ParamSpec],
    keys: &mut Keys,
) -> Result<(), SweepError> {
    let DeValue::Table(table) = value.get_ref() else {
        return Err(type_error(
            loc,
            value,
            k,
            "a table such as { generator = \"ksat\", vars = [50, 100] }",
        ));
    };
    match table.get("generator") {
        None => {
            return Err(loc.error(
                &value.span(),
                join(k, "generator"),
                format!(
                    "missing key: which generator makes the instances ({})",
                    GENERATORS.join(", ")
                ),
            ));
        }
        Some(g) => {
            let name = string(loc, g, &join(k, "generator"))?;
            if !GENERATORS.contains(&name) {
                return Err(loc.error(
                    &g.span(),
                    join(k, "generator"),
                    format!(
                        "unknown generator \"{name}\"; expected one of {}",
                        GENERATORS.join(", ")
                    ),
                ));
            }
        }
    }
    for (key, v) in in_file_order(table) {
        let name = key.get_ref().as_ref();
        let kk = join(k, name);
        if name == "generator" {
            continue;
        }
        if name == "shuffle" {
            let word = string(loc, v, &kk)?;
            keys.shuffle = Shuffle::of_name(word).ok_or_else(|| {
                loc.error(
                    &v.span(),
                    &kk,
                    format!(
                        "unknown shuffle \"{word}\"; expected one of {}",
                        Shuffle::NAMES.join(", ")
                    ),
                )
            })?;
            continue;
        }
        match specs.iter().position(|s| s.sweep_key == name) {
            Some(i) => keys.params[i] = Some((param_values(loc, v, &kk, &specs[i])?, key.span())),
            None => {
                let mut known = vec!["generator", "shuffle"];
                known.extend(specs.iter().map(|s| s.sweep_key));
                return Err(unknown_key(loc, key, k, name, &known));
            }
        }
    }
    Ok(())
}

/// The longest `limits.cpu_seconds` or `wall_seconds`: a day.
const MAX_RUN_SECONDS: u64 = 24 * 3600;
/// The largest `limits.memory_mb` or `output_mb`: 1 TiB.
const MAX_RUN_MB: u64 = 1 << 20;

/// `limits = { cpu_seconds, wall_seconds, memory_mb, output_mb }`: each run's limits.
fn run_limits(
    loc: &Locator<'_>,
    value: &Value<'_>,
    k: &str,
) -> Result<hammer_exec::Limits, SweepError> {
    let DeValue::Table(table) = value.get_ref() else {
        return Err(type_error(
            loc,
            value,
            k,
            "a table such as { cpu_seconds = 20, memory_mb = 1024 }",
        ));
    };
    let mut limits = hammer_exec::Limits::default();
    for (key, v) in in_file_order(table) {
        let name = key.get_ref().as_ref();
        let kk = join(k, name);
        match name {
            "cpu_seconds" => {
                let s = ranged(loc, v, &kk, name, 1, MAX_RUN_SECONDS)?;
                limits.cpu = Some(Duration::from_secs(s));
            }
            "wall_seconds" => {
                let s = ranged(loc, v, &kk, name, 1, MAX_RUN_SECONDS)?;
                limits.wall = Some(Duration::from_secs(s));
            }
            "memory_mb" => limits.memory = Some(ranged(loc, v, &kk, name, 1, MAX_RUN_MB)? << 20),
            "output_mb" => limits.output = ranged(loc, v, &kk, name, 1, MAX_RUN_MB)? << 20,
            other => {
                let known = ["cpu_seconds", "wall_seconds", "memory_mb", "output_mb"];
                return Err(unknown_key(loc, key, k, other, &known));
            }
        }
    }
    Ok(limits)
}

/// The values of one family parameter, checked against its kind, without duplicates.
fn param_values(
    loc: &Locator<'_>,
    value: &Value<'_>,
    k: &str,
    spec: &ParamSpec,
) -> Result<Vec<ParamValue>, SweepError> {
    // Values are named as `n = 9` in messages: the parameter's own key.
    let what = format!("{} =", spec.key);
    let mut seen = Seen::new(loc, k, &what);
    let mut out = Vec::new();
    for v in items(loc, value, k)? {
        let parsed = match spec.kind {
            ParamKind::Int { min, max } => {
                let (lo, hi) = (min.max(0) as u64, max.max(0) as u64);
                ParamValue::Int(ranged(loc, v, k, &what, lo, hi)? as i64)
            }
            ParamKind::Bool => match v.get_ref() {
                DeValue::Boolean(b) => ParamValue::Bool(*b),
                _ => return Err(type_error(loc, v, k, "true or false")),
            },
            ParamKind::Decimal { .. } => {
                let number = match v.get_ref() {
                    DeValue::Float(f) => f.as_str().replace('_', "").parse::<f64>().ok(),
                    DeValue::Integer(i) => i.as_str().replace('_', "").parse::<f64>().ok(),
                    _ => return Err(type_error(loc, v, k, "a number")),
                };
                let text = ParamValue::decimal(number.unwrap_or(f64::NAN));
                text.check(spec)
                    .map_err(|reason| loc.error(&v.span(), k, reason))?;
                text
            }
            ParamKind::Choice(_) | ParamKind::Text => {
                let text = ParamValue::Text(string(loc, v, k)?.to_string());
                text.check(spec)
                    .map_err(|reason| loc.error(&v.span(), k, reason))?;
                text
            }
        };
        let shown = match &parsed {
            ParamValue::Text(t) => format!("\"{t}\""),
            other => other.to_string(),
        };
        seen.check(parsed.to_string(), &shown, &v.span())?;
        out.push(parsed);
    }
    Ok(out)
}

fn orders(
    loc: &Locator<'_>,
    value: &Value<'_>,
    k: &str,
    family: FamilyRef,
) -> Result<Vec<Order>, SweepError> {
    let mut seen = Seen::new(loc, k, "order");
    let mut out = Vec::new();
    for v in items(loc, value, k)? {
        let s = string(loc, v, k)?;
        // Checked before the file is read: no knowledge base can serve another family.
        let learning = family.learning();
        if s.trim_start().starts_with("learned:") && learning.is_none() {
            return Err(loc.error(
                &v.span(),
                k,
                format!(
                    "\"{s}\": the learned order ranks moves by their transitions, and puzzle {} has none to learn from (puzzles that have them: {}); use standard, most-options, monte-carlo or random",
                    family.name(),
                    hammer_family::learning_names()
                ),
            ));
        }
        let o = s
            .parse::<OrderSpec>()
            .and_then(|spec| spec.load())
            .map_err(|e| loc.error(&v.span(), k, error_chain(&e)))?;
        // A knowledge base learned with other features cannot order this family's moves.
        if let Some(learning) = learning {
            o.check_learned(learning.feature_version(), None)
                .map_err(|e| loc.error(&v.span(), k, error_chain(&e)))?;
        }
        seen.check(o.to_string(), &format!("\"{s}\""), &v.span())?;
        out.push(o);
    }
    Ok(out)
}

fn schedules(
    loc: &Locator<'_>,
    value: &Value<'_>,
    k: &str,
    files: &mut Files<'_>,
) -> Result<Vec<Schedule>, SweepError> {
    let mut seen = Seen::new(loc, k, "schedule");
    let mut out = Vec::new();
    for v in items(loc, value, k)? {
        let s = string(loc, v, k)?;
        let sch: Schedule = match s.strip_prefix('@') {
            Some(file) => schedule_file(loc, v, k, file, files)?,
            None => s.parse().map_err(|e: hammer_solver::ScheduleError| {
                loc.error(&v.span(), k, e.to_string())
            })?,
        };
        seen.check(sch.to_string(), &format!("\"{s}\""), &v.span())?;
        out.push(sch);
    }
    Ok(out)
}

fn budgets(loc: &Locator<'_>, value: &Value<'_>, k: &str) -> Result<Vec<u64>, SweepError> {
    let mut seen = Seen::new(loc, k, "budget");
    let mut out = Vec::new();
    for v in items(loc, value, k)? {
        let b = ranged(loc, v, k, "budget", 1, i64::MAX as u64)?;
        seen.check(b.to_string(), &b.to_string(), &v.span())?;
        out.push(b);
    }
    Ok(out)
}

fn prefixes(loc: &Locator<'_>, value: &Value<'_>, k: &str) -> Result<Vec<u32>, SweepError> {
    let mut seen = Seen::new(loc, k, "prefix");
    let mut out = Vec::new();
    for v in items(loc, value, k)? {
        let p = ranged(loc, v, k, "prefix", 0, MAX_PREFIX as u64)? as u32;
        seen.check(p.to_string(), &p.to_string(), &v.span())?;
        out.push(p);
    }
    Ok(out)
}
