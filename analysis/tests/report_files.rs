//! Golden checks of the report directory: every table and chart is there, in every format,
//! the HTML page parses, loads nothing from outside and renders in a real browser
//! (headless Chromium), and rewriting is atomic and careful.
//!
//! `HAMMER_KEEP_REPORT=/some/new/dir` also writes the report of the test dataset there, and
//! `HAMMER_KEEP_DATASET=/some/new/dir` the dataset itself, to look at by hand.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use hammer_analysis::{Report, analyze, write_report};
use tempfile::TempDir;

struct Fixture {
    _tmp: TempDir,
    data: PathBuf,
    out: PathBuf,
    report: Report,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let tmp = TempDir::new().expect("temp dir");
        let data = tmp.path().join("data");
        common::write_experiments(&data, &common::full_experiments());
        let report = analyze(&data).expect("analyze");
        let out = tmp.path().join("report");
        write_report(&report, &data, &out).expect("write report");
        if let Ok(keep) = std::env::var("HAMMER_KEEP_DATASET") {
            common::write_experiments(Path::new(&keep), &common::full_experiments());
        }
        if let Ok(keep) = std::env::var("HAMMER_KEEP_REPORT") {
            write_report(&report, &data, Path::new(&keep)).expect("write kept report");
        }
        Fixture {
            _tmp: tmp,
            data,
            out,
            report,
        }
    })
}

#[test]
fn every_table_and_chart_is_written() {
    let f = fixture();
    for name in ["index.html", "report.md", "report.json", ".hammer-report"] {
        assert!(f.out.join(name).is_file(), "{name} missing");
    }
    let tables: Vec<_> = f.report.tables().collect();
    assert!(tables.len() >= 15, "only {} tables", tables.len());
    for t in tables {
        let csv = fs::read_to_string(f.out.join(format!("{}.csv", t.name))).expect("csv");
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some(t.columns.join(",").as_str()),
            "{}",
            t.name
        );
        assert_eq!(lines.count(), t.rows.len(), "{}", t.name);
    }
    let charts: Vec<_> = f.report.charts().collect();
    assert!(charts.len() >= 10, "only {} charts", charts.len());
    for c in charts {
        let png = fs::read(f.out.join(format!("{}.png", c.name))).expect("png");
        assert!(
            png.starts_with(b"\x89PNG\r\n\x1a\n"),
            "{} is not a PNG",
            c.name
        );
        assert!(png.len() > 5_000, "{}.png is suspiciously small", c.name);
        let svg = fs::read_to_string(f.out.join(format!("{}.svg", c.name))).expect("svg");
        assert!(
            svg.contains("<svg") && svg.trim_end().ends_with("</svg>"),
            "{}",
            c.name
        );
        assert!(
            svg.contains(&c.title.replace('&', "&amp;")),
            "{} lacks its title",
            c.name
        );
    }
    // Nothing but the final directory is left beside it.
    let leftovers: Vec<_> = fs::read_dir(f.out.parent().expect("parent"))
        .expect("list")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// Every chart of `report` is a figure holding an inline SVG in `doc`, and every table
/// is there too. `figure` and `table` prefix the id attributes (such as `"<figure "`).
fn assert_charts_and_tables_inline(
    doc: &str,
    report: &Report,
    figure: &str,
    table: &str,
    what: &str,
) {
    for c in report.charts() {
        let start = doc
            .find(&format!("{figure}id=\"chart-{}\"", c.name))
            .unwrap_or_else(|| panic!("chart {} missing from the {what}", c.name));
        let end = start + doc[start..].find("</figure>").expect("figure end");
        assert!(
            doc[start..end].contains("<svg"),
            "chart {} is not inline SVG in the {what}",
            c.name
        );
    }
    for t in report.tables() {
        assert!(
            doc.contains(&format!("{table}id=\"table-{}\"", t.name)),
            "table {} missing from the {what}",
            t.name
        );
    }
}

