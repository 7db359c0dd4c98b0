//! What a family hands `hammer analyze` for a section of its own, beyond the section
//! every family gets: which section it is, where the rows keep what the section reads,
//! and how to read the family's notation there. The analysis thus never compares a
//! family's name, spells a family's column names or parses its notation.

/// A family's own section of the analysis, with what it reads of the family's rows.
#[derive(Clone, Copy, Debug)]
pub enum ReportExtras {
    /// Slide tours' section: every single-obstacle board, the empty boards, and the
    /// solved ratio and search cost by board side.
    Tours(TourRows),
}

/// Where a slide-tours row keeps what the analysis's tours section reads (indices into
/// the row's extra cells, in [`crate::Family::columns`] order), and how to read its board.
#[derive(Clone, Copy, Debug)]
pub struct TourRows {
    /// The instance's board in the family's notation.
    pub board: usize,
    /// The number of obstacles on the board.
    pub obstacles: usize,
    /// The number of tours, when the sweep counted them.
    pub count: usize,
    /// The start cells that begin a tour, space-separated, when the sweep counted them.
    pub starts: usize,
    /// The states the count expanded, when the sweep counted them.
    pub count_nodes: usize,
    /// The obstacle cells (0-based row, column), row by row, of a board in the family's
    /// notation; `None` when the text is no board.
    pub obstacle_cells: ObstacleCells,
}

/// Reads a board's obstacle cells (0-based row, column) from its text; `None` when the
/// text is no board.
pub type ObstacleCells = fn(&str) -> Option<Vec<(usize, usize)>>;
