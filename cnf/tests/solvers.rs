//! The crate against the real SAT solvers Debian packages: CaDiCaL, MiniSat, PicoSAT and
//! CryptoMiniSat, each run as a plain process on random 3-SAT instances this crate
//! generated and wrote.
//!
//! - Their exit codes and status lines read as answers, and every model they claim
//!   satisfies its instance.
//! - A shuffled instance gets the same answer, and its model, mapped back, satisfies the
//!   original.
//! - The solvers agree with each other on every instance, and the instances include both
//!   satisfiable and unsatisfiable ones.
//! - Their statistics give a cost through each one's cost pattern, and a run stopped by
//!   its own budget reads as unknown.
//!
//! A solver that is not installed is left out with a SKIPPED line naming its Debian
//! package, unless `HAMMER_REQUIRE_SOLVERS=1` (set by `.ci/run` when it installed them
//! all), which makes a missing solver a failure.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hammer_cnf::{
    Answer, Cnf, CostPattern, KSat, Signs, parse_minisat_result, parse_output, shuffle,
    write_instance,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Cadical,
    MiniSat,
    PicoSat,
    CryptoMiniSat,
}

/// How a run is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Answer only (statistics off where the solver allows it).
    Quiet,
    /// With the statistics the cost pattern reads.
    Stats,
    /// Stopped by the solver's own limit, in its unit.
    Budget(u64),
}

struct Solver {
    kind: Kind,
    program: &'static str,
    package: &'static str,
    /// The pattern of the solver's cost (conflicts) in its statistics.
    cost: &'static str,
}

const SOLVERS: [Solver; 4] = [
    Solver {
        kind: Kind::Cadical,
        program: "cadical",
        package: "cadical",
        cost: r"c\s+conflicts:\s+(\d+)",
    },
    Solver {
        kind: Kind::MiniSat,
        program: "minisat",
        package: "minisat",
        cost: r"^conflicts\s+:\s+(\d+)",
    },
    Solver {
        kind: Kind::PicoSat,
        program: "picosat",
        package: "picosat",
        cost: r"^c\s+(\d+)\s+conflicts",
    },
    Solver {
        kind: Kind::CryptoMiniSat,
        program: "cryptominisat5",
        package: "cryptominisat",
        cost: r"^c conflicts\s+:\s+(\d+)",
    },
];

impl Solver {
    /// The arguments of a run. MiniSat's seed only matters with random decisions, so
    /// they are turned on; it takes no conflict limit on its command line.
    fn args(&self, seed: u64, mode: Mode, instance: &Path, result: &Path) -> Vec<OsString> {
        let mut args: Vec<String> = match (self.kind, mode) {
            (Kind::Cadical, Mode::Quiet) => vec!["-q".into()],
            (Kind::Cadical, Mode::Stats) => vec![],
            (Kind::Cadical, Mode::Budget(b)) => vec!["-c".into(), b.to_string()],
            (Kind::MiniSat, Mode::Quiet) => vec!["-verb=0".into()],
            (Kind::MiniSat, _) => vec!["-verb=1".into()],
            (Kind::PicoSat, Mode::Quiet) => vec![],
            (Kind::PicoSat, Mode::Stats) => vec!["-v".into()],
            (Kind::PicoSat, Mode::Budget(b)) => vec!["-l".into(), b.to_string()],
            (Kind::CryptoMiniSat, Mode::Quiet) => vec!["--verb".into(), "0".into()],
            (Kind::CryptoMiniSat, Mode::Stats) => vec![],
            (Kind::CryptoMiniSat, Mode::Budget(b)) => vec!["--maxconfl".into(), b.to_string()],
        };
        args.extend(match self.kind {
            Kind::Cadical => vec![format!("--seed={seed}")],
            Kind::MiniSat => vec![
                format!("-rnd-seed={}", seed + 1),
                "-rnd-freq=0.02".into(),
                "-rnd-init".into(),
            ],
            Kind::PicoSat => vec!["-s".into(), seed.to_string()],
            Kind::CryptoMiniSat => vec!["-r".into(), seed.to_string(), "-t".into(), "1".into()],
        });
        let mut args: Vec<OsString> = args.into_iter().map(OsString::from).collect();
        args.push(instance.into());
        if self.kind == Kind::MiniSat {
            args.push(result.into());
        }
        args
    }
}

