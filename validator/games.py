"""The game contract, and the registry that knows every game by its id.

A game is a folder and one object.  The folder has a fixed layout, so the
core finds a game's data from the folder alone::

    plugin/<game>/
      __init__.py     builds ``game``, a :class:`Game`, and lists the check modules
      cases.toml      the case index: number = short title in our own words
      fixups.toml     optional: repairs to a damaged rulebook text (no text in it)
      maps/           the map files the game ships, found by file name
      mappings/       VASSAL module mappings; ``vassal-mapping.xml`` is the default one
      <checks>.py     check modules: generators tagged ``@case("6.21")``

The object, a :class:`Game`, carries the game's id, title, rule set and
hooks.  Every hook has one name in every game, and a game without the need
leaves it ``None``:

``validate_position(position)``
    yields ``(line, problem)`` for each part of a save the game cannot use;
    the reader reports the first as an input error with the save's name.
``prepare_map(map_data)``
    returns the map with the locations the game's rules define added; it may
    raise an input error naming the map file and line.
``picture(position, report)``
    draws the position, marking what the report names, as an SVG string.

Besides the hooks it says ``picture_caption`` (what the picture shows),
``decisions`` (how Referee reads the cases the rulebook leaves open) and
``unchecked`` (the cases Referee knows it cannot decide, and why).

Registration never depends on importing something for its side effects:
the in-tree games are listed in :data:`IN_TREE_GAMES`, a game lists its own
check modules, and an outside pack names its object in the entry-point group
``referee.games`` under its game id.  docs/game-contract.md says the same
for a pack's author.
"""

from __future__ import annotations

import importlib
from _thread import RLock  # threading's RLock, without importing threading (issue 14's lean start-up)
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Protocol

from validator import compiled_methods
from validator.errors import InputError

compiled_methods.install()  # the first module of a command to make dataclasses: every one after it is made quicker

# Kept out of start-up (issue 14): the command line's parser imports this module for the game
# ids, and the case index, the rule set and the entry points are needed only later.
if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from validator.cases import CaseNumber
    from validator.model import MapData, Piece, Position
    from validator.report import Report
    from validator.rules import RuleSet
    from validator.vocabulary import Vocabulary

# The games that ship with Referee: id -> the package that exposes ``game``.
IN_TREE_GAMES: Mapping[str, str] = MappingProxyType({"tito": "plugin.tito", "awaw": "plugin.awaw", "tww": "plugin.tww"})
ENTRY_POINT_GROUP = "referee.games"

CASE_INDEX_FILE = "cases.toml"
FIXUPS_FILE = "fixups.toml"
MAPS_FOLDER = "maps"
MAPPINGS_FOLDER = "mappings"
DEFAULT_MAPPING_FILE = "vassal-mapping.xml"


def _logger():
    """This module's logger: logging is imported only when there is something to say (issue 14's lean start-up)."""
    import logging

    return logging.getLogger(__name__)


class UnknownGame(InputError, LookupError):
    """No plugin answers to this game id: an input error whose sentence names its own subject."""

    def __init__(self, problem: str) -> None:
        super().__init__("", problem)


class ValidatesPosition(Protocol):
    def __call__(self, position: Position) -> Iterable[tuple[int, str]]: ...


class PreparesMap(Protocol):
    def __call__(self, map_data: MapData) -> MapData: ...


class Pictures(Protocol):
    def __call__(self, position: Position, report: Report) -> str: ...


@dataclass(frozen=True)
class IndexEntry:
    """A case number with a short title in our own words (no rulebook text)."""

    number: CaseNumber
    title: str


def _nothing() -> Mapping[str, str]:
    """An empty read-only table (a dataclass default must be made by a function when it is not hashable)."""
    return MappingProxyType({})


