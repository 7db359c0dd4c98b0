//! Declarations as a sweep file writes them: presets filled in and overridden, and every
//! kind of bad declaration refused with the field (and element) it is about; programs
//! resolved on the PATH given, not this process's.

mod common;

use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;

use common::{solver, spec};
use hammer_cnf::Digest;
use hammer_external::{
    ColumnType, ExecutableError, Output, Placeholder, Reported, SolverSpec, SpecError, resolve,
};

fn refused(toml: &str) -> SpecError {
    match spec(toml).validate() {
        Ok(solver) => panic!("{toml} validated: {solver:?}"),
        Err(error) => error,
    }
}

#[test]
fn a_table_reads_and_checks() {
    let cadical = solver(
        r#"
        command = ["cadical", "--seed={seed}", "-c", "{budget}", "{instance}"]
        output = "dimacs"
        cost = 'c\s+conflicts:\s+(\d+)'
        budget_unit = "conflicts"
        "#,
    );
    assert_eq!(cadical.program(), "cadical");
    assert_eq!(cadical.args().len(), 4);
    assert_eq!(*cadical.output(), Output::Dimacs);
    assert_eq!(cadical.budget_unit(), Some("conflicts"));
    assert!(cadical.uses(Placeholder::Seed) && !cadical.uses(Placeholder::Tmp));
    assert_eq!(
        cadical.cost().map(|c| c.as_str()),
        Some(r"c\s+conflicts:\s+(\d+)")
    );
    let exits = solver(
        r#"
        command = ["./mine"]
        output = "exit-code"
        exit_codes = { 10 = "solved", 20 = "refuted", 0 = "unknown", 3 = "error" }
        "#,
    );
    let Output::ExitCode { codes } = exits.output() else {
        panic!("{:?}", exits.output());
    };
    assert_eq!(codes.get(&10), Some(&Reported::Solved));
    assert_eq!(codes.get(&3), Some(&Reported::Error));
    let json = solver(
        r#"
        command = ["mine"]
        output = "json"
        columns = { depth = "int", note = "text" }
        "#,
    );
    let Output::Json { columns } = json.output() else {
        panic!("{:?}", json.output());
    };
    assert_eq!(columns.get("depth"), Some(&ColumnType::Int));
    assert_eq!(columns.len(), 2);
    let typo = toml::from_str::<SolverSpec>("comand = [\"x\"]").expect_err("unknown field");
    assert!(typo.to_string().contains("comand"), "{typo}");
}

