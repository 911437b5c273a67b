//! The Python extension module `linkscan._linkscan` (feature `python`), built into the
//! `linkscan` package by maturin from `pyproject.toml`.
//!
//! The package's Python sources live beside this module in `linkscan/` (`__init__.py`
//! re-exports these classes and adds the module-level functions; `spark.py` the PySpark
//! helpers; `mail.py` the archive API). Here: `finder` (`Link`, `LinkFinder`,
//! `escape_url`, `display`, `check`), `arrow` (`find_arrow` through the Arrow C data
//! interface), `redact` (`redact`, `redact_arrow`, with the `linkscan-replace` template of
//! `{kind}`, `{host}` and the keyed `{hash}` that the tool uses), `mail` (`scan_mbox`,
//! `scan_archive`, `build_archive`), and `offsets` (byte to code-point offsets).
//!
//! Invariant: no scan holds the GIL, and no Python object is touched while it is released.

mod arrow;
mod finder;
mod mail;
mod offsets;
mod redact;

use pyo3::prelude::*;

/// linkscan: find URLs and email addresses in text exactly as Unicode UTS #58 specifies.
#[pymodule]
#[pyo3(name = "_linkscan")]
fn linkscan_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<finder::PyLink>()?;
    m.add_class::<finder::PyLinkFinder>()?;
    m.add_class::<arrow::ArrowLinks>()?;
    m.add_class::<redact::ArrowStrings>()?;
    m.add_class::<mail::PyMessage>()?;
    m.add_class::<mail::MboxScan>()?;
    m.add_class::<mail::ArchiveScan>()?;
    m.add_function(wrap_pyfunction!(finder::escape_url, m)?)?;
    m.add_function(wrap_pyfunction!(finder::display, m)?)?;
    m.add_function(wrap_pyfunction!(finder::check, m)?)?;
    m.add_function(wrap_pyfunction!(mail::scan_mbox, m)?)?;
    m.add_function(wrap_pyfunction!(mail::scan_archive, m)?)?;
    m.add_function(wrap_pyfunction!(mail::build_archive, m)?)?;
    m.add("DEFAULT_MAX_LINK_LEN", linkscan::DEFAULT_MAX_LINK_LEN)?;
    m.add("TLD_LIST_VERSION", linkscan::TLD_LIST_VERSION)?;
    m.add("UNICODE_VERSION", linkscan::UNICODE_VERSION)?;
    // The package's version is this crate's: `pyproject.toml` takes it from `Cargo.toml`.
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
