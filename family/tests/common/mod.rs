//! Helpers shared by the families' conformance tests.

use std::path::PathBuf;

/// The project's copies of the conformance cases.
pub fn cases_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/cases")
}

/// The copies in `testdata/cases` must equal the shared originals when those exist (a
/// developer's checkout or CI); a user's clone has only the copies.
pub fn assert_copies_current(names: &[&str]) {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/cases");
    if !shared.is_dir() {
        eprintln!("skipped: {} does not exist", shared.display());
        return;
    }
    for name in names {
        let original = std::fs::read(shared.join(name)).expect("read the shared case file");
        let copy = std::fs::read(cases_dir().join(name)).expect("read the copied case file");
        assert!(
            original == copy,
            "testdata/cases/{name} differs from shared/cases/{name}: copy it again"
        );
    }
}
