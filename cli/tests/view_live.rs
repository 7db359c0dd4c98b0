//! The Live page of `hammer view` in a real browser (see `support/browser.rs`), watching
//! real coordinators: one of a single sweep, and a standing one with a queue of sweeps
//! submitted with `hammer submit`.

mod support;

use std::time::{Duration, Instant};

use support::browser::{browser, click, driver, js, shot, until};
use support::view::{addr_of, start_view};
use support::{HAMMER, Proc, free_port, hammer, http, ok, s};

/// A coordinator on a free loopback port with short leases, and its URL; `flags` say
/// what it serves.
fn coordinator(dir: &std::path::Path, flags: &[&str]) -> (Proc, String) {
    let listen = format!("127.0.0.1:{}", free_port());
    let mut args = vec![
        "coordinator",
        "--listen",
        &listen,
        "--lease-secs",
        "4",
        "--heartbeat-secs",
        "1",
    ];
    args.extend_from_slice(flags);
    let proc = Proc::spawn(
        "coordinator",
        HAMMER,
        &s(&args),
        &[],
        dir.join("coordinator.log"),
    );
    (proc, format!("http://{listen}"))
}

/// A long game first (one 8x8 game searched for up to 30 s, leased to the first worker
/// that asks), then many short ones that make progress for the second worker.
const LIVE_SWEEP: &str = r#"
name = "livetest"
seed = 5

[[experiment]]
name = "long"
sizes = [8]
games = 1
orders = ["standard"]
schedules = ["exact"]
max_seconds = 30

