//! The questions of `docs/clobber.md` as JSON: each question is parsed into a typed
//! [`Question`], refusing the spec's bad inputs with a message that names the field or
//! token, and its typed answer is written back as JSON.

use hammer_engine::clobber::{
    self, Clobber, ClobberError, Colour, Colours, Gen, Move, Rule, State, parse_move,
    parse_position, position_text,
};
use serde_json::{Map, Value, json};

/// Why a question was refused. Messages name the field, and never repeat a source.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QuestionError {
    #[error("a question must be a JSON object, got {0}")]
    NotAnObject(String),
    #[error("kind must be 'moves', 'solve', 'analyse', 'replay' or 'generate', got {0}")]
    Kind(String),
    #[error("position must be a string, got {0}")]
    PositionType(String),
    #[error("bad position '{0}'")]
    Position(String, #[source] ClobberError),
    #[error("rule must be 'partisan' or 'impartial', got {0}")]
    Rule(String),
    #[error("the impartial rule has no turn, got {0}")]
    ImpartialTurn(String),
    #[error("turn must be 'x', 'o' or 'any', got {0}")]
    Turn(String),
    #[error("moves must be a list of moves, got {0}")]
    MovesType(String),
    #[error("move {number} must be a string, got {got}")]
    MoveType { number: usize, got: String },
    #[error("move {number}")]
    Move {
        number: usize,
        #[source]
        source: ClobberError,
    },
    #[error("gen must be an object, got {0}")]
    GenType(String),
    #[error("gen has no key '{0}'")]
    GenMissing(&'static str),
    #[error("unknown gen keys {0:?}: the keys are m, n, fill, colours and seed")]
    GenUnknown(Vec<String>),
    #[error("gen {key} must be a non-negative integer, got {got}")]
    GenInteger { key: &'static str, got: String },
    #[error("colours must be 'checker' or 'random', got {0}")]
    Colours(String),
    #[error("bad gen")]
    Gen(#[source] ClobberError),
    #[error("replay")]
    Replay(#[source] ClobberError),
}

/// A rule, a board and a start: what every question but `generate` is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Asked {
    pub game: Clobber,
    pub start: State,
}

/// A checked question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    Moves(Asked),
    Solve(Asked),
    Analyse(Asked),
    Replay { setup: Asked, moves: Vec<Move> },
    Generate(Gen),
}

/// The gen object's keys.
const GEN_KEYS: [&str; 5] = ["m", "n", "fill", "colours", "seed"];

/// A value as a message shows it: its JSON, or `nothing` when it is missing.
fn shown(value: Option<&Value>) -> String {
    value.map_or_else(|| "nothing".to_string(), Value::to_string)
}

impl Question {
    /// Parses and checks one question.
    pub fn parse(question: &Value) -> Result<Question, QuestionError> {
        let q = question
            .as_object()
            .ok_or_else(|| QuestionError::NotAnObject(question.to_string()))?;
        let kind = q.get("kind");
        match kind.and_then(Value::as_str) {
            Some("moves") => Ok(Question::Moves(setup(q)?)),
            Some("solve") => Ok(Question::Solve(setup(q)?)),
            Some("analyse") => Ok(Question::Analyse(setup(q)?)),
            Some("replay") => {
                let setup = setup(q)?;
                let moves = moves(q, &setup.game)?;
                Ok(Question::Replay { setup, moves })
            }
            Some("generate") => Ok(Question::Generate(gen_object(q.get("gen"))?)),
            _ => Err(QuestionError::Kind(shown(kind))),
        }
    }

    /// The answer, as the spec writes it; a replayed move that is not legal where it
    /// is played is refused here.
    pub fn answer(&self) -> Result<Value, QuestionError> {
        Ok(match self {
            Question::Moves(Asked { game, start }) => {
                let answer: Map<String, Value> = clobber::moves(game, start)
                    .into_iter()
                    .map(|(mv, pos)| (mv.to_string(), position_text(game.board(), &pos).into()))
                    .collect();
                Value::Object(answer)
            }
            Question::Solve(Asked { game, start }) => {
                let solution = clobber::solve(game, start);
                json!({
                    "min_stones": solution.min_stones,
                    "witness": notation(&solution.witness),
                })
            }
            Question::Analyse(Asked { game, start }) => {
                let a = clobber::analyse(game, start);
                json!({
                    "states": a.states,
                    "min_stones": a.min_stones,
                    "max_stones": a.max_stones,
                    "ends": a.ends,
                    "optimal_plays": big(a.optimal_plays),
                    "lone": a.lone.iter().map(ToString::to_string).collect::<Vec<_>>(),
                })
            }
            Question::Replay { setup, moves } => {
                let Asked { game, start } = setup;
                let end = clobber::replay(game, start, moves).map_err(QuestionError::Replay)?;
                let mut answer = json!({
                    "pos": position_text(game.board(), &end.state.pos),
                    "over": end.over,
                });
                if game.rule() == Rule::Partisan {
                    answer["turn"] = turn_name(end.state.turn).into();
                }
                answer
            }
            Question::Generate(instance) => json!({
                "pos": position_text(&instance.board(), &instance.position()),
            }),
        })
    }
}

/// The rule, position and turn of a question.
fn setup(q: &Map<String, Value>) -> Result<Asked, QuestionError> {
    let text = q
        .get("pos")
        .and_then(Value::as_str)
        .ok_or_else(|| QuestionError::PositionType(shown(q.get("pos"))))?;
    let (board, pos) =
        parse_position(text).map_err(|e| QuestionError::Position(text.to_string(), e))?;
    let rule = q
        .get("rule")
        .and_then(Value::as_str)
        .and_then(Rule::from_name)
        .ok_or_else(|| QuestionError::Rule(shown(q.get("rule"))))?;
    // A missing turn is `any`; the impartial rule takes none at all.
    let turn = match (rule, q.get("turn")) {
        (_, None) => None,
        (Rule::Impartial, Some(turn)) => {
            return Err(QuestionError::ImpartialTurn(turn.to_string()));
        }
        (Rule::Partisan, Some(turn)) => match turn.as_str() {
            Some("any") => None,
            letter => Some(
                letter
                    .and_then(Colour::from_letter)
                    .ok_or_else(|| QuestionError::Turn(turn.to_string()))?,
            ),
        },
    };
    let game = Clobber::new(board, rule);
    Ok(Asked {
        game,
        start: game.state(pos, turn),
    })
}

/// The moves of a replay: a list of `F-T` strings, each on the board.
fn moves(q: &Map<String, Value>, game: &Clobber) -> Result<Vec<Move>, QuestionError> {
    let list = q
        .get("moves")
        .and_then(Value::as_array)
        .ok_or_else(|| QuestionError::MovesType(shown(q.get("moves"))))?;
    list.iter()
        .enumerate()
        .map(|(i, v)| {
            let number = i + 1;
            let text = v.as_str().ok_or_else(|| QuestionError::MoveType {
                number,
                got: v.to_string(),
            })?;
            parse_move(game.board(), text).map_err(|source| QuestionError::Move { number, source })
        })
        .collect()
}

/// The `gen` object: exactly the five keys, with integer values in range.
fn gen_object(value: Option<&Value>) -> Result<Gen, QuestionError> {
    let g = value
        .and_then(Value::as_object)
        .ok_or_else(|| QuestionError::GenType(shown(value)))?;
    let unknown: Vec<String> = g
        .keys()
        .filter(|k| !GEN_KEYS.contains(&k.as_str()))
        .cloned()
        .collect();
    if !unknown.is_empty() {
        return Err(QuestionError::GenUnknown(unknown));
    }
    let integer = |key: &'static str| {
        let v = g.get(key).ok_or(QuestionError::GenMissing(key))?;
        v.as_u64().ok_or_else(|| QuestionError::GenInteger {
            key,
            got: v.to_string(),
        })
    };
    let (m, n, fill, seed) = (
        integer("m")?,
        integer("n")?,
        integer("fill")?,
        integer("seed")?,
    );
    let colours = g
        .get("colours")
        .ok_or(QuestionError::GenMissing("colours"))?;
    let colours = colours
        .as_str()
        .and_then(Colours::from_name)
        .ok_or_else(|| QuestionError::Colours(colours.to_string()))?;
    Gen::new(m, n, fill, colours, seed).map_err(QuestionError::Gen)
}

/// Answers one question, as [`crate::Family::answer`] does; a refusal names the field or
/// token with its causes.
pub(crate) fn answer(question: &Value) -> Result<Value, crate::FamilyError> {
    Question::parse(question)
        .and_then(|q| q.answer())
        .map_err(|e| crate::FamilyError::BadQuestion(chain(&e)))
}

/// An error and its sources in one line: a question's refusal is one message.
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text = format!("{text}: {s}");
        source = s.source();
    }
    text
}

fn notation(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

/// The partisan turn's name: `x`, `o`, or `any` at a start where the player chooses.
fn turn_name(turn: Option<Colour>) -> String {
    turn.map_or_else(|| "any".to_string(), |c| c.letter().to_string())
}

/// A count as a JSON number while it fits 64 bits, else as a decimal string.
fn big(count: u128) -> Value {
    match u64::try_from(count) {
        Ok(c) => json!(c),
        Err(_) => Value::String(count.to_string()),
    }
}
