"""Coverage: every case of a game's index is enforced, unchecked or not encoded, with its checks and fixtures."""

from __future__ import annotations

import dataclasses
import json

import pytest

from validator import coverage, rules
from validator.cases import CaseNumber
from validator.games import Game, registry

INDEX = {
    "2": "Pads",
    "2.1": "Crowding",
    "2.2": "Herons",
    "3": "Weather",
    "3.1": "Rain",
    "3.2": "Fog",
    "4": "Scoring",
    "4.1": "Flies eaten",
    "5": "Migration",
    "5.1": "Leaving the pond",
    "5.2": "Returning",
}


def marsh_rules() -> rules.RuleSet:
    @rules.case("2.1")
    def crowded_pad(position):
        """A pad holds at most two frogs."""
        yield from ()

    @rules.case("2.2A", severity="warning")
    def heron_next_to_frog(position):
        """No heron on a frog's pad."""
        yield from ()

    @rules.case("4.1", severity="unchecked")
    def flies_not_counted(position):
        """Flags every frog, since the save does not count flies."""
        yield from ()

    @rules.case("5")
    def migration_out_of_season(position):
        """Frogs migrate only in autumn, leaving (5.1) or returning (5.2)."""
        yield from ()

    return rules.RuleSet.from_functions(
        "marsh", [crowded_pad, heron_next_to_frog, flies_not_counted, migration_out_of_season]
    )


@pytest.fixture
def marsh(tmp_path) -> Game:
    folder = tmp_path / "marsh"
    folder.mkdir()
    (folder / "cases.toml").write_text(
        "[cases]\n" + "".join(f'"{number}" = "{title}"\n' for number, title in INDEX.items())
    )
    return Game(
        id="marsh",
        title="Marsh",
        rulebook_files=("marsh.txt",),
        folder=folder,
        rules=marsh_rules(),
        unchecked={"3": "the weather of the turn, which the save does not record", "4.1": "a count of flies eaten"},
    )


def statuses(found: coverage.Coverage) -> dict[str, str]:
    return {str(case.number): case.status for case in found.cases}


def test_each_case_of_the_index_gets_one_status(marsh):
    found = coverage.of_game(marsh)
    assert statuses(found) == {
        "2": "not encoded",
        "2.1": "enforced",  # its own check
        "2.2": "enforced",  # a check registered at its lettered item 2.2A
        "3": "unchecked",
        "3.1": "unchecked",  # within a declared case
        "3.2": "unchecked",
        "4": "not encoded",
        "4.1": "unchecked",  # its only check flags, it does not decide
        "5": "enforced",
        "5.1": "enforced",  # the check of 5 may report any case within it
        "5.2": "enforced",
    }
    by_number = {str(case.number): case for case in found.cases}
    assert [check.name for check in by_number["2.2"].checks] == ["heron_next_to_frog"]
    assert [check.name for check in by_number["4.1"].checks] == ["flies_not_counted"]
    assert by_number["3.2"].needs == "the weather of the turn, which the save does not record"
    assert by_number["2"].checks == () and by_number["2"].needs == ""
    assert (by_number["2"].enforced_below, by_number["2"].cases_below) == (2, 2)
    assert (by_number["4"].enforced_below, by_number["4"].cases_below) == (0, 1)


def test_the_totals_a_report_quotes(marsh):
    found = coverage.of_game(marsh)
    assert (found.checked, found.count("unchecked"), found.count("not encoded"), found.total) == (5, 4, 2, 11)
    assert found.summary_json() == {
        "checked_cases": 5,
        "move_cases": 0,
        "unchecked_cases": 4,
        "index_cases": 11,
        "url": "/marsh/coverage",
    }
    assert found.sentence() == (
        "Checked against 5 of the 11 sections and cases of the marsh case index; run referee rules coverage marsh to "
        "see which."
    )


def test_fixtures_are_counted_from_case_folders_and_unknown_without_a_folder(marsh, tmp_path):
    root = tmp_path / "fixtures"
    folder = root / "marsh"
    saves = {
        "2.1": ("pass-two.xml", "fail-three.xml", "fail-four.xml", "notes.txt"),
        "2.2A": ("pass-apart.xml", "fail-together.xml"),
        "5": ("pass-autumn.xml",),
        "bad-input": ("pass-unknown-frog.xml",),  # refused saves are no case's fixtures
    }
    for case, names in saves.items():
        (folder / case).mkdir(parents=True)
        for name in names:
            (folder / case / name).write_text("<position/>")
    for name in ("map.xml", "2.1-pass-beside-the-folders.xml"):  # shared data, and a name in no case folder
        (folder / name).write_text("<position/>")
    found = {str(case.number): case for case in coverage.of_game(marsh, fixtures_root=root).cases}
    assert found["2.1"].fixtures == coverage.FixtureCount(passing=1, failing=2)
    assert found["2.2"].fixtures == coverage.FixtureCount(passing=1, failing=1)
    assert found["5.2"].fixtures == coverage.FixtureCount(passing=1, failing=0)
    assert found["2"].fixtures is None  # no check, nothing to count
    elsewhere = coverage.of_game(marsh, fixtures_root=tmp_path / "an-installed-referee")
    assert not elsewhere.fixtures_known and all(case.fixtures is None for case in elsewhere.cases)
    assert coverage.FIXTURES_ELSEWHERE in coverage.as_text(elsewhere)