[[experiment]]
name = "frontier"
sizes = [6]
games = 1500
unit_games = 20
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_page_follows_a_running_coordinator() {
    let Some((chromium, chromedriver)) = browser() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let sweep = dir.path().join("live.toml");
    std::fs::write(&sweep, LIVE_SWEEP).unwrap();
    let (mut coordinator, coordinator_url) = coordinator(
        dir.path(),
        &[
            "--sweep",
            sweep.to_str().unwrap(),
            "--out",
            dir.path().join("out").to_str().unwrap(),
            "--state",
            dir.path().join("state").to_str().unwrap(),
        ],
    );
    let (_view, url) = start_view(dir.path(), "view", &["--coordinator", &coordinator_url]);
    let d = driver(dir.path(), &chromium, &chromedriver).await;
    let c = &d.client;
    c.goto(&format!("{url}#/live")).await.unwrap();
    until(
        c,
        "the live page",
        "document.querySelector('#live-committed')",
    )
    .await;
    let _workers: Vec<Proc> = ["first", "second"]
        .iter()
        .map(|name| {
            let log = dir.path().join(format!("worker-{name}.log"));
            let args = [
                "worker",
                "--coordinator",
                &coordinator_url,
                "--threads",
                "1",
            ];
            Proc::spawn("worker", HAMMER, &s(&args), &[], log)
        })
        .collect();
    // Progress shows up and grows, without reloading the page.
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    while seen.len() < 3 {
        let v = js(c, "Number((document.querySelector('#live-committed') || {dataset: {}}).dataset.value || 0)").await;
        let v = v.as_i64().unwrap();
        if v > *seen.last().unwrap_or(&0) {
            seen.push(v);
        }
        assert!(Instant::now() < deadline, "progress did not grow: {seen:?}");
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    until(
        c,
        "a worker row",
        "document.querySelectorAll('#live-worker-list tr.worker').length",
    )
    .await;
    // The long game's unit shows the expansions its worker reported while it runs.
    let script = "(Array.from(document.querySelectorAll('#live-worker-list .unit')) \
                  .find(u => Number(u.dataset.expansions) > 0) || {}).textContent";
    let unit = until(c, "a unit with its expansions", script).await;
    assert!(
        unit.as_str().unwrap().contains("expansions, grew"),
        "{unit}"
    );
    until(
        c,
        "figure 8 intervals",
        "document.querySelectorAll('#figure8 line.interval').length",
    )
    .await;
    shot(c, "live").await;

    // The coordinator goes away: the page says so, and the viewer keeps serving.
    coordinator.kill9();
    let error = until(c, "the lost-coordinator message", "document.querySelector('#live-error') && document.querySelector('#live-error').textContent").await;
    assert!(
        error
            .as_str()
            .unwrap()
            .contains("cannot reach the coordinator"),
        "{error}"
    );
    let meta = http("GET", addr_of(&url), "/api/meta").unwrap();
    assert_eq!(meta.code, 200, "{}", meta.body);
    d.client.close().await.unwrap();
}

/// A Martello sweep of `games` 5x5 games, in units of 20.
fn small_sweep(name: &str, seed: u64, games: u64) -> String {
    format!(
        "name = \"{name}\"\nseed = {seed}\n\n[[experiment]]\nname = \"exact\"\nsizes = [5]\ngames = {games}\nunit_games = 20\n"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_page_lists_a_standing_queue_and_follows_any_sweep() {
    let Some((chromium, chromedriver)) = browser() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let (_coordinator, coordinator_url) =
        coordinator(dir.path(), &["--out", root.to_str().unwrap()]);
    let (_view, url) = start_view(dir.path(), "view", &["--coordinator", &coordinator_url]);
    let d = driver(dir.path(), &chromium, &chromedriver).await;
    let c = &d.client;
    c.goto(&format!("{url}#/live")).await.unwrap();
    // Nothing submitted yet: the page says how to submit.
    let empty = until(c, "the empty queue", "document.querySelector('#live-empty') && document.querySelector('#live-empty').textContent").await;
    assert!(empty.as_str().unwrap().contains("hammer submit"), "{empty}");

    for (name, seed, games, priority) in [("first", 1, 600, "0"), ("second", 2, 300, "1")] {
        let file = dir.path().join(format!("{name}.toml"));
        std::fs::write(&file, small_sweep(name, seed, games)).unwrap();
        let out = ok(&hammer(&[
            "submit",
            file.to_str().unwrap(),
            "--priority",
            priority,
            "--coordinator",
            &coordinator_url,
        ]));
        assert!(out.contains(name), "{out}");
    }
    until(
        c,
        "both sweeps listed",
        "document.querySelectorAll('#live-queue tr.sweep').length === 2",
    )
    .await;
    let worker = Proc::spawn(
        "worker",
        HAMMER,
        &s(&[
            "worker",
            "--coordinator",
            &coordinator_url,
            "--threads",
            "1",
        ]),
        &[],
        dir.path().join("worker.log"),
    );

    // Follow the first sweep by its link; the page shows that one, and marks its row.
    click(c, "#live-queue tr.sweep[data-name=\"first\"] a").await;
    until(
        c,
        "the first sweep followed",
        "document.querySelector('#live-sweep').dataset.name === 'first' \
         && document.querySelector('#live-queue tr.followed').dataset.name === 'first'",
    )
    .await;
    // Both complete; the followed one shows its own total, the queue both states.
    until(
        c,
        "both sweeps complete",
        "Array.from(document.querySelectorAll('#live-queue tr.sweep')).every(r => r.dataset.state === 'complete')",
    )
    .await;
    let committed = until(
        c,
        "the first sweep's games",
        "Number(document.querySelector('#live-committed').dataset.value) === 600 && 600",
    )
    .await;
    assert_eq!(committed.as_i64(), Some(600));
    shot(c, "live-queue").await;
    drop(worker);

    // The other sweep, by its link.
    click(c, "#live-queue tr.sweep[data-name=\"second\"] a").await;
    let committed = until(
        c,
        "the second sweep followed",
        "document.querySelector('#live-sweep').dataset.name === 'second' \
         && Number(document.querySelector('#live-committed').dataset.value)",
    )
    .await;
    assert_eq!(committed.as_i64(), Some(300));

    // An unknown name: the queue stays listed and the page names the problem.
    c.goto(&format!("{url}#/live?sweep=nosuch")).await.unwrap();
    let error = until(c, "the unknown-sweep message", "document.querySelector('#live-follow-error') && document.querySelector('#live-follow-error').textContent").await;
    let error = error.as_str().unwrap();
    assert!(
        error.contains("nosuch") && error.contains("first") && error.contains("second"),
        "{error}"
    );
    assert_eq!(
        js(
            c,
            "document.querySelectorAll('#live-queue tr.sweep').length"
        )
        .await,
        serde_json::json!(2)
    );
    let meta = http("GET", addr_of(&url), "/api/meta").unwrap();
    assert_eq!(meta.code, 200, "{}", meta.body);
    d.client.close().await.unwrap();
}
