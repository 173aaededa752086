"""``referee check --house-rules FILE``: a club's severities applied to the report, and bad files refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
OVERSTACKED = FIXTURES / "tito" / "6.21" / "fail-nine-italians.xml"
REASON = "The club lets a box hold one division more in the opening turn."


def house_rules_file(folder: Path, rules: str, game: str = "tito") -> Path:
    path = folder / "house-rules.xml"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<house-rules xmlns="urn:referee:house-rules:1" version="1">\n'
        f'  <game id="{game}">\n{rules}\n  </game>\n</house-rules>\n', encoding="utf-8")
    return path


def rule(severity: str, case: str = "6.21", check: str = "overstacked_location", reason: str = REASON) -> str:
    return f'    <rule case="{case}" check="{check}" severity="{severity}">{reason}</rule>'


def test_a_warning_is_shown_but_the_position_is_legal(run_cli, tmp_path):
    rules = house_rules_file(tmp_path, rule("warning"))
    code, out, _ = run_cli("check", OVERSTACKED, "--house-rules", rules)
    assert code == 0
    assert "[6.21] (warning, house rule) 9 division-equivalents" in out
    assert f"Checked under the house rules of {rules}:" in out
    assert f"[6.21] overstacked_location is a warning: {REASON}" in out
    assert out.strip().endswith("legal, 2 findings.")


def test_the_json_names_the_rules_in_force_and_the_rule_on_each_result(run_cli, tmp_path):
    rules = house_rules_file(tmp_path, rule("warning"))
    code, out, _ = run_cli("check", OVERSTACKED, "--house-rules", rules, "--format", "json")
    report = json.loads(out)
    assert code == 0 and report["legal"] is True and report["violations"] == []
    assert report["house_rules"]["source"] == str(rules)
    assert report["house_rules"]["rules"] == [{"game": "tito", "case": "6.21", "check": "overstacked_location",
                                               "severity": "warning", "reason": REASON, "url": None}]
    warned = [finding for finding in report["findings"] if finding["case"] == "6.21"]
    assert warned[0]["severity"] == "warning" and warned[0]["house_rule"]["check"] == "overstacked_location"
    others = [finding for finding in report["findings"] if finding["case"] != "6.21"]
    assert others and all(finding["house_rule"] is None for finding in others)


def test_a_check_turned_off_leaves_no_result(run_cli, tmp_path):
    rules = house_rules_file(tmp_path, rule("off"))
    code, out, _ = run_cli("check", OVERSTACKED, "--house-rules", rules, "--format", "json")
    report = json.loads(out)
    assert code == 0
    assert not [result for result in report["violations"] + report["findings"] if result["case"] == "6.21"]


def test_an_error_rule_keeps_the_position_illegal(run_cli, tmp_path):
    rules = house_rules_file(tmp_path, rule("error"))
    code, out, _ = run_cli("check", OVERSTACKED, "--house-rules", rules, "--format", "json")
    report = json.loads(out)
    assert code == 1 and report["violations"][0]["house_rule"]["severity"] == "error"


def test_a_report_without_house_rules_has_no_house_rules_key(run_cli):
    code, out, _ = run_cli("check", OVERSTACKED, "--format", "json")
    report = json.loads(out)
    assert code == 1 and "house_rules" not in report
    assert all("house_rule" not in result for result in report["violations"])



@pytest.mark.parametrize(("rules", "game", "expected"), [
    (rule("warning"), "chess", "there is no game 'chess'; the known games are awaw, tito, tww."),
    (rule("warning", case="99.9"), "tito", "tito has no check of case '99.9'; its checked cases are "),
    (rule("warning", check="overstacked"), "tito",
     "case 6.21 of tito has no check named 'overstacked'; its checks are overstacked_location."),
])
def test_an_unknown_name_is_refused_naming_it_and_the_known_ones(run_cli, tmp_path, rules, game, expected):
    path = house_rules_file(tmp_path, rules, game=game)
    code, out, err = run_cli("check", OVERSTACKED, "--house-rules", path)
    assert code == 2 and out == ""
    assert f"{path}, line " in err and expected in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("text", "expected"), [
    ("<house-rules", "not well-formed XML"),
    ('<house-rules xmlns="urn:referee:house-rules:1"><game id="tito">'
     '<rule case="6.21" check="overstacked_location" severity="sometimes">r</rule></game></house-rules>',
     "does not match the house-rules.xsd schema"),
    ('<house-rules xmlns="urn:referee:house-rules:1"><game id="tito">\n'
     '<rule case="6.21" check="overstacked_location" severity="off">r</rule>\n'
     '<rule case="6.21" check="overstacked_location" severity="warning">r</rule></game></house-rules>',
     "line 3: the check overstacked_location of tito 6.21 has a house rule already on line 2; keep one."),
])
def test_a_bad_file_is_one_sentence_with_file_and_line(run_cli, tmp_path, text, expected):
    path = tmp_path / "bad.xml"
    path.write_text(text, encoding="utf-8")
    code, out, err = run_cli("check", OVERSTACKED, "--house-rules", path)
    assert code == 2 and out == ""
    assert err.startswith(f"referee: {path}, line ") and expected in err
    assert len(err.strip().splitlines()) == 1


def test_a_missing_file_is_one_sentence(run_cli, tmp_path):
    code, _, err = run_cli("check", OVERSTACKED, "--house-rules", tmp_path / "none.xml")
    assert code == 2 and "the house rules file cannot be read" in err


def test_house_rules_rate_the_position_checks_of_a_chain_link_too(run_cli, tmp_path):
    code, _, _ = run_cli("check", OVERSTACKED, OVERSTACKED)
    assert code == 1  # the link's position after is overstacked
    rules = house_rules_file(tmp_path, rule("warning"))
    code, out, err = run_cli("check", OVERSTACKED, OVERSTACKED, "--house-rules", rules)
    assert code == 0, (out, err)
    assert "[6.21] (warning, house rule) 9 division-equivalents" in out


def test_the_documented_example_is_accepted(run_cli, tmp_path):
    documented = (Path(__file__).resolve().parents[2] / "docs" / "house-rules.md").read_text(encoding="utf-8")
    example = documented.split("```xml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "club.xml"
    path.write_text(example, encoding="utf-8")
    code, out, err = run_cli("check", OVERSTACKED, "--house-rules", path)
    assert code == 0, err
    assert f"[6.21] overstacked_location is a warning: {REASON}" in out  # the reason's line breaks are folded


def test_a_reason_of_only_spaces_is_refused_with_its_line(run_cli, tmp_path):
    path = house_rules_file(tmp_path, rule("warning", reason="   "))
    code, _, err = run_cli("check", OVERSTACKED, "--house-rules", path)
    assert code == 2 and f"{path}, line 4: the house rule on tito 6.21 overstacked_location gives no reason" in err
