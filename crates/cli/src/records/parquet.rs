//! Parquet records: the field a text column (a string or binary column, or one nested in
//! struct columns), read in Arrow batches, scanned in parallel, written in order.
//!
//! # Algorithm
//!
//! The field's path is resolved in the file's Arrow schema first ([`resolve`]): a path that
//! names no column, or a column that is not text, is an error of the input, before any
//! record is read. `find` reads only the field's column and the id's ([`ProjectionMask`]),
//! in batches of [`BATCH_ROWS`] rows; `redact` reads whole rows, one row group at a time,
//! replaces the field's column in each batch ([`replace`]; the struct columns above it are
//! rebuilt around the new column, their nulls kept) and writes the batch with the file's
//! own Parquet schema, each column's compression of the first row group and the file's
//! key-value metadata, ending a row group where the input's ends: the output has the same
//! schema, the same row groups (with the same numbers of rows) and every other column's
//! values. A batch's rows are scanned in chunks of [`CHUNK`] rows on the rayon pool.
//!
//! # Invariants
//!
//! A null value (or a null struct above it) is a record without the field: it gets a
//! warning, is skipped by `find` and written unchanged by `redact`. Memory is a row group's
//! encoded columns (the writer's buffer, and the reader's column chunk) plus a batch:
//! proportional to the largest row group, never to the file.

use std::fs::File;
use std::io::{self, Write};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    ByteArrayType, Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type, UInt64Type,
    UInt8Type,
};
use arrow_array::{Array, ArrayRef, GenericByteArray, RecordBatch, StructArray};
use arrow_buffer::{ArrowNativeType, Buffer, NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Fields, Schema};
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ParquetRecordBatchReaderBuilder};
use parquet::arrow::arrow_writer::ArrowWriterOptions;
use parquet::arrow::{ArrowWriter, ProjectionMask};
use parquet::file::properties::WriterProperties;
use parquet::schema::types::SchemaDescriptor;
use rayon::prelude::*;

use super::render::{Id, Of};
use super::{record_links, streamed, FindJob, Problems, RedactJob, Scanned, Spill, STREAMED};
use crate::flags::FieldPath;
use crate::render::Name;

/// Rows per batch read.
const BATCH_ROWS: usize = 4096;

/// Rows per parallel task.
const CHUNK: usize = 256;

/// The key of the Arrow schema in a Parquet file's key-value metadata.
const ARROW_SCHEMA: &str = "ARROW:schema";

/// An error of the Parquet or Arrow libraries, as an input error.
fn invalid(e: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e.to_string())
}

/// The type of the column at `path` in `schema`, or why there is none.
fn resolve(schema: &Schema, path: &FieldPath) -> io::Result<DataType> {
    let mut fields: &Fields = schema.fields();
    for (i, name) in path.names.iter().enumerate() {
        let so_far = path.names[..=i].join(".");
        let Some((_, field)) = fields.find(name) else {
            return Err(invalid(format!("no column {so_far:?}")));
        };
        if i + 1 == path.names.len() {
            return Ok(field.data_type().clone());
        }
        match field.data_type() {
            DataType::Struct(children) => fields = children,
            other => {
                return Err(invalid(format!(
                    "column {so_far:?} is {other}, not a struct"
                )))
            }
        }
    }
    Err(invalid("an empty field path"))
}

/// Whether a column of `data_type` is text that `redact` can rewrite (`find` reads the
/// view types too).
fn is_text(data_type: &DataType, views: bool) -> bool {
    match data_type {
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Binary | DataType::LargeBinary => true,
        DataType::Utf8View | DataType::BinaryView => views,
        _ => false,
    }
}

/// The leaves of the Parquet schema under each of `paths`.
fn leaves(schema: &SchemaDescriptor, paths: &[&FieldPath]) -> ProjectionMask {
    let indices = (0..schema.num_columns()).filter(|&i| {
        let column = schema.column(i);
        let parts = column.path().parts();
        paths.iter().any(|path| parts.starts_with(&path.names))
    });
    ProjectionMask::leaves(schema, indices)
}

/// The column at `path` in `batch`, and the nulls of its rows (its own and those of the
/// structs above it).
fn column<'a>(
    batch: &'a RecordBatch,
    path: &FieldPath,
) -> io::Result<(&'a ArrayRef, Option<NullBuffer>)> {
    let missing = || invalid(format!("no column {:?} in a batch", path.dotted));
    let mut array = batch.column_by_name(&path.names[0]).ok_or_else(missing)?;
    let mut nulls = array.logical_nulls();
    for name in &path.names[1..] {
        let parent = array.as_struct_opt().ok_or_else(missing)?;
        array = parent.column_by_name(name).ok_or_else(missing)?;
        nulls = NullBuffer::union(nulls.as_ref(), array.logical_nulls().as_ref());
    }
    Ok((array, nulls))
}

