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
