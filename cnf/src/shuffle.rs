//! A seeded shuffle of an instance: its variables renamed, its clauses and the literals
//! within them reordered, and the map that takes a model of the shuffle back to the
//! original.
//!
//! Most solvers' seeds change little of what they do (MiniSat's nothing, under its
//! defaults), while the order of variables and clauses steers every tie a CDCL solver
//! breaks. A shuffle is therefore the solver-independent way to give one instance many
//! random starts, as SAT competitions' shuffled instances and `cnfshuffle` do.
//!
//! # Sign flips are sound
//!
//! With [`Signs::Flip`] each variable is also negated everywhere with probability 1/2.
//! Negating every occurrence of a variable maps the models of the formula one to one
//! onto the models of the result (negate that variable's value), so satisfiability, the
//! number of models and the structure of the clauses are all kept, and a model of the
//! result maps back to a model of the original exactly, which [`Renaming::to_original`]
//! does. What flips change is the start: solvers begin from a fixed phase (every
//! variable false, or every one true), and a flip moves that start to another corner.
//!
//! # The procedure (a contract)
//!
//! A shuffle is a pure function of the instance, `seed`, `index` and [`Signs`]. Its
//! random stream is [`seeded::stream`]`(seed, "cnf-shuffle", index)`, and
//! `fisher_yates(a)` below means: for `i` from `len(a) - 1` down to 1, draw
//! `j = bounded(i + 1)` ([`seeded::bounded`]) and swap `a[i]` and `a[j]`.
//! 1. `names = [1, 2, ..., vars]`; `fisher_yates(names)`. Variable `v` becomes
//!    `names[v - 1]`.
//! 2. With [`Signs::Flip`]: for `v` from 1 to `vars`, draw `bounded(2)`; on 1, the
//!    literals of `v` are negated. With [`Signs::Keep`] nothing is drawn.
//! 3. `order = [0, 1, ..., clauses - 1]`; `fisher_yates(order)`. Clause `j` of the
//!    shuffle is clause `order[j]` of the original.
//! 4. For `j` from 0 up, the literals of clause `j` (renamed and flipped, in the
//!    original's order) are put through `fisher_yates`.

use hammer_puzzle::seeded;
use rand_chacha::ChaCha20Rng;
use thiserror::Error;

use crate::formula::Cnf;
use crate::model::{Model, Violation};

/// The label of the shuffle's stream.
pub const LABEL: &str = "cnf-shuffle";

/// Whether a shuffle also negates variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signs {
    /// Variables keep their signs: the shuffle only renames and reorders.
    Keep,
    /// Each variable is negated everywhere with probability 1/2 (sound: see the module
    /// documentation).
    Flip,
}

/// A formula the shuffle cannot draw for.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShuffleError {
    /// An index above [`seeded::MAX_INDEX`].
    #[error("shuffle index {index} is above the largest, {}", seeded::MAX_INDEX)]
    IndexTooLarge {
        /// The index.
        index: u64,
    },
    /// More clauses, or more literals in one clause, than 32-bit draws can order.
    #[error("{count} items are too many to shuffle (at most {})", u32::MAX)]
    TooLarge {
        /// The count.
        count: usize,
    },
}

/// How a shuffle renamed the variables, to take models back to the original.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Renaming {
    /// `forward[v - 1]`: the literal that the original's literal `v` became.
    forward: Vec<i32>,
    /// `back[w - 1]`: the original literal that the shuffle's literal `w` stands for.
    back: Vec<i32>,
}

impl Renaming {
    /// The literal of the shuffle that the original's `lit` became.
    pub fn to_shuffled_literal(&self, lit: i32) -> i32 {
        rename(&self.forward, lit)
    }

    /// The original literal that the shuffle's `lit` stands for.
    pub fn to_original_literal(&self, lit: i32) -> i32 {
        rename(&self.back, lit)
    }

    /// A model of the shuffled formula as a model of the original. A model that assigns
    /// a variable the formula does not have is refused.
    pub fn to_original(&self, model: &Model) -> Result<Model, Violation> {
        let vars = self.back.len() as u32;
        if model.max_var() > vars {
            return Err(Violation::UnknownVariable {
                var: model.max_var(),
                vars,
            });
        }
        let lits = model
            .literals()
            .iter()
            .map(|&lit| self.to_original_literal(lit));
        // Renaming is a bijection on literals, so the result has no conflict.
        Ok(Model::from_literals(lits).unwrap_or_default())
    }
}

fn rename(table: &[i32], lit: i32) -> i32 {
    let image = table[lit.unsigned_abs() as usize - 1];
    if lit < 0 { -image } else { image }
}

