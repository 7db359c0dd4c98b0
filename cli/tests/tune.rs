//! `hammer tune` end to end: a real run-time sweep through `hammer run`, the tuner, its
//! validation sweep on fresh games, and the tuned schedule used by `hammer solve` and by
//! a sweep file.

mod support;

use std::path::Path;
use support::{hammer, ok};

use hammer_dataset::read_dataset;

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// 5x5 keeps the test to seconds; the tuner does not care about the size.
const TUNE_SWEEP: &str = r#"name = "tune-test"
seed = 11

[[experiment]]
name = "rtd"
kind = "run-time"
sizes = [5]
games = 60
attempts = 8
cap = 3000

[[experiment]]
name = "exact"
sizes = [5]
games = 60
orders = ["random", "standard"]
"#;

/// Reads one column of a CSV table written by the report (no quoting in these tables'
/// numeric columns; the first column may be quoted text).
fn csv_rows(file: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(file).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let mut cells = Vec::new();
            let mut cur = String::new();
            let mut quoted = false;
            for c in l.chars() {
                match c {
                    '"' => quoted = !quoted,
                    ',' if !quoted => cells.push(std::mem::take(&mut cur)),
                    c => cur.push(c),
                }
            }
            cells.push(cur);
            cells
        })
        .collect()
}

/// The rows of the validation dataset `hammer tune --validate` wrote under `out`.
fn validation_rows(out: &Path) -> Vec<hammer_dataset::ResultRow> {
    let vdir = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("validation-")
        })
        .expect("a validation dataset");
    read_dataset(&vdir).unwrap()
}

/// Every schedule of a validation agrees with plain DFS on every game's minimum.
fn assert_minima_agree_with_dfs(vrows: &[hammer_dataset::ResultRow]) {
    for r in vrows {
        let dfs = vrows
            .iter()
            .find(|d| d.order == "standard" && d.game_index == r.game_index)
            .unwrap();
        assert_eq!(r.score, dfs.score);
    }
}