/// The bytes of row `i` of a text column (empty for a null).
type Texts<'a> = Box<dyn Fn(usize) -> &'a [u8] + Send + Sync + 'a>;

/// Reads the text column `array`.
fn texts(array: &ArrayRef) -> io::Result<Texts<'_>> {
    let texts: Texts<'_> = match array.data_type() {
        DataType::Utf8 => {
            let a = array.as_string::<i32>();
            Box::new(move |i| a.value(i).as_bytes())
        }
        DataType::LargeUtf8 => {
            let a = array.as_string::<i64>();
            Box::new(move |i| a.value(i).as_bytes())
        }
        DataType::Utf8View => {
            let a = array.as_string_view();
            Box::new(move |i| a.value(i).as_bytes())
        }
        DataType::Binary => {
            let a = array.as_binary::<i32>();
            Box::new(move |i| a.value(i))
        }
        DataType::LargeBinary => {
            let a = array.as_binary::<i64>();
            Box::new(move |i| a.value(i))
        }
        DataType::BinaryView => {
            let a = array.as_binary_view();
            Box::new(move |i| a.value(i))
        }
        other => return Err(invalid(format!("a column of {other}, not text"))),
    };
    Ok(texts)
}

/// The id of row `i` of an id column.
type Ids<'a> = Box<dyn Fn(usize) -> Id + Send + Sync + 'a>;

/// Reads the id column `array`: integers and strings.
fn ids(array: &ArrayRef) -> io::Result<Ids<'_>> {
    macro_rules! integers {
        ($($variant:ident => $type:ty),*) => {
            match array.data_type() {
                $(DataType::$variant => {
                    let a = array.as_primitive::<$type>();
                    Box::new(move |i| {
                        if a.is_null(i) { Id::missing() } else { Id::json(&a.value(i).to_string()) }
                    })
                })*
                DataType::Utf8 => {
                    let a = array.as_string::<i32>();
                    Box::new(move |i| if a.is_null(i) { Id::missing() } else { Id::string(a.value(i)) })
                }
                DataType::LargeUtf8 => {
                    let a = array.as_string::<i64>();
                    Box::new(move |i| if a.is_null(i) { Id::missing() } else { Id::string(a.value(i)) })
                }
                DataType::Utf8View => {
                    let a = array.as_string_view();
                    Box::new(move |i| if a.is_null(i) { Id::missing() } else { Id::string(a.value(i)) })
                }
                other => {
                    return Err(invalid(format!(
                        "the id column is {other}; --id-field takes an integer or string column"
                    )))
                }
            }
        };
    }
    let ids: Ids<'_> = integers!(
        Int8 => Int8Type, Int16 => Int16Type, Int32 => Int32Type, Int64 => Int64Type,
        UInt8 => UInt8Type, UInt16 => UInt16Type, UInt32 => UInt32Type, UInt64 => UInt64Type
    );
    Ok(ids)
}

/// The chunks of `rows` rows scanned in parallel.
fn chunks(rows: usize) -> Vec<Range<usize>> {
    (0..rows)
        .step_by(CHUNK)
        .map(|start| start..(start + CHUNK).min(rows))
        .collect()
}

/// The problem of a null value.
fn null(path: &FieldPath) -> String {
    format!("{:?} is null, not a string", path.dotted)
}

