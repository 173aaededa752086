"""A check of file names alone is parsed without argparse, into the arguments the parser gives it.

validator.commands.check.parsed_plainly mirrors the check command's parser
for the one command line it takes; these tests hold it to the parser option
by option, so an option added to the parser and not to it fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from validator import cli
from validator.commands.check import parsed_plainly

TITO_EXAMPLE = str(Path(__file__).resolve().parents[1] / "examples" / "tito" / "overstacked.xml")

PLAIN = [
    ["check", "examples/tito/overstacked.xml"],
    ["check", "a.xml", "b.xml", "c.xml"],
    ["check", "game.vlog"],
    ["check", "check"],
    ["check", "a file with spaces.xml"],
    ["check", ""],
]
NOT_PLAIN = [
    ["check"],
    ["check", "--format", "json", "a.xml"],
    ["check", "a.xml", "--final"],
    ["check", "--", "a.xml"],
    ["check", "-h"],
    ["check", "-1.xml"],
    ["export", "a.vsav"],
    ["games", "list"],
    [],
]


def _by_the_parser(argv: list[str]) -> dict:
    arguments = vars(cli._build_parser(argv).parse_args(argv))
    del arguments["usage_of"]  # the parser to show help with when no handler is named: a plain check has one
    return arguments


@pytest.mark.parametrize("argv", PLAIN, ids=repr)
def test_a_plain_check_has_the_arguments_the_parser_gives_it(argv):
    plain = vars(parsed_plainly(argv))
    parsed = _by_the_parser(argv)
    assert plain.keys() == parsed.keys()
    for name in parsed.keys() - {"handler"}:
        assert plain[name] == parsed[name] and type(plain[name]) is type(parsed[name]), name
    assert plain["handler"].__qualname__ == parsed["handler"].__qualname__
    assert plain["handler"].__closure__[0].cell_contents is parsed["handler"].__closure__[0].cell_contents


@pytest.mark.parametrize("argv", NOT_PLAIN, ids=repr)
def test_any_other_command_line_is_left_to_the_parser(argv):
    assert parsed_plainly(argv) is None


def test_a_plain_check_runs_as_the_parsed_one(monkeypatch, capsys):
    """The same report and exit code whichever way the command line was read."""
    argv = ["check", TITO_EXAMPLE]
    plain_code = cli.main(argv)
    plain = capsys.readouterr()
    monkeypatch.setattr("validator.commands.check.parsed_plainly", lambda argv: None)
    parsed_code = cli.main(argv)
    assert (plain_code, plain) == (parsed_code, capsys.readouterr())
    assert plain_code == 1 and plain.out.endswith(" violations, 15 findings.\n")
