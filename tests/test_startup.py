"""A command imports what it needs: ``--version`` no game, web, rulebook or VASSAL code; a check only its game's plugin.

Measured as the modules a fresh interpreter holds once the command has run
(``sys.modules``, written to a file when it ends), never as a time.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
TITO_EXAMPLE = CHECKOUT / "examples" / "tito" / "overstacked.xml"
HEAVY = ("plugin", "validator.web", "validator.rulebook", "validator.saves.vassal", "validator.store",
         "validator.catalogue", "flask", "jinja2", "werkzeug", "sqlite3", "importlib.metadata")


LISTING = """
import sys
from validator.cli import main
try:
    main(sys.argv[2:])
finally:
    with open(sys.argv[1], "w", encoding="utf-8") as listing:
        listing.write("\\n".join(sorted(sys.modules)))
"""


def imported_by(*arguments: str, folder: Path) -> set[str]:
    listing = folder / "modules.txt"
    completed = subprocess.run([sys.executable, "-c", LISTING, str(listing), *arguments], capture_output=True,
                               text=True, cwd=CHECKOUT, env=os.environ)
    assert completed.returncode in (0, 1), completed.stderr[-2000:]
    return set(listing.read_text(encoding="utf-8").split())


def under(modules: set[str], *packages: str) -> set[str]:
    return {module for module in modules if any(module == package or module.startswith(package + ".")
                                                 for package in packages)}


def test_the_version_imports_no_game_web_rulebook_vassal_or_store_code(tmp_path):
    modules = imported_by("--version", folder=tmp_path)
    assert "validator.cli" in modules  # the listing is real
    assert under(modules, *HEAVY) == set()


def test_a_check_of_a_tito_save_imports_tito_alone_and_no_web_rulebook_vassal_or_store_code(tmp_path):
    modules = imported_by("check", str(TITO_EXAMPLE), folder=tmp_path)
    assert "plugin.tito" in modules
    assert under(modules, "plugin.awaw", "plugin.tww") == set()
    assert under(modules, "validator.web", "validator.rulebook", "validator.saves.vassal", "validator.store",
                 "validator.catalogue", "sqlite3", "importlib.metadata", "flask", "jinja2") == set()


def test_a_text_check_of_a_tito_save_imports_no_picture_move_logging_or_json_code(tmp_path):
    """What only a page, a move, a log line or JSON output needs is imported when it is asked for."""
    modules = imported_by("check", str(TITO_EXAMPLE), folder=tmp_path)
    assert "plugin.tito.validation" in modules  # the save was read and checked
    assert under(modules, "plugin.tito.picture", "validator.svg", "validator.moves.diff", "logging",
                 "json") == set()


def test_a_check_of_file_names_alone_imports_no_argument_parser(tmp_path):
    """Its arguments are the defaults (validator.commands.check.parsed_plainly); an option needs the parser."""
    assert "argparse" not in imported_by("check", str(TITO_EXAMPLE), folder=tmp_path)
    assert "argparse" in imported_by("check", "--format", "json", str(TITO_EXAMPLE), folder=tmp_path)


def test_the_tito_picture_is_drawn_through_the_game_as_before():
    from lxml import etree

    from validator import games
    from validator.runner import check
    from validator.saves.xml_reader import read_position_file

    position = read_position_file(TITO_EXAMPLE)
    svg = etree.fromstring(games.get("tito").picture(position, check(position)).encode())
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"


def _command_parsers(parser) -> dict:
    """The parser of each command a parser knows, by name."""
    import argparse

    action = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    return dict(action.choices)


def test_the_command_table_names_every_command_the_modules_register_in_the_listed_order():
    from validator import cli

    assert list(_command_parsers(cli._build_parser())) == list(cli.COMMANDS)


def test_a_command_parsed_alone_has_the_same_help_as_in_the_whole_parser():
    from validator import cli

    whole = _command_parsers(cli._build_parser())
    for name in cli.COMMANDS:
        alone = _command_parsers(cli._build_parser([name]))
        assert list(alone) == [command for command, module in cli.COMMANDS.items()
                               if module == cli.COMMANDS[name]]
        assert alone[name].format_help() == whole[name].format_help()


def test_the_version_alone_is_answered_as_the_parser_answers_it(capsys):
    import pytest

    from validator import __version__, cli

    with pytest.raises(SystemExit) as alone:
        cli.main(["--version"])
    answered = capsys.readouterr().out
    with pytest.raises(SystemExit) as parsed:
        cli._build_parser().parse_args(["--version"])
    assert alone.value.code == parsed.value.code == 0
    assert answered == capsys.readouterr().out == f"referee {__version__}\n"
