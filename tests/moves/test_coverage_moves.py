"""What a verdict says it was checked against: a single position cannot break a case only move checks enforce,
so its report counts those apart; a report on a move, a log or a chain counts them in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from validator import coverage, games, runner
from validator.games import Game
from validator.moves.diff import difference
from validator.moves.verdicts import judge_chain
from validator.rules import RuleSet, Violation, case
from validator.saves.xml_reader import read_position_file

MAP = """<map xmlns="urn:referee:save:1" id="brook-map">
  <area id="upper" name="Upper Brook" neighbours="lower"><location id="upper/stone" name="Stone" kind="stone"/></area>
  <area id="lower" name="Lower Brook" neighbours="upper"><location id="lower/stone" name="Stone" kind="stone"/></area>
</map>"""
SAVE = """<?xml version="1.0"?>
<position xmlns="urn:referee:save:1" version="1" game="brook" turn="{turn}" phase="movement">
  <map href="brook-map.xml"/>
  <pieces>
    <piece id="t1" name="Toad" side="toads" type="toad" location="{at}"/>
  </pieces>
</position>
"""
TIP = Path(__file__).resolve().parents[1] / "fixtures" / "tito" / "6.63" / "fail-into-the-next-zone"


@pytest.fixture
def brook(tmp_path, monkeypatch) -> Game:
    """A game of four index entries: 3.1 judged on a position, 3.2 on a move only, 3.3 on both, 3 on neither."""
    folder = tmp_path / "brook"
    folder.mkdir()
    (folder / "cases.toml").write_text('[cases]\n"3" = "Toads"\n"3.1" = "Sitting"\n"3.2" = "Hopping"\n'
                                       '"3.3" = "Resting"\n', encoding="utf-8")

    @case("3.1")
    def toad_off_a_stone(position):
        """A toad sits on a stone."""
        yield from ()

    @case("3.2", judges="move")
    def toad_hopped_twice(before, after, change):
        """A toad hops one stone at a time."""
        yield from ()

    @case("3.3")
    def toad_in_the_lower_brook(position):
        """No toad rests in the lower brook."""
        yield from ()

    @case("3.3", judges="move")
    def toad_went_down(before, after, change):
        """No toad goes down the brook."""
        for move in change.moved:
            yield Violation("a toad went down the brook", move.end, [move.id])

    rules = RuleSet.from_functions("brook", [toad_off_a_stone, toad_hopped_twice, toad_in_the_lower_brook,
                                             toad_went_down])
    game = Game(id="brook", title="Brook", rulebook_files=("brook.txt",), folder=folder, rules=rules)
    monkeypatch.setitem(games.registry(), "brook", game)
    (tmp_path / "brook-map.xml").write_text(MAP, encoding="utf-8")
    return game


def brook_save(tmp_path: Path, name: str, at: str, turn: int = 1):
    path = tmp_path / name
    path.write_text(SAVE.format(turn=turn, at=at), encoding="utf-8")
    return read_position_file(path)


def test_a_case_only_move_checks_enforce_is_a_move_case(brook):
    found = coverage.of_game(brook, count_fixture_files=False)
    by_number = {str(entry.number): entry for entry in found.cases}
    assert [number for number, entry in by_number.items() if entry.judged_on_moves_only] == ["3.2"]
    assert (found.checked, found.move_cases, found.checked_in(moves=False)) == (3, 1, 2)


def test_a_single_position_is_checked_against_its_position_cases_and_counts_move_cases_apart(brook, tmp_path):
    report = runner.check(brook_save(tmp_path, "one.xml", "upper/stone"))
    assert report.to_text().splitlines()[-2] == (
        "Checked against 2 of the 4 sections and cases of the brook case index, and not against 1 move case, "
        "which only a pair of saves, a log or a chain can break; run referee rules coverage brook to see which.")
    assert report.to_json()["coverage"] == {"checked_cases": 2, "move_cases": 1, "unchecked_cases": 0,
                                            "index_cases": 4, "url": "/brook/coverage"}


def test_a_move_is_checked_against_the_move_cases_too(brook, tmp_path):
    before, after = brook_save(tmp_path, "1.xml", "upper/stone"), brook_save(tmp_path, "2.xml", "lower/stone")
    report = runner.check_move(difference(before, after))
    assert report.to_text().splitlines()[-2] == (
        "Checked against 3 of the 4 sections and cases of the brook case index; run referee rules coverage brook "
        "to see which.")
    assert report.to_json()["coverage"]["checked_cases"] == 3
    chain = judge_chain([before, after])
    assert chain.to_json()["coverage"] == {"checked_cases": 3, "move_cases": 1, "unchecked_cases": 0,
                                           "index_cases": 4, "url": "/brook/coverage"}
    assert "Checked against 3 of the 4 sections and cases of the brook case index;" in chain.to_text()


def test_tito_on_the_command_line_counts_move_cases_apart_for_a_save_and_in_for_a_chain(run_cli):
    code, out, _ = run_cli("rules", "coverage", "tito", "--format", "json")
    listed = json.loads(out)
    assert code == 0 and listed["move_cases"] > 0
    code, out, _ = run_cli("check", TIP / "after.xml", "--format", "json")
    single = json.loads(out)["coverage"]
    assert single["checked_cases"] + single["move_cases"] == listed["checked_cases"]
    assert single["move_cases"] == listed["move_cases"]
    code, out, _ = run_cli("check", TIP / "after.xml")
    assert f", and not against {listed['move_cases']} move cases, which only a pair of saves" in out
    code, out, _ = run_cli("check", TIP / "before.xml", TIP / "after.xml", "--format", "json")
    assert json.loads(out)["coverage"]["checked_cases"] == listed["checked_cases"]
    code, out, _ = run_cli("check", TIP / "before.xml", TIP / "after.xml")
    assert f"Checked against {listed['checked_cases']} of the " in out and "not against" not in out
