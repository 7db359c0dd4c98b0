//! Martello solo as a family: the board side `n` is its one parameter, a seeded random
//! permutation of the stones its instance, stones left its score.

mod cost;
mod questions;
mod view;

use hammer_engine::martello::Side;
use hammer_engine::martello::signature::{FEATURE_VERSION, MAX_RADIUS};
use hammer_engine::seeded::{self, MAX_INDEX};
use hammer_engine::{MAX_N, Martello, ParseError, State};
use hammer_solver::learned::Learner;
use hammer_solver::{Config, Solver};

use crate::error::bad;
use crate::{
    ColumnSpec, Family, FamilyError, Game, GameSolver, Info, Instance, Job, Learning, OwnedSolved,
    Owners, OwnersError, ParamKind, ParamSpec, ParamValue, Point, Positions, Solved, Team,
    solve_by_owners,
};

/// The Martello family.
#[derive(Clone, Copy, Debug, Default)]
pub struct MartelloFamily;

const PARAMS: &[ParamSpec] = &[ParamSpec {
    key: "n",
    sweep_key: "sizes",
    kind: ParamKind::Int {
        min: 1,
        max: MAX_N as i64,
    },
    // Required: a Martello sweep has always had to name its sizes.
    default: None,
    doc: "board side: n x n stones of n colours and n symbols",
}];

/// Martello's own columns (`n`, `min_stones`) predate families and stay common columns,
/// so that existing datasets and readers keep working.
const COLUMNS: &[ColumnSpec] = &[];

const INFO: Info = Info {
    name: "martello",
    summary: "Martello solo: n x n unique stones; a stone eats a neighbour sharing its colour or symbol; leave one",
    params: PARAMS,
    columns: COLUMNS,
    size_param: Some("n"),
};

fn side(point: &Point) -> u8 {
    point.int("n").unwrap_or(6) as u8
}

fn bad_state(text: &str, e: ParseError) -> FamilyError {
    FamilyError::BadState {
        text: text.to_string(),
        reason: e.to_string(),
    }
}

/// Martello at a point: a seeded random permutation of the stones per instance.
fn game(point: &Point) -> Game<Side> {
    let n = side(point);
    let seeded = move |sweep_seed, index| {
        seeded::game(sweep_seed, n, index).map_err(|e| match e {
            seeded::SeededError::Index(index) => FamilyError::NoSuchInstance {
                index,
                count: MAX_INDEX + 1,
            },
            other => bad("n", other.to_string()),
        })
    };
    Game::new(Side(n), seeded, |_, state, colour| {
        view::draw(state, colour)
    })
}

impl Family for MartelloFamily {
    fn info(&self) -> &'static Info {
        &INFO
    }

    fn instance_count(&self, _point: &Point) -> Option<u64> {
        None
    }

    fn goal(&self, _point: &Point) -> u32 {
        1
    }

    fn estimated_seconds(&self, point: &Point, config: &Config) -> f64 {
        cost::estimated_game_seconds(side(point), config)
    }

    fn solver(&self) -> Box<dyn GameSolver> {
        Box::new(MartelloSolver(Solver::new(Martello)))
    }

    fn point_of_state(&self, state: &str) -> Result<Option<Point>, FamilyError> {
        MartelloFamily::point_of_board(state).map(Some)
    }

    fn game(&self, point: &Point) -> Result<Box<dyn Positions>, FamilyError> {
        Ok(Box::new(game(point)))
    }

    fn score_unit(&self) -> Option<&'static str> {
        Some("stone")
    }

    /// 6x6, the board the 2013 report studies most and `hammer bench` has always timed.
    fn default_point(&self) -> Option<Point> {
        Some(Point::new("martello", vec![("n", ParamValue::Int(6))]))
    }

    /// Another stone eating the same stone can leave the same state (its other row
    /// neighbour, say): every other stone of the board is tried as the eater.
    fn move_aliases(&self, point: &Point, state: &str, mv: &str, after: &str) -> Vec<String> {
        let Some((eater, eaten)) = mv.split_once('x') else {
            return Vec::new();
        };
        state
            .split('/')
            .flat_map(|row| row.as_bytes().chunks(2))
            .map(String::from_utf8_lossy)
            .filter(|t| t != eater && t != eaten)
            .map(|t| format!("{t}x{eaten}"))
            .filter(|alias| {
                self.replay(point, state, &[alias.as_str()])
                    .is_ok_and(|s| s.first().is_some_and(|s| s == after))
            })
            .collect()
    }

    fn page_draws_board(&self) -> bool {
        true
    }

    fn report_figures(&self) -> bool {
        true
    }

    fn learning(&self) -> Option<&dyn Learning> {
        Some(self)
    }

    fn owners(&self) -> Option<&dyn Owners> {
        Some(self)
    }

    fn answer(&self, question: &serde_json::Value) -> Result<serde_json::Value, FamilyError> {
        questions::answer(question)
    }

    fn run_seed(&self, point: &Point, sweep_seed: u64, index: u64, trial: u32) -> u64 {
        seeded::run_seed(sweep_seed, side(point), index, trial)
    }
}

