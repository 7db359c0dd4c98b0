//! Martello solo as a family: the board side `n` is its one parameter, a seeded random
//! permutation of the stones its instance, stones left its score.

use hammer_engine::martello::signature::{FEATURE_VERSION, MAX_RADIUS};
use hammer_engine::seeded::{self, MAX_INDEX};
use hammer_engine::{MAX_N, Martello, Move, ParseError, State};
use hammer_solver::learned::Learner;
use hammer_solver::{Config, Solver};

use crate::{
    ColumnSpec, Family, FamilyError, GameSolver, Instance, Learning, ParamKind, ParamSpec,
    ParamValue, Point, Solved,
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

fn side(point: &Point) -> u8 {
    point.int("n").unwrap_or(6) as u8
}

fn bad_state(text: &str, e: ParseError) -> FamilyError {
    FamilyError::BadState {
        text: text.to_string(),
        reason: e.to_string(),
    }
}

/// Parses a state of the point's board. A state carries its own size; it must be the
/// point's, so that a row never mixes boards.
fn parse(point: &Point, text: &str) -> Result<State, FamilyError> {
    let state = State::parse(text).map_err(|e| bad_state(text, e))?;
    if state.n() != side(point) {
        return Err(FamilyError::BadState {
            text: text.to_string(),
            reason: format!(
                "a state of a {0}x{0} board, but the puzzle is set to n = {1}",
                state.n(),
                side(point)
            ),
        });
    }
    Ok(state)
}

/// Moves in the dataset's notation, space-separated (`A1xB1 C2xC3`).
pub fn moves_text(moves: &[Move], n: u8) -> String {
    let mut out = String::with_capacity(moves.len() * 6);
    for (i, mv) in moves.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&mv.notation(n));
    }
    out
}

