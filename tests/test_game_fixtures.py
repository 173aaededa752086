"""Every game's fixtures through one harness, and every game's completeness, for each game registered.

The layout and the header a fixture carries are described in
``tests/game_fixtures.py``.  A game added to the registry (in the tree or as
an outside pack) is picked up here without a line of its own: its fixtures
are run and its completeness is checked, so a game with a check and no
fixtures fails here until it has them.  The example game of
docs/writing-a-game.md (``tests/example_game``) is installed as an outside
pack for these tests, so its fixtures run here too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from validator import games, instance, runner, store
from validator.cases import CaseNumber
from validator.games import Game, registry
from validator.moves.diff import difference
from validator.rulebook import storage
from validator.rules import Result
from validator.saves.xml_reader import read_position_file

from tests import game_fixtures, outside_pack
from tests.conftest import GAME_FILES
from tests.game_fixtures import Fixture, must_be_listed, speaks

GAME_IDS = sorted(set(registry()) | {folder.name for folder in game_fixtures.game_folders()})
FIXTURE_PATHS = [path for folder in game_fixtures.game_folders() for path in game_fixtures.fixture_paths(folder)]
BAD_INPUTS = [bad for folder in game_fixtures.game_folders() for bad in game_fixtures.bad_inputs(folder)]


def path_id(path: Path) -> str:
    return "/".join(path.parts[-3:-1] + (path.stem,))


@pytest.fixture(scope="module", autouse=True)
def example_pack(tmp_path_factory):
    """The example game, loaded through its entry point as an installed pack would be, and registered meanwhile."""
    folder = tmp_path_factory.mktemp("example-pack")
    outside_pack.install(folder, "referee-fen-example", {outside_pack.EXAMPLE_GAME: outside_pack.EXAMPLE_ENTRY_POINT})
    with outside_pack.on_path(folder):
        found = games.Registry()
        game = found[outside_pack.EXAMPLE_GAME]
    assert not found.failures, found.failures
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(registry(), game.id, game)
        yield game


@pytest.fixture(scope="module")
def drawn():
    """The results each fixture draws, worked out once for the tests of this module."""
    found: dict[Path, list[Result]] = {}

    def results(fixture: Fixture) -> list[Result]:
        if fixture.path not in found:
            position = read_position_file(fixture.header_path)
            assert position.game == fixture.game, f"{fixture.path} is a save of {position.game}, not {fixture.game}"
            drawn_results = list(runner.iter_results(position))
            if fixture.is_pair:
                before = read_position_file(fixture.path / game_fixtures.BEFORE)
                drawn_results += runner.iter_move_results(difference(before, position))
            found[fixture.path] = drawn_results
        return found[fixture.path]

    return results


def game_of(game_id: str) -> Game:
    games = registry()
    assert game_id in games, f"tests/fixtures/{game_id} holds fixtures of a game the registry does not know"
    return games[game_id]


def fixtures_of(game_id: str) -> list[Fixture]:
    folder = game_fixtures.ROOT / game_id
    return [game_fixtures.read_fixture(path) for path in game_fixtures.fixture_paths(folder)] if folder.is_dir() else []


def indexed(number: CaseNumber, index: set[CaseNumber]) -> bool:
    """A case of the index, or a lettered item of one (an index lists cases, not their items)."""
    return number in index or (number.is_item and number.parent in index)


def listing(results: list[Result]) -> str:
    return "\n".join(f"  [{result.case}] {result.severity}: {result.message}" for result in results)


# -- each fixture ---------------------------------------------------------------


@pytest.mark.parametrize("path", FIXTURE_PATHS, ids=path_id)
def test_a_fixture_draws_every_result_its_header_expects_and_no_other(path, drawn):
    fixture = game_fixtures.read_fixture(path)
    results = drawn(fixture)
    for expected in fixture.expectations:
        matching = [
            result for result in results if (result.case, result.severity) == (expected.case, expected.severity)
        ]
        assert matching, f"{fixture.id} expects {expected}, but draws:\n{listing(results)}"
        for words in expected.words:
            assert any(words in result.message for result in matching), (
                f"{fixture.id}: no {expected.case} {expected.severity} result says {words!r}:\n{listing(matching)}"
            )
    listed = {(expected.case, expected.severity) for expected in fixture.expectations}
    unlisted = [
        result for result in results
        if must_be_listed(result, fixture.case) and (result.case, result.severity) not in listed
    ]
    assert not unlisted, f"{fixture.id} draws results its header does not list:\n{listing(unlisted)}"


@pytest.mark.parametrize("path", FIXTURE_PATHS, ids=path_id)
def test_a_failing_fixture_makes_its_case_speak_and_a_passing_one_keeps_it_quiet(path, drawn):
    fixture = game_fixtures.read_fixture(path)
    results = drawn(fixture)
    own = [result for result in results if result.case.is_within(fixture.case)]
    if fixture.verdict == "fail":
        assert any(speaks(result, fixture.case) for result in own), (
            f"{fixture.id} should draw an error, a warning, an unchecked finding or an effect of {fixture.case}; "
            f"it draws:\n{listing(results)}"
        )
    else:
        loud = [result for result in own if result.severity != "info"]
        assert not loud, f"{fixture.id} should draw nothing of {fixture.case} but information:\n{listing(loud)}"


@pytest.mark.parametrize("path", FIXTURE_PATHS, ids=path_id)
def test_every_result_is_stamped_with_the_game_of_the_fixture(path, drawn):
    fixture = game_fixtures.read_fixture(path)
    results = drawn(fixture)
    assert all(result.game == fixture.game and result.rule == f"{fixture.game}:{result.case}" for result in results)


@pytest.mark.parametrize("bad", BAD_INPUTS, ids=lambda bad: bad.id)
def test_a_save_the_game_must_refuse_exits_2_naming_file_line_and_problem(bad, run_cli):
    code, out, err = run_cli("check", bad.path)
    assert code == 2, (out, err)
    assert out == ""
    assert "Traceback" not in err
    # A problem with the map as a whole (its zones) has no line of its own.
    assert (f"{bad.path}: " if bad.line is None else f"{bad.path}, line {bad.line}: ") in err, err
    assert bad.words in err, err


# -- each game's completeness -----------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_case_a_check_names_is_in_the_case_index(game_id):
    game = game_of(game_id)
    index = {entry.number for entry in game.case_index}
    missing = [check.rule for check in game.rules.checks() if not indexed(check.case, index)]
    assert not missing, f"checks of cases missing from {game.case_index_path}: {', '.join(missing)}"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_registered_case_has_a_passing_and_a_failing_fixture(game_id):
    game = game_of(game_id)
    fixtures = fixtures_of(game_id)
    kept = {(fixture.case, fixture.verdict) for fixture in fixtures}
    pairs = {(fixture.case, fixture.verdict) for fixture in fixtures if fixture.is_pair}
    lacking = [
        f"tests/fixtures/{game_id}/{case}/{verdict}-*.xml"
        for case in dict.fromkeys(check.case for check in game.rules.judging("position"))
        for verdict in game_fixtures.VERDICTS
        if (case, verdict) not in kept
    ]
    lacking += [
        f"tests/fixtures/{game_id}/{case}/{verdict}-*/ (a pair of saves)"
        for case in dict.fromkeys(check.case for check in game.rules.judging("move"))
        for verdict in game_fixtures.VERDICTS
        if (case, verdict) not in pairs
    ]
    assert not lacking, "no fixture matches " + ", ".join(lacking)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_case_folder_is_a_registered_case(game_id):
    game = game_of(game_id)
    registered = {str(check.case) for check in game.rules.checks()}
    folder = game_fixtures.ROOT / game_id
    strays = [path.name for path in game_fixtures.case_folders(folder)] if folder.is_dir() else []
    assert not [name for name in strays if name not in registered], (
        f"tests/fixtures/{game_id} has folders for cases no check is registered at: "
        + ", ".join(name for name in strays if name not in registered)
    )


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_case_a_fixture_draws_or_expects_is_in_the_case_index(game_id, drawn):
    game = game_of(game_id)
    index = {entry.number for entry in game.case_index}
    named = set()
    for fixture in fixtures_of(game_id):
        named |= {result.case for result in drawn(fixture)} | {expected.case for expected in fixture.expectations}
    assert not [case for case in named if not indexed(case, index)], sorted(
        str(case) for case in named if not indexed(case, index)
    )


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_decision_and_unchecked_declaration_is_of_an_indexed_case(game_id):
    game = game_of(game_id)
    index = {entry.number for entry in game.case_index}
    declared = [*game.decisions, *game.unchecked]
    assert not [key for key in declared if not indexed(CaseNumber.parse(key), index)], declared


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_check_says_its_rule_in_our_words(game_id):
    game = game_of(game_id)
    assert not [check.rule for check in game.rules.checks() if not check.summary], "checks without a docstring"


@pytest.mark.rulebooks
@pytest.mark.parametrize("game_id", sorted(GAME_FILES))
def test_every_lettered_item_a_check_or_fixture_names_is_an_item_of_the_real_rulebook(game_id, import_real, drawn):
    import_real(game_id)
    connection = store.connect(instance.database_path(instance.folder()))
    try:
        book = storage.load(connection, game_id)
    finally:
        connection.close()
    named = {check.case for check in game_of(game_id).rules.checks()}
    for fixture in fixtures_of(game_id):
        named |= {result.case for result in drawn(fixture)}
    lettered = {case for case in named if case.letter}
    missing = sorted(str(case) for case in lettered if case not in book.cases)
    assert not missing, f"lettered items the imported {game_id} rulebook does not have: {', '.join(missing)}"