impl Learning for MartelloFamily {
    fn feature_version(&self) -> u32 {
        FEATURE_VERSION
    }

    fn max_radius(&self) -> usize {
        MAX_RADIUS
    }

    fn learn_game(
        &self,
        learner: &mut Learner,
        start: &str,
        solution: &[&str],
    ) -> Result<(), FamilyError> {
        let first = State::parse(start).map_err(|e| bad_state(start, e))?;
        let mut state = first;
        let mut moves = Vec::with_capacity(solution.len());
        for (i, text) in solution.iter().enumerate() {
            let mv = state.parse_move(text).map_err(|e| FamilyError::BadMove {
                text: text.to_string(),
                index: Some(i),
                reason: e.to_string(),
            })?;
            state = state.apply(mv);
            moves.push(mv);
        }
        learner
            .game(&Martello, &first, &moves)
            .map_err(|e| FamilyError::BadMove {
                text: solution[e.index].to_string(),
                index: Some(e.index),
                reason: "not legal there".to_string(),
            })
    }
}

impl MartelloFamily {
    /// The point of a given board: its own side. The command line uses it so that
    /// `hammer solve BOARD` needs no `--param n=`.
    pub fn point_of_board(text: &str) -> Result<Point, FamilyError> {
        let state = State::parse(text).map_err(|e| bad_state(text, e))?;
        Ok(Point::new(
            "martello",
            vec![("n", ParamValue::Int(i64::from(state.n())))],
        ))
    }
}

struct MartelloSolver(Solver<Martello>);

impl Owners for MartelloFamily {
    fn solve(
        &self,
        point: &Point,
        instance: Instance<'_>,
        team: Team<'_>,
    ) -> Result<OwnedSolved, OwnersError> {
        let game = game(point);
        let board = game.start(instance)?;
        solve_by_owners(&game.notation, &Martello, &board, team, Vec::new())
    }
}

impl GameSolver for MartelloSolver {
    fn solve(&mut self, job: Job<'_>) -> Result<Solved, FamilyError> {
        let game = game(job.point);
        let board = game.start(job.instance)?;
        let n = board.n();
        // A learned order's knowledge base must have been learned with Martello's
        // features, on this board size.
        job.config
            .order
            .check_learned(FEATURE_VERSION, Some(n))
            .map_err(|e| {
                // The knowledge base's problem is the error's source.
                let cause = std::error::Error::source(&e).map(|s| format!(": {s}"));
                bad("order", format!("{e}{}", cause.unwrap_or_default()))
            })?;
        let outcome = self.0.solve(&board, job.config, job.run_seed);
        Ok(Solved::of(&game.notation, &board, &outcome, Vec::new()))
    }
}
