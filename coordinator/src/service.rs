//! The gRPC service: thin handlers that take the core's lock for one step each.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hammer_proto::v1::coordinator_server::Coordinator;
use hammer_proto::v1::{
    BatchAck, GetSweepRequest, HeartbeatRequest, HeartbeatResponse, LeaseRequest, LeaseResponse,
    ListSweepsRequest, ListSweepsResponse, RegisterRequest, RegisterResponse, ResultBatch,
    StatusRequest, StatusResponse, SubmitSweepRequest, SweepInfo, SweepName, SweepSpec,
    lease_response,
};
use hammer_proto::{PROTOCOL_VERSION, TOKEN_METADATA_KEY};
use tokio::sync::{mpsc, watch};
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status, Streaming};
use tracing::{debug, info, warn};

use hammer_store::Store;

use crate::core::{Core, CoreError, Timing};
use crate::counters::Counters;
use crate::queue::{Admitted, LONG_POLL, Queue, QueueError};
use crate::sync::lock;
use crate::writer::Job;

pub(crate) struct Service {
    pub queue: Arc<Mutex<Queue>>,
    pub writer: mpsc::Sender<Job>,
    pub drain: watch::Receiver<bool>,
    pub hammer_version: String,
    /// The lease and heartbeat periods workers are told.
    pub timing: Timing,
    pub metrics: Arc<Counters>,
    /// One submission at a time: a new sweep is opened outside the queue's lock.
    pub submitting: Arc<tokio::sync::Mutex<()>>,
    /// Bumped when a sweep is submitted or resumed, to wake idle workers' lease calls.
    pub changed: watch::Sender<u64>,
}

#[tonic::async_trait]
impl Coordinator for Service {
    async fn register(
        &self,
        request: Request<RegisterRequest>,
    ) -> Result<Response<RegisterResponse>, Status> {
        require(&request, Role::Worker, "Register")?;
        let peer = request.remote_addr();
        let request = request.into_inner();
        if request.protocol_version != PROTOCOL_VERSION {
            warn!(
                ?peer,
                worker = request.protocol_version,
                coordinator = PROTOCOL_VERSION,
                "refused a worker of another protocol version"
            );
            return Err(Status::failed_precondition(format!(
                "protocol version mismatch: the worker speaks hammer.v1 protocol {}, this \
                 coordinator speaks {PROTOCOL_VERSION}; run the same hammer version on both sides",
                request.protocol_version
            )));
        }
        let mut queue = lock(&self.queue);
        if queue.is_draining() {
            return Err(Status::unavailable("the coordinator is shutting down"));
        }
        let worker_id = queue.register(
            &request.name,
            &request.hammer_version,
            &request.instance,
            &request.peer_addr,
            request.threads,
        );
        let timing = &self.timing;
        info!(worker = %worker_id, ?peer, threads = request.threads, version = %request.hammer_version, "worker registered");
        Ok(Response::new(RegisterResponse {
            protocol_version: PROTOCOL_VERSION,
            worker_id,
            lease_ms: timing.lease_ttl.as_millis() as u64,
            heartbeat_ms: timing.heartbeat.as_millis() as u64,
            hammer_version: self.hammer_version.clone(),
        }))
    }

    async fn get_sweep(
        &self,
        request: Request<GetSweepRequest>,
    ) -> Result<Response<SweepSpec>, Status> {
        require(&request, Role::Worker, "GetSweep")?;
        let spec = lock(&self.queue).spec(&request.get_ref().digest)?;
        Ok(Response::new(spec.as_ref().clone()))
    }

