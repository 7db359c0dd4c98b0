//! The coordinator's Prometheus endpoint and `hammer health`, scraped from real
//! processes over loopback: before any worker, while a worker runs, after a worker is
//! killed (its lease must be counted as expired), and after the sweep completes.

mod support;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hammer_sweep::Sweep;
use support::{HAMMER, Proc, free_port, http, read_checked, s};

/// 6x6 games (about 10 ms each), so that a unit takes around half a second and a worker
/// can be killed in the middle of one.
const SWEEP: &str = r#"
name = "metrics"
seed = 7

[[experiment]]
name = "six"
sizes = [6]
games = 300
orders = ["standard"]
schedules = ["exact"]
unit_games = 50
"#;

/// One scrape, as `name{labels}` → value. Also checks the format line by line: every
/// sample belongs to a metric announced by `# TYPE`.
fn scrape(addr: SocketAddr) -> BTreeMap<String, f64> {
    let response = http("GET", addr, "/metrics").expect("GET /metrics");
    let body = &response.body;
    assert_eq!(response.code, 200, "{body}");
    let content_type = response.header("content-type").unwrap_or_default();
    assert!(
        content_type.starts_with("text/plain; version=0.0.4"),
        "content type {content_type:?}"
    );
    let mut typed: Vec<String> = Vec::new();
    let mut samples = BTreeMap::new();
    for line in body.lines() {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let mut parts = rest.split(' ');
            let name = parts.next().unwrap_or_default().to_owned();
            let kind = parts.next().unwrap_or_default();
            assert!(
                ["counter", "gauge", "histogram"].contains(&kind),
                "type of {name}: {kind}"
            );
            typed.push(name);
            continue;
        }
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let (series, value) = line.rsplit_once(' ').expect("sample line: series value");
        let value: f64 = value
            .parse()
            .unwrap_or_else(|_| panic!("bad value in {line:?}"));
        let name = series.split('{').next().unwrap_or_default();
        assert!(
            typed.iter().any(|t| name == t
                || name
                    .strip_prefix(t.as_str())
                    .is_some_and(|rest| ["_bucket", "_sum", "_count"].contains(&rest))),
            "sample {name} without a # TYPE line"
        );
        assert!(
            samples.insert(series.to_owned(), value).is_none(),
            "{series} twice"
        );
    }
    samples
}

fn get(samples: &BTreeMap<String, f64>, series: &str) -> f64 {
    *samples
        .get(series)
        .unwrap_or_else(|| panic!("{series} missing; have {:?}", samples.keys()))
}

