//! Where a dataset lives: a local directory, or a prefix in an object store named by a URL
//! (`s3://`, `gs://`, `az://`, `file://`), and the one write a dataset needs: put an
//! object only if its name is free.
//!
//! A create-only put is what makes a part exactly once without a rename or a lock: a
//! unit's part has one name, so two writers of the same unit race for that name, one
//! wins, and the other finds it taken. S3 does this with `If-None-Match: *`, GCS and
//! Azure with their preconditions, all through the `object_store` crate, the one the
//! Arrow, Parquet and delta-rs ecosystem uses. A local directory does it with a hard
//! link from a hidden, fsynced temporary file: the link fails if the name exists, and a
//! hive reader never sees the temporary file (its name starts with a dot). The
//! `object_store` crate's own local store stages beside the final name without a dot, so
//! a reader scanning the directory mid-write would find a half-written file; hence the
//! local case here.
//!
//! Credentials come from the standard variables and chains of each store
//! (`AWS_ACCESS_KEY_ID`, `AWS_ENDPOINT_URL` for an S3-compatible server, ...). They are
//! never part of how a location prints.

mod local;
mod rewrite;
mod swap;

pub use swap::Swap;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures_util::{StreamExt, TryStreamExt};
use object_store::path::Path as ObjectPath;
use object_store::{
    BackoffConfig, GetOptions, ObjectStore, ObjectStoreExt, PutMode, PutOptions, PutPayload,
    RetryConfig,
};
use url::Url;

/// What a create-only put found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Created {
    /// The object is new: this put wrote it.
    New,
    /// The name was taken: another put wrote it first, and this one wrote nothing.
    Exists,
}

/// Why a store could not be opened or used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The location is neither a path nor a URL of a known store.
    #[error("{location:?} is not a dataset location: {reason}")]
    BadLocation {
        /// The location as given.
        location: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The store's client could not be built (a missing bucket name, a bad option).
    #[error("cannot open {location}")]
    Open {
        /// The location, printed without credentials.
        location: String,
        /// The client's error.
        #[source]
        source: Box<object_store::Error>,
    },
    /// A request to the object store failed, after the client's retries.
    #[error("cannot {action} {location}/{key}")]
    Object {
        /// What was being done: `put`, `get`, `list`, `delete`.
        action: &'static str,
        /// The location, printed without credentials.
        location: String,
        /// The object's key below the location.
        key: String,
        /// The store's error.
        #[source]
        source: Box<object_store::Error>,
    },
    /// The bucket (or container) of an object store URL does not exist. Some stores
    /// (SeaweedFS) would make it on the first put, so this is found by a read first: a
    /// typo in a bucket's name must not scatter results into a bucket nobody reads.
    #[error(
        "bucket {bucket:?} of {location} does not exist: create it first (for example \
         `aws s3 mb s3://{bucket}`, `mc mb ALIAS/{bucket}`, or the store's console), or \
         correct the name"
    )]
    NoSuchBucket {
        /// The bucket's name, as the URL gives it.
        bucket: String,
        /// The location, printed without credentials.
        location: String,
        /// The store's answer.
        #[source]
        source: Box<object_store::Error>,
    },
    /// A local file operation failed.
    #[error("{action} {}", .path.display())]
    Io {
        /// What was being done.
        action: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
}

/// A dataset's home: a local directory or a prefix in an object store.
#[derive(Clone)]
pub struct Store {
    kind: Kind,
    /// How the location prints: the path, or the URL without credentials or query.
    shown: String,
}

#[derive(Clone)]
enum Kind {
    Local(PathBuf),
    Object {
        store: Arc<dyn ObjectStore>,
        /// The same store with retries for 10 s only, for the probe at start: a wrong
        /// endpoint should fail in seconds there, not after the minutes of retries that
        /// carry a running sweep over a store's short outage.
        probe: Arc<dyn ObjectStore>,
        prefix: ObjectPath,
        /// The bucket or container: the URL's host.
        bucket: String,
    },
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Store").field(&self.shown).finish()
    }
}

impl fmt::Display for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown)
    }
}

/// How long a create-only put keeps trying after timeouts: as long as the client's own
/// retries of other requests (`RetryConfig`'s default).
const CREATE_RETRY_TIMEOUT: Duration = Duration::from_secs(180);

