"""The re-like API: functions, LinkFinder options, Link, errors, the GIL."""

from __future__ import annotations

import sys
import threading

import pytest

import linkscan
from linkscan import Link, LinkFinder

MIXED = (
    "Voir exemple.fr/été, écrire à zoë@exemple.fr; 日本語 https://ja.wikipedia.org/wiki/東京 "
    "и example.com/wiki/Ракь_(планета). 😀 mailto:x@example.org 𝄞 ex.com"
)


def test_find_gives_code_point_offsets_for_every_width():
    links = linkscan.find(MIXED)
    assert [l.text for l in links] == [
        "exemple.fr/été",
        "zoë@exemple.fr",
        "https://ja.wikipedia.org/wiki/東京",
        "example.com/wiki/Ракь_(планета)",
        "mailto:x@example.org",
        "ex.com",
    ]
    for link in links:
        assert MIXED[link.start : link.end] == link.text
    # The last link's offsets count the astral characters (😀, 𝄞) as one each.
    assert links[-1].start == MIXED.index("ex.com", len(MIXED) - 8)


def test_link_fields_and_href():
    url, email, scheme_url, _, mailto, _ = linkscan.find(MIXED)
    assert (url.kind, url.has_scheme, url.href) == ("url", False, "https://exemple.fr/été")
    assert (email.kind, email.has_scheme, email.href) == ("email", False, "mailto:zoë@exemple.fr")
    assert (scheme_url.has_scheme, scheme_url.href) == (True, scheme_url.text)
    assert (mailto.kind, mailto.has_scheme, mailto.href) == ("email", True, "mailto:x@example.org")


def test_link_is_frozen_hashable_and_compares_by_value():
    a = linkscan.find("see x.com")[0]
    b = linkscan.find("see x.com")[0]
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != linkscan.find("see y.com")[0]
    with pytest.raises(AttributeError):
        a.start = 0  # type: ignore[misc]
    assert repr(a) == "Link(start=4, end=9, kind='url', text='x.com')"
    assert isinstance(a, Link)


def test_finditer_and_count_agree_with_find():
    links = linkscan.find(MIXED)
    it = linkscan.finditer(MIXED)
    assert iter(it) is it
    assert list(it) == links
    assert linkscan.count(MIXED) == len(links) == 6
    assert linkscan.find("") == [] and linkscan.count("no links here") == 0


def test_find_bytes_gives_byte_offsets_and_takes_invalid_utf8():
    data = b"old \xffexample.com\xfe/path caf\xc3\xa9.fr/\xc3\xa9t\xc3\xa9"
    links = linkscan.find_bytes(data)
    assert [(l.start, l.end, l.text) for l in links] == [
        (5, 16, "example.com"),
        (23, 37, "café.fr/été"),
    ]
    for link in links:
        assert data[link.start : link.end].decode() == link.text
    assert linkscan.find_bytes(bytearray(data)) == links


def test_linkify_escapes_and_links():
    html = linkscan.linkify('a <b> "x.com" & me@x.com')
    assert html == (
        'a &lt;b&gt; &quot;<bdi dir="ltr"><a href="https://x.com">x.com</a></bdi>&quot; &amp; '
        '<bdi dir="ltr"><a href="mailto:me@x.com">me@x.com</a></bdi>'
    )


def test_escape_url_escapes_only_what_would_break_detection():
    assert linkscan.escape_url("https://example.com/a b") == "https://example.com/a%20b"
    assert linkscan.escape_url("https://example.com/αβγ") == "https://example.com/αβγ"


def test_display_shows_links_as_people_should_see_them():
    assert linkscan.display("https://xn--bcher-kva.de/b%C3%BCcher") == "https://bücher.de/bücher"
    # A spoofable host (Cyrillic letters passing for "apple") stays in Punycode.
    assert linkscan.display("https://\u0430\u0440\u0440\u04cf\u0435.com/") == (
        "https://xn--80ak6aa92e.com/"
    )
    # Bidi_Control characters never reach the reader raw.
    assert linkscan.display("example.com/\u202efdp.exe") == "example.com/%E2%80%AEfdp.exe"
    isolated = linkscan.display("https://example.com/a", bidi=True)
    assert isolated.startswith("\u2066") and isolated.endswith("\u2069")
    assert isolated.replace("\u200e", "")[1:-1] == "https://example.com/a"
    # A Link keeps the kind it was found with; a str is read as the finder reads it alone.
    (email,) = linkscan.find("write to zoë@exemple.fr")
    assert linkscan.display(email) == "zoë@exemple.fr"
    assert linkscan.display("mailto:a@example.com").endswith("a@example.com")
    with pytest.raises(TypeError):
        linkscan.display(42)


def test_check_gives_the_same_spoof_verdict_as_display():
    for host, spoof in [
        ("example.com", False),
        ("bücher.de", False),
        ("\u0440aypal.com", True),
        ("\u0430\u0440\u0440\u04cf\u0435.com", True),
    ]:
        url = f"https://{host}/a"
        assert ("spoof" in linkscan.check(url)) == spoof, host
        shown = linkscan.display(url)
        assert ("xn--" in shown) == spoof, (host, shown)
    assert linkscan.check("example.c0m") == ["tld_syntax"]
    assert linkscan.check("example.com/\u202ex") == ["bidi_control"]
    assert linkscan.check("example.com/a\u00adb") == ["invisible"]
    assert linkscan.check("pal.com", before="pay\u200b") == ["invisible"]
    assert linkscan.check("pal.com", before="pay ") == []
    (link,) = linkscan.find("write to x\u200dy@example.com")
    assert link.kind == "email" and linkscan.check(link) == []
    with pytest.raises(TypeError):
        linkscan.check(42)


