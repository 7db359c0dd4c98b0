//! The messages of an owner search, and their bytes when the workers are processes.

use hammer_puzzle::{Puzzle, Wire, take_bytes};

use super::GangError;

/// A state on its way to its owner, with the link that rebuilds its path.
pub(crate) struct Item<P: Puzzle> {
    pub state: P::State,
    pub fp: u128,
    pub bound: u32,
    /// The parent's fingerprint and the move from it; `None` for the start.
    pub link: Option<(u128, P::Move)>,
}

/// What the workers of one game tell one another. Between two workers the messages keep
/// their order (a channel, or one gRPC stream per pair), which the end of the search
/// relies on (see [`super::worker`]).
pub(crate) enum Msg<P: Puzzle> {
    /// States for their owner, from worker `from`.
    Batch { from: u32, items: Vec<Item<P>> },
    /// A better score, reached at the state `fp`.
    Best { score: u32, fp: u128 },
    /// To the leader: worker `from` holds no work; the batches it has sent to each worker
    /// and taken from each, so far.
    Idle {
        from: u32,
        sent: Vec<u64>,
        taken: Vec<u64>,
    },
    /// Following the best state's path back to the start: the state `fp`, and the moves
    /// after it, last first.
    Trace { fp: u128, moves: Vec<P::Move> },
    /// To the leader: the best state's path, last move first.
    Path { moves: Vec<P::Move> },
    /// From the leader: the search is over, with the minimum and its solution.
    Stop { score: u32, moves: Vec<P::Move> },
    /// To the leader, a worker's last message: its counts.
    Stats {
        from: u32,
        expansions: u64,
        table: u64,
        table_bytes: u64,
        sent: u64,
    },
}

const BATCH: u8 = 1;
const BEST: u8 = 2;
const IDLE: u8 = 3;
const TRACE: u8 = 4;
const PATH: u8 = 5;
const STOP: u8 = 6;
const STATS: u8 = 7;

/// Writes `msg` as bytes.
pub(crate) fn encode<P: Wire>(puzzle: &P, msg: &Msg<P>, out: &mut Vec<u8>) {
    let u32s = |out: &mut Vec<u8>, v: u32| out.extend(v.to_le_bytes());
    let u64s = |out: &mut Vec<u8>, v: u64| out.extend(v.to_le_bytes());
    let moves = |out: &mut Vec<u8>, moves: &[P::Move]| {
        out.extend((moves.len() as u32).to_le_bytes());
        for &mv in moves {
            puzzle.put_move(mv, out);
        }
    };
    match msg {
        Msg::Batch { from, items } => {
            out.push(BATCH);
            u32s(out, *from);
            u32s(out, items.len() as u32);
            for item in items {
                out.extend(item.fp.to_le_bytes());
                u32s(out, item.bound);
                match item.link {
                    None => out.push(0),
                    Some((parent, mv)) => {
                        out.push(1);
                        out.extend(parent.to_le_bytes());
                        puzzle.put_move(mv, out);
                    }
                }
                puzzle.put_state(&item.state, out);
            }
        }
        Msg::Best { score, fp } => {
            out.push(BEST);
            u32s(out, *score);
            out.extend(fp.to_le_bytes());
        }
        Msg::Idle { from, sent, taken } => {
            out.push(IDLE);
            u32s(out, *from);
            u32s(out, sent.len() as u32);
            sent.iter().chain(taken).for_each(|&v| u64s(out, v));
        }
        Msg::Trace { fp, moves: m } => {
            out.push(TRACE);
            out.extend(fp.to_le_bytes());
            moves(out, m);
        }
        Msg::Path { moves: m } => {
            out.push(PATH);
            moves(out, m);
        }
        Msg::Stop { score, moves: m } => {
            out.push(STOP);
            u32s(out, *score);
            moves(out, m);
        }
        Msg::Stats {
            from,
            expansions,
            table,
            table_bytes,
            sent,
        } => {
            out.push(STATS);
            u32s(out, *from);
            [*expansions, *table, *table_bytes, *sent]
                .into_iter()
                .for_each(|v| u64s(out, v));
        }
    }
}

/// Reads a message that worker `peer` sent, refusing bytes that are not one whole
/// message.
pub(crate) fn decode<P: Wire>(puzzle: &P, peer: usize, bytes: &[u8]) -> Result<Msg<P>, GangError> {
    let mut input = bytes;
    let msg = read(puzzle, &mut input).filter(|_| input.is_empty());
    msg.ok_or(GangError::Malformed { peer })
}

fn read<P: Wire>(puzzle: &P, input: &mut &[u8]) -> Option<Msg<P>> {
    let u32s = |input: &mut &[u8]| take_bytes::<4>(input).map(u32::from_le_bytes);
    let u64s = |input: &mut &[u8]| take_bytes::<8>(input).map(u64::from_le_bytes);
    let u128s = |input: &mut &[u8]| take_bytes::<16>(input).map(u128::from_le_bytes);
    let moves = |input: &mut &[u8]| -> Option<Vec<P::Move>> {
        let len = take_bytes::<4>(input).map(u32::from_le_bytes)?;
        (0..len).map(|_| puzzle.take_move(input)).collect()
    };
    let [tag] = take_bytes::<1>(input)?;
    Some(match tag {
        BATCH => {
            let from = u32s(input)?;
            let len = u32s(input)? as usize;
            // At least 21 bytes an item: no allocation larger than the frame allows.
            let mut items = Vec::with_capacity(len.min(input.len() / 21));
            for _ in 0..len {
                let fp = u128s(input)?;
                let bound = u32s(input)?;
                let link = match take_bytes::<1>(input)? {
                    [0] => None,
                    [1] => Some((u128s(input)?, puzzle.take_move(input)?)),
                    _ => return None,
                };
                let state = puzzle.take_state(input)?;
                items.push(Item {
                    state,
                    fp,
                    bound,
                    link,
                });
            }
            Msg::Batch { from, items }
        }
        BEST => Msg::Best {
            score: u32s(input)?,
            fp: u128s(input)?,
        },
        IDLE => {
            let from = u32s(input)?;
            let len = u32s(input)? as usize;
            if input.len() != 16 * len {
                return None;
            }
            let mut counts = (0..2 * len).map(|_| u64s(input));
            let sent = counts.by_ref().take(len).collect::<Option<Vec<u64>>>()?;
            let taken = counts.collect::<Option<Vec<u64>>>()?;
            Msg::Idle { from, sent, taken }
        }
        TRACE => Msg::Trace {
            fp: u128s(input)?,
            moves: moves(input)?,
        },
        PATH => Msg::Path {
            moves: moves(input)?,
        },
        STOP => Msg::Stop {
            score: u32s(input)?,
            moves: moves(input)?,
        },
        STATS => Msg::Stats {
            from: u32s(input)?,
            expansions: u64s(input)?,
            table: u64s(input)?,
            table_bytes: u64s(input)?,
            sent: u64s(input)?,
        },
        _ => return None,
    })
}
