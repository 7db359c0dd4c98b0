//! How complete the sweep behind a dataset looks.
//!
//! The rows alone cannot say what a sweep asked for: a configuration or board size with no
//! finished unit at all, or games at the end of a range, leave no trace. What they can show
//! is unequal game counts between groups of one experiment (every configuration and size
//! of an experiment plays the same games) and holes in a group's game indices. The
//! coordinator's state directory, when present, says that a coordinator ran here and may
//! still be running.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use hammer_dataset::STATE_DIR;

use crate::prepare::{GameRuns, Prepared};
use crate::report::{Completeness, SweepState};
use crate::runs::IndexRuns;
use crate::stream::OverviewGroup;

/// Checks the rows and the state directory; returns the summary and warnings. `state` is
/// what the caller read from the state directory (`None`: not read). `family_rows` counts
/// the distinct rows of the other puzzle families, which the journal counts too.
pub fn check(
    p: &Prepared,
    dir: &Path,
    state: Option<Result<SweepState, String>>,
    family_rows: u64,
) -> (Completeness, Vec<String>) {
    let mut warnings = Vec::new();
    let mut summary = Completeness {
        duplicate_rows: p.duplicates,
        ..Completeness::default()
    };
    let continuations = continuations(&p.overview, &p.runs);
    for ((sweep, experiment), configs) in &p.runs {
        let mut lo = i64::MAX;
        let mut hi = i64::MIN;
        let mut present = 0u64;
        let mut gap_examples = Vec::new();
        for ((config, n), games) in configs {
            present += games.len();
            let (Some(first), Some(last)) = (games.first(), games.last()) else {
                continue;
            };
            lo = lo.min(first);
            hi = hi.max(last);
            if let Some(hole) = games.first_hole() {
                summary.groups_with_gaps += 1;
                if gap_examples.len() < 3 {
                    gap_examples.push(format!(
                        "n={n} config {:?}: {} games in {first}..={last}, first gap at {hole}",
                        p.name(*config),
                        games.len()
                    ));
                }
            }
        }
        let span = if hi >= lo {
            (i128::from(hi) - i128::from(lo) + 1) as u64
        } else {
            0
        };
        let expected = span.saturating_mul(configs.len() as u64);
        summary.groups += configs.len() as u64;
        summary.rows_present += present;
        summary.rows_expected = summary.rows_expected.saturating_add(expected);
        let counts: Vec<u64> = configs.values().map(IndexRuns::len).collect();
        let unequal = counts.iter().min() != counts.iter().max();
        if !unequal && !gap_examples.is_empty() {
            let sizes: BTreeSet<i32> = configs.keys().map(|&(_, n)| n).collect();
            if let Some(warning) = continued(p, &continuations, (*sweep, *experiment), &sizes) {
                warnings.extend(warning);
                continue;
            }
        }
        if unequal || !gap_examples.is_empty() {
            let min = counts.iter().min().copied().unwrap_or(0);
            let max = counts.iter().max().copied().unwrap_or(0);
            let mut text = format!(
                "sweep {:?} experiment {:?} looks unfinished: {} (config, n) groups hold {} to \
                 {} games, {} rows of the {} expected if every group covered games {lo}..={hi} \
                 ({:.1}% complete; whole groups or trailing games that never arrived cannot be \
                 seen, so it may be less)",
                p.name(*sweep),
                p.name(*experiment),
                configs.len(),
                min,
                max,
                present,
                expected,
                100.0 * present as f64 / expected.max(1) as f64
            );
            if !gap_examples.is_empty() {
                text.push_str("; gaps: ");
                text.push_str(&gap_examples.join("; "));
            }
            warnings.push(text);
        }
    }
    let state_dir = dir.join(STATE_DIR);
    if state_dir.is_dir() {
        summary.coordinator_state = true;
        match state {
            Some(Ok(state)) => {
                warnings.extend(state_warnings(
                    &state,
                    &state_dir,
                    summary.rows_present + family_rows,
                ));
                summary.sweep_state = Some(state);
            }
            Some(Err(why)) => warnings.push(format!(
                "{} cannot be read ({why}), so how much of the sweep is done is unknown. {}",
                state_dir.display(),
                unknown_state(&summary)
            )),
            None => warnings.push(format!(
                "{} exists: a coordinator ran on this dataset and may still be writing it or \
                 may have stopped before the end (state files: {}). {}",
                state_dir.display(),
                state_files(&state_dir),
                unknown_state(&summary)
            )),
        }
    }
    (summary, warnings)
}

/// An experiment that plays only games another experiment left unknown, as one with
/// `unknown_games` in its sweep file does: its game indices have holes on purpose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Continuation {
    /// The experiment whose unknown games it plays.
    of: u32,
    /// How many games it plays, and how many that experiment left unknown.
    plays: u64,
    unknown: u64,
}

