//! Peg solitaire as a family: a board (`english`, `european` or a hole mask) and a peg
//! count. With one peg fewer than the board has holes, the instances are the
//! single-vacancy starts (instance `i` vacates the `i`-th hole in row-major order); with
//! fewer pegs they are seeded random positions. The score is the pegs left.

use std::sync::LazyLock;

use hammer_engine::peg::notation::{self, PegError};
use hammer_engine::peg::{self, Bits, Board, BoardKind, Peg, finishes};
use hammer_engine::seeded::MAX_INDEX;
use hammer_solver::{Config, Solver};

use crate::{
    Cell, ColumnKind, ColumnSpec, Family, FamilyError, GameSolver, Instance, ParamKind, ParamSpec,
    ParamValue, Point, Solved,
};

/// The peg solitaire family.
#[derive(Clone, Copy, Debug, Default)]
pub struct PegFamily;

/// The largest peg count: a custom mask may use the whole 7x7 grid.
const MAX_PEGS: i64 = 49;

const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "board",
        sweep_key: "boards",
        kind: ParamKind::Text,
        default: Some("english"),
        doc: "english (33 holes), european (37), or a 7x7 hole mask: 7 rows of x (hole) and - (none) joined by /",
    },
    ParamSpec {
        key: "pegs",
        sweep_key: "pegs",
        kind: ParamKind::Int {
            min: 0,
            max: MAX_PEGS,
        },
        default: Some("0"),
        doc: "pegs at the start: holes - 1 (or 0, its shorthand) for the single-vacancy starts, one instance per hole; the hole count for the full board; fewer for seeded random positions",
    },
];

const COLUMNS: &[ColumnSpec] = &[
    ColumnSpec {
        name: "peg_board",
        kind: ColumnKind::Utf8,
        doc: "the board: english, european, or its hole mask",
    },
    ColumnSpec {
        name: "peg_pegs",
        kind: ColumnKind::Int32,
        doc: "pegs of the instance's start position",
    },
    ColumnSpec {
        name: "peg_finishes",
        kind: ColumnKind::Utf8,
        doc: "holes where a lone peg can be left from the searched start, space-separated, row-major; empty when none",
    },
];

static ENGLISH: LazyLock<Board> = LazyLock::new(Board::english);
static EUROPEAN: LazyLock<Board> = LazyLock::new(Board::european);

/// The board of a kind; the two named boards are built once.
pub fn board_of(kind: BoardKind) -> Board {
    match kind {
        BoardKind::English => ENGLISH.clone(),
        BoardKind::European => EUROPEAN.clone(),
        custom => Board::new(custom),
    }
}

/// The board a checked point names.
fn kind(point: &Point) -> Result<BoardKind, FamilyError> {
    let text = point.text("board").unwrap_or("english");
    notation::parse_board(text).map_err(|e| FamilyError::BadParam {
        key: "board".to_string(),
        reason: e.to_string(),
    })
}

fn board(point: &Point) -> Result<Board, FamilyError> {
    Ok(board_of(kind(point)?))
}

fn pegs(point: &Point) -> u32 {
    point.int("pegs").unwrap_or(0) as u32
}

pub(crate) fn bad_state(text: &str, e: PegError) -> FamilyError {
    FamilyError::BadState {
        text: text.to_string(),
        reason: e.to_string(),
    }
}

pub(crate) fn parse(board: &Board, text: &str) -> Result<Bits, FamilyError> {
    notation::parse_position(board, text).map_err(|e| bad_state(text, e))
}

/// Plays the jump `text` on `pos`: it must parse, be a jump of the board and be legal.
pub(crate) fn play(board: &Board, pos: Bits, text: &str) -> Result<Bits, PegError> {
    let mv = notation::parse_jump(board, text)?;
    let j = board.jumps()[mv as usize];
    if pos >> j.from & 1 == 0 || pos >> j.over & 1 == 0 || pos >> j.to & 1 == 1 {
        return Err(PegError::Illegal(text.to_string()));
    }
    Ok(pos ^ (1 << j.from | 1 << j.over | 1 << j.to))
}

