//! Bad sweep files are refused before anything runs, with file:line:col, the key path
//! and a message that says what is wrong.

use hammer_sweep::Sweep;

/// A valid sweep whose lines the cases below edit; line numbers matter.
const GOOD: &str = r#"name = "t"
seed = 2013

[[experiment]]
name = "first"
sizes = [3, 4]
games = 10

[[experiment]]
name = "second"
sizes = [5, 6]
games = 20
orders = ["random"]
"#;

fn with(line: usize, replacement: &str) -> String {
    let mut lines: Vec<&str> = GOOD.lines().collect();
    lines[line - 1] = replacement;
    lines.join("\n") + "\n"
}

fn error(text: &str) -> String {
    match Sweep::parse(text, "examples/bad.toml") {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[track_caller]
fn check(text: &str, want: &str) {
    assert_eq!(error(text), want, "\n{text}");
}

#[test]
fn the_good_file_is_good() {
    let s = Sweep::parse(GOOD, "good.toml").unwrap();
    assert_eq!(s.experiments.len(), 2);
    assert_eq!(s.total_games(), 2 * 10 + 2 * 20);
}

#[test]
fn size_out_of_range() {
    check(
        &with(11, "sizes = [5, 9]"),
        "examples/bad.toml:11:13: experiment[1].sizes: n = 9 is outside 1..=8",
    );
    check(
        &with(6, "sizes = [0]"),
        "examples/bad.toml:6:10: experiment[0].sizes: n = 0 is outside 1..=8",
    );
    check(
        &with(6, "sizes = 9"),
        "examples/bad.toml:6:9: experiment[0].sizes: n = 9 is outside 1..=8",
    );
}

#[test]
fn unknown_keys() {
    check(
        &with(2, "sed = 2013"),
        "examples/bad.toml:2:1: sed: unknown key; did you mean `seed`? known keys here: name, seed, solvers, experiment",
    );
    check(
        &with(7, "gmaes = 10"),
        "examples/bad.toml:7:1: experiment[0].gmaes: unknown key; did you mean `games`? known keys here: name, puzzle, sizes, games, first_game, orders, schedules, prefixes, budgets, tries, unit_games, kind, attempts, cap, max_expansions, max_seconds, max_memo_mb, unknown_games, gang",
    );
    // A sub-table is an unknown key too.
    let text = GOOD.to_string() + "[experiment.options]\nfast = true\n";
    check(
        &text,
        "examples/bad.toml:14:13: experiment[1].options: unknown key; known keys here: name, puzzle, sizes, games, first_game, orders, schedules, prefixes, budgets, tries, unit_games, kind, attempts, cap, max_expansions, max_seconds, max_memo_mb, unknown_games, gang",
    );
}

/// The keys of retired split parts are refused where they stand, pointing at `gang`.
#[test]
fn split_keys_are_retired() {
    check(
        &with(7, "split = 4"),
        "examples/bad.toml:7:1: experiment[0].split: `split` is retired: split parts are gone; use `gang = K` to search each game with a gang of K workers, or neither to search it whole",
    );
    check(
        &with(13, "split_mode = \"shared\""),
        "examples/bad.toml:13:1: experiment[1].split_mode: `split_mode` is retired: split parts are gone; use `gang = K` to search each game with a gang of K workers, or neither to search it whole",
    );
}

#[test]
fn wrong_types() {
    check(
        &with(7, "games = \"10\""),
        "examples/bad.toml:7:9: experiment[0].games: expected a whole number (1 or more), found the string \"10\"",
    );
    check(
        &with(7, "games = 1e3"),
        "examples/bad.toml:7:9: experiment[0].games: expected a whole number (1 or more), found the float 1e3",
    );
    check(
        &with(1, "name = 7"),
        "examples/bad.toml:1:8: name: expected a string, found the integer 7",
    );
    check(
        &with(13, "orders = [\"random\", 3]"),
        "examples/bad.toml:13:21: experiment[1].orders: expected a string, found the integer 3",
    );
    check(
        &with(6, "sizes = [\"3\"]"),
        "examples/bad.toml:6:10: experiment[0].sizes: expected an integer in 1..=8, found the string \"3\"",
    );
}

#[test]
fn empty_lists() {
    check(
        &with(13, "orders = []"),
        "examples/bad.toml:13:10: experiment[1].orders: the list is empty; leave the key out for the default, or give at least one entry",
    );
    check(
        &with(6, "sizes = []"),
        "examples/bad.toml:6:9: experiment[0].sizes: the list is empty; leave the key out for the default, or give at least one entry",
    );
}

#[test]
fn duplicates() {
    check(
        &with(6, "sizes = [3, 4, 3]"),
        "examples/bad.toml:6:16: experiment[0].sizes: n = 3 is listed twice; the first is at 6:10",
    );
    check(
        &with(
            13,
            "orders = [\"monte-carlo\", \"random\", \"monte-carlo:100,3\"]",
        ),
        "examples/bad.toml:13:36: experiment[1].orders: order \"monte-carlo:100,3\" (the same as \"monte-carlo\") is listed twice; the first is at 13:11",
    );
    check(
        &with(13, "schedules = [\"1x100\", \"100\"]"),
        "examples/bad.toml:13:23: experiment[1].schedules: schedule \"100\" (the same as \"1x100\") is listed twice; the first is at 13:14",
    );
    check(
        &with(13, "prefixes = [0, 1, 1]"),
        "examples/bad.toml:13:19: experiment[1].prefixes: prefix 1 is listed twice; the first is at 13:16",
    );
    check(
        &with(13, "budgets = [100, 100]"),
        "examples/bad.toml:13:17: experiment[1].budgets: budget 100 is listed twice; the first is at 13:12",
    );
    check(
        &with(10, "name = \"first\""),
        "examples/bad.toml:10:8: experiment[1].name: experiment \"first\" is listed twice; the first is at 5:8",
    );
}

#[test]
fn counts_must_be_positive() {
    check(
        &with(7, "games = 0"),
        "examples/bad.toml:7:9: experiment[0].games: games 0 must be at least 1",
    );
    check(
        &with(7, "games = -5"),
        "examples/bad.toml:7:9: experiment[0].games: games -5 must be at least 1",
    );
    check(
        &with(13, "tries = 0"),
        "examples/bad.toml:13:9: experiment[1].tries: tries 0 must be at least 1",
    );
    check(
        &with(13, "unit_games = 0"),
        "examples/bad.toml:13:14: experiment[1].unit_games: unit_games 0 must be at least 1",
    );
    check(
        &with(13, "budgets = [100, 0]"),
        "examples/bad.toml:13:17: experiment[1].budgets: budget 0 must be at least 1",
    );
    check(
        &with(13, "first_game = -1"),
        "examples/bad.toml:13:14: experiment[1].first_game: first_game -1 must be at least 0",
    );
    check(
        &with(13, "prefixes = [64]"),
        "examples/bad.toml:13:13: experiment[1].prefixes: prefix 64 is outside 0..=63",
    );
}

#[test]
fn seeds() {
    check(
        &with(2, "seed = 9223372036854775808"),
        "examples/bad.toml:2:8: seed: seed 9223372036854775808 is not below 2^63; the dataset stores it in an Int64 column",
    );
    check(
        &with(2, "seed = -1"),
        "examples/bad.toml:2:8: seed: seed -1 is negative; it must be 0 <= seed < 2^63",
    );
    // The largest allowed seed, and hex notation, are fine.
    assert_eq!(
        Sweep::parse(&with(2, "seed = 9223372036854775807"), "t")
            .unwrap()
            .seed,
        i64::MAX as u64
    );
    assert_eq!(
        Sweep::parse(&with(2, "seed = 0x7DD"), "t").unwrap().seed,
        2013
    );
}

/// No knowledge base serves another family: refused before the file is even read.
#[test]
fn the_learned_order_is_martello_only() {
    let text = "name = \"t\"\nseed = 1\n\n[[experiment]]\nname = \"p\"\npuzzle = \"peg\"\npegs = [6]\ngames = 2\norders = [\"standard\", \"learned:kb.bin\"]\n";
    check(
        text,
        "examples/bad.toml:9:23: experiment[0].orders: \"learned:kb.bin\": the learned order ranks moves by their transitions, and puzzle peg has none to learn from (puzzles that have them: martello); use standard, most-options, monte-carlo or random",
    );
}

/// A knowledge base learned with other features than the family's is refused at the
/// order, where the sweep names it.
#[test]
fn a_knowledge_base_of_other_features_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("other.kb");
    hammer_solver::learned::Kb::new(4, 2, 999)
        .write(&path)
        .unwrap();
    let text = format!(
        "name = \"t\"\nseed = 1\n\n[[experiment]]\nname = \"m\"\nsizes = [4]\ngames = 2\norders = [\"learned:{}\"]\n",
        path.display()
    );
    let err = error(&text);
    assert!(
        err.starts_with("examples/bad.toml:8:11: experiment[0].orders: ")
            && err.contains("feature version 999")
            && err.contains("other.kb"),
        "{err}"
    );
}

#[test]
fn unknown_orders_and_schedules() {
    check(
        &with(13, "orders = [\"random\", \"sideways\"]"),
        "examples/bad.toml:13:21: experiment[1].orders: unknown move order 'sideways': expected standard, most-options, monte-carlo, monte-carlo:K,L (K playouts on the first L levels), random or learned:KB[,R[,T]] (a knowledge base file, radius R, temperature T)",
    );
    check(
        &with(13, "schedules = [\"luby:0\"]"),
        "examples/bad.toml:13:14: experiment[1].schedules: bad schedule 'luby:0': '0' is not a positive whole number of expansions. Expected exact, paper, luby:U, geometric:B,R, fixed:B, or a list such as 1x10000,40x250,exact",
    );
}

#[test]
fn budgets_and_schedules_do_not_mix() {
    let text = GOOD.to_string() + "schedules = [\"paper\"]\nbudgets = [100, 1000]\n";
    check(
        &text,
        "examples/bad.toml:15:1: experiment[1].budgets: `budgets` and `schedules` cannot be combined (`schedules` is at 14:1): each budget B already is the schedule \"B\", one attempt of B expansions; put other schedules in a separate experiment",
    );
    // Reported at whichever of the two comes second.
    let text = GOOD.to_string() + "budgets = [100]\nschedules = \"exact\"\n";
    check(
        &text,
        "examples/bad.toml:15:1: experiment[1].schedules: `budgets` and `schedules` cannot be combined (`budgets` is at 14:1): each budget B already is the schedule \"B\", one attempt of B expansions; put other schedules in a separate experiment",
    );
}

#[test]
fn missing_keys() {
    check(
        &with(7, ""),
        "examples/bad.toml:4:1: experiment[0].games: missing key: every experiment needs its number of games per size",
    );
    check(
        &with(11, ""),
        "examples/bad.toml:9:1: experiment[1].sizes: missing key: every martello experiment needs `sizes` (board side: n x n stones of n colours and n symbols)",
    );
    check(
        &with(2, ""),
        "examples/bad.toml:1:1: seed: missing key: a sweep needs a seed (0 <= seed < 2^63)",
    );
    check(
        "name = \"t\"\nseed = 1\n",
        "examples/bad.toml:1:1: experiment: missing key: a sweep needs at least one [[experiment]] table",
    );
    check(
        "name = \"t\"\nseed = 1\n[experiment]\nname = \"a\"\n",
        "examples/bad.toml:3:1: experiment: write each experiment as [[experiment]] (an array of tables), not [experiment]",
    );
}

#[test]
fn names() {
    check(
        &with(5, "name = \"01\""),
        "examples/bad.toml:5:8: experiment[0].name: invalid experiment name \"01\": it must start with a letter, or readers may take it for a number or date",
    );
    check(
        &with(1, "name = \"my sweep\""),
        "examples/bad.toml:1:8: name: invalid sweep name \"my sweep\": only ASCII letters, digits, '_', '.' and '-' are allowed, so that it can name files too",
    );
}

#[test]
fn syntax_errors_are_located() {
    let e = error(&with(11, "sizes = [5, 6"));
    assert!(
        e.starts_with("examples/bad.toml:12:1: experiment[1].games: TOML syntax error: "),
        "{e}"
    );
    let e = error(&with(7, "games = 10\ngames = 11"));
    assert!(
        e.starts_with(
            "examples/bad.toml:8:1: experiment[0].games: TOML syntax error: duplicate key"
        ),
        "{e}"
    );
    let e = error("name = \"unterminated\n");
    assert!(e.starts_with("examples/bad.toml:1:"), "{e}");
    assert!(e.contains(": name: TOML syntax error"), "{e}");
}

#[test]
fn game_ranges_and_limits() {
    check(
        &with(13, "first_game = 72057594037927935"),
        "examples/bad.toml:12:9: experiment[1].games: games 72057594037927935..72057594037927955 go past the largest game index 72057594037927935 (2^56 - 1)",
    );
    // 10^10 rows: 4 sizes x 2.5e9 games is just allowed, one more game is not.
    let big = "name = \"t\"\nseed = 1\n[[experiment]]\nname = \"a\"\nsizes = [1, 2, 3, 4]\ngames = 2500000000\nunit_games = 50000\n";
    assert!(Sweep::parse(big, "t").is_ok());
    check(
        &big.replace("2500000000", "2500000001"),
        "examples/bad.toml:6:9: experiment[0].games: this experiment has 10000000004 result rows (1 configurations x 4 points x up to 2500000001 games), which takes the sweep to 10000000004 rows, more than the limit of 10000000000",
    );
    check(
        &with(
            13,
            "prefixes = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\ntries = 1000",
        ),
        "examples/bad.toml:9:1: experiment[1]: 11000 configurations (1 orders x 1 schedules x 11 prefixes x 1000 tries), more than 10000; split the experiment",
    );
    let many = "name = \"t\"\nseed = 1\n[[experiment]]\nname = \"a\"\nsizes = [3]\ngames = 2000000\nunit_games = 1\n";
    check(
        many,
        "examples/bad.toml:7:14: experiment[0].unit_games: this experiment has 2000000 work units, which takes the sweep to 2000000, more than 1000000; give a larger unit_games",
    );
}

#[test]
fn load_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.toml");
    let e = Sweep::load(&missing).unwrap_err().to_string();
    assert!(
        e.starts_with(&format!(
            "{}: cannot read the sweep file: ",
            missing.display()
        )),
        "{e}"
    );
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, with(6, "sizes = [3, 9]")).unwrap();
    let e = Sweep::load(&bad).unwrap_err();
    assert_eq!(e.file, bad.display().to_string());
    assert_eq!(
        (e.line, e.column, e.key.as_str()),
        (6, 13, "experiment[0].sizes")
    );
    let binary = dir.path().join("binary.toml");
    std::fs::write(&binary, b"name = \"\xff\"").unwrap();
    let e = Sweep::load(&binary).unwrap_err().to_string();
    assert!(e.contains("not UTF-8 (bad byte at offset 8)"), "{e}");
}

