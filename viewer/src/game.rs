//! One game: its full row, read from its part file, and its replay step by step.
//!
//! A game's link is its dataset key (sweep, experiment, config, params, game index), so
//! it stays valid whatever the page's filters and however the dataset was sorted.

use hammer_dataset::{Cell, ResultRow, family_columns};
use hammer_family::{FamilyRef, ParamValue, Point, point_from_pairs};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::error::ViewError;
use crate::index::Index;

/// A row's identity, as the page's links carry it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameKey {
    pub sweep: String,
    pub experiment: String,
    pub config: String,
    pub params: String,
    pub index: i64,
}

impl std::fmt::Display for GameKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}/{}/{}/{}#{}",
            self.sweep, self.experiment, self.config, self.params, self.index
        )
    }
}

/// The key of index row `i`.
pub fn key_of(index: &Index, i: usize) -> GameKey {
    let g = &index.groups[index.group[i] as usize];
    GameKey {
        sweep: g.sweep.clone(),
        experiment: g.experiment.clone(),
        config: g.config.clone(),
        params: g.params.clone(),
        index: index.game_index[i],
    }
}

/// Index row of `key`.
pub fn find(index: &Index, key: &GameKey) -> Result<usize, ViewError> {
    let groups: Vec<bool> = index
        .groups
        .iter()
        .map(|g| {
            g.sweep == key.sweep
                && g.experiment == key.experiment
                && g.config == key.config
                && g.params == key.params
        })
        .collect();
    (0..index.len())
        .find(|&i| groups[index.group[i] as usize] && index.game_index[i] == key.index)
        .ok_or_else(|| ViewError::NoGame {
            key: key.to_string(),
        })
}

/// The point of a family written in canonical `key=value;...` form (the `params` column).
pub fn point_of_params(family: FamilyRef, params: &str) -> Result<Point, ViewError> {
    let input = |message: String| ViewError::Input {
        context: format!("params '{params}'"),
        message,
    };
    let mut pairs = Vec::new();
    for pair in params.split(';').filter(|p| !p.trim().is_empty()) {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| input(format!("'{pair}' is not KEY=VALUE")))?;
        let spec = family
            .params()
            .iter()
            .find(|s| s.key == key.trim())
            .ok_or_else(|| input(format!("{} has no parameter '{key}'", family.name())))?;
        let value =
            ParamValue::parse(value.trim(), spec).map_err(|e| input(format!("{key}: {e}")))?;
        pairs.push((key.trim().to_owned(), value));
    }
    Ok(point_from_pairs(&*family, &pairs)?)
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_owned).collect()
}

/// Every column of a row, by name, as JSON.
fn row_json(row: &ResultRow) -> Value {
    let json = |cell: &Cell| match cell {
        Cell::Int(v) => json!(v),
        Cell::Text(v) => json!(v),
        Cell::Bool(v) => json!(v),
        Cell::Null => Value::Null,
    };
    let mut map = Map::new();
    for (name, cell) in row.row_ref().cells() {
        map.insert(name.to_owned(), json(&cell));
    }
    let columns = family_columns().iter().filter(|c| c.family == row.puzzle);
    for (column, cell) in columns.zip(&row.extra) {
        map.insert(column.spec.name.to_owned(), json(cell));
    }
    Value::Object(map)
}

/// One state of a replay.
#[derive(Debug, Clone, Serialize)]
pub struct Step {
    /// The move that led here (none for the first state).
    #[serde(rename = "move")]
    pub mv: Option<String>,
    pub state: String,
    pub score: u32,
    /// `start` (the game's board), `prefix` (a random move before the search) or
    /// `solution`.
    pub phase: &'static str,
    /// The family's text picture, for families the page has no board drawing for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drawing: Option<String>,
}

/// The states of a row: the board, each prefix move, each solution move.
pub fn replay(row: &ResultRow) -> Result<Vec<Step>, ViewError> {
    let family = FamilyRef::named(&row.puzzle)?;
    let point = point_of_params(family, &row.params)?;
    let prefix = words(&row.prefix_moves);
    let solution = words(&row.solution);
    let moves: Vec<&str> = prefix.iter().chain(&solution).map(String::as_str).collect();
    let after = family.replay(&point, &row.board, &moves)?;
    let draw = |state: &str| -> Result<Option<String>, ViewError> {
        Ok(if family.page_draws_board() {
            None
        } else {
            Some(family.draw(&point, state, false)?)
        })
    };
    let mut steps = vec![Step {
        mv: None,
        state: row.board.clone(),
        score: family.score(&point, &row.board)?,
        phase: "start",
        drawing: draw(&row.board)?,
    }];
    for (i, (mv, state)) in moves.iter().zip(after).enumerate() {
        steps.push(Step {
            mv: Some((*mv).to_owned()),
            score: family.score(&point, &state)?,
            drawing: draw(&state)?,
            state,
            phase: if i < prefix.len() {
                "prefix"
            } else {
                "solution"
            },
        });
    }
    Ok(steps)
}

/// The page's view of one game: the row, and its replay (or why it does not replay).
pub fn game_json(row: &ResultRow) -> Value {
    let (steps, problem) = match replay(row) {
        Ok(steps) => (steps, None),
        Err(e) => (Vec::new(), Some(hammer_proto::error_chain(&e))),
    };
    json!({
        "key": GameKey {
            sweep: row.sweep.clone(),
            experiment: row.experiment.clone(),
            config: row.config.clone(),
            params: row.params.clone(),
            index: row.game_index,
        },
        "row": row_json(row),
        "steps": steps,
        "replay_error": problem,
    })
}

/// Reads index row `i`'s full row from its part file, checking that it is the same game.
pub fn read_row(index: &Index, i: usize) -> Result<ResultRow, ViewError> {
    let path = &index.parts[index.part[i] as usize];
    let rows = hammer_dataset::read_part(path)?;
    let key = key_of(index, i);
    rows.into_iter()
        .nth(index.row[i] as usize)
        .filter(|r| r.game_index == key.index && r.config == key.config && r.sweep == key.sweep)
        .ok_or_else(|| ViewError::Input {
            context: path.display().to_string(),
            message: "the file changed since the viewer read it: reload the dataset".into(),
        })
}
