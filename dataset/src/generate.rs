//! `row_table!`: everything that names each shared column, generated from the one list of
//! columns in `table.rs`.
//!
//! Each entry of the list reads
//!
//! ```text
//! /// What the column means (one or more doc lines).
//! CONST field: Type, Place, Source, fill;
//! CONST field: Type = other_field, Place, Source, fill;
//! ```
//!
//! `CONST` is the name's constant in `col`; the column's name is `field`. `Type` is the
//! Rust type ([`crate::value::Value`] gives its Arrow type and nullability); `Place`,
//! `Source` and `fill` are a [`crate::table::Column`]'s `place`, `source` and `fill`. The
//! second form is a column the files keep as a copy of another field's values
//! (`min_stones`): it is written, and checked when read, but it is not a field of the row.
//!
//! From the list the macro makes, in the list's order (the file order):
//! - `col::CONST`, the names;
//! - `TABLE`, a [`crate::table::Column`] per column;
//! - `ResultRow` and `RowRef`, the owned and borrowed row, the conversions between them,
//!   and `RowRef::cells`, the row's values by column name;
//! - `shared_arrays`, the Arrow arrays of the columns (the writer);
//! - `read_fields`, the fields of rows from a record batch (the reader).
//!
//! The macro first sorts the entries into every column and the row's fields (`@sort`, one
//! entry at a time), then writes the items (`@emit`).
macro_rules! row_table {
    (@sort [$($all:tt)*] [$($fields:tt)*]) => {
        row_table!(@emit [$($all)*] [$($fields)*]);
    };
    // A copy of another field: a column, not a field.
    (@sort [$($all:tt)*] [$($fields:tt)*]
        $(#[doc = $doc:literal])*
        $CONST:ident $name:ident: $ty:ty = $value:ident, $place:ident, $source:ident, $fill:expr;
        $($rest:tt)*
    ) => {
        row_table!(@sort
            [$($all)* ([$($doc)*] $CONST $name ($ty) $value $place $source ($fill))]
            [$($fields)*]
            $($rest)*);
    };
    // A field of the row, stored under its own name.
    (@sort [$($all:tt)*] [$($fields:tt)*]
        $(#[doc = $doc:literal])*
        $CONST:ident $name:ident: $ty:ty, $place:ident, $source:ident, $fill:expr;
        $($rest:tt)*
    ) => {
        row_table!(@sort
            [$($all)* ([$($doc)*] $CONST $name ($ty) $name $place $source ($fill))]
            [$($fields)* ([$($doc)*] $CONST $name ($ty) ($fill))]
            $($rest)*);
    };
    (@emit
        [$( ([$($doc:literal)*] $CONST:ident $name:ident ($ty:ty) $value:ident
            $place:ident $source:ident ($cfill:expr)) )*]
        [$( ([$($fdoc:literal)*] $FCONST:ident $field:ident ($fty:ty) ($fill:expr)) )*]
    ) => {
        /// The shared columns' names, in file order; each constant's value is the column's
        /// name.
        pub mod col {
            $( $(#[doc = $doc])* pub const $CONST: &str = stringify!($name); )*
        }

        /// Every shared column, in file order: the files' column order, which external
        /// readers rely on.
        pub const TABLE: &[Column] = &[$(
            Column {
                name: col::$CONST,
                kind: <$ty as Value>::KIND,
                nullable: <$ty as Value>::NULLABLE,
                place: Place::$place,
                source: Source::$source,
                fill: $cfill,
                doc: concat!($($doc),*),
            },
        )*];

        /// One finished game: the unit the cluster produces and the analysis consumes.
        ///
        /// Fields are plain owned values rather than an Arrow view so that workers can
        /// build rows without knowing anything about Arrow; the conversion happens once per
        /// part file. A field per shared column (but `min_stones`, which the files keep as
        /// a copy of `score`), then the family's own columns.
        #[derive(Debug, Clone, PartialEq, Eq, Default)]
        pub struct ResultRow {
            $( $(#[doc = $fdoc])* pub $field: $fty, )*
            /// The family's own columns, in the order of its `Family::columns`.
            pub extra: Vec<Cell>,
        }

        /// A borrowed [`ResultRow`]: every field, with the strings borrowed.
        ///
        /// The coordinator holds the per-game values as they arrived and the per-unit
        /// values (sweep, config, order, ...) once; building an owned `ResultRow` per game
        /// would clone a dozen strings per row only to copy them again into Arrow buffers.
        /// [`crate::write_part_refs`] takes these instead.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        pub struct RowRef<'a> {
            $( $(#[doc = $fdoc])* pub $field: <$fty as Value>::Ref<'a>, )*
            /// The family's own columns, in the family's order.
            pub extra: &'a [Cell],
        }

        impl ResultRow {
            /// The row with its strings borrowed.
            pub fn row_ref(&self) -> RowRef<'_> {
                RowRef {
                    $( $field: Value::borrow(&self.$field), )*
                    extra: &self.extra,
                }
            }
        }

        impl RowRef<'_> {
            /// The owned row.
            pub fn to_owned_row(&self) -> ResultRow {
                ResultRow {
                    $( $field: <$fty as Value>::own(self.$field), )*
                    extra: self.extra.to_vec(),
                }
            }

            /// Every shared column's value by name, in file order, as the files hold
            /// them (`min_stones` too; a null is [`Cell::Null`]).
            pub fn cells(&self) -> Vec<(&'static str, Cell)> {
                vec![$( (col::$CONST, <$ty as Value>::cell(self.$value)), )*]
            }
        }

        /// The shared columns of `rows` in [`TABLE`] order; without the partition columns
        /// (which the directory names carry) when `file_only`.
        pub(crate) fn shared_arrays(rows: &[RowRef<'_>], file_only: bool) -> Vec<ArrayRef> {
            let mut arrays = Vec::with_capacity(TABLE.len());
            $(
                if !(file_only && Place::$place == Place::Partition) {
                    arrays.push(<$ty as Value>::array(rows.iter().map(|r| r.$value)));
                }
            )*
            arrays
        }

        /// Reads every field of `rows` (one per row of `batch`) from its column, or
        /// applies the column's fill where the file predates it; the fills that need the
        /// whole row are pushed onto `row_fills`, to run once every column is read.
        pub(crate) fn read_fields(
            batch: &RecordBatch,
            rows: &mut [ResultRow],
            row_fills: &mut Vec<fn(&mut ResultRow)>,
        ) -> Result<(), ColumnError> {
            $( read_field::<$fty>(batch, col::$FCONST, $fill, rows, |r| &mut r.$field, row_fills)?; )*
            Ok(())
        }
    };
    (@sort [$($all:tt)*] [$($fields:tt)*] $($bad:tt)*) => {
        compile_error!(concat!(
            "row_table!: an entry is not `CONST field: Type, Place, Source, fill;`: ",
            stringify!($($bad)*)
        ));
    };
    ($($entries:tt)*) => {
        row_table!(@sort [] [] $($entries)*);
    };
}