    async fn lease(
        &self,
        request: Request<LeaseRequest>,
    ) -> Result<Response<LeaseResponse>, Status> {
        require(&request, Role::Worker, "Lease")?;
        let request = request.into_inner();
        let mut changed = self.changed.subscribe();
        let (mut answer, poll) = {
            let mut queue = lock(&self.queue);
            let (answer, idle) = queue.lease(&request)?;
            (answer, idle && queue.is_standing())
        };
        if poll {
            // Long poll: an idle worker hears of a submission at once.
            let mut drain = self.drain.clone();
            tokio::select! {
                _ = changed.changed() => {}
                _ = tokio::time::sleep(LONG_POLL) => return Ok(Response::new(answer)),
                _ = drain.changed() => return Ok(Response::new(answer)),
            }
            answer = lock(&self.queue).lease(&request)?.0;
        }
        if let Some(lease_response::Outcome::Lease(lease)) = &answer.outcome {
            debug!(worker = %request.worker_id, lease = %lease.lease_id, unit = ?lease.unit.as_ref().map(|u| &u.unit_id), "leased");
        }
        Ok(Response::new(answer))
    }

    type SubmitStream = Pin<Box<dyn Stream<Item = Result<BatchAck, Status>> + Send + 'static>>;

    async fn submit(
        &self,
        request: Request<Streaming<ResultBatch>>,
    ) -> Result<Response<Self::SubmitStream>, Status> {
        require(&request, Role::Worker, "Submit")?;
        let peer = request.remote_addr();
        let mut inbound = request.into_inner();
        // Small on purpose: a worker may have only a few unacknowledged batches, so a
        // slow writer slows the workers instead of filling memory.
        let (acks, rx) = mpsc::channel(4);
        let queue = self.queue.clone();
        let writer = self.writer.clone();
        let mut drain = self.drain.clone();
        let metrics = self.metrics.clone();
        tokio::spawn(async move {
            loop {
                let next = if *drain.borrow() {
                    // Shutting down: take what is already on its way, then stop.
                    match tokio::time::timeout(Duration::from_millis(200), inbound.message()).await
                    {
                        Ok(next) => next,
                        Err(_) => break,
                    }
                } else {
                    tokio::select! {
                        next = inbound.message() => next,
                        _ = drain.changed() => continue,
                    }
                };
                let batch = match next {
                    Ok(Some(batch)) => batch,
                    Ok(None) => break,
                    Err(status) => {
                        debug!(?peer, %status, "result stream ended");
                        break;
                    }
                };
                let worker = batch.worker_id.clone();
                match take_batch(&queue, batch).await {
                    Ok((ack, job)) => {
                        metrics.results_received(ack.accepted, ack.duplicates);
                        if let Some(job) = job {
                            info!(unit = %job.unit.unit_id, games = job.unit.unit.games(), sweep = %job.sweep.sweep.name, "unit complete");
                            if writer.send(job).await.is_err() {
                                break;
                            }
                        }
                        if acks.send(Ok(ack)).await.is_err() {
                            break;
                        }
                    }
                    Err(status) => {
                        if status.code() == tonic::Code::NotFound {
                            debug!(?peer, %worker, %status, "batch for an unknown lease");
                        } else {
                            warn!(?peer, %worker, %status, "refused a result batch");
                        }
                        let _ = acks.send(Err(status)).await;
                        break;
                    }
                }
            }
        });
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }

    async fn heartbeat(
        &self,
        request: Request<HeartbeatRequest>,
    ) -> Result<Response<HeartbeatResponse>, Status> {
        require(&request, Role::Worker, "Heartbeat")?;
        let answer = lock(&self.queue).heartbeat(request.get_ref())?;
        Ok(Response::new(answer))
    }

    async fn status(
        &self,
        request: Request<StatusRequest>,
    ) -> Result<Response<StatusResponse>, Status> {
        require(&request, Role::User, "Status")?;
        Ok(Response::new(
            lock(&self.queue).status(&request.get_ref().sweep)?,
        ))
    }

