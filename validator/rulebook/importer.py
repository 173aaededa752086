"""Importing a user's own copy of a case-numbered rulebook.

Reading checks every file before anything is parsed (exists, not empty, not
binary, UTF-8, not too large); fixups are applied or refused as a whole; the
parsed rulebook must hold cases from every file.  Any problem raises
:class:`RulebookImportError` with a sentence naming the file and, where there
is one, the line -- and nothing has been stored yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from validator.errors import InputError
from validator.rulebook import fixups as fixup_module
from validator.rulebook.fixups import FixupError, SourceText
from validator.rulebook.lines import logical_lines
from validator.rulebook.model import Rulebook
from validator.rulebook.parser import RulebookParser

MAX_FILE_BYTES = 8 * 1024 * 1024


class RulebookImportError(InputError):
    """A rulebook file or fixups file that cannot be imported, and why."""


@dataclass(frozen=True)
class RulebookFile:
    name: str
    text: str


def read_file(path: Path) -> RulebookFile:
    """Read one rulebook file, refusing anything that is not a plain-text rulebook."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise RulebookImportError(
                path, f"{size:,} bytes is more than a rulebook text should be "
                f"(the limit is {MAX_FILE_BYTES:,}); is it the right file?"
            )
        data = path.read_bytes()
    except FileNotFoundError:
        raise RulebookImportError(path, "no such file.") from None
    except IsADirectoryError:
        raise RulebookImportError(path, "is a folder, not a rulebook text file.") from None
    except OSError as error:
        raise RulebookImportError(path, f"cannot be read ({error.strerror}).") from None
    return decode(path.name, data, str(path))


def decode(name: str, data: bytes, shown_as: str | None = None) -> RulebookFile:
    """Check and decode the bytes of one rulebook file."""
    where = shown_as or name
    if not data.strip():
        raise RulebookImportError(where, "the file is empty; import the rulebook's text file.")
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise RulebookImportError(
            where, f"line {line} holds a NUL byte, so this is a binary file, not a plain-text "
            "rulebook. Export the rulebook as UTF-8 text and import that."
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise RulebookImportError(
            where, f"byte 0x{data[error.start]:02x} is not UTF-8. Save the rulebook as UTF-8 text and import it again.",
            line, column,
        ) from None
    return RulebookFile(name, text.replace("\r\n", "\n").replace("\r", "\n"))


def import_texts(
    game: str,
    files: list[RulebookFile],
    fixups: list[fixup_module.Fixup] | None = None,
    fixups_origin: str = "fixups",
) -> Rulebook:
    """Parse the files of one game into a single rulebook."""
    names = [file.name for file in files]
    if len(set(names)) != len(names):
        raise RulebookImportError("", "The same file name is given twice; give each rulebook file once.")
    sources = [SourceText.from_text(file.name, file.text) for file in files]
    repairs: list[str] = []
    notes = {}
    if fixups:
        try:
            repairs, notes = fixup_module.apply(fixups, sources, fixups_origin)
        except FixupError as error:
            raise RulebookImportError(error.source, error.problem, error.line, error.column) from None
    parser = RulebookParser(game)
    for source in sources:
        before = len(parser.book.cases)
        parser.feed(logical_lines(source.name, source.lines))
        if len(parser.book.cases) == before:
            raise RulebookImportError(
                source.name, "no case numbers found (no line starts like '6.2 Title', "
                "'• 6.21 ...' or '11.353 TITLE: ...'). Is this the game's rulebook?"
            )
    book = parser.finish()
    for number, case_notes in notes.items():
        if number not in book.cases:
            raise RulebookImportError(fixups_origin, f"a flag names case {number}, which the rulebook does not have.")
        book.cases[number].notes.extend(case_notes)
    book.sources = names
    book.repairs = repairs
    return book
