//! Machinarium slide tours as a family: a board (a side `n`, a given board or a list of
//! obstacles, plus `k` obstacles at seeded random cells or at every placement), an
//! optional fixed start cell, and optionally a count of the tours. The score is the
//! free cells not yet visited; a tour exists when it can reach 0.
//!
//! Notation: see [`notation`]. The first tour in the spec's order is what the search
//! finds first, because the engine lists moves in that order (start cells ascending,
//! then up, left, right, down) and the search only skips subtrees that cannot hold a
//! tour; [`solve_board`] is the one-call version for tests and other solvers.

pub mod notation;
mod questions;
mod report;
mod view;

use hammer_engine::Notation;
use hammer_engine::tours::{
    Board, Cells, Tours, binomial, count_tours, placement, seeded_obstacles,
};
use hammer_solver::{Config, Solver};

pub use notation::Position;
use notation::{ToursNotation, bad_state, join};

use crate::error::bad;
use crate::{
    Cell, ColumnKind, ColumnSpec, Family, FamilyError, Game, GameSolver, Info, Job, ParamKind,
    ParamSpec, ParamValue, Point, Positions, ReportExtras, Solved,
};

/// The slide-tours family.
#[derive(Clone, Copy, Debug, Default)]
pub struct ToursFamily;

/// Seeded random instances use stream numbers below 2^40 (see `seeded_obstacles`).
const MAX_RANDOM_INSTANCES: u64 = 1 << 40;

const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "n",
        sweep_key: "sizes",
        kind: ParamKind::Int { min: 0, max: 16 },
        default: Some("0"),
        doc: "board side 1..16; 0 (the default) takes it from the given board",
    },
    ParamSpec {
        key: "board",
        sweep_key: "boards",
        kind: ParamKind::Text,
        default: Some(""),
        doc: "a board in the spec's notation (rows of . and # joined by /); empty: an empty n x n board",
    },
    ParamSpec {
        key: "obstacles",
        sweep_key: "obstacles",
        kind: ParamKind::Text,
        default: Some(""),
        doc: "obstacle cell numbers (1..n*n, row by row), comma-separated, added to the board",
    },
    ParamSpec {
        key: "k",
        sweep_key: "k",
        kind: ParamKind::Int { min: 0, max: 255 },
        default: Some("0"),
        doc: "obstacles added at other free cells (never the start): seeded random cells, or every placement",
    },
    ParamSpec {
        key: "place",
        sweep_key: "place",
        kind: ParamKind::Choice(&["random", "every"]),
        default: Some("random"),
        doc: "random: instance i has k obstacles at seeded random cells; every: instance i is the i-th placement of k obstacles in lexicographic order (a finite set)",
    },
    ParamSpec {
        key: "start",
        sweep_key: "starts",
        kind: ParamKind::Int { min: 0, max: 256 },
        default: Some("0"),
        doc: "a fixed start cell number; 0 (the default): the first move chooses it",
    },
    ParamSpec {
        key: "count",
        sweep_key: "count",
        kind: ParamKind::Bool,
        default: Some("false"),
        doc: "also count every tour of the instance and the start cells that begin one",
    },
];

const COLUMNS: &[ColumnSpec] = &[
    ColumnSpec {
        name: "tours_board",
        kind: ColumnKind::Utf8,
        doc: "the instance's board in the spec's notation (obstacles included)",
    },
    ColumnSpec {
        name: "tours_obstacles",
        kind: ColumnKind::Int32,
        doc: "obstacles on the board",
    },
    ColumnSpec {
        name: "tours_free",
        kind: ColumnKind::Int32,
        doc: "free cells on the board",
    },
    ColumnSpec {
        name: "tours_start",
        kind: ColumnKind::Int32,
        doc: "the first cell of the best path found (of the tour when score is 0); empty when none",
    },
    ColumnSpec {
        name: "tours_path",
        kind: ColumnKind::Utf8,
        doc: "the best path found, cell numbers space-separated: the first tour in the spec's order when score is 0 under the standard order without prefix",
    },
    ColumnSpec {
        name: "tours_count",
        kind: ColumnKind::Int64,
        doc: "with count = true: the number of tours from the instance (saturating at 2^63-1); else empty",
    },
    ColumnSpec {
        name: "tours_starts",
        kind: ColumnKind::Utf8,
        doc: "with count = true: the start cells that begin a tour, space-separated; else empty",
    },
    ColumnSpec {
        name: "tours_count_nodes",
        kind: ColumnKind::Int64,
        doc: "with count = true: states the count expanded (its cost, apart from expansions); else empty",
    },
];

