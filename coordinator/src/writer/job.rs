//! What the writer threads are handed and what they report: a complete unit's part to
//! write or journal, with who produced each result, and the commits of a sweep so far.

use std::sync::Arc;

use hammer_proto::v1::GameResult;
use hammer_sweep::Unit;

use crate::state::CommitEntry;

/// Who produced a result: goes into the dataset's `worker` and `hammer_version` columns.
#[derive(Debug)]
pub(crate) struct WorkerInfo {
    pub id: String,
    pub version: String,
}

/// One received result and its producer.
#[derive(Clone)]
pub(crate) struct Stored {
    pub result: GameResult,
    pub worker: Arc<WorkerInfo>,
}

/// A complete unit on its way to the writer thread.
pub(crate) struct WriteJob {
    pub slot: u32,
    pub unit: Unit,
    pub unit_id: String,
    pub part: Part,
}

/// A complete unit's part: still to write, or already in the store.
pub(crate) enum Part {
    /// Every game's result, in game order: the writer encodes and puts the part.
    Rows(Vec<Stored>),
    /// A worker put the part itself; the writer journals what it holds (and its size in
    /// bytes, for the Delta log).
    Written(CommitEntry, u64),
}

/// What the writer thread reports.
#[derive(Clone, Debug, Default)]
pub(crate) struct Events {
    pub committed_units: u64,
    pub complete: bool,
    pub fatal: Option<String>,
}

impl Events {
    /// One more unit committed by a writer that saw the sweep `complete` (or not) when it
    /// did. Writers report in any order: one that saw the sweep one unit short may report
    /// after the one that completed it, and completion never goes back.
    pub(crate) fn committed(&mut self, complete: bool) {
        self.committed_units += 1;
        self.complete |= complete;
    }
}