/// True when a store error is a request that timed out or was cut off, which the
/// client does not retry for a conditional put.
fn timed_out(error: &object_store::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = source {
        if let Some(http) = e.downcast_ref::<object_store::client::HttpError>() {
            use object_store::client::HttpErrorKind::{Interrupted, Timeout};
            return matches!(http.kind(), Timeout | Interrupted);
        }
        source = e.source();
    }
    false
}

/// The URL schemes a location may have.
const SCHEMES: &[&str] = &["file", "s3", "s3a", "gs", "az", "abfs", "abfss", "azure"];

/// True when `location` names an object store rather than a local path: it has a
/// scheme, as in `s3://bucket/prefix`.
pub fn is_url(location: &str) -> bool {
    location.split_once("://").is_some_and(|(scheme, _)| {
        !scheme.is_empty() && scheme.bytes().all(|b| b.is_ascii_alphanumeric())
    })
}

impl Store {
    /// A local directory (created on the first write).
    pub fn local(path: impl Into<PathBuf>) -> Store {
        let path = path.into();
        Store {
            shown: path.display().to_string(),
            kind: Kind::Local(path),
        }
    }

    /// Opens a location: a plain path or `file://` URL is a local directory; `s3://`,
    /// `s3a://`, `gs://`, `az://`, `abfs://`, `abfss://` name a bucket or container and a
    /// prefix in it. Opening makes no request: [`Store::check_writable`] does.
    pub fn open(location: &str) -> Result<Store, StoreError> {
        if !is_url(location) {
            return Ok(Store::local(location));
        }
        let bad = |reason: String| StoreError::BadLocation {
            location: redacted(location),
            reason,
        };
        let url = Url::parse(location).map_err(|e| bad(e.to_string()))?;
        if url.scheme() == "file" {
            let path = url
                .to_file_path()
                .map_err(|()| bad("a file:// URL needs an absolute path".into()))?;
            return Ok(Store::local(path));
        }
        if !SCHEMES.contains(&url.scheme()) {
            return Err(bad(format!(
                "unknown scheme {:?}: use a path, file://, s3://, gs:// or az://",
                url.scheme()
            )));
        }
        if url.query().is_some() || url.fragment().is_some() || url.password().is_some() {
            return Err(bad(
                "a dataset URL takes no query, fragment or password; give credentials in the \
                 store's environment variables"
                    .into(),
            ));
        }
        let shown = format!(
            "{}://{}{}",
            url.scheme(),
            url.host_str().unwrap_or(""),
            url.path().trim_end_matches('/')
        );
        let open = |retry| {
            open_object_store(&url, retry).map_err(|source| StoreError::Open {
                location: shown.clone(),
                source: Box::new(source),
            })
        };
        let store = open(RetryConfig::default())?;
        // Up to 10 s of retries: a store started beside the coordinator (a Compose
        // service) has that long to come up, and a wrong endpoint fails in 10 s.
        let probe = open(RetryConfig {
            backoff: BackoffConfig::default(),
            max_retries: 10,
            retry_timeout: Duration::from_secs(10),
        })?;
        let prefix = ObjectPath::from_url_path(url.path()).map_err(|e| bad(e.to_string()))?;
        Ok(Store {
            kind: Kind::Object {
                store,
                probe,
                prefix,
                bucket: url.host_str().unwrap_or_default().to_owned(),
            },
            shown,
        })
    }

    /// The directory, when the store is local.
    pub fn local_dir(&self) -> Option<&Path> {
        match &self.kind {
            Kind::Local(path) => Some(path),
            Kind::Object { .. } => None,
        }
    }

    /// Writes `key` (a `/`-separated name below the location) only if no object has that
    /// name, durably: a put that returns [`Created::New`] survives a crash of this process
    /// or, for a local directory, of the machine. Local writes block the calling thread.
    pub async fn create(&self, key: &str, bytes: Bytes) -> Result<Created, StoreError> {
        match &self.kind {
            Kind::Local(root) => local::create(root, key, &bytes),
            Kind::Object { store, prefix, .. } => {
                self.create_object(store.as_ref(), &child(prefix, key), key, bytes)
                    .await
            }
        }
    }

