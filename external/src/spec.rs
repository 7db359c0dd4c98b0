//! A solver as a sweep file declares it ([`SolverSpec`], read from a TOML table), and
//! the same declaration checked ([`Solver`]): its command parsed into templates, its
//! output form known, its cost pattern compiled, its preset filled in.

use std::collections::BTreeMap;

use hammer_cnf::{CostError, CostPattern};
use serde::Deserialize;
use thiserror::Error;

use crate::placeholders::{BraceError, Placeholder, Template};
use crate::preset;

/// A solver's declaration as written in a sweep file's `[solvers.NAME]` table.
///
/// Every field is optional here because a `preset` may supply it; [`SolverSpec::validate`]
/// says which are missing. A field given beside a preset overrides the preset's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolverSpec {
    /// A preset's name (`cadical`, `kissat`, `minisat`, `cryptominisat`), whose fields
    /// fill those not given here.
    pub preset: Option<String>,
    /// The program and its arguments, with placeholders; never passed to a shell.
    pub command: Option<Vec<String>>,
    /// The output form: `dimacs`, `minisat`, `json` or `exit-code`.
    pub output: Option<String>,
    /// A regular expression with one capture group, the cost, over standard output
    /// (then standard error's tail).
    pub cost: Option<String>,
    /// The unit of `{budget}` (conflicts, decisions, ...), which hammer never converts.
    pub budget_unit: Option<String>,
    /// For `output = "exit-code"`: each exit code's status.
    pub exit_codes: Option<BTreeMap<String, String>>,
    /// For `output = "json"`: the extra values a program may report, with their types.
    pub columns: Option<BTreeMap<String, String>>,
    /// `false` adds `restarts_off` to the command (after the program).
    pub restarts: Option<bool>,
    /// The arguments that turn the solver's own restarts off.
    pub restarts_off: Option<Vec<String>>,
}

/// How a program gives its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// The SAT competition's form: `s` and `v` lines on standard output and exit code
    /// 10 or 20 (another code for an unknown); a model is checked against the instance.
    Dimacs,
    /// MiniSat's result file, which the command writes to `{tmp}/result`
    /// ([`crate::MINISAT_RESULT`]); a model is checked as for `Dimacs`.
    Minisat,
    /// One JSON object, from the file at `HAMMER_RESULT` or else the last non-empty
    /// line of standard output.
    Json {
        /// The extra values the object may carry, by name.
        columns: BTreeMap<String, ColumnType>,
    },
    /// The exit code alone, mapped to a status.
    ExitCode {
        /// Each exit code's status; a code not in the map is not understood.
        codes: BTreeMap<i32, Reported>,
    },
}

impl Output {
    /// The name a sweep file writes.
    pub fn name(&self) -> &'static str {
        match self {
            Output::Dimacs => "dimacs",
            Output::Minisat => "minisat",
            Output::Json { .. } => "json",
            Output::ExitCode { .. } => "exit-code",
        }
    }
}

/// A status a program reports by itself, in JSON or by its exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reported {
    /// It found a solution (not checked: only the program knows its problem).
    Solved,
    /// It proved there is none.
    Refuted,
    /// It stopped at its budget without an answer.
    Unknown,
    /// It failed.
    Error,
}

impl Reported {
    /// The status named `name`, as a sweep file or a program writes it.
    pub fn of_name(name: &str) -> Option<Reported> {
        match name {
            "solved" => Some(Reported::Solved),
            "refuted" => Some(Reported::Refuted),
            "unknown" => Some(Reported::Unknown),
            "error" => Some(Reported::Error),
            _ => None,
        }
    }
}

/// The type of an extra value a JSON answer reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColumnType {
    /// A 64-bit integer.
    Int,
    /// A number (an integer is taken as one too).
    Float,
    /// A string.
    Text,
    /// `true` or `false`.
    Bool,
}

impl ColumnType {
    fn of_name(name: &str) -> Option<ColumnType> {
        match name {
            "int" => Some(ColumnType::Int),
            "float" => Some(ColumnType::Float),
            "text" => Some(ColumnType::Text),
            "bool" => Some(ColumnType::Bool),
            _ => None,
        }
    }

