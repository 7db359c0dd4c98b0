//! Checks of gang rows (`gang = K`), shared by the tests that run gangs
//! locally, under Compose, under Slurm and across network namespaces: each gang's row
//! against the same game searched by one worker.

use std::path::Path;

use hammer_dataset::ResultRow;
use hammer_sweep::Sweep;
use serde_json::Value;

use super::{hammer, normalized, ok, path_str, read_checked};

/// The sweep with every game searched by one worker: without its `gang` lines.
pub fn alone(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("gang = "))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The rows of `text` as `hammer run` writes them with no gangs, by key.
pub fn rows_alone(dir: &Path, text: &str) -> Vec<ResultRow> {
    let file = dir.join("alone.toml");
    std::fs::write(&file, alone(text)).expect("write the sweep");
    let out = dir.join("alone");
    ok(&hammer(&["run", path_str(&file), "--out", path_str(&out)]));
    let sweep = Sweep::parse(&alone(text), "alone.toml").expect("the sweep parses");
    normalized(read_checked(&out, &sweep))
}

/// The numbers of a gang column's words.
pub fn words(text: &Option<String>) -> Vec<i64> {
    text.as_deref()
        .unwrap_or_default()
        .split(' ')
        .map(|w| w.parse().expect("a number"))
        .collect()
}

/// Checks the row of a gang of `size` against the same game's row searched alone: the
/// same minimum, every member's counts adding up, and a solution that replays to the
/// minimum.
pub fn check_gang_row(row: &ResultRow, alone: &ResultRow, size: usize) {
    let what = format!("{} game {}", row.experiment, row.game_index);
    assert_eq!(row.score, alone.score, "{what}");
    assert!(row.exhaustive, "{what}");
    assert_eq!(row.gang_size, Some(size as i32), "{what}");
    let expansions = words(&row.gang_expansions);
    assert_eq!(expansions.len(), size, "{what}");
    assert_eq!(expansions.iter().sum::<i64>(), row.expansions, "{what}");
    let memo = words(&row.gang_memo_bytes);
    assert_eq!(memo.len(), size, "{what}");
    assert!(memo.iter().all(|&b| b > 0), "{what}: {memo:?}");
    assert_eq!(Some(memo.iter().sum::<i64>()), row.memo_bytes, "{what}");
    assert!(row.states_sent.is_some(), "{what}");
    let mut replay = vec!["replay", "--json", row.start.as_str()];
    replay.extend(row.solution.split(' ').filter(|m| !m.is_empty()));
    let replayed: Value = serde_json::from_str(&ok(&hammer(&replay))).expect("replay's JSON");
    assert_eq!(replayed["score"], row.score, "{what}: {replayed}");
}

/// Checks a whole gang sweep's dataset against the sweep searched alone: one row per
/// key, the games of shared experiments searched by their gangs, the others exactly as
/// alone. The rows, normalized.
pub fn check_gang_dataset(out: &Path, text: &str, dir: &Path) -> Vec<ResultRow> {
    let sweep = Sweep::parse(text, "gang sweep").expect("the sweep parses");
    let rows = normalized(read_checked(out, &sweep));
    let alone = rows_alone(dir, text);
    assert_eq!(rows.len(), alone.len());
    for (row, single) in rows.iter().zip(&alone) {
        assert_eq!(row.key(), single.key());
        let gang = sweep
            .experiments
            .iter()
            .find(|e| e.name == row.experiment)
            .and_then(|e| e.gang);
        match gang {
            Some(size) => check_gang_row(row, single, size as usize),
            None => assert_eq!(row, single, "a game searched alone is as before"),
        }
    }
    rows
}
