//! The questions of `shared/spec/peg.md` as JSON: `moves`, `analyse`, `solve` and
//! `replay`. The board of a question is the one its position's row lengths tell.

use serde_json::{Map, Value, json};

use hammer_engine::peg::board::{bits, transform};
use hammer_engine::peg::notation::{self, board_name};
use hammer_engine::peg::{Bits, Board, Peg, reachable};
use hammer_solver::{Reduction, count};

use crate::FamilyError;
use hammer_engine::Notation;

use crate::peg::{bad_state, board_of};

/// The position in `question[key]`, on the board its row lengths tell.
fn position(question: &Value, key: &str) -> Result<(Board, Bits), FamilyError> {
    let text = question[key].as_str().ok_or_else(|| {
        let what = if key == "pos" { "position" } else { key };
        FamilyError::BadQuestion(format!("{what} must be a string"))
    })?;
    let (kind, pos) = notation::parse_any(text).map_err(|e| bad_state(text, e))?;
    Ok((board_of(kind), pos))
}

/// Answers one question.
pub(crate) fn answer(question: &Value) -> Result<Value, FamilyError> {
    match question["kind"].as_str() {
        Some("moves") => {
            let (board, pos) = position(question, "pos")?;
            let mut legal = Vec::new();
            board.legal(&pos, &mut legal);
            let map: Map<String, Value> = legal
                .into_iter()
                .map(|mv| {
                    (
                        board.write_move(&pos, mv),
                        board.write(&board.play(&pos, mv)),
                    )
                })
                .map(|(mv, next)| (mv, Value::String(next)))
                .collect();
            Ok(Value::Object(map))
        }
        Some("analyse") => {
            let (board, pos) = position(question, "pos")?;
            Ok(analyse(board, pos))
        }
        Some("solve") => {
            let (board, pos) = position(question, "pos")?;
            let (target_board, target) = position(question, "target")?;
            if target_board.kind() != board.kind() {
                return Err(FamilyError::BadQuestion(format!(
                    "target is on a different board: the {} board, not the {} board",
                    board_name(target_board.kind()),
                    board_name(board.kind())
                )));
            }
            let (solvable, _) = reachable(&board, pos, target);
            Ok(json!({ "solvable": solvable }))
        }
        Some("replay") => {
            let (board, mut pos) = position(question, "pos")?;
            let moves = question["moves"]
                .as_array()
                .ok_or_else(|| FamilyError::BadQuestion("moves must be a list".into()))?;
            for (i, mv) in moves.iter().enumerate() {
                let text = mv.as_str().ok_or_else(|| {
                    FamilyError::BadQuestion(format!("move {} must be a string", i + 1))
                })?;
                let mv = board
                    .read_move(&pos, text)
                    .map_err(|e| FamilyError::BadMove {
                        text: text.to_string(),
                        index: Some(i),
                        reason: e.to_string(),
                    })?;
                pos = board.play(&pos, mv);
            }
            Ok(json!({ "pos": notation::position_text(&board, pos) }))
        }
        Some(other) => Err(FamilyError::BadQuestion(format!(
            "unknown kind '{other}': expected moves, analyse, solve or replay"
        ))),
        None => Err(FamilyError::BadQuestion("'kind' must be a string".into())),
    }
}

/// Everything reachable from `pos`, counted modulo the symmetries that fix `pos` (they
/// map the reachable set onto itself, so the plain count is the sum of the classes'
/// sizes; paths count exactly through classes).
fn analyse(board: Board, pos: Bits) -> Value {
    let board = board.fixing(pos);
    let syms: Vec<u8> = board.symmetries().to_vec();
    let counts = count(&Peg::new(board), &pos, Reduction::Symmetry);
    let mut finishes: Vec<u8> = Vec::new();
    let mut solutions = 0u128;
    if counts.min_score == 1 {
        for (rep, _) in &counts.lowest {
            for &g in &syms {
                finishes.extend(bits(transform(g, *rep)));
            }
        }
        finishes.sort_unstable();
        finishes.dedup();
        solutions = counts.level(1).map_or(0, |l| l.paths);
    }
    let finishes: Vec<String> = finishes.iter().map(|&h| notation::cell_name(h)).collect();
    json!({
        "reachable": counts.states(),
        "min_pegs": counts.min_score,
        "finishes": finishes,
        "solutions": big(solutions),
    })
}

/// A count as a JSON number while it fits 64 bits, else as a decimal string.
fn big(n: u128) -> Value {
    match u64::try_from(n) {
        Ok(n) => json!(n),
        Err(_) => Value::String(n.to_string()),
    }
}