/// The shuffle of `cnf` for `seed` and `index`, and the renaming it made (the procedure
/// in the module documentation).
pub fn shuffle(
    cnf: &Cnf,
    seed: u64,
    index: u64,
    signs: Signs,
) -> Result<(Cnf, Renaming), ShuffleError> {
    if index > seeded::MAX_INDEX {
        return Err(ShuffleError::IndexTooLarge { index });
    }
    let mut rng = seeded::stream(seed, LABEL, index);
    let vars = cnf.vars();
    let mut forward: Vec<i32> = (1..=vars as i32).collect();
    fisher_yates(&mut rng, &mut forward)?;
    if signs == Signs::Flip {
        for lit in &mut forward {
            if seeded::bounded(&mut rng, 2) == 1 {
                *lit = -*lit;
            }
        }
    }
    let mut back = vec![0; vars as usize];
    for (v, &lit) in (1..).zip(&forward) {
        back[lit.unsigned_abs() as usize - 1] = if lit < 0 { -v } else { v };
    }
    let mut order: Vec<usize> = (0..cnf.num_clauses()).collect();
    fisher_yates(&mut rng, &mut order)?;
    let mut shuffled = Cnf::with_capacity(vars, cnf.num_clauses(), cnf.num_literals());
    let mut clause = Vec::new();
    for &i in &order {
        clause.clear();
        let original = cnf.clause(i).unwrap_or_default();
        clause.extend(original.iter().map(|&lit| rename(&forward, lit)));
        fisher_yates(&mut rng, &mut clause)?;
        for &lit in &clause {
            shuffled.push_unchecked(lit);
        }
        shuffled.end_clause();
    }
    Ok((shuffled, Renaming { forward, back }))
}

fn fisher_yates<T>(rng: &mut ChaCha20Rng, items: &mut [T]) -> Result<(), ShuffleError> {
    if u32::try_from(items.len()).is_err() {
        return Err(ShuffleError::TooLarge { count: items.len() });
    }
    for i in (1..items.len()).rev() {
        let j = seeded::bounded(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ksat::KSat;

    fn sorted_clauses(cnf: &Cnf) -> Vec<Vec<i32>> {
        let mut clauses: Vec<Vec<i32>> = cnf
            .clauses()
            .map(|c| {
                let mut c = c.to_vec();
                c.sort_unstable();
                c
            })
            .collect();
        clauses.sort();
        clauses
    }

    #[test]
    fn a_shuffle_is_the_same_formula_renamed() {
        let cnf = KSat::with_ratio(3, 30, 4.0)
            .expect("valid")
            .generate(5, 0)
            .expect("ok");
        for signs in [Signs::Keep, Signs::Flip] {
            let (shuffled, renaming) = shuffle(&cnf, 9, 2, signs).expect("ok");
            assert_ne!(shuffled, cnf);
            assert_eq!(shuffled.vars(), cnf.vars());
            // Renaming the shuffle back gives the original's clauses, as multisets.
            let mut back = Cnf::new(cnf.vars());
            for clause in shuffled.clauses() {
                let original: Vec<i32> = clause
                    .iter()
                    .map(|&l| renaming.to_original_literal(l))
                    .collect();
                back.push_clause(&original).expect("fits");
            }
            assert_eq!(sorted_clauses(&back), sorted_clauses(&cnf));
            for lit in [1, -1, 17, -30] {
                let there = renaming.to_shuffled_literal(lit);
                assert_eq!(renaming.to_original_literal(there), lit);
            }
            let flipped = (1..=30).filter(|&v| renaming.to_shuffled_literal(v) < 0);
            match signs {
                Signs::Keep => assert_eq!(flipped.count(), 0),
                Signs::Flip => assert!((5..=25).contains(&flipped.count())),
            }
        }
    }

    #[test]
    fn shuffles_are_seeded() {
        let cnf = KSat::new(3, 20, 50)
            .expect("valid")
            .generate(1, 0)
            .expect("ok");
        let one = shuffle(&cnf, 4, 0, Signs::Flip).expect("ok");
        assert_eq!(shuffle(&cnf, 4, 0, Signs::Flip).expect("ok"), one);
        assert_ne!(shuffle(&cnf, 4, 1, Signs::Flip).expect("ok").0, one.0);
        assert_ne!(shuffle(&cnf, 5, 0, Signs::Flip).expect("ok").0, one.0);
    }

    #[test]
    fn models_map_back() {
        let mut cnf = Cnf::new(3);
        for clause in [&[1, -2][..], &[2, 3], &[-1, -3]] {
            cnf.push_clause(clause).expect("fits");
        }
        let (shuffled, renaming) = shuffle(&cnf, 1, 0, Signs::Flip).expect("ok");
        // Every satisfying assignment of the shuffle maps to one of the original.
        let mut models = 0;
        for bits in 0..8u32 {
            let lits = (1..=3).map(|v| if bits >> (v - 1) & 1 == 1 { v } else { -v });
            let model = Model::from_literals(lits).expect("model");
            if shuffled.check(&model).is_ok() {
                models += 1;
                let original = renaming.to_original(&model).expect("fits");
                assert_eq!(cnf.check(&original), Ok(()));
            }
        }
        assert_eq!(
            models, 2,
            "the formula has two models, and so has its shuffle"
        );
        let too_big = Model::from_literals([4]).expect("model");
        assert!(renaming.to_original(&too_big).is_err());
    }

    #[test]
    fn an_empty_formula_shuffles() {
        let (shuffled, _) = shuffle(&Cnf::new(0), 1, 0, Signs::Flip).expect("ok");
        assert_eq!(shuffled, Cnf::new(0));
    }
}
