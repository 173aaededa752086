"""A real .vlog written through the sample Tito module, checked step by step: an illegal step is caught at its
index, and the same step undone in the log is no move at all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sample_modules import TITO_MAIN_MAP, tito_log_from_position, tito_module, tito_move, tito_region_points
from vassal_save_writer import command

ROOT = Path(__file__).resolve().parents[2]
GAME_TURN_ONE = """<?xml version="1.0" encoding="UTF-8"?>
<position xmlns="urn:referee:save:1" version="1" game="tito" scenario="campaign" turn="1" phase="yugoslav-movement">
  <map href="{map}"/>
  <pieces>
    <piece id="p1" name="Partisan group" nationality="partisan" size="group" strength="1"
           location="macedonia/mountain/partisan"/>
    <piece id="p2" name="Partisan band" nationality="partisan" size="group" strength="1"
           location="serbia/mountain/partisan"/>
  </pieces>
</position>
"""
MACEDONIA_MOUNTAIN, SERBIA_MOUNTAIN = "Macedonia Partisan Mountain", "Serbia Partisan Mountain"
SERBIA_HIDE_AWAY = "Serbia Partisan Hide-away"


def undo_of(piece_id: str, start: str, end: str) -> str:
    """A logged undo of ``tito_move(piece_id, start, end)``: the inverse move between VASSAL's UNDO markers."""
    (start_x, start_y), (end_x, end_y) = tito_region_points()[start], tito_region_points()[end]
    inverse = f"LOG\tM/{piece_id}/{TITO_MAIN_MAP}/{start_x}/{start_y}/null/{TITO_MAIN_MAP}/{end_x}/{end_y}/null/axis"
    return command("LOG\tUNDO\ttrue", inverse, "LOG\tUNDO\tfalse")


@pytest.fixture
def game_turn_one(tmp_path) -> Path:
    path = tmp_path / "turn-one.xml"
    path.write_text(GAME_TURN_ONE.format(map=(ROOT / "plugin" / "tito" / "maps" / "tito-map.xml").as_posix()))
    return path


def write_log(tmp_path: Path, start: Path, steps: list[str]) -> tuple[Path, Path]:
    module = tito_module(tmp_path)
    return tito_log_from_position(start, tmp_path / "moves.vlog", steps), module


ILLEGAL = ("p1", MACEDONIA_MOUNTAIN, SERBIA_MOUNTAIN)  # a zone left on Game-Turn 1 (6.63, 15.4)


def steps_with(*middle: str) -> list[str]:
    return [
        tito_move("p2", SERBIA_MOUNTAIN, SERBIA_HIDE_AWAY, "p2 hides"),
        tito_move(*ILLEGAL, "p1 into Serbia"),
        *middle,
        tito_move("p2", SERBIA_HIDE_AWAY, SERBIA_MOUNTAIN, "p2 comes out"),
    ]


def test_an_illegal_step_is_reported_at_its_index_with_the_move_in_words(tmp_path, game_turn_one, run_cli):
    log, module = write_log(tmp_path, game_turn_one, steps_with())
    code, out, err = run_cli("check", log, "--game", "tito", "--module", module, "--format", "json")
    assert code == 1, err
    report = json.loads(out)
    assert (report["step_count"], report["judged_steps"], report["illegal_steps"]) == (3, 3, [2])
    (step,) = [step for step in report["steps"] if not step["legal"]]
    assert step["index"] == 2
    assert step["moves"] == [{"piece": "p1", "piece_name": "Partisan group", "from": "macedonia/mountain/partisan",
                              "from_name": "Macedonia / Partisan Mountain", "to": "serbia/mountain/partisan",
                              "to_name": "Serbia / Partisan Mountain"}]
    (violation,) = step["violations"]  # one infraction, one violation, citing both cases
    assert violation["case"] == "6.63" and [cited["case"] for cited in violation["also_cases"]] == ["15.4"]
    assert all(violation["judges"] == "move" for violation in step["violations"])
    code, out, _ = run_cli("check", log, "--game", "tito", "--module", module)
    assert code == 1
    assert "step 2: Partisan group from Macedonia / Partisan Mountain to Serbia / Partisan Mountain" in out
    assert "[6.63, 15.4]" in out and "1 illegal step (2)" in out


