//! `hammer health`: ask a coordinator's gRPC health service.
//!
//! It exists so that container images need nothing but the `hammer` binary for a health
//! check (no `grpc_health_probe`).

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

use crate::args::ConnectArgs;
use crate::runtime::runtime;

/// The service name the coordinator reports as serving.
pub const COORDINATOR_SERVICE: &str = "hammer.v1.Coordinator";

#[derive(Args)]
pub struct HealthArgs {
    #[command(flatten)]
    connect: ConnectArgs,
    /// The gRPC service to ask about; "" asks about the server as a whole.
    #[arg(long, default_value = COORDINATOR_SERVICE)]
    service: String,
    /// Give up after this many seconds (connection and answer together).
    #[arg(long, default_value_t = 5.0)]
    timeout_secs: f64,
}

/// Asks `grpc.health.v1.Health/Check`; exit code 0 when SERVING, 1 otherwise (including
/// when the coordinator cannot be reached), as health-check runners expect.
pub fn health(args: HealthArgs) -> Result<ExitCode> {
    if !(args.timeout_secs.is_finite() && args.timeout_secs > 0.0 && args.timeout_secs < 1e6) {
        bail!("--timeout-secs must be a positive number of seconds");
    }
    let limit = Duration::from_secs_f64(args.timeout_secs);
    let options = args.connect.options()?;
    // The health service answers without a token, but sending it does no harm and
    // keeps one code path for every call.
    let endpoint = options.endpoint()?;
    let interceptor = options.interceptor()?;
    let url = options.url.clone();
    runtime()?.block_on(async move {
        let check = async {
            let channel = endpoint
                .connect()
                .await
                .with_context(|| format!("cannot reach the coordinator at {url}"))?;
            let mut client = HealthClient::with_interceptor(channel, interceptor);
            let answer = client
                .check(HealthCheckRequest {
                    service: args.service.clone(),
                })
                .await
                .map_err(|status| {
                    anyhow::anyhow!(
                        "health check of {url} failed: {}",
                        hammer_worker::describe_status(&status)
                    )
                })?;
            Ok::<_, anyhow::Error>(answer.into_inner().status())
        };
        let status = tokio::time::timeout(limit, check)
            .await
            .map_err(|_| anyhow::anyhow!("no health answer from {url} within {limit:?}"))??;
        println!("{}", status.as_str_name());
        Ok(if status == ServingStatus::Serving {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        })
    })
}
