//! `find_arrow`: links of an Arrow string array, through the Arrow C data interface.
//!
//! Input: a pyarrow `Array`/`ChunkedArray` (its chunks), or any object with
//! `__arrow_c_array__` (the Arrow PyCapsule protocol). Each chunk's C structs are moved out
//! of their capsules ([`import_chunk`]), their buffer sizes checked, and the rows of a
//! `string`, `large_string` or `string_view` array read in place, each row's offsets
//! checked against the values buffer (a bad array is an error, never a read out of
//! bounds).
//!
//! UTF-8 is not validated again for `string` and `large_string` (a full validation would
//! cost more than the scan): rows are scanned as bytes, exactly as `find_bytes` scans, so
//! a row that breaks the Arrow format's UTF-8 rule still gives its links, and an invalid
//! sequence ends a link; `start`/`end` count the bytes that do not continue a character.
//! Links themselves are always UTF-8.
//!
//! Scan: with the GIL released, each row is scanned on its own; code-point offsets come
//! from one forward walk per row ([`CodePoints`]). The result columns are plain vectors
//! turned into one struct array (`row`, `start`, `end`, `byte_start`, `byte_end`, `kind`,
//! `text`), exported back through the C data interface ([`ArrowLinks`]) and handed to
//! `pyarrow.record_batch`. No Python object is made per row or per link.
//!
//! Invariants: `row` counts rows across all chunks from 0; links are in row order, then
//! text order; the text column's 32-bit offsets never overflow (more than 2 GiB of link
//! text in one call is an error asking for smaller chunks, not a panic).

// The C data interface is raw pointers by nature: `import_chunk` has the one unsafe block.
#![allow(unsafe_code)]

use std::ffi::CStr;
use std::sync::Arc;

use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{
    Array, ArrayRef, Int64Array, LargeStringArray, StringArray, StringViewArray, StructArray,
};
use arrow_data::ArrayData;
use arrow_schema::{DataType, Field, Fields};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyTuple};

use super::offsets::CodePoints;
use linkscan::LinkFinder;

const SCHEMA_NAME: &CStr = c"arrow_schema";
const ARRAY_NAME: &CStr = c"arrow_array";

/// The links of a batch of rows, exported through `__arrow_c_array__` as a struct array
/// (a record batch for pyarrow).
#[pyclass(frozen, module = "linkscan", name = "ArrowLinks")]
pub struct ArrowLinks {
    links: StructArray,
}

#[pymethods]
impl ArrowLinks {
    /// The Arrow PyCapsule protocol: a fresh export of the struct array on each call.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        // The schema is fixed; a requested one is a hint the protocol lets us ignore.
        let _ = requested_schema;
        export(py, &self.links.to_data())
    }

    fn __len__(&self) -> usize {
        self.links.len()
    }
}

/// `data` exported through the Arrow PyCapsule protocol: the schema's capsule and the
/// array's. Each capsule owns its struct; dropping one that the consumer did not move out
/// calls its release callback (the `Drop` of the FFI structs).
pub(crate) fn export<'py>(py: Python<'py>, data: &ArrayData) -> PyResult<Bound<'py, PyTuple>> {
    let (array, schema) = to_ffi(data).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let schema = PyCapsule::new_with_value(py, schema, SCHEMA_NAME)?;
    let array = PyCapsule::new_with_value(py, array, ARRAY_NAME)?;
    PyTuple::new(py, [schema.into_any(), array.into_any()])
}

/// The chunks of `array`, each moved out of its capsules and checked ([`import_chunk`]);
/// `caller` names the function in errors (`find_arrow`, `redact_arrow`).
pub(crate) fn import_chunks(array: &Bound<'_, PyAny>, caller: &str) -> PyResult<Vec<ArrayData>> {
    chunks(array, caller)?
        .iter()
        .map(|chunk| import_chunk(chunk, caller))
        .collect()
}

/// The chunks of `array`: a pyarrow `ChunkedArray`'s chunks, or the object itself.
fn chunks<'py>(array: &Bound<'py, PyAny>, caller: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if array.hasattr("__arrow_c_array__")? {
        return Ok(vec![array.clone()]);
    }
    if array.hasattr("chunks")? && array.hasattr("__arrow_c_stream__")? {
        return array.getattr("chunks")?.extract();
    }
    Err(PyTypeError::new_err(format!(
        "{caller} needs an Arrow string array (an object with __arrow_c_array__, or a \
         pyarrow ChunkedArray), not {}",
        array.get_type().name()?
    )))
}

/// Moves one chunk out of its PyCapsules and checks its structure.
fn import_chunk(chunk: &Bound<'_, PyAny>, caller: &str) -> PyResult<ArrayData> {
    let pair = chunk.call_method0("__arrow_c_array__")?;
    let (schema, array): (Bound<'_, PyCapsule>, Bound<'_, PyCapsule>) = pair.extract()?;
    let schema_ptr = schema.pointer_checked(Some(SCHEMA_NAME))?;
    let array_ptr = array.pointer_checked(Some(ARRAY_NAME))?;
    // SAFETY: the Arrow PyCapsule protocol guarantees that a capsule named "arrow_schema"
    // holds a valid `ArrowSchema` and one named "arrow_array" a valid `ArrowArray`
    // (`pointer_checked` verified the names). `from_raw` moves the array out and marks the
    // capsule's struct released, so the capsule's destructor will not release it again;
    // the schema is only borrowed while `schema` keeps its capsule alive. The buffers must
    // agree with the schema, as the interface requires; `validate` then checks the
    // buffer sizes, and the rows are read with bounds-checked offsets (`Columns::rows`).
    let data = unsafe {
        let array = FFI_ArrowArray::from_raw(array_ptr.cast::<FFI_ArrowArray>().as_ptr());
        let schema = schema_ptr.cast::<FFI_ArrowSchema>().as_ref();
        from_ffi(array, schema)
    }
    .map_err(|e| PyValueError::new_err(format!("cannot import the Arrow array: {e}")))?;
    let valid = match data.data_type() {
        DataType::Utf8 | DataType::LargeUtf8 => data.validate(),
        // Views point into several buffers: checked in full (UTF-8 included) before reading.
        DataType::Utf8View => data.validate_full(),
        other => {
            return Err(PyTypeError::new_err(format!(
                "{caller} needs a string array (string, large_string or string_view), not {other}"
            )))
        }
    };
    valid.map_err(|e| PyValueError::new_err(format!("invalid Arrow string array: {e}")))?;
    Ok(data)
}