const INFO: Info = Info {
    name: "tours",
    summary: "Machinarium slide tours: slide a token until blocked; visit every free cell of a square board once",
    params: PARAMS,
    columns: COLUMNS,
    size_param: Some("n"),
};

/// A checked point, read back.
#[derive(Clone, Debug)]
struct Spec {
    /// The given board with the listed obstacles.
    base: Board,
    start: Option<u8>,
    k: u32,
    every: bool,
}

impl Spec {
    /// The cells the `k` extra obstacles may take: free cells other than the start.
    fn candidates(&self) -> Cells {
        match self.start {
            Some(s) => self.base.free() & !Cells::single(s),
            None => self.base.free(),
        }
    }
}

/// A cell number of the point's board.
fn cell_of(board: &Board, key: &str, k: u32) -> Result<u8, FamilyError> {
    board.index(k).ok_or_else(|| {
        let n = board.n();
        bad(
            key,
            format!(
                "cell {k} is outside the {n}x{n} board (1..{})",
                board.cells()
            ),
        )
    })
}

/// The obstacle list: cell numbers separated by commas or spaces.
fn obstacle_list(text: &str) -> Result<Vec<u32>, FamilyError> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<u32>()
                .map_err(|_| bad("obstacles", format!("'{t}' is not a cell number")))
        })
        .collect()
}

