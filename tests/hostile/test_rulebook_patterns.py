"""Every regular expression the rulebook reader runs costs time linear in the line it reads.

Each pattern meets a megabyte of the text most likely to make it backtrack
(long runs of what it repeats, with the thing it needs next missing), and the
cost of that is compared with the cost of an eighth of it.
"""

from __future__ import annotations

import json
import re

import pytest

from validator.rulebook import lines, parser

from tests.hostile.conftest import LINEAR_BOUND
from tests.hostile.cost import measure

MODULES = {"validator.rulebook.parser": parser, "validator.rulebook.lines": lines}
PATTERNS = [(module, name) for module, value in MODULES.items() for name, pattern in vars(value).items()
            if isinstance(pattern, re.Pattern)]

WORST_TEXTS = {
    "spaces": lambda size: "A" + " " * size + "b",
    "spaces before a colon-less end": lambda size: "6.21 TITLE" + " " * size,
    "capitals and spaces": lambda size: "A " * (size // 2) + "x",
    "numbers and dots": lambda size: " 1" + ".1" * (size // 2) + "x",
    "case numbers without titles": lambda size: " 6.21 " * (size // 6) + "x",
    "bullets": lambda size: "• " * (size // 2) + "x",
    "tables": lambda size: "Table " + " " * size + "x",
    "letters": lambda size: "a" * size + ".",
    "a bracketed number never closed": lambda size: "[1" + ".1" * (size // 2) + "x",
}


def test_every_pattern_of_the_rulebook_reader_is_covered():
    assert len(PATTERNS) >= 8
    assert ("validator.rulebook.parser", "_CAPITALS") in PATTERNS


@pytest.mark.parametrize("module, name", PATTERNS)
def test_a_pattern_costs_the_length_of_its_worst_texts(tmp_path, module, name):
    for folder, size in (("small", 128 * 1024), ("large", 1024 * 1024)):
        (tmp_path / folder).mkdir()
        for index, build in enumerate(WORST_TEXTS.values()):
            (tmp_path / folder / f"{index}.txt").write_text(build(size), encoding="utf-8")
    small = json.loads(measure("pattern", tmp_path / "small", argument=[module, name]).summary)
    large = json.loads(measure("pattern", tmp_path / "large", argument=[module, name]).summary)
    for index, shape in enumerate(WORST_TEXTS):
        file = f"{index}.txt"
        assert large[file] / max(small[file], 1e-3) < LINEAR_BOUND, (shape, small[file], large[file])
