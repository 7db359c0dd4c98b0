use super::*;

const SWEEP: &str = "name = \"parts\"\nseed = 3\n\n[[experiment]]\nname = \"exact\"\n\
sizes = [5]\ngames = 20\nunit_games = 10\n";

fn sweep(text: &str) -> Sweep {
    Sweep::parse(text, "parts.toml").expect("sweep")
}

fn games(unit: &Unit) -> Vec<(GameResult, &'static str, &'static str)> {
    (unit.start..unit.end)
        .map(|i| {
            let game = GameResult {
                game_index: i,
                board: format!("board {i}"),
                start: format!("board {i}"),
                score: (i % 4) as u32,
                exhaustive: true,
                expansions: 100 + i,
                attempts: 1,
                ..GameResult::default()
            };
            (game, "w-1", "0.1.0")
        })
        .collect()
}

#[tokio::test]
async fn a_part_put_twice_is_one_part_and_the_second_put_reads_its_summary() {
    let sweep = sweep(SWEEP);
    let unit = sweep.units()[0];
    let part = encode(&sweep, &unit, games(&unit)).expect("encode");
    assert_eq!(part.key, key_of(&sweep, &unit).unwrap());
    assert_eq!(part.summary.games, 10);
    assert_eq!(part.summary.expansions, (100..110).sum::<u64>());
    let dir = tempfile::tempdir().unwrap();
    let store = Store::local(dir.path());
    let (first, size) = put(&store, &sweep, part.clone()).await.expect("put");
    assert_eq!(
        (first.clone(), size),
        (part.summary.clone(), part.bytes.len() as u64)
    );
    // Another writer of the unit, whose rows differ in a timing column: its put finds
    // the name taken and returns the summary of the part in place.
    let mut other = games(&unit);
    other[0].0.wall_ns = 7;
    let again = encode(&sweep, &unit, other).expect("encode");
    assert_ne!(again.bytes, part.bytes);
    assert_eq!(
        put(&store, &sweep, again).await.expect("put"),
        (first, size)
    );
    assert_eq!(store.get(&part.key).await.unwrap(), part.bytes);
}

#[tokio::test]
async fn a_part_of_another_sweep_under_the_same_name_is_refused() {
    let ours = sweep(SWEEP);
    let theirs = sweep(&SWEEP.replace("seed = 3", "seed = 4"));
    let unit = ours.units()[0];
    let dir = tempfile::tempdir().unwrap();
    let store = Store::local(dir.path());
    put(
        &store,
        &theirs,
        encode(&theirs, &unit, games(&unit)).unwrap(),
    )
    .await
    .expect("put");
    let err = put(&store, &ours, encode(&ours, &unit, games(&unit)).unwrap())
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, PartError::Foreign { .. }), "{text}");
    assert!(
        text.contains(&theirs.digest) && text.contains(&ours.digest),
        "{text}"
    );
}
