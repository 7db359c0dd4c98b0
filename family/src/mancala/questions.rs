//! The questions of `docs/mancala.md` as JSON: `move`, `moves`, `best`, `count` and
//! `replay`, with the spec's rejections.

use hammer_engine::Puzzle;
use hammer_engine::mancala::{Arith, MAX_H, MAX_S, Mancala, Pick, Picks, Rules, State};
use hammer_solver::{Config, Solver};
use serde_json::{Map, Value, json};

use super::{complete_turn, count};
use crate::FamilyError;
use crate::error::bad;

const RULE_KEYS: [&str; 6] = ["h", "s", "picks", "free", "relay", "arith"];

/// The question's `rules` object (every key optional, any other key refused).
fn rules(question: &Value) -> Result<Rules, FamilyError> {
    let empty = Map::new();
    let map = match question.get("rules") {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(map)) => map,
        Some(_) => return Err(FamilyError::BadQuestion("rules must be an object".into())),
    };
    if let Some(key) = map.keys().find(|k| !RULE_KEYS.contains(&k.as_str())) {
        return Err(bad(
            key,
            "unknown rule (expected h, s, picks, free, relay or arith)",
        ));
    }
    let int = |key: &str, default: i64, max: u8, min: i64| match map.get(key) {
        None => Ok(default),
        Some(v) => v
            .as_i64()
            .filter(|x| (min..=i64::from(max)).contains(x))
            .ok_or_else(|| bad(key, format!("must be an integer in {min}..{max}"))),
    };
    let flag = |key: &str| match map.get(key) {
        None => Ok(true),
        Some(v) => v.as_bool().ok_or_else(|| bad(key, "must be true or false")),
    };
    let h = int("h", 6, MAX_H, 1)?;
    let s = int("s", 4, MAX_S, 0)?;
    let picks = match map.get("picks") {
        None => Picks::All,
        Some(v) => v
            .as_str()
            .and_then(Picks::from_name)
            .ok_or_else(|| bad("picks", "must be 'all' or 'own'"))?,
    };
    let arith = match map.get("arith") {
        None => Arith::Matlab,
        Some(v) => v
            .as_str()
            .and_then(Arith::from_name)
            .ok_or_else(|| bad("arith", "must be 'matlab' or 'ring'"))?,
    };
    Rules::new(h, s, picks, flag("free")?, flag("relay")?, arith)
        .map_err(|e| bad("rules", e.to_string()))
}

fn bad_state(question: &Value, reason: String) -> FamilyError {
    FamilyError::BadState {
        text: question
            .get("holes")
            .map_or_else(String::new, Value::to_string),
        reason,
    }
}

/// The question's position: `holes` and `home`, the start where omitted.
fn position(question: &Value, rules: Rules) -> Result<State, FamilyError> {
    let n = rules.holes();
    let holes: Vec<u64> = match question.get("holes") {
        None => vec![u64::from(rules.s()); n],
        Some(Value::Array(items)) => items
            .iter()
            .map(Value::as_u64)
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| {
                bad_state(question, "hole counts must be non-negative integers".into())
            })?,
        Some(_) => {
            return Err(bad_state(
                question,
                format!("holes must be a list of {n} integers"),
            ));
        }
    };
    let home = match question.get("home") {
        None => 0,
        Some(v) => v
            .as_u64()
            .ok_or_else(|| bad_state(question, "home must be a non-negative integer".into()))?,
    };
    State::new(rules, &holes, home).map_err(|e| bad_state(question, e.to_string()))
}

fn pick_error(p: &Value, index: Option<usize>, reason: String) -> FamilyError {
    FamilyError::BadMove {
        text: p.to_string(),
        index,
        reason,
    }
}

/// A pick given as JSON, checked against `state`.
fn pick(state: &State, p: &Value, index: Option<usize>) -> Result<usize, FamilyError> {
    let number = p
        .as_i64()
        .ok_or_else(|| pick_error(p, index, "pick must be an integer".into()))?;
    state
        .check_pick(number)
        .map_err(|e| pick_error(p, index, e.to_string()))
}

fn move_json(next: &State, pick: &Pick) -> Value {
    json!({
        "gain": pick.gain,
        "free": pick.free,
        "relays": pick.relays,
        "holes": next.holes(),
        "home": next.home(),
    })
}

/// The largest store count at the end of any turn from `start`, proved by the exact
/// search, and the lexicographically smallest complete turn reaching it.
///
/// The exact search in the standard order (picks ascending) visits pick sequences in
/// lexicographic order, prefixes first, and prunes only what cannot beat its best score
/// so far; so the first sequence it finds at the optimum is the smallest sequence
/// reaching it, and the smallest picks after it complete the smallest turn.
pub fn best(start: &State) -> (u32, Vec<u8>) {
    let mut solver = Solver::new(Mancala);
    let outcome = solver.solve(start, &Config::default(), 0);
    let mut witness = outcome.solution;
    complete_turn(start, &mut witness);
    (start.total() - outcome.min_score, witness)
}

/// Answers one question.
pub(crate) fn answer(question: &Value) -> Result<Value, FamilyError> {
    let kind = match question.get("kind") {
        Some(Value::String(kind)) => kind.as_str(),
        _ => return Err(FamilyError::BadQuestion("'kind' must be a string".into())),
    };
    if !["move", "moves", "best", "count", "replay"].contains(&kind) {
        return Err(FamilyError::BadQuestion(format!(
            "unknown kind '{kind}': expected move, moves, best, count or replay"
        )));
    }
    let rules = rules(question)?;
    let state = position(question, rules)?;
    match kind {
        "move" => {
            let p = question
                .get("pick")
                .ok_or_else(|| FamilyError::BadQuestion("'pick' is missing".into()))?;
            let (next, traced) = state.pick_traced(pick(&state, p, None)?);
            Ok(move_json(&next, &traced))
        }
        "moves" => {
            let mut buf = Vec::new();
            Mancala.moves(&state, &mut buf);
            let map: Map<String, Value> = buf
                .iter()
                .map(|&p| {
                    let (next, traced) = state.pick_traced(usize::from(p));
                    (p.to_string(), move_json(&next, &traced))
                })
                .collect();
            Ok(Value::Object(map))
        }
        "best" => {
            let (max_home, witness) = best(&state);
            Ok(json!({ "max_home": max_home, "witness": witness }))
        }
        "count" => {
            let c = count(&state);
            Ok(json!({
                "states": c.states,
                "max_home_open": c.max_home_open,
                "max_home": c.max_home,
            }))
        }
        _ => replay(question, state),
    }
}

/// `replay`: plays the picks as one turn; a pick after one that ended the turn, or an
/// illegal one, is refused with its index.
fn replay(question: &Value, mut state: State) -> Result<Value, FamilyError> {
    let picks = match question.get("picks") {
        Some(Value::Array(items)) if !items.is_empty() => items,
        _ => {
            return Err(FamilyError::BadQuestion(
                "picks must be a non-empty list".into(),
            ));
        }
    };
    let mut last_free = false;
    for (i, p) in picks.iter().enumerate() {
        if state.ended() {
            return Err(pick_error(
                &picks[i - 1],
                Some(i - 1),
                "ends the turn but more picks follow".into(),
            ));
        }
        let (next, _, free) = state.pick_with(pick(&state, p, Some(i))?, |_| {});
        state = next;
        last_free = free;
    }
    Ok(json!({
        "home": state.home(),
        "holes": state.holes(),
        "last_free": last_free,
    }))
}
