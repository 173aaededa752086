"""The fixture layout every game shares, and the header each fixture save carries.

One folder per game, one folder per registered case, one save per example::

    tests/fixtures/<game>/<case>/pass-<what>.xml
    tests/fixtures/<game>/<case>/fail-<what>.xml
    tests/fixtures/<game>/bad-input/<what>.xml     saves the game must refuse
    tests/fixtures/<game>/<anything>.xml           shared data (a map the saves name)

A case fixture starts, after its XML declaration, with one header comment::

    <!-- fixture: what the position shows, in our own words
         expect: 6.21 error | 9 division-equivalents | the limit is 7
         expect: 7.62B warning
    -->

Each ``expect:`` line names a case (or a lettered item), a severity and,
after ``|`` marks, words that must appear in the message of one of the
results of that case and severity.  The lines are complete: every error,
warning and unchecked result the position draws is listed, and so is every
information result of the fixture's own case, unless its facts say it does
not apply (``"applies": False``).  Other information may be listed too, to
pin it down.  ``fail`` means the fixture's case speaks: it draws a listed
result of its case.  ``pass`` means it stays quiet: nothing of its case but
information.

A move is a pair of saves in a folder named like a fixture, the header in
``after.xml``::

    tests/fixtures/<game>/<case>/pass-<what>/before.xml
    tests/fixtures/<game>/<case>/pass-<what>/after.xml

It draws the position results of ``after.xml`` and the move results of the
difference between the two; a case a move check judges needs a passing and
a failing pair.

A bad-input save says what the game answers in an ``expect-error`` comment::

    <!-- expect-error: line 8 | has the side 'allied' -->

(``line none`` when the problem belongs to no line, such as a map's zones).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from validator.cases import CaseNumber
from validator.rules import SEVERITIES, Result

ROOT = Path(__file__).resolve().parent / "fixtures"
BAD_INPUT = "bad-input"
NOT_CASE_FOLDERS = (BAD_INPUT, "a3r")
"""A game's fixture folders that hold no case fixtures: refusals, and tests/awaw/test_a3r.py's filled-in map data."""
VERDICTS = ("pass", "fail")

_FIRST_COMMENT = re.compile(r"\A<\?xml[^>]*\?>\s*<!--(.*?)-->", re.S)
_EXPECT_ERROR = re.compile(r"<!--\s*expect-error:\s*line (\d+|none)\s*\|(.*?)-->", re.S)
_FIXTURE_NAME = re.compile(r"^(pass|fail)-[a-z0-9][a-z0-9-]*\.xml$")
_PAIR_NAME = re.compile(r"^(pass|fail)-[a-z0-9][a-z0-9-]*$")
BEFORE, AFTER = "before.xml", "after.xml"


class HeaderError(ValueError):
    """A fixture whose header the harness cannot read."""


@dataclass(frozen=True)
class Expectation:
    """One ``expect:`` line: results of this case and severity, with these words in a message."""

    case: CaseNumber
    severity: str
    words: tuple[str, ...]

    def __str__(self) -> str:
        return " | ".join([f"{self.case} {self.severity}", *self.words])


@dataclass(frozen=True)
class Fixture:
    """A case fixture: where it is, what it exercises and what it expects."""

    path: Path
    game: str
    case: CaseNumber
    verdict: str
    description: str
    expectations: tuple[Expectation, ...]

    @property
    def id(self) -> str:
        return f"{self.game}/{self.case}/{self.path.stem}"

    @property
    def is_pair(self) -> bool:
        """A move: a folder holding the save before and the save after."""
        return self.path.is_dir()

    @property
    def header_path(self) -> Path:
        return self.path / AFTER if self.is_pair else self.path


@dataclass(frozen=True)
class BadInput:
    """A save the game must refuse, with the line and words its message names."""

    path: Path
    game: str
    line: int | None
    words: str

    @property
    def id(self) -> str:
        return f"{self.game}/{BAD_INPUT}/{self.path.stem}"


def game_folders(root: Path = ROOT) -> list[Path]:
    return sorted(path for path in root.iterdir() if path.is_dir())


def case_folders(game_folder: Path) -> list[Path]:
    return sorted(path for path in game_folder.iterdir() if path.is_dir() and path.name not in NOT_CASE_FOLDERS)


def read_fixture(path: Path) -> Fixture:
    """The fixture at ``tests/fixtures/<game>/<case>/<verdict>-<what>.xml`` (or a pair's folder), its header read."""
    if path.is_dir():
        if not _PAIR_NAME.match(path.name):
            raise HeaderError(f"the pair folder {path.name} is named neither pass-<what> nor fail-<what>")
        lacking = [name for name in (BEFORE, AFTER) if not (path / name).is_file()]
        if lacking or sorted(item.name for item in path.iterdir()) != [AFTER, BEFORE]:
            raise HeaderError(f"the pair folder {path} holds exactly {BEFORE} and {AFTER}")
        header = path / AFTER
    elif not _FIXTURE_NAME.match(path.name):
        raise HeaderError(f"{path.name} is named neither pass-<what>.xml nor fail-<what>.xml (lower case, hyphens)")
    else:
        header = path
    case = CaseNumber.try_parse(path.parent.name)
    if case is None:
        raise HeaderError(f"{path.parent.name} (the folder of {path.name}) is not a case number")
    text = header.read_text(encoding="utf-8")
    match = _FIRST_COMMENT.match(text)
    if match is None or not match.group(1).lstrip().startswith("fixture:"):
        raise HeaderError(f"{header} does not start with a <!-- fixture: ... --> header after its XML declaration")
    description, expectations = [], []
    for line in match.group(1).lstrip()[len("fixture:"):].splitlines():
        line = line.strip()
        if line.startswith("expect:"):
            expectations.append(_expectation(path, line[len("expect:"):]))
        elif line:
            description.append(line)
    verdict = path.name.split("-")[0]
    return Fixture(path, path.parents[1].name, case, verdict, " ".join(description), tuple(expectations))


def _expectation(path: Path, text: str) -> Expectation:
    head, *words = (part.strip() for part in text.split("|"))
    parts = head.split()
    if len(parts) != 2 or CaseNumber.try_parse(parts[0]) is None or parts[1] not in SEVERITIES:
        raise HeaderError(
            f"{path.name}: 'expect: {text.strip()}' should read 'expect: CASE SEVERITY | words | ...' "
            f"with a severity of {', '.join(SEVERITIES)}"
        )
    if not all(words):
        raise HeaderError(f"{path.name}: 'expect: {text.strip()}' has an empty part between its | marks")
    return Expectation(CaseNumber.parse(parts[0]), parts[1], tuple(words))


def fixture_paths(game_folder: Path) -> list[Path]:
    """Every file and pair folder in the game's case folders: each must be a fixture."""
    return [path for folder in case_folders(game_folder) for path in sorted(folder.iterdir())
            if path.is_file() or path.is_dir()]


def bad_inputs(game_folder: Path) -> list[BadInput]:
    found = []
    for path in sorted((game_folder / BAD_INPUT).glob("*.xml")):
        match = _EXPECT_ERROR.search(path.read_text(encoding="utf-8"))
        if match is None:
            raise HeaderError(f"{path} has no <!-- expect-error: line N | words --> comment")
        line = None if match.group(1) == "none" else int(match.group(1))
        found.append(BadInput(path, game_folder.name, line, match.group(2).strip()))
    return found


def must_be_listed(result: Result, case: CaseNumber) -> bool:
    """Whether a fixture of ``case`` has to list this result in its header."""
    if result.severity != "info":
        return True
    return result.case.is_within(case) and result.facts.get("applies") is not False


def speaks(result: Result, case: CaseNumber) -> bool:
    """Whether the result is the fixture's case speaking: what makes it a failing fixture."""
    return result.case.is_within(case) and must_be_listed(result, case)