#[test]
fn run_time_experiments() {
    let base = "name = \"t\"\nseed = 1\n\n[[experiment]]\nname = \"rtd\"\nkind = \"run-time\"\nsizes = [6]\ngames = 10\n";
    let ok = Sweep::parse(&format!("{base}attempts = 4\ncap = 500\n"), "rt.toml").unwrap();
    let e = &ok.experiments[0];
    assert_eq!(
        e.kind,
        hammer_sweep::ExperimentKind::RunTime {
            attempts: 4,
            cap: 500
        }
    );
    let ids: Vec<&str> = e.configs.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "order=random;schedule=500;budget=500;prefix=0;trial=0",
            "order=random;schedule=500;budget=500;prefix=0;trial=1",
            "order=random;schedule=500;budget=500;prefix=0;trial=2",
            "order=random;schedule=500;budget=500;prefix=0;trial=3",
        ]
    );
    check(
        &format!("{base}attempts = 4\n"),
        "examples/bad.toml:4:1: experiment[0].cap: missing key: a run-time experiment needs the expansion cap of each attempt, such as cap = 10000",
    );
    check(
        &format!("{base}attempts = 4\ncap = 500\ntries = 3\n"),
        "examples/bad.toml:11:1: experiment[0].tries: a run-time experiment (kind = \"run-time\" at 6:1) sets its own attempts and cap; `tries` cannot be used with it",
    );
    check(
        &with(8, "cap = 100"),
        "examples/bad.toml:8:1: experiment[0].cap: `cap` belongs to run-time experiments; add kind = \"run-time\" or use `budgets` and `tries`",
    );
    check(
        &with(8, "kind = \"rtd\""),
        "examples/bad.toml:8:8: experiment[0].kind: unknown experiment kind \"rtd\"; expected \"solve\" (the default) or \"run-time\"",
    );
}

