"""Maps prepared once per instance: a map read, validated and prepared by its game, kept between processes.

A club checks save after save against one map of megabytes.  Reading that
map (parse, schema, model, then the game's own reading of every hex) costs
several times its parse, and a process started for one check would pay it
every time.  So the prepared map is kept in the instance folder, under
``prepared-maps/``, and the next process loads it in one step.

An entry is named by the SHA-256 of the game id, the map's name and its
bytes (the same bytes under another name are another entry, since messages
name the file).  Its header records the cache format, the interpreter and a
hash of the code that prepared it: the core's readers and model, the
schemas, and the game's package.  Versions alone would not do, since an
editable install changes code without changing a version.  An entry whose
header differs (stale) or that cannot be loaded (damaged) is removed and the
map is prepared again: a cache entry is never an error.

The entry's body is a pickle, preceded by its CRC-32 (a location's row is
decoded only when a check first asks for it, so a damaged body must be
found when the entry is loaded, not in the middle of a check).  Unpickling runs what the file names, so an
entry is only ever read from the user's own instance folder (private to its
owner, see :mod:`validator.instance`), where only Referee writes it: whoever
could put a hostile entry there could already change the user's database and
settings.  An uploaded map is only hashed and prepared like any other; what
is unpickled is always the entry this code wrote from it.

Two processes preparing the same map at once each write a temporary file
beside the entry and rename it into place, so a reader finds one whole
entry or the other, never half of one.
"""

from __future__ import annotations

import gc
import io
import marshal
import os
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from validator.collection import collector_paused
from validator.digests import sha256
from validator.model import HexColumns, LocationTable, MapData
from validator.paths import schemas_dir

if TYPE_CHECKING:
    from validator.games import Game

FORMAT = 3  # raise it when the layout of an entry changes
FOLDER_NAME = "prepared-maps"
SUFFIX = ".prepared"
MAGIC = b"referee prepared map\n"
CHECKSUM_BYTES = 4  # the body's CRC-32, between the header and the body

# The core code a map's preparation runs, relative to the validator package: the readers,
# the model, what plugins use to read attributes and hexes, and this file.  The schemas
# and the game's own package are hashed beside them.
_CORE_FILES = (
    "model.py", "prepared_maps.py", "xmlparsing.py", "hexgrid.py", "hexpaths.py", "facts.py", "derived.py",
    "limits.py", "saves/xml_reader.py", "saves/map_reader.py", "saves/source_lines.py", "saves/errors.py",
)
_VALIDATOR_FOLDER = Path(__file__).resolve().parent


def _logger():
    """This module's logger: logging is imported only when there is something to say (issue 14's lean start-up)."""
    import logging

    return logging.getLogger(__name__)


_code_hashes: dict[Path, str] = {}  # a game's folder -> the hash of the code that prepares its maps


def folder() -> Path | None:
    """Where entries are kept: in the instance folder, or None when it cannot be had (then nothing is kept)."""
    from validator import instance

    try:
        return instance.folder() / FOLDER_NAME
    except (OSError, instance.UnusableInstanceFolder):
        return None


def prepared(game: Game, data: bytes, source: str, prepare: Callable[[], MapData]) -> MapData:
    """The map ``data`` (named ``source``) as ``prepare()`` gives it: from the instance's entry when one holds.

    ``prepare`` raises the map's input errors; nothing is kept then, so a
    faulty map is read (and refused) every time.
    """
    entries = folder()
    if entries is None:
        return _kept(prepare())
    path = entries / (entry_name(game, data, source) + SUFFIX)
    header = entry_header(game)
    loaded = _load(path, header)
    if loaded is not None:
        return loaded
    map_data = prepare()
    _store(path, header, map_data)
    return _kept(map_data)


def _kept(map_data: MapData) -> MapData:
    """The map, out of the cycle collector's sight for as long as the process needs it.

    Its tens of thousands of objects would otherwise be walked by every later
    collection (the first one as soon as the reader turns the collector back
    on).  Frozen objects are still freed when nothing refers to them (a map
    holds no cycles).
    """
    gc.freeze()
    return map_data


def entry_name(game: Game, data: bytes, source: str) -> str:
    """The entry's file name: the SHA-256 of the game id, the map's name and its bytes."""
    digest = sha256(total_bytes=len(data) + 1024)  # the map's bytes and two short names
    for part in (game.id.encode(), source.encode("utf-8", "surrogateescape")):
        digest.update(len(part).to_bytes(8, "big") + part)
    digest.update(data)
    return digest.hexdigest()


