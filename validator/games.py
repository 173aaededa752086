"""The game registry: in-tree plugins listed here, outside packs by entry point.

A game plugin exposes one object, ``game``, a :class:`Game`.  The core knows
games only through this registry.
"""

from __future__ import annotations

import importlib
import tomllib
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib.metadata import entry_points
from pathlib import Path
from typing import Callable, Iterable, Mapping

from validator.cases import CaseNumber
from validator.rules import RuleSet

IN_TREE_PLUGINS = ("plugin.tito", "plugin.awaw", "plugin.tww")
ENTRY_POINT_GROUP = "referee.games"


class UnknownGame(LookupError):
    """No plugin answers to this game id."""


@dataclass(frozen=True)
class IndexEntry:
    """A case number with a short title in our own words (no rulebook text)."""

    number: CaseNumber
    title: str


@dataclass(frozen=True)
class Game:
    """What a plugin tells the core about its game."""

    id: str
    title: str
    rulebook_files: tuple[str, ...]  # the file names a user is expected to import
    case_index_path: Path
    rules: RuleSet
    fixups_path: Path | None = None
    # The folder of the map files the plugin ships (installed with it as package data); a save
    # names one by its file name.  None: the game ships no maps.
    maps_folder: Path | None = None
    # Adds the locations the game's rules define to a map read from a save; it may
    # raise SaveInputError naming the map file and line for a map the game cannot use.
    prepare_map: Callable | None = None
    # Yields (line, problem) for game-specific parts of a save the game cannot use.
    validate_position: Callable[..., Iterable[tuple[int, str]]] | None = None
    # Draws a position (and the locations its report marks) as an SVG document string.
    picture: Callable | None = None
    # One or two sentences under the picture on the report page: what it draws and how it
    # marks an offence (colour, numbers), true to this game's picture.
    picture_caption: str = ""
    # Where the rulebook is ambiguous: case number -> how Referee reads it, in our words.
    decisions: Mapping[str, str] = field(default_factory=dict)
    # Cases Referee knows it cannot decide: case number -> what deciding it would need (a fact
    # the save does not carry, a rule outside the imported text), in our words. See coverage.py.
    unchecked: Mapping[str, str] = field(default_factory=dict)

    def decision(self, number: CaseNumber) -> str:
        """Referee's documented reading of an ambiguous case, or ""."""
        return self.decisions.get(str(number), "")

    @cached_property
    def case_index(self) -> list[IndexEntry]:
        """The plugin's case index, in case order, read once."""
        return load_case_index(self.case_index_path)

    def index_title(self, number: CaseNumber) -> str:
        """Our short title for a case, or "" when the index does not list it."""
        return next((entry.title for entry in self.case_index if entry.number == number), "")


def load_case_index(path: Path) -> list[IndexEntry]:
    """Read a plugin's ``cases.toml``: a table ``[cases]`` of number = title."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    entries = [IndexEntry(CaseNumber.parse(number), title) for number, title in data["cases"].items()]
    return sorted(entries, key=lambda entry: entry.number)


@cache
def registry() -> dict[str, Game]:
    """Every known game by id: the in-tree plugins, then installed packs."""
    games: dict[str, Game] = {}
    for module_name in IN_TREE_PLUGINS:
        game = importlib.import_module(module_name).game
        games[game.id] = game
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        game = entry.load()
        games.setdefault(game.id, game)
    return games


def get(game_id: str) -> Game:
    games = registry()
    if game_id not in games:
        known = ", ".join(sorted(games))
        raise UnknownGame(f"There is no game '{game_id}'. Known games: {known}.")
    return games[game_id]