    /// The name a sweep file writes.
    pub fn name(self) -> &'static str {
        match self {
            ColumnType::Int => "int",
            ColumnType::Float => "float",
            ColumnType::Text => "text",
            ColumnType::Bool => "bool",
        }
    }
}

/// A declaration that cannot be run. [`SpecError::field`] and [`SpecError::index`] say
/// where, so that a caller holding the TOML's spans can point at the line and column.
#[derive(Debug, Error)]
pub enum SpecError {
    /// `preset` names no preset.
    #[error("`preset = \"{name}\"` is not a preset (the presets are {known})")]
    UnknownPreset {
        /// The name given.
        name: String,
        /// The presets' names, comma-separated.
        known: String,
    },
    /// A field that neither the table nor its preset gives.
    #[error("`{field}` is missing (give it, or a `preset` that has it)")]
    Missing {
        /// The field.
        field: &'static str,
    },
    /// `command = []`.
    #[error("`command` is empty: it needs at least the program")]
    EmptyCommand,
    /// An element names a placeholder that does not exist.
    #[error(
        "`{field}` element {index}: `{{{name}}}` is not a placeholder (they are {{instance}}, {{seed}}, {{budget}} and {{tmp}}; `{{{{` and `}}}}` write braces)"
    )]
    UnknownPlaceholder {
        /// `command` or `restarts_off`.
        field: &'static str,
        /// The element's index in the field's array, from 0 (the program).
        index: usize,
        /// The name between the braces.
        name: String,
    },
    /// An element has a brace that opens or closes nothing.
    #[error(
        "`{field}` element {index}: a lone brace at byte {at} (`{{{{` and `}}}}` write braces)"
    )]
    LoneBrace {
        /// `command` or `restarts_off`.
        field: &'static str,
        /// The element's index in the field's array, from 0.
        index: usize,
        /// The brace's byte offset in the element.
        at: usize,
    },
    /// The program, element 0, names a placeholder.
    #[error("`command` element 0 names a placeholder; the program is a plain name or path")]
    PlaceholderInProgram,
    /// An output form that does not exist.
    #[error(
        "`output = \"{name}\"` is not an output form (they are dimacs, minisat, json and exit-code)"
    )]
    UnknownOutput {
        /// The name given.
        name: String,
    },
    /// The cost pattern does not compile or has not exactly one group.
    #[error("`cost` is not a usable pattern")]
    Cost {
        /// Why.
        #[source]
        source: CostError,
    },
    /// `output = "exit-code"` without `exit_codes`.
    #[error("`output = \"exit-code\"` needs `exit_codes`, the status of each exit code")]
    ExitCodesMissing,
    /// `exit_codes` for another output form.
    #[error("`exit_codes` is given, but only `output = \"exit-code\"` reads it")]
    ExitCodesUnused,
    /// A key of `exit_codes` that is not an exit code.
    #[error("`exit_codes` key `{key}` is not an exit code (0 to 255)")]
    BadExitCode {
        /// The key.
        key: String,
    },
    /// A status in `exit_codes` that does not exist.
    #[error(
        "`exit_codes` gives exit code {code} the status `{status}`, which is not solved, refuted, unknown or error"
    )]
    UnknownStatus {
        /// The exit code.
        code: i32,
        /// The status given.
        status: String,
    },
    /// `columns` for another output form.
    #[error("`columns` is given, but only `output = \"json\"` reports extra values")]
    ColumnsUnused,
    /// A column type that does not exist.
    #[error("`columns` gives `{column}` the type `{kind}`, which is not int, float, text or bool")]
    UnknownColumnType {
        /// The column.
        column: String,
        /// The type given.
        kind: String,
    },
    /// `{budget}` in the command without a unit.
    #[error("`command` passes {{budget}}, but no `budget_unit` says in what unit")]
    BudgetWithoutUnit,
    /// A unit, but no `{budget}` in the command: the budget would be ignored.
    #[error("`budget_unit = \"{unit}\"` is given, but `command` passes no {{budget}}")]
    UnitWithoutBudget {
        /// The unit.
        unit: String,
    },
    /// `restarts = false` without the arguments that do it.
    #[error("`restarts = false`, but no `restarts_off` gives the arguments that turn restarts off")]
    NoRestartsOff,
    /// `output = "minisat"` with a command that cannot name the result file.
    #[error("`output = \"minisat\"` reads {{tmp}}/result, but `command` passes no {{tmp}}")]
    NoResultFile,
}

