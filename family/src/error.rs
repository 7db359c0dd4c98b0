/// Why a family refused its input. Messages name the offending token, key or move, and
/// never repeat a source error (the chain printer shows sources once).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FamilyError {
    /// No family of that name is registered.
    #[error("unknown puzzle '{name}': expected one of {expected}")]
    UnknownFamily {
        /// The name asked for.
        name: String,
        /// The registered names, for the message.
        expected: String,
    },
    /// A parameter key the family does not have.
    #[error("puzzle {family} has no parameter '{key}': expected one of {expected}")]
    UnknownParam {
        /// The family's name.
        family: &'static str,
        /// The key given.
        key: String,
        /// The family's keys, for the message.
        expected: String,
    },
    /// A parameter value of the wrong type or out of range, or a point that does not fit
    /// together (a peg count larger than the board).
    #[error("{key}: {reason}")]
    BadParam {
        /// The parameter's key.
        key: String,
        /// What is wrong with its value.
        reason: String,
    },
    /// A position in the family's notation that does not parse or does not fit the
    /// point's parameters; `reason` names the token.
    #[error("bad position '{text}': {reason}")]
    BadState {
        /// The position as given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A move that is malformed or illegal where it is played; `index` is its 0-based
    /// place in a list of moves, when it came from one.
    #[error("{}: {reason}", move_label(text, *index))]
    BadMove {
        /// The move as given.
        text: String,
        /// Its place in the list it came from, if any.
        index: Option<usize>,
        /// What is wrong with it.
        reason: String,
    },
    /// A question (JSON) that is malformed: a missing or mistyped field, an unknown kind.
    #[error("bad question: {0}")]
    BadQuestion(String),
    /// A family without positions (sat: its instances are formulas, its moves the
    /// solver's) asked for a position, a move or a picture.
    #[error("puzzle {family} has no positions or moves: its instances are formulas for a solver")]
    NoPositions {
        /// The family's name.
        family: &'static str,
    },
    /// A sat game with no program to run: the experiment names no `solver`.
    #[error(
        "puzzle sat runs a declared solver, and the experiment names none (`solver = \"NAME\"`)"
    )]
    NoProgram,
    /// The declared program could not be run at all (not found, its instance not
    /// written); a program that runs and fails is a status, not this.
    #[error("solver {name}: {reason}")]
    Program {
        /// The declaration's name.
        name: String,
        /// What went wrong, with its causes.
        reason: String,
    },
    /// An instance index past the point's instances (peg has one start per hole).
    #[error("instance {index} does not exist: this point has {count} instance(s)")]
    NoSuchInstance {
        /// The instance asked for.
        index: u64,
        /// How many the point has.
        count: u64,
    },
}

/// A [`FamilyError::BadParam`] of `key`.
pub(crate) fn bad(key: &str, reason: impl Into<String>) -> FamilyError {
    FamilyError::BadParam {
        key: key.to_string(),
        reason: reason.into(),
    }
}

/// `move 'A1xB1'`, or `move 3 'A1xB1'` when the move came from a list.
fn move_label(text: &str, index: Option<usize>) -> String {
    match index {
        Some(i) => format!("move {} '{text}'", i + 1),
        None => format!("move '{text}'"),
    }
}
