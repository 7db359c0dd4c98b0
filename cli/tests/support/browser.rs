//! Headless Chromium driven through chromedriver (WebDriver, with the fantoccini
//! client), for the tests of `hammer view`'s pages.
//!
//! Screenshots go to `$HAMMER_ARTIFACTS` (default `target/test-artifacts/view/`). Without
//! chromium and chromedriver the browser tests print "skipped", unless
//! `HAMMER_REQUIRE_BROWSER=1`, which makes their absence fail.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

use super::{Proc, free_port};

/// Chromium and chromedriver, or `None` after printing "skipped".
pub fn browser() -> Option<(PathBuf, PathBuf)> {
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

pub fn artifacts() -> PathBuf {
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

pub struct Driver {
    _proc: Proc,
    pub client: Client,
}

pub async fn driver(dir: &Path, chromium: &Path, chromedriver: &Path) -> Driver {
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

pub async fn shot(c: &Client, name: &str) {
    let png = c.screenshot().await.expect("screenshot");
    std::fs::write(artifacts().join(format!("{name}.png")), png).expect("write screenshot");
}

/// Waits until `script` (a JavaScript expression) is truthy, returning its value.
pub async fn until(c: &Client, what: &str, script: &str) -> Value {
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

pub async fn js(c: &Client, script: &str) -> Value {
    c.execute(&format!("return ({script});"), vec![])
        .await
        .expect("script runs")
}

/// Clicks the element `css` selects. The page redraws parts of itself when an answer
/// arrives (hints, say), so an element found a moment ago may be gone: find it again.
pub async fn click(c: &Client, css: &str) {
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
