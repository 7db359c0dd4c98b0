//! The unit a worker has in hand: what its search sent so far, and how far the search
//! got ([`Mode`]). It outlives a connection, so that after a reconnect the same unit's
//! results are sent again rather than solved again.

use hammer_proto::error_chain;
use hammer_proto::v1::{GameResult, UnitWritten};
use hammer_solver::Cancel;
use hammer_sweep::{Sweep, Unit};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tracing::warn;

use crate::error::WorkerError;
use crate::solve::SolveError;

/// What a unit's search sends: a game's row as it is solved, then how the search ended.
pub(crate) enum SolverMsg {
    Row(GameResult),
    Done(Result<(), SolveError>),
}

/// The unit being worked on, kept across reconnects.
pub(crate) struct Current {
    pub(crate) digest: String,
    pub(crate) unit: Unit,
    pub(crate) unit_id: String,
    /// The unit's parameter point as text, sent with every batch.
    pub(crate) params: String,
    pub(crate) results: Vec<GameResult>,
    rx: mpsc::UnboundedReceiver<SolverMsg>,
    pub(crate) mode: Mode,
    cancel: Cancel,
    task: Option<JoinHandle<()>>,
    /// The unit's part, once this worker put it into the dataset: kept, so that after a
    /// reconnect the coordinator is told again without a second put.
    pub(crate) written: Option<UnitWritten>,
}

/// How a unit is searched, and how far its search got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Solving the unit alone: its rows go out as they come.
    Alone,
    /// Searching the unit's game with a gang; its leader alone makes the game's row.
    Gang { leader: bool },
    /// Every row this worker makes is in (`gang`: that of the game its gang searched);
    /// they go out until the coordinator has the unit.
    Solved { gang: bool },
    /// A follower's search is over: the leader submits the row.
    Followed,
    /// The gang broke: the coordinator is told with the next lease request.
    GangBroke,
}

impl Mode {
    /// Whether the search is over: nothing more comes from it.
    pub(crate) fn solved(self) -> bool {
        !matches!(self, Mode::Alone | Mode::Gang { .. })
    }

    /// Whether the unit was leased as a member of a gang.
    pub(crate) fn in_gang(self) -> bool {
        !matches!(self, Mode::Alone | Mode::Solved { gang: false })
    }

    /// Whether this worker follows a gang's leader, and so makes no rows.
    pub(crate) fn follows(self) -> bool {
        matches!(self, Mode::Gang { leader: false } | Mode::Followed)
    }

    /// Whether the search is over with nothing to send: a follower's, or a broken gang's.
    pub(crate) fn is_over(self) -> bool {
        matches!(self, Mode::Followed | Mode::GangBroke)
    }

    /// The mode once the search ended well.
    fn solved_all(self) -> Mode {
        match self {
            Mode::Alone => Mode::Solved { gang: false },
            Mode::Gang { leader: true } => Mode::Solved { gang: true },
            Mode::Gang { leader: false } => Mode::Followed,
            done => done,
        }
    }
}

impl Current {
    /// The unit as its solving task starts: nothing received yet.
    pub(crate) fn new(
        sweep: &Sweep,
        unit: Unit,
        rx: mpsc::UnboundedReceiver<SolverMsg>,
        cancel: Cancel,
        task: JoinHandle<()>,
        mode: Mode,
    ) -> Current {
        Current {
            digest: sweep.digest.clone(),
            unit,
            unit_id: unit.id(),
            params: sweep
                .context_of(&unit)
                .map(|(_, _, p)| p.to_string())
                .unwrap_or_default(),
            results: Vec::with_capacity(unit.games() as usize),
            rx,
            mode,
            cancel,
            task: Some(task),
            written: None,
        }
    }

    /// Expansions spent on this unit so far, running games included.
    pub(crate) fn expansions(&self) -> u64 {
        self.cancel.expansions()
    }

    /// Stops the solver threads and waits for them, so that the next unit has the whole
    /// pool: a running game stops within a few thousand expansions and is dropped.
    pub(crate) async fn abandon(mut self) {
        self.cancel.set();
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }

    /// The search's next message; `None` once its task is gone.
    pub(crate) async fn next_msg(&mut self) -> Option<SolverMsg> {
        self.rx.recv().await
    }

    /// Keeps the solver's message `msg`, and what else is ready up to `limit` results
    /// without waiting again. The unit has `games` games for this worker to make.
    pub(crate) fn receive(
        &mut self,
        msg: Option<SolverMsg>,
        limit: usize,
        games: usize,
    ) -> Result<(), WorkerError> {
        match msg {
            Some(SolverMsg::Row(row)) => {
                self.results.push(row);
                while self.results.len() < limit {
                    match self.rx.try_recv() {
                        Ok(SolverMsg::Row(row)) => self.results.push(row),
                        Ok(SolverMsg::Done(result)) => return self.finish(result, games),
                        Err(_) => break,
                    }
                }
                Ok(())
            }
            Some(SolverMsg::Done(result)) => self.finish(result, games),
            None => self.finish(Ok(()), games),
        }
    }

    /// The search ended with `result`: every row is taken and counted, and the mode says
    /// how it ended.
    fn finish(&mut self, result: Result<(), SolveError>, games: usize) -> Result<(), WorkerError> {
        match result {
            Ok(()) => {
                // Rows sent before `Done` are all in the channel ahead of it.
                while let Ok(SolverMsg::Row(row)) = self.rx.try_recv() {
                    self.results.push(row);
                }
                if self.results.len() != games {
                    return Err(WorkerError::BadLease(format!(
                        "unit {} has {games} games but {} were solved",
                        self.unit_id,
                        self.results.len()
                    )));
                }
                self.mode = self.mode.solved_all();
                Ok(())
            }
            Err(SolveError::Cancelled) => Err(WorkerError::Stopped),
            Err(e @ SolveError::Gang { .. }) => {
                warn!(error = %error_chain(&e), "the gang broke; the game will be leased to a new gang");
                self.mode = Mode::GangBroke;
                Ok(())
            }
            Err(e) => Err(e.into()),
        }
    }
}
