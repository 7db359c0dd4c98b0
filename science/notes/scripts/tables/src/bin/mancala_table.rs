//! The maximum first-turn capture of Mancala over holes per side x stones per hole x
//! variants, with what each point cost the search (`docs/mancala.md`, "Measured").
//!
//! ```text
//! cargo run --release --manifest-path science/notes/scripts/tables/Cargo.toml --bin mancala_table
//! cargo run --release --manifest-path science/notes/scripts/tables/Cargo.toml --bin mancala_table -- --budget 2000000 --max-h 8 --max-s 8
//! cargo run --release --manifest-path science/notes/scripts/tables/Cargo.toml --bin mancala_table -- --point h=6,s=4,picks=own,arith=ring
//! cargo run --release --manifest-path science/notes/scripts/tables/Cargo.toml --bin mancala_table -- --point h=6,s=4 --count
//! ```
//!
//! Every point is one exact depth-first search (standard order, memo, the rules' lower
//! bound) cut after `--budget` expansions: a point it finishes shows its proved maximum;
//! a point it cuts shows the best store count found and the proved upper bound
//! (`lo..up`), rather than running for ever. Free picks and relays are on throughout.

use std::time::Instant;

use hammer_family::{
    Cell, GameSolver, Instance, Job, ParamValue, Point, Solved, by_name, cells_from_wire,
    point_from_pairs,
};
use hammer_solver::{Config, Order, Schedule};

struct Args {
    budget: u64,
    max_h: i64,
    max_s: i64,
    point: Option<String>,
    count: bool,
    order: Order,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        budget: 10_000_000,
        max_h: 8,
        max_s: 8,
        point: None,
        count: false,
        order: Order::Standard,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--count" {
            args.count = true;
            continue;
        }
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let int = |v: &str| {
            v.parse::<i64>()
                .map_err(|_| format!("{flag}: '{v}' is not an integer"))
        };
        match flag.as_str() {
            "--budget" => args.budget = int(&value)?.max(1) as u64,
            "--max-h" => args.max_h = int(&value)?,
            "--max-s" => args.max_s = int(&value)?,
            "--point" => args.point = Some(value),
            "--order" => {
                args.order = value
                    .parse::<hammer_solver::OrderSpec>()
                    .and_then(|spec| spec.load())
                    .map_err(|e| e.to_string())?
            }
            other => {
                return Err(format!(
                    "unknown flag {other}: expected --budget, --max-h, --max-s, --order, --point or --count"
                ));
            }
        }
    }
    Ok(args)
}

fn point(pairs: &[(&str, &str)]) -> Result<Point, String> {
    let family = by_name("mancala").map_err(|e| e.to_string())?;
    let pairs: Vec<(String, ParamValue)> = pairs
        .iter()
        .map(|&(k, v)| {
            let spec = family
                .params()
                .iter()
                .find(|s| s.key == k)
                .ok_or_else(|| format!("no parameter '{k}'"))?;
            ParamValue::parse(v, spec)
                .map(|v| (k.to_string(), v))
                .map_err(|e| format!("{k}: {e}"))
        })
        .collect::<Result<_, String>>()?;
    point_from_pairs(family, &pairs).map_err(|e| e.to_string())
}

/// One point's result: the extra cells are total, max_home and upper.
struct Row {
    solved: Solved,
    /// Wall seconds.
    seconds: f64,
    /// CPU seconds of this thread (10 ms resolution); wall seconds where the system
    /// does not say.
    cpu: f64,
}

/// This thread's CPU time (user + system) from `/proc/thread-self/stat`, in seconds:
/// the machine is shared, so wall time says more about the neighbours than the search.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<u64>().ok();
    // Fields 14 and 15 of proc(5), counted from the state (field 3); 100 ticks a second.
    Some((ticks(11)? + ticks(12)?) as f64 / 100.0)
}

impl Row {
    fn int(&self, column: usize) -> i64 {
        match cells_from_wire(self.solved.game.extra.clone()).get(column) {
            Some(Cell::Int(v)) => *v,
            _ => -1,
        }
    }

    fn total(&self) -> i64 {
        self.int(6)
    }

    fn max_home(&self) -> i64 {
        self.int(7)
    }

    fn upper(&self) -> i64 {
        self.int(8)
    }

    /// `max` when proved, `lo..up` when the budget cut the search.
    fn cell(&self) -> String {
        if self.solved.game.exhaustive {
            format!("{}", self.max_home())
        } else {
            format!("{}..{}", self.max_home(), self.upper())
        }
    }
}

/// Solves one point with `solver`, which keeps its memo's allocation between points.
fn solve(
    solver: &mut dyn GameSolver,
    point: &Point,
    order: Order,
    budget: Option<u64>,
) -> Result<Row, String> {
    let config = Config {
        order,
        schedule: match budget {
            Some(b) => Schedule::List {
                phases: vec![(1, b)],
                then_exact: false,
            },
            None => Schedule::Exact,
        },
        prefix: 0,
        limits: Default::default(),
        cancel: None,
        profile: false,
    };
    let clock = Instant::now();
    let cpu = cpu_seconds();
    let solved = solver
        .solve(Job {
            point,
            instance: Instance::Seeded {
                sweep_seed: 0,
                index: 0,
            },
            config: &config,
            run_seed: 0,
            program: None,
        })
        .map_err(|e| e.to_string())?;
    let seconds = clock.elapsed().as_secs_f64();
    let cpu = match (cpu, cpu_seconds()) {
        (Some(a), Some(b)) => b - a,
        _ => seconds,
    };
    Ok(Row {
        solved,
        seconds,
        cpu,
    })
}

