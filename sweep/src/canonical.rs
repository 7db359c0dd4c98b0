//! Canonical text: configuration ids and the explicit form of a sweep.

use std::fmt::Write as _;

use hammer_solver::{Limits, Order, OrderSpec, Schedule};

use crate::{RunConfig, Sweep};

/// A string that is not the canonical id of any configuration.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad configuration id '{id}': {reason}")]
pub struct ConfigIdError {
    /// The id as given.
    pub id: String,
    /// What is wrong with it.
    pub reason: String,
}

/// `order=O;schedule=S[;budget=B][;max_expansions=E][;max_seconds=T][;max_memo_mb=M];prefix=P;trial=T`.
///
/// `;` and `=` appear in no order or schedule name, so the id splits back unambiguously;
/// the budget and the limits are written only when set, so that ids of configurations
/// without them stay short and stay what they were before limits existed.
pub(crate) fn config_id(
    order: &Order,
    schedule: &Schedule,
    prefix: u32,
    budget: u64,
    trial: u32,
    limits: &Limits,
) -> String {
    let mut id = format!("order={order};schedule={schedule}");
    if budget > 0 {
        let _ = write!(id, ";budget={budget}");
    }
    for (key, value) in limit_values(limits) {
        let _ = write!(id, ";{key}={value}");
    }
    let _ = write!(id, ";prefix={prefix};trial={trial}");
    id
}

/// The limits that are set, as (sweep key, whole number) in canonical order.
pub(crate) fn limit_values(limits: &Limits) -> Vec<(&'static str, u64)> {
    let mut out = Vec::new();
    if let Some(e) = limits.max_expansions {
        out.push(("max_expansions", e));
    }
    if let Some(t) = limits.max_time {
        out.push(("max_seconds", t.as_secs()));
    }
    if let Some(b) = limits.memo_bytes {
        out.push(("max_memo_mb", b >> 20));
    }
    out
}

pub(crate) fn parse_config_id(id: &str) -> Result<RunConfig, ConfigIdError> {
    let err = |reason: String| ConfigIdError {
        id: id.to_string(),
        reason,
    };
    let mut order = None;
    let mut schedule = None;
    let mut budget = 0u64;
    let mut prefix = None;
    let mut trial = None;
    let mut limits = Limits::default();
    let whole = |key: &str, value: &str| {
        value
            .parse::<u64>()
            .map_err(|_| err(format!("{key} '{value}' is not a whole number")))
    };
    for part in id.split(';') {
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| err(format!("'{part}' is not KEY=VALUE")))?;
        match key {
            "order" => {
                let spec = value.parse::<OrderSpec>();
                let loaded = spec.and_then(|spec| spec.load());
                order = Some(loaded.map_err(|e| err(hammer_proto::error_chain(&e)))?)
            }
            "schedule" => {
                schedule = Some(value.parse::<Schedule>().map_err(|e| err(e.to_string()))?)
            }
            "budget" => {
                budget = value
                    .parse()
                    .map_err(|_| err(format!("budget '{value}' is not a whole number")))?
            }
            "prefix" => {
                prefix = Some(
                    value
                        .parse()
                        .map_err(|_| err(format!("prefix '{value}' is not a whole number")))?,
                )
            }
            "trial" => {
                trial = Some(
                    value
                        .parse()
                        .map_err(|_| err(format!("trial '{value}' is not a whole number")))?,
                )
            }
            "max_expansions" => limits.max_expansions = Some(whole(key, value)?),
            "max_seconds" => {
                limits.max_time = Some(std::time::Duration::from_secs(whole(key, value)?))
            }
            "max_memo_mb" => limits.memo_bytes = Some(whole(key, value)?.saturating_mul(1 << 20)),
            other => return Err(err(format!("unknown key '{other}'"))),
        }
    }
    let (Some(order), Some(schedule), Some(prefix), Some(trial)) = (order, schedule, prefix, trial)
    else {
        return Err(err("it needs order, schedule, prefix and trial".to_string()));
    };
    if budget > 0 {
        let single = Schedule::List {
            phases: vec![(1, budget)],
            then_exact: false,
        };
        if schedule != single {
            return Err(err(format!(
                "a budget of {budget} goes with schedule={budget}, not schedule={schedule}"
            )));
        }
    }
    let config = RunConfig::new(order, schedule, prefix, budget, trial).with_limits(limits);
    if config.id != id {
        return Err(err(format!(
            "it is not canonical; the canonical form is '{}'",
            config.id
        )));
    }
    Ok(config)
}

