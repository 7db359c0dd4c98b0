//! Prometheus metrics of a coordinator, served over plain HTTP on an opt-in address.
//!
//! Why hand-written: the text exposition format is a few lines per metric, and a scrape
//! is one `GET /metrics` per interval, so a tiny HTTP/1.1 responder on tokio does the job
//! without a metrics crate or an HTTP server stack beyond what tonic already pulls in.
//!
//! Most values are read from the cores' status at scrape time (units, games, workers,
//! rate), through a snapshot function, so the hot paths pay nothing for them; the rest
//! are the atomics of `counters.rs`. The server knows neither the queue nor its lock.

use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use hammer_proto::v1::StatusResponse;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tracing::{debug, warn};

use crate::counters::{Counters, Histogram, WRITE_BUCKETS};

/// The values of one scrape that come from the core.
pub(crate) struct Snapshot {
    pub status: StatusResponse,
    pub uptime: Duration,
}

/// Renders one scrape in the Prometheus text exposition format (version 0.0.4).
pub(crate) fn render(snapshot: &Snapshot, metrics: &Counters) -> String {
    let s = &snapshot.status;
    let mut out = Text(String::with_capacity(4096));
    sweep_metrics(&mut out, s);
    work_metrics(&mut out, s);
    result_metrics(&mut out, snapshot, metrics);
    write_histogram(&mut out.0, &metrics.write);
    out.0
}

/// The exposition text being written.
struct Text(String);

impl Text {
    /// One metric with its help, type and samples (label set, value).
    fn metric(&mut self, name: &str, kind: &str, help: &str, samples: &[(&str, f64)]) {
        let out = &mut self.0;
        let _ = writeln!(out, "# HELP {name} {help}");
        let _ = writeln!(out, "# TYPE {name} {kind}");
        for (labels, value) in samples {
            let _ = writeln!(out, "{name}{labels} {value}");
        }
    }
}

/// The sweep, its units and its games.
fn sweep_metrics(out: &mut Text, s: &StatusResponse) {
    let info = format!(
        "{{sweep=\"{}\",digest=\"{}\"}}",
        escape(&s.sweep_name),
        escape(&s.sweep_digest)
    );
    out.metric(
        "hammer_sweep_info",
        "gauge",
        "The sweep this coordinator serves (always 1).",
        &[(&info, 1.0)],
    );
    let committed = f64::from(s.units_committed);
    let leased = f64::from(s.units_leased);
    let pending = f64::from(
        s.units_total
            .saturating_sub(s.units_committed)
            .saturating_sub(s.units_leased),
    );
    out.metric(
        "hammer_sweep_units",
        "gauge",
        "Units in the sweep.",
        &[("", f64::from(s.units_total))],
    );
    out.metric(
        "hammer_units",
        "gauge",
        "Units by state: committed (part file and journal line durable), leased (a worker \
         holds an active lease), pending (neither: waiting for a worker or being written).",
        &[
            ("{state=\"committed\"}", committed),
            ("{state=\"leased\"}", leased),
            ("{state=\"pending\"}", pending),
        ],
    );
    out.metric(
        "hammer_sweep_games",
        "gauge",
        "Games (result keys) in the sweep.",
        &[("", s.games_total as f64)],
    );
    out.metric(
        "hammer_games",
        "gauge",
        "Games by state: committed to the dataset, or received and held for open units.",
        &[
            ("{state=\"committed\"}", s.games_committed as f64),
            ("{state=\"pending\"}", s.games_pending as f64),
        ],
    );
}

/// The work the workers hold, and whether the sweep is complete.
fn work_metrics(out: &mut Text, s: &StatusResponse) {
    let leased_units = || s.worker_list.iter().flat_map(|w| &w.units);
    out.metric(
        "hammer_leased_expansions",
        "gauge",
        "Expansions the workers reported so far on the units they hold, games still running \
         included: it keeps growing while a unit of hour-long games is at work.",
        &[("", leased_units().map(|u| u.expansions as f64).sum())],
    );
    out.metric(
        "hammer_leased_stall_seconds",
        "gauge",
        "The longest time any leased unit has gone without its reported expansions growing \
         (since its lease was granted, before any report).",
        &[(
            "",
            leased_units()
                .map(|u| u.progress_ms as f64 / 1000.0)
                .fold(0.0, f64::max),
        )],
    );
    out.metric(
        "hammer_sweep_complete",
        "gauge",
        "1 when every unit is committed.",
        &[("", if s.complete { 1.0 } else { 0.0 })],
    );
}

/// Results, workers, leases and uptime.
fn result_metrics(out: &mut Text, snapshot: &Snapshot, metrics: &Counters) {
    let s = &snapshot.status;
    out.metric(
        "hammer_results_total",
        "counter",
        "Results accepted since this coordinator process started (first copy of each key).",
        &[("", metrics.results.load(Ordering::Relaxed) as f64)],
    );
    out.metric(
        "hammer_duplicate_results_total",
        "counter",
        "Results dropped because their key had already arrived (resends, speculative copies).",
        &[("", metrics.duplicates.load(Ordering::Relaxed) as f64)],
    );
    out.metric(
        "hammer_refused_results_total",
        "counter",
        "Results refused with their whole batch (outside the lease, malformed).",
        &[("", s.refused as f64)],
    );
    out.metric(
        "hammer_results_per_second",
        "gauge",
        "Results accepted per second over the last ten seconds.",
        &[("", s.games_per_second)],
    );
    out.metric(
        "hammer_workers_alive",
        "gauge",
        "Workers heard from within one lease period and not yet told the sweep is complete.",
        &[("", f64::from(s.workers))],
    );
    out.metric(
        "hammer_lease_expiries_total",
        "counter",
        "Leases that lapsed without renewal; their units were given out again.",
        &[("", metrics.lease_expiries.load(Ordering::Relaxed) as f64)],
    );
    out.metric(
        "hammer_uptime_seconds",
        "gauge",
        "Seconds since this coordinator process started serving.",
        &[("", snapshot.uptime.as_secs_f64())],
    );
}