#[test]
fn schedule_files_are_written_into_the_sweep_text() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("best.schedule"),
        "# tuned\n20x300,\n5x1200,exact\n",
    )
    .unwrap();
    let sweep_text = "name = \"t\"\nseed = 1\n\n[[experiment]]\nname = \"v\"\nsizes = [6]\ngames = 3\norders = \"random\"\nschedules = [\"@best.schedule\", \"paper\"]\n";
    let path = dir.path().join("v.toml");
    std::fs::write(&path, sweep_text).unwrap();
    let sweep = Sweep::load(&path).unwrap();
    assert!(
        sweep
            .text
            .contains("schedules = [\"20x300,5x1200,exact\", \"paper\"]"),
        "{}",
        sweep.text
    );
    let ids: Vec<&str> = sweep.experiments[0]
        .configs
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(
        ids,
        [
            "order=random;schedule=20x300,5x1200,exact;prefix=0;trial=0",
            "order=random;schedule=paper;prefix=0;trial=0"
        ]
    );
    // What a worker receives parses on its own, to the same sweep.
    let shipped = Sweep::parse(&sweep.text, "<coordinator>").unwrap();
    assert_eq!(shipped.digest, sweep.digest);
    // Text with a file reference cannot be parsed without its file.
    let e = Sweep::parse(sweep_text, "<coordinator>")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("<coordinator>:9:14: experiment[0].schedules: schedule file \"@best.schedule\""),
        "{e}"
    );
    std::fs::write(dir.path().join("best.schedule"), "# none\n").unwrap();
    let e = Sweep::load(&path).unwrap_err().to_string();
    assert!(e.contains("holds no schedule"), "{e}");
    std::fs::remove_file(dir.path().join("best.schedule")).unwrap();
    let e = Sweep::load(&path).unwrap_err().to_string();
    assert!(e.contains("cannot read the schedule file"), "{e}");
}

