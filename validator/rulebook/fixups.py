"""Repairs for page-extraction damage, kept as data: positions and operations.

A fixups file is TOML with a list of ``[[fixup]]`` tables.  Each names a
source line by number and by fingerprint -- the first 12 hex digits of the
SHA-256 of the line's text -- so the file carries no rulebook text and
refuses to touch a different text.  Operations:

``delete``             drop the line (a bare page number, a page footer);
``join``               append the line to the end of line ``to_line`` (with
                       its own ``to_fingerprint``), joined by one space: a
                       fragment the extraction printed out of place;
``delete-characters``  remove the characters at ``columns`` (1-based), each
                       of which must be a space: words broken by stray spaces;
``flag``               keep the text but attach ``note`` to case ``case``:
                       damage that cannot be repaired from the text itself.

Every fixup has a ``reason`` that the import summary prints.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path

from validator.cases import CaseNumber
from validator.errors import InputError

OPERATIONS = ("delete", "join", "delete-characters", "flag")


class FixupError(InputError):
    """The fixups file is unreadable or does not match the texts."""


@dataclass(frozen=True)
class Fixup:
    operation: str
    line: int
    fingerprint: str
    reason: str
    to_line: int = 0
    to_fingerprint: str = ""
    columns: tuple[int, ...] = ()
    case: CaseNumber | None = None
    note: str = ""


@dataclass
class SourceText:
    """One rulebook file as lines, with the notes the fixups attach to cases."""

    name: str
    lines: list[str | None]  # None marks a deleted line; numbering never shifts

    @classmethod
    def from_text(cls, name: str, text: str) -> SourceText:
        return cls(name, list(text.split("\n")))


def fingerprint(line: str) -> str:
    return hashlib.sha256(line.encode("utf-8")).hexdigest()[:12]


def load(path: Path) -> list[Fixup]:
    """Read and check a fixups file; every problem names the file and the fixup."""
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise FixupError(path, "the fixups file does not exist.") from None
    except tomllib.TOMLDecodeError as error:
        raise FixupError(path, f"not valid TOML ({error}).") from None
    except (OSError, UnicodeDecodeError) as error:
        raise FixupError(path, f"cannot be read ({error}).") from None
    entries = data.get("fixup")
    if not isinstance(entries, list) or not entries:
        raise FixupError(path, "no [[fixup]] entries; a fixups file lists at least one repair.")
    return [_parse_entry(path, index, entry) for index, entry in enumerate(entries, start=1)]


def _parse_entry(path: Path, index: int, entry: dict) -> Fixup:
    where = f"{path}: fixup {index}"
    operation = entry.get("operation")
    if operation not in OPERATIONS:
        raise FixupError(where, f"operation must be one of {', '.join(OPERATIONS)}, not {operation!r}.")
    for key in ("line", "fingerprint", "reason"):
        if key not in entry:
            raise FixupError(where, f"the key '{key}' is missing.")
    if not isinstance(entry["line"], int) or entry["line"] < 1:
        raise FixupError(where, "'line' must be a line number (1 or more).")
    required = {"join": ("to_line", "to_fingerprint"), "delete-characters": ("columns",), "flag": ("case", "note")}
    for key in required.get(operation, ()):
        if key not in entry:
            raise FixupError(where, f"a {operation} fixup needs '{key}'.")
    case = None
    if operation == "flag":
        case = CaseNumber.try_parse(str(entry["case"]))
        if case is None:
            raise FixupError(where, f"{entry['case']!r} is not a case number.")
    return Fixup(
        operation=operation,
        line=entry["line"],
        fingerprint=str(entry["fingerprint"]),
        reason=str(entry["reason"]),
        to_line=int(entry.get("to_line", 0)),
        to_fingerprint=str(entry.get("to_fingerprint", "")),
        columns=tuple(sorted(int(column) for column in entry.get("columns", ()))),
        case=case,
        note=str(entry.get("note", "")),
    )


def apply(fixups: list[Fixup], sources: list[SourceText], origin: str) -> tuple[list[str], dict[CaseNumber, list[str]]]:
    """Apply every fixup to the source it matches, or raise before changing anything.

    Returns the repair log and the notes to attach to cases.
    """
    placed = [(fixup, _matching_source(fixup, sources, origin)) for fixup in fixups]
    log: list[str] = []
    notes: dict[CaseNumber, list[str]] = {}
    # Character deletions first: their columns refer to the untouched line.
    order = {"delete-characters": 0, "flag": 1, "join": 2, "delete": 3}
    for fixup, source in sorted(placed, key=lambda pair: order[pair[0].operation]):
        line = source.lines[fixup.line - 1]
        if line is None:
            raise FixupError(origin, f"two fixups remove line {fixup.line} of {source.name}; keep one.")
        if fixup.operation == "delete-characters":
            source.lines[fixup.line - 1] = "".join(
                character for column, character in enumerate(line, start=1) if column not in fixup.columns
            )
        elif fixup.operation == "join":
            target = source.lines[fixup.to_line - 1] or ""
            source.lines[fixup.to_line - 1] = target.rstrip() + " " + line.strip()
            source.lines[fixup.line - 1] = None
        elif fixup.operation == "delete":
            source.lines[fixup.line - 1] = None
        else:
            notes.setdefault(fixup.case, []).append(fixup.note)
        log.append(f"{source.name} line {fixup.line}: {fixup.operation} ({fixup.reason})")
    return log, notes


def _matching_source(fixup: Fixup, sources: list[SourceText], origin: str) -> SourceText:
    for source in sources:
        if _line_matches(source, fixup.line, fixup.fingerprint) and (
            fixup.operation != "join" or _line_matches(source, fixup.to_line, fixup.to_fingerprint)
        ):
            if fixup.operation == "delete-characters":
                _check_columns(fixup, source, origin)
            return source
    names = ", ".join(source.name for source in sources)
    raise FixupError(
        origin, f"the {fixup.operation} fixup for line {fixup.line} does not match {names}: "
        "no file has the expected text at that line. These fixups were written for a different "
        "copy of the rulebook; import without them (--no-fixups) or correct the fixups file."
    )


def _line_matches(source: SourceText, number: int, expected: str) -> bool:
    if not 1 <= number <= len(source.lines):
        return False
    line = source.lines[number - 1]
    return line is not None and fingerprint(line) == expected


def _check_columns(fixup: Fixup, source: SourceText, origin: str) -> None:
    line = source.lines[fixup.line - 1] or ""
    for column in fixup.columns:
        if not 1 <= column <= len(line) or line[column - 1] != " ":
            raise FixupError(
                origin, f"the delete-characters fixup for {source.name} line {fixup.line} "
                f"expects a space at column {column}, and there is none."
            )
