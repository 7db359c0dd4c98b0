//! The dataset's Arrow schema, from the column table (`table.rs`), and the schema checks of
//! the reader.
//!
//! One schema serves every puzzle family, so that a mixed sweep's files all read as one
//! table in pandas, polars, DuckDB and pyarrow: the shared columns come first (never null,
//! but for the few that came with per-game limits); then every registered family's own
//! columns (`hammer_family::Family::columns`), nullable, filled only in that family's rows.

use std::sync::{Arc, LazyLock};

use arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use hammer_family::ColumnKind;

use crate::error::ColumnError;
use crate::table::{Place, TABLE};

/// The names of the shared columns that are never null, in file order.
pub static COLUMNS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    TABLE
        .iter()
        .filter(|c| !c.nullable)
        .map(|c| c.name)
        .collect()
});

/// Columns whose value is stored only in the directory names (`experiment=NAME/n=N`), not
/// inside the part files.
///
/// Storing them in the files as well breaks `pandas.read_parquet(DIR)`: pyarrow infers the
/// hive partition fields as dictionaries and then refuses to merge them with the plain string
/// column from the file. [`crate::read_part`] restores them from the path.
pub static PARTITION_COLUMNS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    TABLE
        .iter()
        .filter(|c| c.place == Place::Partition)
        .map(|c| c.name)
        .collect()
});

/// A family column: its family, its place in that family's [`hammer_family::Family::columns`],
/// and its spec.
#[derive(Clone, Copy, Debug)]
pub struct FamilyColumn {
    /// The family's name.
    pub family: &'static str,
    /// The column's position in the family's columns.
    pub index: usize,
    /// The column's name, type and meaning.
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
pub(crate) fn arrow_type(kind: ColumnKind) -> DataType {
    match kind {
        ColumnKind::Int32 => DataType::Int32,
        ColumnKind::Int64 => DataType::Int64,
        ColumnKind::Utf8 => DataType::Utf8,
        ColumnKind::Boolean => DataType::Boolean,
    }
}

static SCHEMA: LazyLock<SchemaRef> = LazyLock::new(|| {
    let shared = TABLE
        .iter()
        .map(|c| Field::new(c.name, c.data_type(), c.nullable));
    let family = family_columns()
        .iter()
        .map(|c| Field::new(c.spec.name, arrow_type(c.spec.kind), true));
    Arc::new(Schema::new(shared.chain(family).collect::<Vec<_>>()))
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
/// data. The columns a file may predate (those with a fill) may be missing, and so may
/// family columns; present ones must have their type.
///
/// Extra columns are allowed so that files written by a newer version stay readable.
pub(crate) fn check_schema(schema: &Schema) -> Result<(), ColumnError> {
    let shared = TABLE.iter().map(|c| (c.name, c.data_type(), c.required()));
    let families = family_columns()
        .iter()
        .map(|c| (c.spec.name, arrow_type(c.spec.kind), false));
    for (column, expected, required) in shared.chain(families) {
        match schema.field_with_name(column) {
            Err(_) if required => return Err(ColumnError::Missing { column }),
            Err(_) => {}
            Ok(field) if !type_accepted(&expected, field.data_type()) => {
                return Err(ColumnError::WrongType {
                    column,
                    expected,
                    found: field.data_type().clone(),
                });
            }
            Ok(_) => {}
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
