"""What a report was checked with: the Referee and game versions, and the SHA-256 of each file read.

A verdict is only worth keeping if it can be traced to exactly what made it:
the Referee release, the game plugin's release, and the bytes of the map,
the VASSAL module mapping and the VASSAL module the position was read with.
A file that was not used (the map of a save that carries its map inside it,
the mapping and module of a Referee save XML) is ``None``; so is the version
of a game registered by a program rather than installed.

The hashes are taken of the files as the readers were given them: the
module's own bytes (the ``.vmod``, or a bare build file), the mapping file,
and the map's bytes as the save's reader received them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from validator import __version__
from validator.digests import sha256
from validator.games import ENTRY_POINT_GROUP, IN_TREE_GAMES, Game, get
from validator.intake import Reading, Submission
from validator.report import Report

HASH_CHUNK_BYTES = 1024 * 1024
FIELDS = ("referee_version", "plugin_version", "map_sha256", "mapping_sha256", "module_sha256")


@dataclass(frozen=True)
class Provenance:
    """The versions and file hashes one check was made with (``None``: not used, or not known)."""

    referee_version: str | None
    plugin_version: str | None
    map_sha256: str | None = None
    mapping_sha256: str | None = None
    module_sha256: str | None = None

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, read in chunks (a module may be tens of megabytes)."""
    digest = sha256(total_bytes=path.stat().st_size)
    with path.open("rb") as handle:
        while chunk := handle.read(HASH_CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


def plugin_version(game: Game) -> str | None:
    """The game plugin's release: Referee's own for the games it ships, else the installed pack's."""
    if game.id in IN_TREE_GAMES:
        return __version__
    from importlib.metadata import entry_points  # only for a pack: it costs a check's start-up

    for entry in entry_points(group=ENTRY_POINT_GROUP, name=game.id):
        distribution = getattr(entry, "dist", None)
        if distribution is not None:
            return distribution.version
    return None


def of_reading(game: Game, submission: Submission, reading: Reading) -> Provenance:
    """What the submission was read with, once :func:`validator.intake.read_submission` has read it."""
    map_data = reading.map.data
    mapping_sha256 = module_sha256 = None
    if submission.is_vassal:
        mapping = submission.mapping if submission.mapping is not None else game.default_mapping_path
        mapping_sha256 = file_sha256(mapping)
        module_sha256 = file_sha256(submission.module) if submission.module is not None else None
    return Provenance(
        referee_version=__version__,
        plugin_version=plugin_version(game),
        map_sha256=sha256(map_data).hexdigest() if map_data is not None else None,
        mapping_sha256=mapping_sha256,
        module_sha256=module_sha256,
    )


def stamped(report: Report, submission: Submission, reading: Reading) -> Report:
    """The report with what it was checked with, so that its JSON says so (``checked_with``)."""
    return dataclasses.replace(report, provenance=of_reading(get(report.position.game), submission, reading))
