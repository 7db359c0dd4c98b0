//! A Delta Lake log over a dataset's parts, so that Spark, `deltalake` (delta-rs),
//! `polars.read_delta` and DuckDB's `delta_scan` read the dataset as a versioned table.
//!
//! The log is `_delta_log/NNNNNNNNNNNNNNNNNNNN.json` beside the parts, one file a
//! version, each a few JSON lines: version 0 holds the protocol and the table's metadata
//! (its schema and partition columns), and every version adds parts. A version is put
//! create-only, as a part is, which is the whole of Delta's commit protocol on a store
//! with create-only puts: two writers of one version cannot both win. Only the
//! coordinator writes the log, and a part is added only once it is committed, so the
//! table never shows a part the sweep does not have, and never the same part twice.
//!
//! Written with the store directly rather than the `deltalake` crate, which builds a
//! second Arrow stack of another version beside the one of hammer's dataset.

use std::collections::BTreeSet;
use std::time::{SystemTime, UNIX_EPOCH};

use arrow::datatypes::DataType;
use bytes::Bytes;
use hammer_store::{Created, Store};
use serde_json::{Value, json};

use crate::PartError;

/// The log's directory below the dataset's location.
pub const LOG_DIR: &str = "_delta_log";

/// A part to add: its key below the dataset's location and its size in bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedPart {
    /// `experiment=…/n=…/part-<unit>.parquet`.
    pub key: String,
    /// The part's size, as the store holds it.
    pub size: u64,
}

/// The log of one dataset, as far as this process knows it.
#[derive(Debug)]
pub struct DeltaLog {
    store: Store,
    /// The table's id in its metadata: the sweep's digest, as a UUID's digits.
    table_id: String,
    /// The table's name: the sweep's.
    name: String,
    next_version: u64,
    /// Every path a version added, removed since or not.
    logged: BTreeSet<String>,
    /// The paths of the table's current version: added and not removed since.
    live: BTreeSet<String>,
}

impl DeltaLog {
    /// Reads the log at `store` (none yet is version 0 to come): the next version and
    /// the parts it already adds. One listing of the log and one read of each version.
    pub async fn open(store: &Store, sweep_name: &str, digest: &str) -> Result<Self, PartError> {
        let mut log = DeltaLog {
            store: store.clone(),
            table_id: uuid_of(digest),
            name: sweep_name.to_owned(),
            next_version: 0,
            logged: BTreeSet::new(),
            live: BTreeSet::new(),
        };
        log.catch_up().await?;
        Ok(log)
    }

    /// Reads the log at `store` when it has one, to rewrite its parts.
    pub async fn existing(store: &Store) -> Result<Option<Self>, PartError> {
        if store.list(LOG_DIR).await?.is_empty() {
            return Ok(None);
        }
        // Version 0 exists, so the table's id and name are never written again.
        Self::open(store, "", "").await.map(Some)
    }

    /// Whether some version added the part at `key` (a compaction may have removed it
    /// since).
    pub fn has(&self, key: &str) -> bool {
        self.logged.contains(key)
    }

    /// Records a rewrite as one new version: `removes` (those in the table now) leave it
    /// and `adds` (those never added) join it, with `dataChange: false`, as Delta's
    /// OPTIMIZE records one. `None` when the log has it already.
    pub async fn rewrite(
        &mut self,
        adds: &[LoggedPart],
        removes: &[LoggedPart],
    ) -> Result<Option<u64>, PartError> {
        loop {
            let adds: Vec<&LoggedPart> = adds.iter().filter(|p| !self.has(&p.key)).collect();
            let removes: Vec<&LoggedPart> = removes
                .iter()
                .filter(|p| self.live.contains(&p.key))
                .collect();
            if adds.is_empty() && removes.is_empty() {
                return Ok(None);
            }
            let version = self.next_version;
            let text = self.rewrite_text(&adds, &removes);
            match self
                .store
                .create(&version_key(version), Bytes::from(text))
                .await?
            {
                Created::New => {
                    for part in &removes {
                        self.live.remove(&part.key);
                    }
                    for part in &adds {
                        self.logged.insert(part.key.clone());
                        self.live.insert(part.key.clone());
                    }
                    self.next_version += 1;
                    return Ok(Some(version));
                }
                Created::Exists => self.catch_up().await?,
            }
        }
    }

