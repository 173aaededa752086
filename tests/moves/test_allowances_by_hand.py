"""A change of unit the rules allow only on what the saves cannot show is an unchecked finding, shown in the text:
the arbiter must confirm it; one the saves show is information."""

from __future__ import annotations

import json

from tests.moves.saves import tito_save
from tests.moves.test_chains_brigades import SERBIA_MOUNTAIN, guerrilla, save, three_groups


def allowance(run_cli, before, after, case: str) -> tuple[int, dict, str]:
    code, out, err = run_cli("check", before, after, "--format", "json")
    assert code in (0, 1), err
    (link,) = json.loads(out)["links"]
    (found,) = [finding for finding in link["findings"] if finding["case"] == case]
    _, text, _ = run_cli("check", before, after)
    return code, found, text


def test_groups_built_into_a_brigade_across_game_turns_are_for_the_arbiter_to_check(run_cli, tmp_path):
    before = save(tmp_path / "1.xml", three_groups(), turn=5, phase="axis-combat")
    after = save(tmp_path / "2.xml", [guerrilla("g1", SERBIA_MOUNTAIN, size="brigade")], turn=6, phase="tito")
    code, found, text = allowance(run_cli, before, after, "7.63A")
    assert code == 0 and found["severity"] == "unchecked"
    assert "[7.63A]" in text and "check by hand" in text


def test_groups_built_into_a_brigade_where_the_saves_show_it_are_information(run_cli, tmp_path):
    before = save(tmp_path / "1.xml", three_groups(), phase="guerrilla-reinforcement")
    after = save(tmp_path / "2.xml", [guerrilla("g1", SERBIA_MOUNTAIN, size="brigade")], phase="guerrilla-status")
    code, found, _ = allowance(run_cli, before, after, "7.63A")
    assert code == 0 and found["severity"] == "info"


def test_a_reinforcing_group_entering_as_a_brigade_is_for_the_arbiter_to_check(run_cli, tmp_path):
    before = save(tmp_path / "1.xml", [guerrilla("g1", None)], turn=6, phase="axis-combat")
    after = save(tmp_path / "2.xml", [guerrilla("g1", SERBIA_MOUNTAIN, size="brigade")], turn=6,
                 phase="guerrilla-status")
    code, found, text = allowance(run_cli, before, after, "7.63B")
    assert code == 0 and found["severity"] == "unchecked" and "[7.63B]" in text


def test_an_axis_upgrade_is_for_the_arbiter_to_check_against_the_schedule(run_cli, tmp_path):
    def german(name: str, size: str, strength: int) -> str:
        return (f'id="de-704" name="{name}" nationality="german" size="{size}" strength="{strength}" '
                'designation="704" location="serbia/belgrade/axis"')

    before = tito_save(tmp_path / "1.xml", [german("704th Infantry Brigade", "brigade", 6)], turn=8, phase="tito")
    after = tito_save(tmp_path / "2.xml", [german("704th Infantry Division", "division", 12)], turn=8,
                      phase="chetnik-collaboration")
    code, found, text = allowance(run_cli, before, after, "13.81")
    assert code == 0 and found["severity"] == "unchecked" and "[13.81]" in text
