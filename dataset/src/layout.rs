use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Longest experiment name or part id; keeps paths well below file system limits even with the
/// temporary-file decoration added around the part file name.
pub const MAX_NAME_LEN: usize = 100;

/// The directory a coordinator keeps its journal and sweep identity in, by default inside
/// the local dataset it writes (`hammer run`, `hammer coordinator`), and whose presence
/// `hammer analyze` reports. Hidden, so that dataset readers skip it (see [`is_hidden`]).
pub const STATE_DIR: &str = ".hammer-state";

/// Where one part file lives, as derived from its path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct PartInfo {
    /// The part file.
    pub path: PathBuf,
    /// The experiment its directory names.
    pub experiment: String,
    /// The `n` its directory names.
    pub n: i32,
    /// The id in its file name, unique within the partition.
    pub part_id: String,
}

/// Names that hive readers turn into a float, boolean or date (checked case-insensitively):
/// polars reads `experiment=true` as a Boolean and `experiment=NaN` as a Float64, DuckDB reads
/// `experiment=inf` and `experiment=epoch` as DATEs.
const NON_STRING_WORDS: &[&str] = &["true", "false", "nan", "inf", "infinity", "epoch"];

/// Refuses names that could escape their directory, hide themselves, or need escaping in a
/// hive path (`=`, `/`, `%`, spaces...), so the path alone always identifies the partition.
///
/// The experiment name is stored only in the path, and pandas, polars, DuckDB and pyarrow infer
/// the type of a partition column from its values. A name must therefore also start with a
/// letter and not be one of a few special words, so that every reader sees a string: `01`
/// would come back as the integer 1, `0x10` as 16, `1e5` and `NaN` as floats, `2024-01-01` as
/// a date, `true` as a boolean. Starting with a letter also rules out
/// `__HIVE_DEFAULT_PARTITION__`, which hive readers read as null.
pub fn validate_experiment(name: &str) -> Result<()> {
    validate_name("experiment name", name)?;
    let reason = if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        Some("it must start with a letter, or readers may take it for a number or date")
    } else if NON_STRING_WORDS
        .iter()
        .any(|w| w.eq_ignore_ascii_case(name))
    {
        Some("readers take this word for a boolean or number")
    } else {
        None
    };
    match reason {
        Some(reason) => Err(Error::InvalidName {
            kind: "experiment name",
            name: name.to_owned(),
            reason,
        }),
        None => Ok(()),
    }
}

/// The character and length rules of experiment names, since the id ends up in the file name;
/// the rules about types do not apply because the id never becomes a column.
pub fn validate_part_id(id: &str) -> Result<()> {
    validate_name("part id", id)
}

fn validate_name(kind: &'static str, name: &str) -> Result<()> {
    let reason = if name.is_empty() {
        Some("it is empty")
    } else if name.len() > MAX_NAME_LEN {
        Some("it is longer than 100 characters")
    } else if name.starts_with('.') {
        Some("it starts with '.', which hides it from readers")
    } else if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
    {
        Some("only ASCII letters, digits, '_', '.' and '-' are allowed")
    } else {
        None
    };
    match reason {
        Some(reason) => Err(Error::InvalidName {
            kind,
            name: name.to_owned(),
            reason,
        }),
        None => Ok(()),
    }
}

pub(crate) fn experiment_dir_name(experiment: &str) -> String {
    format!("experiment={experiment}")
}

pub(crate) fn n_dir_name(n: i32) -> String {
    format!("n={n}")
}

pub(crate) fn part_file_name(part_id: &str) -> String {
    format!("part-{part_id}.parquet")
}

/// Directory holding the parts of one (experiment, n) partition.
pub(crate) fn partition_dir(dir: &Path, experiment: &str, n: i32) -> PathBuf {
    dir.join(experiment_dir_name(experiment))
        .join(n_dir_name(n))
}

/// Files whose name starts with '.' are never data: they are in-flight or abandoned
/// temporary files, or editor and OS clutter.
pub(crate) fn is_hidden(name: &str) -> bool {
    name.starts_with('.')
}

pub(crate) fn parse_experiment_dir(name: &str) -> Option<&str> {
    let value = name.strip_prefix("experiment=")?;
    validate_experiment(value).ok()?;
    Some(value)
}

/// Only the canonical spelling is accepted, so that "n=07" and "n=7" cannot both exist and
/// split one partition in two.
pub(crate) fn parse_n_dir(name: &str) -> Option<i32> {
    let value = name.strip_prefix("n=")?;
    let n: i32 = value.parse().ok()?;
    (n.to_string() == value).then_some(n)
}

/// Partition values implied by a part file's path, if the path follows the layout.
pub(crate) fn partition_of_path(path: &Path) -> Option<(String, i32)> {
    let n_dir = path.parent()?;
    let experiment_dir = n_dir.parent()?;
    let n = parse_n_dir(n_dir.file_name()?.to_str()?)?;
    let experiment = parse_experiment_dir(experiment_dir.file_name()?.to_str()?)?;
    Some((experiment.to_owned(), n))
}

