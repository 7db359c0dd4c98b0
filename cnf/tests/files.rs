//! Instance files as people keep them: compressed by the real `gzip` and `xz`, digested
//! as `sha256sum` digests them, and refused with the file, line and column when wrong.
//! Without `gzip`, `xz` or `sha256sum` on the PATH the test of that tool prints SKIPPED.

use std::path::{Path, PathBuf};
use std::process::Command;

use hammer_cnf::{Compression, Digest, FileError, KSat, read_instance, write_instance};

fn find(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// Runs `program args` and returns its standard output, or `None` (after a SKIPPED line)
/// when it is not installed.
fn tool(program: &str, args: &[&str], dir: &Path) -> Option<Vec<u8>> {
    let Some(path) = find(program) else {
        println!("SKIPPED: {program} is not installed");
        return None;
    };
    let out = Command::new(path)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{program} {args:?}: {out:?}");
    Some(out.stdout)
}

#[test]
fn compressed_files_read_as_the_plain_one_and_digest_as_sha256sum_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cnf = KSat::with_ratio(3, 200, 4.26)
        .expect("valid")
        .generate(3, 0)
        .expect("generated");
    let plain = dir.path().join("a.cnf");
    let written = write_instance(&cnf, &plain).expect("written");
    let names: Vec<_> = std::fs::read_dir(dir.path()).expect("list").collect();
    assert_eq!(names.len(), 1, "no temporary file is left: {names:?}");
    let mut files = vec![(plain.clone(), Compression::Plain)];
    if tool("gzip", &["-k", "-9", "a.cnf"], dir.path()).is_some() {
        files.push((dir.path().join("a.cnf.gz"), Compression::Gzip));
    }
    if tool("xz", &["-k", "a.cnf"], dir.path()).is_some() {
        files.push((dir.path().join("a.cnf.xz"), Compression::Xz));
    }
    for (path, compression) in &files {
        let read = read_instance(path).expect("reads");
        assert_eq!(read.cnf, cnf, "{}", path.display());
        assert_eq!(read.compression, *compression);
        assert_eq!(read.digest, Digest::of_file(path).expect("digest"));
        assert_eq!(
            read.stored_bytes,
            std::fs::metadata(path).expect("stat").len()
        );
        let name = path.file_name().and_then(|n| n.to_str()).expect("name");
        if let Some(sum) = tool("sha256sum", &[name], dir.path()) {
            let hex = String::from_utf8(sum).expect("text");
            assert_eq!(hex.split_whitespace().next(), Some(&*read.digest.to_hex()));
        }
    }
    assert_eq!(read_instance(&plain).expect("reads").digest, written);
    // A file named .cnf that holds xz reads by its content.
    if files.len() == 3 {
        let renamed = dir.path().join("really-xz.cnf");
        std::fs::copy(dir.path().join("a.cnf.xz"), &renamed).expect("copy");
        assert_eq!(
            read_instance(&renamed).expect("reads").compression,
            Compression::Xz
        );
    }
}

#[test]
fn concatenated_xz_streams_read_as_xz_reads_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("head"), "c two streams\np cnf 3 2\n1 -2").expect("write");
    std::fs::write(dir.path().join("tail"), " 0\n2 3 0\n").expect("write");
    let (Some(head), Some(tail)) = (
        tool("xz", &["-c", "head"], dir.path()),
        tool("xz", &["-c", "tail"], dir.path()),
    ) else {
        return;
    };
    let path = dir.path().join("both.cnf.xz");
    std::fs::write(&path, [head, tail].concat()).expect("write");
    let read = read_instance(&path).expect("reads");
    assert_eq!(read.cnf.num_clauses(), 2);
    assert_eq!(read.cnf.clause(0), Some(&[1, -2][..]));
}

#[test]
fn errors_name_the_file_line_and_column() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bad.cnf");
    std::fs::write(&path, "p cnf 3 2\n1 2 0\n1 7 0\n").expect("write");
    let error = read_instance(&path).expect_err("variable 7 is above 3");
    assert_eq!(
        error.to_string(),
        format!(
            "{}:3:3: literal `7` names a variable above the header's 3",
            path.display()
        )
    );
    if tool("gzip", &["-k", "bad.cnf"], dir.path()).is_some() {
        let gz = dir.path().join("bad.cnf.gz");
        let error = read_instance(&gz).expect_err("the same error inside gzip");
        assert!(
            error
                .to_string()
                .ends_with(".gz:3:3: literal `7` names a variable above the header's 3")
        );
        // Cut short, the gzip stream is refused as gzip.
        let bytes = std::fs::read(&gz).expect("read");
        std::fs::write(&gz, &bytes[..bytes.len() / 2]).expect("write");
        let error = read_instance(&gz).expect_err("truncated");
        assert!(matches!(
            error,
            FileError::Decompress {
                compression: Compression::Gzip,
                ..
            }
        ));
        assert_eq!(
            error.to_string(),
            format!("{} is not a valid gzip file", gz.display())
        );
    }
    let missing = dir.path().join("missing.cnf");
    let error = read_instance(&missing).expect_err("no file");
    assert_eq!(
        error.to_string(),
        format!("cannot read {}", missing.display())
    );
    let nowhere = dir.path().join("no-dir").join("x.cnf");
    let error = write_instance(&hammer_cnf::Cnf::new(1), &nowhere).expect_err("no directory");
    assert!(matches!(error, FileError::Write { .. }));
}
