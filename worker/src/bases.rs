//! The knowledge bases a coordinator sends with a sweep, installed for as long as this
//! worker holds the sweep.

use hammer_proto::v1::KnowledgeBase;
use hammer_solver::learned::{KbError, KbProblem, install, release};

/// The knowledge bases installed for one sweep (path, digest). Dropping it releases
/// them: the one place they are released, whether the sweep ended, could not be used,
/// or a later base of it did not check.
#[derive(Debug, Default)]
pub(crate) struct Bases(Vec<(String, u128)>);

impl Drop for Bases {
    fn drop(&mut self) {
        for (path, digest) in &self.0 {
            release(path, *digest);
        }
    }
}

/// Checks and installs the knowledge bases the coordinator sent, before the sweep is
/// parsed: the sweep's `learned:PATH` orders then use them, not files on this machine.
/// On an error, those installed already are released.
pub(crate) fn install_knowledge_bases(bases: &[KnowledgeBase]) -> Result<Bases, KbError> {
    let mut installed = Bases::default();
    for base in bases {
        let announced = u128::from_str_radix(&base.digest, 16).map_err(|_| KbError {
            path: base.path.clone(),
            problem: KbProblem::Invalid(format!(
                "the coordinator announced digest '{}', not 32 hex digits",
                base.digest
            )),
        })?;
        install(&base.path, &base.data, announced)?;
        installed.0.push((base.path.clone(), announced));
    }
    Ok(installed)
}
