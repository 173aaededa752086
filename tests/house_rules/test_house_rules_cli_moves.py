"""``referee check --house-rules FILE`` on a chain of saves and on a log's steps: every link and step re-rated."""

from __future__ import annotations

import json
from pathlib import Path

from validator import house_rules
from validator.moves.verdicts import judge_chain
from validator.saves.xml_reader import read_position_file

from tests.house_rules.test_house_rules_cli import house_rules_file, rule
from tests.moves.saves import partisan, tito_save
from tests.moves.test_logs import GAME_TURN_ONE, ROOT, steps_with, write_log

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tito"
TOO_FAR = FIXTURES / "6.41" / "fail-macedonia-to-bosnia"  # a Partisan group two zones away in one phase
TOO_FAR_RULE = dict(case="6.41", check="yugoslav_moved_beyond_adjacent_zone")
REASON = "The club lets a guerrilla slip through one zone more."
EARLY_LEAVE = dict(check="left_zone_in_first_two_turns")
OTHER_GAME_CHECK = "partisan_left_its_country"  # A World at War 11.42


def too_far_chain() -> list[Path]:
    return [TOO_FAR / "before.xml", TOO_FAR / "after.xml"]


def test_a_link_a_house_rule_makes_a_warning_is_legal_and_says_so(run_cli, tmp_path):
    rules = house_rules_file(tmp_path, rule("warning", **TOO_FAR_RULE, reason=REASON))
    code, out, _ = run_cli("check", *too_far_chain(), "--house-rules", rules, "--format", "json")
    chain = json.loads(out)
    assert code == 0 and chain["legal"] is True
    (link,) = chain["links"]
    assert link["legal"] is True and link["violations"] == []
    (warned,) = [finding for finding in link["findings"] if finding["case"] == "6.41"]
    assert warned["severity"] == "warning" and warned["house_rule"]["reason"] == REASON
    assert chain["house_rules"] == {"source": str(rules), "rules": [
        {"game": "tito", "case": "6.41", "check": "yugoslav_moved_beyond_adjacent_zone", "severity": "warning",
         "reason": REASON, "url": None}]}

    code, out, _ = run_cli("check", *too_far_chain(), "--house-rules", rules)
    assert code == 0
    assert "[6.41] (warning, house rule) Partisan group from Macedonia" in out
    assert f"Checked under the house rules of {rules}:" in out
    assert f"    [6.41] yugoslav_moved_beyond_adjacent_zone is a warning: {REASON}" in out
    assert out.strip().endswith("every save follows from the one before and its moves are legal.")


def test_a_link_keeps_its_violation_under_house_rules_of_other_checks(run_cli, tmp_path):
    rules = house_rules_file(tmp_path, rule("warning"))  # 6.21 overstacking, which this move does not break
    code, out, _ = run_cli("check", *too_far_chain(), "--house-rules", rules, "--format", "json")
    chain = json.loads(out)
    assert code == 1 and chain["legal"] is False
    (violation,) = chain["links"][0]["violations"]
    assert violation["case"] == "6.41" and violation["house_rule"] is None
    assert [kept["case"] for kept in chain["house_rules"]["rules"]] == ["6.21"]


def test_a_check_turned_off_leaves_no_result_on_the_link(run_cli, tmp_path):
    rules = house_rules_file(tmp_path, rule("off", **TOO_FAR_RULE))
    code, out, _ = run_cli("check", *too_far_chain(), "--house-rules", rules, "--format", "json")
    (link,) = json.loads(out)["links"]
    assert code == 0 and link["legal"] is True
    assert not [result for result in link["violations"] + link["findings"] if result["case"] == "6.41"]


def test_a_break_is_no_check_and_no_house_rule_lifts_it(run_cli, tmp_path):
    saves = [tito_save(tmp_path / "6.xml", [partisan("macedonia/mountain/partisan")], turn=6),
             tito_save(tmp_path / "5.xml", [partisan("macedonia/mountain/partisan")], turn=5)]
    rules = house_rules_file(tmp_path, rule("off", **TOO_FAR_RULE))
    code, out, _ = run_cli("check", *saves, "--house-rules", rules, "--format", "json")
    (link,) = json.loads(out)["links"]
    assert code == 1 and [found["kind"] for found in link["breaks"]] == ["rewind"]