#[test]
fn a_preset_fills_in_and_a_field_beside_it_overrides() {
    let cadical = solver(r#"preset = "cadical""#);
    assert_eq!(cadical.program(), "cadical");
    assert_eq!(cadical.budget_unit(), Some("conflicts"));
    let quiet = solver(
        r#"
        preset = "cadical"
        command = ["/opt/cadical", "-q", "-c", "{budget}", "{instance}"]
        "#,
    );
    assert_eq!(quiet.program(), "/opt/cadical");
    assert!(!quiet.uses(Placeholder::Seed));
    assert!(quiet.cost().is_some(), "the preset's cost stays");
    let off = solver("preset = \"cadical\"\nrestarts = false");
    assert_eq!(off.args().len(), cadical.args().len() + 1);
    assert_eq!(off.args()[0].literal(), Some("--no-restart"));
    let minisat = solver(r#"preset = "minisat""#);
    assert_eq!(*minisat.output(), Output::Minisat);
    assert_eq!(minisat.budget_unit(), None);
    for name in ["kissat", "cryptominisat"] {
        let preset = solver(&format!("preset = {name:?}\nrestarts = false"));
        assert!(preset.uses(Placeholder::Budget), "{name}");
    }
}

#[test]
fn every_bad_declaration_names_its_field() {
    let cases: [(&str, &str, Option<usize>, &str); 17] = [
        (
            r#"command = ["s", "-x", "y", "{instanse}"]
               output = "dimacs""#,
            "command",
            Some(3),
            "`command` element 3: `{instanse}` is not a placeholder",
        ),
        (
            r#"command = ["s", "{seed"]
               output = "dimacs""#,
            "command",
            Some(1),
            "`command` element 1: a lone brace at byte 0",
        ),
        (
            r#"command = ["{tmp}/s"]
               output = "dimacs""#,
            "command",
            Some(0),
            "`command` element 0 names a placeholder",
        ),
        (
            r#"command = []
               output = "dimacs""#,
            "command",
            None,
            "`command` is empty",
        ),
        (
            r#"output = "dimacs""#,
            "command",
            None,
            "`command` is missing",
        ),
        (r#"command = ["s"]"#, "output", None, "`output` is missing"),
        (
            r#"command = ["s"]
               output = "sat""#,
            "output",
            None,
            "`output = \"sat\"` is not an output form",
        ),
        (
            r#"command = ["s"]
               output = "dimacs"
               cost = 'conflicts: \d+'"#,
            "cost",
            None,
            "`cost` is not a usable pattern",
        ),
        (
            r#"command = ["s"]
               output = "exit-code""#,
            "output",
            None,
            "needs `exit_codes`",
        ),
        (
            r#"command = ["s"]
               output = "exit-code"
               exit_codes = { ten = "solved" }"#,
            "exit_codes",
            None,
            "`exit_codes` key `ten` is not an exit code",
        ),
        (
            r#"command = ["s"]
               output = "exit-code"
               exit_codes = { 10 = "sat" }"#,
            "exit_codes",
            None,
            "the status `sat`",
        ),
        (
            r#"command = ["s"]
               output = "dimacs"
               exit_codes = { 10 = "solved" }"#,
            "exit_codes",
            None,
            "only `output = \"exit-code\"` reads it",
        ),
        (
            r#"command = ["s"]
               output = "json"
               columns = { depth = "integer" }"#,
            "columns",
            None,
            "`columns` gives `depth` the type `integer`",
        ),
        (
            r#"command = ["s", "{budget}"]
               output = "dimacs""#,
            "command",
            None,
            "no `budget_unit`",
        ),
        (
            r#"command = ["s"]
               output = "dimacs"
               budget_unit = "conflicts""#,
            "budget_unit",
            None,
            "passes no {budget}",
        ),
        (
            r#"command = ["s"]
               output = "dimacs"
               restarts = false"#,
            "restarts",
            None,
            "no `restarts_off`",
        ),
        (
            r#"command = ["minisat", "{instance}", "result"]
               output = "minisat""#,
            "command",
            None,
            "reads {tmp}/result",
        ),
    ];
    for (toml, field, index, message) in cases {
        let error = refused(toml);
        let text = error.to_string();
        assert!(text.contains(message), "{toml}: {text}");
        assert_eq!(error.field(), field, "{toml}: {text}");
        assert_eq!(error.index(), index, "{toml}: {text}");
    }
    let error = refused(r#"preset = "glucose""#);
    assert_eq!(error.field(), "preset");
    assert_eq!(
        error.to_string(),
        "`preset = \"glucose\"` is not a preset (the presets are cadical, cryptominisat, kissat, minisat)"
    );
    let error = refused("preset = \"cadical\"\nrestarts_off = [\"--x={nope}\"]\nrestarts = false");
    assert_eq!((error.field(), error.index()), ("restarts_off", Some(0)));
    // The message says what failed; the compiler's complaint is the source, not repeated.
    let error = refused("command = [\"s\"]\noutput = \"dimacs\"\ncost = '(unclosed'");
    let source = std::error::Error::source(&error).expect("a source");
    assert!(!error.to_string().contains(&source.to_string()));
}

#[test]
fn programs_resolve_on_the_path_given() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).expect("made");
    let tool = bin.join("tool");
    std::fs::write(&tool, "#!/bin/false\n").expect("written");
    std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let plain = bin.join("plain");
    std::fs::write(&plain, "data").expect("written");
    let path = format!("/nonexistent:relative:{}", bin.display());
    let found = resolve("tool", OsStr::new(&path)).expect("found");
    assert_eq!(found.path, tool);
    assert_eq!(found.digest, Digest::of_bytes(b"#!/bin/false\n"));
    // Not this process's PATH: a name in none of the given directories is not found.
    let error = resolve("python3", OsStr::new("/nonexistent")).expect_err("not found");
    assert!(matches!(error, ExecutableError::NotFound { .. }), "{error}");
    assert_eq!(
        error.to_string(),
        "`python3` is in none of the directories of PATH `/nonexistent`"
    );
    let error = resolve("plain", OsStr::new(&path)).expect_err("not executable");
    assert!(matches!(error, ExecutableError::NotFound { .. }), "{error}");
    let error = resolve(&plain.to_string_lossy(), OsStr::new("")).expect_err("a path");
    assert!(
        matches!(error, ExecutableError::NotExecutable { .. }),
        "{error}"
    );
    let missing = bin.join("missing");
    let error = resolve(&missing.to_string_lossy(), OsStr::new("")).expect_err("missing");
    assert_eq!(
        error.to_string(),
        format!("{} is not a file", missing.display())
    );
    let error = resolve(&bin.to_string_lossy(), OsStr::new("")).expect_err("a directory");
    assert!(matches!(error, ExecutableError::NotAFile { .. }), "{error}");
    // A relative path is made absolute against the working directory.
    let relative = resolve("./Cargo.toml", OsStr::new("")).expect_err("not executable");
    let ExecutableError::NotExecutable { path } = relative else {
        panic!("{relative}");
    };
    assert!(
        path.is_absolute() && path.ends_with("Cargo.toml"),
        "{}",
        path.display()
    );
}