def entry_header(game: Game) -> bytes:
    """What an entry must begin with to be trusted: format, interpreter and the hash of the preparing code."""
    return MAGIC + f"{FORMAT} {sys.implementation.cache_tag} {game.id} {code_hash(game.folder)}\n".encode()


def code_hash(game_folder: Path) -> str:
    """The SHA-256 of the core files that prepare maps, the schemas and the game's package; once per process.

    The files' bytes are read and hashed only when their signatures (see
    :func:`_signature`) differ from those kept with the last hash in the
    instance folder (``code-hashes``, beside the entries).
    """
    known = _code_hashes.get(game_folder)
    if known is not None:
        return known
    files = [_VALIDATOR_FOLDER / name for name in _CORE_FILES]
    files += sorted(schemas_dir().glob("*.xsd")) + sorted(game_folder.glob("*.py")) + sorted(game_folder.glob("*.toml"))
    started = time.time_ns()
    signature = _signature(files)
    kept_path = _code_hashes_path(game_folder)
    kept = _kept_code_hash(kept_path, signature) if kept_path is not None and signature is not None else None
    if kept is not None:
        return _code_hashes.setdefault(game_folder, kept)
    contents = []
    for path in files:
        try:
            contents.append(path.read_bytes())
        except OSError:
            contents.append(b"")  # a file that went missing changes the hash as surely as an edit
    digest = sha256(total_bytes=sum(map(len, contents)) + 64 * len(files))
    for path, content in zip(files, contents, strict=True):
        name = str(path).encode("utf-8", "surrogateescape")
        digest.update(len(name).to_bytes(8, "big") + name + len(content).to_bytes(8, "big") + content)
    hashed = digest.hexdigest()
    if kept_path is not None and signature is not None and _settled(signature, started):
        _keep_code_hash(kept_path, signature, hashed)
    return _code_hashes.setdefault(game_folder, hashed)


# A file's signature: its path, size, modification and change times (nanoseconds), inode and device.
# Any write or rename sets the change time to the clock's present, which no program can set back, so a
# file changed after its signature was taken has another signature, as long as the signature was taken
# more than SETTLED_NS after the file's last change: a filesystem's clock moves in steps (up to 2 s on
# FAT), and a change within the same step as the previous one could keep its times (and its size).
# A signature younger than that is never kept: those files are hashed from their bytes every time.
SETTLED_NS = 3_000_000_000
CODE_HASHES_FOLDER = "code-hashes"


def _signature(files: list[Path]) -> tuple | None:
    """The files' signatures, or None when one cannot be had (a missing file: hashed from bytes, not kept)."""
    signature = []
    for path in files:
        try:
            stat = path.stat()
        except OSError:
            return None
        signature.append((str(path), stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino, stat.st_dev))
    return (FORMAT, sys.implementation.cache_tag, *signature)


def _settled(signature: tuple, started: int) -> bool:
    """Whether every file was last changed more than SETTLED_NS before ``started`` (taken before the stats)."""
    return all(max(entry[2], entry[3]) < started - SETTLED_NS for entry in signature[2:])


def _code_hashes_path(game_folder: Path) -> Path | None:
    """Where the last code hash of this game folder is kept: a file named by the folder's path."""
    entries = folder()
    if entries is None:
        return None
    name = sha256(str(game_folder.resolve()).encode("utf-8", "surrogateescape")).hexdigest()
    return entries / CODE_HASHES_FOLDER / name


def _kept_code_hash(path: Path, signature: tuple) -> str | None:
    """The hash kept for exactly this signature, or None (absent, damaged, or for other files)."""
    try:
        kept = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if type(kept) is tuple and len(kept) == 2 and kept[0] == signature and type(kept[1]) is str:
        return kept[1]
    return None


def _keep_code_hash(path: Path, signature: tuple, hashed: str) -> None:
    """Written to a file of this process and renamed into place; a failure only costs the next process."""
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    try:
        path.parent.parent.mkdir(mode=0o700, exist_ok=True)  # the entries' folder, private as the entries
        path.parent.mkdir(mode=0o700, exist_ok=True)
        partial.write_bytes(marshal.dumps((signature, hashed)))
        os.replace(partial, path)
    except (OSError, ValueError):
        _remove(partial)


