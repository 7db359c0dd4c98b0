//! Mancala's first turn as a family: the rule point (`h`, `s`, `picks`, `free`,
//! `relay`, `arith`) is the parameter point, its start position the one instance, and
//! the stones left on the board the score (0: every stone in the store).
//!
//! Positions use the engine's notation, `HOLES|HOME` with `|end` once the turn is over
//! (`4,4,4,4,4,4,4,4,4,4,4,4|0`); a move is the number of the hole picked (`1` to `2h`).

mod count;
mod questions;
mod view;

pub use count::{Count, count};

use hammer_engine::Puzzle;
use hammer_engine::mancala::{Arith, MAX_H, MAX_S, Mancala, Picks, Rules, RulesError, State};
use hammer_solver::Solver;

use crate::error::bad;
use crate::{
    Cell, ColumnKind, ColumnSpec, Family, FamilyError, Game, GameSolver, Info, Job, ParamKind,
    ParamSpec, ParamValue, Point, Positions, Solved,
};

/// The Mancala first-turn family.
#[derive(Clone, Copy, Debug, Default)]
pub struct MancalaFamily;

const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "h",
        sweep_key: "holes",
        kind: ParamKind::Int {
            min: 1,
            max: MAX_H as i64,
        },
        default: Some("6"),
        doc: "holes per side; the board has 2h holes and one store",
    },
    ParamSpec {
        key: "s",
        sweep_key: "stones",
        kind: ParamKind::Int {
            min: 0,
            max: MAX_S as i64,
        },
        default: Some("4"),
        doc: "stones in every hole at the start",
    },
    ParamSpec {
        key: "picks",
        sweep_key: "picks",
        kind: ParamKind::Choice(&["all", "own"]),
        default: Some("all"),
        doc: "holes the player may pick: all 2h, or only the own side 1..h",
    },
    ParamSpec {
        key: "free",
        sweep_key: "free",
        kind: ParamKind::Bool,
        default: Some("true"),
        doc: "a pick whose last stone falls in the store gives another pick",
    },
    ParamSpec {
        key: "relay",
        sweep_key: "relay",
        kind: ParamKind::Bool,
        default: Some("true"),
        doc: "a sowing that ends in an occupied hole goes on from that hole",
    },
    ParamSpec {
        key: "arith",
        sweep_key: "arith",
        kind: ParamKind::Choice(&["matlab", "ring"]),
        default: Some("matlab"),
        doc: "sowing arithmetic: the seed's MATLAB formula, or the physical ring",
    },
];

const COLUMNS: &[ColumnSpec] = &[
    ColumnSpec {
        name: "mancala_h",
        kind: ColumnKind::Int32,
        doc: "holes per side",
    },
    ColumnSpec {
        name: "mancala_s",
        kind: ColumnKind::Int32,
        doc: "stones per hole at the start",
    },
    ColumnSpec {
        name: "mancala_picks",
        kind: ColumnKind::Utf8,
        doc: "pickable holes: all or own",
    },
    ColumnSpec {
        name: "mancala_arith",
        kind: ColumnKind::Utf8,
        doc: "sowing arithmetic: matlab or ring",
    },
    ColumnSpec {
        name: "mancala_free",
        kind: ColumnKind::Boolean,
        doc: "whether a pick ending in the store gives another pick",
    },
    ColumnSpec {
        name: "mancala_relay",
        kind: ColumnKind::Boolean,
        doc: "whether a sowing ending in an occupied hole goes on",
    },
    ColumnSpec {
        name: "mancala_total",
        kind: ColumnKind::Int32,
        doc: "stones in play (board and store) at the searched position",
    },
    ColumnSpec {
        name: "mancala_max_home",
        kind: ColumnKind::Int32,
        doc: "the best store count found at the end of the turn (total - score); exact when exhaustive",
    },
    ColumnSpec {
        name: "mancala_upper",
        kind: ColumnKind::Int32,
        doc: "the proved upper bound on the store count (total - lower bound); equals max_home when exhaustive",
    },
];

const INFO: Info = Info {
    name: "mancala",
    summary: "Mancala's first turn: sow with free picks and relays; put as many stones as possible in the store",
    params: PARAMS,
    columns: COLUMNS,
    size_param: Some("h"),
};