/// For each (experiment, n) whose game indices have a hole: the other experiment of the
/// same n and seed, with the fewest unknown games, that left every game of it unknown
/// (played, and settled by none of its rows; an earlier rung of a chain of continuations
/// leaves a superset unknown). None where an experiment played two seeds at one n.
fn continuations(
    overview: &BTreeMap<(u32, i32), OverviewGroup>,
    runs: &GameRuns,
) -> BTreeMap<(u32, i32), Continuation> {
    let gapped: BTreeSet<(u32, i32)> = runs
        .iter()
        .flat_map(|((_, experiment), configs)| {
            let holes = configs.iter().filter(|(_, g)| g.first_hole().is_some());
            holes.map(move |(&(_, n), _)| (*experiment, n))
        })
        .collect();
    let seed = |g: &OverviewGroup| match g.seeds.set.len() {
        1 => g.seeds.set.first().copied(),
        _ => None,
    };
    let unknown = |g: &OverviewGroup| g.games.len() - g.settled.len();
    let mut found = BTreeMap::new();
    for (key @ (experiment, n), mine) in overview {
        let Some(my_seed) = seed(mine).filter(|_| gapped.contains(key)) else {
            continue;
        };
        let of = overview
            .iter()
            .filter(|((other, on), o)| {
                other != experiment
                    && on == n
                    && seed(o) == Some(my_seed)
                    && unknown(o) >= mine.games.len()
            })
            .filter(|(_, o)| {
                let left = |g| o.games.contains(g) && !o.settled.contains(g);
                mine.games.iter().all(left)
            })
            .min_by_key(|(_, o)| unknown(o));
        if let Some(((other, _), o)) = of {
            let continuation = Continuation {
                of: *other,
                plays: mine.games.len(),
                unknown: unknown(o),
            };
            found.insert(*key, continuation);
        }
    }
    found
}

/// What to say of an experiment whose games have holes, if at every size of it the holes
/// are those of a continuation: nothing once it plays all the games the other left
/// unknown, else how many it plays so far. None if it is no continuation.
fn continued(
    p: &Prepared,
    continuations: &BTreeMap<(u32, i32), Continuation>,
    (sweep, experiment): (u32, u32),
    sizes: &BTreeSet<i32>,
) -> Option<Option<String>> {
    let found: Vec<(i32, Continuation)> = sizes
        .iter()
        .map(|&n| continuations.get(&(experiment, n)).map(|c| (n, *c)))
        .collect::<Option<_>>()?;
    let short: Vec<String> = found
        .iter()
        .filter(|(_, c)| c.plays < c.unknown)
        .map(|(n, c)| {
            format!(
                "n={n}: {} of the {} games experiment {:?} left unknown",
                c.plays,
                c.unknown,
                p.name(c.of)
            )
        })
        .collect();
    if short.is_empty() {
        return Some(None);
    }
    Some(Some(format!(
        "sweep {:?} experiment {:?} plays only games another experiment left unknown (a \
         continuation, as `unknown_games` in a sweep file makes), but not all of them: {}. \
         It has not finished, unless it was given fewer games on purpose: the rows cannot \
         tell which",
        p.name(sweep),
        p.name(experiment),
        short.join("; ")
    )))
}

fn state_files(state_dir: &Path) -> String {
    let mut files: Vec<String> = std::fs::read_dir(state_dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    if files.is_empty() {
        "none".to_owned()
    } else {
        files.join(", ")
    }
}

fn unknown_state(summary: &Completeness) -> String {
    format!(
        "This analysis covers only the {} rows committed so far ({:.1}% of what the rows \
         themselves imply); re-run it when the sweep has finished.",
        summary.rows_present,
        100.0 * summary.rows_present as f64 / summary.rows_expected.max(1) as f64
    )
}

/// The warnings a readable state directory calls for: none for a finished sweep whose
/// rows are all there.
fn state_warnings(state: &SweepState, state_dir: &Path, rows_present: u64) -> Vec<String> {
    let mut warnings = Vec::new();
    let done = format!(
        "{} of {} units committed ({} of {} games, {:.1}%)",
        state.units_committed,
        state.units,
        state.games_committed,
        state.games,
        100.0 * state.games_committed as f64 / state.games.max(1) as f64
    );
    if state.running {
        warnings.push(format!(
            "a coordinator is running on this dataset right now (it holds the lock in {}): \
             sweep {:?} has {done}. This analysis covers the committed units; re-run it when \
             the sweep has finished.",
            state_dir.display(),
            state.sweep
        ));
    } else if state.units_committed < state.units {
        warnings.push(format!(
            "sweep {:?} is unfinished: {done}, and no coordinator is running. This analysis \
             covers the committed units; run the same `hammer run` (or `hammer coordinator`) \
             command again to finish the sweep.",
            state.sweep
        ));
    }
    if rows_present < state.games_committed {
        warnings.push(format!(
            "the journal in {} lists {} committed games but the dataset holds only {} \
             distinct rows: part files were removed or moved after the sweep wrote them",
            state_dir.display(),
            state.games_committed,
            rows_present
        ));
    }
    warnings
}
