//! Solitaire Clobber as a family: a board of `m x n` cells filled by the spec's `gen`
//! (a fill percentage, checkerboard or random colours), played under the partisan or
//! the impartial rule; the score is the stones left (`docs/clobber.md`).
//!
//! A state is the spec's position, followed under the partisan rule by `:x`, `:o` or
//! `:any` when its colour to move is not the point's `turn` (engine's
//! [`hammer_engine::clobber::Setup`]). Instance `i` of a sweep seed fills the board with
//! the gen seed drawn from the ChaCha20 stream
//! `hammer/clobber/instances/m=M;n=N;fill=F;colours=C` at `i`, the same board under
//! either rule and any first colour; the full checkerboard (fill 100, checker colours)
//! has one instance.

mod questions;
mod view;

use hammer_engine::clobber::{Board, Clobber, Colour, Colours, Gen, MAX_CELLS, Rule, Setup};
use hammer_engine::seeded::{self, MAX_INDEX};
use hammer_solver::Solver;

use crate::error::bad;
use crate::{
    Cell, ColumnKind, ColumnSpec, Family, FamilyError, Game, GameSolver, Info, Job, ParamKind,
    ParamSpec, ParamValue, Point, Positions, Solved,
};

/// The Solitaire Clobber family.
pub struct ClobberFamily;

const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "m",
        sweep_key: "rows",
        kind: ParamKind::Int { min: 1, max: 64 },
        default: Some("4"),
        doc: "rows of the board (m * n at most 64 cells)",
    },
    ParamSpec {
        key: "n",
        sweep_key: "columns",
        kind: ParamKind::Int { min: 1, max: 64 },
        default: Some("4"),
        doc: "columns of the board",
    },
    ParamSpec {
        key: "fill",
        sweep_key: "fills",
        kind: ParamKind::Int { min: 0, max: 100 },
        default: Some("100"),
        doc: "percentage chance that a cell holds a stone",
    },
    ParamSpec {
        key: "colours",
        sweep_key: "colours",
        kind: ParamKind::Choice(&["checker", "random"]),
        default: Some("checker"),
        doc: "checker: black where row + column is even; random: one draw per stone",
    },
    ParamSpec {
        key: "rule",
        sweep_key: "rules",
        kind: ParamKind::Choice(&["partisan", "impartial"]),
        // Required, as in the spec: the two rules are different puzzles.
        default: None,
        doc: "partisan: the colours alternate; impartial: any stone moves at any time",
    },
    ParamSpec {
        key: "turn",
        sweep_key: "turns",
        kind: ParamKind::Choice(&["any", "x", "o"]),
        default: Some("any"),
        doc: "partisan rule: the colour that moves first (any: the player's choice); the impartial rule takes any",
    },
];

const COLUMNS: &[ColumnSpec] = &[ColumnSpec {
    name: "clobber_stones",
    kind: ColumnKind::Int32,
    doc: "stones of the instance's start position",
}];

const INFO: Info = Info {
    name: "clobber",
    summary: "Solitaire Clobber: a stone clobbers a neighbour of the other colour; leave as few stones as possible",
    params: PARAMS,
    columns: COLUMNS,
    size_param: None,
};

/// The rules and first colour of a checked point.
fn setup(point: &Point) -> Result<Setup, FamilyError> {
    let int = |key: &str| point.int(key).unwrap_or(4) as u32;
    let board = Board::new(int("m"), int("n")).map_err(|e| bad("n", e.to_string()))?;
    let rule = point.text("rule").and_then(Rule::from_name);
    let rule = rule.ok_or_else(|| bad("rule", "partisan or impartial is required"))?;
    let turn = match point.text("turn").unwrap_or("any") {
        "any" => None,
        letter => Colour::from_letter(letter),
    };
    if rule == Rule::Impartial && turn.is_some() {
        return Err(bad("turn", "the impartial rule has no colour to move"));
    }
    Ok(Setup {
        game: Clobber::new(board, rule),
        turn,
    })
}

fn colours(point: &Point) -> Colours {
    Colours::from_name(point.text("colours").unwrap_or("checker")).unwrap_or(Colours::Checker)
}

