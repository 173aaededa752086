"""What a user hands over, made a position: the one way in for the command line and the web app.

A :class:`Submission` is what came with a request to check (or export): the
save's bytes (an upload) or path (the command line), its name, the game it is
said to be for, and for a VASSAL save its module, an optional mapping and the
side whose view is read.  :func:`read_submission` turns it into a
:class:`Reading` (the position, the map it was read with, and for a VASSAL
save the note saying what was skipped) or raises one
:class:`~validator.errors.InputError` naming the file and what is wrong.
:func:`export_submission` writes a VASSAL save as our save XML instead.

Which files are VASSAL files is decided here, once (:func:`is_vassal_file`):
a zip, or a file named ``.vsav`` or ``.vlog`` (so a broken one gets the VASSAL
reader's own sentence).  Anything else is read as Referee's save XML.

Nothing here runs a check: the caller hands the position to the runner.
The command line and the web each ask for a missing game or module in their
own words before they call in; the sentences here are for any other caller.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from validator.errors import InputError
from validator.games import Game, get
from validator.limits import DEFAULT_LIMITS, Limits
from validator.model import Position
from validator.saves.uploaded_maps import UploadedMap, UploadMapResolver, UsedMap
from validator.saves.xml_reader import MapResolver, SaveInputError, folder_resolver, read_capped, read_position

# The VASSAL readers are imported by the functions that read VASSAL files: a check of our
# own save XML never loads them (issue 14's lean start-up).
if TYPE_CHECKING:
    from validator.saves.vassal.mapping import Mapping
    from validator.saves.vassal.translation import Translation

VASSAL_SUFFIXES = (".vsav", ".vlog")
ZIP_SIGNATURE = b"PK"

MODULE_WITH_XML = "a module goes with a VASSAL save (.vsav or .vlog); this save is Referee save XML, which needs none."
MAPPING_WITH_XML = ("a module mapping goes with a VASSAL save (.vsav or .vlog); this save is Referee save XML, which "
                    "needs none.")
VIEW_WITH_XML = ("a viewer or the arbiter's view chooses what a VASSAL save shows; this save is Referee save XML, "
                 "which holds exactly what its author wrote, so leave the view out.")
MAP_WITH_VASSAL = ("a VASSAL save is read with the map of its game's module mapping, so the map file {map} would not "
                   "be used; leave the map field empty.")
MAP_NOT_USED = (
    "the save carries its own map, so the map file {map} would not be used; leave the map field empty "
    "to check the save with its own map, or replace the save's map by <map href=\"{map}\"/> to check it "
    "with the file you chose."
)
ONLY_VASSAL_EXPORTED = ("only a VASSAL save or log (.vsav, .vlog) is exported; this file is Referee save XML "
                        "already, so check it as it is.")
NO_GAME = "a VASSAL save or log is read through its game's module mapping; say which game it is for."
NO_MODULE = "a VASSAL save or log is read with its module; give the .vmod file it was made with."


def is_vassal_file(name: str, head: bytes) -> bool:
    """A zip (``head``: the file's first bytes), or a file named like a VASSAL save or log."""
    return head.startswith(ZIP_SIGNATURE) or name.lower().endswith(VASSAL_SUFFIXES)


@dataclass(frozen=True)
class Submission:
    """What a user handed over to be checked or exported.

    ``save`` is the file's bytes (an upload, named by ``name``) or its path
    (named by the path unless ``name`` is given; its folder is where a map
    ``href`` is looked for).  ``map`` is a map file uploaded with the save.
    """

    save: bytes | Path
    name: str = ""
    game: str | None = None
    module: Path | None = None
    mapping: Path | None = None
    map: UploadedMap | None = None
    viewer: str | None = None
    arbiter: bool = False
    limits: Limits = DEFAULT_LIMITS
    """The caps every reader applies to this submission: the command line's, or the web app's smaller ones."""

    @property
    def source(self) -> str:
        """The save as every message names it."""
        return self.name or str(self.save)

    @cached_property
    def is_vassal(self) -> bool:
        return is_vassal_file(self.source, self._head())

    def _head(self) -> bytes:
        if isinstance(self.save, bytes):
            return self.save[: len(ZIP_SIGNATURE)]
        try:
            with self.save.open("rb") as handle:
                return handle.read(len(ZIP_SIGNATURE))
        except OSError:  # the reader says what is wrong with the file
            return b""


@dataclass(frozen=True)
class Reading:
    """A submission read: the position, the map it stands on, and what a VASSAL save's mapping left out."""

    position: Position
    map: UsedMap
    note: str | None = None
    translation: Translation | None = None  # a VASSAL save in Referee's terms: what the mapping resolved and skipped


@dataclass(frozen=True)
class Exported:
    """A VASSAL save as our save XML, and the sentence saying what was exported and skipped."""

    xml: bytes
    note: str


def read_submission(submission: Submission) -> Reading:
    """The position the submission holds, or an :class:`InputError` naming the file and the problem."""
    if submission.is_vassal:
        return _read_vassal(submission)
    return _read_xml(submission)


def export_submission(submission: Submission, relative_to: Path | None = None) -> Exported:
    """A VASSAL submission as our save XML whose map href works from ``relative_to`` (else it is absolute).

    The XML is read back exactly as a hand-written save is (schema, game
    checks) before it is returned, so an export that would not load is
    refused here, its problem traced to the VASSAL piece.
    """
    from validator.saves.vassal.export import export_xml, map_href_for
    from validator.saves.vassal.positions import refusal

    if not submission.is_vassal:
        raise InputError(submission.source, ONLY_VASSAL_EXPORTED)
    translation, game, mapping = _translated(submission)
    xml = export_xml(translation, map_href_for(mapping, relative_to))
    try:
        read_position(xml, translation.source, folder_resolver(relative_to or Path.cwd()), game.id, submission.limits)
    except SaveInputError as error:
        raise refusal(error, translation) from None
    return Exported(xml, translation.note)


def mapping_for(game_id: str, path: Path | None = None) -> Mapping:
    """The mapping at ``path``, else the game's own; refused when it is for another game or absent."""
    from validator.saves.vassal.mapping import MappingError, read_mapping

    game = get(game_id)  # an unknown game is refused before any file is read
    if path is None:
        path = game.default_mapping_path
        if not path.is_file():
            raise MappingError(str(path), f"the game '{game_id}' ships no VASSAL module mapping; write one for your "
                                          "module (docs/vassal-mapping.md) and give it with --mapping")
    mapping = read_mapping(path)
    if mapping.game != game_id:
        raise MappingError(mapping.source, f"the mapping is for the game '{mapping.game}', not '{game_id}'")
    return mapping


def _read_xml(submission: Submission) -> Reading:
    source = submission.source
    if submission.module is not None:
        raise InputError(source, MODULE_WITH_XML)
    if submission.mapping is not None:
        raise InputError(source, MAPPING_WITH_XML)
    if submission.viewer or submission.arbiter:
        raise InputError(source, VIEW_WITH_XML)
    if submission.map is not None:
        _within_xml_limit(submission.map.data, submission.map.name, submission.limits)
    if isinstance(submission.save, bytes):
        data, resolver = submission.save, UploadMapResolver(submission.map)
    else:
        data = read_capped(submission.save, submission.limits.xml_bytes, "xml_bytes")
        resolver = _Recording(folder_resolver(submission.save.resolve().parent), "beside")
    _within_xml_limit(data, source, submission.limits)
    position = read_position(data, source, resolver, submission.game, submission.limits)
    if submission.map is not None and resolver.used.origin != "uploaded":
        raise InputError(source, MAP_NOT_USED.format(map=submission.map.name))
    return Reading(position, resolver.used)


def _within_xml_limit(data: bytes, source: str, limits: Limits) -> None:
    """Refuse a save or map of ours past ``xml_bytes`` before it is parsed: a tree costs up to 30 bytes a byte."""
    if len(data) > limits.xml_bytes:
        raise InputError(source, f"the file holds {len(data):,} bytes, {limits.beyond('xml_bytes')}")


def _read_vassal(submission: Submission) -> Reading:
    from validator.saves.vassal.export import map_href_for
    from validator.saves.vassal.positions import read_translation

    if submission.map is not None:
        raise InputError(submission.source, MAP_WITH_VASSAL.format(map=submission.map.name))
    translation, game, mapping = _translated(submission)
    folder = mapping.map_path.parent
    maps = _Recording(folder_resolver(folder), "shipped" if submission.mapping is None else "mapping")
    position = read_translation(translation, game, map_href_for(mapping, folder), maps, submission.limits)
    return Reading(position, UsedMap(mapping.map_href, maps.used.data, maps.used.origin), translation.note,
                   translation)


def _translated(submission: Submission) -> tuple[Translation, Game, Mapping]:
    """The VASSAL save in Referee's terms, as the submission's viewer sees it."""
    from validator.saves.vassal.module import read_module
    from validator.saves.vassal.reader import read_saved_game
    from validator.saves.vassal.sides import require_defined_side
    from validator.saves.vassal.translation import translate

    if submission.game is None:
        raise InputError(submission.source, NO_GAME)
    if submission.module is None:
        raise InputError(submission.source, NO_MODULE)
    mapping = mapping_for(submission.game, submission.mapping)
    game = get(submission.game)
    module = read_module(submission.module, limits=submission.limits)
    if isinstance(submission.save, bytes):
        saved = read_saved_game(io.BytesIO(submission.save), name=submission.source, limits=submission.limits)
    else:
        saved = read_saved_game(submission.save, name=submission.source, limits=submission.limits)
    require_defined_side(submission.viewer, saved, mapping)
    translation = translate(saved, module, mapping, game.id, viewer=submission.viewer, arbiter=submission.arbiter)
    return translation, game, mapping


class _Recording:
    """A map resolver that remembers which map it gave, and says where that map came from."""

    def __init__(self, resolve: MapResolver, origin: str) -> None:
        self.resolve, self.origin = resolve, origin
        self.used = UsedMap()

    def __call__(self, href: str, game: Game) -> tuple[bytes, str]:
        data, name = self.resolve(href, game)
        self.used = UsedMap(href, data, self.origin)
        return data, name


__all__ = ["Exported", "Reading", "Submission", "VASSAL_SUFFIXES", "export_submission", "is_vassal_file",
           "mapping_for", "read_submission"]
