//! `redact` and `redact_arrow`: texts with each link replaced by a template
//! ([`linkscan_replace`], the tool's own), every other byte kept.
//!
//! Algorithm: the engine's [`LinkFinder::redact_to`] over the UTF-8 bytes of each text (one
//! scan; the gaps between links copied as they are, each link replaced by the filled-in
//! template). `redact` does this for one `str`; `redact_arrow` for every row of an Arrow
//! string array, read in place through the C data interface as `find_arrow` reads it
//! ([`super::arrow::import_chunks`]), writing one values buffer and its offsets, so no
//! Python object is made per row or per link. Both run with the GIL released.
//!
//! Invariants: a null row stays null and an empty row stays empty; rows keep their order
//! across chunks (the result is one array of the same length as the input); the output is
//! `large_string` when the input is, else `string` (`string_view` rows too), and more than
//! 2 GiB of output in a `string` array is an error asking for smaller chunks, not a panic.
//! A `str`'s bytes are valid UTF-8 and so is every replacement, so the output of `redact`
//! is valid UTF-8 (checked, not assumed). For Arrow rows, the bytes outside links are
//! copied as they are, so a row that broke the format's UTF-8 rule is an error when the
//! result is checked, never silently changed.

// The C data interface is raw pointers by nature: the export below hands owned structs to
// PyCapsules, without unsafe code of its own (`import_chunks` has the one unsafe block).

use std::sync::Arc;

use arrow_array::{
    Array, ArrayRef, GenericStringArray, LargeStringArray, OffsetSizeTrait, StringArray,
    StringViewArray,
};
use arrow_buffer::{NullBufferBuilder, OffsetBuffer};
use arrow_data::ArrayData;
use arrow_schema::DataType;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use super::arrow::{export, import_chunks};
use linkscan::LinkFinder;
use linkscan_replace::{Replacer, Template};

/// The replacer of a `replace` template and a `hash_key`; a bad template is a `ValueError`.
pub fn replacer(replace: &str, hash_key: &str) -> PyResult<Replacer> {
    let template = Template::parse(replace)
        .map_err(|err| PyValueError::new_err(format!("replace {replace:?}: {err}")))?;
    Ok(Replacer::new(template, hash_key))
}

/// Appends `text` redacted to `out`; returns the number of links replaced.
fn redact_into(finder: &LinkFinder, replacer: &Replacer, text: &[u8], out: &mut Vec<u8>) -> usize {
    // Writing into a Vec cannot fail.
    finder
        .redact_to(text, out, |link, bytes, out| {
            replacer.write(link.kind(), bytes, out)
        })
        .unwrap_or(0)
}

/// `LinkFinder.redact`: `text` with each link replaced.
pub fn redact_str(
    py: Python<'_>,
    finder: &LinkFinder,
    replacer: &Replacer,
    text: &Bound<'_, PyString>,
) -> PyResult<String> {
    let text = text.to_str()?;
    let out = py.detach(|| {
        let mut out = Vec::with_capacity(text.len());
        redact_into(finder, replacer, text.as_bytes(), &mut out);
        out
    });
    String::from_utf8(out).map_err(|e| PyValueError::new_err(format!("redacted text: {e}")))
}

/// A redacted string array, exported through `__arrow_c_array__` (for `pyarrow.array`).
#[pyclass(frozen, module = "linkscan", name = "ArrowStrings")]
pub struct ArrowStrings {
    array: ArrayRef,
}

#[pymethods]
impl ArrowStrings {
    /// The Arrow PyCapsule protocol: a fresh export of the array on each call.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        // The type is that of the input; a requested one is a hint the protocol lets us ignore.
        let _ = requested_schema;
        export(py, &self.array.to_data())
    }

    fn __len__(&self) -> usize {
        self.array.len()
    }
}

/// The redacted rows, filled row by row: offsets of type `O` into one values buffer.
struct Rows<O> {
    offsets: Vec<O>,
    values: Vec<u8>,
    nulls: NullBufferBuilder,
}

impl<O: OffsetSizeTrait> Rows<O> {
    fn new(rows: usize) -> Rows<O> {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(O::zero());
        Rows {
            offsets,
            values: Vec::new(),
            nulls: NullBufferBuilder::new(rows),
        }
    }

