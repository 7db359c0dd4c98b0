//! `hammer view` in a real browser: headless Chromium driven through chromedriver
//! (WebDriver, with the fantoccini client), against the real binary serving a real
//! dataset and watching a real coordinator. Every board the page shows is checked
//! against `hammer replay`, and every hint against `hammer solve`. The same pages'
//! API without a browser is `view_http.rs`.
//!
//! Screenshots of each page go to `$HAMMER_ARTIFACTS` (default
//! `target/test-artifacts/view/`). Without chromium and chromedriver the browser tests
//! print "skipped", unless `HAMMER_REQUIRE_BROWSER=1`, which makes their absence fail.

mod support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use support::view::{addr_of, copy_dir, make_dataset, start_view};
use support::{HAMMER, Proc, free_port, hammer, http, ok, s};

/// Chromium and chromedriver, or `None` after printing "skipped".
fn browser() -> Option<(PathBuf, PathBuf)> {
    let find = |env: &str, names: &[&str]| -> Option<PathBuf> {
        if let Some(p) = std::env::var_os(env) {
            return Some(PathBuf::from(p));
        }
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
            .find(|p| p.is_file())
    };
    let chromium = find("HAMMER_CHROMIUM", &["chromium", "chromium-browser"]);
    let driver = find("HAMMER_CHROMEDRIVER", &["chromedriver"]);
    match (chromium, driver) {
        (Some(c), Some(d)) => Some((c, d)),
        _ => {
            assert!(
                std::env::var("HAMMER_REQUIRE_BROWSER").as_deref() != Ok("1"),
                "HAMMER_REQUIRE_BROWSER=1 but chromium or chromedriver is missing"
            );
            println!(
                "skipped: chromium and chromedriver are needed (Debian: chromium chromium-driver)"
            );
            None
        }
    }
}

fn artifacts() -> PathBuf {
    let dir = std::env::var_os("HAMMER_ARTIFACTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let exe = std::env::current_exe().expect("test binary path");
            // target/debug/deps/view-HASH -> target/test-artifacts/view
            exe.ancestors()
                .nth(3)
                .expect("target directory")
                .join("test-artifacts")
                .join("view")
        });
    std::fs::create_dir_all(&dir).expect("artifacts directory");
    dir
}

struct Driver {
    _proc: Proc,
    client: Client,
}

async fn driver(dir: &Path, chromium: &Path, chromedriver: &Path) -> Driver {
    let port = free_port();
    let proc = Proc::spawn(
        "chromedriver",
        chromedriver.to_str().unwrap(),
        &[format!("--port={port}")],
        &[],
        dir.join("chromedriver.log"),
    );
    let caps: serde_json::Map<String, Value> = serde_json::from_value(json!({
        "goog:chromeOptions": {
            "binary": chromium,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1050", format!("--user-data-dir={}", dir.join("profile").display())],
        }
    }))
    .unwrap();
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        match ClientBuilder::new(connector.clone())
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(client) => {
                return Driver {
                    _proc: proc,
                    client,
                };
            }
            Err(e) => {
                assert!(
                    Instant::now() < deadline,
                    "chromedriver does not start a session: {e}\n{}",
                    proc.log_text()
                );
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }
}

async fn shot(c: &Client, name: &str) {
    let png = c.screenshot().await.expect("screenshot");
    std::fs::write(artifacts().join(format!("{name}.png")), png).expect("write screenshot");
}

