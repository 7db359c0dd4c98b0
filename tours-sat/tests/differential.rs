//! The SAT model against hammer's depth-first search of the `tours` family, two
//! independent implementations of `shared/spec/machinarium.md`: on seeded random boards of
//! every side from 2 to 6 with every number of obstacles, both must agree on whether a
//! tour exists, each one's tour must pass the other's checker, and on sides up to 4 the
//! cells that begin a tour (the family's count) must be exactly those from which the SAT
//! model finds one.

use hammer_family::Family;
use hammer_tours_sat::{Board, check, solve};
use serde_json::json;

/// splitmix64: a fixed, dependency-free stream, so the boards are the same on every run.
struct Stream(u64);

impl Stream {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// An `n x n` board with `k` obstacles at random cells, in the spec's notation.
fn random_board(n: usize, k: usize, rng: &mut Stream) -> String {
    let mut cells: Vec<usize> = (0..n * n).collect();
    for i in 0..k {
        let j = i + (rng.next() % (n * n - i) as u64) as usize;
        cells.swap(i, j);
    }
    let mut grid = vec!['.'; n * n];
    for &c in &cells[..k] {
        grid[c] = '#';
    }
    grid.chunks(n)
        .map(|row| row.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("/")
}

fn tours() -> &'static dyn Family {
    hammer_family::by_name("tours").expect("the tours family is registered")
}

/// The family's own `check` question.
fn family_check(board: &str, path: &[u32]) -> bool {
    let answer = tours()
        .answer(&json!({"kind": "check", "board": board, "path": path}))
        .expect("a check question");
    answer["valid"].as_bool().expect("a valid flag")
}

/// The family's `count` question: the cells that begin at least one tour.
fn family_starts(board: &str) -> Vec<u32> {
    let answer = tours()
        .answer(&json!({"kind": "count", "board": board}))
        .expect("a count question");
    answer["starts"]
        .as_array()
        .expect("starts")
        .iter()
        .map(|c| c.as_u64().expect("a cell") as u32)
        .collect()
}

#[test]
fn dfs_and_sat_agree_on_every_side_up_to_6_with_any_number_of_obstacles() {
    let mut rng = Stream(2019);
    let (mut boards, mut solvable) = (0, 0);
    for n in 2..=6 {
        for k in 0..n * n {
            for _ in 0..2 {
                let text = random_board(n, k, &mut rng);
                let sat_board = Board::parse(&text).unwrap();
                let sat = solve(&sat_board, None).unwrap();
                let dfs = hammer_family::tours::solve_text(&text).unwrap();
                assert_eq!(
                    sat.tour.is_some(),
                    dfs.tour.is_some(),
                    "{text}: SAT {:?}, DFS {:?}",
                    sat.tour,
                    dfs.tour
                );
                if let Some(tour) = &sat.tour {
                    assert!(family_check(&text, tour), "{text}: SAT's {tour:?}");
                }
                if let Some(tour) = &dfs.tour {
                    assert!(check(&sat_board, tour), "{text}: DFS's {tour:?}");
                    solvable += 1;
                }
                if n <= 4 {
                    let from_sat: Vec<u32> = sat_board
                        .free_cells()
                        .into_iter()
                        .filter(|&c| solve(&sat_board, Some(c)).unwrap().tour.is_some())
                        .collect();
                    assert_eq!(from_sat, family_starts(&text), "{text}");
                }
                boards += 1;
            }
        }
    }
    // Both answers occur often enough to mean something.
    assert_eq!(boards, 2 * (4 + 9 + 16 + 25 + 36));
    assert!(
        solvable >= 40 && boards - solvable >= 40,
        "{solvable} of {boards}"
    );
}
