"""The example game of docs/writing-a-game.md, end to end, installed as an outside pack.

Each step of the guide is run here as a user would run it: ``referee`` in a
fresh process that finds the pack only through its entry point, importing the
game's rulebook, listing its checks and coverage, checking its fixtures; and
its picture is drawn and passed through the cleaner the report page uses.
(tests/test_game_fixtures.py runs its fixtures with every other game's.)
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import lxml.html
import pytest
from lxml import etree

from validator import games, runner, svg
from validator.saves.xml_reader import read_position_file
from validator.web import create_app
from validator.web.pictures import clean_svg

from tests import outside_pack
from tests.game_fixtures import ROOT as FIXTURES

REPOSITORY = Path(__file__).resolve().parents[1]
EXAMPLE = REPOSITORY / "tests" / "example_game"
FAILING = FIXTURES / "fen" / "3.1" / "fail-three-in-one-hex.xml"
PASSING = FIXTURES / "fen" / "3.1" / "pass-two-in-each-hex.xml"


@pytest.fixture
def pack(tmp_path) -> Path:
    """A folder holding the example pack's dist-info, as ``pip install`` would leave it."""
    folder = tmp_path / "site"
    outside_pack.install(folder, "referee-fen-example", {outside_pack.EXAMPLE_GAME: outside_pack.EXAMPLE_ENTRY_POINT})
    return folder


@pytest.fixture
def referee(pack, tmp_path):
    """Run ``referee ARGS...`` in a new process that sees the pack; returns (exit code, stdout, stderr)."""
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(pack), str(REPOSITORY)]),
        "REFEREE_INSTANCE": str(tmp_path / "instance"),
    }

    def run(*arguments: str) -> tuple[int, str, str]:
        done = subprocess.run(
            [sys.executable, "-m", "validator.cli", *map(str, arguments)], cwd=tmp_path, env=environment,
            capture_output=True, text=True, timeout=120,
        )
        return done.returncode, done.stdout, done.stderr

    return run


def test_the_registry_finds_the_pack_through_its_entry_point_only(pack):
    assert "fen" not in games.Registry()  # not in the tree, and not installed
    with outside_pack.on_path(pack):
        found = games.Registry()
        game = found["fen"]
        assert list(found) == [*games.IN_TREE_GAMES, "fen"] and not found.failures
    assert game.folder == EXAMPLE and game.case_index_path == EXAMPLE / "cases.toml"
    assert [(str(check.case), check.name) for check in game.rules.checks()] == [("3.1", "crowded_hex")]


def test_the_rulebook_imports_and_its_cases_show(referee):
    code, out, err = referee("rules", "import", "fen", EXAMPLE / "fen-patrol.txt")
    assert code == 0, err
    code, out, err = referee("rules", "show", "fen", "3.1")
    assert code == 0, err
    assert "3.1" in out and "No hex may hold more than two units" in out
    code, out, err = referee("rules", "list", "fen")
    assert code == 0, err
    assert all(number in out for number in ("1.1", "2.2", "3.1", "3.2", "4.2"))


def test_the_checks_and_the_coverage_are_listed(referee):
    code, out, err = referee("rules", "checks", "fen")
    assert code == 0, err
    assert "fen:3.1" in out and "crowded_hex" in out
    code, out, err = referee("rules", "coverage", "fen")
    assert code == 0, err
    assert out.startswith("fen: 1 of 12 sections and cases enforced, 0 unchecked, 11 not encoded.")
    assert "fixtures: 2 passing, 1 failing" in out


def test_a_crowded_hex_is_a_violation_and_a_legal_position_is_legal(referee):
    code, out, err = referee("check", FAILING)
    assert code == 1, err
    assert "[3.1] 3 units in The Fen / 0202 (Reed, Sedge, Otter); the limit is 2" in out
    code, out, err = referee("check", PASSING)
    assert code == 0, err


def test_the_picture_outlines_the_crowded_hex_and_passes_the_page_cleaner(pack):
    with outside_pack.on_path(pack):
        game = games.Registry()["fen"]
    with pytest.MonkeyPatch.context() as patch:  # a save names its game, so reading it asks the registry
        patch.setitem(games.registry(), "fen", game)
        position = read_position_file(FAILING)
        drawn = game.picture(position, runner.check(position))
    root = etree.fromstring(clean_svg(drawn).encode())
    polygons = root.findall(svg.tag("polygon"))
    assert len(polygons) == len(position.map.locations) + 1  # every hex, and one outline
    (outline,) = [polygon for polygon in polygons if polygon.get("class") == "offence"]
    assert (outline.get("fill"), outline.get("stroke")) == ("none", "#d10000")
    assert len(root.findall(svg.tag("circle"))) == len(position.pieces)


def test_the_report_page_shows_the_picture_with_its_caption(pack, tmp_path):
    with outside_pack.on_path(pack):
        game = games.Registry()["fen"]
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "reports.sqlite3"), "SECRET_KEY": "test-only"})
    client = app.test_client()
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(games.registry(), "fen", game)
        response = client.post("/api/check", content_type="multipart/form-data",
                               data={"save": (io.BytesIO(FAILING.read_bytes()), FAILING.name)})
        assert response.status_code == 200, response.get_data(as_text=True)
        checked = response.get_json()
        page = lxml.html.fromstring(client.get(f"/reports/{checked['id']}").get_data(as_text=True))
    assert [violation["rule"] for violation in checked["violations"]] == ["fen:3.1"]
    (figure,) = page.xpath("//figure[contains(@class, 'position-picture')]")
    assert " ".join(figure.xpath("string(./figcaption)").split()) == game.picture_caption
    assert figure.xpath(".//*[local-name()='polygon'][@class='offence']")