    async fn submit_sweep(
        &self,
        request: Request<SubmitSweepRequest>,
    ) -> Result<Response<SweepInfo>, Status> {
        require(&request, Role::User, "SubmitSweep")?;
        let _one = self.submitting.lock().await;
        let admitted = lock(&self.queue).admit(request.get_ref())?;
        let info = match admitted {
            Admitted::Known(info) => info,
            Admitted::New(sweep, place) => {
                let Some(standing) = lock(&self.queue).standing_opener() else {
                    return Err(QueueError::OneSweepOnly.into());
                };
                let name = sweep.name.clone();
                let entry = standing.open(*sweep, place).await.map_err(|e| {
                    Status::unavailable(format!(
                        "cannot open sweep {name}: {}",
                        hammer_proto::error_chain(&e)
                    ))
                })?;
                info!(sweep = %name, seq = place.seq, priority = place.priority, weight = place.weight, "sweep submitted");
                let mut queue = lock(&self.queue);
                queue.push(entry);
                queue.info(queue.entries().len() - 1, false)
            }
        };
        self.changed.send_modify(|n| *n += 1);
        Ok(Response::new(info))
    }

    async fn list_sweeps(
        &self,
        request: Request<ListSweepsRequest>,
    ) -> Result<Response<ListSweepsResponse>, Status> {
        require(&request, Role::User, "ListSweeps")?;
        let sweeps = lock(&self.queue).list();
        Ok(Response::new(ListSweepsResponse { sweeps }))
    }

    async fn stop_sweep(&self, request: Request<SweepName>) -> Result<Response<SweepInfo>, Status> {
        require(&request, Role::User, "StopSweep")?;
        Ok(Response::new(
            lock(&self.queue).stop(&request.get_ref().name)?,
        ))
    }

    async fn cancel_sweep(
        &self,
        request: Request<SweepName>,
    ) -> Result<Response<SweepInfo>, Status> {
        require(&request, Role::User, "CancelSweep")?;
        let (index, writing) = lock(&self.queue).cancel(&request.get_ref().name)?;
        // Waits for the commits under way; none starts after it.
        tokio::task::spawn_blocking(move || {
            *writing.cancelled.write().unwrap_or_else(|e| e.into_inner()) = true;
        })
        .await
        .map_err(|e| Status::internal(e.to_string()))?;
        Ok(Response::new(lock(&self.queue).info(index, false)))
    }
}

/// One result batch: routed to its sweep, checked, taken by the sweep's core; a complete
/// unit comes back as a job for the writers.
async fn take_batch(
    queue: &Mutex<Queue>,
    mut batch: ResultBatch,
) -> Result<(BatchAck, Option<Job>), Status> {
    let routed = lock(queue).route(&batch.worker_id, &batch.lease_id)?;
    if routed.cancelled {
        return Err(QueueError::SweepCancelled(routed.writing.sweep.name.clone()).into());
    }
    let wire = std::mem::replace(&mut batch.lease_id, routed.lease.clone());
    check_part(&routed.core, &routed.writing.out, &batch).await?;
    let (mut ack, job) = lock(&routed.core)
        .ingest(batch, routed.worker.clone())
        .map_err(QueueError::from)?;
    ack.lease_id = wire;
    let job = job.map(|unit| Job {
        sweep: routed.writing.clone(),
        unit,
    });
    Ok((ack, job))
}

/// A batch that says its worker put the unit's part: the part must be in the store, of
/// the size the worker reported, before the unit is committed. One lookup of a unit; the
/// part's rows are not read, as a worker's results are not re-solved.
async fn check_part(core: &Mutex<Core>, out: &Store, batch: &ResultBatch) -> Result<(), Status> {
    let Some(written) = &batch.written else {
        return Ok(());
    };
    let key = {
        let core = lock(core);
        let Some(unit) = core.unit_of_lease(&batch.lease_id) else {
            // Unknown or malformed: ingest refuses it with the reason.
            return Ok(());
        };
        hammer_parts::key_of(&core.sweep, &unit).map_err(|e| Status::internal(e.to_string()))?
    };
    let found = out
        .size(&key)
        .await
        .map_err(|e| Status::unavailable(hammer_proto::error_chain(&e)))?;
    match found {
        Some(size) if size == written.bytes => Ok(()),
        found => Err(Status::failed_precondition(format!(
            "unit {}: the worker reports a part of {} bytes at {out}/{key}, but the dataset \
             holds {}",
            written.unit_id,
            written.bytes,
            found.map_or("no such part".to_owned(), |size| format!("{size} bytes")),
        ))),
    }
}

