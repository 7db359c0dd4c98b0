//! Speeds of the crate's hot paths on one large random 3-SAT instance.
//!
//! `cargo run --release -p hammer-cnf --example bench -- [VARS] [RUNS] [FILE]` (defaults:
//! 1,000,000 variables at ratio 4.26, best of 3 runs). Prints a table for
//! docs/benchmarks.md: generation, writing, parsing (plain, gzip, xz), digesting,
//! shuffling and checking a model. With FILE, also writes the instance there, for a
//! comparison with the `gzip` and `xz` commands.

use std::io::Write;
use std::time::Instant;

use hammer_cnf::file::decompress;
use hammer_cnf::{Digest, KSat, Model, Signs, dimacs, shuffle};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let vars: u64 = args.next().map_or(Ok(1_000_000), |a| a.parse())?;
    let runs: usize = args.next().map_or(Ok(3), |a| a.parse())?;
    let file = args.next();
    let ksat = KSat::with_ratio(3, vars, 4.26)?;
    let (cnf, generate) = best(runs, || ksat.generate(1, 0).expect("valid"));
    let (text, write) = best(runs, || dimacs::to_bytes(&cnf));
    let mb = text.len() as f64 / 1e6;
    if let Some(file) = file {
        std::fs::write(file, &text)?;
    }
    println!(
        "instance: {vars} variables, {} clauses, {mb:.1} MB of DIMACS; best of {runs} runs",
        cnf.num_clauses()
    );
    println!("| step | time | speed |");
    println!("|---|---|---|");
    let clauses = cnf.num_clauses() as f64;
    row(
        "generate (KSat::generate)",
        generate,
        clauses / generate / 1e6,
        "M clauses/s",
    );
    row(
        "write (dimacs::to_bytes)",
        write,
        mb / write,
        "MB/s of text",
    );
    let (parsed, parse) = best(runs, || dimacs::parse(&text).expect("parses"));
    assert_eq!(parsed, cnf);
    row("parse (dimacs::parse)", parse, mb / parse, "MB/s of text");
    let (_, digest) = best(runs, || Digest::of_bytes(&text));
    row("digest (SHA-256)", digest, mb / digest, "MB/s");
    let (_, shuffled) = best(runs, || shuffle(&cnf, 1, 0, Signs::Flip).expect("shuffles"));
    row(
        "shuffle (Signs::Flip)",
        shuffled,
        clauses / shuffled / 1e6,
        "M clauses/s",
    );
    // The check of a model that satisfies every clause reads them all: the instance's
    // clauses that the all-true assignment satisfies (7 in 8) make such a formula.
    let model = Model::from_literals(1..=vars as i32)?;
    let mut satisfied = hammer_cnf::Cnf::new(cnf.vars());
    for clause in cnf.clauses().filter(|c| c.iter().any(|&l| l > 0)) {
        satisfied.push_clause(clause)?;
    }
    let (result, check) = best(runs, || satisfied.check(&model));
    result?;
    let checked = satisfied.num_clauses() as f64;
    row(
        "check a model (Cnf::check)",
        check,
        checked / check / 1e6,
        "M clauses/s",
    );
    compressed(&text, runs, mb)?;
    Ok(())
}

/// Decompression and parse of the text stored as gzip (level 6) and xz (preset 6).
fn compressed(text: &[u8], runs: usize, mb: f64) -> Result<(), Box<dyn std::error::Error>> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text)?;
    let gz = gz.finish()?;
    let (_, gunzip) = best(runs, || {
        let (_, text) = decompress(&gz).expect("valid");
        dimacs::parse(&text).expect("parses")
    });
    let ratio = text.len() as f64 / gz.len() as f64;
    row(
        &format!("gzip: decompress and parse ({ratio:.1}x smaller)"),
        gunzip,
        mb / gunzip,
        "MB/s of text",
    );
    let mut xz = lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(6))?;
    xz.write_all(text)?;
    let xz = xz.finish()?;
    let (_, unxz) = best(runs, || {
        let (_, text) = decompress(&xz).expect("valid");
        dimacs::parse(&text).expect("parses")
    });
    let ratio = text.len() as f64 / xz.len() as f64;
    row(
        &format!("xz: decompress and parse ({ratio:.1}x smaller)"),
        unxz,
        mb / unxz,
        "MB/s of text",
    );
    Ok(())
}

fn row(step: &str, seconds: f64, speed: f64, unit: &str) {
    println!("| {step} | {:.0} ms | {speed:.1} {unit} |", seconds * 1e3);
}

/// The result of `f` and its best time in seconds over `runs` runs.
fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> (T, f64) {
    let mut fastest = f64::INFINITY;
    let mut out = None;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        let value = f();
        fastest = fastest.min(start.elapsed().as_secs_f64());
        out = Some(value);
    }
    (out.expect("one run at least"), fastest)
}
