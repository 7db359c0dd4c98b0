//! Times the SAT model and the family's depth-first search on the same boards: `cargo run
//! --release -p hammer-tours-sat --example sat_bench [-- --max-n N]`. Prints one line per
//! board (size, free cells, solvable, the SAT formula's variables and clauses, encode and
//! solve milliseconds, the DFS's expansions and milliseconds), and stops if the two
//! disagree; the figures in docs/benchmarks.md came from it. Boards: every `solve`/`count` case of
//! `testdata/cases/machinarium.jsonl` and the empty boards 2x2 to 15x15 (the seed's
//! figures 8 and 9).

use std::path::PathBuf;
use std::time::Instant;

use hammer_tours_sat::{Board, check, solve};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let max_n: usize = args
        .iter()
        .position(|a| a == "--max-n")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(15);
    let cases =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/cases/machinarium.jsonl");
    let text = std::fs::read_to_string(&cases).expect("the conformance cases");
    let mut boards: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let case: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        if case["kind"] == "solve" || case["kind"] == "count" {
            let b = case["board"].as_str().expect("a board").to_owned();
            if !boards.iter().any(|(_, x)| *x == b) {
                boards.push(("case".to_owned(), b));
            }
        }
    }
    for n in 2..=15 {
        boards.push(("empty".to_owned(), vec![".".repeat(n); n].join("/")));
    }
    println!(
        "source\tn\tfree\tsolvable\tvariables\tclauses\tencode_ms\tsolve_ms\tdfs_expansions\tdfs_ms\tboard"
    );
    let (mut total, mut dfs_total) = (0.0, 0.0);
    for (source, text) in boards {
        let board = Board::parse(&text).expect("a good board");
        if board.n() > max_n {
            continue;
        }
        let out = solve(&board, None).expect("solved");
        if let Some(tour) = &out.tour {
            assert!(check(&board, tour), "{text}: not a tour");
        }
        let began = Instant::now();
        let dfs = hammer_family::tours::solve_text(&text).expect("solved");
        let dfs_ms = began.elapsed().as_secs_f64() * 1e3;
        assert_eq!(
            dfs.tour.is_some(),
            out.tour.is_some(),
            "{text}: DFS and SAT disagree"
        );
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        total += ms(out.encode) + ms(out.solve);
        dfs_total += dfs_ms;
        println!(
            "{source}\t{}\t{}\t{}\t{}\t{}\t{:.1}\t{:.1}\t{}\t{dfs_ms:.2}\t{text}",
            board.n(),
            board.free_cells().len(),
            out.tour.is_some(),
            out.variables,
            out.clauses,
            ms(out.encode),
            ms(out.solve),
            dfs.expansions
        );
    }
    println!("total\tSAT {total:.0} ms\tDFS {dfs_total:.1} ms");
}
