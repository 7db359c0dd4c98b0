//! `split = K`: every game of the experiment is K part units and one unit for the whole
//! game, with ids that read back, and the key is refused where a game cannot be split.

use hammer_sweep::Sweep;

const SPLIT: &str = r#"name = "split"
seed = 2013

[[experiment]]
name = "hard"
sizes = [8]
games = 3
first_game = 10
orders = ["random"]
schedules = ["luby:256"]
split = 4
"#;

#[test]
fn a_split_game_is_a_whole_unit_and_its_parts() {
    let sweep = Sweep::parse(SPLIT, "split.toml").unwrap();
    assert_eq!(sweep.experiments[0].split, Some(4));
    let units = sweep.units();
    assert_eq!(units.len(), 3 * 5);
    let ids: Vec<String> = units.iter().take(5).map(|u| u.id()).collect();
    assert_eq!(
        ids,
        [
            "e000-c0000-n8-g000000000010",
            "e000-c0000-n8-g000000000010-s000",
            "e000-c0000-n8-g000000000010-s001",
            "e000-c0000-n8-g000000000010-s002",
            "e000-c0000-n8-g000000000010-s003",
        ]
    );
    for unit in &units {
        assert_eq!(unit.games(), 1);
        assert_eq!(sweep.unit_by_id(&unit.id()), Some(*unit));
        assert_eq!(unit.whole().part, None);
    }
    // No part past the last, and no part of an experiment that does not split.
    assert_eq!(sweep.unit_by_id("e000-c0000-n8-g000000000010-s004"), None);
    assert_eq!(sweep.unit_by_id("e000-c0000-n8-g000000000010-s1"), None);
    let plain = Sweep::parse(&SPLIT.replace("split = 4\n", ""), "plain.toml").unwrap();
    assert_eq!(plain.unit_by_id("e000-c0000-n8-g000000000010-s000"), None);
    // The configuration, and so every row's key, is that of the same games unsplit.
    assert_eq!(plain.experiments[0].configs, sweep.experiments[0].configs);
}

fn error(text: &str) -> String {
    Sweep::parse(text, "bad.toml").unwrap_err().to_string()
}

#[test]
fn split_is_refused_where_a_game_cannot_be_split() {
    let e = error(&SPLIT.replace("split = 4", "split = 1"));
    assert!(e.contains("bad.toml:11:9") && e.contains("split"), "{e}");
    let e = error(&SPLIT.replace("split = 4", "split = \"four\""));
    assert!(e.contains("bad.toml:11") && e.contains("split"), "{e}");
    let e = error(&SPLIT.replace("split = 4", "split = 4\nunit_games = 2"));
    assert!(e.contains("unit_games") && e.contains("split"), "{e}");
    let peg = r#"name = "p"
seed = 1

[[experiment]]
name = "peg"
puzzle = "peg"
boards = ["english"]
games = 1
split = 2
"#;
    let e = error(peg);
    assert!(
        e.contains("bad.toml:9") && e.contains("only martello"),
        "{e}"
    );
    let run_time = SPLIT.replace(
        "schedules = [\"luby:256\"]\n",
        "kind = \"run-time\"\nattempts = 2\ncap = 100\n",
    );
    let e = error(&run_time);
    assert!(e.contains("run-time") && e.contains("split"), "{e}");
}

#[test]
fn split_mode_names_what_each_part_searches() {
    use hammer_sweep::SplitMode;
    let sweep = Sweep::parse(SPLIT, "split.toml").unwrap();
    assert_eq!(sweep.experiments[0].split_mode, SplitMode::Subtrees);
    let race = SPLIT.replace("split = 4", "split = 4\nsplit_mode = \"race\"");
    let sweep = Sweep::parse(&race, "race.toml").unwrap();
    assert_eq!(sweep.experiments[0].split_mode, SplitMode::Race);
    // The same units either way: a race's parts are leased like any parts.
    assert_eq!(sweep.units().len(), 3 * 5);
    let e = error(&SPLIT.replace("split = 4", "split = 4\nsplit_mode = \"halves\""));
    assert!(
        e.contains("bad.toml:12") && e.contains("split_mode") && e.contains("\"halves\""),
        "{e}"
    );
    let e = error(&SPLIT.replace("split = 4", "split_mode = \"race\""));
    assert!(
        e.contains("bad.toml:11") && e.contains("needs `split"),
        "{e}"
    );
}

const SHARED: &str = r#"name = "gang"
seed = 2013

[[experiment]]
name = "hard"
sizes = [7]
games = 3
split = 2
split_mode = "shared"
"#;

/// `split_mode = "shared"`: every game is one unit, leased to a gang of `split` workers;
/// no part units, and the rows' configuration is that of the game searched alone.
#[test]
fn a_shared_game_is_one_unit_for_a_gang() {
    let sweep = Sweep::parse(SHARED, "gang.toml").unwrap();
    let experiment = &sweep.experiments[0];
    assert_eq!(experiment.gang, Some(2));
    assert_eq!(experiment.split, None);
    let units = sweep.units();
    assert_eq!(units.len(), 3);
    assert!(units.iter().all(|u| u.games() == 1 && u.part.is_none()));
    let alone = Sweep::parse(
        &SHARED.replace("split = 2\nsplit_mode = \"shared\"\n", ""),
        "a",
    )
    .unwrap();
    assert_eq!(alone.experiments[0].configs, experiment.configs);
    // The canonical text says it, and reads back the same.
    let canonical = sweep.to_canonical_toml();
    assert!(
        canonical.contains("split = 2\nsplit_mode = \"shared\""),
        "{canonical}"
    );
    let again = Sweep::parse(&canonical, "canonical.toml").unwrap();
    assert_eq!(again.experiments[0].gang, Some(2));
}

/// A gang searches by owners, exactly: a family without an owner search, and any
/// configuration the owner search is not, are refused by name.
#[test]
fn shared_is_refused_where_a_gang_cannot_search() {
    let e = error(&SHARED.replace("games = 3\n", "games = 3\norders = [\"random\"]\n"));
    assert!(
        e.contains("bad.toml:10") && e.contains("split_mode") && e.contains("order random"),
        "{e}"
    );
    let e = error(&SHARED.replace("games = 3\n", "games = 3\nschedules = [\"luby:256\"]\n"));
    assert!(e.contains("schedule luby:256"), "{e}");
    let e = error(&SHARED.replace("games = 3\n", "games = 3\nmax_expansions = 1000\n"));
    assert!(e.contains("max_expansions"), "{e}");
    let e = error(&SHARED.replace("games = 3\n", "games = 3\nunit_games = 2\n"));
    assert!(e.contains("unit_games"), "{e}");
    let e = error(&SHARED.replace("split_mode = \"shared\"", "split_mode = \"sharing\""));
    assert!(e.contains("\"shared\""), "{e}");
    let peg = r#"name = "p"
seed = 1

[[experiment]]
name = "peg"
puzzle = "peg"
boards = ["english"]
games = 1
split = 2
split_mode = "shared"
"#;
    let e = error(peg);
    assert!(
        e.contains("bad.toml:10") && e.contains("no owner search"),
        "{e}"
    );
}
