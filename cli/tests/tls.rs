//! TLS with real processes: a coordinator serving a certificate signed by a throw-away
//! CA (made with the `openssl` command line), a worker that trusts the CA and completes
//! a tiny sweep, and clients that must be refused with an error a person understands:
//! a plaintext client, a worker that trusts another CA, and one given no CA at all.
//! The other side of the plaintext client's hint: a registered worker whose connection
//! breaks mid-frame retries without being told about TLS.
//!
//! The TLS tests are skipped (with a message) when `openssl` is not installed, unless
//! `HAMMER_REQUIRE_OPENSSL=1`.

mod support;

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hammer_dataset::read_dataset;
use hammer_sweep::Sweep;
use support::{Proc, free_port, hammer, last_json, read_checked, spawn_hammer as spawn};

const TINY: &str = r#"
name = "tls-tiny"
seed = 3

[[experiment]]
name = "tiny"
sizes = [4]
games = 40
orders = ["standard"]
schedules = ["exact"]
unit_games = 10
"#;

fn openssl(dir: &Path, args: &[&str]) {
    let output = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run openssl");
    assert!(
        output.status.success(),
        "openssl {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A self-signed CA named `name`: `NAME.pem` and `NAME.key` in `dir`.
fn make_ca(dir: &Path, name: &str) {
    let (pem, key, subject) = (
        format!("{name}.pem"),
        format!("{name}.key"),
        format!("/CN=hammer test {name}"),
    );
    openssl(
        dir,
        &[
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            &key,
            "-out",
            &pem,
            "-days",
            "2",
            "-subj",
            &subject,
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
        ],
    );
}

/// `server.pem` and `server.key`, for `localhost` and 127.0.0.1, signed by CA `ca`.
fn make_server_cert(dir: &Path, ca: &str) {
    std::fs::write(
        dir.join("server.ext"),
        "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n\
         keyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n",
    )
    .expect("write extensions");
    openssl(
        dir,
        &[
            "req",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            "server.key",
            "-out",
            "server.csr",
            "-subj",
            "/CN=localhost",
        ],
    );
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            &format!("{ca}.pem"),
            "-CAkey",
            &format!("{ca}.key"),
            "-CAcreateserial",
            "-out",
            "server.pem",
            "-days",
            "2",
            "-extfile",
            "server.ext",
        ],
    );
}