/// Moves as space-separated jumps (`d2-d4 f3-d3`).
pub fn moves_text(board: &Board, moves: &[u8]) -> String {
    moves
        .iter()
        .map(|&m| notation::jump_text(board, m))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Holes as space-separated names.
pub fn holes_text(holes: &[u8]) -> String {
    holes
        .iter()
        .map(|&h| notation::cell_name(h))
        .collect::<Vec<_>>()
        .join(" ")
}

impl Family for PegFamily {
    fn name(&self) -> &'static str {
        "peg"
    }

    fn summary(&self) -> &'static str {
        "Peg solitaire on the English (33) or European (37) board or a hole mask: jump and remove; leave one peg"
    }

    fn params(&self) -> &'static [ParamSpec] {
        PARAMS
    }

    /// Normalises the board to its name or mask and `pegs = 0` to holes - 1, so equal
    /// instances have equal point texts.
    fn point(&self, values: Vec<ParamValue>) -> Result<Point, FamilyError> {
        let mut values: Vec<(&'static str, ParamValue)> =
            PARAMS.iter().map(|s| s.key).zip(values).collect();
        let text = values[0].1.as_text().unwrap_or("english").to_string();
        let kind = notation::parse_board(&text).map_err(|e| FamilyError::BadParam {
            key: "board".to_string(),
            reason: e.to_string(),
        })?;
        let holes = i64::from(kind.mask().count_ones());
        values[0].1 = ParamValue::Text(kind.to_string());
        let pegs = values[1].1.as_int().unwrap_or(0);
        if pegs > holes {
            return Err(FamilyError::BadParam {
                key: "pegs".to_string(),
                reason: format!("{pegs} pegs do not fit a board of {holes} holes"),
            });
        }
        if pegs == 0 {
            values[1].1 = ParamValue::Int(holes - 1);
        }
        Ok(Point::new("peg", values))
    }

    fn size(&self, point: &Point) -> u32 {
        pegs(point)
    }

    fn size_param(&self) -> Option<&'static str> {
        Some("pegs")
    }

    /// The board a position's row lengths tell (English or European), with its pegs.
    fn point_of_state(&self, state: &str) -> Result<Option<Point>, FamilyError> {
        let (kind, pos) = notation::parse_any(state).map_err(|e| FamilyError::BadState {
            text: state.to_string(),
            reason: e.to_string(),
        })?;
        let pairs = [
            ("board".to_string(), ParamValue::Text(kind.to_string())),
            (
                "pegs".to_string(),
                ParamValue::Int(i64::from(pos.count_ones())),
            ),
        ];
        crate::point_from_pairs(self, &pairs).map(Some)
    }

    fn instance_count(&self, point: &Point) -> Option<u64> {
        let holes = u64::from(kind(point).ok()?.mask().count_ones());
        match u64::from(pegs(point)) {
            p if p + 1 == holes => Some(holes),
            p if p == holes => Some(1),
            _ => None,
        }
    }

    fn goal(&self, _point: &Point) -> u32 {
        1
    }

    fn columns(&self) -> &'static [ColumnSpec] {
        COLUMNS
    }

    fn solver(&self) -> Box<dyn GameSolver> {
        Box::new(PegSolver { solver: None })
    }

    fn instance(&self, point: &Point, instance: Instance<'_>) -> Result<String, FamilyError> {
        let board = board(point)?;
        let pos = start(self, point, &board, instance)?;
        Ok(notation::position_text(&board, pos))
    }

    fn moves(&self, point: &Point, state: &str) -> Result<Vec<(String, String)>, FamilyError> {
        let board = board(point)?;
        moves_of(&board, parse(&board, state)?)
    }

    fn replay(
        &self,
        point: &Point,
        state: &str,
        moves: &[&str],
    ) -> Result<Vec<String>, FamilyError> {
        let board = board(point)?;
        let mut pos = parse(&board, state)?;
        let mut out = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            pos = play(&board, pos, text).map_err(|e| FamilyError::BadMove {
                text: text.to_string(),
                index: Some(i),
                reason: format!("{e} (position {})", notation::position_text(&board, pos)),
            })?;
            out.push(notation::position_text(&board, pos));
        }
        Ok(out)
    }

    fn score(&self, point: &Point, state: &str) -> Result<u32, FamilyError> {
        let board = board(point)?;
        Ok(parse(&board, state)?.count_ones())
    }

    fn draw(&self, point: &Point, state: &str, colour: bool) -> Result<String, FamilyError> {
        let board = board(point)?;
        Ok(draw(&board, parse(&board, state)?, colour))
    }

    fn answer(&self, question: &serde_json::Value) -> Result<serde_json::Value, FamilyError> {
        crate::peg_questions::answer(question)
    }
}

/// Every legal jump of `pos` with the position after it, in standard order.
pub(crate) fn moves_of(board: &Board, pos: Bits) -> Result<Vec<(String, String)>, FamilyError> {
    let mut buf = Vec::new();
    board.legal_jumps(pos, &mut buf);
    Ok(buf
        .iter()
        .map(|&m| {
            let j = board.jumps()[m as usize];
            let next = pos ^ (1 << j.from | 1 << j.over | 1 << j.to);
            (
                notation::jump_text(board, m),
                notation::position_text(board, next),
            )
        })
        .collect())
}

