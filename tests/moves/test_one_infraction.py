"""One unit leaving its zone on Game-Turn 1 is one infraction of a rule Tito states twice (6.63 and 15.4):
one violation citing both cases, on every way of asking, and house rules rate each case on its own."""

from __future__ import annotations

import json
from pathlib import Path

from validator import runner
from validator.cases import CaseNumber
from validator.infractions import once, per_case
from validator.moves.diff import difference
from validator.moves.verdicts import judge_move
from validator.rules import Finding, Violation
from validator.saves.xml_reader import read_position_file

from tests.house_rules.test_house_rules_cli import house_rules_file, rule

PAIR = Path(__file__).resolve().parents[1] / "fixtures" / "tito" / "6.63" / "fail-into-the-next-zone"
EARLY_LEAVE = dict(check="left_zone_in_first_two_turns", reason="The club plays the opening turns free.")


def the_move():
    return difference(read_position_file(PAIR / "before.xml"), read_position_file(PAIR / "after.xml"))


def test_the_runner_yields_the_rule_under_each_case_and_a_report_on_the_move_says_it_once():
    raw = [result for result in runner.iter_move_results(the_move()) if isinstance(result, Violation)]
    assert sorted(str(result.case) for result in raw) == ["15.4", "6.63"]  # each registered case stamped
    (violation,) = runner.check_move(the_move()).violations
    assert (str(violation.case), violation.also_cases) == ("6.63", (CaseNumber.parse("15.4"),))


def test_a_move_judged_alone_says_the_infraction_once():
    (violation,) = judge_move(the_move()).report.violations
    assert violation.rule == "tito:6.63" and [str(case) for case in violation.also_cases] == ["15.4"]
    assert "15.4" not in violation.message  # cited as a case, not in the words


def test_the_cli_cites_both_cases_with_their_links(run_cli):
    code, out, _ = run_cli("check", PAIR / "before.xml", PAIR / "after.xml", "--format", "json")
    (link,) = json.loads(out)["links"]
    (violation,) = link["violations"]
    assert code == 1 and violation["case"] == "6.63"
    assert violation["also_cases"] == [{"case": "15.4", "rule": "tito:15.4", "url": "/tito/rules/15.4"}]
    code, out, _ = run_cli("check", PAIR / "before.xml", PAIR / "after.xml")
    assert "Serbia / Partisan Mountain: [6.63, 15.4] Partisan group from Macedonia" in out


def test_a_result_under_one_case_cites_no_other(run_cli):
    code, out, _ = run_cli("check", PAIR / "after.xml", "--format", "json")
    assert all(result["also_cases"] == [] for result in json.loads(out)["findings"])


def test_a_house_rule_on_one_of_the_cases_leaves_the_other_case_forbidding_the_move(run_cli, tmp_path):
    rules = house_rules_file(tmp_path, rule("warning", case="6.63", **EARLY_LEAVE))
    code, out, _ = run_cli("check", PAIR / "before.xml", PAIR / "after.xml", "--house-rules", rules,
                           "--format", "json")
    (link,) = json.loads(out)["links"]
    assert code == 1 and [violation["case"] for violation in link["violations"]] == ["15.4"]
    (warned,) = [finding for finding in link["findings"] if finding["severity"] == "warning"]
    assert warned["case"] == "6.63" and warned["house_rule"]["case"] == "6.63" and warned["also_cases"] == []


def test_both_cases_made_warnings_are_one_warning_citing_both(run_cli, tmp_path):
    both = [rule("warning", case=case, **EARLY_LEAVE) for case in ("6.63", "15.4")]
    rules = house_rules_file(tmp_path, "\n".join(both))
    code, out, _ = run_cli("check", PAIR / "before.xml", PAIR / "after.xml", "--house-rules", rules,
                           "--format", "json")
    (link,) = json.loads(out)["links"]
    (warned,) = [finding for finding in link["findings"] if finding["severity"] == "warning"]
    assert code == 0 and warned["case"] == "6.63" and [cited["case"] for cited in warned["also_cases"]] == ["15.4"]


def test_results_are_joined_only_when_the_same_check_says_the_same_of_the_same_pieces():
    def said(case: str, message: str = "left its zone", pieces: tuple[str, ...] = ("p1",), kind=Violation):
        return kind(message, location="serbia/mountain/partisan", pieces=pieces, case=case, severity="error",
                    rule=f"tito:{case}", game="tito", judges="move", check="left_zone_in_first_two_turns")

    (joined,) = once([said("6.63"), said("15.4")])
    assert [str(case) for case in (joined.case, *joined.also_cases)] == ["6.63", "15.4"]
    assert [str(part.case) for part in per_case(joined)] == ["6.63", "15.4"]
    assert all(part.rule == f"tito:{part.case}" and not part.also_cases for part in per_case(joined))
    assert len(once([said("6.63"), said("15.4", pieces=("p2",))])) == 2
    assert len(once([said("6.63"), said("15.4", message="another move")])) == 2
    assert len(once([said("6.63"), said("15.4", kind=Finding)])) == 2