/// The rules of a checked point.
pub fn rules(point: &Point) -> Result<Rules, FamilyError> {
    let int = |key: &str, default| point.int(key).unwrap_or(default);
    let picks = point.text("picks").unwrap_or("all");
    let arith = point.text("arith").unwrap_or("matlab");
    Rules::new(
        int("h", 6),
        int("s", 4),
        Picks::from_name(picks)
            .ok_or_else(|| bad("picks", format!("'{picks}' is not all or own")))?,
        point.bool("free").unwrap_or(true),
        point.bool("relay").unwrap_or(true),
        Arith::from_name(arith)
            .ok_or_else(|| bad("arith", format!("'{arith}' is not matlab or ring")))?,
    )
    .map_err(|e| match e {
        RulesError::Holes(_) => bad("h", e.to_string()),
        RulesError::Stones(_) => bad("s", e.to_string()),
    })
}

/// Extends `path` from `start` with the smallest pick until the turn is over. The store
/// never falls, so the score stays; and it makes the lexicographically smallest
/// complete turn through `path`.
pub(crate) fn complete_turn(start: &State, path: &mut Vec<u8>) {
    let mut state = *start;
    for &p in path.iter() {
        state = state.apply(usize::from(p));
    }
    let mut buf = Vec::new();
    loop {
        Mancala.moves(&state, &mut buf);
        let Some(&p) = buf.first() else { return };
        path.push(p);
        state = state.apply(usize::from(p));
    }
}

/// Mancala at a point: its start position is the one instance.
fn game(point: &Point) -> Result<Game<Rules>, FamilyError> {
    let rules = rules(point)?;
    let seeded = move |_, index| match index {
        0 => Ok(State::start(rules)),
        index => Err(FamilyError::NoSuchInstance { index, count: 1 }),
    };
    Ok(Game::new(rules, seeded, |_, state, colour| {
        view::draw(state, colour)
    }))
}

impl Family for MancalaFamily {
    fn info(&self) -> &'static Info {
        &INFO
    }

    fn point(&self, values: Vec<ParamValue>) -> Result<Point, FamilyError> {
        let point = INFO.point(values);
        rules(&point)?;
        Ok(point)
    }

    fn instance_count(&self, _point: &Point) -> Option<u64> {
        Some(1)
    }

    fn goal(&self, _point: &Point) -> u32 {
        0
    }

    fn solver(&self) -> Box<dyn GameSolver> {
        Box::new(MancalaSolver(Solver::new(Mancala)))
    }

    /// The holes per side a position's hole list tells (`2h` counts before the first
    /// `|`); the other rules keep their defaults, since a position cannot tell them.
    fn point_of_state(&self, state: &str) -> Result<Option<Point>, FamilyError> {
        let holes = state.split('|').next().unwrap_or("").split(',').count();
        if holes < 2 || !holes.is_multiple_of(2) {
            // Not a board of any size: parsing it under the defaults names the problem.
            return Ok(None);
        }
        let pairs = [("h".to_string(), ParamValue::Int((holes / 2) as i64))];
        crate::point_from_pairs(self, &pairs).map(Some)
    }

    fn game(&self, point: &Point) -> Result<Box<dyn Positions>, FamilyError> {
        Ok(Box::new(game(point)?))
    }

    fn answer(&self, question: &serde_json::Value) -> Result<serde_json::Value, FamilyError> {
        questions::answer(question)
    }
}

/// One thread's solver. The rules travel in the state, so one solver (and its memo)
/// serves every point.
struct MancalaSolver(Solver<Mancala>);

impl GameSolver for MancalaSolver {
    fn solve(&mut self, job: Job<'_>) -> Result<Solved, FamilyError> {
        let game = game(job.point)?;
        let board = game.start(job.instance)?;
        let mut outcome = self.0.solve(&board, job.config, job.run_seed);
        complete_turn(&outcome.start, &mut outcome.solution);
        let rules = board.rules();
        let total = board.total();
        let max_home = total - outcome.min_score;
        let upper = if outcome.exhaustive {
            max_home
        } else {
            total - outcome.lower_bound
        };
        let extra = vec![
            Cell::Int(i64::from(rules.h())),
            Cell::Int(i64::from(rules.s())),
            Cell::Text(rules.picks.name().to_string()),
            Cell::Text(rules.arith.name().to_string()),
            Cell::Bool(rules.free),
            Cell::Bool(rules.relay),
            Cell::Int(i64::from(total)),
            Cell::Int(i64::from(max_home)),
            Cell::Int(i64::from(upper)),
        ];
        Ok(Solved::of(&game.notation, &board, &outcome, extra))
    }
}
