//! The dataset's columns: their names (as constants, so no crate spells them twice),
//! types and order, and the schema checks of the reader.
//!
//! One schema serves every puzzle family, so that a mixed sweep's files all read as one
//! table in pandas, polars, DuckDB and pyarrow: the shared columns come first and are
//! never null; then every registered family's own columns (`hammer_family::Family::columns`),
//! nullable, filled only in that family's rows.

use std::sync::{Arc, LazyLock};

use arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use hammer_family::ColumnKind;

use crate::error::ColumnError;

/// Column names. The first block is the Martello dataset as it was before families (its
/// order is kept: external readers rely on it); the second block came with families.
pub mod col {
    pub const SWEEP: &str = "sweep";
    pub const EXPERIMENT: &str = "experiment";
    pub const CONFIG: &str = "config";
    pub const N: &str = "n";
    pub const GAME_INDEX: &str = "game_index";
    pub const SEED: &str = "seed";
    pub const BOARD: &str = "board";
    pub const PREFIX: &str = "prefix";
    pub const PREFIX_MOVES: &str = "prefix_moves";
    pub const START: &str = "start";
    pub const ORDER: &str = "order";
    pub const SCHEDULE: &str = "schedule";
    pub const BUDGET: &str = "budget";
    pub const TRIAL: &str = "trial";
    pub const MIN_STONES: &str = "min_stones";
    pub const SOLVABLE: &str = "solvable";
    pub const EXHAUSTIVE: &str = "exhaustive";
    pub const EXPANSIONS: &str = "expansions";
    pub const ATTEMPTS: &str = "attempts";
    pub const SOLUTION: &str = "solution";
    pub const WALL_NS: &str = "wall_ns";
    pub const WORKER: &str = "worker";
    pub const HAMMER_VERSION: &str = "hammer_version";
    pub const PUZZLE: &str = "puzzle";
    pub const PARAMS: &str = "params";
    pub const SCORE: &str = "score";
    pub const LOWER_BOUND: &str = "lower_bound";
    pub const SCHEDULE_COMPLETE: &str = "schedule_complete";
    pub const CAPPED_BY: &str = "capped_by";
    pub const MEMO_BYTES: &str = "memo_bytes";
    pub const SPLIT_PARTS: &str = "split_parts";
    pub const SPLIT_NODES: &str = "split_nodes";
}

/// The shared columns in file order; external readers and the docs rely on this order.
pub const COLUMNS: &[&str] = &[
    col::SWEEP,
    col::EXPERIMENT,
    col::CONFIG,
    col::N,
    col::GAME_INDEX,
    col::SEED,
    col::BOARD,
    col::PREFIX,
    col::PREFIX_MOVES,
    col::START,
    col::ORDER,
    col::SCHEDULE,
    col::BUDGET,
    col::TRIAL,
    col::MIN_STONES,
    col::SOLVABLE,
    col::EXHAUSTIVE,
    col::EXPANSIONS,
    col::ATTEMPTS,
    col::SOLUTION,
    col::WALL_NS,
    col::WORKER,
    col::HAMMER_VERSION,
    col::PUZZLE,
    col::PARAMS,
    col::SCORE,
    col::LOWER_BOUND,
    col::SCHEDULE_COMPLETE,
];

/// The shared columns that files written before families lack; the reader fills them
/// (see `row::rows_from_batch`): puzzle `martello`, params `n=N`, score = min_stones,
/// lower bound 0 (always sound), schedule_complete from the schedule's name.
pub const ADDED_WITH_FAMILIES: &[&str] = &[
    col::PUZZLE,
    col::PARAMS,
    col::SCORE,
    col::LOWER_BOUND,
    col::SCHEDULE_COMPLETE,
];

/// The columns that came with per-game limits, after [`COLUMNS`] and before the family
/// columns: nullable, because files written before them lack them (the reader fills
/// nulls) and because `capped_by` is null in every game that no limit stopped.
pub const LIMIT_COLUMNS: &[(&str, DataType)] = &[
    // The limit that stopped the game: "expansions" or "time"; null when none did.
    (col::CAPPED_BY, DataType::Utf8),
    // The memo's peak size for the game in bytes (the same on every machine).
    (col::MEMO_BYTES, DataType::Int64),
    // How a game searched in parts was split: the parts (units leased to any worker)
    // and the frontier subtrees dealt among them; null for a game searched whole.
    (col::SPLIT_PARTS, DataType::Int32),
    (col::SPLIT_NODES, DataType::Int32),
];

/// Arrow type of each column in [`COLUMNS`]; kept next to it so the two cannot drift apart.
const TYPES: &[DataType] = &[
    DataType::Utf8,    // sweep
    DataType::Utf8,    // experiment
    DataType::Utf8,    // config
    DataType::Int32,   // n
    DataType::Int64,   // game_index
    DataType::Int64,   // seed
    DataType::Utf8,    // board
    DataType::Int32,   // prefix
    DataType::Utf8,    // prefix_moves
    DataType::Utf8,    // start
    DataType::Utf8,    // order
    DataType::Utf8,    // schedule
    DataType::Int64,   // budget
    DataType::Int32,   // trial
    DataType::Int32,   // min_stones
    DataType::Boolean, // solvable
    DataType::Boolean, // exhaustive
    DataType::Int64,   // expansions
    DataType::Int32,   // attempts
    DataType::Utf8,    // solution
    DataType::Int64,   // wall_ns
    DataType::Utf8,    // worker
    DataType::Utf8,    // hammer_version
    DataType::Utf8,    // puzzle
    DataType::Utf8,    // params
    DataType::Int32,   // score
    DataType::Int32,   // lower_bound
    DataType::Boolean, // schedule_complete
];