impl Family for MartelloFamily {
    fn name(&self) -> &'static str {
        "martello"
    }

    fn summary(&self) -> &'static str {
        "Martello solo: n x n unique stones; a stone eats a neighbour sharing its colour or symbol; leave one"
    }

    fn params(&self) -> &'static [ParamSpec] {
        PARAMS
    }

    fn point(&self, values: Vec<ParamValue>) -> Result<Point, FamilyError> {
        Ok(Point::new(
            "martello",
            PARAMS.iter().map(|s| s.key).zip(values).collect(),
        ))
    }

    fn size(&self, point: &Point) -> u32 {
        u32::from(side(point))
    }

    fn size_param(&self) -> Option<&'static str> {
        Some("n")
    }

    fn instance_count(&self, _point: &Point) -> Option<u64> {
        None
    }

    fn goal(&self, _point: &Point) -> u32 {
        1
    }

    fn splittable(&self) -> bool {
        true
    }

    fn columns(&self) -> &'static [ColumnSpec] {
        COLUMNS
    }

    fn estimated_seconds(&self, point: &Point, config: &Config) -> f64 {
        crate::martello_cost::estimated_game_seconds(side(point), config)
    }

    fn solver(&self) -> Box<dyn GameSolver> {
        Box::new(MartelloSolver(Solver::new(Martello)))
    }

    fn point_of_state(&self, state: &str) -> Result<Option<Point>, FamilyError> {
        MartelloFamily::point_of_board(state).map(Some)
    }

    fn instance(&self, point: &Point, instance: Instance<'_>) -> Result<String, FamilyError> {
        Ok(start(point, instance)?.to_string())
    }

    fn moves(&self, point: &Point, state: &str) -> Result<Vec<(String, String)>, FamilyError> {
        let state = parse(point, state)?;
        let mut moves = Vec::new();
        hammer_engine::Puzzle::moves(&Martello, &state, &mut moves);
        Ok(moves
            .iter()
            .map(|mv| (mv.notation(state.n()), state.apply(*mv).to_string()))
            .collect())
    }

    fn replay(
        &self,
        point: &Point,
        state: &str,
        moves: &[&str],
    ) -> Result<Vec<String>, FamilyError> {
        let mut state = parse(point, state)?;
        let mut out = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let mv = state.parse_move(text).map_err(|e| FamilyError::BadMove {
                text: text.to_string(),
                index: Some(i),
                reason: format!("{e} in {state}"),
            })?;
            state = state.apply(mv);
            out.push(state.to_string());
        }
        Ok(out)
    }

    fn score(&self, point: &Point, state: &str) -> Result<u32, FamilyError> {
        Ok(parse(point, state)?.stone_count())
    }

    fn draw(&self, point: &Point, state: &str, colour: bool) -> Result<String, FamilyError> {
        Ok(crate::martello_view::draw(&parse(point, state)?, colour))
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

    fn learning(&self) -> Option<&dyn Learning> {
        Some(self)
    }

    fn answer(&self, question: &serde_json::Value) -> Result<serde_json::Value, FamilyError> {
        crate::martello_questions::answer(question)
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

/// The start position of an instance: a seeded game, or a given board of any size (the
/// command line infers `n` from the board; see [`MartelloFamily::point_of_board`]).
fn start(point: &Point, instance: Instance<'_>) -> Result<State, FamilyError> {
    match instance {
        Instance::Seeded { sweep_seed, index } => seeded::game(sweep_seed, side(point), index)
            .map_err(|e| match e {
                seeded::SeededError::Index(index) => FamilyError::NoSuchInstance {
                    index,
                    count: MAX_INDEX + 1,
                },
                other => FamilyError::BadParam {
                    key: "n".to_string(),
                    reason: other.to_string(),
                },
            }),
        // Any state: a start position, or a later one (the viewer's hints, a position
        // pasted mid-game); the search is the same from either.
        Instance::Given(text) => {
            let state = State::parse(text).map_err(|e| bad_state(text, e))?;
            parse(point, &state.to_string())
        }
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

impl GameSolver for MartelloSolver {
    fn solve(
        &mut self,
        point: &Point,
        instance: Instance<'_>,
        config: &Config,
        run_seed: u64,
    ) -> Result<Solved, FamilyError> {
        let board = start(point, instance)?;
        let n = board.n();
        // A learned order's knowledge base must have been learned with Martello's
        // features, on this board size.
        config
            .order
            .check_learned(FEATURE_VERSION, Some(n))
            .map_err(|e| FamilyError::BadParam {
                key: "order".to_string(),
                reason: e.to_string(),
            })?;
        let outcome = match &config.split {
            None => self.0.solve(&board, config, run_seed),
            Some(part) => {
                // Every better score goes out with its moves as soon as it is reached.
                let shared = part.shared.clone();
                self.0.on_find(Some(Box::new(move |score, moves| {
                    shared.publish(score, &moves_text(moves, n))
                })));
                let outcome = self.0.solve(&board, config, run_seed);
                self.0.on_find(None);
                outcome
            }
        };
        // A part reports the better of its own score and one another part reached, with
        // that part's solution: the score it pruned against must have a witness.
        let (score, solution) = match config.split.as_ref().and_then(|p| p.shared.told()) {
            Some((told, solution)) if told < outcome.min_score => (told, solution),
            _ => (outcome.min_score, moves_text(&outcome.solution, n)),
        };
        Ok(Solved {
            board: board.to_string(),
            prefix_moves: moves_text(&outcome.prefix_moves, n),
            start: outcome.start.to_string(),
            score,
            lower_bound: outcome.lower_bound,
            exhaustive: outcome.exhaustive,
            capped_by: outcome.capped_by,
            expansions: outcome.counters.expansions,
            attempts: outcome.counters.attempts,
            heuristic_steps: outcome.counters.heuristic_steps,
            memo_states: outcome.memo_states,
            memo_bytes: outcome.memo_bytes,
            split_nodes: outcome.split.map(|s| s.nodes),
            solution,
            extra: Vec::new(),
        })
    }
}
