//! Peg positions and moves as bytes, for the searches that send them between
//! processes: a position is its peg mask (8 bytes, little-endian), a move the index of
//! its jump (1 byte). A peer's bytes are checked against this board.

use hammer_puzzle::{Wire, take_bytes};

use super::{Bits, Peg};

impl Wire for Peg {
    fn put_state(&self, state: &Bits, out: &mut Vec<u8>) {
        out.extend(state.to_le_bytes());
    }

    fn take_state(&self, input: &mut &[u8]) -> Option<Bits> {
        let pos = Bits::from_le_bytes(take_bytes::<8>(input)?);
        (pos & !self.board().mask() == 0).then_some(pos)
    }

    fn put_move(&self, mv: u8, out: &mut Vec<u8>) {
        out.push(mv);
    }

    fn take_move(&self, input: &mut &[u8]) -> Option<u8> {
        let [mv] = take_bytes::<1>(input)?;
        (usize::from(mv) < self.board().jumps().len()).then_some(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Puzzle;
    use crate::peg::{Board, single_vacancy};

    /// Positions along a game and every move from them read back as written, using
    /// their bytes up exactly; pegs off the board and jumps past the list are refused.
    #[test]
    fn positions_and_moves_read_back_and_bad_bytes_are_refused() {
        let peg = Peg::new(Board::english());
        let mut pos = single_vacancy(peg.board(), 16).expect("hole 16");
        let mut moves = Vec::new();
        loop {
            let mut bytes = Vec::new();
            peg.put_state(&pos, &mut bytes);
            let mut input = bytes.as_slice();
            assert_eq!(peg.take_state(&mut input), Some(pos));
            assert!(input.is_empty());
            peg.moves(&pos, &mut moves);
            for &mv in &moves {
                let mut bytes = Vec::new();
                peg.put_move(mv, &mut bytes);
                assert_eq!(peg.take_move(&mut bytes.as_slice()), Some(mv));
            }
            let Some(&mv) = moves.last() else { break };
            pos = peg.apply(&pos, mv);
        }
        let off_board: Bits = 1; // a corner of the 7x7 grid, not an English hole
        assert_eq!(peg.take_state(&mut &off_board.to_le_bytes()[..]), None);
        assert_eq!(peg.take_state(&mut &[0u8; 7][..]), None);
        let past = peg.board().jumps().len() as u8;
        assert_eq!(peg.take_move(&mut &[past][..]), None);
        assert_eq!(peg.take_move(&mut &[][..]), None);
    }
}
