"""Every Tito check against its pass and fail fixtures, and the completeness of both.

A fixture is a small save in ``tests/fixtures/tito/<case>/``: ``fail-*.xml``
must draw at least one result from the check registered for that case (a
violation for a rule, a finding for a tally), and every substring listed in
its ``<!-- expect: a | b -->`` comment must appear in one of those messages;
``pass-*.xml`` must draw no violation from that check (and a tally stays
silent).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from validator.cases import CaseNumber
from validator.games import get
from validator.rules import Violation
from validator.runner import iter_results
from validator.saves.xml_reader import read_position_file

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "tito"
EXPECT = re.compile(r"<!--\s*expect:(.*?)-->", re.S)


def game():
    return get("tito")


def fixture_files(prefix: str) -> list[Path]:
    return sorted(path for path in FIXTURES.glob(f"*/{prefix}-*.xml"))


def expectations(path: Path) -> list[str]:
    match = EXPECT.search(path.read_text(encoding="utf-8"))
    return [part.strip() for part in match.group(1).split("|")] if match else []


def check_for(path: Path):
    case = CaseNumber.parse(path.parent.name)
    (registered,) = [check for check in game().rules.checks() if check.case == case]
    return registered


def results_of(path: Path):
    registered = check_for(path)
    position = read_position_file(path, "tito")
    found = [result for result in iter_results(position) if result.case.is_within(registered.case)]
    return registered, found


def fixture_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.parametrize("path", fixture_files("fail"), ids=fixture_id)
def test_a_failing_fixture_draws_its_check_with_its_numbers(path):
    registered, found = results_of(path)
    if registered.severity == "error":
        relevant = [result for result in found if isinstance(result, Violation)]
    else:
        relevant = [result for result in found if result.severity != "unchecked"]
    assert relevant, f"{path.name} drew nothing from {registered.rule}"
    assert all(str(result.rule).startswith("tito:") and result.game == "tito" for result in relevant)
    wanted = expectations(path)
    assert wanted, f"{path.name} lists no expected substrings"
    messages = [result.message for result in relevant]
    for substring in wanted:
        assert any(substring in message for message in messages), f"{substring!r} not in {messages}"


@pytest.mark.parametrize("path", fixture_files("pass"), ids=fixture_id)
def test_a_passing_fixture_draws_no_violation_of_its_check(path):
    registered, found = results_of(path)
    assert not [result for result in found if isinstance(result, Violation)], [result.message for result in found]
    if registered.severity != "error":
        assert found == [], [result.message for result in found]


def test_every_registered_case_is_indexed_and_has_both_fixtures():
    index = {entry.number for entry in game().case_index}
    for registered in game().rules.checks():
        assert registered.case in index, f"{registered.rule} is not in plugin/tito/cases.toml"
        folder = FIXTURES / str(registered.case)
        assert list(folder.glob("pass-*.xml")), f"no passing fixture for {registered.rule}"
        assert list(folder.glob("fail-*.xml")), f"no failing fixture for {registered.rule}"


def test_every_fixture_folder_belongs_to_a_registered_case():
    registered = {str(check.case) for check in game().rules.checks()}
    folders = {path.name for path in FIXTURES.iterdir() if path.is_dir() and path.name[0].isdigit()}
    assert folders <= registered, folders - registered


def test_one_check_per_case_with_a_docstring():
    cases = [check.case for check in game().rules.checks()]
    assert len(cases) == len(set(cases))
    assert all(check.summary for check in game().rules.checks())