@dataclass(frozen=True)
class Game:
    """What a game tells the core: who it is, where its data is, its checks and its hooks."""

    id: str
    title: str
    folder: Path  # the game's folder, laid out as the module docstring shows
    rules: RuleSet
    rulebook_files: tuple[str, ...] = ()  # the file names a user is expected to import
    validate_position: ValidatesPosition | None = None
    prepare_map: PreparesMap | None = None
    picture: Pictures | None = None
    # One or two sentences under the picture on the report page: what it draws and how it
    # marks an offence (colour, numbers), true to this game's picture.
    picture_caption: str = ""
    # Where the rulebook is ambiguous: case number -> how Referee reads it, in our words.
    decisions: Mapping[str, str] = field(default_factory=_nothing)
    # Cases Referee knows it cannot decide: case number -> what deciding it would need (a fact
    # the save does not carry, a rule outside the imported text), in our words. See coverage.py.
    unchecked: Mapping[str, str] = field(default_factory=_nothing)
    # The phases of a turn in the order they are played, and a sortable key for a turn name
    # (None: turns are whole numbers): how a chain of saves tells a rewind (validator/moves/chains.py).
    phases: tuple[str, ...] = ()
    turn_order: Callable[[str], object] | None = None
    # Whether the game lets a piece become another unit under the same id between two positions
    # (an upgrade flips a counter): (before, after, piece before, piece after) -> (the case that
    # allows it, a sentence why, "info" when the saves show it allowed or "unchecked" when the arbiter must
    # confirm it), or None; a change no hook allows breaks the chain (validator/moves/chains.py).
    allowed_change: Callable[[Position, Position, Piece, Piece], tuple[str, str, str] | None] | None = None
    # The game's words (unit kinds, nations, facts, hex values) that a VASSAL mapping draft and a map skeleton
    # match a module's names and a club's tables against (validator/vocabulary.py); None: nothing is matched.
    vocabulary: Vocabulary | None = None

    @property
    def case_index_path(self) -> Path:
        return self.folder / CASE_INDEX_FILE

    @property
    def fixups_path(self) -> Path | None:
        """The game's rulebook repairs, or None when it ships none."""
        path = self.folder / FIXUPS_FILE
        return path if path.is_file() else None

    @property
    def maps_folder(self) -> Path:
        """The folder of the map files the game ships (it may be absent: no maps)."""
        return self.folder / MAPS_FOLDER

    @property
    def mappings_folder(self) -> Path:
        """The folder of the game's VASSAL module mappings (it may be absent: none)."""
        return self.folder / MAPPINGS_FOLDER

    @property
    def default_mapping_path(self) -> Path:
        """The mapping used when a user gives none (it may not exist)."""
        return self.mappings_folder / DEFAULT_MAPPING_FILE

    def decision(self, number: CaseNumber) -> str:
        """Referee's documented reading of an ambiguous case, or ""."""
        return self.decisions.get(str(number), "")

    @cached_property
    def case_rows(self) -> list[CaseRow]:
        """The game's case index as rows (levels, letter, dotted, title), in case order, read once.

        What a report's coverage counts, without a CaseNumber made per case.
        """
        return load_case_rows(self.case_index_path)

    @cached_property
    def case_index(self) -> list[IndexEntry]:
        """The game's case index, in case order, read once."""
        return entries_of(self.case_rows)

    def index_title(self, number: CaseNumber) -> str:
        """Our short title for a case, or "" when the index does not list it."""
        return next((entry.title for entry in self.case_index if entry.number == number), "")


CaseRow = tuple  # a case of the index: its number's fields (CaseNumber.fields), then its title


def entries_of(rows: list[CaseRow]) -> list[IndexEntry]:
    """The index entries of case rows: a CaseNumber (its fields checked again) and a title each."""
    from validator.cases import CaseNumber

    return [IndexEntry(CaseNumber(levels, letter, dotted), title) for levels, letter, dotted, title in rows]


def load_case_rows(path: Path) -> list[CaseRow]:
    """A ``cases.toml``'s cases as rows in case order (kept parsed: validator.case_index_cache)."""
    from validator import case_index_cache, cases

    return case_index_cache.rows(path.read_bytes(), _parsed_rows, _is_case_row, Path(cases.__file__).read_bytes())


def _parsed_rows(data: bytes) -> list[CaseRow]:
    """Each case's number parsed and checked, with its title, sorted as CaseNumbers sort (by their fields)."""
    import tomllib

    from validator.cases import CaseNumber

    cases = tomllib.loads(data.decode("utf-8"))["cases"]
    rows = [(*CaseNumber.parse(number).fields, title) for number, title in cases.items()]
    return sorted(rows, key=lambda row: row[:3])


def _is_case_row(row: object) -> bool:
    """A row of :func:`_parsed_rows`' shape: what a damaged entry could lack."""
    return (
        type(row) is tuple and len(row) == 4 and type(row[0]) is tuple and type(row[1]) is str and type(row[2]) is bool
    )


