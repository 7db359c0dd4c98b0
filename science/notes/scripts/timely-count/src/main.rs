//! The English centre game's positions counted with timely-dataflow: the same
//! level-by-level count as `hammer count --peers` (hammer_solver::count_gang), built on
//! timely's exchange by key and its progress tracking instead of hammer's own tonic
//! streams and level-end marks. It exists to measure the two side by side
//! (science/notes/frontier.md, "timely-dataflow against tonic streams"); hammer does not ship it.
//!
//!     timely-count [--symmetry] [timely's flags: -w THREADS -n PROCESSES -p RANK -h HOSTFILE]
//!
//! Each worker prints one JSON line: its share of every level, the entries it owned and
//! the entries it sent to other workers. Their sums are the whole count.

use std::collections::BTreeMap;
use std::time::Instant;

use hammer_engine::peg::{Peg, board::Board, single_vacancy};
use hammer_puzzle::{Countable, Puzzle};
use rustc_hash::FxHashMap;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Capability, Concat, ConnectLoop, Feedback, ToStream};

/// One entry on its way to its owner: key, position, move sequences into it.
type Entry = (u128, u64, u128);

/// Entries by key, each with its position and move sequences.
type Level = FxHashMap<u128, (u64, u128)>;

/// The centre hole of the English board, in row-major order of its 33 holes.
const CENTRE: u64 = 16;

/// One worker's share of one level.
#[derive(Default, Clone, Copy)]
struct Share {
    depth: usize,
    classes: u64,
    states: u64,
    paths: u128,
}

fn owner(entry: &Entry) -> u64 {
    (entry.0 >> 64) as u64 ^ entry.0 as u64
}

/// A position's key: its class's fingerprint under the board's symmetries, or the
/// position itself.
fn key(puzzle: &Peg, state: &u64, symmetry: bool) -> u128 {
    if symmetry {
        puzzle.fingerprint(state)
    } else {
        puzzle.state_key(state)
    }
}

/// Expands one level's entries that a worker owns: its share of the level, and the next
/// level's entries, merged by key here first, as hammer's outboxes do.
fn expand(puzzle: &Peg, depth: usize, level: Level, symmetry: bool) -> (Share, Level) {
    let mut share = Share {
        depth,
        classes: level.len() as u64,
        ..Share::default()
    };
    let mut out = Level::default();
    let mut moves = Vec::new();
    for (state, paths) in level.into_values() {
        share.states += if symmetry {
            puzzle.class_size(&state)
        } else {
            1
        };
        share.paths = share.paths.saturating_add(paths);
        puzzle.moves(&state, &mut moves);
        for &mv in &moves {
            let child = puzzle.apply(&state, mv);
            let e = out
                .entry(key(puzzle, &child, symmetry))
                .or_insert((child, 0));
            e.1 = e.1.saturating_add(paths);
        }
    }
    (share, out)
}

/// A worker's JSON line.
fn report(index: usize, shares: &[Share], sent: u64, seconds: f64) -> String {
    let levels: Vec<String> = shares
        .iter()
        .map(|s| format!("[{},{},{},{}]", s.depth, s.classes, s.states, s.paths))
        .collect();
    format!(
        "{{\"worker\":{index},\"classes\":{},\"states\":{},\"sent\":{sent},\"seconds\":{seconds:.3},\"levels\":[{}]}}",
        shares.iter().map(|s| s.classes).sum::<u64>(),
        shares.iter().map(|s| s.states).sum::<u64>(),
        levels.join(",")
    )
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let symmetry = args.iter().any(|a| a == "--symmetry");
    args.retain(|a| a != "--symmetry");
    let board = Board::english();
    let Some(start) = single_vacancy(&board, CENTRE) else {
        eprintln!("the English board has no hole {CENTRE}");
        std::process::exit(2);
    };
    let puzzle = Peg::new(if symmetry {
        board.fixing(start)
    } else {
        board.clone()
    });
    let guards = timely::execute_from_args(args.into_iter(), move |worker| {
        let index = worker.index();
        let began = Instant::now();
        let shares = std::rc::Rc::new(std::cell::RefCell::new(Vec::<Share>::new()));
        let sent = std::rc::Rc::new(std::cell::Cell::new(0u64));
        let (shares_in, sent_in) = (shares.clone(), sent.clone());
        let puzzle = puzzle.clone();
        let peers = worker.peers() as u64;
        worker.dataflow::<usize, _, _>(move |scope| {
            let first: Vec<Entry> = if index == 0 {
                vec![(key(&puzzle, &start, symmetry), start, 1)]
            } else {
                Vec::new()
            };
            let (handle, children) = scope.feedback(1usize);
            first
                .to_stream(scope)
                .concat(children)
                .unary_frontier(Exchange::new(owner), "Level", move |_cap, _info| {
                    let mut pending: BTreeMap<usize, (Capability<usize>, Level)> = BTreeMap::new();
                    move |(input, frontier), output| {
                        input.for_each_stamp(|cap, data| {
                            let Some(cap) = cap.retain_least(output.output_index()) else {
                                return;
                            };
                            let slot = pending
                                .entry(*cap.time())
                                .or_insert_with(|| (cap, Level::default()));
                            for (k, state, paths) in data.flatten() {
                                let e = slot.1.entry(*k).or_insert((*state, 0));
                                e.1 = e.1.saturating_add(*paths);
                            }
                        });
                        while let Some(time) = pending.keys().next().copied() {
                            if frontier.less_equal(&time) {
                                break;
                            }
                            let Some((cap, level)) = pending.remove(&time) else {
                                break;
                            };
                            let (share, out) = expand(&puzzle, time, level, symmetry);
                            shares_in.borrow_mut().push(share);
                            let mut session = output.session(&cap);
                            for (k, (state, paths)) in out {
                                let entry = (k, state, paths);
                                if owner(&entry) % peers != index as u64 {
                                    sent_in.set(sent_in.get() + 1);
                                }
                                session.give(entry);
                            }
                        }
                    }
                })
                .connect_loop(handle);
        });
        while worker.step() {}
        report(
            index,
            &shares.borrow(),
            sent.get(),
            began.elapsed().as_secs_f64(),
        )
    });
    match guards {
        Ok(guards) => {
            for line in guards.join() {
                match line {
                    Ok(line) => println!("{line}"),
                    Err(e) => {
                        eprintln!("a worker failed: {e}");
                        std::process::exit(1);
                    }
                }
            }
        }
        Err(e) => {
            eprintln!("cannot start timely: {e}");
            std::process::exit(2);
        }
    }
}