/// Reads and checks a point's values (in [`PARAMS`] order).
fn spec_of(values: &[(&'static str, ParamValue)]) -> Result<Spec, FamilyError> {
    let get = |key: &str| values.iter().find(|(k, _)| *k == key).map(|(_, v)| v);
    let int = |key: &str| get(key).and_then(ParamValue::as_int).unwrap_or(0);
    let text = |key: &str| get(key).and_then(ParamValue::as_text).unwrap_or("");
    let n = int("n") as u8;
    let board_text = text("board").trim();
    let mut base = if board_text.is_empty() {
        if n == 0 {
            return Err(bad(
                "n",
                "required: a board side 1..16, unless a board is given",
            ));
        }
        Board::new(n, &[]).map_err(|e| bad("n", e.to_string()))?
    } else {
        let board = Board::parse(board_text).map_err(|e| bad("board", e.to_string()))?;
        if n != 0 && n != board.n() {
            let m = board.n();
            return Err(bad("n", format!("n = {n} but the board is {m}x{m}")));
        }
        board
    };
    let mut obstacles: Vec<u32> = base.obstacles().iter().map(|i| base.number(i)).collect();
    for k in obstacle_list(text("obstacles"))? {
        let i = cell_of(&base, "obstacles", k)?;
        if base.obstacles().has(i) || obstacles.contains(&k) {
            return Err(bad("obstacles", format!("cell {k} is listed twice")));
        }
        obstacles.push(k);
    }
    base = Board::new(base.n(), &obstacles).map_err(|e| bad("obstacles", e.to_string()))?;
    let start = match int("start") as u32 {
        0 => None,
        s => {
            let i = cell_of(&base, "start", s)?;
            if base.obstacles().has(i) {
                return Err(bad("start", format!("cell {s} is an obstacle")));
            }
            Some(i)
        }
    };
    let k = int("k") as u32;
    let every = text("place") == "every";
    let spec = Spec {
        base,
        start,
        k,
        every,
    };
    let room = spec.candidates().count() - u32::from(start.is_none());
    if k > room {
        return Err(bad(
            "k",
            format!(
                "{k} obstacles do not fit: {} free cells and one must stay free",
                base.free().count()
            ),
        ));
    }
    if every && k > 0 {
        let placements = binomial(u64::from(spec.candidates().count()), u64::from(k));
        if placements.is_none_or(|p| p > hammer_engine::seeded::MAX_INDEX) {
            return Err(bad(
                "place",
                format!("every placement of {k} obstacles is too many instances to number"),
            ));
        }
    }
    Ok(spec)
}

fn spec(point: &Point) -> Result<Spec, FamilyError> {
    spec_of(point.values())
}

impl ToursFamily {
    /// The number of instances of a checked spec, when finite.
    fn count_of(spec: &Spec) -> Option<u64> {
        match (spec.k, spec.every) {
            (0, _) => Some(1),
            (k, true) => binomial(u64::from(spec.candidates().count()), u64::from(k)),
            (_, false) => None,
        }
    }

    /// The start position of instance `index` of a checked spec.
    fn seeded(spec: &Spec, n: u8, sweep_seed: u64, index: u64) -> Result<Position, FamilyError> {
        let extra = match Self::count_of(spec) {
            Some(count) if index >= count => {
                return Err(FamilyError::NoSuchInstance { index, count });
            }
            Some(_) => placement(spec.candidates(), spec.k, index).unwrap_or(Cells::EMPTY),
            None if index >= MAX_RANDOM_INSTANCES => {
                return Err(FamilyError::NoSuchInstance {
                    index,
                    count: MAX_RANDOM_INSTANCES,
                });
            }
            None => seeded_obstacles(spec.candidates(), n, sweep_seed, spec.k, index),
        };
        let base = spec.base;
        let mut obstacles: Vec<u32> = (base.obstacles() | extra)
            .iter()
            .map(|i| base.number(i))
            .collect();
        obstacles.sort_unstable();
        let board = Board::new(base.n(), &obstacles).map_err(|e| bad("k", e.to_string()))?;
        match spec.start {
            None => Ok(Position::start(board)),
            Some(s) => Position::from_path(board, vec![s]).map_err(|e| bad("start", e)),
        }
    }
}

/// Slide tours at a point: its board with seeded or enumerated extra obstacles.
fn game(point: &Point) -> Game<ToursNotation> {
    let spec = spec(point);
    let seeded = move |sweep_seed, index| {
        let spec = spec.clone()?;
        ToursFamily::seeded(&spec, spec.base.n(), sweep_seed, index)
    };
    Game::new(ToursNotation, seeded, |_, pos, colour| {
        view::draw(pos, colour)
    })
}

impl Family for ToursFamily {
    fn info(&self) -> &'static Info {
        &INFO
    }

    /// Normalises `n` to the board's side, the board to its notation and the obstacle
    /// list to increasing numbers, so equal instances have equal point texts.
    fn point(&self, values: Vec<ParamValue>) -> Result<Point, FamilyError> {
        let mut values = INFO.keyed(values);
        let spec = spec_of(&values)?;
        values[0].1 = ParamValue::Int(i64::from(spec.base.n()));
        if let Some(text) = values[1].1.as_text()
            && !text.trim().is_empty()
        {
            let board = Board::parse(text.trim()).map_err(|e| bad("board", e.to_string()))?;
            values[1].1 = ParamValue::Text(board.to_string());
        }
        let mut listed = obstacle_list(values[2].1.as_text().unwrap_or(""))?;
        listed.sort_unstable();
        values[2].1 = ParamValue::Text(join(&listed, ","));
        Ok(Point::new("tours", values))
    }

    fn instance_count(&self, point: &Point) -> Option<u64> {
        Self::count_of(&spec(point).ok()?)
    }

    fn goal(&self, _point: &Point) -> u32 {
        0
    }

    fn solver(&self) -> Box<dyn GameSolver> {
        Box::new(ToursSolver(Solver::new(Tours)))
    }

    /// The board a position shows.
    fn point_of_state(&self, state: &str) -> Result<Option<Point>, FamilyError> {
        let pos = Position::parse(state)?;
        let pairs = [("board".to_string(), ParamValue::Text(pos.board.to_string()))];
        crate::point_from_pairs(self, &pairs).map(Some)
    }

    fn game(&self, point: &Point) -> Result<Box<dyn Positions>, FamilyError> {
        Ok(Box::new(game(point)))
    }

    fn answer(&self, question: &serde_json::Value) -> Result<serde_json::Value, FamilyError> {
        questions::answer(question)
    }

    fn report_extras(&self) -> Option<ReportExtras> {
        Some(ReportExtras::Tours(report::TOUR_ROWS))
    }
}

/// What [`solve_board`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TourSolve {
    /// The first tour in the spec's order (cell numbers), when one exists.
    pub tour: Option<Vec<u32>>,
    /// The fewest free cells that must stay unvisited (0 when a tour exists).
    pub min_unvisited: u32,
    /// A path that leaves `min_unvisited` cells unvisited (the tour when one exists).
    pub path: Vec<u32>,
    /// Expansions of the search.
    pub expansions: u64,
}

