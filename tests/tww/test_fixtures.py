"""Every tww check has passing and failing fixtures, and every case it names is indexed."""

from __future__ import annotations

import pytest

from plugin.tww import game
from validator import runner
from validator.saves.xml_reader import read_position_file

from .conftest import FIXTURES

REGISTERED = sorted({str(check.case) for check in game.rules.checks()})
FIXTURE_FILES = sorted(path for path in FIXTURES.glob("15*.xml"))


def case_of(path):
    return path.name.split("-")[0]


def test_every_registered_case_is_in_the_case_index():
    indexed = {str(entry.number) for entry in game.case_index}
    assert set(REGISTERED) <= indexed
    assert REGISTERED == ["15.1.2", "15.1.3", "15.2", "15.3", "15.4.1.1", "15.4.1.2", "15.4.1.3", "15.4.1.4"]


@pytest.mark.parametrize("case", REGISTERED)
def test_every_registered_case_has_a_pass_and_a_fail_fixture(case):
    kinds = {path.name.split("-")[1] for path in FIXTURE_FILES if case_of(path) == case}
    assert kinds == {"pass", "fail"}


def test_every_fixture_belongs_to_a_registered_case():
    assert {case_of(path) for path in FIXTURE_FILES} == set(REGISTERED)


def within(result, case):
    return str(result.case) == case or str(result.case).startswith(case + ".")


@pytest.mark.parametrize("path", [p for p in FIXTURE_FILES if "-pass-" in p.name], ids=lambda path: path.stem)
def test_passing_fixture_is_legal(path):
    report = runner.check(read_position_file(path))
    assert report.violations == []
    case = case_of(path)
    assert not [r for r in report.findings if within(r, case) and r.severity in ("unchecked", "warning") and r.location]


@pytest.mark.parametrize("path", [p for p in FIXTURE_FILES if "-fail-" in p.name], ids=lambda path: path.stem)
def test_failing_fixture_breaks_its_case(path):
    report = runner.check(read_position_file(path))
    assert [violation for violation in report.violations if within(violation, case_of(path))]


def test_every_decision_belongs_to_an_indexed_case():
    indexed = {str(entry.number) for entry in game.case_index}
    assert game.decisions and set(game.decisions) <= indexed