def test_data_versions_are_exposed():
    assert linkscan.UNICODE_VERSION.count(".") == 2
    assert linkscan.UNICODE_VERSION.split(".")[0].isdigit()
    assert "Version" in linkscan.TLD_LIST_VERSION


def test_readable_policy_leaves_out_code_and_file_names():
    text = "See NEWS.md, Proc.new and tm.tm_year at rubygems.org or bit.ly"
    assert [l.text for l in linkscan.find(text)] == [
        "NEWS.md", "Proc.new", "tm.tm", "rubygems.org", "bit.ly",
    ]
    readable = LinkFinder(policy="readable")
    assert [l.text for l in readable.find(text)] == ["rubygems.org", "bit.ly"]
    assert "policy='readable'" in repr(readable)
    with pytest.raises(ValueError):
        LinkFinder(policy="strict")


def test_kind_options():
    text = "x.com and me@y.com"
    assert [l.text for l in LinkFinder(emails=False).find(text)] == ["x.com"]
    assert [l.text for l in LinkFinder(urls=False).find(text)] == ["me@y.com"]
    assert LinkFinder(urls=False, emails=False).count(text) == 0


def test_tld_policies():
    text = "see example.invalid and example.com"
    assert [l.text for l in LinkFinder().find(text)] == ["example.com"]
    assert [l.text for l in LinkFinder(tld_policy="iana").find(text)] == ["example.com"]
    syntactic = LinkFinder(tld_policy="syntactic").find(text)
    assert [l.text for l in syntactic] == ["example.invalid", "example.com"]
    only = LinkFinder(tld_policy=["invalid"]).find(text)
    assert [l.text for l in only] == ["example.invalid"]
    # A generator works too, and xn-- entries add their Unicode form.
    assert LinkFinder(tld_policy=(t for t in ["xn--p1ai"])).count("пример.рф") == 1


def test_max_link_len():
    text = "x.com/" + "a" * 100 + " y.com"
    assert [l.text for l in LinkFinder(max_link_len=50).find(text)] == ["y.com"]
    assert LinkFinder(max_link_len=None).count(text) == 2
    assert LinkFinder().count(text) == 2
    assert linkscan.DEFAULT_MAX_LINK_LEN == 65536


def test_repr_of_finder_names_its_options():
    assert repr(LinkFinder(emails=False, tld_policy="syntactic", max_link_len=None)) == (
        "LinkFinder(urls=True, emails=False, tld_policy='syntactic', max_link_len=None, "
        "policy='conformant')"
    )


def test_bad_arguments_raise_clear_errors():
    with pytest.raises(ValueError, match="tld_policy"):
        LinkFinder(tld_policy="icann")
    with pytest.raises(ValueError, match="bad..tld"):
        LinkFinder(tld_policy=["bad..tld"])
    with pytest.raises(TypeError, match="tld_policy"):
        LinkFinder(tld_policy=3)
    with pytest.raises(TypeError, match="str"):
        LinkFinder(tld_policy=["com", 3])
    with pytest.raises(TypeError):
        LinkFinder("iana")  # keyword-only
    with pytest.raises(OverflowError):
        LinkFinder(max_link_len=-1)
    with pytest.raises(TypeError):
        linkscan.find(b"x.com")  # bytes go to find_bytes
    with pytest.raises(TypeError):
        linkscan.find_bytes("x.com")
    with pytest.raises(TypeError):
        linkscan.find(None)


def test_lone_surrogates_are_an_error_not_a_crash():
    with pytest.raises(UnicodeEncodeError):
        linkscan.find("x.com \udcff")


def test_scans_release_the_gil():
    # With a 100 s switch interval the interpreter never takes the GIL from the scanning
    # thread; the main thread can only run while the scan has released it. It wakes up
    # while the scan is still going (`done` not yet set) only if the scan released it.
    text = "see example.com/path, and write to me@example.org. " * 400_000
    started = threading.Event()
    state = {"done": False, "links": 0}

    def scan():
        started.set()
        state["links"] = linkscan.count(text)
        state["done"] = True

    old = sys.getswitchinterval()
    sys.setswitchinterval(100)
    try:
        worker = threading.Thread(target=scan)
        worker.start()
        started.wait()
        seen_done = state["done"]
        worker.join()
    finally:
        sys.setswitchinterval(old)
    assert state["links"] == 800_000
    assert seen_done is False, "the main thread could not run during the scan"


def test_module_exports_are_typed_and_documented():
    import importlib.resources

    stubs = importlib.resources.files("linkscan") / "_linkscan.pyi"
    assert "class LinkFinder" in stubs.read_text()
    assert (importlib.resources.files("linkscan") / "py.typed").is_file()
    for name in linkscan.__all__:
        obj = getattr(linkscan, name)
        if callable(obj):
            assert obj.__doc__, f"{name} has no docstring"
    assert LinkFinder.find.__doc__ and "code points" in LinkFinder.find.__doc__


def test_docstring_examples():
    import doctest

    import linkscan.mail

    for module in (linkscan, linkscan.mail):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__
    assert doctest.testmod(linkscan).attempted >= 1
