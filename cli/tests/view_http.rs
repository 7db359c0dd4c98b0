//! `hammer view`'s answers over plain HTTP, without a browser: bad input of every kind,
//! the token, and every family's replay and hints checked against `hammer solve`. The
//! pages in a real browser are `view_browser.rs`.

mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::view::{addr_of, make_dataset, start_view};
use support::{hammer, http, ok};

/// Bad input over plain HTTP: every refusal is a status and a message naming the field,
/// value or file; the server keeps running.
#[test]
fn bad_input_gets_clear_answers_and_the_server_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let out = hammer(&[
        "view",
        dir.path().join("missing").to_str().unwrap(),
        "--listen",
        "127.0.0.1:0",
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
        &[data.to_str().unwrap(), "--listen", "0.0.0.0:0"],
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

/// `--listen ADDR:PORT`, the one form every listening flag takes, and the hidden
/// `--addr`/`--port` of earlier versions: each alone still works, and either with
/// `--listen` is refused by name.
#[test]
fn view_listens_where_listen_says_and_keeps_addr_and_port_as_hidden_aliases() {
    let dir = tempfile::tempdir().unwrap();
    let (_view, url) = start_view(dir.path(), "listen", &["--listen", "127.0.0.1:0"]);
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    assert_eq!(http("GET", addr_of(&url), "/").unwrap().code, 200);

    // The aliases: --port alone keeps the loopback default, --addr takes the IP part.
    let (_alias, url) = start_view(dir.path(), "port", &["--port", "0"]);
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    assert_eq!(http("GET", addr_of(&url), "/").unwrap().code, 200);
    let (_alias2, url) = start_view(dir.path(), "addr", &["--addr", "0.0.0.0", "--port", "0"]);
    assert!(
        url.starts_with("http://0.0.0.0:") && url.contains("?token="),
        "{url}"
    );

    for alias in [["--port", "0"], ["--addr", "127.0.0.1"]] {
        let out = hammer(&["view", "--listen", "127.0.0.1:0", alias[0], alias[1]]);
        assert!(!out.status.success(), "{alias:?} with --listen was taken");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--listen") && err.contains(alias[0]) && err.contains("cannot be used"),
            "{err}"
        );
    }

    // Every listening flag of the binary says ADDR:PORT, and the aliases stay hidden.
    for (command, flags) in [
        ("view", &["--listen"][..]),
        ("coordinator", &["--listen", "--metrics"]),
        ("run", &["--metrics"]),
    ] {
        let help = ok(&hammer(&[command, "--help"]));
        for flag in flags {
            assert!(
                help.contains(&format!("{flag} <ADDR:PORT>")),
                "hammer {command} --help:\n{help}"
            );
        }
        assert!(
            !help.contains("--addr") && !help.contains("--port"),
            "hammer {command} --help:\n{help}"
        );
    }
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

[[experiment]]
name = "clobber"
puzzle = "clobber"
rows = [3]
columns = [4]
fills = [80]
colours = ["random"]
rules = ["partisan"]
games = 3
"#;

/// Peg, Mancala, slide tours and Clobber through the same pages: each family's game replays with
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
    for puzzle in ["peg", "mancala", "tours", "clobber"] {
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
