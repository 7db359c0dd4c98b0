//! Uniform random k-SAT, from hammer's seeded streams.
//!
//! # The procedure (a contract)
//!
//! An instance is a pure function of `(k, vars, clauses, seed, index)`, and a golden test
//! pins the digests of a few, so this procedure never changes; a different one would be
//! a new generator with a new label.
//!
//! 1. The random stream is [`seeded::stream`]`(seed, "ksat", index)`: ChaCha20 keyed by
//!    the seed and the label `ksat`, at stream number `index` (at most
//!    [`seeded::MAX_INDEX`]).
//! 2. With a ratio, the clause count is `m = round(ratio × vars)`, computed in IEEE
//!    double precision and rounded half away from zero (`f64::round`).
//! 3. Each of the `m` clauses in turn is drawn as `k` literals in turn. For a literal:
//!    draw `v = 1 + bounded(vars)` until `v` differs from the variables already in the
//!    clause, then draw `s = bounded(2)`; the literal is `-v` if `s = 1`, else `v`.
//!    `bounded` is [`seeded::bounded`] (Lemire's method on 32-bit words).
//! 4. The literals keep the order they were drawn in; nothing is sorted.
//!
//! The clauses are thus drawn uniformly and independently from the `C(vars, k) · 2^k`
//! clauses of `k` distinct variables, with replacement (two clauses may be equal), the
//! model of Mitchell, Selman and Levesque (1992) and of SATLIB's `uf` sets.
//!
//! A consequence of drawing clause by clause: with the same seed, index, `k` and `vars`,
//! an instance with fewer clauses is a prefix of one with more. Instances of one index
//! at increasing ratios are nested, so their satisfiability can only fall along the
//! ratio (common random numbers, which makes differences between ratios less noisy).
//! Points that must be independent take different indices or seeds.

use hammer_puzzle::seeded;
use thiserror::Error;

use crate::formula::{Cnf, MAX_VARS};

/// The label of the generator's stream.
pub const LABEL: &str = "ksat";

/// The largest clause count: DIMACS readers keep counts in 32-bit integers.
pub const MAX_CLAUSES: u64 = i32::MAX as u64;

/// The parameters of uniform random k-SAT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KSat {
    k: u32,
    vars: u32,
    clauses: u64,
}

/// Parameters that give no k-SAT instance.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum KSatError {
    /// `k = 0`.
    #[error("k must be at least 1")]
    ZeroK,
    /// More literals a clause than variables to draw them from.
    #[error("k = {k} distinct variables cannot be drawn from {vars}")]
    KAboveVars {
        /// The clause width.
        k: u32,
        /// The variable count.
        vars: u32,
    },
    /// More variables than DIMACS allows.
    #[error("{vars} variables is above the largest DIMACS count, {MAX_VARS}")]
    TooManyVars {
        /// The variable count.
        vars: u64,
    },
    /// A ratio that is negative, infinite or not a number.
    #[error("the clause/variable ratio {ratio} is not a finite number >= 0")]
    BadRatio {
        /// The ratio.
        ratio: f64,
    },
    /// More clauses than DIMACS readers count.
    #[error("{clauses} clauses is above the largest DIMACS count, {MAX_CLAUSES}")]
    TooManyClauses {
        /// The clause count (rounded, with a ratio).
        clauses: f64,
    },
    /// An index above [`seeded::MAX_INDEX`].
    #[error("instance index {index} is above the largest, {}", seeded::MAX_INDEX)]
    IndexTooLarge {
        /// The index.
        index: u64,
    },
}

impl KSat {
    /// `clauses` clauses of `k` distinct variables out of `vars`.
    pub fn new(k: u32, vars: u64, clauses: u64) -> Result<Self, KSatError> {
        if k == 0 {
            return Err(KSatError::ZeroK);
        }
        let vars = u32::try_from(vars)
            .ok()
            .filter(|&v| v <= MAX_VARS)
            .ok_or(KSatError::TooManyVars { vars })?;
        if k > vars {
            return Err(KSatError::KAboveVars { k, vars });
        }
        if clauses > MAX_CLAUSES {
            return Err(KSatError::TooManyClauses {
                clauses: clauses as f64,
            });
        }
        Ok(KSat { k, vars, clauses })
    }