impl TourSolve {
    /// Whether the search found a tour.
    pub fn solvable(&self) -> bool {
        self.tour.is_some()
    }
}

/// Solves one board exactly with the family's standard search (standard order, exact
/// schedule, no prefix): whether a tour exists, the first tour in the spec's order, the
/// fewest cells that must stay unvisited otherwise. For differential tests against
/// other solvers.
pub fn solve_board(board: &Board) -> TourSolve {
    let mut solver = Solver::new(Tours);
    let pos = Position::start(*board);
    let outcome = solver.solve(&pos.state, &Config::default(), 0);
    let end = outcome.solution.iter().fold(pos, |p, &s| p.play(s));
    let path = end.numbers();
    TourSolve {
        tour: (outcome.min_score == 0).then(|| path.clone()),
        min_unvisited: outcome.min_score,
        path,
        expansions: outcome.counters.expansions,
    }
}

/// [`solve_board`] on a board in the spec's notation.
pub fn solve_text(text: &str) -> Result<TourSolve, FamilyError> {
    let board = Board::parse(text).map_err(|e| bad_state(text, e))?;
    Ok(solve_board(&board))
}

/// One thread's solver: the board travels in the state, so one solver (and its memo)
/// serves every instance.
struct ToursSolver(Solver<Tours>);

impl GameSolver for ToursSolver {
    fn solve(&mut self, job: Job<'_>) -> Result<Solved, FamilyError> {
        let game = game(job.point);
        let pos = game.start(job.instance)?;
        let outcome = self.0.solve(&pos.state, job.config, job.run_seed);
        let end = game.notation.after(
            &game.notation.after(&pos, &outcome.prefix_moves),
            &outcome.solution,
        );
        let board = pos.board;
        let counted = job
            .point
            .bool("count")
            .unwrap_or(false)
            .then(|| count_tours(&pos.state));
        let big = |x: u128| Cell::Int(i64::try_from(x).unwrap_or(i64::MAX));
        let (count, starts, nodes) = match &counted {
            Some(c) => (
                big(c.tours),
                Cell::Text(join(
                    &c.starts
                        .iter()
                        .map(|&i| board.number(i))
                        .collect::<Vec<_>>(),
                    " ",
                )),
                big(u128::from(c.nodes)),
            ),
            None => (Cell::Null, Cell::Null, Cell::Null),
        };
        let path = end.numbers();
        let extra = vec![
            Cell::Text(board.to_string()),
            Cell::Int(i64::from(board.obstacles().count())),
            Cell::Int(i64::from(board.free().count())),
            path.first()
                .map_or(Cell::Null, |&s| Cell::Int(i64::from(s))),
            Cell::Text(join(&path, " ")),
            count,
            starts,
            nodes,
        ];
        Ok(Solved::of(&game.notation, &pos, &outcome, extra))
    }
}
