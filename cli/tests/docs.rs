//! The docs' console examples run: every ```console block of README.md and docs/*.md is
//! run with the binary under test and compared with the output it shows.
//!
//! A `$ hammer ...` line is a command; the lines after it, up to the next command or the
//! block's end, are its expected standard output and error. `...` on a line of its own
//! matches any lines and `[..]` any text within a line, for times and other values that
//! differ between runs. Commands that need minutes, other engines or other machines are
//! ```sh blocks, which are not run.
//!
//! `TRYCMD=overwrite cargo test -p hammer --test docs` writes the real outputs back into
//! the docs, keeping the wildcards where they still match.
//!
//! The ```toml blocks of docs/sweep-format.md are checked too, by the sweep crate's own
//! reader: see [`TomlBlock`] for what each block's info string asks.

use std::path::{Path, PathBuf};

/// The workspace's root, where the docs' relative paths (`examples/quickstart.toml`) start.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ sits in the workspace")
        .to_path_buf()
}

#[test]
fn console_examples_print_what_the_docs_show() {
    let root = root();
    // trycmd runs a Markdown case in the test's working directory, which cargo sets to the
    // package's own (cli/); the docs' commands are written from the workspace's root.
    std::env::set_current_dir(&root).expect("enter the workspace's root");
    let cases = trycmd::TestCases::new();
    cases
        .register_bin("hammer", trycmd::cargo::cargo_bin!("hammer"))
        .env("NO_COLOR", "1")
        .case(root.join("README.md"));
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("read docs/")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    assert!(docs.len() > 10, "docs/ holds the guides: {docs:?}");
    for doc in docs {
        cases.case(doc);
    }
}

/// How a ```toml block of docs/sweep-format.md is checked, by the word after `toml`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum TomlBlock {
    /// ```toml: a whole sweep file, which must be accepted.
    Sweep,
    /// ```toml experiments: `[[experiment]]` tables alone, accepted once a sweep's `name`
    /// and `seed` are put before them.
    Experiments,
    /// ```toml refused: a whole sweep file, which must be refused.
    Refused,
}

/// Every ```toml block of `text`: the line its text starts on, its kind, its text.
fn toml_blocks(text: &str) -> Vec<(usize, TomlBlock, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, TomlBlock, String)> = None;
    for (i, line) in text.lines().enumerate() {
        if let Some((start, kind, mut body)) = open.take() {
            if line.trim_end() == "```" {
                blocks.push((start, kind, body));
            } else {
                body.push_str(line);
                body.push('\n');
                open = Some((start, kind, body));
            }
        } else if let Some(info) = line.strip_prefix("```toml") {
            let kind = match info.trim() {
                "" => TomlBlock::Sweep,
                "experiments" => TomlBlock::Experiments,
                "refused" => TomlBlock::Refused,
                other => panic!("line {}: unknown ```toml marker {other:?}", i + 1),
            };
            open = Some((i + 2, kind, String::new()));
        }
    }
    assert!(open.is_none(), "a ```toml block is not closed");
    blocks
}

#[test]
fn sweep_format_toml_blocks_parse_as_sweep_files() {
    let blocks = check_toml_blocks("docs/sweep-format.md");
    assert!(
        blocks.len() >= 8,
        "the sweep format shows its keys: {blocks:?}"
    );
}

/// The solver guide's sweep files are sweep files, and its first is the example the
/// tests run (cli/tests/solvers.rs), word for word.
#[test]
fn solver_guide_toml_blocks_parse_as_sweep_files() {
    let blocks = check_toml_blocks("docs/solvers.md");
    let example = std::fs::read_to_string(root().join("examples/threshold.toml"))
        .expect("read examples/threshold.toml");
    assert_eq!(
        blocks.first().map(|(_, _, body)| body.as_str()),
        Some(example.as_str()),
        "docs/solvers.md's first sweep is examples/threshold.toml"
    );
}

/// Checks every ```toml block of `doc` (a path from the workspace's root) as its marker
/// asks, and gives them back; at least one must be refused.
fn check_toml_blocks(doc: &str) -> Vec<(usize, TomlBlock, String)> {
    let text = std::fs::read_to_string(root().join(doc)).expect("read the doc");
    let blocks = toml_blocks(&text);
    assert!(
        blocks
            .iter()
            .any(|(_, kind, _)| *kind == TomlBlock::Refused),
        "{doc} shows a refused file"
    );
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (line, kind, body) in &blocks {
        let body = match kind {
            TomlBlock::Experiments => format!("name = \"docs\"\nseed = 2013\n\n{body}"),
            TomlBlock::Sweep | TomlBlock::Refused => body.clone(),
        };
        // A file of its own in an empty directory: reading it checks every key, and reads
        // neither the datasets of continuations nor anything else beside it.
        let file = dir.path().join(format!("block-{line}.toml"));
        std::fs::write(&file, &body).expect("write the block");
        // A continuation's games are not read here, so only a sweep without one is
        // finished; `SweepFile::read` has checked the rest of either.
        let read = hammer_sweep::SweepFile::read(&file).and_then(|mut file| {
            if file.continuations_mut().is_empty() {
                file.finish().map(drop)
            } else {
                Ok(())
            }
        });
        match (kind, read) {
            (TomlBlock::Sweep | TomlBlock::Experiments, Err(e)) => {
                panic!("{doc}:{line}: the block is refused: {e}\n{body}")
            }
            (TomlBlock::Refused, Ok(_)) => {
                panic!("{doc}:{line}: the block is marked refused but parses\n{body}")
            }
            _ => {}
        }
    }
    blocks
}