/// A sweep with an outside solver, for the cases below; line numbers matter.
const SOLVER: &str = r#"name = "s"
seed = 1

[solvers.cadical]
command = ["cadical", "--seed={seed}", "-c", "{budget}", "{instance}"]
output = "dimacs"
cost = 'c\s+conflicts:\s+(\d+)'
budget_unit = "conflicts"

[[experiment]]
name = "ratio"
solver = "cadical"
instances = { generator = "ksat", k = 3, vars = [50, 100], ratio = [3.8, 4.26] }
games = 10
budgets = [1000]
limits = { cpu_seconds = 20, memory_mb = 1024 }
"#;

fn solver_with(line: usize, replacement: &str) -> String {
    let mut lines: Vec<&str> = SOLVER.lines().collect();
    lines[line - 1] = replacement;
    lines.join("\n") + "\n"
}

#[test]
fn the_solver_file_is_good() {
    let sweep = Sweep::parse(SOLVER, "s.toml").expect("valid");
    let e = &sweep.experiments[0];
    assert_eq!(e.family.name(), "sat");
    assert_eq!(e.points.len(), 4);
    assert_eq!(e.points[1].to_string(), "k=3;vars=50;ratio=4.26");
    let program = e.program.as_ref().expect("a program");
    assert_eq!(program.name, "cadical");
    assert_eq!(program.limits.cpu, Some(std::time::Duration::from_secs(20)));
    assert_eq!(program.limits.memory, Some(1024 << 20));
}