def _load(path: Path, header: bytes) -> MapData | None:
    """The entry's map, or None when there is none; a stale or damaged entry is removed."""
    try:
        with path.open("rb") as handle:
            content = handle.read()
    except OSError:
        return None
    body = memoryview(content)[len(header) + CHECKSUM_BYTES:]
    if content.startswith(header) and content[len(header):len(header) + CHECKSUM_BYTES] == _checksum(body):
        with collector_paused():  # tens of thousands of new objects, none garbage
            try:
                map_data = _unpickled(body)
            except Exception:  # a damaged entry may fail in any way unpickling can
                map_data = None
        if isinstance(map_data, MapData):
            return _kept(map_data)
        _logger().info("The prepared map %s was damaged; it is removed and the map prepared again.", path)
    _remove(path)
    return None


def _store(path: Path, header: bytes, map_data: MapData) -> None:
    """Write the entry through a temporary file renamed into place; a failure only costs the next process."""
    try:
        body = io.BytesIO()
        _compact_pickler()(body, protocol=-1).dump(map_data)  # -1: pickle.HIGHEST_PROTOCOL
    except Exception as error:  # a plugin's reading that cannot be pickled: prepare it every time
        _logger().info("The prepared map %s cannot be kept (%s); it is prepared in every process.", path, error)
        return
    import tempfile  # only a process that writes an entry pays for tempfile's imports

    try:
        path.parent.mkdir(mode=0o700, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".partial")
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(header)
                stream.write(_checksum(body.getbuffer()))
                stream.write(body.getbuffer())
            os.replace(temporary, path)
        except BaseException:
            _remove(Path(temporary))
            raise
    except OSError as error:
        _logger().info("The prepared map %s cannot be written (%s); it is prepared again next time.", path, error)


def _checksum(body) -> bytes:
    """The body's CRC-32: a location is decoded only when first asked for, so damage must be found on loading."""
    return zlib.crc32(body).to_bytes(CHECKSUM_BYTES, "big")


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass  # another process removed or replaced it first


# -- the compact form ---------------------------------------------------------------------------


def _read_only(table: dict) -> MappingProxyType:
    return MappingProxyType(table)


def _location_table(ids: list[str], rows: list[bytes], hexes: bytes | None = None) -> LocationTable:
    """A LocationTable of rows kept as bytes (each decoded when its location is first asked for) and of the
    hexes' columns, kept as one ``marshal`` string."""
    return LocationTable(dict(zip(ids, rows, strict=True)), HexColumns(*marshal.loads(hexes)) if hexes else None)


def _unpickled(body):
    """``pickle.loads(body)``, by the C unpickler that ``pickle.loads`` is: a check that only loads an entry
    does not pay for ``pickle``'s own import (its Python pickler and tables; issue 14's lean start-up)."""
    try:
        from _pickle import loads
    except ImportError:  # an interpreter without the C accelerator
        from pickle import loads
    return loads(body)


_pickler_class: list[type] = []  # made on the first entry written: only a writing process imports pickle


def _compact_pickler() -> type:
    """The pickler of prepared maps, its class made once, on first use."""
    if not _pickler_class:
        import pickle

        class CompactPickler(pickle.Pickler):
            """A pickler for prepared maps: read-only tables as dicts, a map's locations as one bytes
            object each, its hexes' columns as one.

            A process that loads a map of twenty thousand hexes touches a few
            thousand of them: loading each location as one ``marshal`` string (its
            whole row) and decoding it on first use costs a fraction of loading a
            dozen objects per hex.  The hexes the map reader keeps as columns
            (:class:`~validator.model.HexColumns`) are written and loaded as one
            ``marshal`` string of a few lists, each a single C call, and their rows
            made when asked for as in the process that read the map.
            """

            def reducer_override(self, value):
                if type(value) is MappingProxyType:
                    return _read_only, (dict(value),)
                if type(value) is LocationTable:
                    rows, hexes = value.rows, value.hexes
                    return _location_table, (list(rows), [_encoded(row) for row in rows.values()],
                                             marshal.dumps(hexes.parts()) if hexes is not None else None)
                return NotImplemented

        _pickler_class.append(CompactPickler)
    return _pickler_class[0]


def _encoded(row) -> bytes:
    """A location's row as ``marshal`` bytes (its attributes a plain dict or a pair of names and values)."""
    if type(row) is bytes:
        return row
    attributes = row[5]
    if type(attributes) is not tuple:
        attributes = dict(attributes)
    return marshal.dumps((*row[:5], attributes, *row[6:]))
