//! Mancala rules checks that name the spec's corner cases directly (the shared
//! conformance cases run through the family crate).

use hammer_engine::Puzzle;
use hammer_engine::mancala::{Arith, Mancala, Picks, Rules, State};

fn rules(h: i64, s: i64, picks: Picks, arith: Arith) -> Rules {
    Rules::new(h, s, picks, true, true, arith).expect("in range")
}

/// The seed's printed 30-pick sequence takes all 48 stones under its own arithmetic.
#[test]
fn the_seed_sequence_takes_every_stone() {
    let seq = [
        8, 5, 4, 2, 9, 5, 7, 11, 9, 5, 3, 9, 5, 1, 2, 1, 12, 1, 10, 1, 3, 1, 8, 1, 6, 1, 4, 1, 2, 1,
    ];
    let mut state = State::start(Rules::default());
    for p in seq {
        assert!(state.can_pick(p), "{p} in {state}");
        state = state.apply(p);
    }
    assert_eq!(state.home(), 48);
    assert_eq!(state.to_string(), "0,0,0,0,0,0,0,0,0,0,0,0|48");
}

/// p = N, k = N: matlab puts one stone in the store and ends in hole 1; ring is free.
#[test]
fn the_last_hole_with_n_stones_differs() {
    for (arith, free) in [(Arith::Matlab, false), (Arith::Ring, true)] {
        let r = Rules::new(2, 0, Picks::All, true, false, arith).expect("in range");
        let state = State::new(r, &[0, 0, 0, 4], 0).expect("fits");
        let (next, pick) = state.pick_traced(4);
        assert_eq!(pick.gain, 1);
        assert_eq!(pick.free, free, "{arith:?}");
        assert_eq!(next.holes(), &[1, 1, 1, 0]);
    }
}

#[test]
fn own_side_picks_only_and_ended_states_have_no_moves() {
    let state = State::start(rules(3, 2, Picks::Own, Arith::Matlab));
    let mut moves = Vec::new();
    Mancala.moves(&state, &mut moves);
    assert_eq!(moves, vec![1, 2, 3]);
    let ended = state.with_ended(true);
    Mancala.moves(&ended, &mut moves);
    assert!(moves.is_empty());
    assert_eq!(Mancala.lower_bound(&ended), ended.on_board());
    assert_ne!(Mancala.fingerprint(&ended), Mancala.fingerprint(&state));
}

#[test]
fn notation_round_trips_and_refuses_bad_text() {
    let r = rules(2, 3, Picks::All, Arith::Ring);
    for text in ["3,3,3,3|0", "0,1,2,3|6|end"] {
        assert_eq!(State::parse(r, text).expect("parses").to_string(), text);
    }
    for bad in [
        "3,3,3|0",
        "3,3,3,3",
        "3,3,x,3|0",
        "3,3,3,3|0|over",
        "3,3,3,-3|0",
        "999,9,9,9|0",
    ] {
        assert!(State::parse(r, bad).is_err(), "{bad}");
    }
}