def test_the_same_step_undone_is_not_a_move(tmp_path, game_turn_one, run_cli):
    log, module = write_log(tmp_path, game_turn_one, steps_with(undo_of(*ILLEGAL)))
    code, out, err = run_cli("check", log, "--game", "tito", "--module", module, "--format", "json")
    assert code == 0, (out, err)
    report = json.loads(out)
    assert (report["step_count"], report["undone_steps"], report["undo_steps"]) == (4, [2], [3])
    assert (report["judged_steps"], report["illegal_steps"], report["legal"]) == (2, [], True)


def test_first_stops_at_the_first_illegal_step_and_final_checks_the_last_position_only(tmp_path, game_turn_one,
                                                                                       run_cli):
    log, module = write_log(tmp_path, game_turn_one, steps_with())
    code, out, _ = run_cli("check", log, "--game", "tito", "--module", module, "--first", "--format", "json")
    assert code == 1
    assert (json.loads(out)["stopped_at"], json.loads(out)["judged_steps"]) == (2, 2)
    code, out, _ = run_cli("check", log, "--game", "tito", "--module", module, "--final", "--format", "json")
    assert code == 0  # the last position alone breaks no position check
    assert "violations" in json.loads(out) and "steps" not in json.loads(out)


def test_a_log_that_starts_from_an_illegal_position_is_not_legal(tmp_path, run_cli):
    start = tmp_path / "overstacked.xml"
    italians = "\n".join(
        f'    <piece id="it-{index}" name="Italian division" nationality="italian" size="division" strength="6" '
        f'location="montenegro/cetinje/axis"/>' for index in range(8))
    start.write_text(GAME_TURN_ONE.replace("turn=\"1\" phase=\"yugoslav-movement\"", 'turn="3" phase="axis-combat"')
                     .replace("  </pieces>", italians + "\n  </pieces>")
                     .format(map=(ROOT / "plugin" / "tito" / "maps" / "tito-map.xml").as_posix()))
    log, module = write_log(tmp_path, start, [tito_move("p2", SERBIA_MOUNTAIN, SERBIA_HIDE_AWAY, "p2 hides")])
    code, out, _ = run_cli("check", log, "--game", "tito", "--module", module, "--format", "json")
    report = json.loads(out)
    assert code == 1 and report["illegal_steps"] == [] and not report["start"]["legal"]
    assert [violation["case"] for violation in report["start"]["violations"]] == ["6.21"]
    _, out, _ = run_cli("check", log, "--game", "tito", "--module", module)
    assert "start: the position when logging began has 1 violation" in out
    assert "the position it starts from is illegal" in out


def test_a_step_is_blamed_only_for_a_standing_violation_it_makes_worse(tmp_path, run_cli):
    """Cetinje overstacked by 8: a ninth division in is blamed; going back out to 8 is not, though the words change."""
    start = tmp_path / "overstacked.xml"
    italians = "\n".join(
        f'    <piece id="it-{index}" name="Italian division" nationality="italian" size="division" strength="6" '
        f'location="montenegro/{"kotor" if index == 8 else "cetinje"}/axis"/>' for index in range(9))
    start.write_text(GAME_TURN_ONE.replace("turn=\"1\" phase=\"yugoslav-movement\"", 'turn="3" phase="axis-combat"')
                     .replace("  </pieces>", italians + "\n  </pieces>")
                     .format(map=(ROOT / "plugin" / "tito" / "maps" / "tito-map.xml").as_posix()))
    kotor, cetinje = "Montenegro: Kotor Axis", "Montenegro: Cetinje Axis"
    log, module = write_log(tmp_path, start, [tito_move("it-8", kotor, cetinje, "in"),
                                              tito_move("it-8", cetinje, kotor, "out")])
    code, out, _ = run_cli("check", log, "--game", "tito", "--module", module, "--format", "json")
    report = json.loads(out)
    assert code == 1 and report["illegal_steps"] == [1], report
    assert [violation["case"] for violation in report["start"]["violations"]] == ["6.21"]


def test_a_unit_going_back_to_its_start_zone_on_game_turn_one_is_not_blamed(tmp_path, game_turn_one, run_cli):
    """6.63: the start zone is the one held when the log began, not the one before the step."""
    log, module = write_log(tmp_path, game_turn_one, [tito_move(*ILLEGAL, "p1 into Serbia"),
                                                      tito_move("p1", SERBIA_MOUNTAIN, MACEDONIA_MOUNTAIN, "back")])
    code, out, _ = run_cli("check", log, "--game", "tito", "--module", module, "--format", "json")
    report = json.loads(out)
    assert code == 1 and report["illegal_steps"] == [1], report
    (step,) = [step for step in report["steps"] if not step["legal"]]
    assert all("(Macedonia)" in violation["message"] for violation in step["violations"])