/// Clobber at a point: instance `index` fills the board with a gen seed of its own.
fn game(point: &Point) -> Result<Game<Setup>, FamilyError> {
    let setup = setup(point)?;
    let (m, n) = (setup.game.board().m(), setup.game.board().n());
    let fill = point.int("fill").unwrap_or(100) as u64;
    let colours = colours(point);
    let count = ClobberFamily.instance_count(point);
    // The filling's parameters only: instance i is the same board under every rule and
    // first colour, so that they compare on the same boards.
    let label = format!(
        "hammer/clobber/instances/m={m};n={n};fill={fill};colours={}",
        colours.name()
    );
    let seeded = move |sweep_seed, index| {
        let count = count.unwrap_or(MAX_INDEX + 1);
        if index >= count {
            return Err(FamilyError::NoSuchInstance { index, count });
        }
        let seed = rand_core::Rng::next_u64(&mut seeded::stream(sweep_seed, &label, index));
        let filling = Gen::new(m.into(), n.into(), fill, colours, seed)
            .map_err(|e| bad("n", e.to_string()))?;
        Ok(setup.game.state(filling.position(), setup.turn))
    };
    Ok(Game::new(setup, seeded, view::draw))
}

impl Family for ClobberFamily {
    fn info(&self) -> &'static Info {
        &INFO
    }

    fn point(&self, values: Vec<ParamValue>) -> Result<Point, FamilyError> {
        let point = INFO.point(values);
        let cells = point.int("m").unwrap_or(0) * point.int("n").unwrap_or(0);
        if cells > i64::from(MAX_CELLS) {
            return Err(bad(
                "n",
                format!("a board has at most 64 cells, got {cells}"),
            ));
        }
        setup(&point)?;
        Ok(point)
    }

    /// The cells of the board.
    fn size(&self, point: &Point) -> u32 {
        (point.int("m").unwrap_or(0) * point.int("n").unwrap_or(0)) as u32
    }

    /// The full checkerboard is one instance; any other filling is seeded.
    fn instance_count(&self, point: &Point) -> Option<u64> {
        let full = point.int("fill") == Some(100) && colours(point) == Colours::Checker;
        full.then_some(1)
    }

    fn goal(&self, _point: &Point) -> u32 {
        1
    }

    fn solver(&self) -> Box<dyn GameSolver> {
        Box::new(ClobberSolver(None))
    }

    fn score_unit(&self) -> Option<&'static str> {
        Some("stone")
    }

    /// The board a position's rows tell; the rule is the point's to say.
    fn point_of_state(&self, state: &str) -> Result<Option<Point>, FamilyError> {
        let text = state.split(':').next().unwrap_or(state);
        let (board, _) =
            hammer_engine::clobber::parse_position(text).map_err(|e| FamilyError::BadState {
                text: state.to_string(),
                reason: e.to_string(),
            })?;
        let pairs = [
            ("m".to_string(), ParamValue::Int(board.m().into())),
            ("n".to_string(), ParamValue::Int(board.n().into())),
            ("rule".to_string(), ParamValue::Text("partisan".into())),
        ];
        crate::point_from_pairs(self, &pairs).map(Some)
    }

    fn game(&self, point: &Point) -> Result<Box<dyn Positions>, FamilyError> {
        Ok(Box::new(game(point)?))
    }

    fn answer(&self, question: &serde_json::Value) -> Result<serde_json::Value, FamilyError> {
        questions::answer(question)
    }
}

/// One thread's solver, rebuilt when the board or the rule changes.
struct ClobberSolver(Option<Solver<Clobber>>);

impl GameSolver for ClobberSolver {
    fn solve(&mut self, job: Job<'_>) -> Result<Solved, FamilyError> {
        let game = game(job.point)?;
        let board = game.start(job.instance)?;
        let rules = game.notation.game;
        let solver = match &mut self.0 {
            Some(solver) if *solver.puzzle() == rules => solver,
            slot => slot.insert(Solver::new(rules)),
        };
        let outcome = solver.solve(&board, job.config, job.run_seed);
        // The start's own bound is the shared `lower_bound` column of an exact row.
        let extra = vec![Cell::Int(i64::from(board.pos.count()))];
        Ok(Solved::of(&game.notation, &board, &outcome, extra))
    }
}
