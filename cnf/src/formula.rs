//! A CNF formula in memory: a variable count and clauses of DIMACS literals.

use thiserror::Error;

/// The largest variable a formula may have: DIMACS literals are 32-bit signed integers,
/// and `-v` must be one too.
pub const MAX_VARS: u32 = i32::MAX as u32;

/// A formula in conjunctive normal form over the variables `1..=vars`.
///
/// A literal is a DIMACS integer: `v` is the variable `v`, `-v` its negation. The
/// clauses are kept flat (one literal array and the clause ends), since instances of
/// millions of clauses are common and one allocation per clause would cost more than
/// the parse. A clause may be empty, repeat a literal or hold both signs of a variable:
/// DIMACS allows all three, and a solver must cope with them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cnf {
    vars: u32,
    lits: Vec<i32>,
    /// `ends[i]` is one past the last literal of clause `i` in `lits`.
    ends: Vec<usize>,
}

/// A clause that does not fit its formula.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ClauseError {
    /// The literal 0 ends a clause in DIMACS and is never inside one.
    #[error("0 is not a literal")]
    Zero,
    /// The literal names a variable above the formula's count.
    #[error("literal {lit} names a variable above the formula's {vars}")]
    AboveVars {
        /// The literal.
        lit: i32,
        /// The formula's variable count.
        vars: u32,
    },
}

impl Cnf {
    /// An empty formula (no clauses, so satisfied by every assignment) over `vars`
    /// variables, at most [`MAX_VARS`].
    pub fn new(vars: u32) -> Self {
        debug_assert!(vars <= MAX_VARS);
        Cnf {
            vars: vars.min(MAX_VARS),
            lits: Vec::new(),
            ends: Vec::new(),
        }
    }

    /// Like [`Cnf::new`] with room for `clauses` clauses of `lits` literals in all.
    pub fn with_capacity(vars: u32, clauses: usize, lits: usize) -> Self {
        let mut cnf = Cnf::new(vars);
        cnf.ends.reserve(clauses);
        cnf.lits.reserve(lits);
        cnf
    }

    /// The number of variables, as the DIMACS header declares it.
    pub fn vars(&self) -> u32 {
        self.vars
    }

    /// The number of clauses.
    pub fn num_clauses(&self) -> usize {
        self.ends.len()
    }

    /// The number of literals over all clauses.
    pub fn num_literals(&self) -> usize {
        self.lits.len()
    }

    /// Clause `i` (0-based), or `None` past the last.
    pub fn clause(&self, i: usize) -> Option<&[i32]> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        Some(&self.lits[start..end])
    }

    /// The clauses in order.
    pub fn clauses(&self) -> impl ExactSizeIterator<Item = &[i32]> + '_ {
        (0..self.ends.len()).map(move |i| {
            let start = if i == 0 { 0 } else { self.ends[i - 1] };
            &self.lits[start..self.ends[i]]
        })
    }

    /// Appends a clause after checking each literal against the variable count.
    pub fn push_clause(&mut self, clause: &[i32]) -> Result<(), ClauseError> {
        for &lit in clause {
            self.check_literal(lit)?;
        }
        self.lits.extend_from_slice(clause);
        self.ends.push(self.lits.len());
        Ok(())
    }

    /// Whether `lit` may appear in a clause of this formula.
    pub fn check_literal(&self, lit: i32) -> Result<(), ClauseError> {
        if lit == 0 {
            return Err(ClauseError::Zero);
        }
        if lit.unsigned_abs() > self.vars {
            return Err(ClauseError::AboveVars {
                lit,
                vars: self.vars,
            });
        }
        Ok(())
    }

    /// Appends a literal to the clause being built; [`Cnf::end_clause`] closes it.
    /// The caller has checked the literal (the parser and the generators do).
    pub(crate) fn push_unchecked(&mut self, lit: i32) {
        debug_assert!(self.check_literal(lit).is_ok());
        self.lits.push(lit);
    }

    /// Closes the clause of the literals pushed since the last clause ended.
    pub(crate) fn end_clause(&mut self) {
        self.ends.push(self.lits.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_are_kept_in_order_and_checked() {
        let mut cnf = Cnf::new(3);
        cnf.push_clause(&[1, -2]).expect("fits");
        cnf.push_clause(&[]).expect("an empty clause is a clause");
        cnf.push_clause(&[3, 3, -3]).expect("repeats are allowed");
        assert_eq!(cnf.num_clauses(), 3);
        assert_eq!(cnf.num_literals(), 5);
        let clauses: Vec<&[i32]> = cnf.clauses().collect();
        assert_eq!(clauses, vec![&[1, -2][..], &[][..], &[3, 3, -3][..]]);
        assert_eq!(cnf.clause(1), Some(&[][..]));
        assert_eq!(cnf.clause(3), None);
        assert_eq!(cnf.push_clause(&[0]), Err(ClauseError::Zero));
        assert_eq!(
            cnf.push_clause(&[2, -4]),
            Err(ClauseError::AboveVars { lit: -4, vars: 3 })
        );
        assert_eq!(cnf.num_clauses(), 3, "a refused clause is not added");
    }

    #[test]
    fn the_most_negative_integer_is_above_every_count() {
        let cnf = Cnf::new(MAX_VARS);
        assert!(cnf.check_literal(i32::MAX).is_ok());
        assert!(cnf.check_literal(-i32::MAX).is_ok());
        assert!(cnf.check_literal(i32::MIN).is_err());
    }
}
