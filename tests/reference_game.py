"""Harbour Watch, a reference-only game: added and its rulebook imported through the CLI, as a user would.

Its rulebook (tests/rulebook/texts/harbour-watch.txt) is our own text for an
invented game, laid out unlike the SPI texts, so the page tests that run on
Tito's real rulebook run on it too without any real text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

GAME = "harbour-watch"
TITLE = "Harbour Watch"
TEXT = Path(__file__).parent / "rulebook" / "texts" / "harbour-watch.txt"


def add_and_import(run_cli) -> str:
    """``referee games add`` then ``referee rules import``; the import summary."""
    code, _out, err = run_cli("games", "add", GAME, "--title", TITLE)
    assert code == 0, err
    code, out, err = run_cli("rules", "import", GAME, TEXT)
    assert code == 0, err
    return out


def import_rulebook(request, game: str) -> str:
    """Import a game's rulebook by id: the real text of a plugin game (skipping without it), our own for Harbour Watch.

    Takes the test's ``request``, so a test on Harbour Watch alone never asks for the real texts.
    """
    if game == GAME:
        return add_and_import(request.getfixturevalue("run_cli"))
    return request.getfixturevalue("import_real")(game)


def with_reference_game(*plugin_games: str) -> list:
    """Game ids to parametrise over: the plugin games (which need the real texts), then Harbour Watch."""
    return [pytest.param(game, marks=pytest.mark.rulebooks) for game in plugin_games] + [GAME]
