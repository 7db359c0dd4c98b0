//! Connecting to a coordinator: URL, shared token and TLS, shared by the worker, `hammer
//! status` and the ingest benchmark so that they all authenticate the same way.

use std::path::PathBuf;
use std::time::Duration;

use hammer_proto::v1::coordinator_client::CoordinatorClient;
use hammer_proto::{TOKEN_METADATA_KEY, error_chain};
use tonic::metadata::AsciiMetadataValue;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint};

/// Where and how to reach a coordinator.
#[derive(Clone, Debug, Default)]
pub struct ConnectOptions {
    /// `http://HOST:PORT`, or `https://HOST:PORT` with `tls_ca`.
    pub url: String,
    /// The shared token, sent as `authorization: Bearer TOKEN` with every call.
    pub token: Option<String>,
    /// PEM file of the certificate authority that signed the coordinator's certificate.
    pub tls_ca: Option<PathBuf>,
    /// Name to check the coordinator's certificate against, when it differs from the
    /// URL's host (for example when connecting by IP address).
    pub tls_domain: Option<String>,
}

/// Problems that no retry fixes: bad flags or files.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    /// The URL does not parse or does not fit the TLS flags.
    #[error("bad coordinator URL {url:?}: {reason}")]
    Url {
        /// The URL as given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The certificate authority's file cannot be read.
    #[error("cannot read the TLS certificate authority {}", path.display())]
    Ca {
        /// The file.
        path: PathBuf,
        /// Why it cannot be read.
        #[source]
        source: std::io::Error,
    },
    /// The token cannot be sent as a gRPC header.
    #[error(
        "the shared token contains characters that cannot travel in gRPC metadata (only \
         visible ASCII is allowed)"
    )]
    Token,
    /// The TLS configuration was refused.
    #[error("TLS setup for {url}")]
    Tls {
        /// The coordinator's URL.
        url: String,
        /// What TLS setup said.
        #[source]
        source: tonic::transport::Error,
    },
}

/// Adds the shared token to every request.
#[derive(Clone)]
pub struct TokenInterceptor {
    header: Option<AsciiMetadataValue>,
}

impl tonic::service::Interceptor for TokenInterceptor {
    fn call(
        &mut self,
        mut request: tonic::Request<()>,
    ) -> Result<tonic::Request<()>, tonic::Status> {
        if let Some(header) = &self.header {
            request
                .metadata_mut()
                .insert(TOKEN_METADATA_KEY, header.clone());
        }
        Ok(request)
    }
}

/// A client of the coordinator service with the token attached.
pub type Client = CoordinatorClient<InterceptedService<Channel, TokenInterceptor>>;

impl ConnectOptions {
    /// The endpoint with TLS configured, checked without touching the network.
    pub fn endpoint(&self) -> Result<Endpoint, ConnectError> {
        let url_error = |reason: &str| ConnectError::Url {
            url: self.url.clone(),
            reason: reason.to_owned(),
        };
        let https = self.url.starts_with("https://");
        if !https && !self.url.starts_with("http://") {
            return Err(url_error("it must start with http:// or https://"));
        }
        let endpoint = Endpoint::from_shared(self.url.clone())
            .map_err(|e| url_error(&e.to_string()))?
            .connect_timeout(Duration::from_secs(5))
            .tcp_nodelay(true)
            .initial_stream_window_size(4 << 20)
            .initial_connection_window_size(16 << 20)
            .http2_keep_alive_interval(Duration::from_secs(10))
            .keep_alive_timeout(Duration::from_secs(20))
            .keep_alive_while_idle(true);
        match (&self.tls_ca, https) {
            (Some(ca), true) => {
                let pem = std::fs::read(ca).map_err(|source| ConnectError::Ca {
                    path: ca.clone(),
                    source,
                })?;
                let mut tls = ClientTlsConfig::new().ca_certificate(Certificate::from_pem(pem));
                if let Some(domain) = &self.tls_domain {
                    tls = tls.domain_name(domain.clone());
                }
                endpoint
                    .tls_config(tls)
                    .map_err(|source| ConnectError::Tls {
                        url: self.url.clone(),
                        source,
                    })
            }
            (Some(_), false) => Err(url_error(
                "--tls-ca is given, so the URL must start with https://",
            )),
            (None, true) => Err(url_error(
                "an https:// URL needs --tls-ca with the certificate authority of the coordinator",
            )),
            (None, false) => Ok(endpoint),
        }
    }

    /// What adds the shared token to the requests of a client built on [`Self::endpoint`].
    pub fn interceptor(&self) -> Result<TokenInterceptor, ConnectError> {
        let header = match &self.token {
            Some(token) => Some(
                AsciiMetadataValue::try_from(format!("Bearer {token}"))
                    .map_err(|_| ConnectError::Token)?,
            ),
            None => None,
        };
        Ok(TokenInterceptor { header })
    }

