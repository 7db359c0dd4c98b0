//! The questions of `shared/spec/machinarium.md` as JSON: `count`, `solve`, `moves`
//! and `check`, with the spec's rejections.

use hammer_engine::tours::{Board, count_tours};
use serde_json::{Value, json};

use super::notation::bad_state;
use super::solve_board;
use crate::FamilyError;

fn board(question: &Value) -> Result<Board, FamilyError> {
    let text = question["board"]
        .as_str()
        .filter(|t| !t.is_empty())
        .ok_or_else(|| FamilyError::BadQuestion("board must be a non-empty string".into()))?;
    Board::parse(text).map_err(|e| bad_state(text, e))
}

/// The question's `path` as grid cells: a list of integers on the board.
fn path(question: &Value, board: &Board) -> Result<Vec<u8>, FamilyError> {
    let list = question["path"]
        .as_array()
        .ok_or_else(|| FamilyError::BadQuestion("path must be a list of cell numbers".into()))?;
    list.iter()
        .map(|v| {
            v.as_u64()
                .and_then(|k| u32::try_from(k).ok())
                .and_then(|k| board.index(k))
                .ok_or_else(|| {
                    let shown = match v {
                        Value::String(s) => format!("'{s}'"),
                        other => other.to_string(),
                    };
                    FamilyError::BadQuestion(format!(
                        "cell {shown} out of range 1..{}",
                        board.cells()
                    ))
                })
        })
        .collect()
}

fn numbers(board: &Board, cells: &[u8]) -> Vec<u32> {
    cells.iter().map(|&c| board.number(c)).collect()
}

/// Answers one question.
pub(crate) fn answer(question: &Value) -> Result<Value, FamilyError> {
    match question["kind"].as_str() {
        Some("count") => {
            let board = board(question)?;
            let counted = count_tours(&board.start());
            let tours = match u64::try_from(counted.tours) {
                Ok(t) => json!(t),
                Err(_) => Value::String(counted.tours.to_string()),
            };
            Ok(json!({
                "tours": tours,
                "starts": numbers(&board, &counted.starts),
                "first": counted.first.map(|f| numbers(&board, &f)),
            }))
        }
        Some("solve") => {
            let board = board(question)?;
            let solved = solve_board(&board);
            Ok(json!({ "solvable": solved.solvable(), "first": solved.tour }))
        }
        Some("moves") => {
            let board = board(question)?;
            let path = path(question, &board)?;
            let next = board
                .next_cells(&path)
                .map_err(|e| FamilyError::BadQuestion(e.to_string()))?;
            Ok(json!({ "next": numbers(&board, &next) }))
        }
        Some("check") => {
            let board = board(question)?;
            let path = path(question, &board)?;
            Ok(json!({ "valid": board.is_tour(&path) }))
        }
        Some(other) => Err(FamilyError::BadQuestion(format!(
            "unknown kind '{other}': expected count, solve, moves or check"
        ))),
        None => Err(FamilyError::BadQuestion("'kind' must be a string".into())),
    }
}
