//! Peg solitaire as a family: a board (`english`, `european` or a hole mask) and a peg
//! count. With one peg fewer than the board has holes, the instances are the
//! single-vacancy starts (instance `i` vacates the `i`-th hole in row-major order); with
//! fewer pegs they are seeded random positions. The score is the pegs left.

mod questions;

use std::sync::LazyLock;

use hammer_engine::Notation;
use hammer_engine::peg::notation::{self, PegError};
use hammer_engine::peg::{self, Bits, Board, BoardKind, Peg, finishes};
use hammer_engine::seeded::MAX_INDEX;
use hammer_solver::{Config, Solver};

use crate::error::bad;
use crate::{
    Cell, ColumnKind, ColumnSpec, Family, FamilyError, Game, GameSolver, Info, Instance, Job,
    ParamKind, ParamSpec, ParamValue, Point, Positions, Solved,
};
use crate::{CountTeam, Counted, Counting, OwnersError, count_positions};

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

const INFO: Info = Info {
    name: "peg",
    summary: "Peg solitaire on the English (33) or European (37) board or a hole mask: jump and remove; leave one peg",
    params: PARAMS,
    columns: COLUMNS,
    size_param: Some("pegs"),
};

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
    notation::parse_board(text).map_err(|e| bad("board", e.to_string()))
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

/// Peg solitaire at a point: the single-vacancy starts (or the full board) when the
/// point has finitely many, else seeded random positions.
fn game(point: &Point) -> Result<Game<Board>, FamilyError> {
    let board = board_of(kind(point)?);
    let count = PegFamily.instance_count(point);
    let pegs = pegs(point);
    let seed_board = board.clone();
    let seeded = move |sweep_seed, index| start(&seed_board, pegs, count, sweep_seed, index);
    Ok(Game::new(board, seeded, |board, pos, colour| {
        draw(board, *pos, colour)
    }))
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
    fn info(&self) -> &'static Info {
        &INFO
    }

    /// Normalises the board to its name or mask and `pegs = 0` to holes - 1, so equal
    /// instances have equal point texts.
    fn point(&self, values: Vec<ParamValue>) -> Result<Point, FamilyError> {
        let mut values = INFO.keyed(values);
        let text = values[0].1.as_text().unwrap_or("english").to_string();
        let kind = notation::parse_board(&text).map_err(|e| bad("board", e.to_string()))?;
        let holes = i64::from(kind.mask().count_ones());
        values[0].1 = ParamValue::Text(kind.to_string());
        let pegs = values[1].1.as_int().unwrap_or(0);
        if pegs > holes {
            let reason = format!("{pegs} pegs do not fit a board of {holes} holes");
            return Err(bad("pegs", reason));
        }
        if pegs == 0 {
            values[1].1 = ParamValue::Int(holes - 1);
        }
        Ok(Point::new("peg", values))
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

    fn solver(&self) -> Box<dyn GameSolver> {
        Box::new(PegSolver { solver: None })
    }

    fn game(&self, point: &Point) -> Result<Box<dyn Positions>, FamilyError> {
        Ok(Box::new(game(point)?))
    }

    fn counting(&self) -> Option<&dyn Counting> {
        Some(self)
    }

    fn answer(&self, question: &serde_json::Value) -> Result<serde_json::Value, FamilyError> {
        questions::answer(question)
    }
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

/// The start position of seeded instance `index`: a single-vacancy start or the full
/// board when the point has `count` instances, else a seeded random position.
fn start(
    board: &Board,
    pegs: u32,
    count: Option<u64>,
    sweep_seed: u64,
    index: u64,
) -> Result<Bits, FamilyError> {
    if let Some(count) = count {
        if index >= count {
            return Err(FamilyError::NoSuchInstance { index, count });
        }
        return Ok(if pegs == board.holes() {
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

/// Solves peg games; keeps one solver (memo and buffers) and rebuilds it only when the
/// board changes.
struct PegSolver {
    solver: Option<(BoardKind, Solver<Peg>)>,
}

impl GameSolver for PegSolver {
    fn solve(&mut self, job: Job<'_>) -> Result<Solved, FamilyError> {
        let game = game(job.point)?;
        let board = &game.notation;
        let pos = game.start(job.instance)?;
        let solver = match &mut self.solver {
            Some((kind, solver)) if *kind == board.kind() => solver,
            slot => {
                let solver = Solver::new(Peg::new(board.clone()));
                &mut slot.insert((board.kind(), solver)).1
            }
        };
        Ok(solve_with(solver, board, pos, job.config, job.run_seed))
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
    let end = board.after(&outcome.start, &outcome.solution);
    // A game a limit stopped gets no finishing search either (it is unlimited): its
    // `holes` column is null, unknown.
    let capped = outcome.capped_by.is_some();
    let (holes, finish_expansions) = if capped || (outcome.exhaustive && outcome.min_score != 1) {
        (Vec::new(), 0)
    } else {
        let known = if end.count_ones() == 1 { end } else { 0 };
        finishes(solver.puzzle(), outcome.start, known)
    };
    let extra = vec![
        Cell::Text(board.kind().to_string()),
        Cell::Int(i64::from(pos.count_ones())),
        if capped {
            Cell::Null
        } else {
            Cell::Text(holes_text(&holes))
        },
    ];
    let mut solved = Solved::of(board, &pos, &outcome, extra);
    solved.game.expansions += finish_expansions;
    solved
}

/// The centre game and its kin: every position reachable from a peg start.
impl Counting for PegFamily {
    fn count(
        &self,
        point: &Point,
        instance: Instance<'_>,
        symmetry: bool,
        team: CountTeam<'_>,
    ) -> Result<Counted, OwnersError> {
        let board = board_of(kind(point)?);
        let start = game(point)?.start(instance)?;
        // Only the symmetries that fix the start map its reachable set onto itself.
        let puzzle = Peg::new(if symmetry {
            board.fixing(start)
        } else {
            board.clone()
        });
        count_positions(&board, &puzzle, &start, symmetry, team)
    }
}
