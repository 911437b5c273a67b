//! `scan_mbox`: the messages of an mbox archive and their links, one at a time;
//! `scan_archive`: the same for mbox files and Maildir folders, scanned in parallel;
//! `build_archive`: the HTML archive.
//!
//! Built only on the public [`crate::mail`] API: [`open_mbox`] (gzip detected by content),
//! [`MboxReader`] to split messages in bounded memory, [`MailScanner`] to decode and scan
//! each. The archive is read lazily: one message is in memory at a time, and reading and
//! scanning it runs with the GIL released. `scan_archive` and `build_archive` (given a
//! path) run the parallel [`Pipeline`] instead, as the command does: messages are scanned
//! on the rayon pool, a bounded number ahead of the one handed to Python, and come in
//! archive order; `build_archive` builds on it with [`Archive::build`], as `linkscan
//! linkify --out` does.
//!
//! Each message yields a `Message` whose `links` are dicts with exactly the fields (and
//! values) of the JSON lines of `linkscan find --mbox`: `file`, `message` (position in the
//! archive, from 1), `message_id`, `part`, `content_type`, `source`, `start`, `end` (byte
//! offsets in the part's decoded text), `kind`, `text`, `href`. Problems met in a message
//! are its `warnings`, as the command prints them; a read error of the archive raises
//! `OSError` (after the messages read before it), with its errno and file name when the
//! system gave the error.

use std::fs::File;
use std::io::{BufRead, Cursor};
use std::path::Path;
use std::sync::Mutex;

use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyDict, PyList};

use super::finder::PyLinkFinder;
use linkscan_mail::archive::search::Pagefind;
use linkscan_mail::archive::{Addresses, Archive, Attachments, Updated, DEFAULT_ATTACHMENT_LIMIT};
use linkscan_mail::pipeline::{Event, Events, Input, MessageInfo, Pipeline};
use linkscan_mail::{open_mbox, MailScanner, MboxReader, ScannedMessage};

type Reader = MboxReader<Box<dyn BufRead + Send>>;

/// One message of an archive and the links found in it.
#[pyclass(frozen, get_all, module = "linkscan.mail", name = "Message")]
pub struct PyMessage {
    /// The archive's name (the path given, or `"-"` for bytes), as in `find --mbox`.
    file: String,
    /// Position in the archive, from 1.
    index: usize,
    /// Byte offset of the message's `From ` line in the (decompressed) archive (`None`
    /// from `scan_archive`).
    offset: Option<u64>,
    /// The message's file in a Maildir (`scan_archive`).
    path: Option<std::path::PathBuf>,
    /// The Message-ID, without angle brackets.
    message_id: Option<String>,
    /// The first From address, as `Name <address>`.
    from_: Option<String>,
    /// The Date, in RFC 3339 form.
    date: Option<String>,
    /// The decoded Subject.
    subject: Option<String>,
    /// The links, as dicts with the fields of `find --mbox` JSON lines.
    links: Py<PyList>,
    /// Problems met while reading and decoding the message.
    warnings: Vec<String>,
}

#[pymethods]
impl PyMessage {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Message(index={}, message_id={:?}, links={})",
            self.index,
            self.message_id,
            self.links.bind(py).len()
        )
    }
}

/// The iterator `scan_mbox` returns.
#[pyclass(frozen, module = "linkscan.mail", name = "MboxScan")]
pub struct MboxScan {
    file: String,
    reader: Mutex<Reader>,
    scanner: MailScanner,
}

/// What one step of the iterator read, before Python objects are made.
struct Scanned {
    index: usize,
    offset: Option<u64>,
    path: Option<std::path::PathBuf>,
    message: ScannedMessage,
    warnings: Vec<String>,
}

impl Scanned {
    /// The message for Python, its links' `file` being `file`.
    fn message(self, py: Python<'_>, file: &str) -> PyResult<PyMessage> {
        let s = self;
        let links = PyList::empty(py);
        let m = &s.message;
        for part in m.parts() {
            for link in part.links() {
                let d = PyDict::new(py);
                d.set_item("file", file)?;
                d.set_item("message", s.index)?;
                d.set_item("message_id", m.message_id())?;
                d.set_item("part", part.path())?;
                d.set_item("content_type", part.content_type())?;
                d.set_item("source", link.source().as_str())?;
                d.set_item("start", link.start())?;
                d.set_item("end", link.end())?;
                d.set_item("kind", link.kind().as_str())?;
                d.set_item("text", link.text())?;
                d.set_item("href", link.href())?;
                links.append(d)?;
            }
        }
        Ok(PyMessage {
            file: file.to_owned(),
            index: s.index,
            offset: s.offset,
            path: s.path,
            message_id: m.message_id().map(str::to_owned),
            from_: m.from().map(str::to_owned),
            date: m.date().map(str::to_owned),
            subject: m.subject().map(str::to_owned),
            links: links.unbind(),
            warnings: s.warnings,
        })
    }
}

