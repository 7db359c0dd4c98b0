//! The messages of an owner search, and their bytes when the workers are processes.

use hammer_puzzle::{Puzzle, Successor, Wire, take_bytes};

use super::GangError;

/// An admitted state waiting in its owner's queue.
pub(crate) struct Item<P: Puzzle> {
    pub state: P::State,
    pub fp: u128,
    pub bound: u32,
}

/// Successors for one owner, grouped by parent: each parent goes once, with the moves to
/// its children that the owner holds (each with its fingerprint and bound). The owner builds a child only if its table does not
/// hold it yet, and since half the successors of a gang of two go to the other worker,
/// sending a state's parent once with a few bytes a move, instead of each child's state,
/// sends about half the bytes and builds no state a table drops.
pub(crate) struct Batch<P: Puzzle> {
    /// Each parent, its fingerprint, and how many of `children` (in order) are its.
    pub parents: Vec<(P::State, u128, u32)>,
    pub children: Vec<Successor<P::Move>>,
}

impl<P: Puzzle> Batch<P> {
    pub(crate) fn new() -> Self {
        Batch {
            parents: Vec::new(),
            children: Vec::new(),
        }
    }

    /// Adds `child` of the state `parent_fp`, which goes once for all its children
    /// added one after another.
    pub(crate) fn push(&mut self, parent: &P::State, parent_fp: u128, child: Successor<P::Move>) {
        match self.parents.last_mut() {
            Some((_, fp, len)) if *fp == parent_fp => *len += 1,
            _ => self.parents.push((*parent, parent_fp, 1)),
        }
        self.children.push(child);
    }

    /// Each parent with its fingerprint and its children.
    pub(crate) fn groups(&self) -> impl Iterator<Item = (&P::State, u128, &[Successor<P::Move>])> {
        let mut rest = self.children.as_slice();
        self.parents.iter().map(move |(parent, parent_fp, len)| {
            // `push` and `read` keep the counts and the children in step.
            let (children, tail) = rest.split_at((*len as usize).min(rest.len()));
            rest = tail;
            (parent, *parent_fp, children)
        })
    }
}