/// Columns whose value is stored only in the directory names (`experiment=NAME/n=N`), not
/// inside the part files.
///
/// Storing them in the files as well breaks `pandas.read_parquet(DIR)`: pyarrow infers the
/// hive partition fields as dictionaries and then refuses to merge them with the plain string
/// column from the file. [`crate::read_part`] restores them from the path.
pub const PARTITION_COLUMNS: &[&str] = &[col::EXPERIMENT, col::N];

/// A family column: its family, its place in that family's [`hammer_family::Family::columns`],
/// and its spec.
#[derive(Clone, Copy, Debug)]
pub struct FamilyColumn {
    pub family: &'static str,
    pub index: usize,
    pub spec: hammer_family::ColumnSpec,
}

static FAMILY_COLUMNS: LazyLock<Vec<FamilyColumn>> = LazyLock::new(|| {
    hammer_family::families()
        .iter()
        .flat_map(|f| {
            f.columns()
                .iter()
                .enumerate()
                .map(|(index, spec)| FamilyColumn {
                    family: f.name(),
                    index,
                    spec: *spec,
                })
        })
        .collect()
});

/// Every registered family's own columns, in registry order: they follow [`COLUMNS`].
pub fn family_columns() -> &'static [FamilyColumn] {
    &FAMILY_COLUMNS
}

/// The Arrow type of a family column.
pub fn arrow_type(kind: ColumnKind) -> DataType {
    match kind {
        ColumnKind::Int32 => DataType::Int32,
        ColumnKind::Int64 => DataType::Int64,
        ColumnKind::Utf8 => DataType::Utf8,
        ColumnKind::Boolean => DataType::Boolean,
    }
}

static SCHEMA: LazyLock<SchemaRef> = LazyLock::new(|| {
    let shared = COLUMNS
        .iter()
        .zip(TYPES)
        .map(|(name, ty)| Field::new(*name, ty.clone(), false));
    let limits = LIMIT_COLUMNS
        .iter()
        .map(|(name, ty)| Field::new(*name, ty.clone(), true));
    let family = family_columns()
        .iter()
        .map(|c| Field::new(c.spec.name, arrow_type(c.spec.kind), true));
    Arc::new(Schema::new(
        shared.chain(limits).chain(family).collect::<Vec<_>>(),
    ))
});

static FILE_SCHEMA: LazyLock<SchemaRef> = LazyLock::new(|| {
    let fields: Vec<Field> = SCHEMA
        .fields()
        .iter()
        .filter(|f| !PARTITION_COLUMNS.contains(&f.name().as_str()))
        .map(|f| (**f).clone())
        .collect();
    Arc::new(Schema::new(fields))
});

/// The Arrow schema of a [`crate::ResultRow`], and of what readers see once they add the
/// partition columns from the path.
///
/// The shared columns are non-nullable and every column is of a plain type (Utf8, Int32,
/// Int64, Boolean): no dictionaries, views or timestamps, so pandas, polars, DuckDB and
/// pyarrow all read the files without type mapping surprises.
pub fn schema() -> SchemaRef {
    Arc::clone(&SCHEMA)
}

/// The schema stored inside a part file: [`schema`] without [`PARTITION_COLUMNS`].
pub fn file_schema() -> SchemaRef {
    Arc::clone(&FILE_SCHEMA)
}

/// Checks that `schema` has every shared column with a usable type, without looking at
/// data. The columns added with families may be missing (older files), and so may family
/// columns; present ones must have their type.
///
/// Extra columns are allowed so that files written by a newer version stay readable.
pub(crate) fn check_schema(schema: &Schema) -> Result<(), ColumnError> {
    for (&column, expected) in COLUMNS.iter().zip(TYPES) {
        let Ok(field) = schema.field_with_name(column) else {
            if ADDED_WITH_FAMILIES.contains(&column) {
                continue;
            }
            return Err(ColumnError::Missing { column });
        };
        if !type_accepted(expected, field.data_type()) {
            return Err(ColumnError::WrongType {
                column,
                expected: expected.clone(),
                found: field.data_type().clone(),
            });
        }
    }
    let optional = LIMIT_COLUMNS.iter().map(|(name, ty)| (*name, ty.clone()));
    let families = family_columns()
        .iter()
        .map(|c| (c.spec.name, arrow_type(c.spec.kind)));
    for (column, expected) in optional.chain(families) {
        if let Ok(field) = schema.field_with_name(column)
            && !type_accepted(&expected, field.data_type())
        {
            return Err(ColumnError::WrongType {
                column,
                expected,
                found: field.data_type().clone(),
            });
        }
    }
    Ok(())
}

/// Strings written by other tools may come back as large or view strings; they hold the same
/// values, so they are accepted. Integer widths are not, since a silent narrowing would corrupt
/// counts. The analysis's projected reader checks files with the same rule.
pub fn type_accepted(expected: &DataType, found: &DataType) -> bool {
    match expected {
        DataType::Utf8 => matches!(
            found,
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
        ),
        other => other == found,
    }
}
