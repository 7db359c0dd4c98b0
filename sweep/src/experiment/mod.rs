//! One `[[experiment]]` table, in stages: [`read_keys`] (`keys.rs`) reads every key with
//! its span, [`resolve_kind`] applies the experiment kind, [`expand_points`] and
//! [`expand_configs`] build the parameter points and the solver configurations,
//! [`check_gang`] checks `gang` against the rest, and [`check_limits`] refuses sweeps
//! too large to run.

use std::ops::Range;

use hammer_family::{FamilyError, FamilyRef, ParamSpec, ParamValue, Point};
use hammer_puzzle::seeded::MAX_INDEX;
use hammer_solver::{Order, Schedule};
use toml::de::DeTable;

mod keys;
mod program;

use keys::{Keys, read_family, read_keys};

use crate::continuation::Listing;
use crate::error::Locator;
use crate::parse::{Files, Totals, join};
use crate::units::{default_unit_games, series_units};
use crate::{
    Experiment, ExperimentKind, MAX_CONFIGS, MAX_ROWS, MAX_UNITS, RunConfig, SweepError,
    UnknownGames,
};

/// The schedule axis: either `schedules` or `budgets`, never both.
enum Axis {
    Schedules(Vec<Schedule>),
    Budgets(Vec<u64>),
}

/// Where the experiment table is, for messages about it as a whole.
pub(super) struct Place<'l, 't> {
    loc: &'l Locator<'t>,
    path: &'l str,
    span: Range<usize>,
}

impl Place<'_, '_> {
    fn missing(&self, key: &str, why: &str) -> SweepError {
        self.loc.error(
            &self.span,
            join(self.path, key),
            format!("missing key: {why}"),
        )
    }
}

pub(crate) fn experiment(
    loc: &Locator<'_>,
    path: &str,
    span: Range<usize>,
    table: &DeTable<'_>,
    totals: &mut Totals,
    files: &mut Files<'_>,
) -> Result<Experiment, SweepError> {
    let place = Place { loc, path, span };
    let family = read_family(loc, path, table)?;
    let mut keys = read_keys(loc, path, table, family, files)?;
    let kind = resolve_kind(&place, &mut keys)?;
    let name = keys.name.take().ok_or_else(|| {
        place.missing(
            "name",
            "every experiment needs a name (the dataset's `experiment` partition)",
        )
    })?;
    let (param_lists, points) = expand_points(&place, family, &keys)?;
    let (games, games_span, first_game, unknown_games) = match keys.unknown.take() {
        Some(listing) => {
            let unknown = continued_games(&place, family, &points, &keys, listing, files)?;
            let most = unknown.games.iter().map(|g| g.len() as u64).max();
            (most.unwrap_or(0), place.span.clone(), 0, Some(unknown))
        }
        None => {
            let (games, span, first) = resolve_games(&place, family, &points, &keys)?;
            (games, span, first, None)
        }
    };
    let configs = expand_configs(&place, &mut keys)?;
    let gang = check_gang(&place, family, kind, &configs, &keys)?;
    let program = program::program(&place, family, &configs, &mut keys, files)?;
    let experiment = Experiment {
        name,
        kind,
        family,
        param_lists,
        points,
        games,
        first_game,
        unknown_games,
        unit_games: keys.unit_games.as_ref().map(|(u, _)| *u),
        gang,
        program,
        configs,
    };
    check_limits(&place, &experiment, &games_span, &keys, totals)?;
    Ok(experiment)
}

/// `gang = K`: a gang of K workers searches each game to its exact minimum by owners,
/// so the family needs an owner search, the experiment solves games one unit each, and
/// every configuration must be one that search is: the standard order, the exact
/// schedule, no prefix and no per-game limit (it has none of them).
fn check_gang(
    place: &Place<'_, '_>,
    family: FamilyRef,
    kind: ExperimentKind,
    configs: &[RunConfig],
    keys: &Keys,
) -> Result<Option<u32>, SweepError> {
    let Some((members, span)) = &keys.gang else {
        return Ok(None);
    };
    let refuse = |what: String| Err(place.loc.error(span, join(place.path, "gang"), what));
    if family.owners().is_none() {
        return refuse(format!(
            "puzzle \"{}\" has no owner search, so a gang cannot share its games",
            family.name()
        ));
    }
    if kind != ExperimentKind::Solve {
        return refuse(
            "a run-time experiment measures single attempts; `gang` belongs to solve experiments"
                .to_string(),
        );
    }
    if let Some((_, at)) = &keys.unit_games {
        return Err(place.loc.error(
            at,
            join(place.path, "unit_games"),
            "`unit_games` cannot be given with `gang`: every game of a gang is a unit of its own"
                .to_string(),
        ));
    }
    for config in configs {
        let plain = config.order == Order::Standard
            && config.schedule == Schedule::Exact
            && config.prefix == 0
            && config.budget == 0;
        if !plain {
            return refuse(format!(
                "a game searched by a gang is searched exactly by owners, but configuration {} asks for order {}, schedule {} and prefix {}; give orders = [\"standard\"], schedules = [\"exact\"] and no prefixes or budgets",
                config.id, config.order, config.schedule, config.prefix
            ));
        }
        if config.limits != hammer_solver::Limits::default() {
            return refuse(
                "a game searched by a gang runs to its exact minimum: max_expansions, max_seconds and max_memo_mb do not apply"
                    .to_string(),
            );
        }
    }
    Ok(Some(*members))
}

