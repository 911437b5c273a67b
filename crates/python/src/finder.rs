//! The `Link` and `LinkFinder` classes of the Python package.
//!
//! A `LinkFinder` wraps an immutable [`LinkFinder`] (and the [`Linkifier`] built on it),
//! so one object serves any number of Python threads. Every scan borrows the UTF-8 form
//! of the `str` (or the `bytes`) and runs with the GIL released; Python objects are built
//! afterwards, under the GIL, from the plain list of byte ranges the scan returned.
//!
//! Offsets: for a `str`, `Link.start`/`Link.end` are code-point offsets
//! ([`super::offsets`]), so `text[link.start:link.end] == link.text` for every script; for
//! `find_bytes` they are byte offsets into the `bytes`.
//!
//! Options map one to one onto [`LinkFinderBuilder`](linkscan::LinkFinderBuilder) calls in
//! [`PyLinkFinder::new`]: a further option of the library is one more keyword argument
//! and one more builder call there.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyList, PyString, PyTuple};

use super::offsets::CodePoints;
use linkscan::display::{display_link, kind_of, DisplayOptions};
use linkscan::html::Linkifier;
use linkscan::{Link, LinkFinder, LinkKind, Policy, TldPolicy, TldSet, DEFAULT_MAX_LINK_LEN};

/// The scheme before a URL written without one, in `href` and `linkify` (the default of
/// [`Linkifier`]).
const DEFAULT_SCHEME: &str = "https://";

/// A link found in a text. Immutable; equal (and hashed) by all its fields.
#[pyclass(frozen, get_all, module = "linkscan", name = "Link")]
pub struct PyLink {
    /// Offset of the first character (code points for a `str`, bytes for `find_bytes`).
    start: usize,
    /// Offset just past the link, in the same unit as `start`.
    end: usize,
    /// `"url"` or `"email"`.
    kind: &'static str,
    /// The link as written in the text (made once, at the scan: reading it allocates
    /// nothing).
    text: Py<PyString>,
    /// Whether the text spelled a scheme (`http://`, `https://`, `mailto:`).
    has_scheme: bool,
}

impl PyLink {
    /// The fields as a tuple, for equality, hashing and `repr`.
    fn key<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        (
            self.start,
            self.end,
            self.kind,
            self.text.bind(py),
            self.has_scheme,
        )
            .into_pyobject(py)
    }
}

#[pymethods]
impl PyLink {
    /// The target for an `<a href>`: the text, after `https://` (a URL without a scheme)
    /// or `mailto:` (an email without one), its host without Ignored code points (soft
    /// hyphen, zero width space). Made on access: most callers never read it.
    #[getter]
    fn href(&self, py: Python<'_>) -> PyResult<String> {
        let prefix = match (self.has_scheme, self.kind) {
            (true, _) => "",
            (false, "email") => "mailto:",
            (false, _) => DEFAULT_SCHEME,
        };
        let href = format!("{prefix}{}", self.text.bind(py).to_str()?);
        // The host without the invisible (Ignored) code points it may hold.
        Ok(linkscan::format::without_ignored_in_host(&href).into_owned())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Link(start={}, end={}, kind='{}', text={})",
            self.start,
            self.end,
            self.kind,
            self.text.bind(py).repr()?
        ))
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        match other.cast::<PyLink>() {
            Ok(other) => self.key(py)?.eq(other.get().key(py)?),
            Err(_) => Ok(false),
        }
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        self.key(py)?.hash()
    }
}

/// A link as the scan reports it, before Python objects are made: offsets in the
/// caller's unit and the link's byte range in the scanned text.
struct Found {
    link: Link,
    start: usize,
    end: usize,
}

/// The Python list of `found`, whose byte ranges are into `text` (UTF-8: links never
/// contain invalid sequences).
fn py_links<'py>(py: Python<'py>, text: &[u8], found: Vec<Found>) -> PyResult<Bound<'py, PyList>> {
    let links = found.into_iter().map(|f| {
        let link_text = std::str::from_utf8(&text[f.link.range()])
            .map_err(|e| PyValueError::new_err(format!("link is not UTF-8: {e}")))?;
        Bound::new(
            py,
            PyLink {
                start: f.start,
                end: f.end,
                kind: f.link.kind().as_str(),
                text: PyString::new(py, link_text).unbind(),
                has_scheme: f.link.has_scheme(),
            },
        )
    });
    let list = PyList::empty(py);
    for link in links {
        list.append(link?)?;
    }
    Ok(list)
}

