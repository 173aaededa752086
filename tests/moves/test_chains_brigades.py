"""Tito 7.63: a guerrilla group that becomes a brigade under its id follows in a chain only where the rules build
brigades: three groups for one in a Guerrilla Status Phase (7.63A), or a reinforcing group entering the map as a
brigade in a later Guerrilla Reinforcement Phase (7.63B), the Yugoslav player's, once brigade-strength is reached."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.moves.saves import SAMPLE_MAP

SERBIA_MOUNTAIN, SERBIA_HIDE_AWAY = "serbia/mountain/partisan", "serbia/hide-away/partisan"
BOSNIA_MOUNTAIN = "bosnia/mountain/partisan"


def save(path: Path, pieces: list[str], turn: int = 5, phase: str = "guerrilla-reinforcement",
         strength_fact: str = 'partisan-brigade-strength" value="4') -> Path:
    fact = f'  <fact name="{strength_fact}"/>\n' if strength_fact else ""
    body = "\n".join(f"    <piece {piece}/>" for piece in pieces)
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<position xmlns="urn:referee:save:1" version="1" game="tito" scenario="campaign" turn="{turn}" '
        f'phase="{phase}">\n{fact}  <map href="{SAMPLE_MAP.as_posix()}"/>\n  <pieces>\n{body}\n  </pieces>\n'
        '</position>\n', encoding="utf-8")
    return path


def guerrilla(piece_id: str, location: str | None, size: str = "group", nationality: str = "partisan",
              extra: str = "") -> str:
    name = f"{nationality.title()} {size}"
    where = f' location="{location}"' if location else ""
    strength = {"group": 1, "brigade": 4, "division": 8}[size]
    return (f'id="{piece_id}" name="{name}" nationality="{nationality}" size="{size}" strength="{strength}"{where}'
            f"{extra}")


def three_groups(location: str = SERBIA_MOUNTAIN, **options) -> list[str]:
    return [guerrilla(piece_id, location, **options) for piece_id in ("g1", "g2", "g3")]


def link_of(run_cli, before: Path, after: Path) -> tuple[int, dict]:
    code, out, err = run_cli("check", before, after, "--format", "json")
    assert code in (0, 1), err
    (link,) = json.loads(out)["links"]
    return code, link


def allowed_cases(link: dict) -> list[str]:
    return [finding["case"] for finding in link["findings"] if finding["case"].startswith("7.63")]


CHETNIK_MOUNTAIN = "serbia/mountain/chetnik"
PRO_YUGOSLAV, PRO_AXIS = ' allegiance="pro-yugoslav"', ' allegiance="pro-axis"'


@pytest.mark.parametrize(("location", "options", "fact"), [
    (SERBIA_MOUNTAIN, {}, 'partisan-brigade-strength" value="4'),
    (CHETNIK_MOUNTAIN, {"nationality": "chetnik", "extra": PRO_YUGOSLAV}, 'chetnik-brigade-strength" value="5'),
])
def test_three_groups_built_into_a_brigade_in_the_status_phase_follow(run_cli, tmp_path, location, options, fact):
    before = save(tmp_path / "1.xml", three_groups(location, **options), phase="guerrilla-reinforcement",
                  strength_fact=fact)
    after = save(tmp_path / "2.xml", [guerrilla("g1", location, size="brigade", **options)], phase="guerrilla-status",
                 strength_fact=fact)
    code, link = link_of(run_cli, before, after)
    assert code == 0 and link["breaks"] == [] and link["legal"]
    assert allowed_cases(link) == ["7.63A"]
    (finding,) = [finding for finding in link["findings"] if finding["case"] == "7.63A"]
    assert finding["pieces"] == ["g1"] and "2 more groups left this place" in finding["message"]


@pytest.mark.parametrize(("why", "before_pieces", "after_pieces", "phases", "fact"), [
    ("the Guerrilla Status Phase is not between the saves",
     three_groups(), [guerrilla("g1", SERBIA_MOUNTAIN, size="brigade")],
     ("guerrilla-reinforcement", "guerrilla-reinforcement"), 'partisan-brigade-strength" value="4'),
    ("no larger unit is built in a Hide-away",
     three_groups(SERBIA_HIDE_AWAY), [guerrilla("g1", SERBIA_HIDE_AWAY, size="brigade")],
     ("guerrilla-reinforcement", "guerrilla-status"), 'partisan-brigade-strength" value="4'),
    ("one group of the three stays on the map",
     three_groups(), [guerrilla("g1", SERBIA_MOUNTAIN, size="brigade"), guerrilla("g2", SERBIA_MOUNTAIN)],
     ("guerrilla-reinforcement", "guerrilla-status"), 'partisan-brigade-strength" value="4'),
    ("the save records no brigade-strength",
     three_groups(), [guerrilla("g1", SERBIA_MOUNTAIN, size="brigade")],
     ("guerrilla-reinforcement", "guerrilla-status"), ""),
    ("a division is not built from groups in the text Referee reads",
     three_groups(), [guerrilla("g1", SERBIA_MOUNTAIN, size="division")],
     ("guerrilla-reinforcement", "guerrilla-status"), 'partisan-brigade-strength" value="4'),
    ("a pro-Axis Chetnik is not the Yugoslav player's to build",
     three_groups(CHETNIK_MOUNTAIN, nationality="chetnik", extra=PRO_AXIS),
     [guerrilla("g1", CHETNIK_MOUNTAIN, size="brigade", nationality="chetnik", extra=PRO_AXIS)],
     ("guerrilla-reinforcement", "guerrilla-status"), 'chetnik-brigade-strength" value="4'),
])
def test_a_group_becoming_a_brigade_elsewhere_breaks_the_chain(run_cli, tmp_path, why, before_pieces, after_pieces,
                                                                phases, fact):
    before = save(tmp_path / "1.xml", before_pieces, phase=phases[0], strength_fact=fact)
    after = save(tmp_path / "2.xml", after_pieces, phase=phases[1], strength_fact=fact)
    code, link = link_of(run_cli, before, after)
    assert code == 1, why
    assert [(found["kind"], found["pieces"]) for found in link["breaks"]] == [("unexplained-change", ["g1"])], why
    assert allowed_cases(link) == [], why


def test_a_pro_axis_chetnik_group_is_no_axis_unit_the_schedule_upgrades(run_cli, tmp_path):
    """13.81 upgrades scheduled Axis units: a pro-Axis Chetnik across an Axis Reinforcement Phase is not one."""
    fact = 'chetnik-brigade-strength" value="4'
    before = save(tmp_path / "1.xml", three_groups(CHETNIK_MOUNTAIN, nationality="chetnik", extra=PRO_AXIS),
                  turn=5, phase="game-turn-indication", strength_fact=fact)
    after = save(tmp_path / "2.xml", [guerrilla("g1", CHETNIK_MOUNTAIN, size="brigade", nationality="chetnik",
                                                extra=PRO_AXIS)], turn=6, phase="guerrilla-status", strength_fact=fact)
    code, link = link_of(run_cli, before, after)
    assert code == 1 and [found["kind"] for found in link["breaks"]] == ["unexplained-change"]
    assert "13.81" not in [finding["case"] for finding in link["findings"]]


def test_a_reinforcing_group_entering_as_a_brigade_after_brigade_strength_follows(run_cli, tmp_path):
    before = save(tmp_path / "1.xml", [guerrilla("g9", None)], turn=6, phase="axis-combat")
    after = save(tmp_path / "2.xml", [guerrilla("g9", BOSNIA_MOUNTAIN, size="brigade")], turn=6,
                 phase="guerrilla-reinforcement")
    code, link = link_of(run_cli, before, after)
    assert code == 0 and link["breaks"] == [] and allowed_cases(link) == ["7.63B"]


@pytest.mark.parametrize(("why", "fact", "before_location", "phases"), [
    ("brigade-strength came only this Game-Turn", 'partisan-brigade-strength" value="6', None,
     ("axis-combat", "guerrilla-reinforcement")),
    ("the group stood on the map already", 'partisan-brigade-strength" value="4', BOSNIA_MOUNTAIN,
     ("axis-combat", "guerrilla-reinforcement")),
    ("the Guerrilla Reinforcement Phase is not between the saves", 'partisan-brigade-strength" value="4', None,
     ("axis-movement", "axis-combat")),
])
def test_a_reinforcing_group_entering_as_a_brigade_elsewhere_breaks_the_chain(run_cli, tmp_path, why, fact,
                                                                              before_location, phases):
    before = save(tmp_path / "1.xml", [guerrilla("g9", before_location)], turn=6, phase=phases[0],
                  strength_fact=fact)
    after = save(tmp_path / "2.xml", [guerrilla("g9", BOSNIA_MOUNTAIN, size="brigade")], turn=6, phase=phases[1],
                 strength_fact=fact)
    code, link = link_of(run_cli, before, after)
    assert code == 1 and [found["kind"] for found in link["breaks"]] == ["unexplained-change"], why