    /// Connects once; the error of a failed connection is returned for the caller to
    /// decide whether to retry.
    pub async fn connect(&self) -> Result<Client, ClientError> {
        let endpoint = self.endpoint()?;
        let interceptor = self.interceptor()?;
        let channel = endpoint.connect().await.map_err(|source| {
            let reason = error_chain(&source);
            if is_tls_failure(&reason) {
                ClientError::Tls {
                    url: self.url.clone(),
                    reason,
                }
            } else {
                ClientError::Unreachable {
                    url: self.url.clone(),
                    reason,
                }
            }
        })?;
        Ok(CoordinatorClient::with_interceptor(channel, interceptor)
            .max_decoding_message_size(hammer_proto::MAX_MESSAGE_BYTES)
            .max_encoding_message_size(hammer_proto::MAX_MESSAGE_BYTES))
    }
}

/// Errors of talking to a coordinator.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The options are wrong; see [`ConnectError`].
    #[error(transparent)]
    Setup(#[from] ConnectError),
    /// No connection: the coordinator is down, restarting or not at this address.
    #[error("cannot reach the coordinator at {url}: {reason}")]
    Unreachable {
        /// The coordinator's URL.
        url: String,
        /// The connection error, flattened.
        reason: String,
    },
    /// The TLS handshake failed: the coordinator's certificate is not trusted, or one
    /// side does not speak TLS. Retrying cannot fix either.
    #[error(
        "TLS handshake with the coordinator at {url} failed: {reason} (check that --tls-ca is \
         the certificate authority that signed the coordinator's certificate, that the URL's \
         host or --tls-domain is a name in that certificate, and that the coordinator runs \
         with --tls-cert and --tls-key)"
    )]
    Tls {
        /// The coordinator's URL.
        url: String,
        /// The handshake error, flattened.
        reason: String,
    },
    /// The coordinator answered with an error status. The status is described in the
    /// message rather than kept as the source, which would print it a second time.
    #[error("{}", describe_status(.0))]
    Rpc(tonic::Status),
}

impl From<tonic::Status> for ClientError {
    fn from(status: tonic::Status) -> ClientError {
        ClientError::Rpc(status)
    }
}

/// Whether a connection error is a failed TLS handshake (from rustls's messages), as
/// opposed to a coordinator that is down or restarting.
fn is_tls_failure(reason: &str) -> bool {
    [
        "invalid peer certificate",
        "received fatal alert",
        "received corrupt message",
        "peer is incompatible",
        "peer misbehaved",
    ]
    .iter()
    .any(|text| reason.contains(text))
}

/// Whether a status is what a plaintext client gets from a coordinator that serves TLS:
/// the TLS alert the server sends back is not an HTTP/2 frame. (Such a client also sees
/// "transport error" and "operation was canceled" on some attempts, but those are what
/// a restarting coordinator causes too, so only this one ends the retries.)
fn is_plaintext_to_tls(status: &tonic::Status) -> bool {
    status.code() == tonic::Code::Internal && status.message().contains("h2 protocol error")
}

impl ClientError {
    /// An HTTP/2 protocol error: a plaintext client talking to a TLS server, or a
    /// connection broken in the middle of a frame.
    pub fn is_protocol_error(&self) -> bool {
        matches!(self, ClientError::Rpc(status) if is_plaintext_to_tls(status))
    }

    /// The error as a user reads it. `answered` says whether this coordinator has
    /// already answered on this URL (the worker registered): then an HTTP/2 protocol
    /// error is a connection broken mid-frame, and the TLS hint that
    /// [`describe_status`] gives a first connection would mislead.
    pub fn describe(&self, answered: bool) -> String {
        match self {
            ClientError::Rpc(status) if answered && is_plaintext_to_tls(status) => format!(
                "the connection to the coordinator broke: {}",
                status.message()
            ),
            other => error_chain(other),
        }
    }

    /// Whether waiting and trying again may help: the coordinator is down, restarting,
    /// shutting down or overloaded. Everything else (refused token, protocol mismatch,
    /// refused results) needs a person.
    pub fn is_transient(&self) -> bool {
        match self {
            ClientError::Setup(_) | ClientError::Tls { .. } => false,
            ClientError::Unreachable { .. } => true,
            ClientError::Rpc(status) => is_transient_status(status),
        }
    }
}

/// Whether an error status may go away by waiting and trying again; see
/// [`ClientError::is_transient`].
fn is_transient_status(status: &tonic::Status) -> bool {
    use tonic::Code;
    if is_plaintext_to_tls(status) {
        return false;
    }
    matches!(
        status.code(),
        Code::Unavailable
            | Code::Unknown
            | Code::Cancelled
            | Code::DeadlineExceeded
            | Code::Aborted
            | Code::ResourceExhausted
            | Code::Internal
            | Code::NotFound
    )
}

/// A status as a user reads it: the coordinator's message, plus what to do for the
/// cases that need a person.
pub fn describe_status(status: &tonic::Status) -> String {
    use tonic::Code;
    let message = status.message();
    match status.code() {
        Code::Unauthenticated => format!(
            "the coordinator refused this worker's token: {message} (set HAMMER_TOKEN or \
             --token-file to the coordinator's token)"
        ),
        Code::Unavailable if message.is_empty() => "the coordinator is unavailable".to_owned(),
        // What a plain-text client sees when the server speaks TLS.
        Code::Internal if message.contains("h2 protocol error") => format!(
            "the coordinator's answer is not plaintext gRPC: {message} (if the coordinator \
             serves TLS, use an https:// URL and --tls-ca)"
        ),
        code => format!("coordinator answered {code:?}: {message}"),
    }
}