    /// A create-only put to an object store, tried again after a timeout.
    ///
    /// The client retries a failed connection or a 5xx, but not a timed-out conditional
    /// put: the first attempt may have landed. A store that serialises racing
    /// conditional puts on a lock can hold one past the client's timeout, and a store
    /// that is paused does the same, so this tries again with backoff. When a later
    /// attempt finds the name taken, the object is read back: holding exactly these
    /// bytes, it is this writer's own earlier attempt, and the put counts as new.
    async fn create_object(
        &self,
        store: &dyn ObjectStore,
        path: &ObjectPath,
        key: &str,
        bytes: Bytes,
    ) -> Result<Created, StoreError> {
        let start = std::time::Instant::now();
        let mut pause = Duration::from_millis(200);
        let mut retried = false;
        loop {
            let payload = PutPayload::from(bytes.clone());
            let opts = PutOptions::from(PutMode::Create);
            match store.put_opts(path, payload, opts).await {
                Ok(_) => return Ok(Created::New),
                Err(object_store::Error::AlreadyExists { .. }) if retried => {
                    let held = self.get(key).await?;
                    return Ok(if held == bytes {
                        Created::New
                    } else {
                        Created::Exists
                    });
                }
                Err(object_store::Error::AlreadyExists { .. }) => return Ok(Created::Exists),
                Err(source) if timed_out(&source) && start.elapsed() < CREATE_RETRY_TIMEOUT => {
                    tracing::warn!(store = %self, key, "create-only put timed out; trying again");
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(15));
                    retried = true;
                }
                Err(source) => return Err(self.object_error("put", key, source)),
            }
        }
    }

    /// Reads the whole object `key`.
    pub async fn get(&self, key: &str) -> Result<Bytes, StoreError> {
        match &self.kind {
            Kind::Local(root) => local::get(root, key),
            Kind::Object { store, prefix, .. } => {
                let path = child(prefix, key);
                self.get_object(store.as_ref(), &path, key, GetOptions::default())
                    .await
            }
        }
    }

    /// Reads the object `key` of an object store, or the range `options` asks for.
    pub(crate) async fn get_object(
        &self,
        store: &dyn ObjectStore,
        path: &ObjectPath,
        key: &str,
        options: GetOptions,
    ) -> Result<Bytes, StoreError> {
        let result = store
            .get_opts(path, options)
            .await
            .map_err(|source| self.object_error("get", key, source))?;
        result
            .bytes()
            .await
            .map_err(|source| self.object_error("get", key, source))
    }

    /// The size in bytes of the object `key`, or `None` when there is none.
    pub async fn size(&self, key: &str) -> Result<Option<u64>, StoreError> {
        match &self.kind {
            Kind::Local(root) => local::size(root, key),
            Kind::Object { store, prefix, .. } => match store.head(&child(prefix, key)).await {
                Ok(meta) => Ok(Some(meta.size)),
                Err(object_store::Error::NotFound { .. }) => Ok(None),
                Err(source) => Err(self.object_error("head", key, source)),
            },
        }
    }

    /// The keys of every object below `dir` (a `/`-separated name below the location),
    /// relative to the location, sorted. A directory that does not exist has none.
    /// Hidden names below `dir` (a component starting with `.` or `_`) are left out, as
    /// hive readers leave them out.
    pub async fn list(&self, dir: &str) -> Result<Vec<String>, StoreError> {
        let entries = self.list_sized(dir).await?;
        Ok(entries.into_iter().map(|(key, _)| key).collect())
    }

    /// Copies every visible object below `dir` (`""`: the whole location) into the local
    /// directory `dest`, under the same names relative to the location, with up to 16
    /// reads at a time; returns how many. For readers that scan a local directory: a
    /// copy of a dataset's parts is the same dataset.
    pub async fn download(&self, dir: &str, dest: &Path) -> Result<usize, StoreError> {
        let keys = self.list(dir).await?;
        let count = keys.len();
        let mut reads = futures_util::stream::iter(keys.into_iter().map(|key| async move {
            let bytes = self.get(&key).await?;
            Ok::<_, StoreError>((key, bytes))
        }))
        .buffer_unordered(16);
        while let Some((key, bytes)) = reads.try_next().await? {
            local::write(dest, &key, &bytes)?;
        }
        Ok(count)
    }

    /// Proves that this process can read here before any work starts: a local location
    /// must be an existing directory, and an object store answers a list of the prefix.
    /// A bucket that does not exist fails as [`StoreError::NoSuchBucket`]; a wrong
    /// endpoint or secret fails in seconds (the probe's short retries).
    pub async fn check_readable(&self) -> Result<(), StoreError> {
        match &self.kind {
            Kind::Local(root) => local::check_dir(root),
            Kind::Object {
                probe,
                prefix,
                bucket,
                ..
            } => match probe.list(Some(prefix)).next().await {
                None | Some(Ok(_)) => Ok(()),
                Some(Err(source)) if no_such_bucket(&source) => Err(StoreError::NoSuchBucket {
                    bucket: bucket.clone(),
                    location: self.shown.clone(),
                    source: Box::new(source),
                }),
                Some(Err(source)) => Err(self.object_error("list", "", source)),
            },
        }
    }

    /// Proves that this process can write here before any work starts. A local directory
    /// is created and a hidden probe file written and removed in it. An object store is
    /// first read ([`Store::check_readable`]), since some stores make a missing bucket on
    /// the first put; then it gets a probe object under `_hammer/` (a name hive readers
    /// skip), deleted at once. A bucket that does not exist, missing credentials and a
    /// read-only grant fail here; a missing bucket only after [`BUCKET_WAIT`].
    pub async fn check_writable(&self) -> Result<(), StoreError> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let name = format!("probe-{}-{nanos}", std::process::id());
        match &self.kind {
            Kind::Local(root) => local::probe(root, &name),
            Kind::Object { probe, prefix, .. } => {
                self.wait_for_bucket().await?;
                let key = format!("_hammer/{name}");
                let path = child(prefix, &key);
                let opts = PutOptions::from(PutMode::Create);
                probe
                    .put_opts(&path, PutPayload::new(), opts)
                    .await
                    .map_err(|source| self.object_error("put", &key, source))?;
                probe
                    .delete(&path)
                    .await
                    .map_err(|source| self.object_error("delete", &key, source))
            }
        }
    }

    /// [`Store::check_readable`], asked again while the bucket is missing, for at most
    /// [`BUCKET_WAIT`]: a store started beside its writers (SeaweedFS's `weed mini` with
    /// `S3_BUCKET`, a MinIO with an init job) answers a moment before it has made the
    /// bucket, and a writer started with it must not take that moment for a typo.
    async fn wait_for_bucket(&self) -> Result<(), StoreError> {
        let start = std::time::Instant::now();
        loop {
            match self.check_readable().await {
                Err(StoreError::NoSuchBucket { .. }) if start.elapsed() < BUCKET_WAIT => {
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
                answer => return answer,
            }
        }
    }

    fn object_error(
        &self,
        action: &'static str,
        key: &str,
        source: object_store::Error,
    ) -> StoreError {
        StoreError::Object {
            action,
            location: self.shown.clone(),
            key: key.to_owned(),
            source: Box::new(source),
        }
    }
}