/// `find --field` over the Parquet file `path` (named `name`).
pub(crate) fn find(
    path: &Path,
    name: &Name,
    job: &FindJob<'_>,
    emit: &mut impl FnMut(&Scanned) -> io::Result<bool>,
) -> io::Result<()> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(path)?).map_err(invalid)?;
    let text_type = resolve(builder.schema(), job.field)?;
    if !is_text(&text_type, true) {
        return Err(invalid(format!(
            "column {:?} is {text_type}, not text (a string or binary column)",
            job.field.dotted
        )));
    }
    let mut paths = vec![job.field];
    if let Some(id) = job.id {
        resolve(builder.schema(), id)?;
        paths.push(id);
    }
    let mask = leaves(builder.parquet_schema(), &paths);
    let reader = builder
        .with_projection(mask)
        .with_batch_size(BATCH_ROWS)
        .build()
        .map_err(invalid)?;
    let mut base = 0u64;
    for batch in reader {
        let batch = batch.map_err(invalid)?;
        let (array, nulls) = column(&batch, job.field)?;
        let text = texts(array)?;
        let id = match job.id {
            Some(path) => {
                let (array, nulls) = column(&batch, path)?;
                Some((ids(array)?, nulls))
            }
            None => None,
        };
        // The links of `rows`, their output handed to `spill` as it grows.
        let find_rows = |rows: Range<usize>, mut spill: Spill<'_>| {
            let mut scanned = Scanned::default();
            for i in rows {
                let record = base + i as u64;
                if nulls.as_ref().is_some_and(|n| n.is_null(i)) {
                    scanned.problems.push((record, null(job.field)));
                    continue;
                }
                let id = id.as_ref().map(|(ids, nulls)| {
                    if nulls.as_ref().is_some_and(|n| n.is_null(i)) {
                        Id::missing()
                    } else {
                        ids(i)
                    }
                });
                let of = Of {
                    name,
                    record,
                    id: id.as_ref(),
                };
                if !record_links(&job.layout, &mut scanned, of, text(i), &mut spill) {
                    return None;
                }
            }
            Some(scanned)
        };
        // Rows with a long text are scanned in their turn, their output written as it
        // grows; the others on the pool, their outputs held until written in order.
        let rows = chunks(batch.num_rows());
        let streamed_rows = |rows: &Range<usize>| rows.clone().any(|i| text(i).len() > STREAMED);
        let scanned: Vec<Option<Scanned>> = rows
            .par_iter()
            .map(|rows| {
                // Without a spill the rows' output is always there.
                (!streamed_rows(rows))
                    .then(|| find_rows(rows.clone(), None))
                    .flatten()
            })
            .collect();
        for (rows, scanned) in rows.iter().zip(&scanned) {
            let go_on = match scanned {
                Some(scanned) => emit(scanned)?,
                None => streamed(emit, |spill| find_rows(rows.clone(), spill))?,
            };
            if !go_on {
                return Ok(());
            }
        }
        base += batch.num_rows() as u64;
    }
    Ok(())
}

/// `redact --field` of the Parquet file `path` to `out`.
pub(crate) fn redact(
    path: &Path,
    job: &RedactJob<'_>,
    problems: &mut Problems<'_>,
    out: impl Write + Send,
) -> io::Result<()> {
    let file = File::open(path)?;
    let metadata = ArrowReaderMetadata::load(&file, Default::default()).map_err(invalid)?;
    let schema = metadata.schema().clone();
    let text_type = resolve(&schema, job.field)?;
    if !is_text(&text_type, false) {
        return Err(invalid(format!(
            "column {:?} is {text_type}, not text that can be rewritten (a string or binary \
             column)",
            job.field.dotted
        )));
    }
    let parquet = metadata.metadata().clone();
    let file_metadata = parquet.file_metadata();
    let mut properties = WriterProperties::builder()
        .set_max_row_group_row_count(None)
        .set_max_row_group_bytes(None);
    if let Some(first) = parquet.row_groups().first() {
        for column in first.columns() {
            properties = properties
                .set_column_compression(column.column_path().clone(), column.compression());
        }
    }
    let kv = file_metadata.key_value_metadata();
    let had_arrow_schema = kv.is_some_and(|kv| kv.iter().any(|kv| kv.key == ARROW_SCHEMA));
    let others: Vec<_> = kv
        .into_iter()
        .flatten()
        .filter(|kv| kv.key != ARROW_SCHEMA)
        .cloned()
        .collect();
    if !others.is_empty() {
        properties = properties.set_key_value_metadata(Some(others));
    }
    if let Some(created_by) = file_metadata.created_by() {
        properties = properties.set_created_by(created_by.to_owned());
    }
    let options = ArrowWriterOptions::new()
        .with_properties(properties.build())
        .with_parquet_schema(file_metadata.schema_descr().clone())
        .with_skip_arrow_metadata(!had_arrow_schema);
    let mut writer =
        ArrowWriter::try_new_with_options(out, schema.clone(), options).map_err(invalid)?;
    let mut base = 0u64;
    for group in 0..parquet.num_row_groups() {
        let reader =
            ParquetRecordBatchReaderBuilder::new_with_metadata(file.try_clone()?, metadata.clone())
                .with_row_groups(vec![group])
                .with_batch_size(BATCH_ROWS)
                .build()
                .map_err(invalid)?;
        for batch in reader {
            let batch = batch.map_err(invalid)?;
            let (_, nulls) = column(&batch, job.field)?;
            let columns = replace(
                batch.columns(),
                batch.schema().fields(),
                &job.field.names,
                &mut |array| redact_column(array, nulls.as_ref(), base, job, problems),
            )?;
            let batch = RecordBatch::try_new(batch.schema(), columns).map_err(invalid)?;
            writer.write(&batch).map_err(invalid)?;
            base += batch.num_rows() as u64;
        }
        writer.flush().map_err(invalid)?;
    }
    let mut out = writer.into_inner().map_err(invalid)?;
    out.flush()
}

