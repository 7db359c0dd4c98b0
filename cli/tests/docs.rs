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