    /// Adds `parts` (those not in the log yet) as one new version, and returns it; `None`
    /// when there was nothing to add. When another writer took the version first, the
    /// log is read again and the rest is added as the next one.
    pub async fn commit(&mut self, parts: &[LoggedPart]) -> Result<Option<u64>, PartError> {
        loop {
            let new: Vec<&LoggedPart> = parts.iter().filter(|p| !self.has(&p.key)).collect();
            if new.is_empty() && self.next_version > 0 {
                return Ok(None);
            }
            let version = self.next_version;
            let text = self.version_text(version, &new);
            match self
                .store
                .create(&version_key(version), Bytes::from(text))
                .await?
            {
                Created::New => {
                    self.logged.extend(new.iter().map(|p| p.key.clone()));
                    self.live.extend(new.iter().map(|p| p.key.clone()));
                    self.next_version += 1;
                    return Ok(Some(version));
                }
                Created::Exists => self.catch_up().await?,
            }
        }
    }

    /// Reads the versions from `next_version` on.
    async fn catch_up(&mut self) -> Result<(), PartError> {
        let mut versions: Vec<u64> = self
            .store
            .list(LOG_DIR)
            .await?
            .iter()
            .filter_map(|key| key.strip_prefix(LOG_DIR)?.strip_prefix('/'))
            .filter_map(|name| name.strip_suffix(".json")?.parse().ok())
            .filter(|&v| v >= self.next_version)
            .collect();
        versions.sort_unstable();
        for version in versions {
            let text = self.store.get(&version_key(version)).await?;
            for line in String::from_utf8_lossy(&text).lines() {
                let action: Value = serde_json::from_str(line)
                    .map_err(|e| PartError::DeltaLog(format!("{}: {e}", version_key(version))))?;
                if let Some(path) = action["add"]["path"].as_str() {
                    self.logged.insert(path.to_owned());
                    self.live.insert(path.to_owned());
                }
                if let Some(path) = action["remove"]["path"].as_str() {
                    self.live.remove(path);
                }
            }
            self.next_version = version + 1;
        }
        Ok(())
    }

    /// One version's JSON lines: the protocol and metadata first in version 0, then an
    /// `add` a part.
    fn version_text(&self, version: u64, parts: &[&LoggedPart]) -> String {
        let now = now_ms();
        let mut lines = Vec::new();
        lines.push(json!({"commitInfo": {
            "timestamp": now,
            "operation": "WRITE",
            "operationParameters": {"mode": "Append"},
            "engineInfo": concat!("hammer/", env!("CARGO_PKG_VERSION")),
        }}));
        if version == 0 {
            lines.push(json!({"protocol": {"minReaderVersion": 1, "minWriterVersion": 2}}));
            lines.push(json!({"metaData": {
                "id": self.table_id,
                "name": self.name,
                "format": {"provider": "parquet", "options": {}},
                "schemaString": schema_string(),
                "partitionColumns": ["experiment", "n"],
                "configuration": {},
                "createdTime": now,
            }}));
        }
        lines.extend(parts.iter().map(|part| add_action(part, now, true)));
        json_lines(&lines)
    }

    /// A rewrite's JSON lines: its removes, then its adds.
    fn rewrite_text(&self, adds: &[&LoggedPart], removes: &[&LoggedPart]) -> String {
        let now = now_ms();
        let mut lines = vec![json!({"commitInfo": {
            "timestamp": now,
            "operation": "OPTIMIZE",
            "operationParameters": {},
            "engineInfo": concat!("hammer/", env!("CARGO_PKG_VERSION")),
        }})];
        for part in removes {
            lines.push(json!({"remove": {
                "path": part.key,
                "deletionTimestamp": now,
                "dataChange": false,
                "extendedFileMetadata": true,
                "partitionValues": partition_values(&part.key),
                "size": part.size,
            }}));
        }
        // A rewrite changes no data: readers of changes skip it.
        lines.extend(adds.iter().map(|part| add_action(part, now, false)));
        json_lines(&lines)
    }
}