#[test]
fn html_holds_every_chart_and_table_inline() {
    let f = fixture();
    let html = fs::read_to_string(f.out.join("index.html")).expect("html");
    assert_charts_and_tables_inline(&html, &f.report, "<figure ", "<table ", "index.html");
    for fig in &f.report.figures {
        assert!(
            html.contains(&format!("<section id=\"{}\"", fig.id)),
            "{}",
            fig.id
        );
    }
    // Self-contained: nothing is loaded from a file or the network. The only URLs are XML
    // namespace names of the inline SVG, which are identifiers, not resources.
    for needle in [
        "src=", "href=", "url(", "@import", "<link", "<script", "<img", "<iframe",
    ] {
        assert!(!html.contains(needle), "index.html contains {needle}");
    }
    let without_ns = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    assert!(!without_ns.contains("http:") && !without_ns.contains("https:"));
    // The report's values are beside ours.
    assert!(html.contains("0.98349"), "Figure 8's published 6x6 ratio");
    assert!(html.contains("0.60087"), "Figure 14's published table");
}

#[test]
fn html_parses_with_python() {
    let Some(python) = common::python() else {
        return;
    };
    let f = fixture();
    let page = f.out.join("index.html");
    let out = common::run_python(
        &python,
        &common::tests_dir().join("html_check.py"),
        &[&page.to_string_lossy()],
        &[],
    );
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["errors"], serde_json::json!([]), "{out}");
    assert_eq!(v["external"], serde_json::json!([]), "{out}");
    assert_eq!(v["doctype"], serde_json::json!(true));
    let ids: Vec<&str> = v["ids"]
        .as_array()
        .expect("ids")
        .iter()
        .filter_map(|x| x.as_str())
        .collect();
    for c in f.report.charts() {
        assert!(
            ids.contains(&format!("chart-{}", c.name).as_str()),
            "{}",
            c.name
        );
    }
    for t in f.report.tables() {
        assert!(
            ids.contains(&format!("table-{}", t.name).as_str()),
            "{}",
            t.name
        );
    }
    assert_eq!(
        v["svg"].as_u64(),
        Some(f.report.charts().count() as u64),
        "one inline svg per chart"
    );
}

/// The browser to load the page in: `HAMMER_CHROMIUM`, else `chromium` on the PATH. Without
/// one the test is skipped with a message, unless `HAMMER_REQUIRE_BROWSER=1` (CI).
fn chromium() -> Option<PathBuf> {
    let candidate = std::env::var_os("HAMMER_CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|dir| dir.join("chromium"))
                    .find(|p| p.is_file())
            })
        });
    if candidate.is_none() {
        assert!(
            std::env::var("HAMMER_REQUIRE_BROWSER").as_deref() != Ok("1"),
            "HAMMER_REQUIRE_BROWSER=1 but no chromium on the PATH and no HAMMER_CHROMIUM"
        );
        eprintln!("skipped: no chromium (set HAMMER_CHROMIUM or install chromium)");
    }
    candidate
}

