//! The independent-restart model: what a schedule of budgets is expected to cost on one
//! game, given that game's empirical run-time distribution.
//!
//! An attempt of a randomized search with budget `b` on a game whose attempt length is
//! the random variable `T` costs `min(T, b)` expansions and finishes with probability
//! `F(b) = P(T <= b)`. If attempts are independent, a schedule `b_1, b_2, ...` costs
//!
//! ```text
//! E[cost] = sum_j S_{j-1} * E[min(T, b_j)]  (+ S_J * X when it ends in a fallback)
//! S_j     = prod_{i <= j} (1 - F(b_i)),  S_0 = 1
//! ```
//!
//! where `X` is the cost of the exact search the schedule falls back on. For the fixed
//! cutoff `t` repeated forever this is Luby, Sinclair and Zuckerman's
//! `E[min(T, t)] / F(t)`.
//!
//! The distribution is the game's `K` measured attempts, each capped at `C`: an attempt
//! that ran into the cap only says `T > C`. For budgets up to `C` both `F(b)` and
//! `E[min(T, b)]` are exact functions of the sample (a capped attempt contributes `b`
//! to `min(T, b)` and nothing to `F(b)`), so the estimate needs no extrapolation there.
//! Beyond `C` the sample says nothing, and [`Walk::beyond_cap`] reports how much of the
//! schedule's probability mass got there instead of guessing.

/// The measured attempts of one game.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRtd {
    /// Lengths of the attempts that finished (solved, or proved the game's minimum), in
    /// ascending order.
    finished: Vec<u64>,
    /// `prefix[i]` is the sum of the `i` shortest finished lengths.
    prefix: Vec<u64>,
    /// All attempts, finished or capped.
    attempts: u32,
    /// The cap every attempt ran under.
    cap: u64,
}

impl GameRtd {
    /// `finished` are the lengths of the attempts that finished, `attempts` the number of
    /// attempts in all (so `attempts - finished.len()` were capped at `cap`).
    ///
    /// Lengths above the cap cannot come from an attempt that ran under it and are taken
    /// as capped. `attempts` is raised to at least the number of finished lengths.
    pub fn new(mut finished: Vec<u64>, attempts: u32, cap: u64) -> GameRtd {
        finished.retain(|&t| t <= cap);
        finished.sort_unstable();
        let attempts = attempts.max(finished.len() as u32);
        let mut prefix = Vec::with_capacity(finished.len() + 1);
        let mut sum = 0u64;
        prefix.push(0);
        for &t in &finished {
            sum = sum.saturating_add(t);
            prefix.push(sum);
        }
        GameRtd {
            finished,
            prefix,
            attempts,
            cap,
        }
    }

    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    pub fn cap(&self) -> u64 {
        self.cap
    }

    pub fn finished(&self) -> &[u64] {
        &self.finished
    }

    /// Whether any attempt finished within the cap.
    pub fn ever_finished(&self) -> bool {
        !self.finished.is_empty()
    }

    /// `F(b)` and `E[min(T, b)]` for a budget `b <= cap`; `None` beyond the cap, where the
    /// sample does not determine them.
    pub fn at(&self, budget: u64) -> Option<Step> {
        if budget > self.cap || self.attempts == 0 {
            return None;
        }
        let done = self.finished.partition_point(|&t| t <= budget);
        let k = f64::from(self.attempts);
        let rest = f64::from(self.attempts) - done as f64;
        Some(Step {
            finish: done as f64 / k,
            expected: (self.prefix[done] as f64 + rest * budget as f64) / k,
        })
    }
}

/// One attempt's finishing probability and expected length under a given budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// `F(b)`.
    pub finish: f64,
    /// `E[min(T, b)]`.
    pub expected: f64,
}

/// The result of walking a schedule's budgets on one game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Walk {
    /// Expected expansions spent by the attempts walked.
    pub spent: f64,
    /// Probability that none of them finished (`S_J`).
    pub survive: f64,
    /// Probability that the schedule reached a budget beyond the cap, where the walk
    /// stopped because the data cannot price it. Zero when every budget fitted.
    pub beyond_cap: f64,
}

impl Walk {
    /// The cost with an exact fallback of expected cost `fallback` after the budgets.
    pub fn with_fallback(&self, fallback: f64) -> f64 {
        self.spent + self.survive * fallback
    }
}

/// Below this survival probability the rest of an endless schedule changes the expected
/// cost by less than `survive * (budget sum)`, which the walk bounds explicitly, so it
/// stops there.
const NEGLIGIBLE: f64 = 1e-12;

