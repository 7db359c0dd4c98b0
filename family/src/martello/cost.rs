//! The cost table of Martello games that sizes default work units (see
//! [`crate::Family::estimated_seconds`]).

use hammer_solver::{Config, Order, Schedule};

/// Seconds per game of plain exact search (order `standard`, schedule `exact`) by board
/// size, one thread, from `hammer bench` on the development machine. n = 8 takes hours a
/// game, too long to time: its entry is a guess, so give `unit_games` for n = 8 sweeps.
const EXACT_SECONDS: [f64; 9] = [0.0, 40e-6, 40e-6, 40e-6, 50e-6, 150e-6, 12e-3, 5.0, 300.0];

/// Seconds per expansion by size, for budgeted schedules whose cost is capped by the
/// budget.
const EXPANSION_SECONDS: [f64; 9] = [
    0.0, 0.6e-6, 0.6e-6, 0.6e-6, 0.6e-6, 0.65e-6, 0.65e-6, 1.5e-6, 2.0e-6,
];

/// Fixed cost of one solve (the memo reset, the bounds of the start), timed as runs
/// with a budget of 100 expansions.
const SETUP_SECONDS: [f64; 9] = [
    0.0, 20e-6, 20e-6, 30e-6, 30e-6, 50e-6, 100e-6, 200e-6, 300e-6,
];

/// Share of a budget that a budgeted attempt uses on average, since solvable games often
/// finish early, the more so the larger the budget.
const BUDGET_USE: f64 = 0.8;

/// Cost of a whole exact search under a move order relative to `standard`. The random
/// order's cost varies widely from sample to sample, its heavy tails making the
/// difference, so its factor is a middle value.
fn order_factor(order: &Order) -> f64 {
    match order {
        Order::Random => 1.5,
        other => expansion_factor(other),
    }
}

/// Cost of one expansion under a move order relative to `standard`: the random order
/// expands about as fast but needs more expansions in an exact search, the heuristics
/// pay for their lookahead at every expansion (monte-carlo only on its first levels,
/// which dominate).
fn expansion_factor(order: &Order) -> f64 {
    match order {
        Order::Standard => 1.0,
        Order::Random => 1.2,
        Order::MostOptions => 4.0,
        Order::MonteCarlo { playouts, levels } => {
            1.0 + 2.8 * (*playouts as f64) * (*levels as f64) / 300.0
        }
        // Signatures of three stones per successor at every expansion
        // (docs/learned-order.md).
        Order::Learned { .. } => 3.0,
    }
}

/// A rough single-thread time for one game of size `n` under `config`.
///
/// This is the table that sizes default units, so it must be a pure function of the
/// sweep text: only IEEE `+ - * /` and `min`, which give the same bits everywhere. It is
/// part of the format: changing it moves the unit boundaries (and ids) of sweeps that
/// rely on the default, which is why sweeps meant to be resumed across hammer versions
/// should set `unit_games`.
pub fn estimated_game_seconds(n: u8, config: &Config) -> f64 {
    let n = (n as usize).min(EXACT_SECONDS.len() - 1);
    let exact = EXACT_SECONDS[n] * order_factor(&config.order);
    match &config.schedule {
        Schedule::Exact => exact,
        Schedule::List {
            phases,
            then_exact: false,
        } => {
            let total: f64 = phases.iter().map(|&(c, b)| c as f64 * b as f64).sum();
            let per_expansion = EXPANSION_SECONDS[n] * expansion_factor(&config.order);
            (SETUP_SECONDS[n] + BUDGET_USE * total * per_expansion).min(exact)
        }
        // Restarts with a random order find solutions of solvable games far sooner, the
        // endless ones most. With a fixed order they mostly repeat the same search.
        Schedule::Luby { .. } | Schedule::Geometric { .. } | Schedule::Fixed { .. }
            if config.order == Order::Random =>
        {
            exact * 0.22
        }
        _ if config.order == Order::Random => exact * 0.4,
        _ => exact,
    }
}