/// The experiment kind, and what it implies for the other keys.
///
/// A run-time experiment is a budget experiment in disguise: `attempts` independent
/// tries of one attempt capped at `cap`, with the random order by default. It is its
/// own kind so that the file says what the rows are for (the tuner), and so that the
/// keys that would change that meaning are refused rather than combined.
fn resolve_kind(place: &Place<'_, '_>, keys: &mut Keys) -> Result<ExperimentKind, SweepError> {
    let loc = place.loc;
    let run_time = matches!(&keys.kind, Some((k, _)) if k == "run-time");
    if !run_time {
        for (present, key) in [
            (keys.attempts.as_ref().map(|(_, s)| s.clone()), "attempts"),
            (keys.cap.as_ref().map(|(_, s)| s.clone()), "cap"),
        ] {
            if let Some(at) = present {
                return Err(loc.error(
                    &at,
                    join(place.path, key),
                    format!("`{key}` belongs to run-time experiments; add kind = \"run-time\" or use `budgets` and `tries`"),
                ));
            }
        }
        return Ok(ExperimentKind::Solve);
    }
    let kind_span = keys
        .kind
        .as_ref()
        .map_or(place.span.clone(), |(_, s)| s.clone());
    for (present, key) in [
        (keys.schedules.as_ref().map(|(_, s)| s.clone()), "schedules"),
        (keys.budgets.as_ref().map(|(_, s)| s.clone()), "budgets"),
        (keys.tries.as_ref().map(|(_, s)| s.clone()), "tries"),
    ] {
        if let Some(at) = present {
            return Err(loc.error(
                &at,
                join(place.path, key),
                format!(
                    "a run-time experiment (kind = \"run-time\" at {}) sets its own attempts and cap; `{key}` cannot be used with it",
                    loc.at(kind_span.start)
                ),
            ));
        }
    }
    let (attempts, _) = keys.attempts.clone().ok_or_else(|| {
        place.missing(
            "attempts",
            "a run-time experiment needs the number of independent attempts per game, such as attempts = 20",
        )
    })?;
    let (cap, cap_span) = keys.cap.clone().ok_or_else(|| {
        place.missing(
            "cap",
            "a run-time experiment needs the expansion cap of each attempt, such as cap = 10000",
        )
    })?;
    keys.budgets = Some((vec![cap], cap_span.clone()));
    keys.tries = Some((attempts, cap_span));
    keys.orders
        .get_or_insert_with(|| (vec![Order::Random], place.span.clone()));
    Ok(ExperimentKind::RunTime { attempts, cap })
}

/// The family's parameter lists and their cross product, the first parameter outermost;
/// a parameter the file leaves out takes its default, and one without a default is
/// required.
fn expand_points(
    place: &Place<'_, '_>,
    family: FamilyRef,
    keys: &Keys,
) -> Result<(Vec<Vec<ParamValue>>, Vec<Point>), SweepError> {
    let specs = family.params();
    let mut lists = Vec::with_capacity(specs.len());
    for (spec, given) in specs.iter().zip(&keys.params) {
        let list = match (given, spec.default) {
            (Some((values, _)), _) => values.clone(),
            (None, Some(text)) => vec![ParamValue::parse(text, spec).map_err(|reason| {
                place.loc.error(
                    &place.span,
                    join(place.path, spec.sweep_key),
                    format!("the default of {}: {reason}", spec.key),
                )
            })?],
            (None, None) => {
                return Err(place.missing(
                    spec.sweep_key,
                    &format!(
                        "every {} experiment needs `{}` ({})",
                        family.name(),
                        spec.sweep_key,
                        spec.doc
                    ),
                ));
            }
        };
        lists.push(list);
    }
    let mut combos: Vec<Vec<ParamValue>> = vec![Vec::new()];
    for list in &lists {
        combos = combos
            .into_iter()
            .flat_map(|prefix| {
                list.iter().map(move |v| {
                    let mut next = prefix.clone();
                    next.push(v.clone());
                    next
                })
            })
            .collect();
        if combos.len() > crate::MAX_POINTS {
            return Err(place.loc.error(
                &place.span,
                place.path,
                format!(
                    "more than {} parameter points; split the experiment",
                    crate::MAX_POINTS
                ),
            ));
        }
    }
    let points = combos
        .into_iter()
        .map(|values| {
            family
                .point(values)
                .map_err(|e| point_error(place, specs, keys, e))
        })
        .collect::<Result<_, _>>()?;
    Ok((lists, points))
}