fn find(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// The installed solvers with their paths, after a SKIPPED line for each missing one
/// (or a failure under `HAMMER_REQUIRE_SOLVERS=1`).
fn installed() -> Vec<(&'static Solver, PathBuf)> {
    let mut found = Vec::new();
    let mut missing = Vec::new();
    for solver in &SOLVERS {
        match find(solver.program) {
            Some(path) => found.push((solver, path)),
            None => missing.push(solver),
        }
    }
    if !missing.is_empty() {
        let names: Vec<&str> = missing.iter().map(|s| s.program).collect();
        let packages: Vec<&str> = missing.iter().map(|s| s.package).collect();
        assert!(
            std::env::var("HAMMER_REQUIRE_SOLVERS").as_deref() != Ok("1"),
            "HAMMER_REQUIRE_SOLVERS=1 but {names:?} are not installed"
        );
        println!(
            "SKIPPED for {names:?}: not installed (Debian: apt-get install {})",
            packages.join(" ")
        );
    }
    found
}

/// A finished run: its answer, its standard output and its exit code.
struct Run {
    answer: Answer,
    stdout: Vec<u8>,
}

/// Runs `solver` on `instance`, killing it after two minutes (no run here needs a
/// second).
fn run(solver: &Solver, path: &Path, instance: &Path, seed: u64, mode: Mode) -> Run {
    let result = instance.with_extension(format!("{}.result", solver.program));
    let _ = std::fs::remove_file(&result);
    let mut child = Command::new(path)
        .args(solver.args(seed, mode, instance, &result))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", path.display()));
    let mut stdout = Vec::new();
    let mut pipe = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let _ = pipe.read_to_end(&mut stdout);
        stdout
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!(
                "{} on {} ran past two minutes",
                solver.program,
                instance.display()
            );
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let stdout = reader.join().expect("reader");
    let code = status.code();
    let answer = match solver.kind {
        Kind::MiniSat => parse_minisat_result(&std::fs::read(&result).unwrap_or_default(), code),
        _ => parse_output(&stdout, code),
    };
    Run { answer, stdout }
}

/// Random 3-SAT around the threshold: 60 variables at five ratios, eight instances each,
/// of indices of their own (one index at several ratios gives nested instances).
fn instances(dir: &Path) -> Vec<(Cnf, PathBuf)> {
    let mut out = Vec::new();
    for (r, ratio) in [4.0, 4.2, 4.26, 4.4, 4.6].into_iter().enumerate() {
        let ksat = KSat::with_ratio(3, 60, ratio).expect("valid");
        for index in 0..8 {
            let cnf = ksat
                .generate(2026, 8 * r as u64 + index)
                .expect("generated");
            let path = dir.join(format!("r{r}-{index}.cnf"));
            write_instance(&cnf, &path).expect("written");
            out.push((cnf, path));
        }
    }
    out
}

/// The answer as satisfiable or not, after checking a model against `cnf`.
fn checked(solver: &Solver, answer: &Answer, cnf: &Cnf, what: &str) -> bool {
    match answer {
        Answer::Sat(model) => {
            if let Err(violation) = cnf.check(model) {
                panic!(
                    "{} claims a model of {what} that fails: {violation}",
                    solver.program
                );
            }
            true
        }
        Answer::Unsat => false,
        other => panic!("{} on {what}: {other:?}", solver.program),
    }
}

#[test]
fn solvers_answer_check_and_agree_on_random_3sat() {
    let solvers = installed();
    if solvers.is_empty() {
        println!("SKIPPED: no SAT solver installed");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let instances = instances(dir.path());
    let mut verdicts = Vec::new();
    for (cnf, path) in &instances {
        let what = path.display().to_string();
        let answers: Vec<bool> = solvers
            .iter()
            .map(|(solver, program)| {
                let run = run(solver, program, path, 1, Mode::Quiet);
                checked(solver, &run.answer, cnf, &what)
            })
            .collect();
        assert!(
            answers.iter().all(|&a| a == answers[0]),
            "the solvers disagree on {what}: {answers:?}"
        );
        verdicts.push(answers[0]);
    }
    let sat = verdicts.iter().filter(|&&v| v).count();
    println!("{sat} of {} instances satisfiable", verdicts.len());
    assert!(
        sat > 0 && sat < verdicts.len(),
        "both answers must be tested"
    );
}

#[test]
fn shuffled_instances_keep_their_answers_and_their_models_map_back() {
    let solvers = installed();
    if solvers.is_empty() {
        println!("SKIPPED: no SAT solver installed");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let mut unmapped_failures = 0;
    let mut models = 0;
    for (i, (cnf, path)) in instances(dir.path()).iter().enumerate().step_by(3) {
        let (first, program) = &solvers[0];
        let original = checked(
            first,
            &run(first, program, path, 1, Mode::Quiet).answer,
            cnf,
            "",
        );
        for index in 0..2 {
            let (shuffled, renaming) = shuffle(cnf, 5, index, Signs::Flip).expect("shuffled");
            let shuffled_path = dir.path().join(format!("shuffled-{i}-{index}.cnf"));
            write_instance(&shuffled, &shuffled_path).expect("written");
            let what = shuffled_path.display().to_string();
            for (solver, program) in &solvers {
                let run = run(solver, program, &shuffled_path, 3, Mode::Quiet);
                let sat = checked(solver, &run.answer, &shuffled, &what);
                assert_eq!(sat, original, "{} on {what}", solver.program);
                if let Answer::Sat(model) = &run.answer {
                    let back = renaming.to_original(model).expect("in range");
                    assert_eq!(cnf.check(&back), Ok(()), "{} on {what}", solver.program);
                    models += 1;
                    unmapped_failures += usize::from(cnf.check(model).is_err());
                }
            }
        }
    }
    // The map back is needed: the shuffle's models, taken as they are, fail the original.
    assert!(models > 0);
    assert!(
        unmapped_failures * 10 >= models * 9,
        "{unmapped_failures} of {models} unmapped models fail"
    );
}

#[test]
fn costs_come_from_statistics_and_budgets_stop_runs_as_unknown() {
    let solvers = installed();
    if solvers.is_empty() {
        println!("SKIPPED: no SAT solver installed");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    // Large enough that every solver needs conflicts, small enough for a fraction of a
    // second; and one that none solves within 10 conflicts.
    let medium = KSat::with_ratio(3, 120, 4.26)
        .expect("valid")
        .generate(9, 0)
        .expect("ok");
    let medium_path = dir.path().join("medium.cnf");
    write_instance(&medium, &medium_path).expect("written");
    let hard = KSat::with_ratio(3, 300, 4.26)
        .expect("valid")
        .generate(9, 1)
        .expect("ok");
    let hard_path = dir.path().join("hard.cnf");
    write_instance(&hard, &hard_path).expect("written");
    for (solver, program) in &solvers {
        let pattern = CostPattern::new(solver.cost).expect("compiles");
        let full = run(solver, program, &medium_path, 2, Mode::Stats);
        checked(solver, &full.answer, &medium, "medium.cnf");
        let cost = pattern.find(&full.stdout).expect("a number");
        println!("{}: {cost:?} conflicts on medium.cnf", solver.program);
        assert!(
            cost.is_some_and(|c| c >= 1.0),
            "{}: {cost:?}",
            solver.program
        );
        if solver.kind == Kind::MiniSat {
            continue; // no conflict limit on its command line
        }
        let stopped = run(solver, program, &hard_path, 2, Mode::Budget(10));
        assert_eq!(
            stopped.answer,
            Answer::Unknown,
            "{} with a budget",
            solver.program
        );
        if solver.kind != Kind::PicoSat {
            // PicoSAT's limit is on decisions, and its statistics need -v.
            let cost = pattern.find(&stopped.stdout).expect("a number");
            assert!(
                cost.is_some_and(|c| (10.0..=12.0).contains(&c)),
                "{} stopped at {cost:?} conflicts",
                solver.program
            );
        }
    }
}