/// `--count`: every board at which the player is to move in some first turn (the
/// spec's `count` question), with the walk's cost.
fn count(point: &Point) -> Result<(), String> {
    let rules = hammer_family::mancala::rules(point).map_err(|e| e.to_string())?;
    let clock = Instant::now();
    let c = hammer_family::mancala::count(&hammer_engine::mancala::State::start(rules));
    println!(
        "{point}: {} boards to move at, max_home_open {}, max_home {}; {} picks played, {:.1} s",
        c.states,
        c.max_home_open,
        c.max_home,
        c.picks,
        clock.elapsed().as_secs_f64()
    );
    Ok(())
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    if let Some(text) = &args.point {
        let pairs: Vec<(&str, &str)> = text
            .split(',')
            .map(|kv| {
                kv.split_once('=')
                    .ok_or_else(|| format!("'{kv}' is not key=value"))
            })
            .collect::<Result<_, _>>()?;
        let p = point(&pairs)?;
        if args.count {
            return count(&p);
        }
        let mut solver = by_name("mancala").map_err(|e| e.to_string())?.solver();
        let row = solve(solver.as_mut(), &p, args.order, Some(args.budget))?;
        println!(
            "{p}: max_home {} of {} (upper {}), exhaustive {}, expansions {}, {:.2} s CPU\nwitness: {}",
            row.max_home(),
            row.total(),
            row.upper(),
            row.solved.game.exhaustive,
            row.solved.game.expansions,
            row.cpu,
            row.solved.game.solution
        );
        return Ok(());
    }
    let variants = [
        ("all", "matlab"),
        ("all", "ring"),
        ("own", "matlab"),
        ("own", "ring"),
    ];
    let mut solver = by_name("mancala").map_err(|e| e.to_string())?.solver();
    let all_clock = Instant::now();
    let mut grand_expansions = 0u64;
    let mut grand_cpu = 0.0;
    println!(
        "budget {} expansions per point, {} order; h 1..{}, s 1..{}; free and relay on\n",
        args.budget, args.order, args.max_h, args.max_s
    );
    for (picks, arith) in variants {
        let mut rows = Vec::new();
        for h in 1..=args.max_h {
            let mut line = Vec::new();
            for s in 1..=args.max_s {
                let (h_text, s_text) = (h.to_string(), s.to_string());
                let p = point(&[
                    ("h", &h_text),
                    ("s", &s_text),
                    ("picks", picks),
                    ("arith", arith),
                ])?;
                line.push(solve(solver.as_mut(), &p, args.order, Some(args.budget))?);
            }
            rows.push(line);
        }
        let expansions: u64 = rows
            .iter()
            .flatten()
            .map(|r| r.solved.game.expansions)
            .sum();
        let seconds: f64 = rows.iter().flatten().map(|r| r.seconds).sum();
        let cpu: f64 = rows.iter().flatten().map(|r| r.cpu).sum();
        grand_cpu += cpu;
        let open = rows
            .iter()
            .flatten()
            .filter(|r| !r.solved.game.exhaustive)
            .count();
        grand_expansions += expansions;
        println!(
            "### picks={picks} arith={arith}: best store count (of 2*h*s; lo..up = cut by the budget)\n"
        );
        let head: Vec<String> = (1..=args.max_s).map(|s| format!("s={s}")).collect();
        println!("| h | {} |", head.join(" | "));
        println!("|---|{}", "---|".repeat(args.max_s as usize));
        for (i, line) in rows.iter().enumerate() {
            let cells: Vec<String> = line.iter().map(Row::cell).collect();
            println!("| {} | {} |", i + 1, cells.join(" | "));
        }
        println!("\nexpansions per point:\n");
        println!("| h | {} |", head.join(" | "));
        println!("|---|{}", "---|".repeat(args.max_s as usize));
        for (i, line) in rows.iter().enumerate() {
            let cells: Vec<String> = line
                .iter()
                .map(|r| r.solved.game.expansions.to_string())
                .collect();
            println!("| {} | {} |", i + 1, cells.join(" | "));
        }
        println!("\nCPU seconds per point (0.01 s resolution):\n");
        println!("| h | {} |", head.join(" | "));
        println!("|---|{}", "---|".repeat(args.max_s as usize));
        for (i, line) in rows.iter().enumerate() {
            let cells: Vec<String> = line.iter().map(|r| format!("{:.2}", r.cpu)).collect();
            println!("| {} | {} |", i + 1, cells.join(" | "));
        }
        let full = rows
            .iter()
            .flatten()
            .filter(|r| r.solved.game.exhaustive && r.max_home() == r.total())
            .count();
        println!(
            "\n{} points, {full} proved to capture every stone, {open} left open; {expansions} expansions, {cpu:.1} s CPU ({seconds:.1} s wall)\n",
            rows.iter().flatten().count()
        );
    }
    println!(
        "all variants: {grand_expansions} expansions, {grand_cpu:.1} s CPU, {:.1} s wall (one thread)",
        all_clock.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("mancala_table: {e}");
        std::process::exit(2);
    }
}