fn have_openssl() -> bool {
    let found = Command::new("openssl")
        .arg("version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        assert!(
            std::env::var("HAMMER_REQUIRE_OPENSSL").as_deref() != Ok("1"),
            "HAMMER_REQUIRE_OPENSSL=1 but the openssl command is not installed"
        );
        println!("skipped: the openssl command is not installed");
    }
    found
}

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// Makes the CA `ca` and a server certificate signed by it in `d`, writes the `TINY`
/// sweep there, and starts a TLS coordinator for it on a free port with `extra`
/// arguments. Returns the coordinator and its port.
fn tls_coordinator(d: &Path, extra: &[&str]) -> (Proc, u16) {
    make_ca(d, "ca");
    make_server_cert(d, "ca");
    std::fs::write(d.join("sweep.toml"), TINY).expect("write sweep");
    let port = free_port();
    let file = |name: &str| s(&d.join(name)).to_owned();
    let mut args = vec![
        "coordinator".to_owned(),
        "--sweep".to_owned(),
        file("sweep.toml"),
        "--out".to_owned(),
        file("out"),
        "--listen".to_owned(),
        format!("127.0.0.1:{port}"),
        "--tls-cert".to_owned(),
        file("server.pem"),
        "--tls-key".to_owned(),
        file("server.key"),
    ];
    args.extend(extra.iter().map(|a| (*a).to_owned()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    (spawn(d, "coordinator", &refs), port)
}

#[test]
fn tls_coordinator_serves_a_trusting_worker_and_refuses_the_others() {
    if !have_openssl() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    make_ca(d, "other-ca");
    let (mut coordinator, port) = tls_coordinator(d, &["--linger-secs", "3"]);
    let listen = format!("127.0.0.1:{port}");
    let out = d.join("out");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !coordinator.log_text().contains("listening on") {
        assert!(
            Instant::now() < deadline,
            "the coordinator did not start: {}",
            coordinator.log_text()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        coordinator
            .log_text()
            .contains(&format!("https://{listen}")),
        "a TLS coordinator announces an https URL: {}",
        coordinator.log_text()
    );

    let https = format!("https://127.0.0.1:{port}");
    let http = format!("http://127.0.0.1:{port}");
    // Each refused client must fail fast (no retrying for --give-up-after-secs) and say
    // what is wrong.
    let refused = |name: &str, args: &[&str], expected: &[&str]| {
        let started = Instant::now();
        let mut worker = spawn(d, name, args);
        let code = worker.wait(Duration::from_secs(30));
        let log = worker.log_text();
        assert_ne!(code, 0, "{name} must be refused: {log}");
        for text in expected {
            assert!(log.contains(text), "{name}: expected {text:?} in:\n{log}");
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{name} was not refused at once: {log}"
        );
    };
    refused(
        "plaintext",
        &[
            "worker",
            "--coordinator",
            &http,
            "--threads",
            "1",
            "--give-up-after-secs",
            "60",
        ],
        &["TLS", "https://"],
    );
    // `hammer status` makes one attempt; which of the plaintext failures it meets varies
    // ("transport error", "operation was canceled", "h2 protocol error"), so only the
    // refusal is checked.
    refused("plaintext-status", &["status", "--coordinator", &http], &[]);
    refused(
        "untrusting",
        &[
            "worker",
            "--coordinator",
            &https,
            "--tls-ca",
            s(&d.join("other-ca.pem")),
            "--tls-domain",
            "localhost",
            "--threads",
            "1",
            "--give-up-after-secs",
            "60",
        ],
        &["certificate", "--tls-ca"],
    );
    refused(
        "no-ca",
        &["worker", "--coordinator", &https, "--threads", "1"],
        &["needs --tls-ca"],
    );
    assert!(
        !out.exists() || read_dataset(&out).map_or(true, |rows| rows.is_empty()),
        "nothing is written for refused clients"
    );

    // Trusting the CA, by IP address with --tls-domain, then `hammer status` by name.
    let mut worker = spawn(
        d,
        "worker",
        &[
            "worker",
            "--coordinator",
            &https,
            "--tls-ca",
            s(&d.join("ca.pem")),
            "--tls-domain",
            "localhost",
            "--threads",
            "1",
            "--name",
            "tls-worker",
        ],
    );
    worker.wait_ok(Duration::from_secs(120));
    coordinator.wait_ok(Duration::from_secs(60));
    let sweep = Sweep::parse(TINY, "test").expect("sweep parses");
    let rows = read_checked(&out, &sweep);
    assert!(rows.iter().all(|r| r.worker.starts_with("tls-worker")));
}

#[test]
fn tls_status_works_by_ip_address() {
    if !have_openssl() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    let (_coordinator, port) = tls_coordinator(d, &[]);
    let url = format!("https://127.0.0.1:{port}");
    let ca = d.join("ca.pem");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let output = hammer(&["status", "--coordinator", &url, "--tls-ca", s(&ca)]);
        let stdout = String::from_utf8_lossy(&output.stdout);
        if output.status.success() {
            assert!(stdout.contains("sweep tls-tiny"), "{stdout}");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "hammer status over TLS failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The worker's end of the first connection through [`BreakingProxy`], once made.
type FirstConnection = Arc<Mutex<Option<Arc<Mutex<TcpStream>>>>>;

/// A TCP proxy to a plaintext coordinator that passes the coordinator's HTTP/2 frames
/// whole, so that [`BreakingProxy::break_first`] can put a frame between two of them.
struct BreakingProxy {
    port: u16,
    first: FirstConnection,
}

impl BreakingProxy {
    fn start(coordinator_port: u16) -> BreakingProxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("proxy port");
        let port = listener.local_addr().expect("proxy address").port();
        let first: FirstConnection = Arc::default();
        let slot = first.clone();
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { return };
                let Ok(server) = TcpStream::connect(("127.0.0.1", coordinator_port)) else {
                    continue;
                };
                let (Ok(mut from_client), Ok(mut to_server)) =
                    (client.try_clone(), server.try_clone())
                else {
                    continue;
                };
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut from_client, &mut to_server);
                    let _ = to_server.shutdown(Shutdown::Write);
                });
                let to_client = Arc::new(Mutex::new(client));
                slot.lock()
                    .unwrap()
                    .get_or_insert_with(|| to_client.clone());
                std::thread::spawn(move || forward_frames(server, &to_client));
            }
        });
        BreakingProxy { port, first }
    }

    /// Writes a DATA frame on stream 0, which HTTP/2 forbids, to the worker on the first
    /// connection: its HTTP/2 client fails the connection with a protocol error, as on a
    /// connection a coordinator dropped while the worker was paused.
    fn break_first(&self) -> bool {
        let Some(to_client) = self.first.lock().unwrap().clone() else {
            return false;
        };
        let mut stream = to_client.lock().unwrap();
        stream.write_all(&[0, 0, 0, 0, 0, 0, 0, 0, 0]).is_ok()
    }
}

