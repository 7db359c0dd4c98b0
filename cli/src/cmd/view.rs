//! `hammer view`: serve the web viewer of a dataset and, optionally, a running sweep.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::Args;
use hammer_proto::v1::{ListSweepsRequest, StatusRequest, StatusResponse, SweepInfo};
use hammer_viewer::{Answer, Coordinator, CoordinatorSource, DEFAULT_HINT_BUDGET, Options};
use hammer_worker::{Client, ConnectOptions};

use crate::args::TokenArgs;
use crate::dataset_arg::DatasetArg;
use crate::runtime::{runtime, stop_signal};

#[derive(Args)]
pub struct ViewArgs {
    /// The dataset to browse (a directory of experiment=NAME/n=N/part-ID.parquet, or an
    /// object store URL, copied once at start). Without it the page still plays pasted
    /// boards and watches --coordinator.
    #[arg(value_name = "DIR|URL")]
    dataset: Option<String>,
    /// Address to listen on, IP:PORT; port 0 picks a free one (the URL printed says
    /// which). Any address other than loopback needs a token: the one in --token-file,
    /// or a random one printed in the URL.
    #[arg(long, value_name = "ADDR:PORT", default_value = DEFAULT_LISTEN,
          conflicts_with_all = ["addr", "port"])]
    listen: SocketAddr,
    /// The IP part of --listen alone, for command lines written before --listen (the
    /// port stays the default unless --port gives it).
    #[arg(long, hide = true, value_name = "IP")]
    addr: Option<IpAddr>,
    /// The port part of --listen alone, for command lines written before --listen.
    #[arg(long, hide = true, value_name = "PORT")]
    port: Option<u16>,
    /// File holding the token every request must carry (as `?token=` in the first URL,
    /// then a cookie). Required in spirit for any address other than loopback.
    #[arg(long)]
    token_file: Option<PathBuf>,
    /// A running coordinator to watch on the Live page, such as http://10.0.0.5:7070.
    #[arg(long)]
    coordinator: Option<String>,
    /// The coordinator's token file (else HAMMER_TOKEN), as for `hammer status`.
    #[arg(long, requires = "coordinator")]
    coordinator_token_file: Option<PathBuf>,
    /// PEM certificate of the authority that signed the coordinator's TLS certificate.
    #[arg(long, requires = "coordinator")]
    tls_ca: Option<PathBuf>,
    /// Host name to verify the coordinator's certificate against.
    #[arg(long, requires = "tls_ca")]
    tls_domain: Option<String>,
    /// Expansions each hint's search may use before it answers "at most".
    #[arg(long, default_value_t = DEFAULT_HINT_BUDGET)]
    hint_budget: u64,
}

/// Where `hammer view` listens unless told otherwise: loopback only, so that the page
/// needs no token.
const DEFAULT_LISTEN: &str = "127.0.0.1:7080";

impl ViewArgs {
    /// The address to listen on: --listen, with the hidden --addr or --port in place of
    /// its parts. Clap refuses --listen together with either, so when they are given,
    /// `listen` holds the default.
    fn listen(&self) -> SocketAddr {
        SocketAddr::new(
            self.addr.unwrap_or(self.listen.ip()),
            self.port.unwrap_or(self.listen.port()),
        )
    }
}

