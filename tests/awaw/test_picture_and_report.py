"""The SVG picture, the report's wording and the control and economy findings in detail."""

from __future__ import annotations

from lxml import etree

from validator import runner
from validator.saves.xml_reader import read_position_file

from tests.game_fixtures import ROOT

FIXTURES = ROOT / "awaw"

SVG = "{http://www.w3.org/2000/svg}"


def report_of(name):
    position = read_position_file(FIXTURES / f"{name}.xml")
    return position, runner.check(position)


def test_picture_shades_control_marks_partisans_and_offending_hexes():
    from plugin.awaw.picture import picture

    position, report = report_of("11.62/fail-air-and-naval-units-in-partisan-port")
    root = etree.fromstring(picture(position, report).encode())
    assert root.tag == f"{SVG}svg"
    polygons = root.iter(f"{SVG}polygon")
    fills = {polygon.get("fill") for polygon in polygons}
    assert "#f7d86a" in fills and "#b4bcc8" in fills and "#cfe3f3" in fills  # partisan-held, Axis, sea
    assert len(list(root.iter(f"{SVG}circle"))) == 1
    outlined = [p for p in root.iter(f"{SVG}polygon") if p.get("stroke") == "#d10000"]
    assert len(outlined) == 1  # the port named by both 11.62 violations
    assert not any("style" in element.attrib for element in root.iter())
    assert not list(root.iter(f"{SVG}script"))


def test_picture_without_a_report_marks_nothing():
    from plugin.awaw.picture import picture

    position, _report = report_of("legal-occupied-france")
    root = etree.fromstring(picture(position).encode())
    assert not [p for p in root.iter(f"{SVG}polygon") if p.get("stroke") == "#d10000"]


def test_every_partisan_gets_a_reason_and_the_totals_add_up():
    position, report = report_of("44.36/fail-extras-beyond-results")
    findings = [f for f in report.findings if str(f.case) == "11.71"]
    per_partisan = [f for f in findings if "counted" in f.facts]
    assert sorted(f.pieces[0] for f in per_partisan) == ["wa1", "wa2", "wa3", "wa4"]
    (total,) = [f for f in findings if "brp_loss" in f.facts]
    assert total.facts == {"loser": "germany", "brp_loss": 4, "applies": True}
    assert "deducted at the end of Germany's combat phase (11.72)" in total.message


def test_reasons_for_partisans_not_counted():
    def reason(name):
        _position, report = report_of(name)
        (finding,) = [f for f in report.findings if "counted" in f.facts]
        assert finding.facts["counted"] is False
        return str(finding.case), finding.message

    assert reason("11.71/pass-partisan-on-corsica") == (
        "11.71",
        "wa1 (built by Britain) costs no BRPs: it is on an island",
    )
    assert "behind friendly lines" in reason("11.71/pass-behind-friendly-lines")[1]
    assert reason("11.71/pass-irish-partisan-away-from-ulster")[0] == "11.71A"
    assert "a friendly ground unit shares its hex" in reason("11.44/pass-british-partisan-with-british-unit")[1]


def test_persian_route_cut_and_its_case():
    _position, report = report_of("11.71/fail-persian-partisan-next-to-tehran")
    (cut,) = [f for f in report.findings if str(f.case) == "11.71B"]
    assert cut.facts == {"route_cut": 5, "route": "active", "applies": True}


def test_report_json_carries_the_numbers_behind_a_pool_violation():
    _position, report = report_of("11.22/fail-three-in-france")
    (violation,) = report.to_json()["violations"]
    assert violation["rule"] == "awaw:11.22A" and violation["pieces"] == ["wa1", "wa2", "wa3"]
    assert violation["facts"] == {
        "area": "france",
        "faction": "western-allies",
        "count": 3,
        "automatic": 1,
        "maximum": 2,
        "reduction": 0,
    }


def test_objective_tally_leaves_partisan_held_objectives_out():
    _position, report = report_of("11.63/fail-claim-counts-partisan-objective")
    (tally,) = [f for f in report.findings if str(f.case) == "11.63"]
    assert tally.facts["partisan_held"] == ["0303"]
    assert tally.facts["tally"]["germany"] == 2


def test_cli_check_exit_codes_for_the_fixtures(run_cli):
    assert run_cli("check", FIXTURES / "legal-occupied-france.xml")[0] == 0
    code, out, _err = run_cli("check", FIXTURES / "11.353D/fail-friendly-hex.xml", "--game", "awaw")
    assert (
        code == 1
        and "[11.353D] wa1 (built by Britain) was placed in a hex controlled by France, not by an enemy" in out
    )


def test_the_examples(run_cli):
    from pathlib import Path

    examples = Path(__file__).resolve().parent.parent.parent / "examples" / "awaw"
    code, out, err = run_cli("check", examples / "partisans-legal.xml")
    assert code == 0, out + err
    code, out, err = run_cli("check", examples / "partisans-illegal.xml", "--format", "json")
    import json

    rules = sorted(violation["rule"] for violation in json.loads(out)["violations"])
    assert code == 1 and rules == [
        "awaw:11.341A",
        "awaw:11.341B",
        "awaw:11.353C",
        "awaw:11.353E",
        "awaw:11.62",
        "awaw:11.63",
    ]


def test_the_france_message_says_who_conquered_it(tmp_path):
    """11.33A reads as one plain statement, whether nobody or another power conquered France."""
    _position, report = report_of("11.33A/fail-france-not-conquered")
    assert [v.message for v in report.violations] == [
        "wa1 (built by Britain) was built in France, which Germany has not conquered"
    ]
    text = (FIXTURES / "11.33A/pass-france-conquered.xml").read_text(encoding="utf-8")
    assert 'value="france germany"' in text
    (tmp_path / "map.xml").write_bytes((FIXTURES / "map.xml").read_bytes())
    save = tmp_path / "11.33A" / "save.xml"  # a case folder beside the map, as the fixture's ../map.xml needs
    save.parent.mkdir()
    save.write_text(text.replace('value="france germany"', 'value="france italy"'), encoding="utf-8")
    report = runner.check(read_position_file(save))
    assert [v.message for v in report.violations if str(v.case) == "11.33A"] == [
        "wa1 (built by Britain) was built in France, which Italy conquered, not Germany"
    ]