/// Copies HTTP/2 frames (a 9-byte header, then as many bytes as the header's length says)
/// from the coordinator to the worker, each frame under the lock.
fn forward_frames(mut from: TcpStream, to: &Mutex<TcpStream>) {
    let mut header = [0u8; 9];
    let mut payload = Vec::new();
    while from.read_exact(&mut header).is_ok() {
        let len =
            usize::from(header[0]) << 16 | usize::from(header[1]) << 8 | usize::from(header[2]);
        payload.resize(len, 0);
        if from.read_exact(&mut payload).is_err() {
            break;
        }
        let mut to = to.lock().unwrap();
        if to.write_all(&header).is_err() || to.write_all(&payload).is_err() {
            break;
        }
    }
    let _ = to.lock().unwrap().shutdown(Shutdown::Both);
}

/// A registered worker whose connection breaks mid-frame reconnects, and its retry log
/// says the connection broke: the hint for a plaintext URL to a TLS coordinator belongs
/// to a first connection only.
#[test]
fn a_registered_worker_whose_connection_breaks_retries_without_the_tls_hint() {
    const SWEEP: &str = r#"
name = "broken-connection"
seed = 8

[[experiment]]
name = "six"
sizes = [6]
games = 300
orders = ["standard"]
schedules = ["exact"]
unit_games = 100
"#;
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::write(d.join("sweep.toml"), SWEEP).expect("write sweep");
    let port = free_port();
    let out = d.join("out");
    let mut coordinator = support::coordinator(
        d,
        "coordinator",
        &d.join("sweep.toml"),
        &out,
        port,
        &["--linger-secs", "3"],
    );
    let proxy = BreakingProxy::start(port);
    let mut worker = support::worker(d, "worker", proxy.port, &["--threads", "1"]);
    let deadline = Instant::now() + Duration::from_secs(60);
    while !worker.log_text().contains("registered") {
        assert!(
            Instant::now() < deadline,
            "the worker did not register: {}",
            worker.log_text()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Into the first unit, with its results stream open.
    std::thread::sleep(Duration::from_millis(300));
    assert!(proxy.break_first(), "the first connection is gone");
    worker.wait_ok(Duration::from_secs(120));
    coordinator.wait_ok(Duration::from_secs(60));
    let log = worker.log_text();
    assert!(
        log.contains("retrying") && log.contains("h2 protocol error"),
        "the worker met no protocol error:\n{log}"
    );
    assert!(
        log.contains("the connection to the coordinator broke") && !log.contains("https://"),
        "a broken connection is not a TLS problem:\n{log}"
    );
    let sweep = Sweep::parse(SWEEP, "test").expect("sweep parses");
    assert_eq!(read_checked(&out, &sweep).len(), 300);
}

/// A gang of two `hammer solve --peers` members over TLS: with certificates the CA signed
/// they solve the game; a member that trusts another CA does not form the gang, and both
/// exit non-zero with a message.
#[test]
fn a_gang_over_tls_solves_and_a_member_trusting_another_ca_is_left_out() {
    if !have_openssl() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    make_ca(d, "ca");
    make_ca(d, "other-ca");
    make_server_cert(d, "ca");
    let file = |name: &str| s(&d.join(name)).to_owned();
    let member = |rank: usize, peers: &str, ca: &str, name: &str| {
        let args: Vec<String> = [
            "solve",
            "--json",
            "--random",
            "--n",
            "6",
            "--index",
            "7",
            "--peers",
            peers,
            "--rank",
            &rank.to_string(),
            "--peer-wait",
            "5",
            "--peer-tls-cert",
            &file("server.pem"),
            "--peer-tls-key",
            &file("server.key"),
            "--peer-tls-ca",
            &file(ca),
        ]
        .iter()
        .map(|a| a.to_string())
        .collect();
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        spawn(d, name, &refs)
    };
    let peers = format!("127.0.0.1:{},127.0.0.1:{}", free_port(), free_port());
    let mut a = member(0, &peers, "ca.pem", "good0");
    let mut b = member(1, &peers, "ca.pem", "good1");
    a.wait_ok(Duration::from_secs(60));
    b.wait_ok(Duration::from_secs(60));
    assert_eq!(last_json(&a)["score"], 24);
    assert_eq!(last_json(&b)["score"], 24);

    let peers = format!("127.0.0.1:{},127.0.0.1:{}", free_port(), free_port());
    let mut a = member(0, &peers, "ca.pem", "mixed0");
    let mut b = member(1, &peers, "other-ca.pem", "mixed1");
    assert_ne!(a.wait(Duration::from_secs(60)), 0);
    assert_ne!(b.wait(Duration::from_secs(60)), 0);
    assert!(
        b.log_text().contains("did not answer within 5 s"),
        "{}",
        b.log_text()
    );
    assert!(!a.log_text().contains("panicked") && !b.log_text().contains("panicked"));
}

/// Games searched by gangs (`gang = K`) of TLS workers.
const GANG: &str = r#"
name = "tls-gang"
seed = 2013

[[experiment]]
name = "shared"
sizes = [6]
games = 3
gang = 2
"#;

/// A gang sweep with TLS everywhere: two workers reach a TLS coordinator and one another
/// (`--peer-tls-cert`, `--peer-tls-key`, the CA of `--tls-ca`) and write every game
/// once, each searched by their gang.
#[test]
fn gangs_of_tls_workers_reach_one_another_over_tls() {
    if !have_openssl() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    make_ca(d, "ca");
    make_server_cert(d, "ca");
    std::fs::write(d.join("gang.toml"), GANG).expect("write sweep");
    let port = free_port();
    let file = |name: &str| s(&d.join(name)).to_owned();
    let listen = format!("127.0.0.1:{port}");
    let mut coordinator = spawn(
        d,
        "coordinator",
        &[
            "coordinator",
            "--sweep",
            &file("gang.toml"),
            "--out",
            &file("out"),
            "--listen",
            &listen,
            "--tls-cert",
            &file("server.pem"),
            "--tls-key",
            &file("server.key"),
            "--linger-secs",
            "2",
        ],
    );
    let https = format!("https://127.0.0.1:{port}");
    let mut workers: Vec<Proc> = (0..2)
        .map(|i| {
            let peer = format!("127.0.0.1:{}", free_port());
            spawn(
                d,
                &format!("worker{i}"),
                &[
                    "worker",
                    "--coordinator",
                    &https,
                    "--tls-ca",
                    &file("ca.pem"),
                    "--threads",
                    "1",
                    "--give-up-after-secs",
                    "60",
                    "--peer-listen",
                    &peer,
                    "--peer-tls-cert",
                    &file("server.pem"),
                    "--peer-tls-key",
                    &file("server.key"),
                ],
            )
        })
        .collect();
    for worker in &mut workers {
        worker.wait_ok(Duration::from_secs(120));
    }
    coordinator.wait_ok(Duration::from_secs(60));
    let sweep = Sweep::parse(GANG, "gang.toml").expect("sweep parses");
    let rows = read_checked(&d.join("out"), &sweep);
    assert!(
        rows.iter().all(|r| r.gang_size == Some(2) && r.exhaustive),
        "{rows:?}"
    );
    assert!(workers[0].log_text().contains("members formed"));
}
