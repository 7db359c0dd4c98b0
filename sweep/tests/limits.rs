//! Per-game limits in sweep files, and experiments that continue the games another
//! experiment left unknown (`unknown_games`).

use std::path::Path;
use std::time::Duration;

use hammer_dataset::{ResultRow, unknown_games, write_part};
use hammer_proto::error_chain;
use hammer_sweep::{Sweep, SweepFile};

const LIMITED: &str = r#"name = "frontier"
seed = 2013

[[experiment]]
name = "capped"
sizes = [7]
games = 40
orders = ["random"]
schedules = ["luby:256"]
max_expansions = 5_000_000
max_seconds = 60
max_memo_mb = 512
"#;

#[test]
fn limits_go_into_every_configuration_and_its_id() {
    let sweep = Sweep::parse(LIMITED, "limited.toml").unwrap();
    let config = &sweep.experiments[0].configs[0];
    assert_eq!(
        config.id,
        "order=random;schedule=luby:256;max_expansions=5000000;max_seconds=60;max_memo_mb=512;prefix=0;trial=0"
    );
    assert_eq!(config.limits.max_expansions, Some(5_000_000));
    assert_eq!(config.limits.max_time, Some(Duration::from_secs(60)));
    assert_eq!(config.limits.memo_bytes, Some(512 << 20));
    assert_eq!(config.solver_config().limits, config.limits);
    assert_eq!(
        hammer_sweep::RunConfig::from_id(&config.id).unwrap(),
        *config
    );
    // The canonical text says the same, and a sweep without limits keeps its old ids.
    let again = Sweep::parse(&sweep.to_canonical_toml(), "canonical.toml").unwrap();
    assert_eq!(again.experiments[0].configs, sweep.experiments[0].configs);
    let plain = LIMITED
        .lines()
        .filter(|l| !l.starts_with("max_"))
        .collect::<Vec<_>>()
        .join("\n");
    let plain = Sweep::parse(&plain, "plain.toml").unwrap();
    assert_eq!(
        plain.experiments[0].configs[0].id,
        "order=random;schedule=luby:256;prefix=0;trial=0"
    );
}

#[test]
fn bad_limits_are_refused_at_their_place() {
    for (old, line, want) in [
        (
            "max_expansions = 5_000_000",
            "max_expansions = 0",
            "limited.toml:10:18: experiment[0].max_expansions: max_expansions 0 must be at least 1",
        ),
        (
            "max_seconds = 60",
            "max_seconds = 1_000_000",
            "limited.toml:11:15: experiment[0].max_seconds:",
        ),
        (
            "max_memo_mb = 512",
            "max_memo_mb = \"2GiB\"",
            "limited.toml:12:15: experiment[0].max_memo_mb:",
        ),
    ] {
        let text = LIMITED.replace(old, line);
        let err = Sweep::parse(&text, "limited.toml").unwrap_err().to_string();
        assert!(err.starts_with(want), "{line}: {err}");
    }
}

/// A dataset of experiment `capped` of seed 2013 at n = 7: games 0..10 under two
/// configurations, where games 3 and 7 have only inexact rows and game 5 is settled by
/// its second configuration only.
fn dataset(dir: &Path, seed: i64) {
    let row = |config: &str, game: i64, exhaustive: bool| ResultRow {
        sweep: "frontier".into(),
        experiment: "capped".into(),
        config: config.into(),
        n: 7,
        game_index: game,
        seed,
        puzzle: "martello".into(),
        params: "n=7".into(),
        exhaustive,
        ..ResultRow::default()
    };
    let a: Vec<ResultRow> = (0..10)
        .map(|g| row("a", g, ![3, 5, 7].contains(&g)))
        .collect();
    let b: Vec<ResultRow> = (0..10).map(|g| row("b", g, g != 3 && g != 7)).collect();
    write_part(dir, "capped", 7, "e000-c0000-n7-g000000000000", &a).unwrap();
    write_part(dir, "capped", 7, "e000-c0001-n7-g000000000000", &b).unwrap();
}

const MORE: &str = r#"name = "frontier-more"
seed = 2013

[[experiment]]
name = "more"
sizes = [7]
orders = ["random"]
schedules = ["luby:256"]
max_expansions = 50_000_000
unknown_games = { dataset = "data", experiment = "capped" }
"#;

/// Reads a sweep file with its continued datasets' games, as the `hammer` binary does;
/// an error is printed with its causes.
fn load(path: &Path) -> Result<Sweep, String> {
    let mut file = SweepFile::read(path).map_err(|e| e.to_string())?;
    for c in file.continuations_mut() {
        let games = unknown_games(&c.dataset, &c.experiment, c.seed)
            .map_err(|e| error_chain(&c.error(e)))?;
        c.games = Some(games);
    }
    file.finish().map_err(|e| e.to_string())
}

