//! The program of a declaration found on disk: a name looked up in a PATH the caller
//! gives (never this process's own), a path made absolute, and the SHA-256 of the
//! executable's bytes, which a row records so that a result names the binary that made
//! it.

use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use hammer_cnf::Digest;
use thiserror::Error;

/// An executable file, found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Executable {
    /// Its absolute path (symbolic links are kept as found, not resolved).
    pub path: PathBuf,
    /// The SHA-256 of the file's bytes (of the link's target, for a link).
    pub digest: Digest,
}

/// A program that cannot be run.
#[derive(Debug, Error)]
pub enum ExecutableError {
    /// A name found in none of the PATH's directories.
    #[error("`{name}` is in none of the directories of PATH `{path}`")]
    NotFound {
        /// The name.
        name: String,
        /// The PATH searched.
        path: String,
    },
    /// A path to nothing, or to something that is not a file.
    #[error("{} is not a file", .path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// A file without execute permission.
    #[error("{} is not executable", .path.display())]
    NotExecutable {
        /// The path.
        path: PathBuf,
    },
    /// The file could not be read for its digest, or the path made absolute.
    #[error("cannot read {}", .path.display())]
    Read {
        /// The path.
        path: PathBuf,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
}

/// Finds `program`: a name without `/` in the directories of `path` (a PATH string;
/// relative entries, among them an empty one that would mean the working directory,
/// are skipped), in order, the first executable file winning; a name with `/` as a path, made absolute against the
/// working directory.
pub fn resolve(program: &str, path: &OsStr) -> Result<Executable, ExecutableError> {
    let found = if program.contains('/') {
        let given = Path::new(program);
        let absolute = std::path::absolute(given).map_err(|source| ExecutableError::Read {
            path: given.to_owned(),
            source,
        })?;
        check(&absolute)?;
        absolute
    } else {
        std::env::split_paths(path)
            .filter(|dir| dir.is_absolute())
            .map(|dir| dir.join(program))
            .find(|candidate| check(candidate).is_ok())
            .ok_or_else(|| ExecutableError::NotFound {
                name: program.to_owned(),
                path: path.to_string_lossy().into_owned(),
            })?
    };
    let digest = Digest::of_file(&found).map_err(|source| ExecutableError::Read {
        path: found.clone(),
        source,
    })?;
    Ok(Executable {
        path: found,
        digest,
    })
}

/// Whether `path` is an executable file (following links).
fn check(path: &Path) -> Result<(), ExecutableError> {
    let metadata = std::fs::metadata(path).map_err(|_| ExecutableError::NotAFile {
        path: path.to_owned(),
    })?;
    if !metadata.is_file() {
        return Err(ExecutableError::NotAFile {
            path: path.to_owned(),
        });
    }
    if metadata.permissions().mode() & 0o111 == 0 {
        return Err(ExecutableError::NotExecutable {
            path: path.to_owned(),
        });
    }
    Ok(())
}
