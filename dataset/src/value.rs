//! The Rust types a shared column may have, and what each means in Arrow: its type, its
//! borrowed form in a [`crate::RowRef`], how a column of it is built and how it is read.
//!
//! The column table (`table.rs`) names only a column's Rust type; everything else about
//! the column's storage follows from this trait, so a column cannot be declared with one
//! type and written or read as another.

use std::fmt::Debug;
use std::sync::Arc;

use arrow::array::{
    Array, ArrayRef, BooleanArray, Int32Array, Int64Array, RecordBatch, StringArray, StringBuilder,
};
use arrow::datatypes::DataType;
use hammer_family::{Cell, ColumnKind};

use crate::columns::{booleans, int32s, int64s, strings};
use crate::error::ColumnError;

/// A Rust type of a shared column: `String`, `i32`, `i64` and `bool` for the columns that
/// are never null, their `Option` for the nullable ones.
pub trait Value: Clone + Debug + Default + PartialEq + Eq {
    /// The value as a [`crate::RowRef`] holds it: strings borrowed, numbers copied.
    type Ref<'a>: Copy + Debug + PartialEq + Eq;
    /// The column's Arrow type.
    const KIND: ColumnKind;
    /// Whether the column may hold nulls (an `Option`).
    const NULLABLE: bool;

    /// The value as its borrowed form.
    fn borrow(&self) -> Self::Ref<'_>;
    /// An owned value from the borrowed form.
    fn own(value: Self::Ref<'_>) -> Self;
    /// The value as a cell, for callers that handle every column alike.
    fn cell(value: Self::Ref<'_>) -> Cell;
    /// One column of a record batch from the rows' values.
    fn array<'a>(values: impl Iterator<Item = Self::Ref<'a>> + Clone) -> ArrayRef;
    /// The column `name` of `batch`, one value per row; the schema was checked before.
    fn read(batch: &RecordBatch, name: &'static str) -> Result<Vec<Self>, ColumnError>;
}

impl Value for String {
    type Ref<'a> = &'a str;
    const KIND: ColumnKind = ColumnKind::Utf8;
    const NULLABLE: bool = false;

    fn borrow(&self) -> &str {
        self
    }

    fn own(value: &str) -> String {
        value.to_owned()
    }

    fn cell(value: &str) -> Cell {
        Cell::Text(value.to_owned())
    }

    fn array<'a>(values: impl Iterator<Item = Self::Ref<'a>> + Clone) -> ArrayRef {
        let bytes = values.clone().map(str::len).sum();
        let mut builder = StringBuilder::with_capacity(values.size_hint().0, bytes);
        for value in values {
            builder.append_value(value);
        }
        Arc::new(builder.finish())
    }

    fn read(batch: &RecordBatch, name: &'static str) -> Result<Vec<String>, ColumnError> {
        strings(batch, name)
    }
}

impl Value for bool {
    type Ref<'a> = bool;
    const KIND: ColumnKind = ColumnKind::Boolean;
    const NULLABLE: bool = false;

    fn borrow(&self) -> bool {
        *self
    }

    fn own(value: bool) -> bool {
        value
    }

    fn cell(value: bool) -> Cell {
        Cell::Bool(value)
    }

    fn array<'a>(values: impl Iterator<Item = Self::Ref<'a>> + Clone) -> ArrayRef {
        Arc::new(BooleanArray::from(values.collect::<Vec<bool>>()))
    }

    fn read(batch: &RecordBatch, name: &'static str) -> Result<Vec<bool>, ColumnError> {
        Ok(booleans(batch, name)?.values().iter().collect())
    }
}

impl Value for Option<String> {
    type Ref<'a> = Option<&'a str>;
    const KIND: ColumnKind = ColumnKind::Utf8;
    const NULLABLE: bool = true;

    fn borrow(&self) -> Option<&str> {
        self.as_deref()
    }

    fn own(value: Option<&str>) -> Option<String> {
        value.map(str::to_owned)
    }

    fn cell(value: Option<&str>) -> Cell {
        value.map_or(Cell::Null, String::cell)
    }

    fn array<'a>(values: impl Iterator<Item = Self::Ref<'a>> + Clone) -> ArrayRef {
        Arc::new(values.collect::<StringArray>())
    }

    /// Large and view strings are cast; the values are those of a plain string column.
    fn read(batch: &RecordBatch, name: &'static str) -> Result<Vec<Option<String>>, ColumnError> {
        let len = batch.num_rows();
        let Some(array) = batch.column_by_name(name) else {
            return Ok(vec![None; len]);
        };
        let cast = arrow::compute::cast(array, &DataType::Utf8).ok();
        Ok(
            match cast
                .as_ref()
                .and_then(|a| a.as_any().downcast_ref::<StringArray>())
            {
                Some(a) => a.iter().map(|v| v.map(str::to_owned)).collect(),
                None => vec![None; len],
            },
        )
    }
}

/// The integer types and their `Option`s: a value per row, or null.
macro_rules! integer_value {
    ($int:ty, $kind:ident, $array:ty, $values:ident) => {
        impl Value for $int {
            type Ref<'a> = $int;
            const KIND: ColumnKind = ColumnKind::$kind;
            const NULLABLE: bool = false;

            fn borrow(&self) -> $int {
                *self
            }

            fn own(value: $int) -> $int {
                value
            }

            fn cell(value: $int) -> Cell {
                Cell::Int(i64::from(value))
            }

            fn array<'a>(values: impl Iterator<Item = Self::Ref<'a>> + Clone) -> ArrayRef {
                Arc::new(<$array>::from_iter_values(values))
            }

            fn read(batch: &RecordBatch, name: &'static str) -> Result<Vec<$int>, ColumnError> {
                Ok($values(batch, name)?.to_vec())
            }
        }

        impl Value for Option<$int> {
            type Ref<'a> = Option<$int>;
            const KIND: ColumnKind = ColumnKind::$kind;
            const NULLABLE: bool = true;

            fn borrow(&self) -> Option<$int> {
                *self
            }

            fn own(value: Option<$int>) -> Option<$int> {
                value
            }

            fn cell(value: Option<$int>) -> Cell {
                value.map_or(Cell::Null, <$int>::cell)
            }

            fn array<'a>(values: impl Iterator<Item = Self::Ref<'a>> + Clone) -> ArrayRef {
                Arc::new(values.collect::<$array>())
            }

            fn read(
                batch: &RecordBatch,
                name: &'static str,
            ) -> Result<Vec<Option<$int>>, ColumnError> {
                Ok(
                    match batch
                        .column_by_name(name)
                        .and_then(|a| a.as_any().downcast_ref::<$array>())
                    {
                        Some(a) => a.iter().collect(),
                        None => vec![None; batch.num_rows()],
                    },
                )
            }
        }
    };
}

integer_value!(i32, Int32, Int32Array, int32s);
integer_value!(i64, Int64, Int64Array, int64s);