fn poll(addr: SocketAddr, what: &str, pred: impl Fn(&BTreeMap<String, f64>) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if http("GET", addr, "/metrics").is_ok() {
            let samples = scrape(addr);
            if pred(&samples) {
                return;
            }
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn health(port: u16) -> (i32, String) {
    let output = Command::new(HAMMER)
        .args([
            "health",
            "--coordinator",
            &format!("http://127.0.0.1:{port}"),
            "--timeout-secs",
            "5",
        ])
        .env_remove("HAMMER_TOKEN")
        .stdin(Stdio::null())
        .output()
        .expect("run hammer health");
    (
        output.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    )
}

#[test]
fn metrics_count_units_results_workers_expiries_and_write_latency() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sweep_path = dir.path().join("sweep.toml");
    std::fs::write(&sweep_path, SWEEP).expect("write sweep");
    let sweep = Sweep::parse(SWEEP, "test").expect("sweep parses");
    let units = sweep.units().len() as f64;
    let games = sweep.total_games() as f64;
    let out = dir.path().join("out");
    let port = free_port();
    let metrics_port = free_port();
    let metrics: SocketAddr = ([127, 0, 0, 1], metrics_port).into();
    let metrics_flag = metrics.to_string();
    let mut coordinator = support::coordinator(
        dir.path(),
        "coordinator",
        &sweep_path,
        &out,
        port,
        &[
            "--metrics",
            &metrics_flag,
            "--lease-secs",
            "2",
            "--heartbeat-secs",
            "0.5",
            "--stay-after-complete",
        ],
    );
    let worker = |name: &str| support::worker(dir.path(), name, port, &["--threads", "1"]);

    // Before any worker: everything pending, nothing received.
    poll(metrics, "the metrics endpoint", |_| true);
    let first = scrape(metrics);
    assert_eq!(get(&first, "hammer_sweep_units"), units);
    assert_eq!(get(&first, "hammer_units{state=\"pending\"}"), units);
    assert_eq!(get(&first, "hammer_units{state=\"committed\"}"), 0.0);
    assert_eq!(get(&first, "hammer_sweep_games"), games);
    assert_eq!(get(&first, "hammer_results_total"), 0.0);
    assert_eq!(get(&first, "hammer_workers_alive"), 0.0);
    assert_eq!(get(&first, "hammer_sweep_complete"), 0.0);
    assert_eq!(get(&first, "hammer_unit_write_seconds_count"), 0.0);
    assert_eq!(
        get(
            &first,
            &format!(
                "hammer_sweep_info{{sweep=\"metrics\",digest=\"{}\"}}",
                sweep.digest
            )
        ),
        1.0
    );
    let (code, text) = health(port);
    assert_eq!(code, 0, "hammer health while serving: {text}");
    assert_eq!(text.trim(), "SERVING");
    // Anything but /metrics is a 404, and only GET and HEAD are served.
    assert_eq!(http("GET", metrics, "/").expect("GET /").code, 404);
    assert_eq!(http("POST", metrics, "/metrics").expect("POST").code, 405);
    let head = http("HEAD", metrics, "/metrics").expect("HEAD");
    assert_eq!((head.code, head.body.as_str()), (200, ""));

    // A worker at work: alive, leasing, sending results.
    let mut victim = worker("victim");
    poll(metrics, "a worker with results in flight", |m| {
        get(m, "hammer_workers_alive") == 1.0
            && get(m, "hammer_units{state=\"leased\"}") == 1.0
            && get(m, "hammer_results_total") > 0.0
            && get(m, "hammer_games{state=\"pending\"}") > 0.0
    });
    // Killed mid-unit: nobody renews its lease, which lapses after --lease-secs.
    victim.kill9();
    poll(metrics, "the victim's lease to expire", |m| {
        get(m, "hammer_lease_expiries_total") >= 1.0
            && get(m, "hammer_units{state=\"leased\"}") == 0.0
    });

    let mut survivor = worker("survivor");
    survivor.wait_ok(Duration::from_secs(120));
    // The coordinator stays up (--stay-after-complete), so the final state is scraped.
    poll(metrics, "completion", |m| {
        get(m, "hammer_sweep_complete") == 1.0
    });
    let last = scrape(metrics);
    assert_eq!(get(&last, "hammer_units{state=\"committed\"}"), units);
    assert_eq!(get(&last, "hammer_units{state=\"leased\"}"), 0.0);
    assert_eq!(get(&last, "hammer_units{state=\"pending\"}"), 0.0);
    assert_eq!(get(&last, "hammer_games{state=\"committed\"}"), games);
    assert_eq!(get(&last, "hammer_games{state=\"pending\"}"), 0.0);
    // Every key accepted once: the victim's results of its unfinished unit were kept,
    // and the survivor's copies of them counted as duplicates.
    assert_eq!(get(&last, "hammer_results_total"), games);
    assert!(get(&last, "hammer_duplicate_results_total") >= 0.0);
    assert_eq!(get(&last, "hammer_refused_results_total"), 0.0);
    assert_eq!(
        get(&last, "hammer_workers_alive"),
        0.0,
        "the survivor was told complete"
    );
    assert!(get(&last, "hammer_lease_expiries_total") >= 1.0);
    let rate = get(&last, "hammer_results_per_second");
    assert!(rate.is_finite() && rate >= 0.0, "rate {rate}");
    assert!(get(&last, "hammer_uptime_seconds") > 0.0);
    // Write latency: one observation per unit, a plausible sum, cumulative buckets.
    assert_eq!(get(&last, "hammer_unit_write_seconds_count"), units);
    assert_eq!(
        get(&last, "hammer_unit_write_seconds_bucket{le=\"+Inf\"}"),
        units
    );
    let sum = get(&last, "hammer_unit_write_seconds_sum");
    assert!(sum > 0.0 && sum < 60.0 * units, "write seconds {sum}");
    let mut buckets: Vec<(f64, f64)> = last
        .iter()
        .filter(|(k, _)| k.starts_with("hammer_unit_write_seconds_bucket"))
        .map(|(k, &v)| {
            let le = k
                .split("le=\"")
                .nth(1)
                .and_then(|r| r.strip_suffix("\"}"))
                .expect("le label");
            let bound = if le == "+Inf" {
                f64::INFINITY
            } else {
                le.parse().expect("numeric le")
            };
            (bound, v)
        })
        .collect();
    buckets.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert_eq!(buckets.len(), 14, "13 bounds and +Inf");
    assert!(buckets.windows(2).all(|w| w[0].1 <= w[1].1), "{buckets:?}");
    eprintln!(
        "write latency: {units} units, mean {:.1} ms; duplicates {}",
        sum / units * 1e3,
        get(&last, "hammer_duplicate_results_total")
    );

    // SIGTERM stops a coordinator that stays after completion, with exit code 0; then
    // the health check fails.
    coordinator.sigterm();
    coordinator.wait_ok(Duration::from_secs(30));
    let (code, text) = health(port);
    assert_eq!(code, 1, "hammer health without a coordinator: {text}");
    assert!(text.contains("cannot reach"), "{text}");
    read_checked(&out, &sweep);
}

/// `hammer run --metrics` serves the same endpoint while the one-process run lasts.
#[test]
fn hammer_run_serves_metrics_while_it_runs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sweep_path = dir.path().join("sweep.toml");
    std::fs::write(&sweep_path, SWEEP).expect("write sweep");
    let out = dir.path().join("out");
    // Port 0: `hammer run` binds a free port itself and prints it, so no other test's
    // connection can take the port between choosing it and binding it.
    let mut run = Proc::spawn(
        "hammer run",
        HAMMER,
        &[
            s(&["run"]),
            vec![sweep_path.display().to_string()],
            s(&["--out"]),
            vec![out.display().to_string()],
            s(&["--threads", "1", "--metrics", "127.0.0.1:0"]),
        ]
        .concat(),
        &[],
        dir.path().join("run.log"),
    );
    // The endpoint is up before the worker starts, and the run takes seconds.
    let deadline = Instant::now() + Duration::from_secs(30);
    let bound = |log: &str| -> Option<SocketAddr> {
        let rest = log.split("metrics at http://").nth(1)?;
        rest.split('/').next()?.parse().ok()
    };
    let (metrics, samples) = loop {
        if let Some(metrics) = bound(&run.log_text())
            && http("GET", metrics, "/metrics").is_ok()
        {
            break (metrics, scrape(metrics));
        }
        assert!(Instant::now() < deadline, "no metrics: {}", run.log_text());
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(
        get(&samples, "hammer_sweep_games"),
        Sweep::parse(SWEEP, "test").expect("sweep").total_games() as f64
    );
    run.wait_ok(Duration::from_secs(120));
    assert!(
        run.log_text()
            .contains(&format!("metrics at http://{metrics}/metrics"))
    );
}
