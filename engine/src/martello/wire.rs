//! Martello's states and moves as bytes: a state is its size, then each row's length and
//! stones (ids); a move is its two stones and their places.

use hammer_puzzle::{Wire, take_bytes};

use super::state::set_at;
use super::{MAX_N, Martello, Move, State, Stone};

impl Wire for Martello {
    fn put_state(&self, state: &State, out: &mut Vec<u8>) {
        out.push(state.n);
        for &word in &state.rows[..state.n as usize] {
            // A row's bytes are its stones + 1, lowest byte first, up to the first zero.
            let len = super::state::row_len(word);
            out.push(len as u8);
            out.extend(word.to_le_bytes()[..len].iter().map(|b| b - 1));
        }
    }

    fn take_state(&self, input: &mut &[u8]) -> Option<State> {
        let [n] = take_bytes::<1>(input)?;
        if n == 0 || n > MAX_N {
            return None;
        }
        let mut state = State {
            rows: [0; MAX_N as usize],
            present: 0,
            n,
        };
        for r in 0..n as usize {
            let [len] = take_bytes::<1>(input)?;
            if len > n || input.len() < len as usize {
                return None;
            }
            let (stones, rest) = input.split_at(len as usize);
            *input = rest;
            for (i, &s) in stones.iter().enumerate() {
                // Each stone of this board at most once.
                if s >= n * n || state.present & (1u64 << s) != 0 {
                    return None;
                }
                state.present |= 1u64 << s;
                state.rows[r] = set_at(state.rows[r], i, s + 1);
            }
        }
        Some(state)
    }

    fn put_move(&self, mv: Move, out: &mut Vec<u8>) {
        out.extend([
            mv.eater.0,
            mv.eaten.0,
            mv.eater_row,
            mv.eater_pos,
            mv.eaten_row,
            mv.eaten_pos,
        ]);
    }

    fn take_move(&self, input: &mut &[u8]) -> Option<Move> {
        let [eater, eaten, eater_row, eater_pos, eaten_row, eaten_pos] = take_bytes::<6>(input)?;
        let fits = |b: u8| b < MAX_N * MAX_N;
        let on_board = |b: u8| b < MAX_N;
        (fits(eater)
            && fits(eaten)
            && [eater_row, eater_pos, eaten_row, eaten_pos]
                .into_iter()
                .all(on_board))
        .then_some(Move {
            eater: Stone(eater),
            eaten: Stone(eaten),
            eater_row,
            eater_pos,
            eaten_row,
            eaten_pos,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Puzzle;
    use crate::seeded::game;

    /// Every state along seeded games, and every move from it, reads back as written,
    /// and the bytes are used up exactly.
    #[test]
    fn states_and_moves_read_back_as_written() {
        let mut moves = Vec::new();
        for n in 1..=MAX_N {
            for index in 0..20 {
                let mut state = game(7, n, index).expect("a seeded game");
                loop {
                    let mut bytes = Vec::new();
                    Martello.put_state(&state, &mut bytes);
                    let mut input = bytes.as_slice();
                    assert_eq!(Martello.take_state(&mut input), Some(state));
                    assert!(input.is_empty());
                    Martello.moves(&state, &mut moves);
                    for &mv in &moves {
                        let mut bytes = Vec::new();
                        Martello.put_move(mv, &mut bytes);
                        assert_eq!(Martello.take_move(&mut bytes.as_slice()), Some(mv));
                    }
                    let Some(&mv) = moves.get(index as usize % moves.len().max(1)) else {
                        break;
                    };
                    state = Martello.apply(&state, mv);
                }
            }
        }
    }

    #[test]
    fn malformed_states_are_refused() {
        let refused = |bytes: &[u8]| Martello.take_state(&mut &bytes[..]).is_none();
        assert!(refused(&[]));
        assert!(refused(&[0]));
        assert!(refused(&[9]));
        // A row longer than the board, a stone off the board, a stone twice, cut short.
        assert!(refused(&[2, 3, 0, 1, 2, 0]));
        assert!(refused(&[2, 1, 4, 0]));
        assert!(refused(&[2, 2, 0, 0, 0]));
        assert!(refused(&[2, 2, 0]));
        assert!(!refused(&[2, 2, 0, 1, 1, 3]));
    }
}