/// A family's refusal of a point, placed at the key it names when the file has it.
fn point_error(
    place: &Place<'_, '_>,
    specs: &[ParamSpec],
    keys: &Keys,
    error: FamilyError,
) -> SweepError {
    let named = match &error {
        FamilyError::BadParam { key, .. } => specs.iter().position(|s| s.key == key),
        _ => None,
    };
    let (key, span) = match named {
        Some(i) => (
            specs[i].sweep_key,
            keys.params[i]
                .as_ref()
                .map_or(place.span.clone(), |(_, s)| s.clone()),
        ),
        None => ("", place.span.clone()),
    };
    place
        .loc
        .error(&span, join(place.path, key), error.to_string())
}

/// The games of an `unknown_games` experiment, which plays no range: `games`,
/// `first_game` and `unit_games` cannot be given with it (every game is a unit).
fn continued_games(
    place: &Place<'_, '_>,
    family: FamilyRef,
    points: &[Point],
    keys: &Keys,
    listing: Listing,
    files: &mut Files<'_>,
) -> Result<UnknownGames, SweepError> {
    let given = [
        ("games", keys.games.as_ref().map(|(_, s)| s.clone())),
        (
            "unit_games",
            keys.unit_games.as_ref().map(|(_, s)| s.clone()),
        ),
    ];
    if let Some((key, Some(span))) = given.into_iter().find(|(_, s)| s.is_some()) {
        return Err(place.loc.error(
            &span,
            join(place.path, key),
            format!("`{key}` cannot be given with `unknown_games`: the experiment plays exactly the listed games, one unit each"),
        ));
    }
    if keys.first_game.is_some() {
        return Err(place.loc.error(
            &place.span,
            join(place.path, "first_game"),
            "`first_game` cannot be given with `unknown_games`: the experiment plays exactly the listed games",
        ));
    }
    let key = join(place.path, "unknown_games");
    let unknown = listing.resolve(place.loc, &key, points, files)?;
    for (point, games) in points.iter().zip(&unknown.games) {
        if let (Some(count), Some(&last)) = (family.instance_count(point), games.last())
            && last >= count
        {
            return Err(place.loc.error(
                &place.span,
                key,
                format!("game {last} is past the {count} instance(s) of point {point}"),
            ));
        }
    }
    Ok(unknown)
}

/// `games` and `first_game`. `games` may be left out when every point has a finite
/// number of instances (it is then all of them); a point with fewer instances than
/// `first_game + games` gets fewer games.
fn resolve_games(
    place: &Place<'_, '_>,
    family: FamilyRef,
    points: &[Point],
    keys: &Keys,
) -> Result<(u64, Range<usize>, u64), SweepError> {
    let first_game = keys.first_game.unwrap_or(0);
    let counts: Option<Vec<u64>> = points.iter().map(|p| family.instance_count(p)).collect();
    let (games, games_span) = match (&keys.games, &counts) {
        (Some((g, s)), _) => (*g, s.clone()),
        (None, Some(counts)) => (
            counts
                .iter()
                .map(|c| c.saturating_sub(first_game))
                .max()
                .unwrap_or(0),
            place.span.clone(),
        ),
        (None, None) => {
            return Err(place.missing(
                "games",
                "every experiment needs its number of games per size",
            ));
        }
    };
    if let Some((count, point)) = counts
        .iter()
        .flatten()
        .zip(points)
        .find(|&(&c, _)| first_game >= c)
    {
        return Err(place.loc.error(
            &games_span,
            join(place.path, "first_game"),
            format!("first_game {first_game} is past the {count} instance(s) of point {point}"),
        ));
    }
    if games == 0 {
        return Err(place.missing("games", "no point has any instance"));
    }
    if first_game as u128 + games as u128 - 1 > MAX_INDEX as u128 {
        return Err(place.loc.error(
            &games_span,
            join(place.path, "games"),
            format!(
                "games {first_game}..{} go past the largest game index {MAX_INDEX} (2^56 - 1)",
                first_game as u128 + games as u128
            ),
        ));
    }
    Ok((games, games_span, first_game))
}

