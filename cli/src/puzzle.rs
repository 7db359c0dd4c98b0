//! `--puzzle NAME` and `--param KEY=VALUE`: which family and parameter point a game
//! command works on.

use anyhow::{Context, Result, bail};
use clap::Args;
use hammer_family::{FamilyRef, ParamValue, Point, point_from_pairs};

#[derive(Args, Clone, Debug)]
pub struct PuzzleArgs {
    #[arg(long, default_value = hammer_family::DEFAULT_FAMILY, help = crate::cmd::families::puzzle_help())]
    pub puzzle: String,
    /// A parameter of the puzzle, KEY=VALUE (repeat for several), such as
    /// `--param board=european` or `--param h=6`. A parameter left out takes the given
    /// position's own value where it tells one (a Martello board's size), else its default.
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
}

impl PuzzleArgs {
    pub fn family(&self) -> Result<FamilyRef> {
        Ok(FamilyRef::named(&self.puzzle)?)
    }

    /// The point of `--param`s (plus `extra` pairs such as Martello's `--n`) over a given
    /// position's own point (its values stand where no parameter is given).
    pub fn point(
        &self,
        extra: &[(String, String)],
        state: Option<&str>,
    ) -> Result<(FamilyRef, Point)> {
        let family = self.family()?;
        let mut pairs = Vec::new();
        for text in &self.params {
            let Some((key, value)) = text.split_once('=') else {
                bail!("--param {text:?}: expected KEY=VALUE, such as n=6");
            };
            pairs.push((key.trim().to_string(), value.trim().to_string()));
        }
        pairs.extend(extra.iter().cloned());
        // The position's own point first, so that `--param count=true` with a tours board
        // keeps the board's size; the user's parameters come after it and win.
        let mut values = Vec::with_capacity(pairs.len());
        if let Some(state) = state
            && let Some(point) = family.point_of_state(state)?
        {
            if pairs.is_empty() {
                return Ok((family, point));
            }
            for spec in family.params() {
                if let Some(value) = point.get(spec.key) {
                    values.push((spec.key.to_string(), value.clone()));
                }
            }
        }
        for (key, text) in pairs {
            let spec = family
                .params()
                .iter()
                .find(|s| s.key == key)
                .with_context(|| {
                    format!(
                        "puzzle {} has no parameter '{key}': expected one of {}",
                        family.name(),
                        family
                            .params()
                            .iter()
                            .map(|s| s.key)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })?;
            let value = ParamValue::parse(&text, spec)
                .map_err(|reason| anyhow::anyhow!("--param {key}={text}: {reason}"))?;
            values.push((key, value));
        }
        let point = point_from_pairs(&*family, &values)?;
        Ok((family, point))
    }
}
