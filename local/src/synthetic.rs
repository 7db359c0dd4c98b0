//! [`synthetic_worker`]: a worker that solves nothing, for `hammer bench-ingest`.
//!
//! When the coordinator asks workers to write the dataset, it encodes and puts each
//! unit's part itself, as a real worker does, and sends only the part's summary; else it
//! streams its results.

use std::time::Duration;

use hammer_proto::PROTOCOL_VERSION;
use hammer_proto::v1::{
    GameResult, GetSweepRequest, Lease, LeaseRequest, RegisterRequest, ResultBatch, UnitState,
    UnitWritten, lease_response,
};
use hammer_store::{Store, StoreError};
use hammer_sweep::{Sweep, SweepError, Unit};
use hammer_worker::{Client, ClientError, ConnectOptions};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

/// Errors of a synthetic worker.
#[derive(Debug, thiserror::Error)]
pub enum SyntheticError {
    /// The connection to the coordinator failed.
    #[error(transparent)]
    Client(#[from] ClientError),
    /// The sweep the coordinator sent does not parse.
    #[error(transparent)]
    Sweep(#[from] SweepError),
    /// The coordinator's answer does not fit the protocol.
    #[error("{0}")]
    Protocol(&'static str),
    /// The dataset the coordinator names cannot be opened.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A unit's part could not be made or put.
    #[error(transparent)]
    Part(#[from] hammer_parts::PartError),
}

/// A worker that solves nothing: it leases units and streams template results for them
/// as fast as the coordinator takes them.
pub async fn synthetic_worker(
    index: usize,
    url: String,
    batch_rows: usize,
) -> Result<(), SyntheticError> {
    let options = ConnectOptions {
        url,
        ..ConnectOptions::default()
    };
    let mut client = options.connect().await?;
    let worker_id = register(&mut client, index).await?;
    // The sweep and its dataset, fetched with the first lease (a benchmark serves one).
    let mut held: Option<(Sweep, Option<Store>)> = None;
    let template = template();
    while let Some(lease) = next_lease(&mut client, &worker_id).await? {
        if held.is_none() {
            held = Some(fetch_sweep(&mut client, &worker_id, &lease.sweep_digest).await?);
        }
        let Some((sweep, store)) = &held else {
            continue;
        };
        let unit_wire = lease
            .unit
            .ok_or(SyntheticError::Protocol("lease without unit"))?;
        let unit = sweep
            .unit_by_id(&unit_wire.unit_id)
            .ok_or(SyntheticError::Protocol("lease of an unknown unit"))?;
        let (experiment, config, point) = sweep
            .context_of(&unit)
            .ok_or(SyntheticError::Protocol("unit outside the sweep"))?;
        let header = ResultBatch {
            worker_id: worker_id.clone(),
            lease_id: lease.lease_id.clone(),
            experiment: experiment.name.clone(),
            config: config.id.clone(),
            n: unit.n,
            params: point.to_string(),
            results: Vec::new(),
            written: None,
        };
        match store {
            Some(store) => {
                let written = put_part(store, sweep, &unit, &template, &worker_id).await?;
                let batch = ResultBatch {
                    written: Some(written),
                    ..header
                };
                submit_written(&mut client, batch).await?;
            }
            None => stream_rows(&mut client, header, &unit, &template, batch_rows).await?,
        }
    }
    Ok(())
}

/// Registers as a one-thread worker; returns the worker id.
async fn register(client: &mut Client, index: usize) -> Result<String, SyntheticError> {
    let reg = client
        .register(RegisterRequest {
            protocol_version: PROTOCOL_VERSION,
            name: format!("synthetic{index}"),
            threads: 1,
            hammer_version: hammer_worker::HAMMER_VERSION.to_owned(),
            instance: format!("{index:x}"),
            peer_addr: String::new(),
        })
        .await
        .map_err(ClientError::from)?
        .into_inner();
    Ok(reg.worker_id)
}

/// The next lease, waiting as long as the coordinator says; `None` once the sweep is
/// complete.
async fn next_lease(client: &mut Client, worker_id: &str) -> Result<Option<Lease>, SyntheticError> {
    loop {
        let answer = client
            .lease(LeaseRequest {
                worker_id: worker_id.to_owned(),
                ..LeaseRequest::default()
            })
            .await
            .map_err(ClientError::from)?
            .into_inner();
        match answer.outcome {
            Some(lease_response::Outcome::Lease(lease)) => return Ok(Some(lease)),
            Some(lease_response::Outcome::WaitMs(ms)) => {
                tokio::time::sleep(Duration::from_millis(ms)).await;
            }
            Some(lease_response::Outcome::Complete(_)) => return Ok(None),
            None => return Err(SyntheticError::Protocol("empty lease answer")),
        }
    }
}

/// The sweep of `digest`, and its dataset's store when workers are to write the parts.
async fn fetch_sweep(
    client: &mut Client,
    worker_id: &str,
    digest: &str,
) -> Result<(Sweep, Option<Store>), SyntheticError> {
    let spec = client
        .get_sweep(GetSweepRequest {
            worker_id: worker_id.to_owned(),
            digest: digest.to_owned(),
        })
        .await
        .map_err(ClientError::from)?
        .into_inner();
    let store = match spec.dataset_url.as_str() {
        "" => None,
        url => Some(Store::open(url)?),
    };
    Ok((Sweep::parse(&spec.text, "<bench>")?, store))
}

/// Sends the one batch that tells the coordinator a part was put, and reads its acks.
async fn submit_written(client: &mut Client, batch: ResultBatch) -> Result<(), SyntheticError> {
    let (tx, rx) = mpsc::channel(1);
    let _ = tx.send(batch).await;
    drop(tx);
    let mut acks = client
        .submit(ReceiverStream::new(rx))
        .await
        .map_err(ClientError::from)?
        .into_inner();
    while acks.message().await.map_err(ClientError::from)?.is_some() {}
    Ok(())
}

/// Streams the unit's template results in batches of `batch_rows` until the coordinator
/// acks the unit complete.
async fn stream_rows(
    client: &mut Client,
    header: ResultBatch,
    unit: &Unit,
    template: &GameResult,
    batch_rows: usize,
) -> Result<(), SyntheticError> {
    let (tx, rx) = mpsc::channel(4);
    let mut acks = client
        .submit(ReceiverStream::new(rx))
        .await
        .map_err(ClientError::from)?
        .into_inner();
    let sender = {
        let template = template.clone();
        let (mut start, end) = (unit.start, unit.end);
        tokio::spawn(async move {
            while start < end {
                let stop = (start + batch_rows as u64).min(end);
                let mut batch = header.clone();
                batch.results = (start..stop)
                    .map(|game_index| game(&template, game_index))
                    .collect();
                if tx.send(batch).await.is_err() {
                    break;
                }
                start = stop;
            }
        })
    };
    while let Some(ack) = acks.message().await.map_err(ClientError::from)? {
        let state = UnitState::try_from(ack.unit_state).unwrap_or(UnitState::Unspecified);
        if matches!(state, UnitState::Complete | UnitState::Committed) {
            break;
        }
    }
    sender.abort();
    Ok(())
}

/// The template's result for one game, with strings of its own, as in a real sweep, so
/// that the Parquet encoder cannot get away with a one-entry dictionary.
fn game(template: &GameResult, game_index: u64) -> GameResult {
    let mut result = template.clone();
    result.game_index = game_index;
    let tag = format!("{:06}", game_index % 1_000_000);
    result.board.replace_range(..6, &tag);
    result.start.replace_range(..6, &tag);
    result.solution.replace_range(..6, &tag);
    result.expansions = game_index % 10_007;
    result
}

/// Encodes a unit's part of template results and puts it, as a worker that writes the
/// dataset does.
async fn put_part(
    store: &Store,
    sweep: &Sweep,
    unit: &Unit,
    template: &GameResult,
    worker: &str,
) -> Result<UnitWritten, SyntheticError> {
    let games = (unit.start..unit.end).map(|i| (game(template, i), worker, "synthetic"));
    let part = hammer_parts::encode(sweep, unit, games)?;
    let (summary, bytes) = hammer_parts::put(store, sweep, part).await?;
    Ok(summary.written(bytes))
}

/// A realistic 6x6 result: full-length board, start and solution strings, so that the
/// bytes per result match a real sweep's.
fn template() -> GameResult {
    let board = "A1B2C3D4E5F6/B1C2D3E4F5A6/C1D2E3F4A5B6/D1E2F3A4B5C6/E1F2A3B4C5D6/F1A2B3C4D5E6";
    let solution = vec!["A1xB1"; 35].join(" ");
    GameResult {
        game_index: 0,
        board: board.into(),
        prefix_moves: String::new(),
        start: board.into(),
        score: 1,
        exhaustive: true,
        expansions: 1234,
        attempts: 1,
        solution,
        wall_ns: 5_000_000,
        lower_bound: 1,
        extra: Vec::new(),
        capped_by: String::new(),
        memo_bytes: 262_144,
        ..GameResult::default()
    }
}
