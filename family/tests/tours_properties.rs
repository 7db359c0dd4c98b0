//! Properties of the slide-tours rules, search, count and bound on small random boards,
//! against a brute force written from the spec's cell rules (not from the engine's
//! slides): every tour the search finds replays and passes `check`; the first tour, the
//! fewest unvisited cells, the tour count and the start cells equal the brute force's;
//! the engine's count equals `hammer_solver::count`'s; and the lower bound never
//! exceeds the exhaustive answer, before the first move and after random moves.

use hammer_engine::Puzzle;
use hammer_engine::tours::{Board, State, Step, Tours, count_tours, lower_bound};
use hammer_family::tours::{Position, solve_board};
use hammer_solver::{Reduction, count};
use proptest::prelude::*;
use serde_json::json;

/// A board of side 1..=max_n with each cell an obstacle with probability about `p`%,
/// at least one cell free.
fn board(max_n: u8, p: u32) -> impl Strategy<Value = Board> {
    (1..=max_n).prop_flat_map(move |n| {
        proptest::collection::vec(0..100u32, usize::from(n) * usize::from(n)).prop_filter_map(
            "a free cell",
            move |rolls| {
                let obstacles: Vec<u32> = (1..=u32::from(n) * u32::from(n))
                    .filter(|&k| rolls[(k - 1) as usize] < p)
                    .collect();
                Board::new(n, &obstacles).ok()
            },
        )
    })
}

/// The board as rows of booleans (true: free), from its notation.
fn grid(board: &Board) -> (usize, Vec<bool>) {
    let text = board.to_string();
    let n = text.split('/').count();
    (
        n,
        text.chars()
            .filter(|&c| c != '/')
            .map(|c| c == '.')
            .collect(),
    )
}

/// Every legal partial tour under rules 1 to 3, cell by cell (0-based cells): calls
/// `seen` with each path.
fn walk(n: usize, free: &[bool], path: &mut Vec<usize>, seen: &mut impl FnMut(&[usize])) {
    seen(path);
    let at = *path.last().expect("non-empty");
    let (r, c) = ((at / n) as i64, (at % n) as i64);
    let visited = |k: usize, path: &[usize]| path.contains(&k);
    let cell = |r: i64, c: i64| {
        (r >= 0 && c >= 0 && r < n as i64 && c < n as i64).then(|| (r as usize) * n + c as usize)
    };
    let ahead = (path.len() >= 2).then(|| {
        let prev = path[path.len() - 2];
        let (dr, dc) = (r - (prev / n) as i64, c - (prev % n) as i64);
        ((dr, dc), cell(r + dr, c + dc))
    });
    for (dr, dc) in [(-1, 0), (0, -1), (0, 1), (1, 0)] {
        let Some(next) = cell(r + dr, c + dc) else {
            continue;
        };
        if !free[next] || visited(next, path) {
            continue;
        }
        // Rule 3: a turn needs the cell straight ahead blocked.
        if let Some((dir, beyond)) = ahead
            && dir != (dr, dc)
            && beyond.is_some_and(|b| free[b] && !visited(b, path))
        {
            continue;
        }
        path.push(next);
        walk(n, free, path, seen);
        path.pop();
    }
}

struct Brute {
    tours: Vec<Vec<u32>>,
    starts: Vec<u32>,
    longest: usize,
    free: usize,
}

fn brute(board: &Board) -> Brute {
    let (n, free) = grid(board);
    let count = free.iter().filter(|&&f| f).count();
    let mut out = Brute {
        tours: Vec::new(),
        starts: Vec::new(),
        longest: 0,
        free: count,
    };
    for s in (0..n * n).filter(|&s| free[s]) {
        let mut path = vec![s];
        walk(n, &free, &mut path, &mut |p: &[usize]| {
            out.longest = out.longest.max(p.len());
            if p.len() == count {
                out.tours.push(p.iter().map(|&k| k as u32 + 1).collect());
            }
        });
    }
    out.tours.sort();
    out.starts = out.tours.iter().map(|t| t[0]).collect();
    out.starts.dedup();
    out
}

/// The fewest unvisited cells reachable from `state` by slides, exhaustively.
fn exhaustive(state: &State) -> u32 {
    let mut moves = Vec::new();
    Tours.moves(state, &mut moves);
    moves
        .iter()
        .map(|&m| exhaustive(&Tours.apply(state, m)))
        .min()
        .unwrap_or_else(|| Tours.score(state))
}

