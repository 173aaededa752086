"""Finding the map an uploaded save names, without ever reading a path it gives.

A save may name its map by reference, ``<map href="../../plugin/tito/maps/tito-map.xml"/>``.  On the
command line the href is a path next to the save; on the web it must never
become a path, or an upload could make the server read its own files.  So an
upload's href is reduced to its last file name (``../../etc/passwd`` becomes
``passwd``; backslashes count as separators too) and looked up, by exact name
and in this order, among:

1. the map uploaded with the save in the same form (the ``map`` field, or the
   ``map`` part of an API request), whatever its own file name: the user chose
   it for this save, so it answers the save's href;
2. the maps the game's plugin ships in its ``maps`` folder, beside its case
   index (``plugin/<game>/maps/``), which an installed package carries.

Only the ``maps`` folder counts as shipped maps.  The examples folder of a
source checkout is not searched: it holds saves, not maps (every example
names its plugin's map), and a save taken for a map gave an error about a
server file the user never sent.  A shipped folder is listed, not joined with
the name: a map is found only if a regular ``.xml`` file of exactly that name
is in the folder's listing.  Anything else is a :class:`SaveInputError`
saying which map is missing and how to provide it, which the views answer
with a 400.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Callable

from validator.games import Game
from validator.saves.unchanged_files import read_unless_unchanged
from validator.saves.xml_reader import SaveInputError, read_capped

MAP_FOLDER = "maps"


@dataclass(frozen=True)
class UploadedMap:
    data: bytes
    name: str  # as the user gave it, for messages only


@dataclass
class UsedMap:
    """Which map a save ended up using, so the record can keep its bytes."""

    href: str = ""
    data: bytes | None = None
    origin: str = ""  # "uploaded" or "shipped"


def file_name(href: str) -> str:
    """The last part of an href, with either kind of slash as a separator."""
    return PurePosixPath(href.replace("\\", "/")).name


def shipped_folders(game: Game) -> list[Path]:
    """Where a game's shipped maps are: its plugin's maps folder."""
    return [game.case_index_path.parent / MAP_FOLDER]


def shipped_map(game: Game, name: str) -> Path | None:
    """The shipped map file called exactly ``name``, or None."""
    if not name.endswith(".xml"):
        return None
    for folder in shipped_folders(game):
        try:
            listing = {entry.name: entry for entry in folder.iterdir() if entry.is_file()}
        except OSError:  # no such folder, or not readable
            continue
        if name in listing:
            return listing[name]
    return None


class UnnamedMap(SaveInputError):
    """An href that names no file (empty, ``.``, ``/``): there is no file name to put before the sentence."""

    def __init__(self, problem: str) -> None:
        super().__init__("", problem)

    def __str__(self) -> str:
        return self.problem


class UploadMapResolver:
    """A map resolver for ``read_position`` that knows only the uploaded and shipped maps."""

    def __init__(self, find_game: Callable[[], Game | None], uploaded: UploadedMap | None) -> None:
        self.find_game = find_game  # called only when a map must be found by name
        self.uploaded = uploaded
        self.used = UsedMap()

    def __call__(self, href: str) -> tuple[bytes, str]:
        name = file_name(href)
        self.used.href = href
        if self.uploaded is not None:
            self.used.data, self.used.origin = self.uploaded.data, "uploaded"
            return self.uploaded.data, self.uploaded.name
        if not name:
            raise UnnamedMap(
                "the <map> element's href names no file; give the map file's name in href, or choose the map "
                "file in the form's map field (or send it as the API's map part) together with the save"
            )
        game = self.find_game()
        found = shipped_map(game, name) if game is not None else None
        if found is None:
            raise SaveInputError(name, self._missing_sentence(game))
        data = read_unless_unchanged(found, read_capped)
        self.used.data, self.used.origin = data, "shipped"
        return data, name

    @staticmethod
    def _missing_sentence(game: Game | None) -> str:
        shipped = f"{game.title} ships no map of that name" if game else "no game ships a map of that name"
        return (
            f"{shipped}; choose the map file in the form's map field "
            "(or send it as the API's map part) together with the save"
        )