/// `columns` (of `fields`) with the column at `names` replaced by what `f` makes of it.
fn replace(
    columns: &[ArrayRef],
    fields: &Fields,
    names: &[String],
    f: &mut dyn FnMut(&ArrayRef) -> io::Result<ArrayRef>,
) -> io::Result<Vec<ArrayRef>> {
    let missing = || invalid(format!("no column {:?}", names[0]));
    let (index, field) = fields.find(&names[0]).ok_or_else(missing)?;
    let array = columns.get(index).ok_or_else(missing)?;
    let new = if names.len() == 1 {
        f(array)?
    } else {
        let DataType::Struct(children) = field.data_type() else {
            return Err(invalid(format!("column {:?} is not a struct", names[0])));
        };
        let parent = array.as_struct();
        let inner = replace(parent.columns(), children, &names[1..], f)?;
        Arc::new(
            StructArray::try_new(children.clone(), inner, parent.nulls().cloned())
                .map_err(invalid)?,
        )
    };
    let mut columns = columns.to_vec();
    columns[index] = new;
    Ok(columns)
}

/// The text column `array` (rows from `base`) redacted; the rows `nulls` says are null are
/// reported and kept.
fn redact_column(
    array: &ArrayRef,
    nulls: Option<&NullBuffer>,
    base: u64,
    job: &RedactJob<'_>,
    problems: &mut Problems<'_>,
) -> io::Result<ArrayRef> {
    Ok(match array.data_type() {
        DataType::Utf8 => Arc::new(redact_bytes(
            array.as_string::<i32>(),
            nulls,
            base,
            job,
            problems,
        )?),
        DataType::LargeUtf8 => Arc::new(redact_bytes(
            array.as_string::<i64>(),
            nulls,
            base,
            job,
            problems,
        )?),
        DataType::Binary => Arc::new(redact_bytes(
            array.as_binary::<i32>(),
            nulls,
            base,
            job,
            problems,
        )?),
        DataType::LargeBinary => Arc::new(redact_bytes(
            array.as_binary::<i64>(),
            nulls,
            base,
            job,
            problems,
        )?),
        other => return Err(invalid(format!("a column of {other}, not text"))),
    })
}

/// [`redact_column`] of a string or binary column.
fn redact_bytes<T: ByteArrayType>(
    array: &GenericByteArray<T>,
    nulls: Option<&NullBuffer>,
    base: u64,
    job: &RedactJob<'_>,
    problems: &mut Problems<'_>,
) -> io::Result<GenericByteArray<T>>
where
    T::Native: AsRef<[u8]>,
{
    struct Part {
        values: Vec<u8>,
        lengths: Vec<usize>,
        problems: Vec<(u64, String)>,
    }
    let parts: Vec<Part> = chunks(array.len())
        .into_par_iter()
        .map(|rows| {
            let mut part = Part {
                values: Vec::new(),
                lengths: Vec::with_capacity(rows.len()),
                problems: Vec::new(),
            };
            for i in rows {
                let value: &[u8] = if array.is_valid(i) {
                    array.value(i).as_ref()
                } else {
                    &[]
                };
                let start = part.values.len();
                if nulls.is_some_and(|n| n.is_null(i)) {
                    part.problems.push((base + i as u64, null(job.field)));
                    part.values.extend_from_slice(value);
                } else {
                    match job.redact(value) {
                        // A long value alone in its part is moved, not copied.
                        Some(redacted) if part.values.is_empty() => part.values = redacted,
                        Some(redacted) => part.values.extend_from_slice(&redacted),
                        None => part.values.extend_from_slice(value),
                    }
                }
                part.lengths.push(part.values.len() - start);
            }
            part
        })
        .collect();
    let total: usize = parts.iter().map(|p| p.values.len()).sum();
    if T::Offset::from_usize(total).is_none() {
        return Err(invalid(
            "a batch of redacted values too long for the column's offsets",
        ));
    }
    let mut values = Vec::new();
    let mut lengths = Vec::with_capacity(array.len());
    for part in parts {
        for (record, problem) in &part.problems {
            problems.record(*record, problem);
        }
        if values.is_empty() {
            // The first part's values are moved (a long value is not copied again).
            values = part.values;
            values.reserve(total - values.len());
        } else {
            values.extend_from_slice(&part.values);
        }
        lengths.extend_from_slice(&part.lengths);
    }
    let offsets = OffsetBuffer::<T::Offset>::from_lengths(lengths);
    GenericByteArray::<T>::try_new(offsets, Buffer::from_vec(values), array.nulls().cloned())
        .map_err(invalid)
}
