//! The outside program of an experiment whose family runs one (`solver = "NAME"`):
//! its declaration found, and the configurations checked against what it can take.

use hammer_external::Placeholder;
use hammer_family::{FamilyRef, Program, Search};
use hammer_solver::Schedule;

use super::Place;
use super::keys::Keys;
use crate::parse::{Files, join};
use crate::{RunConfig, SweepError};

pub(super) fn program(
    place: &Place<'_, '_>,
    family: FamilyRef,
    configs: &[RunConfig],
    keys: &mut Keys,
    files: &Files<'_>,
) -> Result<Option<Program>, SweepError> {
    if family.search() != Search::Program {
        return Ok(None);
    }
    let declared: Vec<&str> = files.solvers.keys().map(String::as_str).collect();
    let listed = if declared.is_empty() {
        "none is declared; add a [solvers.NAME] table".to_string()
    } else {
        format!("declared: {}", declared.join(", "))
    };
    let Some((name, span)) = keys.solver.take() else {
        return Err(place.missing(
            "solver",
            &format!(
                "puzzle {} runs a declared program: name it with solver = \"NAME\" ({listed})",
                family.name()
            ),
        ));
    };
    let key = join(place.path, "solver");
    let Some(found) = files.solvers.get(&name) else {
        return Err(place.loc.error(
            &span,
            key,
            format!("no [solvers.{name}] in this file ({listed})"),
        ));
    };
    if keys.run_limits.cpu.is_none() && keys.run_limits.wall.is_none() {
        return Err(place.loc.error(
            &span,
            key,
            "a program's runs need a time limit, or one that hangs holds its worker's thread for good: give limits = { cpu_seconds = S } or wall_seconds".to_string(),
        ));
    }
    let uses_budget = found.solver.uses(Placeholder::Budget);
    for config in configs {
        if config.prefix != 0 || config.limits != hammer_solver::Limits::default() {
            return Err(place.loc.error(
                &span,
                key,
                "a program's runs take no `prefixes`, `max_expansions`, `max_seconds` or `max_memo_mb`: give each run's `limits` instead".to_string(),
            ));
        }
        let unlimited = has_unlimited(&config.schedule);
        if uses_budget && unlimited {
            return Err(place.loc.error(
                &found.command_span,
                join(&join("solvers", &name), "command"),
                format!(
                    "the command passes {{budget}}, but configuration {} has an attempt without one (schedule {}); give `budgets` or a schedule whose every attempt has a budget, such as \"luby:1000\" cut by a list",
                    config.id, config.schedule
                ),
            ));
        }
        if !uses_budget && !unlimited {
            return Err(place.loc.error(
                &span,
                key,
                format!(
                    "configuration {} gives each attempt a budget, but the command of [solvers.{name}] has no {{budget}} to pass it in; use schedules = [\"exact\"] or a command that takes a budget",
                    config.id
                ),
            ));
        }
    }
    let at = place.loc.error(
        &found.command_span,
        join(&join("solvers", &name), "command"),
        "",
    );
    let declared_at = format!("{}:{}:{}: {}", at.file, at.line, at.column, at.key);
    Ok(Some(Program {
        name,
        spec: found.spec.clone(),
        solver: found.solver.clone(),
        limits: keys.run_limits,
        shuffle: keys.shuffle,
        declared_at,
    }))
}

/// Whether a schedule has an attempt without a budget (checked by its shape, since the
/// infinite schedules never end their list of budgets).
fn has_unlimited(schedule: &Schedule) -> bool {
    match schedule {
        Schedule::Exact | Schedule::Paper => true,
        Schedule::List { then_exact, .. } => *then_exact,
        Schedule::Luby { .. } | Schedule::Geometric { .. } | Schedule::Fixed { .. } => false,
    }
}