def test_the_text_and_json_listings(marsh):
    found = coverage.of_game(marsh)
    lines = coverage.as_text(found).splitlines()
    assert lines[0] == "marsh: 5 of 11 sections and cases enforced, 4 unchecked, 2 not encoded."
    assert "  2.2  [enforced]  Herons" in lines
    assert "2  [not encoded]  Pads  (2 of 2 below enforced)" in lines
    assert "      marsh:2.2A heron_next_to_frog (warning)" in lines
    assert "      needs: a count of flies eaten" in lines
    data = coverage.as_json(found)
    json.dumps(data)
    assert (data["game"], data["checked_cases"], data["not_encoded_cases"]) == ("marsh", 5, 2)
    entry = next(case for case in data["cases"] if case["case"] == "5.1")
    assert entry["status"] == "enforced" and entry["parent"] == "5"
    assert entry["checks"] == [
        {
            "rule": "marsh:5",
            "case": "5",
            "name": "migration_out_of_season",
            "severity": "error",
            "summary": "Frogs migrate only in autumn, leaving (5.1) or returning (5.2).",
        }
    ]


def test_a_game_whose_index_cannot_be_read_says_so(marsh, tmp_path):
    broken = dataclasses.replace(marsh, folder=tmp_path / "missing")
    found = coverage.of_game(broken)
    assert found.total == 0 and found.index_problem
    assert found.sentence().startswith("Referee cannot say how many cases its checks cover: the marsh case index")


# -- the real games ---------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(registry().values(), key=lambda game: game.id), ids=lambda game: game.id)
def test_every_check_and_every_declaration_lands_on_the_index(game):
    found = coverage.of_game(game)
    counted = {check for case in found.cases for check in case.checks}
    assert counted == set(game.rules.checks()), "a check answers for no case of the index"
    index = {entry.number for entry in game.case_index}
    by_number = {case.number: case for case in found.cases}
    for number, needs in game.unchecked.items():
        assert CaseNumber.parse(number) in index, f"{game.id} declares {number} unchecked; it is not indexed"
        assert by_number[CaseNumber.parse(number)].status == "unchecked", f"{number} has a check that decides it"
        assert len(needs.split()) >= 8, f"say what deciding {number} would need"
    for case in found.cases:
        if case.status == "unchecked":
            assert case.needs, f"{case.number} is unchecked without saying what it needs"
        if case.status == "enforced":
            assert case.fixtures is not None and case.fixtures.passing and case.fixtures.failing, case.number


def test_tito_knows_what_losses_and_the_operations_allowance_would_need():
    tito = registry()["tito"]
    found = {str(case.number): case for case in coverage.of_game(tito).cases}
    assert found["14.3"].status == found["15.3"].status == found["15.32"].status == "unchecked"
    assert "preceding Yugoslav Movement Phase" in found["14.3"].needs
    assert found["6.21"].status == "enforced"
    assert list(found["6.21"].checks) == tito.rules.enforcing(CaseNumber.parse("6.21"))
    assert found["8.41"].status == "not encoded"


@pytest.mark.parametrize("game_id", ["tito", "awaw", "tww"])
def test_the_ancestors_of_every_index_case_are_the_numbers_above_it_in_any_order_asked(game_id, monkeypatch):
    """Each case's ancestor keys are made from its fields, walked once; they are the fields of CaseNumber.ancestors."""
    numbers = [entry.number for entry in registry()[game_id].case_index]
    numbers += [number.child(12) for number in numbers if not number.is_item]  # dotted below, plain above
    for order in (numbers, numbers[::-1]):
        monkeypatch.setattr(coverage, "_ancestors_by_key", {})
        for number in order:
            assert coverage._ancestor_keys(number.fields) == tuple(above.fields for above in number.ancestors()), number


@pytest.mark.parametrize("game_id", ["tito", "awaw", "tww"])
def test_a_reports_totals_counted_from_the_fields_are_those_of_the_listing(game_id):
    """The totals a report quotes are counted without the listing, and agree with it once it is made."""
    game = registry()[game_id]
    quick = coverage.of_game(game, count_fixture_files=False)
    totals = (quick.summary_json(moves=False), quick.sentence(moves=False), quick.total_words)
    assert "cases" not in vars(quick)  # the listing is not made for a report
    listed = quick.cases
    assert len(listed) == quick.total
    for status in (coverage.ENFORCED, coverage.UNCHECKED, coverage.NOT_ENCODED):
        assert quick.count(status) == sum(1 for case in listed if case.status == status)
    assert quick.move_cases == sum(1 for case in listed if case.judged_on_moves_only)
    assert totals == (quick.summary_json(moves=False), quick.sentence(moves=False), quick.total_words)