#[pymethods]
impl MboxScan {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PyMessage>> {
        let next = py.detach(|| {
            let mut reader = self.reader.lock().unwrap_or_else(|e| e.into_inner());
            reader.next().map(|read| {
                read.map(|raw| {
                    let message = self.scanner.scan(raw.bytes());
                    let warnings = (raw.warnings().iter().map(ToString::to_string))
                        .chain(message.warnings().iter().map(ToString::to_string))
                        .collect();
                    Scanned {
                        index: raw.index(),
                        offset: Some(raw.offset()),
                        path: None,
                        message,
                        warnings,
                    }
                })
            })
        });
        match next {
            None => Ok(None),
            Some(Err(e)) => Err(e.into()),
            Some(Ok(scanned)) => scanned.message(py, &self.file).map(Some),
        }
    }
}

/// The archive argument: a path, or the archive's bytes.
#[derive(FromPyObject)]
pub enum Source {
    /// Bytes (or a bytearray, copied): the archive itself.
    Bytes(PyBackedBytes),
    /// A `str` or `os.PathLike` path.
    Path(std::path::PathBuf),
}

// The first line is Python's signature, not a link to `Message`.
#[allow(rustdoc::broken_intra_doc_links)]
/// scan_mbox(source, finder=None) -> Iterator[Message]
///
/// The messages of an mbox archive (plain or gzip, detected by content) with their
/// links. `source` is a path (`str` or `os.PathLike`) or the archive as `bytes`;
/// `finder` a `LinkFinder` (default: the library's defaults).
#[pyfunction]
#[pyo3(signature = (source, finder = None))]
pub fn scan_mbox(
    py: Python<'_>,
    source: Source,
    finder: Option<&Bound<'_, PyLinkFinder>>,
) -> PyResult<MboxScan> {
    let (file, reader) = match source {
        Source::Path(path) => {
            let file = File::open(&path)?;
            (
                path.to_string_lossy().into_owned(),
                py.detach(|| open_mbox(file))?,
            )
        }
        Source::Bytes(bytes) => ("-".to_owned(), open_mbox(Cursor::new(bytes))?),
    };
    let finder = match finder {
        Some(f) => f.get().finder.clone(),
        None => PyLinkFinder::default_finder().finder,
    };
    Ok(MboxScan {
        file,
        reader: Mutex::new(MboxReader::new(reader)),
        scanner: MailScanner::new().finder(finder),
    })
}

/// The iterator `scan_archive` returns.
#[pyclass(frozen, module = "linkscan.mail", name = "ArchiveScan")]
pub struct ArchiveScan {
    /// The display name of each input.
    names: Vec<String>,
    events: Mutex<Events<ScannedMessage>>,
}

#[pymethods]
impl ArchiveScan {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PyMessage>> {
        let next = py.detach(|| -> PyResult<Option<(usize, Scanned)>> {
            let mut events = self.events.lock().unwrap_or_else(|e| e.into_inner());
            for event in events.by_ref() {
                match event? {
                    Event::Message(m) => {
                        let scanned = Scanned {
                            index: m.index,
                            offset: None,
                            path: m.path,
                            message: m.output,
                            warnings: m.warnings.iter().map(ToString::to_string).collect(),
                        };
                        return Ok(Some((m.input, scanned)));
                    }
                    Event::Failed { input, error }
                    | Event::End {
                        input,
                        error: Some(error),
                        ..
                    } => return Err(os_error(error, Path::new(&self.names[input]))),
                    Event::End { unreadable, .. } if !unreadable.is_empty() => {
                        let (folder, error) = unreadable.into_iter().next().expect("one");
                        return Err(os_error(error, &folder));
                    }
                    _ => {}
                }
            }
            Ok(None)
        })?;
        match next {
            None => Ok(None),
            Some((input, scanned)) => scanned.message(py, &self.names[input]).map(Some),
        }
    }
}

/// The `OSError` of an input (or a folder of it) that could not be read: with the errno and
/// the file name when the system gave the error (Python makes it `FileNotFoundError`,
/// `PermissionError`, … by the errno), else of the class of its kind, with its words.
fn os_error(error: std::io::Error, filename: &Path) -> PyErr {
    match error.raw_os_error() {
        Some(errno) => {
            let text = error.to_string();
            let strerror = text.find(" (os error").map_or(&*text, |i| &text[..i]);
            PyOSError::new_err((errno, strerror.to_owned(), filename.to_owned()))
        }
        None => error.into(),
    }
}

