"""Which map file a save's ``<map href>`` names: the one rule the command line and the web share.

1. When the save has a folder (a file on the command line), the href is a
   path from that folder, and a file there is used, whatever its name.
2. Otherwise the href's last part (either kind of slash separates parts) is
   looked up among the maps the save's game ships in its ``maps_folder``, so
   ``../../plugin/tito/maps/tito-map.xml``, ``maps/tito-map.xml`` and
   ``tito-map.xml`` all find Tito's shipped map from any folder.
3. A name that matches no shipped map is refused with a sentence listing
   the maps the game ships.

An upload has no folder, so only step 2 applies to it.  The shipped folder
is listed, never joined with the name: whatever an href holds, the only
files it can reach are the ``.xml`` files in that listing.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from validator.games import Game
from validator.saves.errors import SaveInputError


def file_name(href: str) -> str:
    """The last part of an href, with either kind of slash as a separator."""
    return PurePosixPath(href.replace("\\", "/")).name


def shipped_maps(game: Game) -> dict[str, Path]:
    """The map files a game ships, by file name, in name order: the regular ``.xml`` files of its maps folder."""
    try:
        entries = sorted(game.maps_folder.iterdir())
    except OSError:  # no such folder, or not readable: nothing shipped
        return {}
    return {entry.name: entry for entry in entries if entry.suffix == ".xml" and entry.is_file()}


def shipped_map(game: Game, href: str) -> Path | None:
    """The shipped map whose file name is the href's last part, or None."""
    return shipped_maps(game).get(file_name(href))


def not_shipped(game: Game, advice: str) -> str:
    """That the game ships no map of the name looked for, what to do (``advice``), and the maps it does ship."""
    names = list(shipped_maps(game))
    if not names:
        return f"{game.title} ships no maps; {advice}"
    return (
        f"{game.title} ships no map of that name; {advice}, or name in href one of the maps the game ships: "
        + ", ".join(names)
    )


def map_beside_or_shipped(folder: Path, href: str, game: Game) -> Path:
    """The file an href names from a save in ``folder``: the file there, else the game's shipped map of its name."""
    path = folder / href
    try:
        path = path.resolve()
        path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return _shipped_or_refused(path, href, game)
    except RuntimeError:  # how Python 3.11 resolves a loop of symbolic links
        raise SaveInputError(str(path), "cannot be read (a loop of symbolic links)") from None
    except OSError as error:  # a name too long, for one: the href names no file that can be read
        raise SaveInputError(str(path), f"cannot be read ({error.strerror})") from None
    return path  # a folder or an unreadable file is said so by the reader, not replaced


def _shipped_or_refused(path: Path, href: str, game: Game) -> Path:
    found = shipped_map(game, href)
    if found is None:
        raise SaveInputError(str(path), "no such file, and " + not_shipped(game, "put the map file there"))
    return found