/// TOML basic string; names are restricted to safe characters already, but orders and
/// schedules come from other crates' `Display`, so escape rather than assume.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The distinct values of one axis in first-seen order, which is file order because the
/// configurations are a cross product built in file order.
fn axis<T: PartialEq + Clone>(values: impl Iterator<Item = T>) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for v in values {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

fn list<T>(items: &[T], show: impl Fn(&T) -> String) -> String {
    let items: Vec<String> = items.iter().map(show).collect();
    format!("[{}]", items.join(", "))
}

/// A parameter's values as a TOML list: decimals as numbers, other text quoted.
fn param_list(spec: &hammer_family::ParamSpec, values: &[hammer_family::ParamValue]) -> String {
    let decimal = matches!(spec.kind, hammer_family::ParamKind::Decimal { .. });
    list(values, |v| match v {
        hammer_family::ParamValue::Text(t) if decimal => t.clone(),
        hammer_family::ParamValue::Text(t) => quote(t),
        other => other.to_string(),
    })
}

/// A `[solvers.NAME]` table: the declaration with its preset filled in, so that it
/// reads back the same whatever the presets become.
fn write_solver(out: &mut String, program: &hammer_family::Program) {
    let spec = &program.spec;
    let strings = |items: &[String]| list(items, |s| quote(s));
    let map = |m: &std::collections::BTreeMap<String, String>| {
        let pairs: Vec<String> = m
            .iter()
            .map(|(k, v)| format!("{} = {}", quote(k), quote(v)))
            .collect();
        format!("{{ {} }}", pairs.join(", "))
    };
    let _ = writeln!(out, "\n[solvers.{}]", program.name);
    let fields = [
        ("preset", spec.preset.as_deref().map(quote)),
        ("command", spec.command.as_deref().map(strings)),
        ("output", spec.output.as_deref().map(quote)),
        ("cost", spec.cost.as_deref().map(quote)),
        ("budget_unit", spec.budget_unit.as_deref().map(quote)),
        ("exit_codes", spec.exit_codes.as_ref().map(map)),
        ("columns", spec.columns.as_ref().map(map)),
        ("restarts", spec.restarts.map(|r| r.to_string())),
        ("restarts_off", spec.restarts_off.as_deref().map(strings)),
    ];
    for (key, value) in fields {
        if let Some(value) = value {
            let _ = writeln!(out, "{key} = {value}");
        }
    }
}

/// An outside program's experiment keys: `solver`, the generator's parameters in
/// `instances`, and each run's `limits`.
fn write_program_keys(out: &mut String, program: &hammer_family::Program, params: &[String]) {
    let _ = writeln!(out, "solver = {}", quote(&program.name));
    let mut instances = vec!["generator = \"ksat\"".to_string()];
    instances.extend(params.iter().cloned());
    let shuffle = program.shuffle.name();
    instances.push(format!("shuffle = {}", quote(shuffle)));
    let _ = writeln!(out, "instances = {{ {} }}", instances.join(", "));
    let l = &program.limits;
    let mut limits = Vec::new();
    if let Some(cpu) = l.cpu {
        limits.push(format!("cpu_seconds = {}", cpu.as_secs()));
    }
    if let Some(wall) = l.wall {
        limits.push(format!("wall_seconds = {}", wall.as_secs()));
    }
    if let Some(memory) = l.memory {
        limits.push(format!("memory_mb = {}", memory >> 20));
    }
    limits.push(format!("output_mb = {}", l.output >> 20));
    let _ = writeln!(out, "limits = {{ {} }}", limits.join(", "));
}

pub(crate) fn to_toml(sweep: &Sweep) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "name = {}", quote(&sweep.name));
    let _ = writeln!(out, "seed = {}", sweep.seed);
    let mut declared: Vec<&hammer_family::Program> = Vec::new();
    for program in sweep.experiments.iter().filter_map(|e| e.program.as_ref()) {
        if !declared.iter().any(|p| p.name == program.name) {
            declared.push(program);
            write_solver(&mut out, program);
        }
    }
    for e in &sweep.experiments {
        let _ = writeln!(out, "\n[[experiment]]");
        let _ = writeln!(out, "name = {}", quote(&e.name));
        let _ = writeln!(out, "puzzle = {}", quote(e.family.name()));
        let params: Vec<String> = e
            .family
            .params()
            .iter()
            .zip(&e.param_lists)
            .map(|(spec, values)| format!("{} = {}", spec.sweep_key, param_list(spec, values)))
            .collect();
        match &e.program {
            Some(program) => write_program_keys(&mut out, program, &params),
            None => {
                for line in params {
                    let _ = writeln!(out, "{line}");
                }
            }
        }
        match &e.unknown_games {
            Some(u) => {
                let names: Vec<String> = e.points.iter().map(ToString::to_string).collect();
                let inline = crate::continuation::inline_text(&u.from, &names, &u.games);
                let _ = writeln!(out, "unknown_games = {inline}");
            }
            None => {
                let _ = writeln!(out, "games = {}", e.games);
                let _ = writeln!(out, "first_game = {}", e.first_game);
            }
        }
        let orders = axis(e.configs.iter().map(|c| c.order));
        let _ = writeln!(out, "orders = {}", list(&orders, |o| quote(&o.to_string())));
        let run_time = match e.kind {
            crate::ExperimentKind::RunTime { attempts, cap } => {
                let _ = writeln!(out, "kind = \"run-time\"");
                let _ = writeln!(out, "attempts = {attempts}");
                let _ = writeln!(out, "cap = {cap}");
                true
            }
            crate::ExperimentKind::Solve => false,
        };
        if run_time {
            // `attempts` and `cap` stand for the tries and the budget.
        } else if e.configs.iter().any(|c| c.budget > 0) {
            let budgets = axis(e.configs.iter().map(|c| c.budget));
            let _ = writeln!(out, "budgets = {}", list(&budgets, |b| b.to_string()));
        } else {
            let schedules = axis(e.configs.iter().map(|c| c.schedule.clone()));
            let _ = writeln!(
                out,
                "schedules = {}",
                list(&schedules, |s| quote(&s.to_string()))
            );
        }
        let prefixes = axis(e.configs.iter().map(|c| c.prefix));
        let _ = writeln!(out, "prefixes = {}", list(&prefixes, |p| p.to_string()));
        if !run_time {
            let tries = e.configs.iter().map(|c| c.trial).max().map_or(1, |t| t + 1);
            let _ = writeln!(out, "tries = {tries}");
        }
        if let Some(u) = e.unit_games {
            let _ = writeln!(out, "unit_games = {u}");
        }
        if let Some(k) = e.gang {
            let _ = writeln!(out, "gang = {k}");
        }
        // Every configuration of an experiment has the experiment's limits.
        if let Some(c) = e.configs.first() {
            for (key, value) in limit_values(&c.limits) {
                let _ = writeln!(out, "{key} = {value}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_read_back() {
        for c in [
            RunConfig::new(Order::Random, Schedule::Paper, 0, 0, 0),
            RunConfig::new(
                Order::MonteCarlo {
                    playouts: 100,
                    levels: 3,
                },
                Schedule::Exact,
                2,
                0,
                9,
            ),
            RunConfig::new(
                Order::MonteCarlo {
                    playouts: 7,
                    levels: 2,
                },
                "2x500,1000,exact".parse().unwrap(),
                0,
                0,
                0,
            ),
            RunConfig::with_budget(Order::Random, 2500, 5, 999),
            RunConfig::new(Order::Random, "luby:256".parse().unwrap(), 0, 0, 3).with_limits(
                Limits {
                    max_expansions: Some(50_000_000),
                    max_time: Some(std::time::Duration::from_secs(600)),
                    memo_bytes: Some(2048 << 20),
                },
            ),
        ] {
            assert_eq!(RunConfig::from_id(&c.id).unwrap(), c, "{}", c.id);
        }
        assert_eq!(
            RunConfig::with_budget(Order::Random, 2500, 5, 999).id,
            "order=random;schedule=2500;budget=2500;prefix=5;trial=999"
        );
    }

    #[test]
    fn non_canonical_ids_are_refused() {
        for (id, needle) in [
            ("order=random;schedule=exact;prefix=0", "needs order"),
            (
                "schedule=exact;order=random;prefix=0;trial=0",
                "canonical form is 'order=random;schedule=exact;prefix=0;trial=0'",
            ),
            (
                "order=monte-carlo:100,3;schedule=exact;prefix=0;trial=0",
                "canonical form",
            ),
            (
                "order=random;schedule=exact;budget=100;prefix=0;trial=0",
                "goes with schedule=100",
            ),
            (
                "order=random;schedule=exact;prefix=0;trial=0;colour=red",
                "unknown key 'colour'",
            ),
            (
                "order=sideways;schedule=exact;prefix=0;trial=0",
                "unknown move order",
            ),
            ("order=random;schedule=exact;prefix=x;trial=0", "prefix 'x'"),
        ] {
            let e = RunConfig::from_id(id).unwrap_err().to_string();
            assert!(e.contains(needle), "{id}: {e}");
        }
    }
}