// The first line is Python's signature, not a link to `Message`.
#[allow(rustdoc::broken_intra_doc_links)]
/// scan_archive(paths, finder=None, *, maildir=False, max_message_size=None) -> Iterator[Message]
///
/// The messages of mbox archives (plain or gzip, detected by content), or with
/// `maildir=True` of Maildir folders, with their links, as `scan_mbox` gives them, but
/// scanned in parallel on all cores, as `linkscan find --mbox` does, and given in archive
/// order (then `offset` is `None`, and `path` a Maildir message's file). `paths` is a
/// path or a list of them, read in turn. A message over `max_message_size` bytes (default
/// 32 MiB) is scanned as raw text in pieces of about 1 MiB, each a `Message` with the
/// same `index`. An input that cannot be read raises `OSError`, after its messages read
/// before the error.
#[pyfunction]
#[pyo3(signature = (paths, finder = None, *, maildir = false, max_message_size = None))]
pub fn scan_archive(
    paths: Paths,
    finder: Option<&Bound<'_, PyLinkFinder>>,
    maildir: bool,
    max_message_size: Option<u64>,
) -> PyResult<ArchiveScan> {
    let paths = match paths {
        Paths::One(path) => vec![path],
        Paths::Many(paths) => paths,
    };
    for path in &paths {
        // Errors at the call, as `scan_mbox` gives them (FileNotFoundError, …).
        if maildir {
            std::fs::read_dir(path)?;
        } else {
            File::open(path)?;
        }
    }
    let finder = match finder {
        Some(f) => f.get().finder.clone(),
        None => PyLinkFinder::default_finder().finder,
    };
    let mut pipeline = Pipeline::new(MailScanner::new().finder(finder)).maildir(maildir);
    if let Some(limit) = max_message_size {
        pipeline = pipeline.max_message_size(limit);
    }
    let names = paths
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let inputs = paths.into_iter().map(Input::Path).collect();
    let render = |_: &MessageInfo<'_>, m: ScannedMessage| m;
    Ok(ArchiveScan {
        names,
        events: Mutex::new(pipeline.spawn(inputs, render)),
    })
}

/// One path, or several.
#[derive(FromPyObject)]
pub enum Paths {
    /// A `str` or `os.PathLike` path.
    One(std::path::PathBuf),
    /// A list or other sequence of them.
    Many(Vec<std::path::PathBuf>),
}