/// Finds URLs and email addresses as Unicode UTS #58 specifies.
///
/// urls, emails: which kinds to report (the scan is the same either way).
/// tld_policy: "iana" (the IANA root zone list built in), "syntactic" (any label that
///     could be a TLD) or an iterable of TLDs such as ["com", "рф", "xn--p1ai"].
/// max_link_len: links longer than this many UTF-8 bytes are not reported; None for no
///     limit, exactly as the standard.
/// policy: "conformant" (every link UTS #58 detects) or "readable" (the rules of
///     section 8 that leave out code and file names such as `NEWS.md` or `Proc.new`).
/// public_suffix_hosts: also report URLs whose host is itself a public suffix
///     (`co.uk`, `https://gov.uk/`), which section 1.4 says must not be linked (not
///     conformant); emails are not affected.
///
/// One finder serves any number of threads; its methods are those of the module.
#[pyclass(frozen, module = "linkscan", name = "LinkFinder")]
pub struct PyLinkFinder {
    pub(crate) finder: LinkFinder,
    linkifier: Linkifier,
    /// The arguments, for `repr`.
    description: String,
}

/// The TLD policy named by the `tld_policy` argument.
fn tld_policy(arg: Option<&Bound<'_, PyAny>>) -> PyResult<TldPolicy> {
    let Some(arg) = arg else {
        return Ok(TldPolicy::Iana);
    };
    if let Ok(name) = arg.cast::<PyString>() {
        return match name.to_str()? {
            "iana" => Ok(TldPolicy::Iana),
            "syntactic" => Ok(TldPolicy::Syntactic),
            other => Err(PyValueError::new_err(format!(
                "tld_policy must be \"iana\", \"syntactic\" or a list of TLDs, not {other:?}"
            ))),
        };
    }
    let mut entries = Vec::new();
    for item in arg.try_iter().map_err(|_| {
        PyTypeError::new_err("tld_policy must be \"iana\", \"syntactic\" or a list of TLDs")
    })? {
        let item = item?;
        let entry: String = item
            .extract()
            .map_err(|_| PyTypeError::new_err("each TLD in tld_policy must be a str"))?;
        entries.push(entry);
    }
    let set = TldSet::from_list(&entries).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(TldPolicy::List(std::sync::Arc::new(set)))
}

impl PyLinkFinder {
    /// The finder with the defaults of the library.
    pub(crate) fn default_finder() -> PyLinkFinder {
        PyLinkFinder::from_finder(LinkFinder::new(), "LinkFinder()".to_owned())
    }

    fn from_finder(finder: LinkFinder, description: String) -> PyLinkFinder {
        PyLinkFinder {
            linkifier: Linkifier::new()
                .default_scheme(DEFAULT_SCHEME)
                .finder(finder.clone()),
            finder,
            description,
        }
    }

    /// The links of `text` as [`PyLink`]s with code-point offsets.
    fn links_of_str<'py>(&self, py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyList>> {
        let found = py.detach(|| {
            let mut cursor = CodePoints::new(text.as_bytes());
            self.finder
                .links(text)
                .map(|link| Found {
                    link: link.link(),
                    start: cursor.at(link.start()),
                    end: cursor.at(link.end()),
                })
                .collect()
        });
        py_links(py, text.as_bytes(), found)
    }
}