/// How long a writer's probe waits for a missing bucket to appear before it refuses the
/// location. Readers refuse at once: a dataset to read was written before.
pub const BUCKET_WAIT: Duration = Duration::from_secs(5);

/// Whether a failed list says that the bucket or container itself is missing. Listing a
/// prefix with nothing under it is an empty answer, so a 404 on a list means the bucket.
/// The client's HTTP error type is not public, so its status is read from the message:
/// S3, MinIO and SeaweedFS answer `NoSuchBucket`, Azure `ContainerNotFound`.
fn no_such_bucket(error: &object_store::Error) -> bool {
    if matches!(error, object_store::Error::NotFound { .. }) {
        return true;
    }
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = source {
        let text = e.to_string();
        if ["NoSuchBucket", "ContainerNotFound", "404 Not Found"]
            .iter()
            .any(|code| text.contains(code))
        {
            return true;
        }
        source = e.source();
    }
    false
}

/// The location with any `user:password@` replaced, for messages.
fn redacted(location: &str) -> String {
    let Some((scheme, rest)) = location.split_once("://") else {
        return location.to_owned();
    };
    let authority = &rest[..rest.find('/').unwrap_or(rest.len())];
    match authority.rfind('@') {
        Some(at) => format!("{scheme}://***@{}", &rest[at + 1..]),
        None => location.to_owned(),
    }
}

