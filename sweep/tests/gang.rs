//! `gang = K`: every game of the experiment is one unit, leased to a gang of K workers,
//! and the key is refused where a gang cannot search; the retired `split` and
//! `split_mode` are refused with a pointer to `gang`.

use hammer_sweep::Sweep;

fn error(text: &str) -> String {
    Sweep::parse(text, "bad.toml").unwrap_err().to_string()
}

const GANG: &str = r#"name = "gang"
seed = 2013

[[experiment]]
name = "hard"
sizes = [7]
games = 3
gang = 2
"#;

/// Every game is one unit, leased to a gang of `gang` workers, and the rows'
/// configuration is that of the game searched alone.
#[test]
fn a_gang_game_is_one_unit() {
    let sweep = Sweep::parse(GANG, "gang.toml").unwrap();
    let experiment = &sweep.experiments[0];
    assert_eq!(experiment.gang, Some(2));
    let units = sweep.units();
    assert_eq!(units.len(), 3);
    assert!(units.iter().all(|u| u.games() == 1));
    for unit in &units {
        assert_eq!(sweep.unit_by_id(&unit.id()), Some(*unit));
    }
    let alone = Sweep::parse(&GANG.replace("gang = 2\n", ""), "a").unwrap();
    assert_eq!(alone.experiments[0].configs, experiment.configs);
    assert_eq!(alone.experiments[0].gang, None);
    // The canonical text says it, and reads back the same.
    let canonical = sweep.to_canonical_toml();
    assert!(canonical.contains("\ngang = 2\n"), "{canonical}");
    let again = Sweep::parse(&canonical, "canonical.toml").unwrap();
    assert_eq!(again.experiments[0].gang, Some(2));
    assert_eq!(again.to_canonical_toml(), canonical);
}

/// A gang searches by owners, exactly: a family without an owner search, and any
/// configuration the owner search is not, are refused by name at the `gang` key.
#[test]
fn gang_is_refused_where_a_gang_cannot_search() {
    let e = error(&GANG.replace("games = 3\n", "games = 3\norders = [\"random\"]\n"));
    assert!(
        e.contains("bad.toml:9:1") && e.contains("gang") && e.contains("order random"),
        "{e}"
    );
    let e = error(&GANG.replace("games = 3\n", "games = 3\nschedules = [\"luby:256\"]\n"));
    assert!(e.contains("schedule luby:256"), "{e}");
    let e = error(&GANG.replace("games = 3\n", "games = 3\nmax_expansions = 1000\n"));
    assert!(e.contains("max_expansions"), "{e}");
    let e = error(&GANG.replace("games = 3\n", "games = 3\nunit_games = 2\n"));
    assert!(
        e.contains("bad.toml:8:14") && e.contains("unit_games"),
        "{e}"
    );
    let e = error(&GANG.replace(
        "games = 3\n",
        "games = 3\nkind = \"run-time\"\nattempts = 2\ncap = 100\n",
    ));
    assert!(e.contains("run-time") && e.contains("gang"), "{e}");
    let peg = r#"name = "p"
seed = 1

[[experiment]]
name = "peg"
puzzle = "peg"
boards = ["english"]
games = 1
gang = 2
"#;
    let e = error(peg);
    assert!(
        e.contains("bad.toml:9:1") && e.contains("no owner search"),
        "{e}"
    );
}

/// `gang` takes a whole number of members, at least two.
#[test]
fn gang_needs_two_members_or_more() {
    let e = error(&GANG.replace("gang = 2", "gang = 1"));
    assert!(e.contains("bad.toml:8:8") && e.contains("gang"), "{e}");
    let e = error(&GANG.replace("gang = 2", "gang = \"two\""));
    assert!(e.contains("bad.toml:8:8") && e.contains("gang"), "{e}");
}