#[test]
fn unknown_games_are_read_from_the_dataset_and_written_into_the_text() {
    let dir = tempfile::tempdir().unwrap();
    dataset(&dir.path().join("data"), 2013);
    let file = dir.path().join("more.toml");
    std::fs::write(&file, MORE).unwrap();
    // Parsing alone reads no dataset: the continuation's games are the caller's to read.
    let err = Sweep::load(&file).unwrap_err().to_string();
    assert!(
        err.contains("experiment[0].unknown_games") && err.contains("were not read"),
        "{err}"
    );
    let sweep = load(&file).unwrap();
    let e = &sweep.experiments[0];
    assert_eq!(e.unknown_games.as_ref().unwrap().games, vec![vec![3, 7]]);
    assert_eq!(sweep.total_games(), 2);
    // One unit a game, found again by id.
    let units = sweep.units();
    let games: Vec<(u64, u64)> = units.iter().map(|u| (u.start, u.end)).collect();
    assert_eq!(games, vec![(3, 4), (7, 8)]);
    for unit in &units {
        assert_eq!(sweep.unit_by_id(&unit.id()), Some(*unit));
    }
    assert_eq!(sweep.unit_by_id("e000-c0000-n7-g000000000005"), None);
    // The kept text names the games, not the dataset: workers parse it without the
    // dataset, into the same units, and so does the canonical form.
    assert!(
        sweep
            .text
            .contains(r#"unknown_games = { experiment = "capped", games = { "n=7" = [3, 7] } }"#),
        "{}",
        sweep.text
    );
    let shipped = Sweep::parse(&sweep.text, "<coordinator>").unwrap();
    assert_eq!(shipped.units(), units);
    assert_eq!(shipped.digest, sweep.digest);
    let canonical = Sweep::parse(&sweep.to_canonical_toml(), "canonical.toml").unwrap();
    assert_eq!(canonical.units(), units);
}

#[test]
fn bad_continuations_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let refuse = |text: &str| {
        let file = dir.path().join("more.toml");
        std::fs::write(&file, text).unwrap();
        load(&file).unwrap_err()
    };
    // No dataset at all.
    let err = refuse(MORE);
    assert!(
        err.contains("experiment[0].unknown_games") && err.contains("not a hammer dataset"),
        "{err}"
    );
    // Another seed's games.
    dataset(&dir.path().join("data"), 77);
    let err = refuse(MORE);
    assert!(err.contains("seed 77") && err.contains("2013"), "{err}");
    std::fs::remove_dir_all(dir.path().join("data")).unwrap();
    dataset(&dir.path().join("data"), 2013);
    // An experiment the dataset does not have.
    let err = refuse(&MORE.replace("experiment = \"capped\"", "experiment = \"cappd\""));
    assert!(
        err.contains("no experiment \"cappd\" (it has: capped)"),
        "{err}"
    );
    // Points with nothing unknown.
    let err = refuse(&MORE.replace("sizes = [7]", "sizes = [6]"));
    assert!(
        err.contains("left no game of this experiment's points (n=6) unknown"),
        "{err}"
    );
    // With a range of games.
    let err = refuse(&MORE.replace("max_expansions", "games = 10\nmax_expansions"));
    assert!(
        err.contains("experiment[0].games: `games` cannot be given with `unknown_games`"),
        "{err}"
    );
    // Sweep text (not a file) cannot read a dataset.
    let err = Sweep::parse(MORE, "<text>").unwrap_err().to_string();
    assert!(err.contains("load the sweep with its path"), "{err}");
    // The self-contained form is checked too.
    for (listing, want) in [
        (
            r#"{ experiment = "capped", games = { "n=8" = [1] } }"#,
            "point n=8, which this experiment does not have",
        ),
        (
            r#"{ experiment = "capped", games = { "n=7" = [7, 3] } }"#,
            "increasing order",
        ),
        (r#"{ games = { "n=7" = [3] } }"#, "missing key"),
        (
            r#"{ experiment = "capped", dataset = "data", games = { "n=7" = [3] } }"#,
            "and no games list",
        ),
    ] {
        let text = MORE.replace(r#"{ dataset = "data", experiment = "capped" }"#, listing);
        let err = Sweep::parse(&text, "more.toml").unwrap_err().to_string();
        assert!(err.contains(want), "{listing}: {err}");
    }
}
