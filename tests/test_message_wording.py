"""Every message the three games give on their fixtures and examples counts in words.

A message is read by an arbiter, not parsed: "unit(s)" and "1 closed hexes"
make the reader do the grammar.  The plugins count through
validator.wording; this walks every save the tests and examples ship and
looks at what each check actually says.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from validator.runner import iter_results
from validator.saves.xml_reader import read_position_file

ROOT = Path(__file__).resolve().parent.parent
SAVES = sorted(
    [path for path in (ROOT / "tests" / "fixtures" / "tito").glob("[0-9]*/*.xml")]
    + [path for path in (ROOT / "tests" / "fixtures" / "awaw").glob("[0-9]*/*.xml")]
    + [ROOT / "tests" / "fixtures" / "awaw" / "legal-occupied-france.xml"]
    + [path for path in (ROOT / "tests" / "fixtures" / "tww").glob("[0-9]*/*.xml")]
    + list((ROOT / "examples").glob("*/*.xml")),
)
HEDGED_PLURAL = re.compile(r"\w\(s\)|\w\(es\)")
# "1" with a counted noun in the plural, at most one word between ("1 closed hexes", "1 Axis units").
ONE_WITH_A_PLURAL = re.compile(
    r"(?<![\d/.])\b1 (?:[A-Za-z-]+ )?(?:units|hexes|partisans|BRPs|objectives|groups|results|zones|points)\b"
)


def messages(path: Path) -> list[str]:
    game = "tito" if "tito" in path.parts else None
    return [result.message for result in iter_results(read_position_file(path, game))]


def test_there_are_saves_of_every_game():
    games = {path.parent.name if path.parent.name in ("awaw", "tww", "tito") else path.parent.parent.name
             for path in SAVES}
    assert games == {"tito", "awaw", "tww"}


@pytest.mark.parametrize("path", SAVES, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_no_message_hedges_a_plural_or_puts_one_with_a_plural(path):
    said = messages(path)
    assert not [message for message in said if HEDGED_PLURAL.search(message)]
    assert not [message for message in said if ONE_WITH_A_PLURAL.search(message)]