/// The unit-write latency histogram.
fn write_histogram(out: &mut String, h: &Histogram) {
    let name = "hammer_unit_write_seconds";
    let _ = writeln!(
        out,
        "# HELP {name} Time to write a complete unit: rows, Parquet part file with fsyncs, \
         rename, journal line with fsync."
    );
    let _ = writeln!(out, "# TYPE {name} histogram");
    let mut cumulative = 0u64;
    for (bound, bucket) in WRITE_BUCKETS.iter().zip(&h.buckets) {
        cumulative += bucket.load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {cumulative}");
    }
    let count = h.count.load(Ordering::Relaxed);
    let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
    let _ = writeln!(
        out,
        "{name}_sum {}",
        h.sum_nanos.load(Ordering::Relaxed) as f64 / 1e9
    );
    let _ = writeln!(out, "{name}_count {count}");
}

/// Escapes a label value: backslash, double quote and newline.
fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// Answers `GET /metrics` on `listener` until the task is aborted.
/// `status` reads the sweeps' progress at each scrape.
pub(crate) async fn serve<F>(
    listener: TcpListener,
    status: F,
    metrics: Arc<Counters>,
    started: Instant,
) where
    F: Fn() -> StatusResponse + Send + Sync + 'static,
{
    let status = Arc::new(status);
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors and the like: wait instead of spinning.
                warn!(error = %e, "metrics: accept failed");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let (status, metrics) = (status.clone(), metrics.clone());
        tokio::spawn(async move {
            let answer = tokio::time::timeout(
                Duration::from_secs(10),
                answer(stream, &*status, &metrics, started),
            )
            .await;
            match answer {
                Ok(Ok(())) => {}
                Ok(Err(e)) => debug!(%peer, error = %e, "metrics: connection failed"),
                Err(_) => debug!(%peer, "metrics: connection timed out"),
            }
        });
    }
}

/// One request, one response, then the connection closes: scrapers open a connection
/// per scrape anyway, and this keeps the server free of keep-alive state.
async fn answer(
    mut stream: TcpStream,
    status: &(dyn Fn() -> StatusResponse + Send + Sync),
    metrics: &Counters,
    started: Instant,
) -> std::io::Result<()> {
    let mut head = Vec::with_capacity(1024);
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        if head.len() > 16 * 1024 {
            return respond(
                &mut stream,
                "431 Request Header Fields Too Large",
                "",
                false,
            )
            .await;
        }
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            return Ok(());
        }
        head.extend_from_slice(&buf[..n]);
    }
    let line = head.split(|&b| b == b'\r').next().unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    let mut parts = line.split(' ');
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let path = target.split('?').next().unwrap_or("");
    let head_only = method == "HEAD";
    if method != "GET" && !head_only {
        return respond(&mut stream, "405 Method Not Allowed", "GET only\n", false).await;
    }
    if path != "/metrics" {
        return respond(
            &mut stream,
            "404 Not Found",
            "hammer coordinator: metrics are at /metrics\n",
            head_only,
        )
        .await;
    }
    let snapshot = Snapshot {
        status: status(),
        uptime: started.elapsed(),
    };
    let body = render(&snapshot, metrics);
    respond(&mut stream, "200 OK", &body, head_only).await
}

async fn respond(
    stream: &mut TcpStream,
    status: &str,
    body: &str,
    head_only: bool,
) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    if !head_only {
        stream.write_all(body.as_bytes()).await?;
    }
    stream.shutdown().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_histogram_is_cumulative_and_counts_every_observation() {
        let metrics = Counters::default();
        metrics.unit_written(Duration::from_micros(500));
        metrics.unit_written(Duration::from_millis(30));
        metrics.unit_written(Duration::from_secs(60));
        metrics.results_received(10, 2);
        for _ in 0..3 {
            metrics.lease_expired();
        }
        let snapshot = Snapshot {
            status: StatusResponse {
                sweep_name: "a\"b".into(),
                units_total: 5,
                units_committed: 2,
                units_leased: 1,
                ..StatusResponse::default()
            },
            uptime: Duration::from_secs(1),
        };
        let text = render(&snapshot, &metrics);
        for line in [
            "hammer_unit_write_seconds_bucket{le=\"0.001\"} 1",
            "hammer_unit_write_seconds_bucket{le=\"0.025\"} 1",
            "hammer_unit_write_seconds_bucket{le=\"0.05\"} 2",
            "hammer_unit_write_seconds_bucket{le=\"10\"} 2",
            "hammer_unit_write_seconds_bucket{le=\"+Inf\"} 3",
            "hammer_unit_write_seconds_count 3",
            "hammer_units{state=\"pending\"} 2",
            "hammer_results_total 10",
            "hammer_duplicate_results_total 2",
            "hammer_lease_expiries_total 3",
            "hammer_sweep_info{sweep=\"a\\\"b\",digest=\"\"} 1",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} missing in\n{text}");
        }
    }
}
