"""The registry: in-tree games loaded one at a time, outside packs by entry point, and a broken pack
reported as one sentence naming it while every other game keeps working.

The packs are installed for real: a ``*.dist-info`` folder with its
``entry_points.txt`` on ``sys.path``, which is what ``importlib.metadata``
reads for a pack pip installed.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from validator import games
from validator.web import create_app

from tests import outside_pack

ROOT = Path(__file__).resolve().parents[2]

GOOD_PACK = '''
from pathlib import Path

from validator.games import Game
from validator.rules import RuleSet, case


@case("1")
def nothing_wrong(position):
    """Everything is allowed in the swamp."""
    yield from ()


game = Game(id="swamp", title="Swamp", folder=Path(__file__).resolve().parent,
            rules=RuleSet.from_functions("swamp", [nothing_wrong]))
'''

ENTRY_POINTS = {
    "broken": "broken_pack:game",
    "stranger": "stranger_pack:game",
    "tito": "swamp_pack:game",
    "misnamed": "swamp_pack:game",
    "swamp": "swamp_pack:game",
}
PACK = "referee-swamp-packs 0.3"


def failure(name: str, target: str, reason: str) -> str:
    return (f"The game pack '{name}' ({PACK}, entry point {target}) could not be loaded ({reason}); "
            "the other games work without it, so fix, reinstall or uninstall that pack.")


EXPECTED_FAILURES = [
    failure("broken", "broken_pack:game", "RuntimeError: the pack's data folder is missing"),
    failure("stranger", "stranger_pack:game", "stranger_pack:game is a str, not a validator.games.Game"),
    failure("tito", "swamp_pack:game", "it takes the id of the game 'tito' that ships with Referee"),
    failure("misnamed", "swamp_pack:game",
            "its game calls itself 'swamp'; the entry point must be named for the game's id"),
]


@pytest.fixture(scope="module")
def packs(tmp_path_factory) -> Path:
    """A folder holding one installed distribution whose entry points are a working pack and four broken ones."""
    folder = tmp_path_factory.mktemp("packs")
    broken = "raise RuntimeError(\"the pack's data folder is missing\")\n"
    (folder / "broken_pack.py").write_text(broken, encoding="utf-8")
    (folder / "stranger_pack.py").write_text('game = "not a game"\n', encoding="utf-8")
    (folder / "swamp_pack").mkdir()
    (folder / "swamp_pack" / "__init__.py").write_text(GOOD_PACK, encoding="utf-8")
    (folder / "swamp_pack" / "cases.toml").write_text('[cases]\n"1" = "Anything goes"\n', encoding="utf-8")
    outside_pack.install(folder, "referee-swamp-packs", ENTRY_POINTS, version="0.3")
    return folder


@pytest.fixture
def installed(packs, monkeypatch):
    monkeypatch.syspath_prepend(str(packs))
    yield packs
    for name in ("broken_pack", "stranger_pack", "swamp_pack"):
        monkeypatch.delitem(sys.modules, name, raising=False)


def test_an_in_tree_game_is_loaded_without_looking_at_the_packs(installed, caplog):
    registry = games.Registry()
    assert registry["tito"].id == "tito"
    assert "tito" in registry and registry.failures == () and caplog.records == []


def test_a_pack_is_looked_up_by_its_game_id(installed):
    registry = games.Registry()
    assert registry["swamp"].title == "Swamp" and registry.failures == ()
    assert "broken" not in registry
    assert registry.failures == (EXPECTED_FAILURES[0],)
    assert "nothing-installed-by-this-name" not in registry and len(registry.failures) == 1


def test_every_broken_pack_is_one_logged_sentence_and_the_other_games_keep_working(installed, caplog):
    registry = games.Registry()
    with caplog.at_level(logging.WARNING, logger="validator.games"):
        assert list(registry) == ["tito", "awaw", "tww", "swamp"]
    assert list(registry.failures) == EXPECTED_FAILURES
    assert [record.getMessage() for record in caplog.records] == EXPECTED_FAILURES
    assert registry["tito"] is games.get("tito")  # the in-tree game, not the pack that took its id
    assert [check.name for check in registry["swamp"].rules.checks()] == ["nothing_wrong"]
    list(registry)
    assert len(registry.failures) == len(EXPECTED_FAILURES)  # each is said once


def test_the_unknown_game_error_lists_the_games_that_loaded(installed, monkeypatch):
    monkeypatch.setattr(games, "_REGISTRY", games.Registry())
    with pytest.raises(games.UnknownGame, match=r"^There is no game 'chess'\. Known games: awaw, swamp, tito, tww\.$"):
        games.get("chess")


def run_referee(packs: Path, *arguments: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(packs), str(ROOT)])}
    return subprocess.run([sys.executable, "-m", "validator.cli", *arguments], capture_output=True, text=True,
                          env=environment, cwd=ROOT, timeout=120)


def test_the_command_line_says_each_broken_pack_on_stderr_and_goes_on(packs):
    listing = run_referee(packs, "info")
    assert listing.returncode == 0
    assert listing.stderr.splitlines() == EXPECTED_FAILURES
    assert "  swamp  Swamp: 1 check" in listing.stdout and "  tito   Tito" in listing.stdout
    checking = run_referee(packs, "rules", "list", "tito")  # an in-tree game: no pack is looked at
    assert checking.returncode == 0 and checking.stderr.startswith("The tito rulebook is not imported yet")
    assert "game pack" not in checking.stderr


def test_a_start_for_one_in_tree_game_loads_no_other_game(packs):
    program = ("import sys; from validator import games; games.get('tito'); "
               "print(sorted(name for name in sys.modules if name.startswith(('plugin.', 'swamp', 'broken'))"
               " and name.count('.') < 2))")
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(packs), str(ROOT)])}
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=environment, cwd=ROOT,
                          timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.strip() == "['plugin.tito']"


def test_the_web_app_logs_a_broken_pack_and_serves_the_other_games(installed, monkeypatch, tmp_path, caplog):
    monkeypatch.setattr(games, "_REGISTRY", games.Registry())
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "web.sqlite3"), "SECRET_KEY": "test"})
    with caplog.at_level(logging.WARNING, logger="validator.games"):
        page = app.test_client().get("/")
    assert page.status_code == 200
    assert "Tito and His Partisan Army" in page.get_data(as_text=True) and "Swamp" in page.get_data(as_text=True)
    assert [record.getMessage() for record in caplog.records if record.name == "validator.games"] == EXPECTED_FAILURES