#[test]
fn tune_then_validate_then_use_the_schedule() {
    let dir = tempfile::tempdir().unwrap();
    let sweep = dir.path().join("tune.toml");
    std::fs::write(&sweep, TUNE_SWEEP).unwrap();
    let data = dir.path().join("data");
    ok(&hammer(&["run", path(&sweep), "--out", path(&data)]));

    // One row per attempt.
    let rows = read_dataset(&data).unwrap();
    let attempts = rows.iter().filter(|r| r.experiment == "rtd").count();
    assert_eq!(attempts, 60 * 8);

    let out = dir.path().join("tuned");
    let stdout = ok(&hammer(&[
        "tune",
        path(&data),
        "--out",
        path(&out),
        "--refine",
        "--refine-games",
        "30",
        "--validate",
        "--validation-games",
        "40",
        "--threads",
        "2",
    ]));
    assert!(stdout.contains("refinement on 30 tuning games"), "{stdout}");
    assert!(stdout.contains("tuned on 60 games of size 5"), "{stdout}");
    assert!(stdout.contains("validation on 40 fresh games"), "{stdout}");

    // The schedule file is accepted by the solver's --schedule and is exact.
    let schedule = out.join("best.schedule");
    let text = std::fs::read_to_string(&schedule).unwrap();
    let line = text.lines().rfind(|l| !l.starts_with('#')).unwrap();
    // The refinement's best measured schedule: one of its rows.
    let refine = csv_rows(&out.join("report").join("tune_refine.csv"));
    let best = refine
        .iter()
        .find(|r| r[2].ends_with("; best"))
        .expect("a best row");
    assert_eq!(best[1], line);
    // It was the least measured mean of the refinement.
    let least = refine
        .iter()
        .map(|r| r[3].parse::<f64>().unwrap())
        .fold(f64::INFINITY, f64::min);
    assert_eq!(best[3].parse::<f64>().unwrap(), least);
    let at = format!("@{}", path(&schedule));
    let solved = ok(&hammer(&[
        "solve",
        "--random",
        "--n",
        "5",
        "--index",
        "3",
        "--seed",
        "11",
        "--order",
        "random",
        "--schedule",
        &at,
        "--json",
    ]));
    let v: serde_json::Value = serde_json::from_str(&solved).unwrap();
    assert_eq!(v["exhaustive"], true);

    // The report: tables, the cost curve chart and the validation.
    let report = out.join("report");
    for f in [
        "index.html",
        "report.md",
        "tune_families.csv",
        "tune_curve.csv",
        "tune_curve.png",
        "tune_curve.svg",
        "tune_validation.csv",
        "tune_validation.png",
        "tune_refine.csv",
        "tune_refine.svg",
    ] {
        assert!(report.join(f).is_file(), "missing {f}");
    }
    let html = std::fs::read_to_string(report.join("index.html")).unwrap();
    assert!(html.contains("Tuning restart schedules for 5x5 Martello"));

    // Plain DFS's prediction is the mean of the standard-order exact searches: check it
    // against the dataset read independently.
    let dfs: Vec<f64> = rows
        .iter()
        .filter(|r| r.experiment == "exact" && r.order == "standard")
        .map(|r| r.expansions as f64)
        .collect();
    let want = dfs.iter().sum::<f64>() / dfs.len() as f64;
    let families = csv_rows(&report.join("tune_families.csv"));
    let dfs_row = families
        .iter()
        .find(|r| r[0] == "plain DFS")
        .expect("a plain DFS row");
    let got: f64 = dfs_row[3].parse().unwrap();
    assert!(
        (got - want).abs() < 0.1,
        "plain DFS predicted {got}, mean {want}"
    );
    // The tuned schedule is predicted cheaper than plain DFS (the model's own minimum
    // includes `1 x cap, exact`-like candidates, so it can never be far worse).
    let tuned_best: f64 = families
        .iter()
        .filter(|r| r[0].ends_with("(tuned)"))
        .map(|r| r[3].parse::<f64>().unwrap())
        .fold(f64::INFINITY, f64::min);
    assert!(tuned_best.is_finite());

    // The validation measured every schedule on the same fresh games, all exact.
    let validation = csv_rows(&report.join("tune_validation.csv"));
    let names: Vec<&str> = validation.iter().map(|r| r[0].as_str()).collect();
    for want in ["tuned", "paper", "plain DFS"] {
        assert!(names.contains(&want), "{names:?}");
    }
    assert!(
        names.iter().any(|n| n.starts_with("luby:")) || line.starts_with("luby:"),
        "{names:?}"
    );
    let vrows = validation_rows(&out);
    assert_eq!(vrows.len(), 40 * validation.len());
    assert!(vrows.iter().all(|r| r.exhaustive && r.seed == 12));
    assert_minima_agree_with_dfs(&vrows);

    // The schedule file works in a sweep file too, and the sweep carries the schedule.
    let use_sweep = dir.path().join("use.toml");
    std::fs::write(
        &use_sweep,
        "name = \"use\"\nseed = 5\n\n[[experiment]]\nname = \"tuned\"\nsizes = [4]\ngames = 5\norders = \"random\"\nschedules = \"@tuned/best.schedule\"\n",
    )
    .unwrap();
    let used = dir.path().join("used");
    ok(&hammer(&["run", path(&use_sweep), "--out", path(&used)]));
    let urows = read_dataset(&used).unwrap();
    assert_eq!(urows.len(), 5);
    assert!(urows.iter().all(|r| r.schedule == line && r.exhaustive));

    // Running it again resumes nothing and re-writes the same schedule.
    ok(&hammer(&[
        "tune",
        path(&data),
        "--out",
        path(&out),
        "--refine",
        "--refine-games",
        "30",
        "--validate",
        "--validation-games",
        "40",
    ]));
    assert_eq!(std::fs::read_to_string(&schedule).unwrap(), text);
}

