//! Models (assignments of truth values to variables) and the check that one satisfies a
//! formula.

use thiserror::Error;

use crate::formula::Cnf;

/// A possibly partial assignment: a set of literals, at most one per variable.
///
/// `v` in the set makes the variable `v` true, `-v` makes it false, and a variable in
/// neither form is unassigned. SAT-competition solvers print full models, but the
/// competition's checker accepts a partial one that satisfies every clause, and so does
/// [`Cnf::check`]: an unassigned variable makes none of its literals true.
///
/// The literals are kept sorted by variable rather than in an array indexed by
/// variable, so that the memory a model takes follows the solver's output, never a
/// variable number in it (a garbage `v 2000000000 0` costs one entry).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Model {
    lits: Vec<i32>,
}

/// Literals that do not form a model.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ModelError {
    /// 0, or -2^31 (whose variable is no 32-bit integer).
    #[error("{lit} is not a literal")]
    NotALiteral {
        /// The integer.
        lit: i32,
    },
    /// A variable given both values.
    #[error("variable {var} is both true and false")]
    Conflict {
        /// The variable.
        var: u32,
    },
}

impl Model {
    /// The model of the given literals. A literal given twice counts once; a variable
    /// given both signs is an error.
    pub fn from_literals<I: IntoIterator<Item = i32>>(lits: I) -> Result<Self, ModelError> {
        let mut lits: Vec<i32> = lits.into_iter().collect();
        if let Some(&lit) = lits.iter().find(|&&l| l == 0 || l == i32::MIN) {
            return Err(ModelError::NotALiteral { lit });
        }
        lits.sort_unstable_by_key(|&lit| (lit.unsigned_abs(), lit));
        lits.dedup();
        if let Some(pair) = lits
            .windows(2)
            .find(|pair| pair[0].unsigned_abs() == pair[1].unsigned_abs())
        {
            return Err(ModelError::Conflict {
                var: pair[0].unsigned_abs(),
            });
        }
        Ok(Model { lits })
    }

    /// The value of `var`: `Some(true)`, `Some(false)`, or `None` if unassigned.
    pub fn value(&self, var: u32) -> Option<bool> {
        self.lits
            .binary_search_by_key(&var, |lit| lit.unsigned_abs())
            .ok()
            .map(|i| self.lits[i] > 0)
    }

    /// The literals, sorted by variable.
    pub fn literals(&self) -> &[i32] {
        &self.lits
    }

    /// The number of assigned variables.
    pub fn len(&self) -> usize {
        self.lits.len()
    }

    /// Whether no variable is assigned.
    pub fn is_empty(&self) -> bool {
        self.lits.is_empty()
    }

    /// The largest assigned variable, or 0.
    pub fn max_var(&self) -> u32 {
        self.lits.last().map_or(0, |lit| lit.unsigned_abs())
    }
}

/// Why a model does not satisfy a formula.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Violation {
    /// The model assigns a variable the formula does not have.
    #[error("the model assigns variable {var}, above the formula's {vars}")]
    UnknownVariable {
        /// The variable.
        var: u32,
        /// The formula's variable count.
        vars: u32,
    },
    /// A clause with no literal true under the model.
    #[error("clause {} of {clauses} (counting from 1) is not satisfied", .clause + 1)]
    Falsified {
        /// The clause's 0-based index.
        clause: usize,
        /// The formula's clause count.
        clauses: usize,
    },
}

impl Cnf {
    /// Whether `model` satisfies every clause, and if not the first clause it falsifies.
    ///
    /// A model that assigns a variable above [`Cnf::vars`] is refused, since no solver
    /// that read this formula has a reason to print one.
    pub fn check(&self, model: &Model) -> Result<(), Violation> {
        let vars = self.vars();
        if model.max_var() > vars {
            return Err(Violation::UnknownVariable {
                var: model.max_var(),
                vars,
            });
        }
        // The value of each literal: index `vars + lit`, so both signs fit one array.
        let mut truth = vec![false; 2 * vars as usize + 1];
        let offset = vars as i64;
        for &lit in model.literals() {
            truth[(offset + i64::from(lit)) as usize] = true;
        }
        let clauses = self.num_clauses();
        for (clause, lits) in self.clauses().enumerate() {
            if !lits
                .iter()
                .any(|&lit| truth[(offset + i64::from(lit)) as usize])
            {
                return Err(Violation::Falsified { clause, clauses });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn formula() -> Cnf {
        let mut cnf = Cnf::new(3);
        for clause in [&[1, -2][..], &[2, 3], &[-1, -3]] {
            cnf.push_clause(clause).expect("fits");
        }
        cnf
    }

    #[test]
    fn models_are_sets_of_literals() {
        let model = Model::from_literals([3, -1, 3, 2]).expect("a model");
        assert_eq!(model.literals(), &[-1, 2, 3]);
        assert_eq!(model.value(1), Some(false));
        assert_eq!(model.value(3), Some(true));
        assert_eq!(model.value(4), None);
        assert_eq!(model.max_var(), 3);
        assert_eq!(
            Model::from_literals([1, 2, -1]),
            Err(ModelError::Conflict { var: 1 })
        );
        assert_eq!(
            Model::from_literals([1, 0]),
            Err(ModelError::NotALiteral { lit: 0 })
        );
        assert_eq!(
            Model::from_literals([i32::MIN]),
            Err(ModelError::NotALiteral { lit: i32::MIN })
        );
    }

    #[test]
    fn checks() {
        let cnf = formula();
        let model = |lits: &[i32]| Model::from_literals(lits.iter().copied()).expect("model");
        assert_eq!(cnf.check(&model(&[1, 2, -3])), Ok(()));
        assert_eq!(cnf.check(&model(&[-1, -2, 3])), Ok(()));
        assert_eq!(
            cnf.check(&model(&[1, 2, 3])),
            Err(Violation::Falsified {
                clause: 2,
                clauses: 3
            })
        );
        // Partial: clause 2 (2 or 3) has no true literal.
        assert_eq!(
            cnf.check(&model(&[-1, -2])),
            Err(Violation::Falsified {
                clause: 1,
                clauses: 3
            })
        );
        let mut two = Cnf::new(3);
        two.push_clause(&[1, -2]).expect("fits");
        two.push_clause(&[2, 3]).expect("fits");
        assert_eq!(two.check(&model(&[1, 3])), Ok(()), "a partial model");
        assert_eq!(
            cnf.check(&model(&[1, 2, -3, 4])),
            Err(Violation::UnknownVariable { var: 4, vars: 3 })
        );
        let mut empty_clause = Cnf::new(1);
        empty_clause.push_clause(&[]).expect("fits");
        assert!(empty_clause.check(&model(&[1])).is_err());
        assert_eq!(Cnf::new(0).check(&Model::default()), Ok(()));
    }
}
