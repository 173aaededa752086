"""A chain of saves: each save after the first must follow from the one before it, and its moves are judged."""

from __future__ import annotations

import json
from pathlib import Path

from tests.moves.saves import partisan, tito_save

MACEDONIA, SERBIA = "macedonia/mountain/partisan", "serbia/mountain/partisan"
SERBIA_HIDE_AWAY = "serbia/hide-away/partisan"


def test_a_chain_whose_saves_follow_and_whose_moves_are_legal_passes(tmp_path, run_cli):
    saves = [
        tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)], turn=5, phase="yugoslav-movement"),
        tito_save(tmp_path / "2.xml", [partisan(SERBIA)], turn=5, phase="yugoslav-movement"),
        tito_save(tmp_path / "3.xml", [partisan(SERBIA_HIDE_AWAY)], turn=6, phase="yugoslav-movement"),
    ]
    code, out, err = run_cli("check", *saves, "--format", "json")
    assert code == 0, (out, err)
    report = json.loads(out)
    assert report["legal"] and [link["index"] for link in report["links"]] == [2, 3]
    assert report["links"][0]["moves"][0]["to"] == SERBIA
    assert report["links"][1]["violations"] == [] and not report["links"][1]["breaks"]  # a new Game-Turn follows


def test_a_rewind_is_reported_with_the_save(tmp_path, run_cli):
    saves = [
        tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)], turn=5, phase="axis-movement"),
        tito_save(tmp_path / "2.xml", [partisan(MACEDONIA)], turn=5, phase="yugoslav-movement"),
        tito_save(tmp_path / "3.xml", [partisan(MACEDONIA)], turn=4, phase="axis-movement"),
    ]
    code, out, _ = run_cli("check", *saves, "--format", "json")
    assert code == 1
    links = json.loads(out)["links"]
    assert [(link["index"], [found["kind"] for found in link["breaks"]]) for link in links] == [
        (2, ["rewind"]), (3, ["rewind"])]
    assert "yugoslav-movement phase of Game-Turn 5, which comes before the axis-movement phase" in (
        links[0]["breaks"][0]["message"])
    code, out, _ = run_cli("check", *saves)
    assert code == 1
    assert f"save 2 ({saves[1]}) does not follow from save 1 ({saves[0]})" in out
    assert f"{saves[2]} is of Game-Turn 4, before Game-Turn 5" in out


def test_an_unexplained_change_is_reported_with_the_save_and_the_piece(tmp_path, run_cli):
    saves = [
        tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)]),
        tito_save(tmp_path / "2.xml", [partisan(MACEDONIA, size="brigade", name="Partisan brigade")]),
    ]
    code, out, _ = run_cli("check", *saves, "--format", "json")
    assert code == 1
    (link,) = json.loads(out)["links"]
    (found,) = link["breaks"]
    assert (found["kind"], found["pieces"]) == ("unexplained-change", ["p1"])
    assert found["piece_names"] == ["Partisan brigade"]
    assert "name Partisan group -> Partisan brigade; size group -> brigade" in found["message"]
    assert link["after"] == str(saves[1])


def test_saves_of_other_scenarios_are_not_compared(tmp_path, run_cli):
    saves = [tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)]),
             tito_save(tmp_path / "2.xml", [partisan("albania/mountain/partisan")], scenario="short")]
    code, out, _ = run_cli("check", *saves, "--format", "json")
    (link,) = json.loads(out)["links"]
    assert code == 1 and [found["kind"] for found in link["breaks"]] == ["scenario"]
    assert link["violations"] == [] and link["moves"] == []  # no move judged, nor counted, across scenarios
    _, out, _ = run_cli("check", *saves)
    assert "1.xml)." in out and "moved" not in out


def test_first_stops_the_chain_at_the_first_save_that_fails(tmp_path, run_cli):
    saves = [
        tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)], turn=5),
        tito_save(tmp_path / "2.xml", [partisan(MACEDONIA)], turn=4),
        tito_save(tmp_path / "3.xml", [partisan(MACEDONIA)], turn=3),
    ]
    code, out, _ = run_cli("check", *saves, "--first", "--format", "json")
    report = json.loads(out)
    assert code == 1 and report["stopped_at"] == 2 and len(report["links"]) == 1


def test_a_unit_back_in_its_start_zone_on_game_turn_one_is_not_blamed_in_a_chain(tmp_path, run_cli):
    """6.63 and 15.4 compare with the chain's first save: the save leaving is illegal, the one returning is not."""
    saves = [
        tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)], turn=1, phase="yugoslav-movement"),
        tito_save(tmp_path / "2.xml", [partisan(SERBIA)], turn=1, phase="yugoslav-movement"),
        tito_save(tmp_path / "3.xml", [partisan(MACEDONIA)], turn=2, phase="yugoslav-movement"),
    ]
    code, out, _ = run_cli("check", *saves, "--format", "json")
    links = json.loads(out)["links"]
    assert code == 1 and [link["legal"] for link in links] == [False, True], links


