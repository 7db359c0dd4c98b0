//! What a family hands `hammer analyze` for a section of its own, beyond the section
//! every family gets: which section it is, where the rows keep what the section reads,
//! and how to read the family's notation there. The analysis thus never compares a
//! family's name or spells a family's column names.

use crate::tours::TourRows;

/// A family's own section of the analysis, with what it reads of the family's rows.
#[derive(Clone, Copy, Debug)]
pub enum ReportExtras {
    /// Slide tours' section: every single-obstacle board, the empty boards, and the
    /// solved ratio and search cost by board side.
    Tours(TourRows),
}
