//! The list of families. Adding a family adds one line here.

use std::sync::LazyLock;

use crate::{Family, FamilyError};

/// The family of an experiment or command that names none: every sweep file written
/// before families existed is a Martello sweep.
pub const DEFAULT_FAMILY: &str = "martello";

static FAMILIES: LazyLock<Vec<Box<dyn Family>>> = LazyLock::new(|| {
    vec![
        Box::new(crate::martello::MartelloFamily),
        Box::new(crate::peg::PegFamily),
        Box::new(crate::mancala::MancalaFamily),
        Box::new(crate::tours::ToursFamily),
        Box::new(crate::clobber::ClobberFamily),
        Box::new(crate::sat::SatFamily),
    ]
});

/// Every registered family, in a fixed order (the dataset's family columns follow it).
pub fn families() -> &'static [Box<dyn Family>] {
    &FAMILIES
}

/// The names of the registered families, comma-separated, for messages.
pub fn names() -> String {
    families()
        .iter()
        .map(|f| f.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The names of the families that can learn a move order ([`crate::Family::learning`]),
/// comma-separated, for messages.
pub fn learning_names() -> String {
    families()
        .iter()
        .filter(|f| f.learning().is_some())
        .map(|f| f.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The family called `name`.
pub fn by_name(name: &str) -> Result<&'static dyn Family, FamilyError> {
    families()
        .iter()
        .find(|f| f.name() == name)
        .map(|f| f.as_ref())
        .ok_or_else(|| FamilyError::UnknownFamily {
            name: name.to_string(),
            expected: names(),
        })
}
