//! Counting by a gang of processes: [`count`](crate::count) with every entry owned by
//! one member.
//!
//! The levels (scores) are processed from the start's down, in lockstep. A member keeps
//! the entries of its hash share of the keys. Expanding its share of a level, it adds
//! each child to its own pending level when it owns the child, and otherwise to its
//! outbox for the child's owner, where children of the same key merge (their path
//! counts add), so that each member sends each distinct child at most once a level. At
//! the end of a level it sends its outboxes and a level-end mark to every other member,
//! and takes the others' entries until every member's mark for the level has come: the
//! links keep the order between two members, so nothing for the next level is still on
//! its way. The next level is then complete at its owners, with every path into it
//! counted. At the end the members exchange their per-level counts, and each returns
//! the whole gang's.
//!
//! Entries keep their 128-bit keys, so what merges is what merges in one process: the
//! counts are the single count's, whatever the number of members.

use std::time::Duration;

use hammer_puzzle::{Countable, Wire, take_bytes};
use rustc_hash::FxHashMap;

use crate::count::{Counts, Level, Reduction};
use crate::owners::{GangError, Link};

/// Entries per frame: about 0.7 MB for a peg position (key, paths, score, state).
const FRAME_ENTRIES: usize = 16_384;
/// How long one wait for a frame lasts; a lost member ends the wait with an error
/// from the link, not from this timeout.
const RECV_WAIT: Duration = Duration::from_millis(200);

const ENTRIES: u8 = 1;
const LEVEL_END: u8 = 2;
const LEVELS: u8 = 3;

/// What one member of a counting gang did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GangCountStats {
    /// Entries this member owned, over all levels.
    pub entries: u64,
    /// The most entries it held at once: a level and, once the level is exchanged, the
    /// levels pending below it (outboxes and frames in transit not counted).
    pub peak_entries: u64,
    /// Entries it sent to other members.
    pub sent: u64,
}

struct Entry<S> {
    state: S,
    paths: u128,
}

type LevelMap<S> = FxHashMap<u128, Entry<S>>;

/// One child on its way to its owner: its key, score, state and paths.
type OutEntry<S> = (u128, (u32, Entry<S>));

/// Children for another member, by key, each with its score.
type Outbox<S> = FxHashMap<u128, (u32, Entry<S>)>;

/// Counts everything reachable from `start` as member `link.rank()` of a gang of
/// `link.size()`. Every member must call this with the same puzzle, start and reduction.
/// The counts returned are the whole gang's; their `lowest` holds this member's share of
/// the lowest level only.
pub fn count_gang<P: Countable + Wire>(
    puzzle: &P,
    start: &P::State,
    reduction: Reduction,
    link: &mut dyn Link,
) -> Result<(Counts<P::State>, GangCountStats), GangError> {
    let mut member = Member {
        puzzle,
        reduction,
        rank: link.rank(),
        size: link.size(),
        stats: GangCountStats::default(),
        ended: vec![None; link.size()],
        levels: Vec::new(),
    };
    let top = puzzle.score(start);
    let mut pending: Vec<LevelMap<P::State>> = (0..=top).map(|_| LevelMap::default()).collect();
    let key = member.key(start);
    if member.owner(key) == member.rank {
        pending[top as usize].insert(
            key,
            Entry {
                state: *start,
                paths: 1,
            },
        );
    }
    let mut own_levels = Vec::new();
    let mut lowest = (top, Vec::new());
    for score in (0..=top).rev() {
        let level = std::mem::take(&mut pending[score as usize]);
        member.stats.entries += level.len() as u64;
        let outboxes = member.expand(&level, &mut pending, score, &mut own_levels);
        member.exchange(outboxes, score, &mut pending, link)?;
        // At its largest now: the level and everything pending below it, complete.
        let held: usize = pending.iter().map(|l| l.len()).sum::<usize>() + level.len();
        member.stats.peak_entries = member.stats.peak_entries.max(held as u64);
        // Kept only when nothing of this member's is pending below it (its last level
        // always is such a one), not copied level after level.
        if !level.is_empty() && pending[..score as usize].iter().all(|l| l.is_empty()) {
            lowest = (
                score,
                level.into_values().map(|e| (e.state, e.paths)).collect(),
            );
        }
    }
    let levels = member.gather(own_levels, link)?;
    let min_score = levels.last().map_or(0, |l: &Level| l.score);
    let (lowest_score, mut lowest) = lowest;
    if lowest_score != min_score {
        lowest.clear();
    }
    Ok((
        Counts {
            levels,
            min_score,
            lowest,
        },
        member.stats,
    ))
}