impl SpecError {
    /// The field of the table the error is about.
    pub fn field(&self) -> &'static str {
        match self {
            SpecError::UnknownPreset { .. } => "preset",
            SpecError::Missing { field } => field,
            SpecError::UnknownPlaceholder { field, .. } | SpecError::LoneBrace { field, .. } => {
                field
            }
            SpecError::EmptyCommand
            | SpecError::PlaceholderInProgram
            | SpecError::BudgetWithoutUnit
            | SpecError::NoResultFile => "command",
            SpecError::UnknownOutput { .. } | SpecError::ExitCodesMissing => "output",
            SpecError::Cost { .. } => "cost",
            SpecError::ExitCodesUnused
            | SpecError::BadExitCode { .. }
            | SpecError::UnknownStatus { .. } => "exit_codes",
            SpecError::ColumnsUnused | SpecError::UnknownColumnType { .. } => "columns",
            SpecError::UnitWithoutBudget { .. } => "budget_unit",
            SpecError::NoRestartsOff => "restarts",
        }
    }

    /// The element of an array field the error is about, from 0.
    pub fn index(&self) -> Option<usize> {
        match self {
            SpecError::UnknownPlaceholder { index, .. } | SpecError::LoneBrace { index, .. } => {
                Some(*index)
            }
            SpecError::PlaceholderInProgram => Some(0),
            _ => None,
        }
    }
}

/// A checked declaration: what [`crate::attempt`] runs.
#[derive(Clone, Debug)]
pub struct Solver {
    program: String,
    args: Vec<Template>,
    output: Output,
    cost: Option<CostPattern>,
    budget_unit: Option<String>,
}

impl Solver {
    /// The program as written: a name looked up in a PATH, or a path.
    pub fn program(&self) -> &str {
        &self.program
    }

    /// The arguments after the program, `restarts_off` first when restarts are off.
    pub fn args(&self) -> &[Template] {
        &self.args
    }

    /// The output form.
    pub fn output(&self) -> &Output {
        &self.output
    }

    /// The cost pattern, if the declaration has one.
    pub fn cost(&self) -> Option<&CostPattern> {
        self.cost.as_ref()
    }

    /// The unit of the budget, when the command takes one.
    pub fn budget_unit(&self) -> Option<&str> {
        self.budget_unit.as_deref()
    }

    /// Whether some argument names `placeholder`.
    pub fn uses(&self, placeholder: Placeholder) -> bool {
        self.args.iter().any(|arg| arg.uses(placeholder))
    }
}

impl SolverSpec {
    /// This declaration with its preset's fields filled in where it gives none.
    pub fn with_preset(&self) -> Result<SolverSpec, SpecError> {
        let Some(name) = &self.preset else {
            return Ok(self.clone());
        };
        let base = preset::preset(name).ok_or_else(|| SpecError::UnknownPreset {
            name: name.clone(),
            known: preset::names().join(", "),
        })?;
        Ok(SolverSpec {
            preset: Some(name.clone()),
            command: self.command.clone().or(base.command),
            output: self.output.clone().or(base.output),
            cost: self.cost.clone().or(base.cost),
            budget_unit: self.budget_unit.clone().or(base.budget_unit),
            exit_codes: self.exit_codes.clone().or(base.exit_codes),
            columns: self.columns.clone().or(base.columns),
            restarts: self.restarts.or(base.restarts),
            restarts_off: self.restarts_off.clone().or(base.restarts_off),
        })
    }

