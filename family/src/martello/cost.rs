//! The cost table of Martello games that sizes default work units (see
//! [`crate::Family::estimated_seconds`]).

use hammer_solver::{Config, Order, Schedule};

/// Seconds per game of plain exact search (order `standard`, schedule `exact`) by board
/// size, one thread, measured with `hammer bench` on the 2-core development machine
/// (2026-11): n = 1..5 in a few tens of microseconds, n = 6 at 85-95 games/s, n = 7 at
/// 0.2 games/s over 30 games (one took 50 million expansions). n = 8 was not measured
/// (it would take hours); its entry is a guess, so give `unit_games` for n = 8 sweeps.
const EXACT_SECONDS: [f64; 9] = [0.0, 40e-6, 40e-6, 40e-6, 50e-6, 150e-6, 12e-3, 5.0, 300.0];

/// Seconds per expansion by size (1.5 million expansions/s up to n = 6, 0.67 million at
/// n = 7), for budgeted schedules whose cost is capped by the budget.
const EXPANSION_SECONDS: [f64; 9] = [
    0.0, 0.6e-6, 0.6e-6, 0.6e-6, 0.6e-6, 0.65e-6, 0.65e-6, 1.5e-6, 2.0e-6,
];

/// Fixed cost of one solve (the memo reset, the bounds of the start), measured as the
/// time of budget-100 runs at n = 6.
const SETUP_SECONDS: [f64; 9] = [
    0.0, 20e-6, 20e-6, 30e-6, 30e-6, 50e-6, 100e-6, 200e-6, 300e-6,
];

/// Share of a budget that a budgeted attempt uses on average, since solvable games often
/// finish early: random/B at n = 6 used 90% of B = 1,000 and 55% of B = 10,000.
const BUDGET_USE: f64 = 0.8;

/// Cost of a whole exact search under a move order relative to `standard`, at n = 6:
/// most-options 23 games/s, monte-carlo (100 playouts on 3 levels) 25, against 94 for
/// standard; random measured between 48 games/s (300 games) and par with standard
/// (52,000 sampled solves), heavy tails making the difference.
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
        // Signatures of three stones per successor at every expansion: 2 to 3 times
        // random's cost per expansion (docs/learned-order.md).
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
        // Restarts with a random order find solutions of solvable games far sooner: at
        // n = 6, random/luby:256 ran at 204 games/s and random/paper at 108, against 48
        // for random/exact. With a fixed order they mostly repeat the same search.
        Schedule::Luby { .. } | Schedule::Geometric { .. } | Schedule::Fixed { .. }
            if config.order == Order::Random =>
        {
            exact * 0.22
        }
        _ if config.order == Order::Random => exact * 0.4,
        _ => exact,
    }
}
