//! Values published in the 2013 report (`shared/seeds/000_950ed1290293ff08.txt`), so that
//! every table can show them beside ours. All are for the 6x6 game unless stated.

/// Figure 8: solvable ratio for n = 1..=6.
pub const FIG8_SOLVABLE: [(i32, f64); 6] = [
    (1, 1.00000),
    (2, 1.00000),
    (3, 0.99596),
    (4, 0.99767),
    (5, 0.99393),
    (6, 0.98349),
];

/// Figure 5's text: 2 of 2,918,608 analysed 6x6 games had 36 stones left (no first move).
pub const FIG5_STUCK: (u64, u64) = (2, 2_918_608);

/// Figure 7's text: share of solvable games still solvable after I random moves.
pub const FIG7_STILL_SOLVABLE: [(i32, f64); 2] = [(1, 0.988), (5, 0.875)];

/// Figure 11's caption: mean expansions of a solvable game with the report's plain DFS.
pub const FIG11_SOLVABLE_MEAN: f64 = 230_000.0;

/// Figure 13's text: mean expansions of the standard order on 5,200 solvable games.
pub const FIG13_STANDARD_MEAN: f64 = 219_000.0;

/// Figure 13's text: the random order's mean over 10 runs per game was 19.7 times its
/// minimum.
pub const FIG13_RANDOM_MEAN_OVER_MIN: f64 = 19.7;

/// Depths (rows) and budgets (columns) of Figures 14 to 16; 1,000 tries per game.
pub const BUDGET_DEPTHS: [i32; 5] = [1, 2, 3, 4, 5];
pub const BUDGETS: [i64; 7] = [100, 250, 500, 1_000, 2_500, 5_000, 10_000];
pub const BUDGET_TRIES: u64 = 1_000;

/// Figure 14: success rate of at least 1 of 1,000 tries.
pub const FIG14: [[f64; 7]; 5] = [
    [0.60087, 0.88466, 0.95365, 0.9795, 0.99281, 0.99647, 0.99811],
    [
        0.60995, 0.88554, 0.95516, 0.98095, 0.99313, 0.99653, 0.99798,
    ],
    [
        0.61186, 0.88767, 0.95251, 0.97893, 0.99231, 0.99596, 0.99773,
    ],
    [
        0.61352, 0.88588, 0.95342, 0.97904, 0.99217, 0.99596, 0.99779,
    ],
    [0.62547, 0.8882, 0.9532, 0.97838, 0.99182, 0.99537, 0.99753],
];

/// Figure 15: expected expansions until the first success, given at least one success.
pub const FIG15: [[f64; 7]; 5] = [
    [
        56252.0, 64246.0, 67118.0, 69726.0, 77072.0, 85349.0, 95257.0,
    ],
    [
        56194.0, 63127.0, 68187.0, 71627.0, 78053.0, 86860.0, 98014.0,
    ],
    [55555.0, 63689.0, 67529.0, 71430.0, 78632.0, 89604.0, 1.01e5],
    [55118.0, 64006.0, 68239.0, 72097.0, 82064.0, 94503.0, 1.10e5],
    [55040.0, 63804.0, 68767.0, 73507.0, 84556.0, 98278.0, 1.18e5],
];

/// Figure 16: expected overall expansions, with 4,000,000 for games where all tries fail.
pub const FIG16: [[f64; 7]; 5] = [
    [1.65e6, 5.26e5, 2.53e5, 1.52e5, 1.06e5, 99475.0, 1.03e5],
    [1.62e6, 5.21e5, 2.48e5, 1.48e5, 1.06e5, 1.01e5, 1.06e5],
    [1.61e6, 5.13e5, 2.58e5, 1.56e5, 1.09e5, 1.06e5, 1.11e5],
    [1.60e6, 5.20e5, 2.55e5, 1.56e5, 1.13e5, 1.11e5, 1.19e5],
    [1.55e6, 5.11e5, 2.56e5, 1.60e5, 1.17e5, 1.17e5, 1.28e5],
];

/// Figure 16's fallback: the report's estimate of an exact solve of a game that every
/// budgeted try failed on ("the average of the 2% hardest games").
pub const FIG16_FALLBACK: f64 = 4_000_000.0;

/// The meta-solver: 29% fewer expansions than plain DFS, 144,000 per game on average
/// (over all games, solvable or not).
pub const META_REDUCTION: f64 = 0.29;
pub const META_MEAN: f64 = 144_000.0;

/// The report's value of a depth x budget grid, if the cell exists.
pub fn grid(table: &[[f64; 7]; 5], depth: i32, budget: i64) -> Option<f64> {
    let row = BUDGET_DEPTHS.iter().position(|&d| d == depth)?;
    let col = BUDGETS.iter().position(|&b| b == budget)?;
    table.get(row)?.get(col).copied()
}
