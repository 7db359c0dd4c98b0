//! `hammer view` in a real browser (see `support/browser.rs`), against the real binary
//! serving a real dataset. Every board the page shows is checked against `hammer
//! replay`, and every hint against `hammer solve`. The same pages' API without a browser
//! is `view_http.rs`; the Live page is `view_live.rs`.

mod support;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use serde_json::{Value, json};
use support::browser::{browser, click, driver, js, shot, until};
use support::view::{copy_dir, make_dataset, start_view};
use support::{HAMMER, hammer, ok};

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