    /// `round(ratio × vars)` clauses (step 2 of the procedure).
    pub fn with_ratio(k: u32, vars: u64, ratio: f64) -> Result<Self, KSatError> {
        if !ratio.is_finite() || ratio < 0.0 {
            return Err(KSatError::BadRatio { ratio });
        }
        let clauses = (ratio * vars as f64).round();
        if clauses > MAX_CLAUSES as f64 {
            return Err(KSatError::TooManyClauses { clauses });
        }
        Self::new(k, vars, clauses as u64)
    }

    /// The clause width.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// The variable count.
    pub fn vars(&self) -> u32 {
        self.vars
    }

    /// The clause count.
    pub fn clauses(&self) -> u64 {
        self.clauses
    }

    /// The instance of `seed` and `index` (the procedure in the module documentation).
    pub fn generate(&self, seed: u64, index: u64) -> Result<Cnf, KSatError> {
        if index > seeded::MAX_INDEX {
            return Err(KSatError::IndexTooLarge { index });
        }
        let mut rng = seeded::stream(seed, LABEL, index);
        let k = self.k as usize;
        let clauses = self.clauses as usize;
        let mut cnf = Cnf::with_capacity(self.vars, clauses, clauses.saturating_mul(k));
        let mut clause: Vec<u32> = Vec::with_capacity(k);
        for _ in 0..clauses {
            clause.clear();
            for _ in 0..k {
                let var = loop {
                    let var = 1 + seeded::bounded(&mut rng, self.vars);
                    if !clause.contains(&var) {
                        break var;
                    }
                };
                clause.push(var);
                let var = var as i32;
                let negative = seeded::bounded(&mut rng, 2) == 1;
                cnf.push_unchecked(if negative { -var } else { var });
            }
            cnf.end_clause();
        }
        Ok(cnf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_widths() {
        let ksat = KSat::with_ratio(3, 50, 4.26).expect("valid");
        assert_eq!(ksat.clauses(), 213);
        let cnf = ksat.generate(7, 0).expect("generated");
        assert_eq!((cnf.vars(), cnf.num_clauses()), (50, 213));
        for clause in cnf.clauses() {
            assert_eq!(clause.len(), 3);
            let mut vars: Vec<u32> = clause.iter().map(|l| l.unsigned_abs()).collect();
            vars.sort_unstable();
            vars.dedup();
            assert_eq!(vars.len(), 3, "distinct variables in {clause:?}");
            assert!(vars.iter().all(|&v| (1..=50).contains(&v)));
        }
    }

    #[test]
    fn rounding_is_half_away_from_zero() {
        assert_eq!(KSat::with_ratio(1, 2, 4.25).expect("valid").clauses(), 9);
        assert_eq!(
            KSat::with_ratio(3, 100, 4.26).expect("valid").clauses(),
            426
        );
        assert_eq!(KSat::with_ratio(3, 3, 0.0).expect("valid").clauses(), 0);
    }

    #[test]
    fn refusals() {
        assert_eq!(KSat::new(0, 5, 1), Err(KSatError::ZeroK));
        assert_eq!(
            KSat::new(4, 3, 1),
            Err(KSatError::KAboveVars { k: 4, vars: 3 })
        );
        assert!(matches!(
            KSat::new(3, 1 << 31, 1),
            Err(KSatError::TooManyVars { .. })
        ));
        assert!(matches!(
            KSat::with_ratio(3, 10, f64::NAN),
            Err(KSatError::BadRatio { .. })
        ));
        assert!(matches!(
            KSat::with_ratio(3, 10, -1.0),
            Err(KSatError::BadRatio { .. })
        ));
        assert!(matches!(
            KSat::with_ratio(3, 1 << 30, 4.0),
            Err(KSatError::TooManyClauses { .. })
        ));
        let ksat = KSat::new(3, 10, 1).expect("valid");
        assert_eq!(
            ksat.generate(1, seeded::MAX_INDEX + 1),
            Err(KSatError::IndexTooLarge {
                index: seeded::MAX_INDEX + 1
            })
        );
    }

    #[test]
    fn k_equal_to_vars_uses_every_variable() {
        let cnf = KSat::new(5, 5, 20)
            .expect("valid")
            .generate(3, 1)
            .expect("ok");
        for clause in cnf.clauses() {
            let mut vars: Vec<u32> = clause.iter().map(|l| l.unsigned_abs()).collect();
            vars.sort_unstable();
            assert_eq!(vars, [1, 2, 3, 4, 5]);
        }
    }
}
