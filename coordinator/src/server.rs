//! The gRPC server: the coordinator service behind its token check, with health and
//! reflection, on a bound address, with TLS when asked.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use hammer_proto::v1::coordinator_server::CoordinatorServer;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::server::TcpIncoming;
use tonic::transport::{Identity, Server, ServerTlsConfig};

use crate::config::{TlsFiles, Tokens};
use crate::error::CoordinatorError;
use crate::service::{Auth, Service};

/// The health service's name for the coordinator.
pub(crate) const SERVICE_NAME: &str = "hammer.v1.Coordinator";

/// A server that is serving.
pub(crate) struct Serving {
    /// The address bound.
    pub addr: SocketAddr,
    /// Stops the server gracefully.
    pub stop: oneshot::Sender<()>,
    /// The server's task.
    pub server: JoinHandle<Result<(), tonic::transport::Error>>,
    /// Marks the coordinator serving or not, for readiness probes.
    pub health: tonic_health::server::HealthReporter,
}

/// Binds `listen` and serves `service` there until `Serving::stop`.
pub(crate) async fn serve(
    service: Service,
    tokens: &Tokens,
    tls: Option<&TlsFiles>,
    listen: SocketAddr,
) -> Result<Serving, CoordinatorError> {
    let bearer = |t: &Option<String>| {
        t.as_ref()
            .map(|t| Arc::from(format!("Bearer {t}").into_bytes()))
    };
    let auth = Auth {
        worker: bearer(&tokens.worker),
        user: bearer(&tokens.user),
    };
    let coordinator = CoordinatorServer::new(service)
        .max_decoding_message_size(hammer_proto::MAX_MESSAGE_BYTES)
        .max_encoding_message_size(hammer_proto::MAX_MESSAGE_BYTES);
    let coordinator = InterceptedService::new(coordinator, auth);

    let (health_reporter, health) = tonic_health::server::health_reporter();
    health_reporter
        .set_service_status(SERVICE_NAME, tonic_health::ServingStatus::Serving)
        .await;
    let reflection = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(hammer_proto::FILE_DESCRIPTOR_SET)
        .build_v1()
        .map_err(|e| CoordinatorError::Internal(format!("reflection: {e}")))?;

    let mut builder = server_builder(tls)?;
    let (listener, addr) = bind(listen).await?;
    let incoming = TcpIncoming::from(listener).with_nodelay(Some(true));
    let (stop, stop_rx) = oneshot::channel::<()>();
    let router = builder
        .add_service(health)
        .add_service(reflection)
        .add_service(coordinator);
    let server = tokio::spawn(router.serve_with_incoming_shutdown(incoming, async {
        let _ = stop_rx.await;
    }));
    Ok(Serving {
        addr,
        stop,
        server,
        health: health_reporter,
    })
}

/// The gRPC server's settings, with TLS when `tls` names the files.
fn server_builder(tls: Option<&TlsFiles>) -> Result<Server, CoordinatorError> {
    // Large flow-control windows: a batch is a few hundred kilobytes, and the
    // 64 KiB HTTP/2 default would cost a window update every few results.
    let mut builder = Server::builder()
        .initial_stream_window_size(Some(4 << 20))
        .initial_connection_window_size(Some(16 << 20))
        .http2_keepalive_interval(Some(Duration::from_secs(10)))
        .http2_keepalive_timeout(Some(Duration::from_secs(20)));
    if let Some(files) = tls {
        let read = |what, path: &PathBuf| {
            std::fs::read(path).map_err(|source| CoordinatorError::ReadFile {
                what,
                path: path.clone(),
                source,
            })
        };
        let identity = Identity::from_pem(
            read("TLS certificate", &files.cert)?,
            read("TLS key", &files.key)?,
        );
        builder = builder
            .tls_config(ServerTlsConfig::new().identity(identity))
            .map_err(CoordinatorError::Tls)?;
    }
    Ok(builder)
}

/// Binds `listen` and returns the listener with the address it got (port 0 picks one).
async fn bind(
    listen: SocketAddr,
) -> Result<(tokio::net::TcpListener, SocketAddr), CoordinatorError> {
    let bind_error = |source| CoordinatorError::Bind {
        addr: listen,
        source,
    };
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(bind_error)?;
    let addr = listener.local_addr().map_err(bind_error)?;
    Ok((listener, addr))
}
