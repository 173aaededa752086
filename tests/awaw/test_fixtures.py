"""Every fixture save gives exactly the results its header expects, and every check has a pass and a fail."""

from __future__ import annotations

import pytest

from validator.cases import CaseNumber
from validator.games import get

from .fixtures import fixtures, results, token

ALL = fixtures()


@pytest.mark.parametrize("fixture", ALL, ids=[fixture.name for fixture in ALL])
def test_fixture_gives_what_it_expects(fixture):
    found = results(fixture)
    tokens = {token(result) for result in found} - {None}
    errors_and_warnings = {item for item in tokens if not item.endswith(":info")}
    messages = "\n".join(f"[{result.case}] {result.severity}: {result.message}" for result in found)
    assert errors_and_warnings == set(fixture.expect) - {item for item in fixture.expect if item.endswith(":info")}, messages
    own = CaseNumber.parse(fixture.case)
    triggered = [item for item in tokens if CaseNumber.parse(item.split(":")[0]).is_within(own)]
    if fixture.verdict == "fail":
        assert triggered, f"{fixture.name} should trigger {fixture.case}:\n{messages}"
    else:
        assert not triggered, f"{fixture.name} should not trigger {fixture.case}:\n{messages}"


def indexed(number: CaseNumber, index: set) -> bool:
    """A numbered case in the plugin's index, or a lettered item of one (the index lists numbered rules only)."""
    return number in index or (bool(number.letter) and number.parent in index)


def test_every_check_has_a_passing_and_a_failing_fixture():
    game = get("awaw")
    index = {entry.number for entry in game.case_index}
    covered = {(CaseNumber.parse(fixture.case), fixture.verdict) for fixture in ALL}
    for check in game.rules.checks():
        assert indexed(check.case, index), f"{check.rule} is not in plugin/awaw/cases.toml"
        assert (check.case, "pass") in covered, f"{check.rule} ({check.name}) has no passing fixture"
        assert (check.case, "fail") in covered, f"{check.rule} ({check.name}) has no failing fixture"


def test_every_case_a_result_names_is_in_the_index():
    index = {entry.number for entry in get("awaw").case_index}
    named = {result.case for fixture in ALL for result in results(fixture)}
    assert all(indexed(case, index) for case in named), sorted(str(case) for case in named if not indexed(case, index))


@pytest.mark.rulebooks
def test_every_lettered_item_a_check_names_is_an_item_of_the_real_rulebook(import_real):
    from validator import instance, store
    from validator.rulebook import storage

    import_real("awaw")
    connection = store.connect(instance.database_path(instance.folder()))
    try:
        book = storage.load(connection, "awaw")
    finally:
        connection.close()
    named = {check.case for check in get("awaw").rules.checks()}
    named |= {result.case for fixture in ALL for result in results(fixture)}
    lettered = {case for case in named if case.letter}
    assert lettered and all(case in book.cases for case in lettered), sorted(
        str(case) for case in lettered if case not in book.cases)
