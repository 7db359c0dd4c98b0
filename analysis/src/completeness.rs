//! How complete the sweep behind a dataset looks.
//!
//! The rows alone cannot say what a sweep asked for: a configuration or board size with no
//! finished unit at all, or games at the end of a range, leave no trace. What they can show
//! is unequal game counts between groups of one experiment (every configuration and size
//! of an experiment plays the same games) and holes in a group's game indices. The
//! coordinator's state directory, when present, says that a coordinator ran here and may
//! still be running.

use std::path::Path;

use crate::prepare::Prepared;
use crate::report::{Completeness, SweepState};
use crate::runs::IndexRuns;

/// Name of the coordinator state directory inside a dataset; hidden, so readers skip it.
pub const STATE_DIR: &str = ".hammer-state";

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