/// The parts of the dataset at `dir`, after checking that it is a directory with at least
/// one part file: the analysis and the viewer refuse anything else by name rather than
/// report an empty dataset.
pub fn dataset_parts(dir: &Path) -> Result<Vec<PartInfo>> {
    let not = |reason: String| Error::NotADataset {
        path: dir.to_owned(),
        reason,
    };
    let meta = fs::metadata(dir).map_err(|e| not(format!("cannot open it: {e}")))?;
    if !meta.is_dir() {
        return Err(not(
            "it is a file; a dataset is a directory of experiment=NAME/n=N/part-ID.parquet".into(),
        ));
    }
    let parts = list_parts(dir)?;
    if parts.is_empty() {
        return Err(not(
            "no part files (experiment=NAME/n=N/part-ID.parquet) below it".into(),
        ));
    }
    Ok(parts)
}

/// Lists every part file of the dataset, sorted by path.
///
/// Anything that does not fit the layout is an error rather than being skipped, because a
/// stray directory usually means data was copied to the wrong place and would otherwise be
/// silently missing from the analysis. Names starting with '.' are skipped.
pub fn list_parts(dir: &Path) -> Result<Vec<PartInfo>> {
    let mut parts = Vec::new();
    for (experiment_path, experiment_name) in visible_entries(dir)? {
        let experiment = experiment_name.strip_prefix("experiment=").ok_or_else(|| {
            layout(
                &experiment_path,
                "expected a directory named experiment=NAME",
            )
        })?;
        validate_experiment(experiment).map_err(|e| layout(&experiment_path, &e.to_string()))?;
        require_dir(&experiment_path)?;
        for (n_path, n_name) in visible_entries(&experiment_path)? {
            let n = parse_n_dir(&n_name).ok_or_else(|| {
                layout(
                    &n_path,
                    "expected a directory named n=INTEGER (no '+', no leading zeros)",
                )
            })?;
            require_dir(&n_path)?;
            for (part_path, part_name) in visible_entries(&n_path)? {
                let part_id = part_name
                    .strip_prefix("part-")
                    .and_then(|rest| rest.strip_suffix(".parquet"))
                    .ok_or_else(|| layout(&part_path, "expected a file named part-ID.parquet"))?;
                validate_part_id(part_id).map_err(|e| layout(&part_path, &e.to_string()))?;
                if !metadata(&part_path)?.is_file() {
                    return Err(layout(&part_path, "expected a file, found a directory"));
                }
                parts.push(PartInfo {
                    path: part_path.clone(),
                    experiment: experiment.to_owned(),
                    n,
                    part_id: part_id.to_owned(),
                });
            }
        }
    }
    parts.sort();
    Ok(parts)
}

fn layout(path: &Path, reason: &str) -> Error {
    Error::Layout {
        path: path.to_owned(),
        reason: reason.to_owned(),
    }
}

fn metadata(path: &Path) -> Result<fs::Metadata> {
    fs::metadata(path).map_err(|source| Error::Io {
        path: path.to_owned(),
        action: "cannot stat",
        source,
    })
}

fn require_dir(path: &Path) -> Result<()> {
    if metadata(path)?.is_dir() {
        Ok(())
    } else {
        Err(layout(path, "expected a directory, found a file"))
    }
}

/// Non-hidden entries of a directory with their names; a name that is not UTF-8 cannot be a
/// partition value and is reported as a layout error.
fn visible_entries(dir: &Path) -> Result<Vec<(PathBuf, String)>> {
    let io = |source| Error::Io {
        path: dir.to_owned(),
        action: "cannot list directory",
        source,
    };
    let mut entries = Vec::new();
    for entry in fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let path = entry.path();
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            return Err(layout(&path, "name is not valid UTF-8"));
        };
        if !is_hidden(&name) {
            entries.push((path, name));
        }
    }
    entries.sort();
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for good in [
            "a",
            "exp_1.v2-final",
            "A",
            "e1",
            "nan_runs",
            "True-ish",
            &"x".repeat(100),
        ] {
            validate_experiment(good).unwrap();
        }
        for id in ["9", "0001", "-a", "_b", "true"] {
            validate_part_id(id).unwrap();
        }
        for bad in [
            "",
            ".hidden",
            "a/b",
            "a=b",
            "a b",
            "é",
            "..",
            "a%2F",
            &"x".repeat(101),
            "__HIVE_DEFAULT_PARTITION__",
            "EPOCH",
            "9",
            "01",
            "0x10",
            "1e5",
            "2024-01-01",
            "-1",
            "_x",
            "NaN",
            "inf",
            "Infinity",
            "true",
            "FALSE",
        ] {
            let err = validate_experiment(bad).unwrap_err().to_string();
            assert!(err.contains(&format!("{bad:?}")), "{err}");
        }
        assert!(validate_part_id("w3-0001").is_ok());
        assert!(validate_part_id("../x").is_err());
    }

    #[test]
    fn path_parsing() {
        assert_eq!(parse_n_dir("n=7"), Some(7));
        assert_eq!(parse_n_dir("n=-3"), Some(-3));
        assert_eq!(parse_n_dir("n=07"), None);
        assert_eq!(parse_n_dir("n=+7"), None);
        assert_eq!(parse_n_dir("n=x"), None);
        assert_eq!(parse_experiment_dir("experiment=a.b"), Some("a.b"));
        assert_eq!(parse_experiment_dir("experiment="), None);
        assert_eq!(parse_experiment_dir("exp=a"), None);
        let p = partition_dir(Path::new("/d"), "e", 5).join(part_file_name("x"));
        assert_eq!(p, Path::new("/d/experiment=e/n=5/part-x.parquet"));
        assert_eq!(partition_of_path(&p), Some(("e".to_owned(), 5)));
        assert_eq!(partition_of_path(Path::new("/tmp/x.parquet")), None);
    }
}
