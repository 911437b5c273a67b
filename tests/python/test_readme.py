"""The README's Python examples (the ```python blocks of its "Python" section), run in
order; they carry their own asserts. The Spark one needs pyspark and Java."""

from __future__ import annotations

import re

import pytest

from conftest import REPO, require


def python_blocks() -> list[str]:
    readme = (REPO / "README.md").read_text("utf-8")
    section = re.search(r"^## Python\n(.*?)^## ", readme, re.S | re.M)
    assert section, "README has no Python section"
    blocks = re.findall(r"^```python\n(.*?)^```", section.group(1), re.S | re.M)
    assert len(blocks) >= 4, f"only {len(blocks)} Python examples"
    return blocks


BLOCKS = python_blocks()


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_python_example(index):
    code = BLOCKS[index]
    if "pyspark" in code:
        require("pyspark", program="java")
    namespace: dict = {}
    try:
        exec(compile(code, f"README.md python example {index + 1}", "exec"), namespace)
    finally:
        if "spark" in namespace:
            namespace["spark"].stop()