#[test]
fn solver_declarations_are_checked_where_they_are_written() {
    check(
        &solver_with(5, r#"command = ["cadical", "--seed={sed}", "{instance}"]"#),
        "examples/bad.toml:5:23: solvers.cadical.command: `command` element 1: `{sed}` is not a placeholder (they are {instance}, {seed}, {budget} and {tmp}; `{{` and `}}` write braces)",
    );
    check(
        &solver_with(6, r#"output = "smtlib""#),
        "examples/bad.toml:6:10: solvers.cadical.output: `output = \"smtlib\"` is not an output form (they are dimacs, minisat, json and exit-code)",
    );
    let cost = error(&solver_with(7, r#"cost = 'c (\d+'"#));
    assert!(
        cost.starts_with("examples/bad.toml:7:8: solvers.cadical.cost: `cost` is not a usable pattern: the cost pattern `c (\\d+` does not compile"),
        "{cost}"
    );
    check(
        &solver_with(8, r#"budget_units = "conflicts""#),
        "examples/bad.toml:8:1: solvers.cadical.budget_units: unknown key; did you mean `budget_unit`? known keys here: preset, command, output, cost, budget_unit, exit_codes, columns, restarts, restarts_off",
    );
}

#[test]
fn experiments_name_declared_solvers_and_known_generators() {
    check(
        &solver_with(12, r#"solver = "kissat""#),
        "examples/bad.toml:12:10: experiment[0].solver: no [solvers.kissat] in this file (declared: cadical)",
    );
    check(
        &solver_with(13, r#"instances = { generator = "uniform", vars = 50 }"#),
        "examples/bad.toml:13:27: experiment[0].instances.generator: unknown generator \"uniform\"; expected one of ksat",
    );
    check(
        &solver_with(
            13,
            r#"instances = { generator = "ksat", vars = 50, ratio = -1.5 }"#,
        ),
        "examples/bad.toml:13:54: experiment[0].instances.ratio: -1.5 is out of range 0..=1000",
    );
    check(
        &solver_with(16, r#"limits = { cpu_secs = 20 }"#),
        "examples/bad.toml:16:12: experiment[0].limits.cpu_secs: unknown key; known keys here: cpu_seconds, wall_seconds, memory_mb, output_mb",
    );
    check(
        &solver_with(12, r#"puzzle = "peg""#)
            .replace("games = 10", "games = 10\nsolver = \"cadical\""),
        "examples/bad.toml:15:10: experiment[0].solver: `solver` runs an outside program on puzzle sat's instances; the puzzle this experiment names is searched by hammer itself: leave out `puzzle` or `solver`",
    );
}

#[test]
fn budgets_must_reach_the_program() {
    check(
        &solver_with(15, r#"schedules = ["exact"]"#).replace("budgets = [1000]\n", ""),
        "examples/bad.toml:5:11: solvers.cadical.command: the command passes {budget}, but configuration order=standard;schedule=exact;prefix=0;trial=0 has an attempt without one (schedule exact); give `budgets` or a schedule whose every attempt has a budget, such as \"luby:1000\" cut by a list",
    );
    let minisat = "name = \"m\"\nseed = 1\n\n[solvers.m]\npreset = \"minisat\"\n\n[[experiment]]\nname = \"m\"\nsolver = \"m\"\ninstances = { generator = \"ksat\", vars = 60 }\ngames = 2\nbudgets = [1000]\nlimits = { wall_seconds = 60 }\n";
    check(
        minisat,
        "examples/bad.toml:9:10: experiment[0].solver: configuration order=standard;schedule=1000;budget=1000;prefix=0;trial=0 gives each attempt a budget, but the command of [solvers.m] has no {budget} to pass it in; use schedules = [\"exact\"] or a command that takes a budget",
    );
}

#[test]
fn a_program_needs_a_time_limit() {
    check(
        &solver_with(16, r#"limits = { memory_mb = 1024 }"#),
        "examples/bad.toml:12:10: experiment[0].solver: a program's runs need a time limit, or one that hangs holds its worker's thread for good: give limits = { cpu_seconds = S } or wall_seconds",
    );
}
