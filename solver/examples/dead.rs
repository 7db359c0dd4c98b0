use hammer_engine::{Martello, Puzzle, seeded};
use hammer_solver::{Config, Solver};

fn main() {
    let mut args = std::env::args().skip(1);
    let k: u32 = args.next().map_or(8, |a| a.parse().unwrap());
    let mut solver = Solver::new(Martello);
    let p = Martello;
    let mut x = 12345u64;
    let mut buf = Vec::new();
    let (mut dead, mut alive) = (0, 0);
    for g in 0..3000u64 {
        let mut s = seeded::game(2013, 6, g).unwrap();
        loop {
            if p.score(&s) <= k {
                break;
            }
            p.moves(&s, &mut buf);
            if buf.is_empty() {
                break;
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            s = p.apply(&s, buf[(x % buf.len() as u64) as usize]);
        }
        if p.score(&s) != k || p.lower_bound(&s) != 1 {
            continue;
        }
        let out = solver.solve(&s, &Config::default(), 1);
        if out.min_score > 1 {
            dead += 1;
            if dead <= 40 {
                println!("{s} min {}", out.min_score);
            }
        } else {
            alive += 1;
        }
    }
    println!("dead {dead} alive {alive}");
}
