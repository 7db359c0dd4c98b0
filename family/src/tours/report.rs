//! What the analysis's tours section reads of a tours row ([`TourRows`]): the indices of
//! the family's columns in the row's extra cells, and the obstacles of a board in the
//! family's notation.

use hammer_engine::tours::Board;

use crate::TourRows;

/// The section's handles on the family's columns ([`super::COLUMNS`]).
pub(super) const TOUR_ROWS: TourRows = TourRows {
    board: 0,
    obstacles: 1,
    count: 5,
    starts: 6,
    count_nodes: 7,
    obstacle_cells,
};

fn obstacle_cells(text: &str) -> Option<Vec<(usize, usize)>> {
    let board = Board::parse(text).ok()?;
    let n = board.n() as usize;
    let cells = board.obstacles().iter().map(|i| {
        let k = board.number(i) as usize - 1;
        (k / n, k % n)
    });
    Some(cells.collect())
}

#[cfg(test)]
mod tests {
    use super::super::COLUMNS;
    use super::*;

    #[test]
    fn the_handles_name_the_columns_they_read() {
        let name = |at: usize| COLUMNS[at].name;
        assert_eq!(name(TOUR_ROWS.board), "tours_board");
        assert_eq!(name(TOUR_ROWS.obstacles), "tours_obstacles");
        assert_eq!(name(TOUR_ROWS.count), "tours_count");
        assert_eq!(name(TOUR_ROWS.starts), "tours_starts");
        assert_eq!(name(TOUR_ROWS.count_nodes), "tours_count_nodes");
    }

    #[test]
    fn obstacle_cells_are_row_and_column_row_by_row() {
        let cells = obstacle_cells("#../..#/.#.");
        assert_eq!(cells, Some(vec![(0, 0), (1, 2), (2, 1)]));
        assert_eq!(obstacle_cells("..."), None);
    }
}