/// Runs headless Chromium on `page` with `args`, as the machine's network is closed and CI
/// runs as root: no sandbox, no background connections, a fresh profile. Gives up after
/// two minutes (coreutils `timeout`), so a hung browser fails the test instead of CI.
fn run_chromium(
    browser: &Path,
    profile: &Path,
    page: &Path,
    args: &[&str],
) -> std::process::Output {
    std::process::Command::new("timeout")
        .arg("120")
        .arg(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium")
}

#[test]
fn html_loads_and_renders_in_chromium() {
    let Some(browser) = chromium() else {
        return;
    };
    let f = fixture();
    let page = f.out.join("index.html");
    let tmp = TempDir::new().expect("temp dir");

    // The DOM the browser built: every figure, chart and table is in it, each chart an
    // inline SVG element.
    let out = run_chromium(&browser, &tmp.path().join("p1"), &page, &["--dump-dom"]);
    assert!(
        out.status.success(),
        "chromium --dump-dom failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(dom.contains("<body"), "no document: {dom:.300}");
    // Chromium writes attributes its own way, so only the ids are matched here.
    assert_charts_and_tables_inline(&dom, &f.report, "", "", "DOM");
    assert_eq!(dom.matches("<svg").count(), f.report.charts().count());

    // And it paints: a screenshot of the page is a real PNG with more than one colour.
    let shot = tmp.path().join("page.png");
    let out = run_chromium(
        &browser,
        &tmp.path().join("p2"),
        &page,
        &[
            "--window-size=1280,2000",
            &format!("--screenshot={}", shot.display()),
        ],
    );
    assert!(
        out.status.success(),
        "chromium --screenshot failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let png = fs::read(&shot).expect("screenshot written");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "screenshot is a PNG");
    assert!(
        png.len() > 20_000,
        "a blank page compresses to a few KB: {} bytes",
        png.len()
    );
}

#[test]
fn markdown_and_json_hold_the_same_tables() {
    let f = fixture();
    let md = fs::read_to_string(f.out.join("report.md")).expect("md");
    for t in f.report.tables() {
        assert!(md.contains(&format!("(`{}.csv`)", t.name)), "{}", t.name);
    }
    for c in f.report.charts() {
        assert!(md.contains(&format!("]({}.png)", c.name)), "{}", c.name);
    }
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(f.out.join("report.json")).expect("json"))
            .expect("parse");
    let names: Vec<String> = json["figures"]
        .as_array()
        .expect("figures")
        .iter()
        .flat_map(|fig| fig["tables"].as_array().cloned().unwrap_or_default())
        .filter_map(|t| t["name"].as_str().map(str::to_owned))
        .collect();
    let ours: Vec<String> = f.report.tables().map(|t| t.name.clone()).collect();
    assert_eq!(names, ours);
}

#[test]
fn rewriting_replaces_a_report_but_nothing_else() {
    let f = fixture();
    let tmp = TempDir::new().expect("temp");
    let out = tmp.path().join("r");
    write_report(&f.report, &f.data, &out).expect("first");
    fs::write(out.join("stale.csv"), "old").expect("stale file");
    write_report(&f.report, &f.data, &out).expect("second");
    assert!(
        !out.join("stale.csv").exists(),
        "the old report was not replaced"
    );
    assert!(out.join("index.html").is_file());

    let foreign = tmp.path().join("notes");
    fs::create_dir(&foreign).expect("dir");
    fs::write(foreign.join("todo.txt"), "keep me").expect("file");
    let err = write_report(&f.report, &f.data, &foreign).expect_err("must refuse");
    assert!(
        err.to_string()
            .contains("not a report written by hammer analyze"),
        "{err}"
    );
    assert!(foreign.join("todo.txt").is_file());

    let inside = f.data.join("report");
    let err = write_report(&f.report, &f.data, &inside).expect_err("must refuse");
    assert!(err.to_string().contains("inside the dataset"), "{err}");
    assert!(!inside.exists());
    let leftovers: Vec<_> = fs::read_dir(tmp.path())
        .expect("list")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn missing_figures_name_their_example_sweep() {
    let tmp = TempDir::new().expect("temp");
    let data = tmp.path().join("data");
    let exps = vec![common::Exp {
        name: "only_exact",
        sizes: vec![3, 4],
        games: 0..60,
        configs: vec![common::conf("standard", "exact", 0, 1)],
    }];
    common::write_experiments(&data, &exps);
    let report = analyze(&data).expect("analyze");
    for (id, example) in [
        ("fig07", "examples/fig07_random_prefix.toml"),
        ("fig13", "examples/fig13_move_orders.toml"),
        ("fig14", "examples/fig14_16_budgets.toml"),
        ("fig15", "examples/fig14_16_budgets.toml"),
        ("fig16", "examples/fig14_16_budgets.toml"),
        ("meta", "examples/meta_solver.toml"),
    ] {
        let fig = report.figure(id).expect("figure");
        assert!(fig.missing.is_some(), "{id} should be missing");
        assert_eq!(fig.example, example);
    }
    for id in ["fig08", "fig11", "fig12"] {
        let fig = report.figure(id).expect("figure");
        assert!(fig.missing.is_none(), "{id}: {:?}", fig.missing);
    }
    let out = tmp.path().join("out");
    write_report(&report, &data, &out).expect("write");
    let html = fs::read_to_string(out.join("index.html")).expect("html");
    assert!(html.contains("Not in this dataset"));
    assert!(html.contains("examples/fig14_16_budgets.toml"));
    assert!(html.contains("examples/meta_solver.toml"));
}