/// Walks `budgets` in order on `game`, stopping at the first budget beyond the cap (that
/// attempt and everything after it are reported as [`Walk::beyond_cap`]), at the end of
/// the budgets, or once the survival probability is negligible.
pub fn walk(game: &GameRtd, budgets: impl IntoIterator<Item = u64>) -> Walk {
    let mut spent = 0.0;
    let mut survive = 1.0;
    for b in budgets {
        if survive < NEGLIGIBLE {
            break;
        }
        let Some(step) = game.at(b) else {
            return Walk {
                spent,
                survive,
                beyond_cap: survive,
            };
        };
        spent += survive * step.expected;
        survive *= 1.0 - step.finish;
    }
    Walk {
        spent,
        survive,
        beyond_cap: 0.0,
    }
}

/// `m` attempts of cutoff `t` in closed form: `E[min(T,t)] (1 - q^m) / (1 - q)`, with
/// `q = 1 - F(t)`; `m = None` repeats forever. `None` when `t` is beyond the cap.
pub fn fixed(game: &GameRtd, t: u64, m: Option<u32>) -> Option<Walk> {
    let step = game.at(t)?;
    let q = 1.0 - step.finish;
    Some(match m {
        Some(m) => {
            let qm = q.powi(m as i32);
            let spent = if step.finish > 0.0 {
                step.expected * (1.0 - qm) / step.finish
            } else {
                step.expected * f64::from(m)
            };
            Walk {
                spent,
                survive: qm,
                beyond_cap: 0.0,
            }
        }
        None if step.finish > 0.0 => Walk {
            spent: step.expected / step.finish,
            survive: 0.0,
            beyond_cap: 0.0,
        },
        // Never finishes at this cutoff: restarting forever never ends.
        None => Walk {
            spent: f64::INFINITY,
            survive: 1.0,
            beyond_cap: 0.0,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() <= 1e-9 * b.abs().max(1.0), "{a} != {b}");
    }

    #[test]
    fn steps_count_capped_attempts_as_the_budget() {
        // Attempts 10, 20, 40 and two capped at 100.
        let g = GameRtd::new(vec![40, 10, 20], 5, 100);
        let s = g.at(20).unwrap();
        close(s.finish, 2.0 / 5.0);
        close(s.expected, (10.0 + 20.0 + 3.0 * 20.0) / 5.0);
        let s = g.at(100).unwrap();
        close(s.finish, 3.0 / 5.0);
        close(s.expected, (70.0 + 200.0) / 5.0);
        assert!(g.at(101).is_none());
    }

    /// The textbook case: T is 1 with probability p and L otherwise (L large). A fixed
    /// cutoff of 1 costs 1/p; a cutoff of L costs p + (1-p) L. With p = 1/4, L = 100
    /// the first is 4 and the second 75.25, so t* = 1.
    #[test]
    fn fixed_cutoff_matches_the_hand_computed_optimum() {
        let g = GameRtd::new(vec![1, 100, 100, 100], 4, 100);
        close(fixed(&g, 1, None).unwrap().spent, 4.0);
        close(fixed(&g, 100, None).unwrap().spent, 0.25 + 0.75 * 100.0);
        // Any cutoff in between only adds work: E[min(T,t)] = (1 + 3t)/4, F = 1/4.
        close(fixed(&g, 10, None).unwrap().spent, 1.0 + 3.0 * 10.0);
        // The walk over the same endless budgets agrees with the closed form.
        let w = walk(&g, std::iter::repeat(1));
        close(w.spent, 4.0);
        assert_eq!(w.beyond_cap, 0.0);
    }

    #[test]
    fn finite_schedules_pay_the_fallback_when_nothing_finished() {
        let g = GameRtd::new(vec![], 3, 50);
        let w = walk(&g, [10, 10, 20]);
        close(w.spent, 40.0);
        close(w.survive, 1.0);
        close(w.with_fallback(1000.0), 1040.0);
        let f = fixed(&g, 10, Some(3)).unwrap();
        close(f.with_fallback(1000.0), 1030.0);
        assert!(fixed(&g, 10, None).unwrap().spent.is_infinite());
    }

    #[test]
    fn budgets_beyond_the_cap_are_reported_not_priced() {
        let g = GameRtd::new(vec![30], 2, 50);
        let w = walk(&g, [20, 40, 80, 160]);
        // 20: nothing finishes, costs 20. 40: half finish, costs (30 + 40) / 2 = 35.
        close(w.spent, 20.0 + 35.0);
        close(w.beyond_cap, 0.5);
    }

    #[test]
    fn closed_form_and_walk_agree_on_a_finite_count() {
        let g = GameRtd::new(vec![3, 7, 12, 30], 6, 40);
        for t in [3, 5, 12, 40] {
            for m in [1, 2, 5, 9] {
                let a = fixed(&g, t, Some(m)).unwrap();
                let b = walk(&g, std::iter::repeat_n(t, m as usize));
                close(a.spent, b.spent);
                close(a.survive, b.survive);
            }
        }
    }
}