struct Member<'a, P> {
    puzzle: &'a P,
    reduction: Reduction,
    rank: usize,
    size: usize,
    stats: GangCountStats,
    /// Per member: the last level whose end it has sent this one (`None` before the
    /// first). A member may run a level ahead of this one, never more.
    ended: Vec<Option<u32>>,
    /// The members' per-level counts, when they come before this member is done.
    levels: Vec<(usize, Vec<Level>)>,
}

impl<P: Countable + Wire> Member<'_, P> {
    fn key(&self, state: &P::State) -> u128 {
        self.reduction.key(self.puzzle, state)
    }

    /// The member that owns `key`: both halves mixed, since a key may carry its
    /// information in either.
    fn owner(&self, key: u128) -> usize {
        let folded = (key as u64) ^ ((key >> 64) as u64);
        let mixed = folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
        (mixed % self.size as u64) as usize
    }

    /// Expands this member's share of level `score`: its own children into `pending`,
    /// the others' into one outbox per member. Records the share's counts in `levels`.
    fn expand(
        &self,
        level: &LevelMap<P::State>,
        pending: &mut [LevelMap<P::State>],
        score: u32,
        levels: &mut Vec<Level>,
    ) -> Vec<Outbox<P::State>> {
        let mut outboxes: Vec<Outbox<P::State>> =
            (0..self.size).map(|_| FxHashMap::default()).collect();
        let mut states = 0u64;
        let mut paths = 0u128;
        let mut moves = Vec::new();
        for entry in level.values() {
            states += self.reduction.weight(self.puzzle, &entry.state);
            paths = paths.saturating_add(entry.paths);
            self.puzzle.moves(&entry.state, &mut moves);
            for &mv in &moves {
                let child = self.puzzle.apply(&entry.state, mv);
                let key = self.key(&child);
                let child_score = self.puzzle.score(&child);
                let owner = self.owner(key);
                let slot = if owner == self.rank {
                    &mut pending[child_score as usize]
                        .entry(key)
                        .or_insert(Entry {
                            state: child,
                            paths: 0,
                        })
                        .paths
                } else {
                    &mut outboxes[owner]
                        .entry(key)
                        .or_insert((
                            child_score,
                            Entry {
                                state: child,
                                paths: 0,
                            },
                        ))
                        .1
                        .paths
                };
                *slot = slot.saturating_add(entry.paths);
            }
        }
        levels.push(Level {
            score,
            classes: level.len() as u64,
            states,
            paths,
            alive: None,
        });
        outboxes
    }

    /// Sends the outboxes and this level's end to every other member, and takes the
    /// others' entries into `pending` until every member's end of `score` has come.
    fn exchange(
        &mut self,
        outboxes: Vec<Outbox<P::State>>,
        score: u32,
        pending: &mut [LevelMap<P::State>],
        link: &mut dyn Link,
    ) -> Result<(), GangError> {
        for (to, outbox) in outboxes.into_iter().enumerate() {
            if to == self.rank {
                continue;
            }
            self.stats.sent += outbox.len() as u64;
            // Encoded as the map is drained: no second copy of the entries.
            let mut entries = outbox.into_iter().peekable();
            while entries.peek().is_some() {
                link.send(to, self.entries_frame(entries.by_ref().take(FRAME_ENTRIES)))?;
            }
            let mut end = vec![LEVEL_END];
            end.extend(score.to_le_bytes());
            link.send(to, end)?;
        }
        self.ended[self.rank] = Some(score);
        while self.ended.iter().any(|e| e.is_none_or(|at| at > score)) {
            if let Some((from, frame)) = link.recv(RECV_WAIT)? {
                self.take(from, &frame, pending)?;
            }
        }
        Ok(())
    }

    /// Takes one frame from member `from`: entries into `pending`, a level's end, or
    /// its per-level counts (kept for [`Member::gather`]).
    fn take(
        &mut self,
        from: usize,
        frame: &[u8],
        pending: &mut [LevelMap<P::State>],
    ) -> Result<(), GangError> {
        let malformed = GangError::Malformed { peer: from };
        if from >= self.size || from == self.rank {
            return Err(GangError::Protocol {
                what: "a frame from no other member",
            });
        }
        match frame.split_first() {
            Some((&ENTRIES, mut body)) => self.take_entries(&mut body, pending).ok_or(malformed),
            Some((&LEVEL_END, mut body)) => {
                let at = take_bytes::<4>(&mut body).map(u32::from_le_bytes);
                let expected = match self.ended[from] {
                    None => pending.len().checked_sub(1).map(|top| top as u32),
                    Some(last) => last.checked_sub(1),
                };
                if at.is_none() || at != expected {
                    return Err(GangError::Protocol {
                        what: "a level's end out of step",
                    });
                }
                self.ended[from] = at;
                Ok(())
            }
            Some((&LEVELS, _)) => {
                let levels = read_levels(frame).ok_or(malformed)?;
                self.levels.push((from, levels));
                Ok(())
            }
            _ => Err(malformed),
        }
    }

    fn entries_frame(&self, chunk: impl Iterator<Item = OutEntry<P::State>>) -> Vec<u8> {
        let mut frame = vec![ENTRIES, 0, 0, 0, 0];
        let mut n = 0u32;
        for (key, (score, entry)) in chunk {
            n += 1;
            frame.extend(key.to_le_bytes());
            frame.extend(entry.paths.to_le_bytes());
            frame.extend(score.to_le_bytes());
            self.puzzle.put_state(&entry.state, &mut frame);
        }
        frame[1..5].copy_from_slice(&n.to_le_bytes());
        frame
    }

    /// Merges a frame's entries into `pending`; `None` when the bytes are malformed or
    /// an entry is not this member's or not below the level being exchanged.
    fn take_entries(&self, body: &mut &[u8], pending: &mut [LevelMap<P::State>]) -> Option<()> {
        let n = u32::from_le_bytes(take_bytes::<4>(body)?);
        for _ in 0..n {
            let key = u128::from_le_bytes(take_bytes::<16>(body)?);
            let paths = u128::from_le_bytes(take_bytes::<16>(body)?);
            let score = u32::from_le_bytes(take_bytes::<4>(body)?);
            let state = self.puzzle.take_state(body)?;
            if self.owner(key) != self.rank || self.key(&state) != key {
                return None;
            }
            let slot = pending
                .get_mut(score as usize)?
                .entry(key)
                .or_insert(Entry { state, paths: 0 });
            slot.paths = slot.paths.saturating_add(paths);
        }
        body.is_empty().then_some(())
    }

    /// Sends this member's per-level counts to every other member and adds up
    /// everyone's: the gang's levels, from the start's score down, empty ones left out.
    fn gather(&mut self, own: Vec<Level>, link: &mut dyn Link) -> Result<Vec<Level>, GangError> {
        let mut frame = vec![LEVELS];
        frame.extend((own.len() as u32).to_le_bytes());
        for level in &own {
            frame.extend(level.score.to_le_bytes());
            frame.extend(level.classes.to_le_bytes());
            frame.extend(level.states.to_le_bytes());
            frame.extend(level.paths.to_le_bytes());
        }
        for to in (0..self.size).filter(|&to| to != self.rank) {
            link.send(to, frame.clone())?;
        }
        while self.levels.len() + 1 < self.size {
            if let Some((from, frame)) = link.recv(RECV_WAIT)? {
                self.take(from, &frame, &mut [])?;
            }
        }
        let mut total = own;
        for (_, theirs) in &self.levels {
            if theirs.len() != total.len() {
                return Err(GangError::Protocol {
                    what: "members counted different levels",
                });
            }
            for (sum, level) in total.iter_mut().zip(theirs) {
                if sum.score != level.score {
                    return Err(GangError::Protocol {
                        what: "members counted different levels",
                    });
                }
                sum.classes += level.classes;
                sum.states += level.states;
                sum.paths = sum.paths.saturating_add(level.paths);
            }
        }
        total.retain(|l| l.classes > 0);
        Ok(total)
    }
}

fn read_levels(frame: &[u8]) -> Option<Vec<Level>> {
    let (&LEVELS, mut body) = frame.split_first()? else {
        return None;
    };
    let n = u32::from_le_bytes(take_bytes::<4>(&mut body)?);
    let mut levels = Vec::new();
    for _ in 0..n {
        levels.push(Level {
            score: u32::from_le_bytes(take_bytes::<4>(&mut body)?),
            classes: u64::from_le_bytes(take_bytes::<8>(&mut body)?),
            states: u64::from_le_bytes(take_bytes::<8>(&mut body)?),
            paths: u128::from_le_bytes(take_bytes::<16>(&mut body)?),
            alive: None,
        });
    }
    body.is_empty().then_some(levels)
}
