import dataclasses
import json

import pytest

from validator import runner
from validator.rules import RuleSet, Violation, case
from validator.saves.xml_reader import read_position_file

from .conftest import FROG, HERON, position_xml


def save(write_save, *lines):
    return write_save(position_xml("\n".join(lines)))


def crowded(write_save):
    return save(
        write_save,
        *(FROG.format(id=f"f{index}", at="north/pad") for index in range(1, 4)),
        HERON.format(id="h1", at="north/pad"),
    )


def test_results_are_stamped_with_case_rule_and_game(pond, write_save):
    position = read_position_file(crowded(write_save))
    results = list(runner.iter_results(position))
    stamped = [(result.kind, result.rule, str(result.case), result.severity) for result in results]
    assert stamped == [
        ("violation", "pond:2.1", "2.1", "error"),
        ("finding", "pond:2.2", "2.2", "info"),
        ("violation", "pond:2.2A", "2.2A", "error"),
    ]
    assert results[0].message == "3 frogs; the limit is 2"
    assert results[0].pieces == ("f1", "f2", "f3")
    assert [violation.rule for violation in runner.iter_violations(position)] == ["pond:2.1", "pond:2.2A"]
    assert not runner.is_legal(position)


def test_a_legal_position(pond, write_save):
    position = read_position_file(save(write_save, FROG.format(id="f1", at="south/pad")))
    assert runner.is_legal(position)
    report = runner.check(position)
    assert report.legal and [finding.message for finding in report.findings] == ["0 heron(s) on the map"]


def test_report_text_and_json(pond, write_save):
    report = runner.check(read_position_file(crowded(write_save)))
    lines = report.to_text().splitlines()
    assert lines[0] == "North Pond / Pad: [2.1] 3 frogs; the limit is 2"
    assert lines[-1].endswith(": 2 violations, 1 finding.")
    data = report.to_json()
    assert data["legal"] is False
    first = data["violations"][0]
    assert {"rule", "case", "severity", "message", "location", "pieces", "url"} <= first.keys()
    assert first["url"] == "/pond/rules/2.1" and first["location_name"] == "North Pond / Pad"
    assert data["findings"][0]["facts"] == {"herons": 1}
    json.dumps(data)


def test_defective_checks_are_reported_as_plugin_bugs(pond, write_save):
    position = read_position_file(crowded(write_save))

    @case("2")
    def broken(position):
        """A check with a bug."""
        raise KeyError("nothing")
        yield

    game = dataclasses.replace(
        pond, rules=RuleSet.from_functions("pond", [*(check.function for check in pond.rules.checks()), broken])
    )
    with pytest.raises(runner.CheckDefectError, match="failed on this position with KeyError"):
        list(runner.iter_results(position, game))


def test_a_check_may_not_narrow_outside_its_case(pond, write_save):
    @case("2.1")
    def wanders(position):
        """Yields a result for another case."""
        yield Violation("elsewhere", case="3.1")

    game = dataclasses.replace(pond, rules=RuleSet.from_functions("pond", [wanders]))
    with pytest.raises(runner.CheckDefectError, match="outside 2.1"):
        list(runner.iter_results(read_position_file(crowded(write_save)), game))


def test_cli_check_exit_codes(pond, write_save, run_cli, tmp_path):
    code, out, _ = run_cli("check", crowded(write_save))
    assert code == 1 and "[2.1] 3 frogs" in out
    code, out, _ = run_cli("check", save(write_save, FROG.format(id="f1", at="south/pad")), "--format", "json")
    assert code == 0 and json.loads(out)["legal"] is True
    code, _, err = run_cli("check", write_save("<position/>", "bad.xml"))
    assert code == 2 and "bad.xml, line 1" in err and "Traceback" not in err
