//! The component lower bound.
//!
//! Stones only ever interact with stones that share their colour or their symbol, and
//! the eater survives every move. So each connected component of the "shares a colour
//! or a symbol" graph of the stones on the board keeps at least one stone forever: the
//! number of components is a sound lower bound on the minimum stone count.
//!
//! Seen as a bipartite graph, each stone is an edge between its colour and its symbol,
//! and the components of stones are the components of that graph with at least one
//! edge. With at most 8 colours and 8 symbols this is a few mask operations.

/// Number of connected components among the stones in `present` on an `n` x `n` board.
#[inline]
pub(crate) fn components(present: u64, n: u8) -> u32 {
    let n = n as usize;
    let row_mask = (1u64 << n) - 1;
    // symbols_of[c]: symbols present in colour c; colours_of[s]: colours present in symbol s.
    let mut symbols_of = [0u8; 8];
    let mut colours_of = [0u8; 8];
    for (c, syms) in symbols_of.iter_mut().enumerate().take(n) {
        *syms = ((present >> (c * n)) & row_mask) as u8;
        let mut m = *syms;
        while m != 0 {
            let s = m.trailing_zeros() as usize;
            colours_of[s] |= 1 << c;
            m &= m - 1;
        }
    }
    let mut unvisited: u8 = 0;
    for (c, &syms) in symbols_of.iter().enumerate().take(n) {
        if syms != 0 {
            unvisited |= 1 << c;
        }
    }
    let mut count = 0;
    while unvisited != 0 {
        count += 1;
        let mut colours = unvisited & unvisited.wrapping_neg();
        loop {
            let mut syms = 0u8;
            let mut m = colours;
            while m != 0 {
                syms |= symbols_of[m.trailing_zeros() as usize];
                m &= m - 1;
            }
            let mut grown = colours;
            let mut m = syms;
            while m != 0 {
                grown |= colours_of[m.trailing_zeros() as usize];
                m &= m - 1;
            }
            if grown == colours {
                break;
            }
            colours = grown;
        }
        unvisited &= !colours;
    }
    count
}

#[cfg(test)]
mod tests {
    use super::components;

    #[test]
    fn full_board_is_one_component() {
        for n in 1..=8u8 {
            let all = if n == 8 { u64::MAX } else { (1u64 << (n * n)) - 1 };
            assert_eq!(components(all, n), 1, "n = {n}");
        }
    }

    #[test]
    fn stones_sharing_nothing_are_separate() {
        // 3x3: A1 (id 0), B2 (id 4), C3 (id 8) share no colour and no symbol.
        assert_eq!(components(1 | 1 << 4 | 1 << 8, 3), 3);
        // Adding A2 (id 1) links A1 (colour A) and B2 (symbol 2).
        assert_eq!(components(1 | 1 << 1 | 1 << 4 | 1 << 8, 3), 2);
        assert_eq!(components(0, 3), 0);
    }
}
