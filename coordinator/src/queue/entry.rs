//! One sweep of the queue: its core, its writer's context, its place and share in the
//! queue, and the file that keeps that place across restarts.
//!
//! `STATE/sweeps/NAME/` of a standing coordinator is the sweep's state directory (the
//! journal, `sweep.toml`, `sweep.meta`) plus `queue.meta`:
//!
//! ```text
//! hammer-queue 1
//! seq 3
//! priority 0
//! weight 1
//! admin active
//! ```
//!
//! written atomically whenever one of them changes; `admin` is `active`, `stopped` or
//! `cancelled`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use hammer_proto::v1::{KnowledgeBase, SweepSpec, SweepState};
use hammer_store::Store;
use hammer_sweep::Sweep;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tracing::info;

use crate::core::{Core, Timing};
use crate::counters::Counters;
use crate::delta::DeltaWriter;
use crate::error::CoordinatorError;
use crate::state::{CommitEntry, StateDir, StateError, write_atomic};
use crate::sync::lock;
use crate::writer::SweepWriting;
use crate::writer::job::Events;

/// The file of a sweep's place in the queue.
const QUEUE_META: &str = "queue.meta";

/// What users asked of a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Admin {
    /// Its units are leased.
    Active,
    /// `hammer stop`: no new unit is leased.
    Stopped,
    /// `hammer cancel`: its leases were revoked.
    Cancelled,
}

impl Admin {
    fn word(self) -> &'static str {
        match self {
            Admin::Active => "active",
            Admin::Stopped => "stopped",
            Admin::Cancelled => "cancelled",
        }
    }

    fn parse(word: &str) -> Option<Admin> {
        match word {
            "active" => Some(Admin::Active),
            "stopped" => Some(Admin::Stopped),
            "cancelled" => Some(Admin::Cancelled),
            _ => None,
        }
    }
}

/// A sweep's place in the queue, as `queue.meta` keeps it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Place {
    pub seq: u64,
    pub priority: i32,
    pub weight: f64,
    pub admin: Admin,
}

impl Place {
    /// Writes `queue.meta` in `dir` atomically.
    pub(crate) fn save(&self, dir: &Path) -> Result<(), StateError> {
        let text = format!(
            "hammer-queue 1\nseq {}\npriority {}\nweight {}\nadmin {}\n",
            self.seq,
            self.priority,
            self.weight,
            self.admin.word()
        );
        write_atomic(dir, QUEUE_META, &text)
    }

    /// Reads `queue.meta` of `dir`.
    pub(crate) fn load(dir: &Path) -> Result<Place, StateError> {
        let path = dir.join(QUEUE_META);
        let text = std::fs::read_to_string(&path).map_err(|source| StateError::Io {
            path: path.clone(),
            action: "cannot read",
            source,
        })?;
        let corrupt = |line: usize, reason: &str| StateError::Corrupt {
            path: path.clone(),
            line,
            reason: reason.to_owned(),
        };
        if text.lines().next() != Some("hammer-queue 1") {
            return Err(corrupt(1, "expected `hammer-queue 1`"));
        }
        let field = |key: &str| {
            text.lines()
                .enumerate()
                .find_map(|(i, l)| Some((i + 1, l.strip_prefix(key)?.strip_prefix(' ')?)))
        };
        let value = |key: &str| field(key).ok_or_else(|| corrupt(0, &format!("no `{key}` line")));
        let (line, seq) = value("seq")?;
        let seq = seq.parse().map_err(|_| corrupt(line, "bad seq"))?;
        let (line, priority) = value("priority")?;
        let priority = priority
            .parse()
            .map_err(|_| corrupt(line, "bad priority"))?;
        let (line, weight) = value("weight")?;
        let weight = weight
            .parse::<f64>()
            .ok()
            .filter(|w| w.is_finite() && *w > 0.0)
            .ok_or_else(|| corrupt(line, "bad weight"))?;
        let (line, admin) = value("admin")?;
        let admin = Admin::parse(admin).ok_or_else(|| corrupt(line, "bad admin"))?;
        Ok(Place {
            seq,
            priority,
            weight,
            admin,
        })
    }
}

/// One sweep the coordinator serves.
pub(crate) struct Entry {
    pub place: Place,
    pub sweep: Arc<Sweep>,
    /// What `GetSweep` answers for it.
    pub spec: Arc<SweepSpec>,
    pub core: Arc<Mutex<Core>>,
    pub writing: Arc<SweepWriting>,
    /// Worker-seconds of leases held, decayed with the queue's half-life.
    pub usage: f64,
    /// A unit of it was leased or committed: it is running, not queued.
    pub started: bool,
    /// The workers it has met (a lease request that reached it, a batch, a heartbeat),
    /// each with whether it was told that the sweep is complete: `hammer status` shows
    /// the others.
    pub met: HashMap<String, bool>,
    /// Where `queue.meta` goes; `None` for a coordinator of one sweep.
    pub dir: Option<PathBuf>,
    /// The Delta log's periodic task, when the log is kept.
    pub delta_task: Option<JoinHandle<()>>,
}

impl Entry {
    /// Where the sweep is in the queue.
    pub(crate) fn state(&self) -> SweepState {
        let core = lock(&self.core);
        if core.is_complete() {
            return SweepState::Complete;
        }
        match self.place.admin {
            Admin::Cancelled => SweepState::Cancelled,
            Admin::Stopped if core.at_rest() => SweepState::Stopped,
            Admin::Stopped => SweepState::Stopping,
            Admin::Active if self.started => SweepState::Running,
            Admin::Active => SweepState::Queued,
        }
    }