/// The solver configurations: orders (outermost), then schedules or budgets, then
/// prefixes, then trials (innermost), each in file order.
fn expand_configs(place: &Place<'_, '_>, keys: &mut Keys) -> Result<Vec<RunConfig>, SweepError> {
    let loc = place.loc;
    let (orders, orders_span) = keys
        .orders
        .take()
        .unwrap_or_else(|| (vec![Order::Standard], place.span.clone()));
    let axis = match (keys.schedules.take(), keys.budgets.take()) {
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
                join(place.path, key),
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
    let prefixes = keys.prefixes.take().unwrap_or_else(|| vec![0]);
    let tries = keys.tries.as_ref().map_or(1, |(t, _)| *t);

    let settings: Vec<(Schedule, u64)> = match &axis {
        Axis::Schedules(s) => s.iter().map(|s| (s.clone(), 0)).collect(),
        Axis::Budgets(b) => b
            .iter()
            .map(|&b| {
                let schedule = Schedule::List {
                    phases: vec![(1, b)],
                    then_exact: false,
                };
                (schedule, b)
            })
            .collect(),
    };
    let count =
        orders.len() as u128 * settings.len() as u128 * prefixes.len() as u128 * tries as u128;
    if count > MAX_CONFIGS as u128 {
        return Err(loc.error(
            &place.span,
            place.path,
            format!(
                "{count} configurations ({} orders x {} {} x {} prefixes x {tries} tries), more than {MAX_CONFIGS}; split the experiment",
                orders.len(),
                settings.len(),
                if matches!(axis, Axis::Budgets(_)) { "budgets" } else { "schedules" },
                prefixes.len()
            ),
        ));
    }
    let mut configs = Vec::with_capacity(count as usize);
    for &order in &orders {
        for (schedule, budget) in &settings {
            // A learned order's temperature depends on whether the schedule restarts.
            let order = order
                .for_schedule(schedule)
                .map_err(|e| loc.error(&orders_span, join(place.path, "orders"), e.to_string()))?;
            for &prefix in &prefixes {
                for trial in 0..tries {
                    configs.push(
                        RunConfig::new(order, schedule.clone(), prefix, *budget, trial)
                            .with_limits(keys.limits),
                    );
                }
            }
        }
    }
    Ok(configs)
}

/// The sweep-wide limits on rows and units, with this experiment added.
fn check_limits(
    place: &Place<'_, '_>,
    e: &Experiment,
    games_span: &Range<usize>,
    keys: &Keys,
    totals: &mut Totals,
) -> Result<(), SweepError> {
    let loc = place.loc;
    let rows = e.configs.len() as u128 * e.point_games() as u128;
    totals.rows += rows;
    if totals.rows > MAX_ROWS as u128 {
        return Err(loc.error(
            games_span,
            join(place.path, "games"),
            format!(
                "this experiment has {rows} result rows ({} configurations x {} points x up to {} games), which takes the sweep to {} rows, more than the limit of {MAX_ROWS}",
                e.configs.len(),
                e.points.len(),
                e.games,
                totals.rows
            ),
        ));
    }
    let mut units = 0u128;
    for point in &e.points {
        let games = e.games_of(point);
        for c in &e.configs {
            let size = match (e.gang, e.unit_games) {
                (Some(_), _) => 1,
                (None, Some(u)) => u,
                (None, None) => {
                    default_unit_games(e.family.estimated_seconds(point, &c.solver_config()))
                }
            };
            units += series_units(games, size) as u128;
        }
    }
    totals.units += units;
    if totals.units > MAX_UNITS as u128 {
        let at = keys
            .unit_games
            .as_ref()
            .map_or(place.span.clone(), |(_, s)| s.clone());
        return Err(loc.error(
            &at,
            join(place.path, "unit_games"),
            format!(
                "this experiment has {units} work units, which takes the sweep to {}, more than {MAX_UNITS}; give a larger unit_games",
                totals.units
            ),
        ));
    }
    Ok(())
}
