//! `hammer view` in a real browser: headless Chromium driven through chromedriver
//! (WebDriver, with the fantoccini client), against the real binary serving a real
//! dataset and watching a real coordinator. Every board the page shows is checked
//! against `hammer replay`, and every hint against `hammer solve`.
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
use support::{HAMMER, Proc, free_port, hammer, http, ok, s};

const SWEEP: &str = r#"
name = "viewtest"
seed = 77

[[experiment]]
name = "exact"
sizes = [4, 5]
games = 30
"#;

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

fn make_dataset(dir: &Path) -> PathBuf {
    let sweep = dir.join("sweep.toml");
    std::fs::write(&sweep, SWEEP).unwrap();
    let out = dir.join("data");
    ok(&hammer(&[
        "run",
        sweep.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "2",
    ]));
    out
}

/// Starts `hammer view ARGS --port 0` and returns it with the URL it printed.
fn start_view(dir: &Path, name: &str, args: &[&str]) -> (Proc, String) {
    let mut all = s(&["view", "--port", "0"]);
    all.extend(s(args));
    let proc = Proc::spawn(name, HAMMER, &all, &[], dir.join(format!("{name}.log")));
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let log = proc.log_text();
        if let Some(line) = log.lines().find(|l| l.starts_with("hammer view: http://")) {
            let url = line.trim_start_matches("hammer view: ").trim().to_owned();
            return (proc, url);
        }
        assert!(Instant::now() < deadline, "no URL printed; log:\n{log}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn addr_of(url: &str) -> std::net::SocketAddr {
    let rest = url.trim_start_matches("http://");
    rest.split('/').next().unwrap().parse().unwrap()
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
        json!(row.min_stones)
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
        json!(row.min_stones),
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

const LIVE_SWEEP: &str = r#"
name = "livetest"
seed = 5

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
    let _worker = Proc::spawn(
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

/// Bad input over plain HTTP: every refusal is a status and a message naming the field,
/// value or file; the server keeps running.
#[test]
fn bad_input_gets_clear_answers_and_the_server_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let out = hammer(&[
        "view",
        dir.path().join("missing").to_str().unwrap(),
        "--port",
        "0",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("missing") && err.contains("does not exist"),
        "{err}"
    );

    let data = make_dataset(dir.path());
    let (_view, url) = start_view(dir.path(), "view", &[data.to_str().unwrap()]);
    let addr = addr_of(&url);
    let get = |path: &str| http("GET", addr, path).unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !get("/api/meta").body.contains("\"ready\"") {
        assert!(Instant::now() < deadline, "the dataset did not load");
        std::thread::sleep(Duration::from_millis(50));
    }
    let r = get("/api/games?n=six");
    assert_eq!(r.code, 400);
    assert!(
        r.body.contains("n=\\\"six\\\"") && r.body.contains("whole number"),
        "{}",
        r.body
    );
    let r = get("/api/games?colour=red");
    assert_eq!(r.code, 400);
    assert!(r.body.contains("colour"), "{}", r.body);
    let r = get("/api/position?state=A1B2%2FA1");
    assert_eq!(r.code, 400);
    assert!(
        r.body.contains("A1") && r.body.contains("twice"),
        "{}",
        r.body
    );
    let r = get("/api/move?state=A1B1%2FB2A2&move=A1xA2");
    assert_eq!(r.code, 400);
    assert!(
        r.body.contains("not neighbours") || r.body.contains("neither"),
        "{}",
        r.body
    );
    let r = get("/api/game?sweep=viewtest&experiment=exact&config=c0&params=n%3D5&index=99999");
    assert_eq!(r.code, 404, "{}", r.body);
    assert!(r.body.contains("99999"), "{}", r.body);
    assert_eq!(get("/api/games").code, 200);
    // A seeded game's start is `hammer solve --random`'s board.
    let r = get("/api/instance?puzzle=martello&params=n%3D6&seed=2013&index=7");
    assert_eq!(r.code, 200, "{}", r.body);
    let solved: Value = serde_json::from_str(&ok(&hammer(&[
        "solve",
        "--random",
        "--n",
        "6",
        "--seed",
        "2013",
        "--index",
        "7",
        "--json",
        "--schedule",
        "1x1",
    ])))
    .unwrap();
    let instance: Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(instance["state"], solved["board"]);
    let r = get("/api/instance?puzzle=martello&params=n%3D9&seed=1&index=0");
    assert_eq!(r.code, 400);
    assert!(r.body.contains('9'), "{}", r.body);
    let r = get("/api/instance?seed=x&index=0");
    assert_eq!(r.code, 400);
    assert!(r.body.contains("seed=\\\"x\\\""), "{}", r.body);

    // The dataset goes away while the viewer runs: a reload says so, the server goes on.
    let moved = dir.path().join("moved");
    std::fs::rename(&data, &moved).unwrap();
    assert_eq!(http("POST", addr, "/api/reload").unwrap().code, 200);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let meta = get("/api/meta");
        if meta.body.contains("\"failed\"") {
            assert!(meta.body.contains("cannot open"), "{}", meta.body);
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no failure after reload: {}",
            meta.body
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(get("/").code, 200);
    std::fs::rename(&moved, &data).unwrap();

    // A corrupt part: the page gets the file's name, and the server still answers.
    let part = hammer_dataset::list_parts(&data).unwrap()[0].path.clone();
    std::fs::write(&part, b"PAR1 this is not a parquet file").unwrap();
    let (_view2, url2) = start_view(dir.path(), "view2", &[data.to_str().unwrap()]);
    let addr2 = addr_of(&url2);
    let deadline = Instant::now() + Duration::from_secs(20);
    let meta = loop {
        let meta = http("GET", addr2, "/api/meta").unwrap();
        if meta.body.contains("\"failed\"") {
            break meta;
        }
        assert!(
            Instant::now() < deadline,
            "no failure reported: {}",
            meta.body
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let name = part.file_name().unwrap().to_str().unwrap();
    assert!(meta.body.contains(name), "{}", meta.body);
    let r = http("GET", addr2, "/api/games").unwrap();
    assert_eq!(r.code, 400, "{}", r.body);
    assert!(r.body.contains(name), "{}", r.body);
    assert_eq!(http("GET", addr2, "/").unwrap().code, 200);

    // Another address than loopback: a token in the URL, refused without it.
    let (_view3, url3) = start_view(
        dir.path(),
        "view3",
        &[data.to_str().unwrap(), "--addr", "0.0.0.0"],
    );
    let (base, token) = url3.split_once("?token=").expect("a token in the URL");
    assert_eq!(token.len(), 32);
    let port = addr_of(base).port();
    let local: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    assert_eq!(http("GET", local, "/api/meta").unwrap().code, 401);
    assert_eq!(http("GET", local, "/").unwrap().code, 401);
    assert_eq!(
        http("GET", local, &format!("/api/meta?token={token}"))
            .unwrap()
            .code,
        200
    );
    let page = http("GET", local, &format!("/?token={token}")).unwrap();
    assert_eq!(page.code, 200);
    assert!(page.header("set-cookie").is_some_and(|c| c.contains(token)));
}

const FAMILIES: &str = r#"
name = "viewfamilies"
seed = 2026

[[experiment]]
name = "peg_random"
puzzle = "peg"
boards = ["english"]
pegs = [6]
games = 3

[[experiment]]
name = "mancala"
puzzle = "mancala"
holes = [2]
stones = [2]
picks = ["all"]

[[experiment]]
name = "tours"
puzzle = "tours"
sizes = [4]
k = 1
games = 3
"#;

/// Peg, Mancala and slide tours through the same pages: each family's game replays with
/// its text picture, and every hint of its start equals `hammer solve` with its params.
#[test]
fn every_family_replays_and_gets_hints() {
    let dir = tempfile::tempdir().unwrap();
    let sweep = dir.path().join("families.toml");
    std::fs::write(&sweep, FAMILIES).unwrap();
    let data = dir.path().join("data");
    ok(&hammer(&[
        "run",
        sweep.to_str().unwrap(),
        "--out",
        data.to_str().unwrap(),
    ]));
    let rows = hammer_dataset::read_dataset(&data).unwrap();
    let (_view, url) = start_view(dir.path(), "view", &[data.to_str().unwrap()]);
    let addr = addr_of(&url);
    let get_json = |path: &str| -> Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let r = http("GET", addr, path).unwrap();
            if r.code != 503 {
                assert_eq!(r.code, 200, "{path}: {}", r.body);
                return serde_json::from_str(&r.body).unwrap();
            }
            assert!(Instant::now() < deadline, "{path}: {}", r.body);
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    let enc = |v: &str| {
        v.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect::<String>()
    };
    for puzzle in ["peg", "mancala", "tours"] {
        let row = rows
            .iter()
            .find(|r| r.puzzle == puzzle)
            .expect("a row of the family");
        let game = get_json(&format!(
            "/api/game?sweep={}&experiment={}&config={}&params={}&index={}",
            enc(&row.sweep),
            enc(&row.experiment),
            enc(&row.config),
            enc(&row.params),
            row.game_index
        ));
        assert!(game["replay_error"].is_null(), "{puzzle}: {game}");
        let steps = game["steps"].as_array().unwrap();
        let moves =
            row.prefix_moves.split_whitespace().count() + row.solution.split_whitespace().count();
        assert_eq!(steps.len(), moves + 1, "{puzzle}");
        assert!(
            steps
                .iter()
                .all(|s| s["drawing"].as_str().is_some_and(|d| !d.is_empty())),
            "{puzzle}"
        );
        assert_eq!(steps.last().unwrap()["score"], json!(row.score), "{puzzle}");

        let hints = get_json(&format!(
            "/api/hints?puzzle={puzzle}&params={}&state={}",
            enc(&row.params),
            enc(&row.board)
        ));
        let hints = hints["hints"].as_array().unwrap();
        assert!(!hints.is_empty(), "{puzzle}");
        let mut args = vec![
            "solve".to_owned(),
            "--puzzle".to_owned(),
            puzzle.to_owned(),
            "--json".to_owned(),
        ];
        for pair in row.params.split(';') {
            args.push("--param".to_owned());
            args.push(pair.to_owned());
        }
        for h in hints {
            let mut a = args.clone();
            a.push(h["after"].as_str().unwrap().to_owned());
            let refs: Vec<&str> = a.iter().map(String::as_str).collect();
            let solved: Value = serde_json::from_str(&ok(&hammer(&refs))).unwrap();
            assert_eq!(h["exact"], json!(true), "{puzzle}: {h}");
            assert_eq!(
                h["score"], solved["score"],
                "{puzzle}: hint {h} against {solved}"
            );
        }
    }
}