    /// Checks the declaration, its preset filled in, and gives the solver to run.
    pub fn validate(&self) -> Result<Solver, SpecError> {
        let spec = self.with_preset()?;
        let command = spec
            .command
            .as_ref()
            .ok_or(SpecError::Missing { field: "command" })?;
        let parsed = templates("command", command)?;
        let Some((program, command_args)) = parsed.split_first() else {
            return Err(SpecError::EmptyCommand);
        };
        let program = program
            .literal()
            .ok_or(SpecError::PlaceholderInProgram)?
            .to_owned();
        let mut args = Vec::new();
        if spec.restarts == Some(false) {
            let off = spec.restarts_off.as_ref().ok_or(SpecError::NoRestartsOff)?;
            args.extend(templates("restarts_off", off)?);
        }
        args.extend(command_args.iter().cloned());
        let output_name = spec
            .output
            .as_ref()
            .ok_or(SpecError::Missing { field: "output" })?;
        let output = output_of(&spec, output_name)?;
        if output == Output::Minisat && !args.iter().any(|a| a.uses(Placeholder::Tmp)) {
            return Err(SpecError::NoResultFile);
        }
        let cost = spec
            .cost
            .as_deref()
            .map(CostPattern::new)
            .transpose()
            .map_err(|source| SpecError::Cost { source })?;
        let uses_budget = args.iter().any(|a| a.uses(Placeholder::Budget));
        match (&spec.budget_unit, uses_budget) {
            (None, true) => return Err(SpecError::BudgetWithoutUnit),
            (Some(unit), false) => {
                return Err(SpecError::UnitWithoutBudget { unit: unit.clone() });
            }
            _ => {}
        }
        Ok(Solver {
            program,
            args,
            output,
            cost,
            budget_unit: spec.budget_unit.clone(),
        })
    }
}

fn templates(field: &'static str, elements: &[String]) -> Result<Vec<Template>, SpecError> {
    elements
        .iter()
        .enumerate()
        .map(|(index, element)| {
            Template::parse(element).map_err(|error| match error {
                BraceError::Unknown { name } => {
                    SpecError::UnknownPlaceholder { field, index, name }
                }
                BraceError::Lone { at } => SpecError::LoneBrace { field, index, at },
            })
        })
        .collect()
}

fn output_of(spec: &SolverSpec, name: &str) -> Result<Output, SpecError> {
    let output = match name {
        "dimacs" => Output::Dimacs,
        "minisat" => Output::Minisat,
        "json" => Output::Json {
            columns: columns(spec.columns.as_ref())?,
        },
        "exit-code" => Output::ExitCode {
            codes: exit_codes(
                spec.exit_codes
                    .as_ref()
                    .ok_or(SpecError::ExitCodesMissing)?,
            )?,
        },
        _ => {
            return Err(SpecError::UnknownOutput {
                name: name.to_owned(),
            });
        }
    };
    if spec.exit_codes.is_some() && !matches!(output, Output::ExitCode { .. }) {
        return Err(SpecError::ExitCodesUnused);
    }
    if spec.columns.is_some() && !matches!(output, Output::Json { .. }) {
        return Err(SpecError::ColumnsUnused);
    }
    Ok(output)
}

fn columns(
    columns: Option<&BTreeMap<String, String>>,
) -> Result<BTreeMap<String, ColumnType>, SpecError> {
    let Some(columns) = columns else {
        return Ok(BTreeMap::new());
    };
    columns
        .iter()
        .map(|(column, kind)| {
            let ty = ColumnType::of_name(kind).ok_or_else(|| SpecError::UnknownColumnType {
                column: column.clone(),
                kind: kind.clone(),
            })?;
            Ok((column.clone(), ty))
        })
        .collect()
}

fn exit_codes(codes: &BTreeMap<String, String>) -> Result<BTreeMap<i32, Reported>, SpecError> {
    codes
        .iter()
        .map(|(key, status)| {
            let code = key
                .parse::<u8>()
                .map_err(|_| SpecError::BadExitCode { key: key.clone() })?;
            let code = i32::from(code);
            let reported = Reported::of_name(status).ok_or_else(|| SpecError::UnknownStatus {
                code,
                status: status.clone(),
            })?;
            Ok((code, reported))
        })
        .collect()
}