def test_the_function_the_web_calls_rates_a_chain_judged_without_house_rules(tmp_path):
    rules = house_rules.read_file(house_rules_file(tmp_path, rule("warning", **TOO_FAR_RULE, reason=REASON)))
    judged = judge_chain([read_position_file(path) for path in too_far_chain()])
    assert judged.legal is False and judged.house_rules is None
    rated = house_rules.apply_to_moves(judged, rules)
    assert rated.legal is True and rated.house_rules.rules == rules.rules
    assert [result.severity for result in rated.verdicts[0].report.findings if str(result.case) == "6.41"] == [
        "warning"]
    step = house_rules.apply_to_moves(judged.verdicts[0], rules)  # one link (or one log step) alone
    assert step.legal is True and step.report.house_rules.rules == rules.rules


def log_of_an_early_leave(tmp_path: Path) -> tuple[Path, Path]:
    start = tmp_path / "turn-one.xml"
    start.write_text(GAME_TURN_ONE.format(map=(ROOT / "plugin" / "tito" / "maps" / "tito-map.xml").as_posix()))
    return write_log(tmp_path, start, steps_with())  # step 2 leaves a zone on Game-Turn 1 (6.63 and 15.4)


def test_a_log_step_both_cases_make_a_warning_is_legal_and_first_goes_on(run_cli, tmp_path):
    log, module = log_of_an_early_leave(tmp_path)
    rules = house_rules_file(tmp_path, "\n".join(
        rule("warning", case=case, **EARLY_LEAVE, reason="The club plays the opening turns free.")
        for case in ("6.63", "15.4")))
    code, out, err = run_cli("check", log, "--game", "tito", "--module", module, "--house-rules", rules, "--first",
                             "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    assert (report["legal"], report["illegal_steps"], report["stopped_at"], report["judged_steps"]) == (
        True, [], None, 3)
    (step,) = [step for step in report["steps"] if step["index"] == 2]
    (warned,) = step["findings"]
    assert warned["severity"] == "warning" and warned["house_rule"]["case"] == "6.63"
    assert [kept["case"] for kept in report["house_rules"]["rules"]] == ["6.63", "15.4"]
    code, out, _ = run_cli("check", log, "--game", "tito", "--module", module, "--house-rules", rules)
    assert code == 0 and f"Checked under the house rules of {rules}:" in out


def test_a_log_without_house_rules_has_no_house_rules_key(run_cli, tmp_path):
    log, module = log_of_an_early_leave(tmp_path)
    code, out, _ = run_cli("check", log, "--game", "tito", "--module", module, "--format", "json")
    report = json.loads(out)
    assert code == 1 and "house_rules" not in report
    assert all("house_rule" not in result for step in report["steps"] for result in step["violations"])


def test_a_bad_house_rules_file_is_refused_before_the_chain_is_read(run_cli, tmp_path):
    rules = house_rules_file(tmp_path, rule("lenient", **TOO_FAR_RULE))
    code, out, err = run_cli("check", *too_far_chain(), "--house-rules", rules)
    assert code == 2 and out == "" and str(rules) in err and "Traceback" not in err


def test_house_rules_of_another_game_leave_a_chain_as_it_was(run_cli, tmp_path):
    rules = house_rules_file(tmp_path, rule("warning", case="11.42", check=OTHER_GAME_CHECK), game="awaw")
    plain = run_cli("check", *too_far_chain(), "--format", "json")
    code, out, _ = run_cli("check", *too_far_chain(), "--house-rules", rules, "--format", "json")
    assert code == plain[0] == 1 and json.loads(out) == json.loads(plain[1])
    assert "house_rules" not in json.loads(out)
