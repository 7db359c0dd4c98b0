//! Parts read back as the batches a part file holds, and several parts written as one
//! file: what compaction needs of Parquet.
//!
//! A part written by this version of hammer has exactly the file schema, and its batches
//! pass through unchanged. A part of an older version, or of another tool, lacks columns
//! or orders them otherwise: its rows are read with the readers' fills and written back
//! in the file schema, which is what every reader of the dataset sees of it anyway.

use arrow::record_batch::RecordBatch;
use bytes::Bytes;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::metadata::{FooterTail, KeyValue, ParquetMetaDataReader};

use crate::error::{Error, Result};
use crate::read::restore_partition;
use crate::row::{batch_from_refs, rows_from_batch};
use crate::schema::file_schema;
use crate::table::ResultRow;
use crate::write::{key_value_pairs, writer_properties_builder};

/// The length of a Parquet file's tail: the footer's length and the magic.
pub const FOOTER_TAIL: usize = 8;

/// The rows of the part file `bytes` (of partition `experiment`, `n`; `name` for
/// messages) as batches of the file schema, in file order.
pub fn part_batches(
    bytes: Bytes,
    experiment: &str,
    n: i32,
    name: &str,
) -> Result<Vec<RecordBatch>> {
    let decode = |source| Error::Encode {
        part_id: name.to_owned(),
        source,
    };
    let builder = ParquetRecordBatchReaderBuilder::try_new(bytes).map_err(decode)?;
    let schema = file_schema();
    let same = builder.schema().fields() == schema.fields();
    let reader = builder.build().map_err(decode)?;
    let mut batches = Vec::new();
    for batch in reader {
        let batch = batch?;
        if same {
            batches.push(batch.with_schema(schema.clone())?);
            continue;
        }
        let batch = restore_partition(&batch, Some((experiment, n)))?;
        let rows: Vec<ResultRow> = rows_from_batch(&batch)?;
        let refs: Vec<_> = rows.iter().map(ResultRow::row_ref).collect();
        batches.push(batch_from_refs(&refs, true)?);
    }
    Ok(batches)
}

/// One part file written batch by batch into memory, with the writer settings of every
/// part, for a store that publishes it itself.
pub struct PartEncoder {
    writer: ArrowWriter<Vec<u8>>,
    name: String,
    rows: u64,
}

impl PartEncoder {
    /// A new file, `name` for messages.
    pub fn new(name: &str) -> Result<PartEncoder> {
        let props = writer_properties_builder().build();
        let writer =
            ArrowWriter::try_new(Vec::new(), file_schema(), Some(props)).map_err(|source| {
                Error::Encode {
                    part_id: name.to_owned(),
                    source,
                }
            })?;
        Ok(PartEncoder {
            writer,
            name: name.to_owned(),
            rows: 0,
        })
    }

    /// Appends a batch of the file schema.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        self.rows += batch.num_rows() as u64;
        self.writer.write(batch).map_err(|source| Error::Encode {
            part_id: self.name.clone(),
            source,
        })
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The file's bytes, with `metadata` as the footer's key-value pairs.
    pub fn finish(mut self, metadata: &[(&str, String)]) -> Result<Vec<u8>> {
        for (key, value) in metadata {
            self.writer
                .append_key_value_metadata(KeyValue::new((*key).to_owned(), value.clone()));
        }
        let name = self.name;
        self.writer.into_inner().map_err(|source| Error::Encode {
            part_id: name,
            source,
        })
    }
}

/// The footer's length read from a Parquet file's last [`FOOTER_TAIL`] bytes, or `None`
/// when they are not a Parquet tail.
pub fn footer_length(tail: &[u8]) -> Option<usize> {
    let tail = tail.get(tail.len().checked_sub(FOOTER_TAIL)?..)?;
    FooterTail::try_from(tail)
        .ok()
        .map(|footer| footer.metadata_length())
}

/// The key-value pairs of a footer, from a file's last bytes that hold at least the footer
/// and the tail (`name` for messages).
pub fn footer_pairs(suffix: &[u8], name: &str) -> Result<Vec<(String, String)>> {
    let corrupt = |reason: &str| Error::Encode {
        part_id: name.to_owned(),
        source: parquet::errors::ParquetError::General(reason.to_owned()),
    };
    let len = footer_length(suffix).ok_or_else(|| corrupt("no Parquet footer"))?;
    let end = suffix.len() - FOOTER_TAIL;
    let start = end
        .checked_sub(len)
        .ok_or_else(|| corrupt("the footer is longer than the bytes read"))?;
    let metadata =
        ParquetMetaDataReader::decode_metadata(&suffix[start..end]).map_err(|source| {
            Error::Encode {
                part_id: name.to_owned(),
                source,
            }
        })?;
    Ok(key_value_pairs(metadata.file_metadata()))
}
