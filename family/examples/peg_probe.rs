use hammer_engine::peg::notation::cell_name;
use hammer_engine::peg::{Board, board::bits, reachable};
use std::time::Instant;
fn main() {
    let board = Board::european();
    // orbit representatives: c1 d1 b2 c2 d2 c3 d3 d4
    for v in [2u8, 3, 9, 10, 11, 18, 19, 27] {
        let pos = board.mask() & !(1 << v);
        for h in bits(board.mask()) {
            if board.class(1 << h) != board.class(pos) {
                continue;
            }
            let tm = Instant::now();
            let (ok, e) = reachable(&board, pos, 1 << h);
            println!(
                "vac {} target {}: {ok} {e} {:.2}",
                cell_name(v),
                cell_name(h),
                tm.elapsed().as_secs_f64()
            );
        }
    }
}