/// The `add` action of a part; `data_change` is false for a rewrite of rows already in
/// the table.
fn add_action(part: &LoggedPart, now: u64, data_change: bool) -> Value {
    json!({"add": {
        "path": part.key,
        "partitionValues": partition_values(&part.key),
        "size": part.size,
        "modificationTime": now,
        "dataChange": data_change,
    }})
}

fn json_lines(lines: &[Value]) -> String {
    let mut text = lines
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join("\n");
    text.push('\n');
    text
}

fn version_key(version: u64) -> String {
    format!("{LOG_DIR}/{version:020}.json")
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// `experiment=NAME/n=N/part-….parquet` -> `{"experiment": NAME, "n": "N"}`: Delta
/// keeps partition values as strings.
fn partition_values(key: &str) -> Value {
    let mut values = serde_json::Map::new();
    for component in key.split('/') {
        if let Some((column, value)) = component.split_once('=') {
            values.insert(column.to_owned(), Value::from(value));
        }
    }
    Value::Object(values)
}

/// The dataset's schema (partition columns included) in Delta's JSON form.
fn schema_string() -> String {
    let fields: Vec<Value> = hammer_dataset::schema()
        .fields()
        .iter()
        .map(|f| {
            json!({
                "name": f.name(),
                "type": delta_type(f.data_type()),
                "nullable": f.is_nullable(),
                "metadata": {},
            })
        })
        .collect();
    json!({"type": "struct", "fields": fields}).to_string()
}

/// Delta's name of an Arrow type of the dataset's schema, which has only these.
fn delta_type(data_type: &DataType) -> &'static str {
    match data_type {
        DataType::Int32 => "integer",
        DataType::Int64 => "long",
        DataType::Boolean => "boolean",
        DataType::Float64 => "double",
        _ => "string",
    }
}

/// A UUID's form of the first 32 hex digits of `digest` (padded with zeros).
fn uuid_of(digest: &str) -> String {
    let hex: String = digest
        .chars()
        .filter(char::is_ascii_hexdigit)
        .chain(std::iter::repeat('0'))
        .take(32)
        .collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(key: &str) -> LoggedPart {
        LoggedPart {
            key: key.to_owned(),
            size: 100,
        }
    }

    #[tokio::test]
    async fn each_part_is_added_once_across_versions_and_reopenings() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::local(dir.path());
        let mut log = DeltaLog::open(&store, "s", "ab12").await.unwrap();
        let a = part("experiment=e/n=5/part-a.parquet");
        let b = part("experiment=e/n=6/part-b.parquet");
        assert_eq!(log.commit(std::slice::from_ref(&a)).await.unwrap(), Some(0));
        assert_eq!(log.commit(&[a.clone(), b.clone()]).await.unwrap(), Some(1));
        assert_eq!(log.commit(&[a.clone(), b.clone()]).await.unwrap(), None);
        // Another process reads the log and goes on from there.
        let mut again = DeltaLog::open(&store, "s", "ab12").await.unwrap();
        assert!(again.has(&a.key) && again.has(&b.key));
        let c = part("experiment=f/n=5/part-c.parquet");
        assert_eq!(again.commit(&[b, c.clone()]).await.unwrap(), Some(2));
        // The first writer's next version is taken: it reads the log and goes on.
        let d = part("experiment=f/n=5/part-d.parquet");
        assert_eq!(log.commit(&[c, d]).await.unwrap(), Some(3));
        let text = std::fs::read_to_string(dir.path().join(version_key(3))).unwrap();
        assert_eq!(text.matches("\"add\"").count(), 1, "{text}");
        let first = std::fs::read_to_string(dir.path().join(version_key(0))).unwrap();
        assert!(
            first.contains("\"partitionColumns\":[\"experiment\",\"n\"]"),
            "{first}"
        );
        assert!(first.contains("\"partitionValues\":{\"experiment\":\"e\",\"n\":\"5\"}"));
    }
}
