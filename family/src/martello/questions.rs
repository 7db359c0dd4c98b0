//! The questions of `docs/martello.md` as JSON: `moves` (a state's legal moves and the
//! state after each) and `solve` (the exact minimum stone count of a board, with a
//! solution that replays).

use serde_json::{Map, Value, json};

use crate::martello::MartelloFamily;
use crate::{Family, FamilyError, Instance, Job};

fn field<'a>(question: &'a Value, key: &str) -> Result<&'a str, FamilyError> {
    question[key]
        .as_str()
        .ok_or_else(|| FamilyError::BadQuestion(format!("'{key}' must be a string")))
}

/// Answers one question.
pub(crate) fn answer(question: &Value) -> Result<Value, FamilyError> {
    match question["kind"].as_str() {
        Some("moves") => {
            let state = field(question, "state")?;
            let point = MartelloFamily::point_of_board(state)?;
            let moves = MartelloFamily.moves(&point, state)?;
            let map: Map<String, Value> = moves
                .into_iter()
                .map(|(mv, next)| (mv, Value::String(next)))
                .collect();
            Ok(Value::Object(map))
        }
        Some("solve") => {
            let board = field(question, "board")?;
            let point = MartelloFamily::point_of_board(board)?;
            let mut solver = MartelloFamily.solver();
            let solved = solver.solve(Job {
                point: &point,
                instance: Instance::Given(board),
                config: &hammer_solver::Config::default(),
                run_seed: 0,
                program: None,
            })?;
            Ok(json!({
                "min_stones": solved.game.score,
                "solution": solved.game.solution,
            }))
        }
        Some(other) => Err(FamilyError::BadQuestion(format!(
            "unknown kind '{other}': expected moves or solve"
        ))),
        None => Err(FamilyError::BadQuestion("'kind' must be a string".into())),
    }
}
