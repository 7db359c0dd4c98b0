//! Row builders shared by the integration tests.
#![allow(dead_code)]

use hammer_dataset::ResultRow;

/// A plausible row whose every field depends on its key, so mix-ups between rows or columns
/// show up in comparisons.
pub fn row(experiment: &str, n: i32, config: &str, game_index: i64) -> ResultRow {
    ResultRow {
        sweep: "sweep-1".into(),
        experiment: experiment.into(),
        config: config.into(),
        n,
        game_index,
        seed: 42,
        board: format!("board-{n}"),
        prefix: 2,
        prefix_moves: "A1xB1 C2xC3".into(),
        start: format!("start-{config}-{game_index}"),
        order: "lex".into(),
        schedule: "dfs".into(),
        budget: 0,
        trial: 0,
        solvable: game_index % 3 == 0,
        exhaustive: game_index % 2 == 0,
        expansions: game_index.wrapping_mul(7).wrapping_add(1000 + i64::from(n)),
        attempts: 1,
        solution: "D4xD5".into(),
        wall_ns: game_index.wrapping_add(123_456),
        worker: "w1".into(),
        hammer_version: "0.1.0".into(),
        puzzle: "martello".into(),
        params: format!("n={n}"),
        score: (game_index % 3) as i32 + 1,
        lower_bound: 1,
        schedule_complete: true,
        // Both limit columns hold values and nulls, so the readers see both.
        capped_by: (game_index % 4 == 1).then(|| "expansions".into()),
        memo_bytes: (game_index % 5 != 0).then_some(game_index.wrapping_add(262_144)),
        extra: Vec::new(),
        split_nodes: None,
        gang_size: None,
        gang_expansions: None,
        gang_memo_bytes: None,
        states_sent: None,
        split_parts: None,
    }
}

/// Rows of one partition, deliberately not in the order `write_part` sorts them into.
pub fn partition_rows(experiment: &str, n: i32, games: i64) -> Vec<ResultRow> {
    let mut rows = Vec::new();
    for config in ["cfg-b", "cfg-a"] {
        for game_index in (0..games).rev() {
            rows.push(row(experiment, n, config, game_index));
        }
    }
    rows
}

/// Same order as `write_part` stores rows.
pub fn sorted(mut rows: Vec<ResultRow>) -> Vec<ResultRow> {
    rows.sort_by(|a, b| {
        (&a.config, a.game_index, a.trial, &a.sweep).cmp(&(
            &b.config,
            b.game_index,
            b.trial,
            &b.sweep,
        ))
    });
    rows
}
