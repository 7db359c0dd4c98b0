//! Solvers.
