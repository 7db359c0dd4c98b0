//! Typed column readers shared by the row reader and the analysis's loader: each looks a
//! column up by name, refuses nulls, and accepts the string layouts other writers use.

use arrow::array::{Array, ArrayRef, AsArray, BooleanArray, RecordBatch};
use arrow::datatypes::{DataType, Int32Type, Int64Type};

use crate::error::ColumnError;

/// Looks a column up and rejects nulls, which the schema forbids but a foreign writer might
/// still produce.
pub(crate) fn non_null<'a>(
    batch: &'a RecordBatch,
    column: &'static str,
) -> Result<&'a ArrayRef, ColumnError> {
    let array = batch
        .column_by_name(column)
        .ok_or(ColumnError::Missing { column })?;
    let nulls = array.null_count();
    if nulls > 0 {
        return Err(ColumnError::Nulls { column, nulls });
    }
    Ok(array)
}

/// The error for a column that is present but not of the `expected` type.
pub(crate) fn wrong_type(
    column: &'static str,
    expected: DataType,
    array: &ArrayRef,
) -> ColumnError {
    ColumnError::WrongType {
        column,
        expected,
        found: array.data_type().clone(),
    }
}

/// Calls `f` with each value of a string column, whichever of Arrow's three string
/// layouts the writer chose (pyarrow, polars and DuckDB each have their favourite).
pub fn for_each_str(
    batch: &RecordBatch,
    column: &'static str,
    mut f: impl FnMut(&str),
) -> Result<(), ColumnError> {
    let array = non_null(batch, column)?;
    match array.data_type() {
        DataType::Utf8 => array
            .as_string::<i32>()
            .iter()
            .for_each(|v| f(v.unwrap_or_default())),
        DataType::LargeUtf8 => array
            .as_string::<i64>()
            .iter()
            .for_each(|v| f(v.unwrap_or_default())),
        DataType::Utf8View => array
            .as_string_view()
            .iter()
            .for_each(|v| f(v.unwrap_or_default())),
        _ => return Err(wrong_type(column, DataType::Utf8, array)),
    }
    Ok(())
}

/// The values of an Int32 column without nulls.
pub fn int32s<'a>(batch: &'a RecordBatch, column: &'static str) -> Result<&'a [i32], ColumnError> {
    let array = non_null(batch, column)?;
    array
        .as_primitive_opt::<Int32Type>()
        .map(|a| a.values().as_ref())
        .ok_or_else(|| wrong_type(column, DataType::Int32, array))
}

/// The values of an Int64 column without nulls.
pub fn int64s<'a>(batch: &'a RecordBatch, column: &'static str) -> Result<&'a [i64], ColumnError> {
    let array = non_null(batch, column)?;
    array
        .as_primitive_opt::<Int64Type>()
        .map(|a| a.values().as_ref())
        .ok_or_else(|| wrong_type(column, DataType::Int64, array))
}

/// A Boolean column without nulls.
pub fn booleans<'a>(
    batch: &'a RecordBatch,
    column: &'static str,
) -> Result<&'a BooleanArray, ColumnError> {
    let array = non_null(batch, column)?;
    array
        .as_boolean_opt()
        .ok_or_else(|| wrong_type(column, DataType::Boolean, array))
}

/// The values of a string column, owned.
pub(crate) fn strings(
    batch: &RecordBatch,
    column: &'static str,
) -> Result<Vec<String>, ColumnError> {
    let mut out = Vec::with_capacity(batch.num_rows());
    for_each_str(batch, column, |v| out.push(v.to_owned()))?;
    Ok(out)
}
