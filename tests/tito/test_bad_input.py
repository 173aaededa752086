"""Saves a Tito game cannot use: exit code 2, the file and line named, never a traceback.

Each file in ``tests/fixtures/tito/bad-input/`` says what it expects in a
``<!-- expect-error: line N | words of the message -->`` comment ("line none"
when the problem belongs to the whole position); tests/test_game_fixtures.py
runs them, as it runs every game's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from validator.model import MapData, Position

from plugin.tito import units

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "tito" / "bad-input"
BAD_FILES = sorted(FIXTURES.glob("*.xml"))


def test_there_are_bad_input_fixtures_for_each_kind_of_problem():
    names = {path.stem for path in BAD_FILES}
    for required in (
        "unknown-nationality", "unknown-side", "unknown-size", "unknown-type", "chetnik-without-allegiance",
        "unknown-event-kind", "operation-zone-missing", "operation-piece-missing", "unknown-fact", "badly-typed-fact",
    ):
        assert required in names


def test_all_problems_are_counted_in_the_message(tmp_path, run_cli):
    map_file = Path(__file__).resolve().parents[2] / "plugin" / "tito" / "maps" / "tito-map.xml"
    save = tmp_path / "two-problems.xml"
    save.write_text(
        '<position xmlns="urn:referee:save:1" version="1" game="tito" turn="5" phase="axis-combat">\n'
        f'  <map href="{map_file}"/>\n'
        "  <pieces>\n"
        '    <piece id="ch-1" name="C" nationality="chetnik" size="group" location="serbia/hide-away/chetnik"/>\n'
        '    <piece id="xx-1" name="X" nationality="martian" size="group" location="serbia/hide-away/chetnik"/>\n'
        "  </pieces>\n"
        "</position>\n"
    )
    code, _, err = run_cli("check", save)
    assert code == 2
    assert f"{save}, line 4" in err and "(1 more problems)" in err


@pytest.mark.parametrize(
    ("text", "expected"),
    [("1", True), ("17", True), ("007", True), ("²", False), ("١", False), ("１", False), ("", False), ("-1", False),
     (" 3", False), ("1_0", False), ("9" * 10, False), (None, False)],
)
def test_only_ascii_digits_are_whole_numbers(text, expected):
    # str.isdigit() is true for "²" (int() refuses it) and for "١" (int() reads it as 1).
    assert units.is_whole_number(text) is expected


@pytest.mark.parametrize("turn", ["²", "١", "9" * 5000])
def test_a_turn_in_other_digits_is_no_game_turn(turn):
    position = Position(game="tito", map=MapData(), turn=turn)
    assert units.turn_number(position) is None