/// The result columns, filled row by row.
#[derive(Default)]
struct Columns {
    row: Vec<i64>,
    start: Vec<i64>,
    end: Vec<i64>,
    byte_start: Vec<i64>,
    byte_end: Vec<i64>,
    kind: Vec<&'static str>,
    text_offsets: Vec<i32>,
    text: Vec<u8>,
}

impl Columns {
    fn new() -> Columns {
        Columns {
            text_offsets: vec![0],
            ..Columns::default()
        }
    }

    /// Appends the links of `text`, row number `row`.
    fn scan_row(&mut self, finder: &LinkFinder, row: usize, text: &[u8]) -> Result<(), String> {
        let mut cursor = CodePoints::new(text);
        for link in finder.links_bytes(text) {
            self.text.extend_from_slice(&text[link.range()]);
            let offset = i32::try_from(self.text.len()).map_err(|_| {
                "more than 2 GiB of link text in one find_arrow call; pass smaller chunks"
                    .to_owned()
            })?;
            self.text_offsets.push(offset);
            self.row.push(row as i64);
            self.start.push(cursor.at(link.start()) as i64);
            self.end.push(cursor.at(link.end()) as i64);
            self.byte_start.push(link.start() as i64);
            self.byte_end.push(link.end() as i64);
            self.kind.push(link.kind().as_str());
        }
        Ok(())
    }

    /// Scans the rows of an offsets-and-values string array, each row's range checked
    /// against the values buffer.
    fn rows<O: Copy + TryInto<usize>>(
        &mut self,
        finder: &LinkFinder,
        first_row: usize,
        offsets: &[O],
        values: &[u8],
        is_null: impl Fn(usize) -> bool,
    ) -> Result<(), String> {
        for (i, pair) in offsets.windows(2).enumerate() {
            if is_null(i) {
                continue;
            }
            let text = match (pair[0].try_into(), pair[1].try_into()) {
                (Ok(start), Ok(end)) => values.get(start..end),
                _ => None,
            }
            .ok_or_else(|| format!("invalid Arrow string array: row {i} is out of bounds"))?;
            self.scan_row(finder, first_row + i, text)?;
        }
        Ok(())
    }

    /// Scans every row of `data` (one checked chunk), numbering rows from `first_row`.
    fn scan_chunk(
        &mut self,
        finder: &LinkFinder,
        data: ArrayData,
        first_row: usize,
    ) -> Result<(), String> {
        match data.data_type() {
            DataType::Utf8 => {
                let a = StringArray::from(data);
                self.rows(finder, first_row, a.value_offsets(), a.value_data(), |i| {
                    a.is_null(i)
                })
            }
            DataType::LargeUtf8 => {
                let a = LargeStringArray::from(data);
                self.rows(finder, first_row, a.value_offsets(), a.value_data(), |i| {
                    a.is_null(i)
                })
            }
            DataType::Utf8View => {
                for (i, text) in StringViewArray::from(data).iter().enumerate() {
                    if let Some(text) = text {
                        self.scan_row(finder, first_row + i, text.as_bytes())?;
                    }
                }
                Ok(())
            }
            _ => unreachable!("import_chunk admits only string arrays"),
        }
    }

    /// The struct array of the links.
    fn finish(self) -> Result<StructArray, String> {
        let int = |name: &str| Field::new(name, DataType::Int64, false);
        let fields = Fields::from(vec![
            int("row"),
            int("start"),
            int("end"),
            int("byte_start"),
            int("byte_end"),
            Field::new("kind", DataType::Utf8, false),
            Field::new("text", DataType::Utf8, false),
        ]);
        let text = StringArray::try_new(
            arrow_buffer::OffsetBuffer::new(self.text_offsets.into()),
            self.text.into(),
            None,
        )
        .map_err(|e| e.to_string())?;
        let columns: Vec<ArrayRef> = vec![
            Arc::new(Int64Array::from(self.row)),
            Arc::new(Int64Array::from(self.start)),
            Arc::new(Int64Array::from(self.end)),
            Arc::new(Int64Array::from(self.byte_start)),
            Arc::new(Int64Array::from(self.byte_end)),
            Arc::new(StringArray::from(self.kind)),
            Arc::new(text),
        ];
        StructArray::try_new(fields, columns, None).map_err(|e| e.to_string())
    }
}

/// `LinkFinder.find_arrow`: see the module documentation.
pub fn find_arrow<'py>(
    py: Python<'py>,
    finder: &LinkFinder,
    array: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let pyarrow = py.import("pyarrow")?;
    let chunks = import_chunks(array, "find_arrow")?;
    let links = py
        .detach(|| {
            let mut columns = Columns::new();
            let mut first_row = 0;
            for data in chunks {
                let rows = data.len();
                columns.scan_chunk(finder, data, first_row)?;
                first_row += rows;
            }
            columns.finish()
        })
        .map_err(PyValueError::new_err)?;
    let links = Bound::new(py, ArrowLinks { links })?;
    pyarrow.call_method1("record_batch", (links,))
}