def test_a_unit_moving_again_in_one_phase_is_judged_on_its_whole_move(tmp_path, run_cli):
    """6.41 across links: Bosnia to Croatia, then Croatia to the Islands, in one Yugoslav Movement Phase."""
    saves = [
        tito_save(tmp_path / "1.xml", [partisan("bosnia/mountain/partisan")], turn=5),
        tito_save(tmp_path / "2.xml", [partisan("croatia/mountain/partisan")], turn=5),
        tito_save(tmp_path / "3.xml", [partisan("islands/mountain/partisan")], turn=5),
    ]
    code, out, _ = run_cli("check", *saves, "--format", "json")
    links = json.loads(out)["links"]
    assert code == 1 and [link["legal"] for link in links] == [True, False], links
    assert [violation["case"] for violation in links[1]["violations"]] == ["6.41", "6.5"]
    assert "Bosnia" in links[1]["violations"][0]["message"]


def test_a_piece_taken_off_and_put_back_in_one_phase_is_judged_from_where_it_stood(tmp_path, run_cli):
    saves = [
        tito_save(tmp_path / "1.xml", [partisan("bosnia/mountain/partisan"), partisan(SERBIA, "p2")], turn=5),
        tito_save(tmp_path / "2.xml", [partisan(SERBIA, "p2")], turn=5),
        tito_save(tmp_path / "3.xml", [partisan("islands/mountain/partisan"), partisan(SERBIA, "p2")], turn=5),
    ]
    code, out, _ = run_cli("check", *saves, "--format", "json")
    links = json.loads(out)["links"]
    assert code == 1 and "6.41" in [violation["case"] for violation in links[1]["violations"]], links


def test_the_errors_of_a_chain_say_what_to_do(tmp_path, run_cli):
    later = tito_save(tmp_path / "later.xml", [partisan(MACEDONIA)], turn=6)
    earlier = tito_save(tmp_path / "earlier.xml", [partisan(MACEDONIA)], turn=5)
    _, out, _ = run_cli("check", later, earlier)
    assert "the game went back; put the saves in playing order" in out
    code, _, err = run_cli("check", later, tmp_path / "nope.xml")
    assert code == 2 and "nope.xml: no such file; check the path" in err
    code, _, err = run_cli("diff", later, earlier, "--game", "awaw")
    assert code == 2 and "name no game, or the save's own ('tito')" in err


def test_vassal_options_on_referee_saves_are_refused_in_a_chain_and_a_diff(tmp_path, run_cli):
    saves = [tito_save(tmp_path / "1.xml", [partisan(MACEDONIA)]), tito_save(tmp_path / "2.xml", [partisan(SERBIA)])]
    for options in (("--module", tmp_path / "nothere.vmod"), ("--viewer", "Axis")):
        code, _, err = run_cli("check", *saves, *options)
        _, _, alone = run_cli("check", saves[0], *options)
        assert code == 2 and err == alone, (err, alone)
    code, _, err = run_cli("diff", *saves, "--module", tmp_path / "nothere.vmod")
    assert code == 2 and "this save is Referee save XML, which needs none" in err
    code, _, err = run_cli("check", *saves, "--final")
    assert code == 2 and "no file given is one; leave --final out" in err


def test_a_partisan_leaving_its_country_is_one_violation_not_two(tmp_path, run_cli):
    """AWAW 11.42: the position check and the move check see the same infraction; it is reported once."""
    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "awaw" / "11.42"
    pair = next(folder for folder in sorted(fixtures.iterdir()) if folder.name.startswith("fail-") and folder.is_dir())
    code, out, _ = run_cli("check", pair / "before.xml", pair / "after.xml", "--format", "json")
    (link,) = json.loads(out)["links"]
    cases = [violation["case"] for violation in link["violations"]]
    assert code == 1 and cases.count("11.42") == 1, link["violations"]


def test_an_axis_upgrade_in_the_reinforcement_phase_is_allowed_and_elsewhere_breaks_the_chain(tmp_path, run_cli):
    """13.81: the counter flipped keeps its id, changes name and size and is stronger; allowed_change says so."""
    def croat(name: str, size: str, strength: int) -> str:
        return (f'id="hr-2" name="{name}" nationality="croat" type="mountain-infantry" size="{size}" '
                f'strength="{strength}" location="bosnia/banja-luka/axis"')

    for phase, legal in (("axis-reinforcement", True), ("yugoslav-movement", False)):
        saves = [tito_save(tmp_path / f"{phase}-1.xml", [croat("2nd Croat Mountain Brigade", "brigade", 2)],
                           phase=phase),
                 tito_save(tmp_path / f"{phase}-2.xml", [croat("2nd Croat Mountain Division", "division", 4)],
                           phase=phase)]
        code, out, _ = run_cli("check", *saves, "--format", "json")
        (link,) = json.loads(out)["links"]
        assert (code == 0) == legal and (not link["breaks"]) == legal, link
        if legal:
            assert "13.81" in [finding["case"] for finding in link["findings"]]
