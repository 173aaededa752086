"""One input error: every unusable input is an InputError, and the CLI and the web catch that one class.

The command line's handler and the web's upload views are read as source
(AST), so a new ``except`` for one more error type is caught here, not in
review.  The subclasses are listed by where they come from, so an input
error class that stops being one fails its own line.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from validator import info
from validator.commands.common import UsageError
from validator.errors import InputError
from validator.games import UnknownGame
from validator.rulebook.fixups import FixupError
from validator.rulebook.importer import RulebookImportError
from validator.saves.errors import SaveInputError
from validator.saves.uploaded_maps import UnnamedMap
from validator.saves.vassal.errors import VassalFormatError
from validator.saves.vassal.mapping import MappingError
from validator.saves.vassal.sides import UnknownSide
from validator.saves.vassal.translation import ExportError
from validator.web.kept_modules import ModuleTooLarge
from validator.web.uploads import UploadError
from validator.xmlparsing import XmlInputError

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("kind", [
    XmlInputError, SaveInputError, MappingError, ExportError, UnnamedMap, VassalFormatError, UnknownSide,
    RulebookImportError, FixupError, UnknownGame, UsageError, info.UnreadableDatabase, UploadError,
    ModuleTooLarge,
], ids=lambda kind: kind.__name__)
def test_every_input_error_is_an_input_error(kind):
    assert issubclass(kind, InputError)


def test_the_sentence_says_where_as_far_as_it_is_known():
    assert str(InputError("save.xml", "the turn is missing", 3, 7)) == "save.xml, line 3, column 7: the turn is missing"
    assert str(InputError("save.xml", "the turn is missing", 3)) == "save.xml, line 3: the turn is missing"
    assert str(InputError("save.xml", "the file is empty")) == "save.xml: the file is empty"
    error = InputError("", "There is no game 'chess'.")
    assert (str(error), error.source, error.line, error.column) == ("There is no game 'chess'.", "", 0, 0)
    vassal = VassalFormatError("game.vsav", "the entry is empty.", entry="savedGame")
    assert str(vassal) == "game.vsav, entry 'savedGame': the entry is empty."
    assert (vassal.source, vassal.problem) == ("game.vsav", "the entry is empty")


def _handlers(path: Path, function: str) -> list[list[str]]:
    """The names each ``except`` clause of ``function`` catches, clause by clause."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = next(node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == function)
    caught = []
    for handler in (node for node in ast.walk(found) if isinstance(node, ast.ExceptHandler)):
        kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        caught.append([ast.unparse(kind) for kind in kinds])
    return caught


def test_the_command_line_catches_the_input_error_and_the_check_defect_only():
    assert _handlers(ROOT / "validator" / "cli.py", "_run") == [["InputError", "CheckDefectError"],
                                                                ["KeyboardInterrupt"]]


@pytest.mark.parametrize("view", ["check_form", "check_api"])
def test_the_web_upload_views_catch_the_input_error_only(view):
    assert _handlers(ROOT / "validator" / "web" / "checking.py", view) == [["InputError"]]


def test_the_web_turns_input_errors_and_check_defects_into_answers_and_any_other_failure_into_a_logged_one():
    assert _handlers(ROOT / "validator" / "web" / "uploads.py", "answering_problems") == [
        ["UploadError", "HTTPException"], ["InputError"], ["CheckDefectError"], ["Exception"]]