class Registry(MutableMapping[str, Game]):
    """Every game by id, each loaded the first time it is asked for, safely from several threads.

    Asking for an in-tree game imports that game's package only; entry points
    are looked at only for an id that is not in-tree, or when every game is
    listed.  A pack that fails to load is one logged sentence naming it (kept
    in :attr:`failures`), and the other games go on working.  Putting a game
    in place by id (``registry[id] = game``) is for a program that assembles
    its own set of games, tests among them.
    """

    def __init__(self, in_tree: Mapping[str, str] = IN_TREE_GAMES, group: str = ENTRY_POINT_GROUP) -> None:
        self._in_tree = in_tree
        self._group = group
        self._games: dict[str, Game] = {}
        self._looked_up: set[str] = set()  # pack ids already looked for, found or not
        self._all_packs_loaded = False
        self._failures: list[str] = []
        self._lock = RLock()

    @property
    def failures(self) -> tuple[str, ...]:
        """One sentence per pack that could not be loaded, in the order they failed."""
        with self._lock:
            return tuple(self._failures)

    def __getitem__(self, game_id: str) -> Game:
        with self._lock:
            if game_id not in self._games:
                if game_id in self._in_tree:
                    self._load_in_tree(game_id)
                elif game_id not in self._looked_up and not self._all_packs_loaded:
                    self._looked_up.add(game_id)
                    self._load_packs(_entry_points(group=self._group, name=game_id))
            return self._games[game_id]

    def __iter__(self) -> Iterator[str]:
        """The in-tree games in their listed order, then the packs."""
        with self._lock:
            for game_id in self._in_tree:
                if game_id not in self._games:
                    self._load_in_tree(game_id)
            if not self._all_packs_loaded:
                self._all_packs_loaded = True
                unseen = [entry for entry in _entry_points(group=self._group) if entry.name not in self._looked_up]
                self._load_packs(unseen)
            ordered = [game_id for game_id in self._in_tree if game_id in self._games]
            return iter(ordered + [game_id for game_id in self._games if game_id not in self._in_tree])

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __setitem__(self, game_id: str, game: Game) -> None:
        with self._lock:
            self._games[game_id] = game

    def __delitem__(self, game_id: str) -> None:
        with self._lock:
            del self._games[game_id]

    def _load_in_tree(self, game_id: str) -> None:
        module_name = self._in_tree[game_id]
        game = importlib.import_module(module_name).game
        if game.id != game_id:
            raise RuntimeError(f"{module_name} exposes the game {game.id!r}, but the registry lists it as {game_id!r}")
        self._games[game_id] = game

    def _load_packs(self, entries: Iterable[EntryPoint]) -> None:
        for entry in entries:
            self._looked_up.add(entry.name)
            if entry.name in self._games and entry.name not in self._in_tree:
                continue  # a game put in place by id keeps its place
            try:
                self._games[entry.name] = _pack_game(entry, self._in_tree)
            except Exception as error:  # a broken pack must not take the other games down with it
                sentence = _failure_sentence(entry, error)
                self._failures.append(sentence)
                _logger().warning(sentence)


def _entry_points(**selection: str):
    """Installed packs' entry points: importlib.metadata is imported only when a pack is looked for."""
    from importlib.metadata import entry_points

    return entry_points(**selection)


class PackError(Exception):
    """An outside pack that loaded but does not keep the contract."""


def _pack_game(entry: EntryPoint, in_tree: Mapping[str, str]) -> Game:
    if entry.name in in_tree:
        raise PackError(f"it takes the id of the game '{entry.name}' that ships with Referee")
    game = entry.load()
    if not isinstance(game, Game):
        raise PackError(f"{entry.value} is a {type(game).__name__}, not a validator.games.Game")
    if game.id != entry.name:
        raise PackError(f"its game calls itself '{game.id}'; the entry point must be named for the game's id")
    return game


def _failure_sentence(entry: EntryPoint, error: Exception) -> str:
    distribution = getattr(entry, "dist", None)
    source = f"{distribution.name} {distribution.version}, " if distribution is not None else ""
    reason = str(error) if isinstance(error, PackError) else f"{type(error).__name__}: {error}"
    return (
        f"The game pack '{entry.name}' ({source}entry point {entry.value}) could not be loaded ({reason}); "
        "the other games work without it, so fix, reinstall or uninstall that pack."
    )


_REGISTRY = Registry()


def registry() -> Registry:
    """Every known game by id: the in-tree games, then installed packs."""
    return _REGISTRY


def listed(ids: Iterable[str]) -> str:
    """Game ids for a sentence: "tito, awaw or tww"."""
    names = list(ids)
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)


def get(game_id: str) -> Game:
    games = registry()
    if game_id not in games:
        known = ", ".join(sorted(games))
        raise UnknownGame(f"There is no game '{game_id}'. Known games: {known}.")
    return games[game_id]