/// Waits until `script` (a JavaScript expression) is truthy, returning its value.
async fn until(c: &Client, what: &str, script: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let v = c
            .execute(
                &format!("try {{ return ({script}); }} catch (e) {{ return null; }}"),
                vec![],
            )
            .await
            .expect("script runs");
        if !(v.is_null() || v == json!(false) || v == json!("") || v == json!(0)) {
            return v;
        }
        if Instant::now() > deadline {
            let message = c
                .execute(
                    "return document.querySelector('#message').textContent",
                    vec![],
                )
                .await
                .unwrap_or_default();
            panic!("timed out waiting for {what} ({script}); page message: {message}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn js(c: &Client, script: &str) -> Value {
    c.execute(&format!("return ({script});"), vec![])
        .await
        .expect("script runs")
}

async fn board_state(c: &Client) -> String {
    js(c, "document.querySelector('#board').dataset.state")
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// `hammer solve --json` of each state: its exact minimum stone count.
fn solve_all(states: &[String]) -> Vec<i64> {
    let mut child = Command::new(HAMMER)
        .args(["solve", "-", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for state in states {
        writeln!(stdin, "{state}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["min_stones"].as_i64().unwrap_or_else(|| panic!("{v}"))
        })
        .collect()
}

/// Two stones of `state` that share neither colour nor symbol.
fn incompatible_pair(state: &str) -> (String, String) {
    let tokens: Vec<String> = state
        .split('/')
        .flat_map(|r| {
            r.as_bytes()
                .chunks(2)
                .map(|c| String::from_utf8_lossy(c).into_owned())
                .collect::<Vec<_>>()
        })
        .collect();
    for a in &tokens {
        for b in &tokens {
            if a.as_bytes()[0] != b.as_bytes()[0] && a.as_bytes()[1] != b.as_bytes()[1] {
                return (a.clone(), b.clone());
            }
        }
    }
    panic!("no incompatible pair in {state}");
}

/// Clicks the element `css` selects. The page redraws parts of itself when an answer
/// arrives (hints, say), so an element found a moment ago may be gone: find it again.
async fn click(c: &Client, css: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let result = match c.find(Locator::Css(css)).await {
            Ok(element) => element.click().await,
            Err(e) => Err(e),
        };
        match result {
            Ok(()) => return,
            Err(_) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("click {css}: {e}"),
        }
    }
}

/// Clicks a stone by dispatching the event on its SVG group (WebDriver clicks need an
/// element's centre to be the stone, which a hint label may cover).
async fn click_stone(c: &Client, token: &str) {
    js(
        c,
        &format!(
            "document.querySelector('#board .stone[data-token=\"{token}\"]').dispatchEvent(new MouseEvent('click', {{bubbles: true}})) || true"
        ),
    )
    .await;
}

/// Picks `value` in the filter form's `name` select, finding the form again if the page
/// redrew it meanwhile (each filter change re-renders the page).
async fn select(c: &Client, name: &str, value: &str) {
    let css = format!("form#filters select[name={name}]");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let result = match c.find(Locator::Css(&css)).await {
            Ok(element) => element.select_by_value(value).await,
            Err(e) => Err(e),
        };
        match result {
            Ok(()) => return,
            Err(_) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("select {value} in {css}: {e}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browse_replay_and_play_in_chromium() {
    let Some((chromium, chromedriver)) = browser() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = make_dataset(dir.path());
    let rows = hammer_dataset::read_dataset(&data).unwrap();
    let (_view, url) = start_view(dir.path(), "view", &[data.to_str().unwrap()]);
    let d = driver(dir.path(), &chromium, &chromedriver).await;
    let c = &d.client;

    // Browse: every row, then a filter and a sort, checked against the Parquet files.
    c.goto(&url).await.unwrap();
    until(
        c,
        "the table",
        "document.querySelectorAll('#games tr.game').length",
    )
    .await;
    let total = js(c, "Number(document.querySelector('#total').dataset.total)").await;
    assert_eq!(total, json!(rows.len()));
    select(c, "n", "5").await;
    until(
        c,
        "the n=5 filter",
        "location.hash.includes('n=5') && document.querySelector('#total').dataset.total === '30'",
    )
    .await;
    select(c, "sort", "expansions").await;
    until(c, "the sort", "location.hash.includes('sort=expansions')").await;
    select(c, "desc", "true").await;
    // The table says which query it shows, so an older table cannot pass for this one.
    until(
        c,
        "descending",
        "['n=5', 'sort=expansions', 'desc=true'].every(q => document.querySelector('#games').dataset.query.includes(q)) && document.querySelector('#games tr.game')",
    )
    .await;
    let top = rows
        .iter()
        .filter(|r| r.n == 5)
        .max_by_key(|r| (r.expansions, -r.game_index))
        .unwrap();
    let first = js(
        c,
        "document.querySelector('#games tr.game td.expansions').textContent",
    )
    .await;
    assert_eq!(
        first.as_str().unwrap().replace(',', ""),
        top.expansions.to_string()
    );
    // The wall-time column's heading names the unit its cells show: milliseconds.
    let headings = js(
        c,
        "[...document.querySelectorAll('#games th')].map(th => th.textContent)",
    )
    .await;
    assert!(
        headings.as_array().unwrap().contains(&json!("wall ms")),
        "{headings}"
    );
    let wall = js(
        c,
        "document.querySelector('#games tr.game td.wall').textContent",
    )
    .await;
    assert_eq!(
        wall.as_str().unwrap(),
        format!("{:.2}", top.wall_ns as f64 / 1e6)
    );
    shot(c, "browse").await;

    // Replay: the first game of the sorted page, step by step against `hammer replay`.
    click(c, "#games tr.game").await;
    until(
        c,
        "the game page",
        "location.hash.startsWith('#/game') && document.querySelector('#board')",
    )
    .await;
    let game_index = js(
        c,
        "Number(new URLSearchParams(location.hash.split('?')[1]).get('index'))",
    )
    .await;
    let row = rows
        .iter()
        .find(|r| r.n == 5 && json!(r.game_index) == game_index)
        .expect("the opened game is in the dataset");
    assert_eq!(row.expansions, top.expansions);
    let moves: Vec<&str> = row
        .prefix_moves
        .split_whitespace()
        .chain(row.solution.split_whitespace())
        .collect();
    let mut args = vec!["replay", "--json", row.board.as_str()];
    args.extend(&moves);
    let replay: Value = serde_json::from_str(&ok(&hammer(&args))).unwrap();
    let states: Vec<String> = replay["states"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(states.len(), moves.len() + 1);
    for (k, expected) in states.iter().enumerate() {
        until(
            c,
            "the step",
            &format!("document.querySelector('#step-info').dataset.step === '{k}'"),
        )
        .await;
        assert_eq!(&board_state(c).await, expected, "board after step {k}");
        if let Some(next) = moves.get(k) {
            let (eater, eaten) = next.split_once('x').unwrap();
            assert_eq!(
                js(
                    c,
                    "document.querySelector('#board .stone.eater').dataset.token"
                )
                .await,
                json!(eater)
            );
            assert_eq!(
                js(
                    c,
                    "document.querySelector('#board .stone.eaten').dataset.token"
                )
                .await,
                json!(eaten)
            );
            if k == moves.len() / 2 {
                shot(c, "replay").await;
            }
            click(c, "#step").await;
        }
    }
    assert_eq!(
        js(
            c,
            "Number(document.querySelector('#step-info').textContent.match(/score (\\d+)/)[1])"
        )
        .await,
        json!(row.score)
    );

    // Play from the start with hints, to the end, checking every hint with `hammer solve`.
    click(c, "#first").await;
    click(c, "#play-here").await;
    until(
        c,
        "the play page",
        "location.hash.startsWith('#/play') && document.querySelector('#board')",
    )
    .await;
    assert_eq!(board_state(c).await, row.board);

    // An illegal pair is refused with the rule it breaks, and the board stays.
    let (x, y) = incompatible_pair(&row.board);
    click_stone(c, &x).await;
    click_stone(c, &y).await;
    let message = until(c, "the refusal", "!document.querySelector('#message').hidden && document.querySelector('#message').textContent").await;
    assert!(
        message
            .as_str()
            .unwrap()
            .contains("share neither colour nor symbol"),
        "{message}"
    );
    assert_eq!(board_state(c).await, row.board);

    let mut played: Vec<String> = vec![row.board.clone()];
    let mut checked_hints = 0;
    loop {
        let state = board_state(c).await;
        until(c, "the hints", &format!("document.querySelector('#board').dataset.state === '{state}' && document.querySelector('#hints').dataset.ready === 'true'")).await;
        let hints = js(c, "[...document.querySelectorAll('#hints li.hint')].map(li => [li.dataset.move, li.dataset.after, Number(li.dataset.score), li.dataset.exact === 'true'])").await;
        let hints = hints.as_array().unwrap().clone();
        if hints.is_empty() {
            break;
        }
        let afters: Vec<String> = hints
            .iter()
            .map(|h| h[1].as_str().unwrap().to_owned())
            .collect();
        let exact = solve_all(&afters);
        for (h, e) in hints.iter().zip(&exact) {
            if h[3] == json!(true) {
                assert_eq!(h[2].as_i64().unwrap(), *e, "hint {h}");
            } else {
                assert!(
                    h[2].as_i64().unwrap() >= *e,
                    "an 'at most' hint below the exact answer: {h}"
                );
            }
            checked_hints += 1;
        }
        let best = hints.iter().min_by_key(|h| h[2].as_i64().unwrap()).unwrap();
        let (eater, eaten) = best[0].as_str().unwrap().split_once('x').unwrap();
        click_stone(c, eater).await;
        until(
            c,
            "the selection",
            &format!("document.querySelector('#board .stone.selected[data-token=\"{eater}\"]')"),
        )
        .await;
        click_stone(c, eaten).await;
        let after = best[1].as_str().unwrap().to_owned();
        until(
            c,
            "the move",
            &format!("document.querySelector('#board').dataset.state === '{after}'"),
        )
        .await;
        played.push(after);
        if played.len() == 3 {
            // Undo and redo walk the history.
            click(c, "#undo").await;
            until(
                c,
                "undo",
                &format!(
                    "document.querySelector('#board').dataset.state === '{}'",
                    played[1]
                ),
            )
            .await;
            click(c, "#redo").await;
            until(
                c,
                "redo",
                &format!(
                    "document.querySelector('#board').dataset.state === '{}'",
                    played[2]
                ),
            )
            .await;
            shot(c, "play").await;
        }
    }
    let end = js(
        c,
        "Number(document.querySelector('#play-status').dataset.score)",
    )
    .await;
    assert_eq!(
        end,
        json!(row.score),
        "following the best hints reaches the game's minimum"
    );
    assert!(checked_hints >= played.len() - 1);

    // A bad pasted board: a message that names the problem, and the page goes on.
    c.goto(&format!("{url}#/play")).await.unwrap();
    let input = c.find(Locator::Css("#paste-state")).await.unwrap();
    input.send_keys("A1B2C3/C1A1/").await.unwrap();
    click(c, "#paste-go").await;
    let message = until(c, "the bad-board message", "!document.querySelector('#message').hidden && document.querySelector('#message').textContent").await;
    assert!(message.as_str().unwrap().contains("A1"), "{message}");
    assert!(message.as_str().unwrap().contains("twice"), "{message}");
    c.goto(&format!("{url}#/browse")).await.unwrap();
    until(
        c,
        "the table again",
        "document.querySelectorAll('#games tr.game').length",
    )
    .await;

    // A corrupt part file: the page names it, and the viewer still serves the page.
    let copy = dir.path().join("corrupt");
    copy_dir(&data, &copy);
    let part = hammer_dataset::list_parts(&copy).unwrap()[0].path.clone();
    std::fs::write(&part, b"PAR1 not parquet").unwrap();
    let (_view2, url2) = start_view(dir.path(), "view-corrupt", &[copy.to_str().unwrap()]);
    c.goto(&url2).await.unwrap();
    let text = until(c, "the dataset error", "document.querySelector('#dataset-error') && document.querySelector('#dataset-error').textContent").await;
    let name = part.file_name().unwrap().to_str().unwrap();
    assert!(text.as_str().unwrap().contains(name), "{text}");
    shot(c, "corrupt-dataset").await;
    d.client.close().await.unwrap();
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
    let listen = format!("127.0.0.1:{}", free_port());
    let coordinator_url = format!("http://{listen}");
    let mut coordinator = Proc::spawn(
        "coordinator",
        HAMMER,
        &s(&[
            "coordinator",
            "--sweep",
            sweep.to_str().unwrap(),
            "--out",
            dir.path().join("out").to_str().unwrap(),
            "--state",
            dir.path().join("state").to_str().unwrap(),
            "--listen",
            &listen,
            "--lease-secs",
            "4",
            "--heartbeat-secs",
            "1",
        ]),
        &[],
        dir.path().join("coordinator.log"),
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
