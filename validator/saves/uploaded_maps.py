"""Finding the map an uploaded save names, without ever reading a path it gives.

A save may name its map by reference, ``<map href="../../plugin/tito/maps/tito-map.xml"/>``.
For an upload the href must never become a path, or an upload could make the
server read its own files.  An upload has no folder, so its href follows the
folderless part of the rule in :mod:`validator.saves.map_references`, which
the command line shares: the href's last file name (``../../etc/passwd``
counts as ``passwd``; backslashes separate parts too) is looked up, by exact
name and in this order, among

1. the map uploaded with the save (the web form's ``map`` field, or the
   ``map`` part of an API request), whatever its own file name: the user
   chose it for this save, so it answers the save's href;
2. the maps the save's game ships in its maps folder, which an installed
   package carries: a map is found only if a regular ``.xml`` file of
   exactly that name is in the folder's listing.

The examples folder of a source checkout is not searched: it holds saves,
not maps.  Anything else is a :class:`SaveInputError` saying which map is
missing, which maps the game ships and how to provide one.
"""

from __future__ import annotations

from dataclasses import dataclass

from validator.games import Game
from validator.saves.map_references import file_name, not_shipped, shipped_map
from validator.saves.unchanged_files import read_unless_unchanged
from validator.saves.xml_reader import SaveInputError, read_capped

UPLOAD_ADVICE = "choose the map file in the form's map field (or send it as the API's map part) together with the save"


@dataclass(frozen=True)
class UploadedMap:
    """A map file sent with a save (the web's map field or API part): its bytes and the name it came under."""

    data: bytes
    name: str  # as the user gave it, for messages only


@dataclass
class UsedMap:
    """Which map a save ended up using, so the record can keep its bytes."""

    href: str = ""
    data: bytes | None = None
    origin: str = ""  # "uploaded" or "shipped"


class UnnamedMap(SaveInputError):
    """An href that names no file (empty, ``.``, ``/``): there is no file name to put before the sentence."""

    def __init__(self, problem: str) -> None:
        super().__init__("", problem)


class UploadMapResolver:
    """A map resolver for ``read_position`` that knows only the uploaded and shipped maps."""

    def __init__(self, uploaded: UploadedMap | None) -> None:
        self.uploaded = uploaded
        self.used = UsedMap()

    def __call__(self, href: str, game: Game) -> tuple[bytes, str]:
        name = file_name(href)
        self.used.href = href
        if self.uploaded is not None:
            self.used.data, self.used.origin = self.uploaded.data, "uploaded"
            return self.uploaded.data, self.uploaded.name
        if not name:
            raise UnnamedMap(
                f"the <map> element's href names no file; give the map file's name in href, or {UPLOAD_ADVICE}"
            )
        found = shipped_map(game, href)
        if found is None:
            raise SaveInputError(name, not_shipped(game, UPLOAD_ADVICE))
        data = read_unless_unchanged(found, read_capped)
        self.used.data, self.used.origin = data, "shipped"
        return data, name