/// What a token may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// Lease units and send results.
    Worker,
    /// Submit, stop and cancel sweeps, and read their status.
    User,
    /// Both: no tokens, or one shared token.
    Both,
}

impl Role {
    fn name(self) -> &'static str {
        match self {
            Role::Worker => "worker",
            Role::User => "user",
            Role::Both => "shared",
        }
    }
}

/// Refuses a call whose token lacks `needed`; `call` names the call in the message.
fn require<T>(request: &Request<T>, needed: Role, call: &str) -> Result<(), Status> {
    let has = request
        .extensions()
        .get::<Role>()
        .copied()
        .unwrap_or(Role::Both);
    if has == Role::Both || has == needed {
        return Ok(());
    }
    warn!(peer = ?request.remote_addr(), call, "refused a call of the other role");
    Err(Status::permission_denied(format!(
        "{call} needs the {} role, and this token has the {} role",
        needed.name(),
        has.name()
    )))
}

/// Checks the token on every call of the coordinator service, and marks the request with
/// the token's role.
#[derive(Clone)]
pub(crate) struct Auth {
    /// `Bearer TOKEN` of each role that has a token; both empty: no token is needed.
    pub worker: Option<Arc<[u8]>>,
    pub user: Option<Arc<[u8]>>,
}

impl tonic::service::Interceptor for Auth {
    fn call(&mut self, mut request: Request<()>) -> Result<Request<()>, Status> {
        if self.worker.is_none() && self.user.is_none() {
            request.extensions_mut().insert(Role::Both);
            return Ok(request);
        }
        let Some(value) = request.metadata().get(TOKEN_METADATA_KEY) else {
            warn!(peer = ?request.remote_addr(), "refused a request without a token");
            return Err(Status::unauthenticated(
                "this coordinator requires a token and none was sent",
            ));
        };
        let matches = |expected: &Option<Arc<[u8]>>| {
            expected
                .as_ref()
                .is_some_and(|e| constant_time_eq(value.as_bytes(), e))
        };
        let role = match (matches(&self.worker), matches(&self.user)) {
            (true, true) => Role::Both,
            (true, false) => Role::Worker,
            (false, true) => Role::User,
            (false, false) => {
                warn!(peer = ?request.remote_addr(), "refused a request with a wrong token");
                return Err(Status::unauthenticated("wrong token"));
            }
        };
        request.extensions_mut().insert(role);
        Ok(request)
    }
}

/// Compares without an early exit, so the time taken does not reveal how much of a
/// guessed token was right.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The gRPC code of each refusal, the queue's and its cores': workers act on the code
/// (`NotFound`: register or lease again; `Unavailable`: retry later), the message is for
/// people.
impl From<QueueError> for Status {
    fn from(error: QueueError) -> Status {
        let message = error.to_string();
        match error {
            QueueError::UnknownWorker(_)
            | QueueError::UnknownSweep { .. }
            | QueueError::SweepCancelled(_)
            | QueueError::Core(CoreError::UnknownLease(_)) => Status::not_found(message),
            QueueError::ShuttingDown => Status::unavailable(message),
            QueueError::NameNeeded(_) | QueueError::BadSweep(_) => {
                Status::invalid_argument(message)
            }
            QueueError::OneSweepOnly => Status::failed_precondition(message),
            QueueError::SweepExists { .. } => Status::already_exists(message),
            QueueError::Persist(_) => Status::internal(message),
            QueueError::MalformedLease(_)
            | QueueError::Core(
                CoreError::MalformedLease(_)
                | CoreError::OutsideLease { .. }
                | CoreError::ResultRefused { .. }
                | CoreError::PartRefused { .. },
            ) => Status::invalid_argument(message),
            QueueError::Core(CoreError::NotYourLease { .. }) => Status::permission_denied(message),
            QueueError::Core(CoreError::UnitOutsideSweep) => Status::internal(message),
        }
    }
}