    /// Whether a unit of it may be leased now.
    pub(crate) fn leasable(&self) -> bool {
        self.place.admin == Admin::Active && !lock(&self.core).is_complete()
    }

    /// Saves the sweep's place, when the queue persists.
    pub(crate) fn save(&self) -> Result<(), StateError> {
        match &self.dir {
            Some(dir) => self.place.save(dir),
            None => Ok(()),
        }
    }
}

/// How the coordinator opens a sweep: the same for its one sweep (`--sweep`) and for
/// every sweep submitted to a standing coordinator.
#[derive(Clone)]
pub(crate) struct Opener {
    /// Workers put the parts themselves, into the dataset whose URL `GetSweep` ships.
    pub workers_write: bool,
    /// Keep a Delta log over the parts.
    pub delta_log: bool,
    pub timing: Timing,
    pub counters: Arc<Counters>,
}

/// Where a sweep's state directory is, and what locks it.
pub(crate) enum Home<'a> {
    /// The one sweep's state directory, which the sweep locks itself.
    Alone(&'a Path),
    /// A queued sweep's directory below the state root, whose lock covers it; its place
    /// in the queue is kept there too.
    Queued(PathBuf),
}

impl Opener {
    /// Opens a sweep for serving: its state directory (refusing another sweep's), its
    /// dataset `out` readied, and its core with the units already committed.
    pub(crate) async fn open(
        &self,
        sweep: Sweep,
        out: Store,
        home: Home<'_>,
        place: Place,
    ) -> Result<Entry, CoordinatorError> {
        let (state, lock_state) = match &home {
            Home::Alone(dir) => (*dir, true),
            Home::Queued(dir) => (dir.as_path(), false),
        };
        // Checked before anything is opened or written.
        let knowledge_bases = shipped_knowledge_bases(&sweep)?;
        out.check_writable().await?;
        let sweep = Arc::new(sweep);
        let (mut state_dir, mut committed) = StateDir::open(state, &sweep, lock_state)?;
        let delta =
            open_dataset(&out, &sweep, &mut state_dir, &mut committed, self.delta_log).await?;
        let core = Core::new(
            sweep.clone(),
            self.timing.clone(),
            &committed,
            self.counters.clone(),
        );
        let (events, _) = watch::channel(Events {
            complete: core.is_complete(),
            ..Events::default()
        });
        let core = Arc::new(Mutex::new(core));
        let spec = SweepSpec {
            name: sweep.name.clone(),
            digest: sweep.digest.clone(),
            text: sweep.text.clone(),
            knowledge_bases,
            dataset_url: if self.workers_write {
                out.to_string()
            } else {
                String::new()
            },
        };
        let delta_task = delta.as_ref().map(|d| d.spawn());
        let writing = Arc::new(SweepWriting {
            out,
            state: Mutex::new(state_dir),
            core: core.clone(),
            sweep: sweep.clone(),
            events,
            delta,
            cancelled: RwLock::new(place.admin == Admin::Cancelled),
        });
        Ok(Entry {
            place,
            sweep,
            spec: Arc::new(spec),
            core,
            writing,
            usage: 0.0,
            started: !committed.is_empty(),
            met: HashMap::new(),
            dir: match home {
                Home::Alone(_) => None,
                Home::Queued(dir) => Some(dir),
            },
            delta_task,
        })
    }
}

/// Readies the dataset before any unit is leased (its store already proved writable):
/// finishes a compaction a crash left, removes a crash's temporary files from a local
/// directory, commits the parts the journal lacks, and opens the Delta log when it is kept.
async fn open_dataset(
    out: &Store,
    sweep: &Sweep,
    state_dir: &mut StateDir,
    committed: &mut Vec<CommitEntry>,
    delta_log: bool,
) -> Result<Option<Arc<DeltaWriter>>, CoordinatorError> {
    // Before anything reads the parts: an unfinished compaction may hold some units'
    // rows in its staged files alone.
    hammer_parts::compact::recover(out).await?;
    if let Some(dir) = out.local_dir() {
        // No writer is active: the state lock is ours and the writer has not started.
        let removed = hammer_dataset::remove_stale_temp_files(dir)?;
        if removed > 0 {
            info!(removed, dir = %dir.display(), "removed stale temporary files left by a crash");
        }
    }
    crate::parts::adopt(out, sweep, state_dir, committed).await?;
    if !delta_log {
        return Ok(None);
    }
    Ok(Some(DeltaWriter::start(out, sweep, committed).await?))
}

/// The knowledge bases the sweep's learned orders name, as `GetSweep` ships them;
/// refused when they would not fit one message.
fn shipped_knowledge_bases(sweep: &Sweep) -> Result<Vec<KnowledgeBase>, CoordinatorError> {
    let knowledge_bases: Vec<KnowledgeBase> = sweep
        .knowledge_bases()
        .into_iter()
        .map(|(path, digest, data)| KnowledgeBase {
            path,
            digest: format!("{digest:032x}"),
            data,
        })
        .collect();
    // An answer carries them all, with room for the rest of it.
    let bytes: usize = knowledge_bases.iter().map(|k| k.data.len()).sum();
    let limit = hammer_proto::MAX_MESSAGE_BYTES - (1 << 20);
    if bytes > limit {
        return Err(CoordinatorError::KnowledgeBasesTooLarge { bytes, limit });
    }
    Ok(knowledge_bases)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_round_trips_through_its_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let place = Place {
            seq: 7,
            priority: -2,
            weight: 2.5,
            admin: Admin::Stopped,
        };
        place.save(dir.path()).expect("saved");
        assert_eq!(Place::load(dir.path()).expect("loaded"), place);
    }
}