#[pymethods]
impl PyLinkFinder {
    /// The finder of the options, as the class's docstring says.
    #[new]
    #[pyo3(
        signature = (*, urls = true, emails = true, tld_policy = None, max_link_len = Some(DEFAULT_MAX_LINK_LEN), policy = "conformant", public_suffix_hosts = false),
        // As `help()` shows it: the defaults of `tld_policy` and `max_link_len` by value.
        text_signature = "(*, urls=True, emails=True, tld_policy='iana', max_link_len=65536, policy='conformant', public_suffix_hosts=False)"
    )]
    fn new(
        urls: bool,
        emails: bool,
        tld_policy: Option<&Bound<'_, PyAny>>,
        max_link_len: Option<usize>,
        policy: &str,
        public_suffix_hosts: bool,
    ) -> PyResult<PyLinkFinder> {
        let report = match policy {
            "conformant" => Policy::Conformant,
            "readable" => Policy::Readable,
            other => {
                return Err(PyValueError::new_err(format!(
                    "policy must be \"conformant\" or \"readable\", not {other:?}"
                )))
            }
        };
        let description = format!(
            "LinkFinder(urls={}, emails={}, tld_policy={}, max_link_len={}, policy='{policy}'{})",
            if urls { "True" } else { "False" },
            if emails { "True" } else { "False" },
            match tld_policy {
                Some(p) => p.repr()?.to_string(),
                None => "'iana'".to_owned(),
            },
            max_link_len.map_or("None".to_owned(), |n| n.to_string()),
            if public_suffix_hosts {
                ", public_suffix_hosts=True"
            } else {
                ""
            },
        );
        let finder = LinkFinder::builder()
            .urls(urls)
            .emails(emails)
            .tld_policy(self::tld_policy(tld_policy)?)
            .max_link_len(max_link_len)
            .policy(report)
            .public_suffix_hosts(public_suffix_hosts)
            .build();
        Ok(PyLinkFinder::from_finder(finder, description))
    }

    fn __repr__(&self) -> &str {
        &self.description
    }

    /// find(text: str) -> list[Link]
    ///
    /// The links of `text`, in order, without overlap. Offsets are code points:
    /// `text[link.start:link.end] == link.text`.
    fn find<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
    ) -> PyResult<Bound<'py, PyList>> {
        self.links_of_str(py, text.to_str()?)
    }

    /// finditer(text: str) -> Iterator[Link]
    ///
    /// An iterator over the links of `text` (the scan runs once, at the call).
    fn finditer<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let links = self.links_of_str(py, text.to_str()?)?;
        Ok(links.try_iter()?.into_any())
    }

    /// count(text: str) -> int
    ///
    /// The number of links in `text`, without building them.
    fn count(&self, py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<usize> {
        let text = text.to_str()?;
        Ok(py.detach(|| self.finder.links(text).count()))
    }

    /// find_bytes(data: bytes | bytearray) -> list[Link]
    ///
    /// The links of `data`, which need not be valid UTF-8 (an invalid sequence counts as a
    /// character that ends links). Offsets are bytes: `data[link.start:link.end]` is the
    /// link, UTF-8 encoded.
    fn find_bytes<'py>(
        &self,
        py: Python<'py>,
        data: PyBackedBytes,
    ) -> PyResult<Bound<'py, PyList>> {
        let bytes: &[u8] = &data;
        let found = py.detach(|| {
            self.finder
                .links_bytes(bytes)
                .map(|link| Found {
                    link,
                    start: link.start(),
                    end: link.end(),
                })
                .collect()
        });
        py_links(py, bytes, found)
    }

    /// linkify(text: str) -> str
    ///
    /// `text` as HTML: escaped, with each link in an `<a href>` (`https://` before a URL
    /// written without a scheme, `mailto:` before an email). The links are those of this
    /// finder's policy (`linkscan.linkify` is readable by default).
    fn linkify(&self, py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<String> {
        let text = text.to_str()?;
        Ok(py.detach(|| self.linkifier.linkify(text)))
    }

    /// find_arrow(array) -> pyarrow.RecordBatch
    ///
    /// The links of every row of an Arrow string array (pyarrow `Array`, `ChunkedArray`,
    /// or any object with `__arrow_c_array__`; `string`, `large_string` or
    /// `string_view`), as one record batch with the columns `row` (index of the row),
    /// `start`, `end` (code points), `byte_start`, `byte_end` (UTF-8 bytes), `kind` and
    /// `text`. Null rows have no links. No Python object is made per row or per link.
    fn find_arrow<'py>(
        &self,
        py: Python<'py>,
        array: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        super::arrow::find_arrow(py, &self.finder, array)
    }

    /// redact(text: str, *, replace="<{kind}>", hash_key="") -> str
    ///
    /// `text` with each link replaced by `replace` and every other character kept.
    /// `replace` is a template, as `linkscan redact --replace` takes it: `{kind}` (`URL` or
    /// `EMAIL`), `{host}` (a URL's host, an email's domain), `{hash}` (32 hex digits:
    /// SipHash-2-4, 128 bits, of the link's text keyed by `hash_key`, the same as the
    /// command's for the same key), `{{` and `}}` for braces; any other `{name}` is a
    /// ValueError. Without `hash_key` anyone can hash a guessed address and compare: give
    /// a secret key for personal data.
    #[pyo3(signature = (text, *, replace = linkscan_replace::DEFAULT_TEMPLATE, hash_key = ""))]
    fn redact(
        &self,
        py: Python<'_>,
        text: &Bound<'_, PyString>,
        replace: &str,
        hash_key: &str,
    ) -> PyResult<String> {
        let replacer = super::redact::replacer(replace, hash_key)?;
        super::redact::redact_str(py, &self.finder, &replacer, text)
    }

    /// redact_arrow(array, *, replace="<{kind}>", hash_key="") -> pyarrow.Array
    ///
    /// Every row of an Arrow string array redacted as `redact` does, in one call: a
    /// `pyarrow` string array of the same length (`large_string` for a `large_string`
    /// input, else `string`), null rows kept null. The input is that of `find_arrow`.
    #[pyo3(signature = (array, *, replace = linkscan_replace::DEFAULT_TEMPLATE, hash_key = ""))]
    fn redact_arrow<'py>(
        &self,
        py: Python<'py>,
        array: &Bound<'py, PyAny>,
        replace: &str,
        hash_key: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let replacer = super::redact::replacer(replace, hash_key)?;
        super::redact::redact_arrow(py, &self.finder, &replacer, array)
    }
}