#[test]
fn tune_refuses_data_without_a_run_time_experiment() {
    let dir = tempfile::tempdir().unwrap();
    let sweep = dir.path().join("plain.toml");
    std::fs::write(
        &sweep,
        "name = \"plain\"\nseed = 1\n\n[[experiment]]\nname = \"exact\"\nsizes = [4]\ngames = 5\n",
    )
    .unwrap();
    let data = dir.path().join("data");
    ok(&hammer(&["run", path(&sweep), "--out", path(&data)]));
    let out = hammer(&["tune", path(&data), "--out", path(&dir.path().join("t"))]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot tune: no run-time experiment"), "{err}");
    assert!(err.contains("examples/tune_rtd.toml"), "{err}");
    assert!(!dir.path().join("t").exists());

    let out = hammer(&[
        "tune",
        path(&data),
        "--out",
        path(&dir.path().join("t")),
        "--families",
        "fixed,lubby",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown family 'lubby'"), "{err}");
}

/// A run-time experiment in the learned order: the tuner prices the tuned
/// lists' fallback with the learned order's own exact search, names the learned order in
/// every prediction, and validates in it on fresh games.
#[test]
fn tune_a_learned_order_on_its_own_exact_search() {
    let dir = tempfile::tempdir().unwrap();
    let train = dir.path().join("train.toml");
    std::fs::write(
        &train,
        "name = \"train\"\nseed = 3\n\n[[experiment]]\nname = \"train\"\nsizes = [5]\ngames = 300\norders = \"random\"\nschedules = \"luby:256\"\n",
    )
    .unwrap();
    let train_data = dir.path().join("train-data");
    ok(&hammer(&["run", path(&train), "--out", path(&train_data)]));
    let kb = dir.path().join("kb.bin");
    ok(&hammer(&[
        "learn",
        path(&train_data),
        "--n",
        "5",
        "--radius",
        "1",
        "--out",
        path(&kb),
    ]));
    let order = format!("learned:{},1,0.1", path(&kb));
    let sweep = dir.path().join("tune.toml");
    std::fs::write(
        &sweep,
        TUNE_SWEEP
            .replace(
                "attempts = 8",
                &format!("orders = \"{order}\"\nattempts = 8"),
            )
            .replace(
                "orders = [\"random\", \"standard\"]",
                &format!("orders = [\"{order}\", \"standard\"]"),
            ),
    )
    .unwrap();
    let data = dir.path().join("data");
    ok(&hammer(&["run", path(&sweep), "--out", path(&data)]));
    let rows = read_dataset(&data).unwrap();
    let learned_name = rows
        .iter()
        .find(|r| r.experiment == "rtd")
        .map(|r| r.order.clone())
        .unwrap();
    assert!(learned_name.starts_with(&order), "{learned_name}");

    let out = dir.path().join("tuned");
    let stdout = ok(&hammer(&[
        "tune",
        path(&data),
        "--out",
        path(&out),
        "--validate",
        "--validation-games",
        "20",
        "--threads",
        "2",
    ]));
    assert!(stdout.contains("tuned on 60 games of size 5"), "{stdout}");
    assert!(stdout.contains("validation on 20 fresh games"), "{stdout}");

    // The fallback of the tuned lists is the learned order's exact search: its
    // prediction is the mean of those rows, read independently.
    let exact: Vec<f64> = rows
        .iter()
        .filter(|r| r.experiment == "exact" && r.order == learned_name)
        .map(|r| r.expansions as f64)
        .collect();
    assert_eq!(exact.len(), 60);
    let want = exact.iter().sum::<f64>() / exact.len() as f64;
    let families = csv_rows(&out.join("report").join("tune_families.csv"));
    let row = families
        .iter()
        .find(|r| r[0] == "exact, tuning order")
        .expect("an exact, tuning order row");
    assert_eq!(row[1], learned_name);
    let got: f64 = row[3].parse().unwrap();
    assert!((got - want).abs() < 0.1, "predicted {got}, mean {want}");
    // Every prediction but plain DFS is in the learned order, paper included.
    for r in &families {
        let want = if r[0] == "plain DFS" {
            "standard"
        } else {
            &learned_name
        };
        assert_eq!(r[1], want, "{r:?}");
    }
    let report = std::fs::read_to_string(out.join("report").join("report.md")).unwrap();
    assert!(!report.contains("stands in"), "{report}");

    // The schedule file names the learned order, and the validation ran in it.
    let text = std::fs::read_to_string(out.join("best.schedule")).unwrap();
    assert!(text.contains(&format!("--order {learned_name}")), "{text}");
    let vrows = validation_rows(&out);
    assert!(vrows.iter().any(|r| r.order == learned_name));
    assert!(vrows.iter().all(|r| r.exhaustive));
    assert_minima_agree_with_dfs(&vrows);
}

/// `--validate --coordinator URL`: the validation sweep is submitted to a standing
/// coordinator and read back where it wrote it; the comparison is the one a validation
/// on this machine makes, row for row.
#[test]
fn tune_validates_on_a_standing_cluster() {
    let dir = tempfile::tempdir().unwrap();
    let sweep = dir.path().join("tune.toml");
    std::fs::write(&sweep, TUNE_SWEEP).unwrap();
    let data = dir.path().join("data");
    ok(&hammer(&["run", path(&sweep), "--out", path(&data)]));

    let port = support::free_port();
    let url = format!("http://127.0.0.1:{port}");
    let listen = format!("127.0.0.1:{port}");
    let root = dir.path().join("root");
    let _coordinator = support::spawn_hammer(
        dir.path(),
        "coordinator",
        &["coordinator", "--out", path(&root), "--listen", &listen],
    );
    let _worker = support::worker(dir.path(), "worker", port, &["--threads", "2"]);
    let tune = |out: &Path, cluster: bool| {
        let mut args = vec![
            "tune",
            path(&data),
            "--out",
            path(out),
            "--validate",
            "--validation-games",
            "40",
        ];
        if cluster {
            args.extend_from_slice(&["--coordinator", &url]);
        }
        ok(&hammer(&args))
    };
    let (local, cluster) = (dir.path().join("local"), dir.path().join("cluster"));
    let on_cluster = tune(&cluster, true);
    assert!(
        on_cluster.contains("validation on 40 fresh games"),
        "{on_cluster}"
    );
    tune(&local, false);
    let file = |dir: &Path, name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    assert_eq!(
        file(&cluster, "validate.toml"),
        file(&local, "validate.toml")
    );
    // The sweep's dataset is the coordinator's ROOT/NAME, identical to the local one.
    let name = hammer_sweep::Sweep::parse(&file(&cluster, "validate.toml"), "validate.toml")
        .unwrap()
        .name;
    let remote = support::normalized(read_dataset(&root.join(&name)).unwrap());
    let here = support::normalized(validation_rows(&local));
    assert_eq!(remote.len(), here.len());
    assert!(remote == here, "the cluster's validation rows differ");
    // The same comparison, timing columns aside.
    let untimed = |dir: &Path| -> Vec<Vec<String>> {
        let text = file(&dir.join("report"), "tune_validation.csv");
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        let keep: Vec<usize> = (0..header.len())
            .filter(|&i| !header[i].starts_with("wall"))
            .collect();
        assert!(keep.len() < header.len() && keep.len() > 8, "{header:?}");
        text.lines()
            .map(|l| {
                let cells: Vec<&str> = l.split(',').collect();
                keep.iter().map(|&i| cells[i].to_owned()).collect()
            })
            .collect()
    };
    assert_eq!(untimed(&cluster), untimed(&local));
}
