//! The presets, as data: `presets.toml`, embedded in the crate, holds one solver table
//! per known solver, with the flags of its seed, its budget and its restarts.

use std::collections::BTreeMap;

use crate::spec::SolverSpec;

/// The presets file as it is embedded.
pub const PRESETS: &str = include_str!("../presets.toml");

/// Every preset by name. A presets file that does not parse gives none; the crate's
/// tests read it, so a release never has one.
fn all() -> BTreeMap<String, SolverSpec> {
    toml::from_str(PRESETS).unwrap_or_default()
}

/// The preset named `name`.
pub fn preset(name: &str) -> Option<SolverSpec> {
    all().remove(name)
}

/// The presets' names, sorted.
pub fn names() -> Vec<String> {
    all().into_keys().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_and_validates() {
        let presets: BTreeMap<String, SolverSpec> =
            toml::from_str(PRESETS).expect("the presets file parses");
        assert_eq!(
            names(),
            ["cadical", "cryptominisat", "kissat", "minisat"],
            "the presets"
        );
        for (name, spec) in presets {
            assert_eq!(spec.preset, None, "{name} names no preset itself");
            spec.validate()
                .unwrap_or_else(|e| panic!("preset {name}: {e}"));
            let off = SolverSpec {
                preset: Some(name.clone()),
                restarts: Some(false),
                ..SolverSpec::default()
            };
            off.validate()
                .unwrap_or_else(|e| panic!("preset {name} without restarts: {e}"));
        }
    }
}