/// The keys of `keys` that a hive reader of `dir` sees, sorted: hidden names below `dir`
/// only (a component starting with `.` or `_`) are left out, so that a hidden directory
/// itself can be listed.
fn hidden_below(dir: &str, mut keys: Vec<String>) -> Vec<String> {
    let inside = dir.trim_matches('/');
    keys.retain(|key| {
        !key.is_empty()
            && !key
                .strip_prefix(inside)
                .unwrap_or(key)
                .split('/')
                .any(|c| c.starts_with('.') || c.starts_with('_'))
    });
    // A "folder" that some tools put into a bucket (an empty object named like the
    // directory, as pyarrow's copy_files and web consoles make) is not an object of
    // the dataset: a key is dropped when it is the directory of another key.
    let folders: std::collections::HashSet<String> = keys
        .iter()
        .flat_map(|key| key.match_indices('/').map(|(i, _)| key[..i].to_owned()))
        .collect();
    keys.retain(|key| !folders.contains(key));
    keys.sort();
    keys
}

fn child(prefix: &ObjectPath, key: &str) -> ObjectPath {
    key.split('/')
        .filter(|c| !c.is_empty())
        .fold(prefix.clone(), |path, part| path.join(part))
}

/// The client for a cloud URL, configured from the store's standard environment.
fn open_object_store(url: &Url, retry: RetryConfig) -> object_store::Result<Arc<dyn ObjectStore>> {
    // reqwest is built without a default TLS provider; tonic already builds ring's.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let store: Arc<dyn ObjectStore> = match url.scheme() {
        "s3" | "s3a" => {
            let mut builder = object_store::aws::AmazonS3Builder::from_env()
                .with_url(url.as_str())
                .with_retry(retry);
            let endpoint = std::env::var("AWS_ENDPOINT_URL_S3")
                .or_else(|_| std::env::var("AWS_ENDPOINT_URL"))
                .or_else(|_| std::env::var("AWS_ENDPOINT"))
                .unwrap_or_default();
            if endpoint.starts_with("http://") {
                // A local S3-compatible server without TLS: allowed when the endpoint
                // itself says http.
                builder = builder.with_allow_http(true);
            }
            Arc::new(builder.build()?)
        }
        "gs" => Arc::new(
            object_store::gcp::GoogleCloudStorageBuilder::from_env()
                .with_url(url.as_str())
                .with_retry(retry)
                .build()?,
        ),
        "az" | "abfs" | "abfss" | "azure" => Arc::new(
            object_store::azure::MicrosoftAzureBuilder::from_env()
                .with_url(url.as_str())
                .with_retry(retry)
                .build()?,
        ),
        other => {
            return Err(object_store::Error::NotImplemented {
                operation: format!("a store for {other}://"),
                implementer: "hammer".into(),
            });
        }
    };
    Ok(store)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_urls_are_told_apart() {
        assert!(is_url("s3://bucket/prefix"));
        assert!(is_url("file:///tmp/x"));
        assert!(!is_url("results/run1"));
        assert!(!is_url("/tmp/a://b"));
        assert!(Store::open("results/run1").unwrap().local_dir().is_some());
        assert_eq!(
            Store::open("file:///tmp/x").unwrap().local_dir(),
            Some(Path::new("/tmp/x"))
        );
    }

    #[test]
    fn bad_urls_are_refused_with_the_reason() {
        let err = Store::open("ftp://host/x").unwrap_err().to_string();
        assert!(err.contains("ftp://host/x"), "{err}");
        let err = Store::open("s3://bucket/x?secret=1")
            .unwrap_err()
            .to_string();
        assert!(err.contains("no query"), "{err}");
        let err = Store::open("s3://user:pw@bucket/x")
            .unwrap_err()
            .to_string();
        assert!(!err.contains("pw@"), "{err}");
    }

    #[tokio::test]
    async fn a_second_create_of_a_name_finds_it_taken() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::local(dir.path());
        let key = "experiment=a/n=5/part-u.parquet";
        assert_eq!(
            store.create(key, Bytes::from_static(b"one")).await.unwrap(),
            Created::New
        );
        assert_eq!(
            store.create(key, Bytes::from_static(b"two")).await.unwrap(),
            Created::Exists
        );
        assert_eq!(store.get(key).await.unwrap(), Bytes::from_static(b"one"));
        assert_eq!(
            store.list("experiment=a").await.unwrap(),
            vec![key.to_owned()]
        );
        store.check_writable().await.unwrap();
        assert_eq!(store.list("").await.unwrap(), vec![key.to_owned()]);
    }
}
