"""The package as Python users expect it: its version, a namespace that holds its API and
nothing else, ``linkify`` readable by default as the command's is, and the docstrings that
``help()`` shows."""

import importlib.metadata
import pydoc
import re
import types

import pytest

import linkscan
import linkscan.mail
from conftest import REPO


def cargo_version() -> str:
    manifest = (REPO / "crates" / "python" / "Cargo.toml").read_text("utf-8")
    package = manifest.split("[package]", 1)[1].split("\n[", 1)[0]
    return re.search(r'^version\s*=\s*"([^"]+)"', package, re.M).group(1)


def test_version_is_the_crates():
    assert linkscan.__version__ == cargo_version()
    assert importlib.metadata.version("linkscan") == linkscan.__version__


def test_namespace_holds_the_api_and_nothing_else():
    public = {name for name in dir(linkscan) if not name.startswith("_")}
    submodules = {name for name in public if isinstance(getattr(linkscan, name), types.ModuleType)}
    assert submodules <= {"arrow", "mail", "polars", "spark"}, submodules
    assert public - submodules == set(linkscan.__all__)
    assert len(linkscan.__all__) == len(set(linkscan.__all__))
    for leftover in ("Iterator", "TYPE_CHECKING", "annotations", "pyarrow", "typing", "Literal"):
        assert not hasattr(linkscan, leftover), leftover
    star: dict = {}
    exec("from linkscan import *", star)
    assert set(star) - {"__builtins__"} == set(linkscan.__all__)
    assert set(linkscan.mail.__all__) <= set(dir(linkscan.mail))


def test_linkify_is_readable_by_default_as_the_commands():
    assert linkscan.linkify("see README.md") == "see README.md"
    assert linkscan.linkify("see README.md", policy="readable") == "see README.md"
    link = '<bdi dir="ltr"><a href="https://README.md">README.md</a></bdi>'
    assert linkscan.linkify("see README.md", policy="conformant") == f"see {link}"
    text = "see NEWS.md, Proc.new and example.com"
    assert linkscan.linkify(text).count("<a href=") == 1
    assert linkscan.linkify(text, policy="conformant").count("<a href=") == 3
    # A finder's own linkify follows its policy; the module's readable one is this.
    assert linkscan.LinkFinder(policy="readable").linkify(text) == linkscan.linkify(text)
    assert linkscan.LinkFinder().linkify(text) == linkscan.linkify(text, policy="conformant")
    # `find` stays conformant, as `linkscan find`.
    assert [l.text for l in linkscan.find(text)] == ["NEWS.md", "Proc.new", "example.com"]
    with pytest.raises(ValueError, match="readable"):
        linkscan.linkify(text, policy="lenient")
    with pytest.raises(TypeError):
        linkscan.linkify(text, "conformant")


def test_linkify_equals_the_command_line(linkscan_bin):
    import subprocess

    text = "see README.md, Proc.new and example.com or me@example.org?\n"
    for args, policy in [([], "readable"), (["--policy", "conformant"], "conformant")]:
        out = subprocess.run(
            [str(linkscan_bin), "linkify", *args, "-"], input=text.encode(), capture_output=True, check=True
        ).stdout.decode()
        assert out == linkscan.linkify(text, policy=policy), args


def first_line(doc: str) -> str:
    return next(line.strip() for line in doc.splitlines() if line.strip())


def flat(text: str) -> str:
    return " ".join(text.split())


def documented(obj) -> list:
    """``obj`` and, for a class, its public methods and properties."""
    found = [obj]
    if isinstance(obj, type):
        found += [
            value
            for name, value in vars(obj).items()
            if not name.startswith("_") and (callable(value) or isinstance(value, property) or hasattr(value, "__get__"))
        ]
    return found


PUBLIC = [getattr(linkscan, name) for name in linkscan.__all__ if callable(getattr(linkscan, name))] + [
    getattr(linkscan.mail, name) for name in linkscan.mail.__all__
]


@pytest.mark.parametrize("obj", PUBLIC, ids=lambda o: o.__name__)
def test_help_shows_every_docstring(obj):
    """``help(x)`` (``pydoc.render_doc``) shows the docstring of each public function and
    class, and of each public method and property of a class."""
    page = flat(pydoc.render_doc(obj, renderer=pydoc.plaintext))
    for item in documented(obj):
        doc = item.__doc__
        assert doc and doc.strip(), f"{obj.__name__}: {item!r} has no docstring"
        assert flat(first_line(doc)) in page, f"help({obj.__name__}) lacks {first_line(doc)!r}"


def test_help_of_the_module_shows_its_api():
    page = flat(pydoc.render_doc(linkscan, renderer=pydoc.plaintext))
    assert flat(first_line(linkscan.__doc__)) in page
    assert "readable" in page and linkscan.__version__ in page
    for name in linkscan.__all__:
        obj = getattr(linkscan, name)
        assert name in page, name
        if callable(obj):
            assert flat(first_line(obj.__doc__)) in page, name
    assert "TYPE_CHECKING" not in page and "annotations" not in page


def test_help_shows_the_finders_options_with_their_defaults():
    import inspect

    signature = str(inspect.signature(linkscan.LinkFinder))
    assert "tld_policy='iana'" in signature and "max_link_len=65536" in signature, signature
    page = pydoc.render_doc(linkscan.LinkFinder, renderer=pydoc.plaintext)
    for option in ("urls, emails:", "tld_policy:", "max_link_len:", "policy:", "public_suffix_hosts:"):
        assert option in page, option


def test_the_core_needs_no_extra():
    """What ``pip install .`` gives works without the extras' packages: ``linkscan`` and
    ``linkscan.mail`` import and scan with pyarrow, pyspark, pandas and ray unimportable."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "for name in ('pyarrow', 'pyspark', 'pandas', 'ray', 'polars'): sys.modules[name] = None\n"
        "import linkscan, linkscan.mail\n"
        "assert [l.text for l in linkscan.find('see example.com')] == ['example.com']\n"
        "assert linkscan.linkify('NEWS.md') == 'NEWS.md'\n"
        "assert linkscan.redact('see example.com', replace='[{host}]') == 'see [example.com]'\n"
        "print(linkscan.__version__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == linkscan.__version__
    requires = importlib.metadata.requires("linkscan") or []
    assert all("extra ==" in r for r in requires), requires
    extras = importlib.metadata.metadata("linkscan").get_all("Provides-Extra")
    assert {"arrow", "spark", "ray", "polars", "test"} <= set(extras), extras
