//! A local directory's files replaced in one step: the directory's next contents are
//! built beside it out of hard links, then exchanged with it by `renameat2`'s
//! `RENAME_EXCHANGE`, so that a reader that lists the directory sees the old files or
//! the new ones, never a mixture. Afterwards the old contents sit under the work
//! directory's name, and are removed.
//!
//! A crash before the exchange leaves the directory as it was (the work directory is
//! built again from scratch); a crash after it leaves the new files in place and the old
//! ones in the work directory, which [`discard`] removes.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::Path;

use rustix::fs::{CWD, RenameFlags, renameat_with};

use crate::StoreError;
use crate::local::{ensure_dir, io_error, path_of, sync_dir};

/// Whether a swap happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swap {
    /// The directory now holds the new files alone.
    Done,
    /// This location cannot swap a directory (an object store, a file system without
    /// `RENAME_EXCHANGE`, a directory with subdirectories): nothing was changed, and the
    /// caller moves the files one by one.
    Unsupported,
}

/// Replaces, in `root`, the files `removed` (names in `dir`) by the files `added`
/// (staged key, name in `dir`), through the work directory `work`. The staged files
/// stay where they are; the caller deletes them.
pub(crate) fn swap(
    root: &Path,
    dir: &str,
    work: &str,
    removed: &[String],
    added: &[(String, String)],
) -> Result<Swap, StoreError> {
    let (target, staging) = (path_of(root, dir), path_of(root, work));
    discard(root, work)?;
    if let Some(parent) = staging.parent() {
        ensure_dir(parent)?;
    }
    fs::create_dir(&staging).map_err(io_error("cannot create", &staging))?;
    let removed: HashSet<&str> = removed.iter().map(String::as_str).collect();
    let entries = fs::read_dir(&target).map_err(io_error("cannot list", &target))?;
    for entry in entries {
        let entry = entry.map_err(io_error("cannot list", &target))?;
        let kind = entry
            .file_type()
            .map_err(io_error("cannot list", &target))?;
        if kind.is_dir() {
            discard(root, work)?;
            return Ok(Swap::Unsupported);
        }
        let name = entry.file_name();
        if name.to_str().is_some_and(|n| removed.contains(n)) {
            continue;
        }
        let link = staging.join(&name);
        fs::hard_link(entry.path(), &link).map_err(io_error("cannot link", &link))?;
    }
    for (staged, name) in added {
        let link = staging.join(name);
        fs::hard_link(path_of(root, staged), &link).map_err(io_error("cannot link", &link))?;
    }
    sync_dir(&staging)?;
    match renameat_with(CWD, &target, CWD, &staging, RenameFlags::EXCHANGE) {
        Ok(()) => {}
        Err(rustix::io::Errno::INVAL | rustix::io::Errno::NOSYS) => {
            discard(root, work)?;
            return Ok(Swap::Unsupported);
        }
        Err(e) => return Err(io_error("cannot exchange", &target)(io::Error::from(e))),
    }
    if let Some(parent) = target.parent() {
        sync_dir(parent)?;
    }
    discard(root, work)?;
    Ok(Swap::Done)
}

/// Removes the work directory `work` and everything in it; one that is not there is
/// already removed.
pub(crate) fn discard(root: &Path, work: &str) -> Result<(), StoreError> {
    let path = path_of(root, work);
    match fs::remove_dir_all(&path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io_error("cannot remove", &path)(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_swap_replaces_the_removed_files_by_the_added_ones() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let part = root.join("e=1");
        fs::create_dir(&part).unwrap();
        for name in ["a", "b", "c"] {
            fs::write(part.join(name), name).unwrap();
        }
        fs::create_dir(root.join(".work")).unwrap();
        fs::write(root.join(".work/x.staged"), "x").unwrap();
        let removed = ["a".to_owned(), "b".to_owned()];
        let added = [(".work/x.staged".to_owned(), "x".to_owned())];
        let swap = swap(root, "e=1", ".work/swap-0", &removed, &added).unwrap();
        assert_eq!(swap, Swap::Done);
        assert_eq!(names(&part), ["c", "x"]);
        assert_eq!(fs::read_to_string(part.join("x")).unwrap(), "x");
        assert!(
            !root.join(".work/swap-0").exists(),
            "the old contents are gone"
        );
        assert!(
            root.join(".work/x.staged").exists(),
            "the caller deletes it"
        );
    }

    #[test]
    fn a_directory_with_subdirectories_is_left_alone() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        fs::create_dir_all(root.join("e=1/n=5")).unwrap();
        fs::write(root.join("e=1/a"), "a").unwrap();
        let removed = ["a".to_owned()];
        let swap = swap(root, "e=1", ".work/swap-0", &removed, &[]).unwrap();
        assert_eq!(swap, Swap::Unsupported);
        assert_eq!(names(&root.join("e=1")), ["a", "n=5"]);
        assert!(!root.join(".work/swap-0").exists());
    }
}
