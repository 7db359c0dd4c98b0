//! The satisfiable share of random 3-SAT against the clause/variable ratio, with a real
//! solver: a sanity check of the generator against the known threshold near 4.26.
//!
//! ```text
//! cargo run --release --manifest-path science/notes/scripts/tables/Cargo.toml --bin threshold \
//!     -- [SOLVER] [VARS] [INSTANCES]
//! ```
//!
//! Defaults: `picosat`, 50 variables, 100 instances. The solver must write the SAT competition's output
//! (cadical, picosat, cryptominisat5, kissat). Instances are independent across ratios
//! (index `ratio_step * INSTANCES + i`), every model is checked, and the share comes
//! with its Wilson 95% interval.

use std::process::Command;

use hammer_cnf::{Answer, KSat, parse_output, write_instance};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let solver = args.next().unwrap_or_else(|| "picosat".into());
    let vars: u64 = args.next().map_or(Ok(50), |a| a.parse())?;
    let instances: u64 = args.next().map_or(Ok(100), |a| a.parse())?;
    let dir = tempfile::tempdir()?;
    println!("| ratio | clauses | satisfiable | P(sat) | Wilson 95% |");
    println!("|---|---|---|---|---|");
    for step in 0..=8u64 {
        let ratio = 3.8 + 0.1 * step as f64;
        let ksat = KSat::with_ratio(3, vars, ratio)?;
        let mut sat = 0u64;
        for i in 0..instances {
            let cnf = ksat.generate(1, step * instances + i)?;
            let path = dir.path().join("instance.cnf");
            write_instance(&cnf, &path)?;
            let out = Command::new(&solver).arg(&path).output()?;
            match parse_output(&out.stdout, out.status.code()) {
                Answer::Sat(model) => {
                    cnf.check(&model)?;
                    sat += 1;
                }
                Answer::Unsat => {}
                other => return Err(format!("{solver} answered {other:?}").into()),
            }
        }
        let (low, high) = wilson(sat, instances);
        println!(
            "| {ratio:.1} | {} | {sat}/{instances} | {:.2} | {low:.2}–{high:.2} |",
            ksat.clauses(),
            sat as f64 / instances as f64
        );
    }
    Ok(())
}

/// The Wilson score interval at 95% for `k` successes in `n` trials.
fn wilson(k: u64, n: u64) -> (f64, f64) {
    let (k, n, z) = (k as f64, n as f64, 1.959_963_984_540_054);
    let p = k / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    (centre - half, centre + half)
}