/// What the workers of one game tell one another. Between two workers the messages keep
/// their order (a channel, or one gRPC stream per pair), which the end of the search
/// relies on (see [`super::worker`]).
pub(crate) enum Msg<P: Puzzle> {
    /// Successors for their owner, from worker `from`.
    Batch { from: u32, batch: Batch<P> },
    /// A better score, reached at `state`.
    Best { score: u32, state: P::State },
    /// To the leader: worker `from` holds no work; the batches it has sent to each worker
    /// and taken from each, so far.
    Idle {
        from: u32,
        sent: Vec<u64>,
        taken: Vec<u64>,
    },
    /// From the leader to every worker, following the best state's path back to the
    /// start: the state `fp`, and the moves after it, last first. The worker that holds
    /// `fp` answers with a `Step` or, at the start, a `Path`.
    Trace { fp: u128, moves: Vec<P::Move> },
    /// To the leader: the path goes on at `fp`, the parent of the state a `Trace` asked
    /// for, with the moves after it, last first.
    Step { fp: u128, moves: Vec<P::Move> },
    /// To the leader, from a table of undo codes: the path goes on at the state the
    /// move of undo code `code` came from; the leader, which holds the state the `Trace`
    /// asked for, undoes it.
    Undo { code: u32, moves: Vec<P::Move> },
    /// To the leader: the best state's path, last move first.
    Path { moves: Vec<P::Move> },
    /// From the leader: the search is over, with the minimum and its solution.
    Stop { score: u32, moves: Vec<P::Move> },
    /// From the leader of a gang of processes to every other member, before anything
    /// else: the owner hash's salt, which its probe chose ([`super::balance`]).
    Salt { salt: u64 },
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
const STEP: u8 = 8;
const UNDO: u8 = 9;
const SALT: u8 = 10;

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
        Msg::Batch { from, batch } => {
            out.push(BATCH);
            u32s(out, *from);
            u32s(out, batch.parents.len() as u32);
            for (parent, parent_fp, children) in batch.groups() {
                out.extend(parent_fp.to_le_bytes());
                put_var(out, children.len() as u32);
                puzzle.put_state(parent, out);
                for child in children {
                    out.extend(child.fp.to_le_bytes());
                    put_var(out, child.bound);
                    puzzle.put_move(child.mv, out);
                }
            }
        }
        Msg::Best { score, state } => {
            out.push(BEST);
            u32s(out, *score);
            puzzle.put_state(state, out);
        }
        Msg::Idle { from, sent, taken } => {
            out.push(IDLE);
            u32s(out, *from);
            u32s(out, sent.len() as u32);
            sent.iter().chain(taken).for_each(|&v| u64s(out, v));
        }
        Msg::Trace { fp, moves: m } | Msg::Step { fp, moves: m } => {
            let tag = if let Msg::Trace { .. } = msg {
                TRACE
            } else {
                STEP
            };
            out.push(tag);
            out.extend(fp.to_le_bytes());
            moves(out, m);
        }
        Msg::Undo { code, moves: m } => {
            out.push(UNDO);
            u32s(out, *code);
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
        Msg::Salt { salt } => {
            out.push(SALT);
            u64s(out, *salt);
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
            let parents = u32s(input)? as usize;
            let mut batch = Batch::new();
            // No allocation larger than the frame allows: a parent takes at least 18
            // bytes, a child at least 17.
            batch.parents.reserve(parents.min(input.len() / 18));
            for _ in 0..parents {
                let parent_fp = u128s(input)?;
                let len = take_var(input)?;
                let parent = puzzle.take_state(input)?;
                batch.parents.push((parent, parent_fp, len));
                batch.children.reserve((len as usize).min(input.len() / 17));
                for _ in 0..len {
                    let fp = u128s(input)?;
                    let bound = take_var(input)?;
                    let mv = puzzle.take_move(input)?;
                    batch.children.push(Successor { mv, bound, fp });
                }
            }
            Msg::Batch { from, batch }
        }
        BEST => Msg::Best {
            score: u32s(input)?,
            state: puzzle.take_state(input)?,
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
        STEP => Msg::Step {
            fp: u128s(input)?,
            moves: moves(input)?,
        },
        UNDO => Msg::Undo {
            code: u32s(input)?,
            moves: moves(input)?,
        },
        PATH => Msg::Path {
            moves: moves(input)?,
        },
        STOP => Msg::Stop {
            score: u32s(input)?,
            moves: moves(input)?,
        },
        SALT => Msg::Salt { salt: u64s(input)? },
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

/// Appends `v` in 7-bit groups, lowest first, the high bit set on all but the last: a
/// bound or a count below 128 takes one byte.
fn put_var(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Reads what [`put_var`] wrote; `None` past five bytes or the end of `input`.
fn take_var(input: &mut &[u8]) -> Option<u32> {
    let mut v = 0u32;
    for shift in (0..35).step_by(7) {
        let [b] = take_bytes::<1>(input)?;
        let part = u32::from(b & 0x7f);
        if shift == 28 && part > 0x0f {
            return None;
        }
        v |= part << shift;
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use hammer_engine::seeded::game;
    use hammer_engine::{Martello, Move, State};

    use super::*;

    /// A batch of real successors of real states reads back as written, parents and
    /// children in order; cut short or with bytes to spare, it is refused.
    #[test]
    fn batches_read_back_as_written() {
        let (puzzle, mut moves) = (Martello, Vec::new());
        let mut batch = Batch::<Martello>::new();
        for index in 0..20 {
            let parent = game(2013, 6, index).expect("a seeded game");
            let parent_fp = puzzle.fingerprint(&parent);
            puzzle.moves(&parent, &mut moves);
            for (i, &mv) in moves.iter().enumerate() {
                let child = puzzle.apply(&parent, mv);
                // Bounds past one byte of the variable-length form, and the largest.
                let bound = [0, 127, 128, 300_000, u32::MAX][i % 5];
                let fp = puzzle.fingerprint(&child);
                batch.push(&parent, parent_fp, Successor { mv, bound, fp });
            }
        }
        let expected = flat(&batch);
        let mut bytes = Vec::new();
        encode(&puzzle, &Msg::Batch { from: 1, batch }, &mut bytes);
        let Ok(Msg::Batch { from: 1, batch }) = decode(&puzzle, 1, &bytes) else {
            panic!("the batch did not read back");
        };
        assert_eq!(flat(&batch), expected);
        for cut in [1, bytes.len() / 2, bytes.len() - 1] {
            assert!(decode(&puzzle, 1, &bytes[..cut]).is_err());
        }
        bytes.push(0);
        assert!(decode(&puzzle, 1, &bytes).is_err());
    }

    /// Every other kind of message reads back as written (its bytes written again are
    /// the same), and cut short it is refused.
    #[test]
    fn every_message_reads_back_as_written() {
        let puzzle = Martello;
        let state = game(2013, 7, 3).expect("a seeded game");
        let mut moves = Vec::new();
        puzzle.moves(&state, &mut moves);
        let msgs: Vec<Msg<Martello>> = vec![
            Msg::Best { score: 30, state },
            Msg::Idle {
                from: 2,
                sent: vec![1, 2, 3],
                taken: vec![4, 5, 6],
            },
            Msg::Trace {
                fp: 7,
                moves: moves.clone(),
            },
            Msg::Step {
                fp: 8,
                moves: moves.clone(),
            },
            Msg::Undo {
                code: (1 << 21) - 1,
                moves: moves.clone(),
            },
            Msg::Path {
                moves: moves.clone(),
            },
            Msg::Stop { score: 2, moves },
            Msg::Salt { salt: u64::MAX - 5 },
            Msg::Stats {
                from: 1,
                expansions: 10,
                table: 11,
                table_bytes: 12,
                sent: 13,
            },
        ];
        for msg in &msgs {
            let mut bytes = Vec::new();
            encode(&puzzle, msg, &mut bytes);
            let Ok(back) = decode(&puzzle, 1, &bytes) else {
                panic!("a message of tag {} did not read back", bytes[0]);
            };
            let mut again = Vec::new();
            encode(&puzzle, &back, &mut again);
            assert_eq!(again, bytes);
            assert!(decode(&puzzle, 1, &bytes[..bytes.len() - 1]).is_err());
        }
    }

    #[test]
    fn variable_length_numbers_read_back_and_overlong_ones_are_refused() {
        for v in [0, 1, 127, 128, 16_383, 16_384, u32::MAX - 1, u32::MAX] {
            let mut bytes = Vec::new();
            put_var(&mut bytes, v);
            let mut input = bytes.as_slice();
            assert_eq!(take_var(&mut input), Some(v));
            assert!(input.is_empty());
        }
        assert_eq!(take_var(&mut &[0x80u8, 0x80, 0x80, 0x80, 0x10][..]), None);
        assert_eq!(
            take_var(&mut &[0x80u8, 0x80, 0x80, 0x80, 0x80, 0x01][..]),
            None
        );
        assert_eq!(take_var(&mut &[0x80u8][..]), None);
    }

    type Flat = (State, u128, Move, u128, u32);

    fn flat(batch: &Batch<Martello>) -> Vec<Flat> {
        let mut out = Vec::new();
        for (parent, parent_fp, children) in batch.groups() {
            out.extend(
                children
                    .iter()
                    .map(|c| (*parent, parent_fp, c.mv, c.fp, c.bound)),
            );
        }
        out
    }
}
