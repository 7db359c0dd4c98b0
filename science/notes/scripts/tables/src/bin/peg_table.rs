//! Every single-vacancy start of the English and European boards, solved exactly: the
//! fewest pegs left and the holes where a lone peg can remain, as the markdown tables of
//! `docs/peg.md`.
//!
//! By default one start per symmetry class is solved (7 English, 8 European) and the
//! others are its images: a symmetry maps solutions to solutions, so a start's finishes
//! are the images of its representative's. `--all` solves every start directly.
//!
//! ```text
//! cargo run --release --manifest-path science/notes/scripts/tables/Cargo.toml --bin peg_table [-- --all]
//! ```

use std::time::Instant;

use hammer_engine::peg::board::{bits, transform};
use hammer_engine::peg::notation::cell_name;
use hammer_engine::peg::{Board, Peg, single_vacancy};
use hammer_family::peg::solve_with;
use hammer_family::{Cell, cells_from_wire};
use hammer_solver::{Config, Order, Schedule, Solver};

/// One row: min pegs, finishes (bit indices), expansions, seconds.
struct Row {
    min: u32,
    finishes: Vec<u8>,
    exhaustive: bool,
    expansions: u64,
    seconds: f64,
}

fn main() {
    let all_starts = std::env::args().any(|a| a == "--all");
    let total = Instant::now();
    // A random order restarted by Luby's sequence: on the hardest European starts it
    // finishes far sooner than the standard order's single exact search.
    let config = Config {
        order: Order::Random,
        schedule: Schedule::Luby { unit: 1000 },
        prefix: 0,
        limits: Default::default(),
        cancel: None,
        profile: false,
    };
    for board in [Board::english(), Board::european()] {
        let name = board.kind().to_string();
        let mut solver = Solver::new(Peg::new(board.clone()));
        let started = Instant::now();
        let holes: Vec<u8> = bits(board.mask()).collect();
        let mut rows: Vec<Option<(Row, Option<u8>)>> = holes.iter().map(|_| None).collect();
        let mut solved = 0;
        for (i, &hole) in holes.iter().enumerate() {
            if rows[i].is_some() {
                continue;
            }
            let Some(pos) = single_vacancy(&board, i as u64) else {
                continue;
            };
            let t = Instant::now();
            let out = solve_with(&mut solver, &board, pos, &config, 0).game;
            solved += 1;
            let finishes: Vec<u8> = match &cells_from_wire(out.extra)[2] {
                Cell::Text(t) => t
                    .split_whitespace()
                    .filter_map(|h| hammer_engine::peg::notation::parse_cell(h).ok())
                    .collect(),
                _ => Vec::new(),
            };
            let row = Row {
                min: out.score,
                finishes,
                exhaustive: out.exhaustive,
                expansions: out.expansions,
                seconds: t.elapsed().as_secs_f64(),
            };
            if !all_starts {
                // The images of this start under the board's symmetries.
                for &g in board.symmetries() {
                    let image = transform(g, 1 << hole).trailing_zeros() as u8;
                    if let Some(j) = holes.iter().position(|&h| h == image)
                        && rows[j].is_none()
                        && j != i
                    {
                        let mut fin: Vec<u8> = row
                            .finishes
                            .iter()
                            .map(|&f| transform(g, 1 << f).trailing_zeros() as u8)
                            .collect();
                        fin.sort_unstable();
                        let derived = Row {
                            min: row.min,
                            finishes: fin,
                            exhaustive: row.exhaustive,
                            expansions: 0,
                            seconds: 0.0,
                        };
                        rows[j] = Some((derived, Some(hole)));
                    }
                }
            }
            rows[i] = Some((row, None));
        }
        println!("\n### {name}\n");
        println!(
            "| vacate | min pegs | one-peg finishes | exhaustive | solved as | expansions | seconds |"
        );
        println!("|---|---|---|---|---|---|---|");
        for (i, row) in rows.iter().enumerate() {
            let Some((row, from)) = row else { continue };
            let finishes = if row.finishes.is_empty() {
                "-".to_string()
            } else {
                row.finishes
                    .iter()
                    .map(|&h| cell_name(h))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let how = match from {
                None => "searched".to_string(),
                Some(rep) => format!("image of {}", cell_name(*rep)),
            };
            println!(
                "| {} | {} | {} | {} | {} | {} | {:.2} |",
                cell_name(holes[i]),
                row.min,
                finishes,
                row.exhaustive,
                how,
                row.expansions,
                row.seconds
            );
        }
        println!(
            "\n{name}: {} starts ({solved} searched) in {:.1} s",
            holes.len(),
            started.elapsed().as_secs_f64()
        );
    }
    println!("\ntotal {:.1} s", total.elapsed().as_secs_f64());
}
