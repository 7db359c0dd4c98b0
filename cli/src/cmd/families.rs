//! `hammer families`: the registered puzzle families with their parameters, as
//! `docs/families.md` lists them (a test keeps that table equal to this output).

use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use hammer_family::families;

#[derive(Args)]
pub struct FamiliesArgs {}

/// The table of families in Markdown, one row per registered family, in registry order.
pub fn table() -> String {
    let mut out = String::from(
        "| family | docs | parameters (sweep key) | what it is |\n|---|---|---|---|\n",
    );
    for (i, family) in families().iter().enumerate() {
        let name = family.name();
        let params: Vec<String> = family
            .params()
            .iter()
            .map(|p| match (p.sweep_key, p.default) {
                (key, _) if key == p.key => format!("`{}`", p.key),
                (key, _) => format!("`{}` (`{key}`)", p.key),
            })
            .collect();
        let default = if i == 0 { " (default)" } else { "" };
        out.push_str(&format!(
            "| `{name}`{default} | [{name}.md]({name}.md) | {} | {} |\n",
            params.join(", "),
            family.summary()
        ));
    }
    out
}

pub fn families_cmd(_args: FamiliesArgs) -> Result<ExitCode> {
    print!("{}", table());
    Ok(ExitCode::SUCCESS)
}

/// `--puzzle`'s help: the registered names.
pub fn puzzle_help() -> String {
    format!(
        "The puzzle family: {} (see `hammer families`, docs/families.md)",
        hammer_family::names()
    )
}