/// [`exhaustive`] with a table of the states already solved.
fn exhaustive_memo(state: &State, memo: &mut std::collections::HashMap<State, u32>) -> u32 {
    if let Some(&v) = memo.get(state) {
        return v;
    }
    let mut moves = Vec::new();
    Tours.moves(state, &mut moves);
    let best = moves
        .iter()
        .map(|&m| exhaustive_memo(&Tours.apply(state, m), memo))
        .min()
        .unwrap_or_else(|| Tours.score(state));
    memo.insert(*state, best);
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The search's answer equals the brute force's: the first tour in the spec's
    /// order, or the fewest cells that must stay unvisited; and the tour replays
    /// through the family's notation and passes the spec's `check`.
    #[test]
    fn search_agrees_with_brute_force(board in board(5, 25)) {
        let b = brute(&board);
        let solved = solve_board(&board);
        prop_assert_eq!(solved.tour.as_ref(), b.tours.first());
        prop_assert_eq!(solved.min_unvisited as usize, b.free - b.longest);
        prop_assert!(lower_bound(&board.start()) <= solved.min_unvisited);
        let family = hammer_family::by_name("tours").unwrap();
        if let Some(tour) = &solved.tour {
            let valid = family
                .answer(&json!({"kind": "check", "board": board.to_string(), "path": tour}))
                .unwrap();
            prop_assert_eq!(valid, json!({"valid": true}));
        }
        // The path replays as moves: place, then slides, ending on the same cells.
        let cells = board.indices(&solved.path).unwrap();
        let pos = Position::from_path(board, cells);
        prop_assert!(pos.is_ok() || solved.path.is_empty(), "{:?}", pos);
    }

    /// The count equals the brute force's tours and starts, and the level-by-level
    /// count of `hammer_solver::count` (move sequences reaching score 0).
    #[test]
    fn count_agrees_with_enumeration(board in board(4, 20)) {
        let b = brute(&board);
        let counted = count_tours(&board.start());
        prop_assert_eq!(counted.tours, b.tours.len() as u128);
        let starts: Vec<u32> = counted.starts.iter().map(|&i| board.number(i)).collect();
        prop_assert_eq!(&starts, &b.starts);
        let first: Option<Vec<u32>> = counted
            .first
            .map(|f| f.iter().map(|&i| board.number(i)).collect());
        prop_assert_eq!(first.as_ref(), b.tours.first());
        let levels = count(&Tours, &board.start(), Reduction::None);
        let paths = levels.level(0).map_or(0, |l| l.paths);
        prop_assert_eq!(paths, counted.tours);
    }

    /// The bound never exceeds the exhaustive answer, before the first move and after
    /// random moves.
    #[test]
    fn bound_never_exceeds_the_exhaustive_answer(
        board in board(5, 30),
        picks in proptest::collection::vec(any::<u16>(), 0..8),
    ) {
        let mut state = board.start();
        let mut moves = Vec::new();
        prop_assert!(lower_bound(&state) <= exhaustive(&state));
        for pick in picks {
            Tours.moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            state = Tours.apply(&state, moves[usize::from(pick) % moves.len()]);
            prop_assert!(lower_bound(&state) <= exhaustive(&state), "{:?}", state);
        }
    }

    /// On larger boards, after a few random moves, the bound never exceeds the
    /// answer of a plain exhaustive search with a memo (no bound, no pruning).
    #[test]
    fn bound_never_exceeds_the_exhaustive_answer_on_larger_boards(
        board in board(7, 12),
        picks in proptest::collection::vec(any::<u16>(), 3..12),
    ) {
        let mut state = board.start();
        let mut moves = Vec::new();
        let mut memo = std::collections::HashMap::new();
        for (i, pick) in picks.into_iter().enumerate() {
            if i >= 3 {
                let exact = exhaustive_memo(&state, &mut memo);
                prop_assert!(lower_bound(&state) <= exact, "{:?}", state);
            }
            Tours.moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            state = Tours.apply(&state, moves[usize::from(pick) % moves.len()]);
        }
    }

    /// Every move's replay through the family notation gives the engine's state.
    #[test]
    fn moves_replay_through_the_notation(
        board in board(6, 15),
        picks in proptest::collection::vec(any::<u16>(), 1..12),
    ) {
        let family = hammer_family::by_name("tours").unwrap();
        let point = family.point_of_state(&board.to_string()).unwrap().unwrap();
        let mut text = board.to_string();
        let mut state = board.start();
        for pick in picks {
            let listed = family.moves(&point, &text).unwrap();
            let mut moves = Vec::new();
            Tours.moves(&state, &mut moves);
            prop_assert_eq!(listed.len(), moves.len());
            if moves.is_empty() {
                break;
            }
            let i = usize::from(pick) % moves.len();
            let after = family.replay(&point, &text, &[listed[i].0.as_str()]).unwrap();
            prop_assert_eq!(&after[0], &listed[i].1);
            state = Tours.apply(&state, moves[i]);
            text = after[0].clone();
            prop_assert_eq!(family.score(&point, &text).unwrap(), Tours.score(&state));
            prop_assert!(matches!(moves[i], Step::Place(_) | Step::Slide(_)));
        }
    }
}

/// Boards named in the spec's edge cases.
#[test]
fn one_cell_boards() {
    let board = Board::parse(".").unwrap();
    let solved = solve_board(&board);
    assert_eq!(solved.tour, Some(vec![1]));
    let counted = count_tours(&board.start());
    assert_eq!((counted.tours, counted.starts), (1, vec![0]));
}