/// The 7x7 picture: column letters on top, row digits on the left, `o` a peg, `.` an
/// empty hole, blank where the board has no hole.
pub fn draw(board: &Board, pos: Bits, colour: bool) -> String {
    let mut out = String::from("  a b c d e f g\n");
    for r in 0..7usize {
        out.push_str(&format!("{}", r + 1));
        for c in 0..7usize {
            let b = 1u64 << (r * 8 + c);
            out.push(' ');
            if board.mask() & b == 0 {
                out.push(' ');
            } else if pos & b != 0 {
                out.push_str(if colour { "\x1b[1;33mo\x1b[0m" } else { "o" });
            } else {
                out.push('.');
            }
        }
        out.push('\n');
    }
    out
}

/// The position after jump `mv`.
fn solver_jump(board: &Board, pos: Bits, mv: u8) -> Bits {
    let j = board.jumps()[mv as usize];
    pos ^ (1 << j.from | 1 << j.over | 1 << j.to)
}

/// The start position of an instance.
fn start(
    family: &PegFamily,
    point: &Point,
    board: &Board,
    instance: Instance<'_>,
) -> Result<Bits, FamilyError> {
    match instance {
        Instance::Given(text) => parse(board, text),
        Instance::Seeded { sweep_seed, index } => {
            let holes = board.holes();
            let pegs = pegs(point);
            if let Some(count) = family.instance_count(point) {
                if index >= count {
                    return Err(FamilyError::NoSuchInstance { index, count });
                }
                return Ok(if pegs == holes {
                    board.mask()
                } else {
                    peg::single_vacancy(board, index).unwrap_or(board.mask())
                });
            }
            if index > MAX_INDEX {
                return Err(FamilyError::NoSuchInstance {
                    index,
                    count: MAX_INDEX + 1,
                });
            }
            Ok(peg::seeded_position(board, sweep_seed, pegs, index))
        }
    }
}

/// Solves peg games; keeps one solver (memo and buffers) and rebuilds it only when the
/// board changes.
struct PegSolver {
    solver: Option<(BoardKind, Solver<Peg>)>,
}

impl GameSolver for PegSolver {
    fn solve(
        &mut self,
        point: &Point,
        instance: Instance<'_>,
        config: &Config,
        run_seed: u64,
    ) -> Result<Solved, FamilyError> {
        let board = board(point)?;
        let pos = start(&PegFamily, point, &board, instance)?;
        let solver = match &mut self.solver {
            Some((kind, solver)) if *kind == board.kind() => solver,
            slot => {
                let solver = Solver::new(Peg::new(board.clone()));
                &mut slot.insert((board.kind(), solver)).1
            }
        };
        Ok(solve_with(solver, &board, pos, config, run_seed))
    }
}

/// Solves `pos` with the search, then finds the holes where one peg can remain: none
/// when the search proved that more pegs stay; else the search's own finish plus a
/// reachability search for each other hole of the right class.
pub fn solve_with(
    solver: &mut Solver<Peg>,
    board: &Board,
    pos: Bits,
    config: &Config,
    run_seed: u64,
) -> Solved {
    let outcome = solver.solve(&pos, config, run_seed);
    let mut end = outcome.start;
    for &mv in &outcome.solution {
        end = solver_jump(board, end, mv);
    }
    // A game a limit stopped gets no finishing search either (it is unlimited): its
    // `holes` column is null, unknown.
    let capped = outcome.capped_by.is_some();
    let (holes, finish_expansions) = if capped || (outcome.exhaustive && outcome.min_score != 1) {
        (Vec::new(), 0)
    } else {
        let known = if end.count_ones() == 1 { end } else { 0 };
        finishes(solver.puzzle(), outcome.start, known)
    };
    Solved {
        board: notation::position_text(board, pos),
        prefix_moves: moves_text(board, &outcome.prefix_moves),
        start: notation::position_text(board, outcome.start),
        score: outcome.min_score,
        lower_bound: outcome.lower_bound,
        exhaustive: outcome.exhaustive,
        capped_by: outcome.capped_by,
        expansions: outcome.counters.expansions + finish_expansions,
        attempts: outcome.counters.attempts,
        heuristic_steps: outcome.counters.heuristic_steps,
        memo_states: outcome.memo_states,
        memo_bytes: outcome.memo_bytes,
        split_nodes: None,
        solution: moves_text(board, &outcome.solution),
        extra: vec![
            Cell::Text(board.kind().to_string()),
            Cell::Int(i64::from(pos.count_ones())),
            if capped {
                Cell::Null
            } else {
                Cell::Text(holes_text(&holes))
            },
        ],
    }
}