    /// Appends one row: `None` for a null.
    fn push(
        &mut self,
        finder: &LinkFinder,
        replacer: &Replacer,
        text: Option<&[u8]>,
    ) -> Result<(), String> {
        match text {
            Some(text) => {
                redact_into(finder, replacer, text, &mut self.values);
                self.nulls.append_non_null();
            }
            None => self.nulls.append_null(),
        }
        let end = O::from_usize(self.values.len()).ok_or_else(|| {
            "more than 2 GiB of redacted text in one string array; pass smaller chunks or a \
             large_string array"
                .to_owned()
        })?;
        self.offsets.push(end);
        Ok(())
    }

    /// Appends the rows of an offsets-and-values string array, each row's range checked
    /// against the values buffer (a bad array is an error, never a read out of bounds).
    fn push_rows<I: Copy + TryInto<usize>>(
        &mut self,
        finder: &LinkFinder,
        replacer: &Replacer,
        offsets: &[I],
        values: &[u8],
        is_null: impl Fn(usize) -> bool,
    ) -> Result<(), String> {
        // About the size of the output (links replaced by templates aside): one
        // allocation for the chunk instead of a doubling buffer.
        if let (Some(&first), Some(&last)) = (offsets.first(), offsets.last()) {
            if let (Ok(first), Ok(last)) = (first.try_into(), last.try_into()) {
                self.values.reserve(usize::saturating_sub(last, first));
            }
        }
        for (i, pair) in offsets.windows(2).enumerate() {
            if is_null(i) {
                self.push(finder, replacer, None)?;
                continue;
            }
            let text = match (pair[0].try_into(), pair[1].try_into()) {
                (Ok(start), Ok(end)) => values.get(start..end),
                _ => None,
            }
            .ok_or_else(|| format!("invalid Arrow string array: row {i} is out of bounds"))?;
            self.push(finder, replacer, Some(text))?;
        }
        Ok(())
    }

    /// Appends every row of one checked chunk.
    fn push_chunk(
        &mut self,
        finder: &LinkFinder,
        replacer: &Replacer,
        data: ArrayData,
    ) -> Result<(), String> {
        match data.data_type() {
            DataType::Utf8 => {
                let a = StringArray::from(data);
                self.push_rows(finder, replacer, a.value_offsets(), a.value_data(), |i| {
                    a.is_null(i)
                })
            }
            DataType::LargeUtf8 => {
                let a = LargeStringArray::from(data);
                self.push_rows(finder, replacer, a.value_offsets(), a.value_data(), |i| {
                    a.is_null(i)
                })
            }
            DataType::Utf8View => {
                // Checked in full (UTF-8 included) by `import_chunks` before reading.
                for text in StringViewArray::from(data).iter() {
                    self.push(finder, replacer, text.map(str::as_bytes))?;
                }
                Ok(())
            }
            _ => unreachable!("import_chunks admits only string arrays"),
        }
    }

    /// The string array of the rows (its UTF-8 checked).
    fn finish(mut self) -> Result<ArrayRef, String> {
        let array = GenericStringArray::<O>::try_new(
            OffsetBuffer::new(self.offsets.into()),
            self.values.into(),
            self.nulls.finish(),
        )
        .map_err(|e| format!("redacted rows: {e}"))?;
        Ok(Arc::new(array))
    }
}

/// Redacts every chunk into one array of offset type `O`.
fn redact_chunks<O: OffsetSizeTrait>(
    finder: &LinkFinder,
    replacer: &Replacer,
    chunks: Vec<ArrayData>,
) -> Result<ArrayRef, String> {
    let rows = chunks.iter().map(ArrayData::len).sum();
    let mut out = Rows::<O>::new(rows);
    for data in chunks {
        out.push_chunk(finder, replacer, data)?;
    }
    out.finish()
}

/// `LinkFinder.redact_arrow`: see the module documentation.
pub fn redact_arrow<'py>(
    py: Python<'py>,
    finder: &LinkFinder,
    replacer: &Replacer,
    array: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let pyarrow = py.import("pyarrow")?;
    let chunks = import_chunks(array, "redact_arrow")?;
    let large = chunks
        .first()
        .is_some_and(|c| c.data_type() == &DataType::LargeUtf8);
    let array = py
        .detach(|| {
            if large {
                redact_chunks::<i64>(finder, replacer, chunks)
            } else {
                redact_chunks::<i32>(finder, replacer, chunks)
            }
        })
        .map_err(PyValueError::new_err)?;
    let strings = Bound::new(py, ArrowStrings { array })?;
    pyarrow.call_method1("array", (strings,))
}
