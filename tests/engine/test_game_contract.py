"""The game contract: checks are tagged, not registered; a game lists its check modules; its data comes
from its folder; and a game with no checks never calls a position legal."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import sys
import textwrap
from pathlib import Path

import pytest

from validator import games, runner
from validator.errors import InputError
from validator.games import IN_TREE_GAMES
from validator.rules import POSITION, RuleSet, case, tags_of
from validator.saves.xml_reader import read_position_file

from .conftest import FROG, position_xml

ROOT = Path(__file__).resolve().parents[2]

FIRST = '''
from validator.rules import case


@case("2.2")
def heron_on_a_pad(position):
    """A heron may not stand on a pad."""
    yield from ()


def helper():
    return 1


@case("2.1")
def crowded_pad(position):
    """A pad holds at most two frogs."""
    yield from ()
'''

SECOND = '''
from validator.rules import case

from marsh_checks.first import crowded_pad  # imported, so it stays the first module's check


@case("3", severity="warning")
@case("4")
def frog_out_of_season(position):
    """Frogs stay home in winter (3), and count for nothing then (4)."""
    yield from ()
'''


@pytest.fixture
def marsh_checks(tmp_path, monkeypatch):
    package = tmp_path / "marsh_checks"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "first.py").write_text(textwrap.dedent(FIRST), encoding="utf-8")
    (package / "second.py").write_text(textwrap.dedent(SECOND), encoding="utf-8")
    (package / "empty.py").write_text("from marsh_checks.first import crowded_pad  # noqa: F401\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield package
    for name in ("marsh_checks.empty", "marsh_checks.second", "marsh_checks.first", "marsh_checks"):
        monkeypatch.delitem(sys.modules, name, raising=False)


def test_tagging_a_check_only_marks_the_function(marsh_checks):
    first = importlib.import_module("marsh_checks.first")
    (tag,) = tags_of(first.crowded_pad)
    assert (str(tag.case), tag.severity, tag.judges) == ("2.1", "error", POSITION)
    assert tags_of(first.helper) == ()
    assert list(first.crowded_pad(None)) == []  # still the plain generator


def test_a_rule_set_collects_module_by_module_then_in_definition_order(marsh_checks):
    first = importlib.import_module("marsh_checks.first")
    second = importlib.import_module("marsh_checks.second")
    rules = RuleSet.from_modules("marsh", (second, first))
    listed = [(check.name, str(check.case), check.severity) for check in rules.checks()]
    assert listed == [
        ("frog_out_of_season", "4", "error"),  # the tag nearest the function first
        ("frog_out_of_season", "3", "warning"),
        ("heron_on_a_pad", "2.2", "error"),
        ("crowded_pad", "2.1", "error"),
    ]
    assert {check.game for check in rules.checks()} == {"marsh"}
    assert rules.judging(POSITION) == rules.checks()
    only_first = RuleSet.from_modules("marsh", (first,))
    assert [check.name for check in only_first.checks()] == ["heron_on_a_pad", "crowded_pad"]


def test_a_listed_module_without_checks_or_an_untagged_function_is_a_mistake(marsh_checks):
    empty = importlib.import_module("marsh_checks.empty")
    first = importlib.import_module("marsh_checks.first")
    with pytest.raises(ValueError, match="marsh_checks.empty is listed as a check module of 'marsh' but defines no"):
        RuleSet.from_modules("marsh", (empty,))
    with pytest.raises(ValueError, match="helper is listed as a check of 'marsh' but has no @case tag"):
        RuleSet.from_functions("marsh", [first.helper])


def test_a_check_says_what_it_judges_a_position_or_a_move():
    with pytest.raises(ValueError, match="a check judges one of position, move, not 'turn'"):
        case("2.1", judges="turn")
    assert tags_of(case("2.1", judges="move")(lambda before, after, difference: ()))[0].judges == "move"
    with pytest.raises(ValueError, match="severity must be one of"):
        case("2.1", severity="fatal")


# -- the in-tree games ---------------------------------------------------------------------------


def tagged_functions(package_name: str) -> dict[str, list]:
    """Every module of a game's package with the tagged functions it defines, found by walking the folder."""
    package = importlib.import_module(package_name)
    found = {}
    for module_info in pkgutil.iter_modules(package.__path__, package_name + "."):
        module = importlib.import_module(module_info.name)
        defined = [value for value in vars(module).values() if tags_of(value) and value.__module__ == module.__name__]
        if defined:
            found[module.__name__] = defined
    return found


@pytest.mark.parametrize("game_id", list(IN_TREE_GAMES))
def test_every_check_module_of_a_game_is_listed_and_in_its_order(game_id):
    game = games.get(game_id)
    package = importlib.import_module(IN_TREE_GAMES[game_id])
    listed = [module.__name__ for module in package.CHECK_MODULES]
    found = tagged_functions(IN_TREE_GAMES[game_id])
    assert sorted(listed) == sorted(found), "a module defines checks the game does not list, or the reverse"
    in_rule_set = list(dict.fromkeys(check.function for check in game.rules.checks()))
    assert in_rule_set == [function for name in listed for function in found[name]]


@pytest.mark.parametrize("game_id", list(IN_TREE_GAMES))
def test_a_games_data_is_found_from_its_folder(game_id):
    game = games.get(game_id)
    assert game.folder == ROOT / "plugin" / game_id
    assert game.case_index_path == game.folder / "cases.toml" and game.case_index_path.is_file()
    assert game.maps_folder.is_dir() and any(game.maps_folder.glob("*.xml"))
    assert game.default_mapping_path == game.mappings_folder / "vassal-mapping.xml"
    assert game.default_mapping_path.is_file()
    assert (game.fixups_path is not None) == (game.folder / "fixups.toml").is_file()


def test_only_the_third_world_war_ships_fixups():
    assert games.get("tww").fixups_path == ROOT / "plugin" / "tww" / "fixups.toml"
    assert games.get("tito").fixups_path is None and games.get("awaw").fixups_path is None


def test_no_code_looks_for_game_data_beside_the_case_index():
    sources = [*ROOT.joinpath("validator").rglob("*.py"), *ROOT.joinpath("plugin").rglob("*.py")]
    offenders = [str(path.relative_to(ROOT)) for path in sources if "case_index_path.parent" in path.read_text("utf-8")]
    assert offenders == []


# -- a verdict needs checks ------------------------------------------------------------------------


@pytest.fixture
def pond_without_checks(pond, monkeypatch):
    game = dataclasses.replace(pond, rules=RuleSet("pond"))
    monkeypatch.setitem(games.registry(), "pond", game)
    return game


def test_a_game_with_no_checks_never_calls_a_position_legal(pond_without_checks, write_save):
    position = read_position_file(write_save(position_xml(FROG.format(id="f1", at="south/pad"))))
    for ask in (runner.check, runner.is_legal, lambda position: list(runner.iter_results(position))):
        with pytest.raises(runner.NothingToCheck) as raised:
            ask(position)
        assert isinstance(raised.value, InputError) and raised.value.source == str(position.source)
        assert raised.value.problem == (
            "Pond (pond) has no checks of a position, so Referee cannot say whether this position is legal; "
            "its rulebook can still be read (referee rules list pond)."
        )


def test_the_command_line_says_so_and_exits_2(pond_without_checks, write_save, run_cli):
    save = write_save(position_xml(FROG.format(id="f1", at="south/pad")))
    code, out, err = run_cli("check", save)
    assert (code, out) == (2, "")
    assert err == f"referee: {save}: Pond (pond) has no checks of a position, so Referee cannot say whether this " \
                  "position is legal; its rulebook can still be read (referee rules list pond).\n"
