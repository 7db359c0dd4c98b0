//! Attempts of small real programs (Python, run through their `#!` line) that answer
//! each way a solver can: a wrong model, garbage, a crash, a CPU hog, JSON in a file
//! and on a line, exit codes; and what the program is given: its arguments, its
//! environment, its private directory.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use common::{Attempt, have_python, instance, script, solver};
use hammer_exec::{Exit, RunStatus, Termination, Verdict};
use hammer_external::{Record, Solver, Value};

/// A declaration for the program at `path` with the rest of its table in `rest`.
fn declared(path: &Path, args: &str, rest: &str) -> Solver {
    solver(&format!(
        "command = [{:?}{args}]\n{rest}",
        path.to_string_lossy()
    ))
}

fn run_on(solver: &Solver, dir: &Path) -> Record {
    let (cnf, path) = instance(dir, 50, 6.0, 1);
    let mut attempt = Attempt::new(solver, &path, dir);
    attempt.formula = Some(&cnf);
    attempt.run()
}

#[test]
fn a_model_that_fails_the_instance_is_wrong() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    // The instance is unsatisfiable (50 variables, 300 clauses), so no model holds.
    let liar = script(
        dir.path(),
        "liar",
        "import sys\nprint('s SATISFIABLE')\nprint('v', *range(1, 51), 0)\nsys.exit(10)\n",
    );
    let record = run_on(&declared(&liar, "", r#"output = "dimacs""#), dir.path());
    assert_eq!(record.status, RunStatus::Wrong, "{:?}", record.reason);
    assert!(
        record
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("is not satisfied")),
        "{:?}",
        record.reason
    );
    let beyond = script(
        dir.path(),
        "beyond",
        "import sys\nprint('s SATISFIABLE')\nprint('v 51 0')\nsys.exit(10)\n",
    );
    let record = run_on(&declared(&beyond, "", r#"output = "dimacs""#), dir.path());
    assert_eq!(record.status, RunStatus::Wrong);
    // A status that the exit code contradicts is not understood.
    let contradicts = script(
        dir.path(),
        "contradicts",
        "import sys\nprint('s SATISFIABLE')\nprint('v 1 0')\nsys.exit(20)\n",
    );
    let record = run_on(
        &declared(&contradicts, "", r#"output = "dimacs""#),
        dir.path(),
    );
    assert_eq!(record.status, RunStatus::Error);
    assert_eq!(record.verdict, Verdict::NotUnderstood);
}

#[test]
fn garbage_is_an_error_with_its_reason() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let garbage = script(
        dir.path(),
        "garbage",
        "import sys\nsys.stdout.buffer.write(bytes(range(256)) * 4 + b'\\ns MAYBE\\n')\nsys.exit(1)\n",
    );
    for output in ["dimacs", "json"] {
        let record = run_on(
            &declared(&garbage, "", &format!("output = {output:?}")),
            dir.path(),
        );
        assert_eq!(record.status, RunStatus::Error, "{output}");
        assert_eq!(record.run.exit, Exit::Code(1));
        assert!(record.reason.is_some(), "{output}");
    }
    // A cost pattern that captures no number makes even a clean answer an error.
    let words = script(
        dir.path(),
        "words",
        "import sys\nprint('s UNSATISFIABLE')\nprint('c conflicts: many')\nsys.exit(20)\n",
    );
    let record = run_on(
        &declared(
            &words,
            "",
            "output = \"dimacs\"\ncost = 'conflicts: (\\w+)'",
        ),
        dir.path(),
    );
    assert_eq!(record.status, RunStatus::Error);
    assert_eq!(
        record.reason.as_deref(),
        Some(r"the cost pattern `conflicts: (\w+)` captured `many`, which is not a number")
    );
}

#[test]
fn a_segfault_is_a_crash_and_a_cpu_hog_a_timeout() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let segv = script(dir.path(), "segv", "import os\nos.kill(os.getpid(), 11)\n");
    let record = run_on(&declared(&segv, "", r#"output = "dimacs""#), dir.path());
    assert_eq!(record.status, RunStatus::Crash);
    assert_eq!(record.run.exit, Exit::Signal(11));
    let hog = script(dir.path(), "hog", "while True:\n    pass\n");
    let solver = declared(&hog, "", r#"output = "dimacs""#);
    let (cnf, path) = instance(dir.path(), 50, 6.0, 1);
    let mut attempt = Attempt::new(&solver, &path, dir.path());
    attempt.formula = Some(&cnf);
    attempt.limits.cpu = Some(Duration::from_millis(300));
    let record = attempt.run();
    assert_eq!(record.status, RunStatus::Timeout);
    assert_eq!(record.run.termination, Termination::CpuLimit);
    assert!(record.run.cpu_user + record.run.cpu_system >= Duration::from_millis(300));
    // A program whose interpreter is missing could not start.
    let orphan = dir.path().join("orphan");
    std::fs::write(&orphan, "#!/nonexistent/python3\n").expect("written");
    std::fs::set_permissions(&orphan, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let record = run_on(&declared(&orphan, "", r#"output = "dimacs""#), dir.path());
    assert_eq!(record.status, RunStatus::CouldNotStart);
    assert!(record.reason.is_some_and(|r| r.starts_with("not started")));
}

/// A JSON program's declaration, with columns of every type.
const JSON: &str = r#"output = "json"
columns = { restarts = "int", ratio = "float", note = "text", done = "bool" }"#;

#[test]
fn json_answers_come_from_the_result_file_before_standard_output() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let file = script(
        dir.path(),
        "file",
        r#"import json, os
answer = {"status": "solved", "score": 7, "cost": 12.5,
          "extra": {"restarts": 3, "ratio": 0.5, "note": "ok", "done": True}}
with open(os.environ["HAMMER_RESULT"] + ".part", "w") as f:
    json.dump(answer, f)
os.rename(os.environ["HAMMER_RESULT"] + ".part", os.environ["HAMMER_RESULT"])
print('{"status": "error"}')
"#,
    );
    let record = run_on(&declared(&file, "", JSON), dir.path());
    assert_eq!(record.status, RunStatus::Solved, "{:?}", record.reason);
    assert_eq!((record.score, record.cost), (Some(7), Some(12.5)));
    let expected: BTreeMap<String, Value> = [
        ("restarts".to_owned(), Value::Int(3)),
        ("ratio".to_owned(), Value::Float(0.5)),
        ("note".to_owned(), Value::Text("ok".into())),
        ("done".to_owned(), Value::Bool(true)),
    ]
    .into();
    assert_eq!(record.extras, expected);
    let line = script(
        dir.path(),
        "line",
        "print('starting')\nprint('{\"status\": \"refuted\", \"extra\": {\"restarts\": 0}}')\nprint('  ')\n",
    );
    let record = run_on(&declared(&line, "", JSON), dir.path());
    assert_eq!(record.status, RunStatus::Refuted, "{:?}", record.reason);
    assert_eq!(record.extras["restarts"], Value::Int(0));
    // Undeclared and mistyped extras, and an error the program reports, are errors.
    for (name, answer) in [
        (
            "undeclared",
            r#"{"status": "solved", "extra": {"depth": 1}}"#,
        ),
        (
            "mistyped",
            r#"{"status": "solved", "extra": {"restarts": "3"}}"#,
        ),
        ("failed", r#"{"status": "error"}"#),
    ] {
        let program = script(dir.path(), name, &format!("print({answer:?})\n"));
        let record = run_on(&declared(&program, "", JSON), dir.path());
        assert_eq!(record.status, RunStatus::Error, "{name}");
        assert!(record.reason.is_some(), "{name}");
    }
    // A result file is read no further than the run's output limit.
    let big = script(
        dir.path(),
        "big",
        "import os\nopen(os.environ['HAMMER_RESULT'], 'w').write(' ' * 5000 + '{\"status\": \"solved\"}')\n",
    );
    let solver = declared(&big, "", JSON);
    let (_, path) = instance(dir.path(), 50, 6.0, 1);
    let mut attempt = Attempt::new(&solver, &path, dir.path());
    attempt.limits.output = 1000;
    let record = attempt.run();
    assert_eq!(record.status, RunStatus::Error);
    assert_eq!(
        record.reason.as_deref(),
        Some("{tmp}/result.json is larger than 1000 bytes")
    );
    attempt.limits = common::limits();
    assert_eq!(attempt.run().status, RunStatus::Solved);
    // The declaration's cost pattern reads standard error's tail too.
    let stderr = script(
        dir.path(),
        "stderr",
        "import sys\nprint('conflicts: 42', file=sys.stderr)\nprint('{\"status\": \"unknown\", \"cost\": 1}')\n",
    );
    let with_cost = format!("{JSON}\ncost = 'conflicts: (\\d+)'");
    let record = run_on(&declared(&stderr, "", &with_cost), dir.path());
    assert_eq!(record.status, RunStatus::Unknown);
    assert_eq!(record.cost, Some(42.0));
}

#[test]
fn exit_codes_map_to_statuses_and_the_seed_reaches_the_program() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let exits = script(
        dir.path(),
        "exits",
        "import sys\nsys.exit(int(sys.argv[1].split('=')[1]))\n",
    );
    let solver = declared(
        &exits,
        r#", "--seed={seed}""#,
        r#"output = "exit-code"
exit_codes = { 10 = "solved", 20 = "refuted", 0 = "unknown", 1 = "error" }"#,
    );
    let (_, path) = instance(dir.path(), 50, 6.0, 1);
    for (seed, status) in [
        (10, RunStatus::Solved),
        (20, RunStatus::Refuted),
        (0, RunStatus::Unknown),
        (1, RunStatus::Error),
        (3, RunStatus::Error),
    ] {
        let mut attempt = Attempt::new(&solver, &path, dir.path());
        attempt.seed = seed;
        let record = attempt.run();
        assert_eq!(record.status, status, "seed {seed}: {:?}", record.reason);
        assert_eq!(record.run.exit, Exit::Code(seed as i32));
        assert_eq!(record.argv[1], format!("--seed={seed}").as_str());
    }
}

#[test]
fn the_program_sees_its_arguments_a_clean_environment_and_a_private_directory() {
    if !have_python() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let probe = script(
        dir.path(),
        "probe",
        r#"import json, os, sys
# The environment as the program was started with it, before Python adds to it.
env = dict(entry.split("=", 1) for entry in
           open("/proc/self/environ").read().split("\0") if entry)
print(json.dumps({"status": "unknown", "extra": {
    "keys": ",".join(sorted(env)), "home": env.get("HOME", ""),
    "tmpdir": env.get("TMPDIR", ""), "result": env.get("HAMMER_RESULT", ""),
    "path": env.get("PATH", ""), "cwd": os.getcwd(), "argv": "|".join(sys.argv[1:])}}))
"#,
    );
    let columns = ["keys", "home", "tmpdir", "result", "path", "cwd", "argv"]
        .map(|c| format!("{c} = \"text\""))
        .join(", ");
    let solver = declared(
        &probe,
        r#", "{instance}", "--seed={seed}", "-c", "{budget}", "{tmp}/x", "{{seed}}", "a b""#,
        &format!("output = \"json\"\nbudget_unit = \"steps\"\ncolumns = {{ {columns} }}"),
    );
    let (_, path) = instance(dir.path(), 50, 6.0, 1);
    let scratch = dir.path().join("scratch");
    std::fs::create_dir(&scratch).expect("made");
    let mut attempt = Attempt::new(&solver, &path, &scratch);
    attempt.seed = 41;
    attempt.budget = Some(9);
    attempt.keep = true;
    let record = attempt.run();
    let text = |key: &str| match record.extras.get(key) {
        Some(Value::Text(text)) => text.clone(),
        other => panic!("{key}: {other:?} ({:?})", record.reason),
    };
    assert_eq!(text("keys"), "HAMMER_RESULT,HOME,PATH,TMPDIR");
    assert_eq!(text("path"), common::PATH);
    let kept = record.kept.clone().expect("kept");
    let tmp = kept.to_string_lossy().into_owned();
    assert!(kept.starts_with(&scratch) && kept.is_dir(), "{tmp}");
    assert_eq!(text("home"), tmp);
    assert_eq!(text("tmpdir"), tmp);
    assert_eq!(text("cwd"), tmp);
    assert_eq!(text("result"), format!("{tmp}/result.json"));
    let instance = path.to_string_lossy();
    assert_eq!(
        text("argv"),
        format!("{instance}|--seed=41|-c|9|{tmp}/x|{{seed}}|a b")
    );
    // Without `keep`, the private directory is gone after the run.
    attempt.keep = false;
    let record = attempt.run();
    assert_eq!(record.kept, None);
    let Some(Value::Text(cwd)) = record.extras.get("cwd") else {
        panic!("no cwd: {:?}", record.reason);
    };
    assert_ne!(cwd, &tmp);
    assert!(!Path::new(cwd).exists(), "{cwd} is left behind");
    assert_eq!(
        std::fs::read_dir(&scratch).expect("listed").count(),
        1,
        "only the kept one"
    );
}