/// escape_url(url: str) -> str
///
/// `url` with the minimal percent-escaping of UTS #58 section 4: only what would stop the
/// URL from being detected whole is escaped, so the result still reads as written.
#[pyfunction]
pub fn escape_url(py: Python<'_>, url: &Bound<'_, PyString>) -> PyResult<String> {
    let url = url.to_str()?;
    Ok(py.detach(|| linkscan::escape_url(url)))
}

/// display(link: str | Link, *, bidi=False) -> str
///
/// The form of a link to show people (UTS #58 section 4 and section 8): minimally escaped,
/// the host in Unicode unless it is spoofable (then in Punycode), Bidi_Control characters
/// percent-escaped. With bidi=True, the link is wrapped in LRI…PDI and each of its fields
/// in LRMs, so that it reads left to right in a right-to-left paragraph. A `str` is read as
/// an email or a URL as the finder would read it alone; a `Link` keeps its kind.
#[pyfunction]
#[pyo3(signature = (link, *, bidi = false))]
pub fn display(py: Python<'_>, link: &Bound<'_, PyAny>, bidi: bool) -> PyResult<String> {
    let options = DisplayOptions::default().with_bidi(bidi);
    if let Ok(found) = link.cast::<PyLink>() {
        let found = found.get();
        let kind = if found.kind == "email" {
            LinkKind::Email
        } else {
            LinkKind::Url
        };
        let text = found.text.bind(py).to_str()?.to_owned();
        return Ok(py.detach(|| display_link(&text, kind, &options)));
    }
    let text = link
        .cast::<PyString>()
        .map_err(|_| PyTypeError::new_err("display() takes a str or a linkscan.Link"))?;
    let text = text.to_str()?;
    Ok(py.detach(|| display_link(text, kind_of(text), &options)))
}

/// check(link: str | Link, *, before="", after="") -> list[str]
///
/// The names of the security checks of UTS #58 section 8 that `link` fails, in a fixed
/// order (empty when it passes them all): `tld_syntax`, `identifier_status`,
/// `bidi_control`, `spoof` (the host is shown in Punycode by `display`: the same test) and
/// `invisible` (a Default_Ignorable_Code_Point in the link, or as the last character of
/// `before` or the first of `after`, the text around the link). A `str` is read as an
/// email or a URL as the finder would read it alone; a `Link` keeps its kind.
#[pyfunction]
#[pyo3(signature = (link, *, before = "", after = ""))]
pub fn check(
    py: Python<'_>,
    link: &Bound<'_, PyAny>,
    before: &str,
    after: &str,
) -> PyResult<Vec<&'static str>> {
    let (text, kind) = if let Ok(found) = link.cast::<PyLink>() {
        let found = found.get();
        let kind = if found.kind == "email" {
            LinkKind::Email
        } else {
            LinkKind::Url
        };
        (found.text.bind(py).to_str()?.to_owned(), kind)
    } else {
        let text = link
            .cast::<PyString>()
            .map_err(|_| PyTypeError::new_err("check() takes a str or a linkscan.Link"))?
            .to_str()?
            .to_owned();
        let kind = kind_of(&text);
        (text, kind)
    };
    let result = py.detach(|| linkscan::checks::check_between(before, &text, after, kind));
    Ok(result.names().collect())
}
