"""Reading the A World at War fixture saves and what each one expects.

Each save in tests/fixtures/awaw starts with a comment:

    <!-- fixture: 11.353D fail
         expect: 11.353D 11.65:unchecked -->

``fixture`` names the registered case the save exercises and whether it
should trigger it (``fail``) or not (``pass``).  ``expect`` lists every
result the position must produce besides plain information: a case alone
for an error, ``case:warning`` or ``case:unchecked`` for those findings.
Information findings that report an effect (``facts["applies"]``, such as a
BRP loss) count as triggering their case, as ``case:info``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from validator import runner
from validator.rules import Result
from validator.saves.xml_reader import read_position_file

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "awaw"
_HEADER = re.compile(r"<!--\s*fixture:\s*(\S+)\s+(pass|fail)\s*\n\s*expect:([^\n]*?)(?:\n|-->)")


@dataclass(frozen=True)
class Fixture:
    path: Path
    case: str
    verdict: str
    expect: frozenset[str]

    @property
    def name(self) -> str:
        return self.path.stem


def fixtures() -> list[Fixture]:
    found = []
    for path in sorted(FIXTURES.glob("*.xml")):
        if path.name == "map.xml":
            continue
        match = _HEADER.search(path.read_text(encoding="utf-8"))
        assert match, f"{path.name} has no fixture header"
        expect = frozenset(match.group(3).replace("-->", " ").split())
        found.append(Fixture(path, match.group(1), match.group(2), expect))
    return found


def token(result: Result) -> str | None:
    """How a result appears in an ``expect`` line, or None for plain information."""
    if result.severity == "info":
        return f"{result.case}:info" if result.facts.get("applies") else None
    return str(result.case) if result.severity == "error" else f"{result.case}:{result.severity}"


def results(fixture: Fixture) -> list[Result]:
    return list(runner.iter_results(read_position_file(fixture.path)))
