"""The example positions in examples/tito behave as their comments say, through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

from validator.cases import CaseNumber
from validator.games import get
from validator.saves.xml_reader import read_position_file

import plugin.tito

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "tito"


def test_the_opening_set_up_is_legal(run_cli):
    code, out, err = run_cli("check", EXAMPLES / "opening-setup.xml")
    assert code == 0, out + err
    assert "legal" in out


def test_the_mid_game_position_is_legal_with_findings(run_cli):
    code, out, _ = run_cli("check", EXAMPLES / "mid-game.xml", "--format", "json")
    assert code == 0
    report = json.loads(out)
    assert report["legal"] and report["violations"] == []
    rules = {finding["rule"] for finding in report["findings"]}
    assert {"tito:7.51", "tito:7.62B", "tito:14.2A", "tito:14.2B", "tito:14.2C", "tito:14.2"} <= rules
    total = next(finding for finding in report["findings"] if finding["rule"] == "tito:14.2")
    assert total["facts"]["total"] == 18 and "from 112 to 130" in total["message"]
    bosnia = next(finding for finding in report["findings"] if finding["facts"].get("zone") == "bosnia")
    assert bosnia["facts"]["shortfall"] == 2 and "2 units on an operation in Bosnia counted" in bosnia["message"]


def test_the_overstacked_example_prints_linter_lines_and_exits_1(run_cli):
    code, out, _ = run_cli("check", EXAMPLES / "overstacked.xml")
    assert code == 1
    lines = out.splitlines()
    assert "Montenegro / Cetinje Axis box: [6.21] 8 division-equivalents: 8 divisions (8); the limit is 7" in lines
    assert any(line.startswith("Bosnia / Sarajevo Axis box: [6.21] 7 1/3 division-equivalents") for line in lines)
    assert lines[-1].endswith("2 violations, 15 findings.")


def test_the_spheres_example_breaks_each_sphere_rule(run_cli):
    code, out, _ = run_cli("check", EXAMPLES / "spheres-of-influence.xml", "--format", "json")
    assert code == 1
    report = json.loads(out)
    rules = sorted(violation["rule"] for violation in report["violations"])
    assert rules == ["tito:10.21", "tito:13.91D", "tito:6.62A", "tito:6.62D", "tito:6.64", "tito:6.64B"]
    for violation in report["violations"]:
        assert violation["url"] == f"/tito/rules/{violation['case']}"
        assert violation["location"] and violation["pieces"]


def test_prepare_map_generates_every_location_with_side_display_and_name():
    position = read_position_file(EXAMPLES / "opening-setup.xml")
    locations = position.map.locations
    displays = position.map.displays
    assert len(locations) == 12 * 7 + 2 * len(displays)
    serbia = locations["serbia/mountain/axis"]
    assert (serbia.kind, serbia.attributes["side"], serbia.attributes["display"]) == ("mountain", "axis", "zone")
    assert position.location_label("serbia/mountain/axis") == "Serbia / Axis Mountain"
    box = locations["serbia/belgrade/yugoslav"]
    assert (box.kind, box.attributes["side"], box.attributes["display"]) == ("objective-box", "yugoslav", "belgrade")
    assert position.location_label(box.id) == "Serbia / Belgrade Yugoslav box"
    assert locations["islands/neutral-chetnik"].kind == "neutral-box"
    assert not any(display.area == "islands" for display in displays.values())


def test_decisions_are_keyed_by_indexed_cases_and_written_out():
    index = {entry.number for entry in get("tito").case_index}
    assert plugin.tito.DECISIONS
    for case, decision in plugin.tito.DECISIONS.items():
        assert CaseNumber.parse(case) in index
        assert len(decision.split()) >= 20
