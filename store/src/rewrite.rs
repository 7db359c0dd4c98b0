//! What rewriting a dataset in place needs beyond the create-only put: the sizes of the
//! objects listed, the tail of an object (a Parquet footer), moving an object to a free
//! name, and deleting one. Compaction uses them; a sweep's writers never delete.

use bytes::Bytes;
use futures_util::TryStreamExt;
use object_store::{GetOptions, GetRange, ObjectStore, ObjectStoreExt};

use crate::{Store, StoreError, Swap, child, hidden_below, local};

impl Store {
    /// [`Store::list`] with each object's size in bytes.
    pub async fn list_sized(&self, dir: &str) -> Result<Vec<(String, u64)>, StoreError> {
        let mut entries = match &self.kind {
            crate::Kind::Local(root) => local::list_sized(root, dir)?,
            crate::Kind::Object { store, prefix, .. } => {
                let metas: Vec<_> = store
                    .list(Some(&child(prefix, dir)))
                    .try_collect()
                    .await
                    .map_err(|source| self.object_error("list", dir, source))?;
                metas
                    .into_iter()
                    .filter_map(|meta| {
                        let full = meta.location.as_ref();
                        let rest = full.strip_prefix(prefix.as_ref())?;
                        Some((rest.trim_start_matches('/').to_owned(), meta.size))
                    })
                    .collect()
            }
        };
        let keys: Vec<String> = entries.iter().map(|(k, _)| k.clone()).collect();
        let kept = hidden_below(dir, keys);
        entries.retain(|(key, _)| kept.binary_search(key).is_ok());
        entries.sort();
        Ok(entries)
    }

    /// The last `len` bytes of the object `key` (all of it when it is shorter).
    pub async fn get_suffix(&self, key: &str, len: u64) -> Result<Bytes, StoreError> {
        match &self.kind {
            crate::Kind::Local(root) => local::get_suffix(root, key, len),
            crate::Kind::Object { store, prefix, .. } => {
                let options = GetOptions {
                    range: Some(GetRange::Suffix(len)),
                    ..GetOptions::default()
                };
                self.get_object(store.as_ref(), &child(prefix, key), key, options)
                    .await
            }
        }
    }

    /// Moves the object `from` to the name `to`, which must be free, durably. A local
    /// directory links the file to its new name (which fails if the name is taken) and
    /// then unlinks the old one; an object store copies and then deletes, so that a crash
    /// in between leaves both names, never neither.
    pub async fn rename(&self, from: &str, to: &str) -> Result<(), StoreError> {
        match &self.kind {
            crate::Kind::Local(root) => local::rename(root, from, to),
            crate::Kind::Object { store, prefix, .. } => {
                store
                    .copy(&child(prefix, from), &child(prefix, to))
                    .await
                    .map_err(|source| self.object_error("copy", from, source))?;
                self.delete(from).await
            }
        }
    }

    /// Deletes the object `key`; one that is not there is already deleted. A local
    /// directory left empty is removed too, up to the location.
    pub async fn delete(&self, key: &str) -> Result<(), StoreError> {
        match &self.kind {
            crate::Kind::Local(root) => local::delete(root, key),
            crate::Kind::Object { store, prefix, .. } => {
                match store.delete(&child(prefix, key)).await {
                    Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
                    Err(source) => Err(self.object_error("delete", key, source)),
                }
            }
        }
    }

    /// Replaces the files `removed` of the directory `dir` by the staged files `added`
    /// (staged key, file name in `dir`) in one step that a reader listing `dir` sees
    /// whole, building the new contents under the hidden key `work` first. Only a local
    /// directory can ([`Swap::Done`]); an object store has no such step
    /// ([`Swap::Unsupported`], nothing changed). The staged files are left for the
    /// caller to delete.
    pub async fn swap_dir(
        &self,
        dir: &str,
        work: &str,
        removed: &[String],
        added: &[(String, String)],
    ) -> Result<Swap, StoreError> {
        match &self.kind {
            crate::Kind::Local(root) => crate::swap::swap(root, dir, work, removed, added),
            crate::Kind::Object { .. } => Ok(Swap::Unsupported),
        }
    }

    /// Removes what a [`Store::swap_dir`] interrupted by a crash left under `work`.
    pub async fn discard_swap(&self, work: &str) -> Result<(), StoreError> {
        match &self.kind {
            crate::Kind::Local(root) => crate::swap::discard(root, work),
            crate::Kind::Object { .. } => Ok(()),
        }
    }
}
