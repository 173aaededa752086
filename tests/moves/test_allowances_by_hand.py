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


def german_704(name: str, size: str, strength: int) -> str:
    return (f'id="de-704" name="{name}" nationality="german" size="{size}" strength="{strength}" designation="704" '
            'location="serbia/belgrade/axis"')


def link_breaks(run_cli, before, after) -> list[str]:
    code, out, _ = run_cli("check", before, after, "--format", "json")
    (link,) = json.loads(out)["links"]
    assert code == 1 or not link["breaks"]
    return [found["kind"] for found in link["breaks"]]


def test_an_upgrade_never_makes_the_unit_weaker_or_smaller(run_cli, tmp_path):
    """13.81: the flipped counter is a stronger unit; a division turned into a weak battalion is no upgrade."""
    for after_piece in (german_704("704th Battalion", "battalion", 13), german_704("704th Brigade", "brigade", 12),
                        german_704("704th Battalion", "battalion", 1)):
        before = tito_save(tmp_path / "1.xml", [german_704("704th Division", "division", 12)], turn=8, phase="tito")
        after = tito_save(tmp_path / "2.xml", [after_piece], turn=8, phase="chetnik-collaboration")
        assert link_breaks(run_cli, before, after) == ["unexplained-change"], after_piece


def test_an_italian_unit_defecting_becomes_a_partisan_brigade_not_a_division(run_cli, tmp_path):
    """10.34: the defecting unit is replaced by a Partisan brigade; a division under its id breaks the chain."""
    italian = ('id="it-1" name="Emilia" nationality="italian" size="division" strength="6" '
               'location="montenegro/cetinje/axis"')
    for size, kinds in (("brigade", []), ("division", ["unexplained-change"])):
        before = tito_save(tmp_path / "1.xml", [italian], turn=8, phase="axis-reinforcement")
        after = tito_save(tmp_path / "2.xml", [f'id="it-1" name="Partisan {size}" nationality="partisan" '
                                               f'size="{size}" strength="4" location="montenegro/cetinje/yugoslav"'],
                          turn=8,
                          phase="anti-guerrilla-planning")
        assert link_breaks(run_cli, before, after) == kinds, size
