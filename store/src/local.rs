//! The local directory's create-only put: a hidden temporary file, fsynced, then a hard
//! link to the final name, which fails if the name exists; then the directory fsynced,
//! so that a put that returned survives a power loss.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use bytes::Bytes;

use crate::{Created, StoreError};

/// Tells apart the temporary files of concurrent puts of one name within this process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

pub(crate) fn io_error<'a>(
    action: &'static str,
    path: &'a Path,
) -> impl FnOnce(io::Error) -> StoreError + 'a {
    move |source| StoreError::Io {
        action,
        path: path.to_owned(),
        source,
    }
}

pub(crate) fn path_of(root: &Path, key: &str) -> PathBuf {
    key.split('/')
        .filter(|c| !c.is_empty())
        .fold(root.to_owned(), |path, part| path.join(part))
}

/// Removes the temporary file on every way out but success.
struct TempGuard<'a>(&'a Path);

impl Drop for TempGuard<'_> {
    fn drop(&mut self) {
        let _ = fs::remove_file(self.0);
    }
}

pub(crate) fn create(root: &Path, key: &str, bytes: &[u8]) -> Result<Created, StoreError> {
    let path = path_of(root, key);
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(StoreError::BadLocation {
            location: path.display().to_string(),
            reason: "an object needs a file name".into(),
        });
    };
    ensure_dir(dir)?;
    let temp = dir.join(format!(
        ".{}.{}-{}.tmp",
        name.to_string_lossy(),
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let _guard = TempGuard(&temp);
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .map_err(io_error("cannot create temporary file", &temp))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(io_error("cannot write temporary file", &temp))?;
    drop(file);
    match fs::hard_link(&temp, &path) {
        Ok(()) => {
            sync_dir(dir)?;
            Ok(Created::New)
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(Created::Exists),
        Err(e) => Err(io_error("cannot link into place", &path)(e)),
    }
}

pub(crate) fn get(root: &Path, key: &str) -> Result<Bytes, StoreError> {
    let path = path_of(root, key);
    fs::read(&path)
        .map(Bytes::from)
        .map_err(io_error("cannot read", &path))
}

pub(crate) fn size(root: &Path, key: &str) -> Result<Option<u64>, StoreError> {
    let path = path_of(root, key);
    match fs::metadata(&path) {
        Ok(meta) => Ok(Some(meta.len())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_error("cannot read the size of", &path)(e)),
    }
}

/// Writes `key` below `root`, creating directories; for copies, not for commits.
pub(crate) fn write(root: &Path, key: &str, bytes: &[u8]) -> Result<(), StoreError> {
    let path = path_of(root, key);
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(io_error("cannot create directory", dir))?;
    }
    fs::write(&path, bytes).map_err(io_error("cannot write", &path))
}

/// Creates `root` and writes and removes a hidden file in it.
pub(crate) fn probe(root: &Path, name: &str) -> Result<(), StoreError> {
    ensure_dir(root)?;
    let path = root.join(format!(".hammer-{name}.tmp"));
    fs::write(&path, b"").map_err(io_error("cannot write a probe file", &path))?;
    fs::remove_file(&path).map_err(io_error("cannot remove", &path))
}

/// Fails unless `root` is a directory that can be read.
pub(crate) fn check_dir(root: &Path) -> Result<(), StoreError> {
    fs::read_dir(root)
        .map(drop)
        .map_err(io_error("cannot read the dataset directory", root))
}

/// Every file below `dir`, as keys relative to `root`.
/// Every file below `dir` with its size in bytes, unsorted.
pub(crate) fn list_sized(root: &Path, dir: &str) -> Result<Vec<(String, u64)>, StoreError> {
    let mut keys = Vec::new();
    let mut pending = vec![path_of(root, dir)];
    while let Some(dir) = pending.pop() {
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(io_error("cannot list", &dir)(e)),
        };
        for entry in entries {
            let entry = entry.map_err(io_error("cannot list", &dir))?;
            let path = entry.path();
            let kind = entry.file_type().map_err(io_error("cannot list", &path))?;
            if kind.is_dir() {
                pending.push(path);
            } else if let Ok(rest) = path.strip_prefix(root) {
                let size = match entry.metadata() {
                    Ok(meta) => meta.len(),
                    // Deleted since the directory was read.
                    Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                    Err(e) => return Err(io_error("cannot stat", &path)(e)),
                };
                let parts: Vec<_> = rest.iter().map(|c| c.to_string_lossy()).collect();
                keys.push((parts.join("/"), size));
            }
        }
    }
    Ok(keys)
}

/// The last `len` bytes of the file `key`, or all of it.
pub(crate) fn get_suffix(root: &Path, key: &str, len: u64) -> Result<Bytes, StoreError> {
    use std::io::{Read, Seek, SeekFrom};
    let path = path_of(root, key);
    let read = || -> io::Result<Vec<u8>> {
        let mut file = File::open(&path)?;
        let size = file.metadata()?.len();
        file.seek(SeekFrom::Start(size.saturating_sub(len)))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        Ok(bytes)
    };
    read()
        .map(Bytes::from)
        .map_err(io_error("cannot read", &path))
}

/// Links `from` to the free name `to`, then unlinks `from`, each durable.
pub(crate) fn rename(root: &Path, from: &str, to: &str) -> Result<(), StoreError> {
    let (source, target) = (path_of(root, from), path_of(root, to));
    let Some(dir) = target.parent() else {
        return Err(StoreError::BadLocation {
            location: target.display().to_string(),
            reason: "an object needs a file name".into(),
        });
    };
    ensure_dir(dir)?;
    fs::hard_link(&source, &target).map_err(io_error("cannot link into place", &target))?;
    sync_dir(dir)?;
    delete(root, from)
}

/// Removes the file `key` (one already gone is fine), then its directories while they
/// are empty, up to `root`, each removal made durable.
pub(crate) fn delete(root: &Path, key: &str) -> Result<(), StoreError> {
    let path = path_of(root, key);
    match fs::remove_file(&path) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io_error("cannot remove", &path)(e)),
    }
    let mut dir = path.parent();
    while let Some(d) = dir.filter(|d| *d != root && d.starts_with(root)) {
        if fs::remove_dir(d).is_err() {
            // Not empty (or another process's): it stays.
            break;
        }
        dir = d.parent();
    }
    sync_dir(dir.unwrap_or(root))
}

/// Makes a new directory entry durable.
pub(crate) fn sync_dir(path: &Path) -> Result<(), StoreError> {
    File::open(path)
        .and_then(|d| d.sync_all())
        .map_err(io_error("cannot fsync directory", path))
}

/// Creates `dir` and its missing parents, fsyncing each new entry's parent so the
/// directories themselves survive a power loss.
pub(crate) fn ensure_dir(dir: &Path) -> Result<(), StoreError> {
    if dir.is_dir() {
        return Ok(());
    }
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        ensure_dir(parent)?;
    }
    match fs::create_dir(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Ok(()),
        Err(e) => return Err(io_error("cannot create directory", dir)(e)),
    }
    match dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(parent) => sync_dir(parent),
        None => Ok(()),
    }
}