/// How the pages name an input: its path as it is (the pages show its file name).
fn name(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// build_archive(source, out, *, finder=None, addresses="show", checks=False, update=False, attachments="inline", attachment_limit=10485760, search=False) -> dict
///
/// Writes the HTML archive of an mbox (plain or gzip) into the folder `out`, as
/// `linkscan linkify --mbox SOURCE --out OUT` does: a page per message, thread and month,
/// and `index.html`. `source` is a path or the archive's bytes; `addresses` is `"show"`
/// or `"obfuscate"` (no `mailto:` anywhere); `checks` writes the links that fail a
/// security check of UTS #58 section 8 as text. Runs with the GIL released: a path is
/// scanned and its pages written in parallel on all cores, as the command does; bytes one
/// message at a time. Returns `{"messages": …, "pages": …, "written": …, "removed": …,
/// "updated": …}` (`removed`: pages of an earlier archive in `out` that this one does not
/// have). With `update=True` and a path, as `--update`: the messages appended to the file
/// since the last build into `out` are added and only the pages they change are written
/// (`"updated": True`, `"messages"`: those read); when `out` cannot be updated from it,
/// the archive is built whole and `"rebuilt"` says why. `attachments` is `"inline"`
/// (text attachments drawn on the pages, the others written under `a/` and linked),
/// `"link"` (all written and linked) or `"none"` (listed only), as `--attachments`;
/// `attachment_limit` the most bytes of them per message, as `--attachment-limit`. With
/// `search=True`, as `--search`: the archive is made searchable in the browser (`search.html`), indexed by
/// Pagefind at the end; Pagefind is found (the `PAGEFIND` environment variable, `pagefind`
/// on the `PATH`, else this interpreter's `-m pagefind`) before anything is written, and
/// `FileNotFoundError` says how to install it when it is not.
#[pyfunction]
#[pyo3(signature = (source, out, *, finder = None, addresses = "show", checks = false, update = false, attachments = "inline", attachment_limit = DEFAULT_ATTACHMENT_LIMIT, search = false))]
#[allow(clippy::too_many_arguments)]
pub fn build_archive(
    py: Python<'_>,
    source: Source,
    out: std::path::PathBuf,
    finder: Option<&Bound<'_, PyLinkFinder>>,
    addresses: &str,
    checks: bool,
    update: bool,
    attachments: &str,
    attachment_limit: u64,
    search: bool,
) -> PyResult<Py<PyDict>> {
    let attachments = match attachments {
        "inline" => Attachments::Inline,
        "link" => Attachments::Link,
        "none" => Attachments::None,
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "attachments must be \"inline\", \"link\" or \"none\", not {other:?}"
            )))
        }
    };
    let addresses = match addresses {
        "show" => Addresses::Show,
        "obfuscate" => Addresses::Obfuscate,
        other => {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "addresses must be \"show\" or \"obfuscate\", not {other:?}"
            )))
        }
    };
    // As `linkscan linkify`: the readable policy unless a finder is given.
    let finder = match finder {
        Some(f) => f.get().finder.clone(),
        None => linkscan::LinkFinder::builder()
            .policy(linkscan::Policy::Readable)
            .build(),
    };
    let scanner = linkscan_mail::archive::scanner(
        MailScanner::new().finder(finder.clone()),
        attachments,
        attachment_limit,
        addresses,
    );
    let linkifier = linkscan::html::Linkifier::new()
        .finder(finder)
        .checks(checks);
    let pagefind = if search {
        let python: Option<std::ffi::OsString> =
            py.import("sys")?.getattr("executable")?.extract().ok();
        Some(
            Pagefind::find(None, python.as_deref().filter(|p| !p.is_empty()))
                .map_err(pyo3::exceptions::PyFileNotFoundError::new_err)?,
        )
    } else {
        None
    };
    let create = || -> std::io::Result<Archive> {
        let archive = Archive::create(&out)?
            .linkifier(linkifier.clone())
            .checks(checks)
            .addresses(addresses)
            .attachments(attachments, attachment_limit)
            .downloads(true);
        Ok(match &pagefind {
            Some(pagefind) => archive.search(pagefind.clone()),
            None => archive,
        })
    };
    let mut rebuilt = None;
    if let (true, Source::Path(path)) = (update, &source) {
        let updated = py.detach(|| create()?.update(path, &scanner))?;
        match updated {
            Updated::Done {
                added, finished, ..
            } => {
                let d = PyDict::new(py);
                d.set_item("messages", added)?;
                d.set_item("pages", finished.pages)?;
                d.set_item("written", finished.written)?;
                d.set_item("removed", finished.removed)?;
                d.set_item("updated", true)?;
                return Ok(d.unbind());
            }
            Updated::Rebuild(why) => rebuilt = Some(why),
        }
    } else if update {
        rebuilt = Some("an update reads an mbox file, not bytes".to_string());
    }
    let (messages, finished) = match source {
        Source::Path(path) => {
            // Errors at the call, as before the scan: FileNotFoundError, …
            File::open(&path)?;
            let pipeline = Pipeline::new(scanner);
            py.detach(|| -> PyResult<_> {
                let mut archive = create()?.source(&path, pipeline.scanner());
                let inputs = [Input::Path(path.clone())];
                let built = archive.build(&inputs, &pipeline, name, |event| match event {
                    Event::Failed { error, .. }
                    | Event::End {
                        error: Some(error), ..
                    } => Err(std::io::Error::other(os_error(error, &path))),
                    _ => Ok(true),
                })?;
                Ok((built.messages, archive.finish()?))
            })?
        }
        Source::Bytes(bytes) => {
            let reader = open_mbox(Cursor::new(bytes))?;
            py.detach(|| -> std::io::Result<_> {
                let mut archive = create()?;
                let mut messages = 0;
                for raw in MboxReader::new(reader) {
                    let raw = raw?;
                    let message = scanner.scan(raw.bytes());
                    archive.push("-", &message)?;
                    archive.count_read_warnings(raw.warnings().len());
                    messages += 1;
                }
                Ok((messages, archive.finish()?))
            })?
        }
    };
    let d = PyDict::new(py);
    d.set_item("messages", messages)?;
    d.set_item("pages", finished.pages)?;
    d.set_item("written", finished.written)?;
    d.set_item("removed", finished.removed)?;
    d.set_item("updated", false)?;
    if let Some(why) = rebuilt {
        d.set_item("rebuilt", why)?;
    }
    Ok(d.unbind())
}
