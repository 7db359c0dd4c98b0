//! The dataset behind the page, loaded in the background so the server answers at once:
//! the page shows "loading" with a count of parts, then the browse table, or the error
//! that stopped the load (a missing directory, a corrupt part file named by path). A
//! reload reads the directory again, for a sweep that is still writing parts.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Instant;

use serde_json::{Value, json};

use crate::error::ViewError;
use crate::index::{self, Index, SOLVABLE};

/// A loaded index and what the page's filters offer.
pub(crate) struct Loaded {
    pub index: Index,
    /// Rows and solvable rows per group.
    pub counts: Vec<(u64, u64)>,
    pub seconds: f64,
}

enum Stage {
    Absent,
    Loading { parts: Arc<AtomicU64>, total: u64 },
    Ready(Arc<Loaded>),
    Failed(String),
}

pub(crate) struct Dataset {
    dir: Option<PathBuf>,
    stage: Arc<RwLock<Stage>>,
    generation: Arc<AtomicU64>,
}

/// The `state` of `/api/meta` while the dataset is read.
pub(crate) const LOADING: &str = "loading";

impl Dataset {
    pub fn new(dir: Option<PathBuf>) -> Dataset {
        Dataset {
            dir,
            stage: Arc::new(RwLock::new(Stage::Absent)),
            generation: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Starts (or restarts) reading the dataset on a background thread.
    pub fn start_loading(&self) {
        let Some(dir) = self.dir.clone() else {
            return;
        };
        let generation = self.generation.fetch_add(1, Ordering::SeqCst) + 1;
        let total = hammer_dataset::dataset_parts(&dir).map_or(0, |p| p.len() as u64);
        let parts = Arc::new(AtomicU64::new(0));
        self.set(Stage::Loading {
            parts: parts.clone(),
            total,
        });
        let stage = self.stage.clone();
        let current = self.generation.clone();
        std::thread::spawn(move || {
            let started = Instant::now();
            let result = index::load(&dir, &parts);
            let next = match result {
                Ok(index) => {
                    let seconds = started.elapsed().as_secs_f64();
                    tracing::info!(rows = index.len(), seconds, "dataset loaded");
                    Stage::Ready(Arc::new(Loaded {
                        counts: counts(&index),
                        index,
                        seconds,
                    }))
                }
                Err(e) => {
                    let text = hammer_proto::error_chain(&e);
                    tracing::warn!("{text}");
                    Stage::Failed(text)
                }
            };
            // A reload started meanwhile wins.
            if current.load(Ordering::SeqCst) == generation
                && let Ok(mut s) = stage.write()
            {
                *s = next;
            }
        });
    }

    fn set(&self, next: Stage) {
        if let Ok(mut s) = self.stage.write() {
            *s = next;
        }
    }

    /// The loaded index, or why there is none.
    pub fn ready(&self) -> Result<Arc<Loaded>, ViewError> {
        let stage = self.stage.read().map_err(|_| ViewError::Loading)?;
        match &*stage {
            Stage::Ready(loaded) => Ok(loaded.clone()),
            Stage::Loading { .. } => Err(ViewError::Loading),
            Stage::Absent => Err(ViewError::NoDataset),
            Stage::Failed(text) => Err(ViewError::Input {
                context: "the dataset cannot be read".into(),
                message: text.clone(),
            }),
        }
    }

    /// What `/api/meta` says of the dataset.
    pub fn describe(&self) -> Value {
        let dir = self.dir.as_ref().map(|d| d.display().to_string());
        let Ok(stage) = self.stage.read() else {
            return json!({ "state": "failed", "error": "internal lock poisoned" });
        };
        match &*stage {
            Stage::Absent => json!({ "state": "absent", "dir": dir }),
            Stage::Loading { parts, total } => json!({
                "state": LOADING,
                "dir": dir,
                "parts_read": parts.load(Ordering::Relaxed),
                "parts": total,
            }),
            Stage::Failed(error) => json!({ "state": "failed", "dir": dir, "error": error }),
            Stage::Ready(loaded) => {
                let groups: Vec<Value> = loaded
                    .index
                    .groups
                    .iter()
                    .zip(&loaded.counts)
                    .map(|(g, &(rows, solvable))| {
                        let mut v = json!(g);
                        v["rows"] = json!(rows);
                        v["solvable"] = json!(solvable);
                        v
                    })
                    .collect();
                json!({
                    "state": "ready",
                    "dir": dir,
                    "rows": loaded.index.len(),
                    "parts": loaded.index.parts.len(),
                    "load_seconds": loaded.seconds,
                    "index_bytes": loaded.index.bytes(),
                    "groups": groups,
                })
            }
        }
    }
}

fn counts(index: &Index) -> Vec<(u64, u64)> {
    let mut counts = vec![(0u64, 0u64); index.groups.len()];
    for (g, flags) in index.group.iter().zip(&index.flags) {
        let c = &mut counts[*g as usize];
        c.0 += 1;
        c.1 += u64::from(flags & SOLVABLE != 0);
    }
    counts
}
