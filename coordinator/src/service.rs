//! The gRPC service: thin handlers that take the core's lock for one step each.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hammer_proto::v1::coordinator_server::Coordinator;
use hammer_proto::v1::{
    BatchAck, HeartbeatRequest, HeartbeatResponse, KnowledgeBase, LeaseRequest, LeaseResponse,
    RegisterRequest, RegisterResponse, ResultBatch, StatusRequest, StatusResponse, lease_response,
};
use hammer_proto::{PROTOCOL_VERSION, TOKEN_METADATA_KEY};
use tokio::sync::{mpsc, watch};
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status, Streaming};
use tracing::{debug, info, warn};

use hammer_store::Store;

use crate::core::{Core, CoreError, LeaseOutcome, WriteJob};
use crate::lock;
use crate::metrics::Metrics;

pub(crate) struct Service {
    pub core: Arc<Mutex<Core>>,
    pub writer: mpsc::Sender<WriteJob>,
    pub drain: watch::Receiver<bool>,
    pub hammer_version: String,
    pub metrics: Arc<Metrics>,
    /// The sweep's knowledge bases, sent with every registration.
    pub knowledge_bases: Arc<Vec<KnowledgeBase>>,
    /// The dataset, where a part a worker says it put is looked up.
    pub out: Store,
    /// The dataset's URL as workers open it, when they put parts themselves.
    pub workers_write: Option<String>,
}

#[tonic::async_trait]
impl Coordinator for Service {
    async fn register(
        &self,
        request: Request<RegisterRequest>,
    ) -> Result<Response<RegisterResponse>, Status> {
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
        let mut core = lock(&self.core);
        if core.draining {
            return Err(Status::unavailable("the coordinator is shutting down"));
        }
        let worker_id = core.register(
            &request.name,
            &request.hammer_version,
            &request.instance,
            &request.peer_addr,
        );
        info!(worker = %worker_id, ?peer, threads = request.threads, version = %request.hammer_version, "worker registered");
        Ok(Response::new(RegisterResponse {
            protocol_version: PROTOCOL_VERSION,
            worker_id,
            sweep_text: core.sweep.text.clone(),
            sweep_digest: core.sweep.digest.clone(),
            lease_ms: core.timing.lease_ttl.as_millis() as u64,
            heartbeat_ms: core.timing.heartbeat.as_millis() as u64,
            hammer_version: self.hammer_version.clone(),
            knowledge_bases: self.knowledge_bases.as_ref().clone(),
            dataset_url: self.workers_write.clone().unwrap_or_default(),
        }))
    }

    async fn lease(
        &self,
        request: Request<LeaseRequest>,
    ) -> Result<Response<LeaseResponse>, Status> {
        let request = request.into_inner();
        let outcome = lock(&self.core).lease(
            &request.worker_id,
            &request.resume_unit_id,
            request.gang_failed,
        )?;
        let outcome = match outcome {
            LeaseOutcome::Lease(lease) => {
                debug!(worker = %request.worker_id, lease = %lease.lease_id, unit = ?lease.unit.as_ref().map(|u| &u.unit_id), "leased");
                lease_response::Outcome::Lease(lease)
            }
            LeaseOutcome::Wait(ms) => lease_response::Outcome::WaitMs(ms),
            LeaseOutcome::Complete => lease_response::Outcome::Complete(true),
        };
        Ok(Response::new(LeaseResponse {
            outcome: Some(outcome),
        }))
    }

    type SubmitStream = Pin<Box<dyn Stream<Item = Result<BatchAck, Status>> + Send + 'static>>;

    async fn submit(
        &self,
        request: Request<Streaming<ResultBatch>>,
    ) -> Result<Response<Self::SubmitStream>, Status> {
        let peer = request.remote_addr();
        let mut inbound = request.into_inner();
        // Small on purpose: a worker may have only a few unacknowledged batches, so a
        // slow writer slows the workers instead of filling memory.
        let (acks, rx) = mpsc::channel(4);
        let core = self.core.clone();
        let writer = self.writer.clone();
        let mut drain = self.drain.clone();
        let metrics = self.metrics.clone();
        let out = self.out.clone();
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
                let outcome = match check_part(&core, &out, &batch).await {
                    Ok(()) => lock(&core).ingest(batch).map_err(Status::from),
                    Err(status) => Err(status),
                };
                match outcome {
                    Ok((ack, job)) => {
                        metrics.results_received(ack.accepted, ack.duplicates);
                        if let Some(job) = job {
                            info!(unit = %job.unit_id, games = job.unit.games(), "unit complete");
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
        let request = request.into_inner();
        let answer = lock(&self.core).heartbeat(
            &request.worker_id,
            &request.lease_ids,
            &request.progress,
        )?;
        Ok(Response::new(answer))
    }

    async fn status(
        &self,
        _request: Request<StatusRequest>,
    ) -> Result<Response<StatusResponse>, Status> {
        Ok(Response::new(lock(&self.core).status()))
    }
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

/// Checks the shared token on every call of the coordinator service.
#[derive(Clone)]
pub(crate) struct Auth {
    /// `Bearer TOKEN`, or None when no token is configured.
    pub expected: Option<Arc<[u8]>>,
}

impl tonic::service::Interceptor for Auth {
    fn call(&mut self, request: Request<()>) -> Result<Request<()>, Status> {
        let Some(expected) = &self.expected else {
            return Ok(request);
        };
        match request.metadata().get(TOKEN_METADATA_KEY) {
            None => {
                warn!(peer = ?request.remote_addr(), "refused a request without a token");
                Err(Status::unauthenticated(
                    "this coordinator requires a shared token and none was sent",
                ))
            }
            Some(value) if constant_time_eq(value.as_bytes(), expected) => Ok(request),
            Some(_) => {
                warn!(peer = ?request.remote_addr(), "refused a request with a wrong token");
                Err(Status::unauthenticated("wrong token"))
            }
        }
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

/// The gRPC code of each refusal: workers act on the code (`NotFound`: register or lease
/// again; `Unavailable`: retry later), the message is for people.
impl From<CoreError> for Status {
    fn from(error: CoreError) -> Status {
        let message = error.to_string();
        match error {
            CoreError::UnknownWorker(_) | CoreError::UnknownLease(_) => Status::not_found(message),
            CoreError::ShuttingDown => Status::unavailable(message),
            CoreError::MalformedLease(_)
            | CoreError::OutsideLease { .. }
            | CoreError::ResultRefused { .. }
            | CoreError::PartRefused { .. } => Status::invalid_argument(message),
            CoreError::NotYourLease { .. } => Status::permission_denied(message),
            CoreError::UnitOutsideSweep => Status::internal(message),
        }
    }
}