/// A token for a non-loopback address when the user gave none: 128 bits from the OS.
fn random_token() -> Result<String> {
    let mut bytes = [0u8; 16];
    std::io::Read::read_exact(
        &mut std::fs::File::open("/dev/urandom").context("cannot open /dev/urandom")?,
        &mut bytes,
    )
    .context("cannot read /dev/urandom")?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Asks the coordinator for its queue and its sweeps' status, keeping one connection and
/// making a new one after a failure.
struct Watched {
    options: Arc<ConnectOptions>,
    client: Arc<tokio::sync::Mutex<Option<Client>>>,
}

impl Watched {
    fn new(options: ConnectOptions) -> Watched {
        Watched {
            options: Arc::new(options),
            client: Arc::default(),
        }
    }

    /// Runs `call` on the connection, connecting first when there is none. A call that
    /// fails for the connection's sake (unavailable, unknown, internal) drops it, so the
    /// next one starts afresh; a refusal (an unknown sweep, a token's role) keeps it.
    fn with_client<T, F, Fut>(&self, call: F) -> Answer<T>
    where
        T: Send + 'static,
        F: FnOnce(Client) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = Result<T, tonic::Status>> + Send,
    {
        let (client, options) = (self.client.clone(), self.options.clone());
        Box::pin(async move {
            let mut guard = client.lock().await;
            if guard.is_none() {
                *guard = Some(
                    options
                        .connect()
                        .await
                        .map_err(|e| hammer_proto::error_chain(&e))?,
                );
            }
            let Some(c) = guard.as_ref() else {
                return Err("no connection".to_owned());
            };
            match call(c.clone()).await {
                Ok(answer) => Ok(answer),
                Err(status) => {
                    if matches!(
                        status.code(),
                        tonic::Code::Unavailable | tonic::Code::Unknown | tonic::Code::Internal
                    ) {
                        *guard = None;
                    }
                    Err(hammer_worker::describe_status(&status))
                }
            }
        })
    }
}

impl Coordinator for Watched {
    fn sweeps(&self) -> Answer<Vec<SweepInfo>> {
        self.with_client(|mut c| async move {
            Ok(c.list_sweeps(ListSweepsRequest {})
                .await?
                .into_inner()
                .sweeps)
        })
    }

    fn status(&self, sweep: &str) -> Answer<StatusResponse> {
        let sweep = sweep.to_owned();
        self.with_client(|mut c| async move {
            Ok(c.status(StatusRequest { sweep }).await?.into_inner())
        })
    }
}

pub fn view(args: ViewArgs) -> Result<ExitCode> {
    // Kept until the server stops: a URL's copy is removed with it.
    let dataset = args.dataset.as_deref().map(DatasetArg::open).transpose()?;
    if let Some(dir) = dataset.as_ref().map(DatasetArg::dir)
        && !dir.is_dir()
    {
        bail!(
            "{} is not a dataset directory: {}",
            dir.display(),
            if dir.exists() {
                "it is a file"
            } else {
                "it does not exist"
            }
        );
    }
    let addr = args.listen();
    let token = match &args.token_file {
        Some(path) => {
            // Read and checked as the coordinator's token file is; the page's URL carries
            // it, so it must also need no escaping there.
            let token = TokenArgs::from_file(Some(path.clone()))
                .token()?
                .unwrap_or_default();
            if token.is_empty()
                || !token
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_.~".contains(&b))
            {
                bail!(
                    "the token file {} must hold one token of letters, digits and -_.~",
                    path.display()
                );
            }
            Some(token)
        }
        None if !addr.ip().is_loopback() => Some(random_token()?),
        None => None,
    };
    let coordinator = match &args.coordinator {
        Some(url) => {
            let options = ConnectOptions {
                url: url.clone(),
                token: TokenArgs::from_file(args.coordinator_token_file.clone()).token()?,
                tls_ca: args.tls_ca.clone(),
                tls_domain: args.tls_domain.clone(),
            };
            options
                .endpoint()
                .with_context(|| format!("--coordinator {url}"))?;
            Some((
                url.clone(),
                Arc::new(Watched::new(options)) as CoordinatorSource,
            ))
        }
        None => None,
    };
    let options = Options {
        dataset: dataset.as_ref().map(|d| d.dir().to_owned()),
        coordinator,
        token: token.clone(),
        hint_budget: args.hint_budget,
    };
    runtime()?.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let local = listener
            .local_addr()
            .context("cannot read the bound address")?;
        let host = match local.ip() {
            IpAddr::V6(ip) => format!("[{ip}]"),
            IpAddr::V4(ip) => ip.to_string(),
        };
        let query = token.map(|t| format!("?token={t}")).unwrap_or_default();
        println!("hammer view: http://{host}:{}/{query}", local.port());
        let shutdown = async {
            let signal = stop_signal().await;
            eprintln!("{signal}: stopping");
        };
        hammer_viewer::serve(listener, options, shutdown)
            .await
            .context("the web server stopped")?;
        Ok(ExitCode::SUCCESS)
    })
}
