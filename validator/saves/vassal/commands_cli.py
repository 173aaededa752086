"""What ``referee export`` and ``referee check FILE.vsav`` do, as plain functions for the CLI (and the web app).

* :func:`export_file` -- a .vsav (or a .vlog's final position) as our save
  XML, through the game's module mapping;
* :func:`check_file` -- the same position, read back through the save
  reader (schema, plugin hooks) and checked: a :class:`Report`.

The mapping defaults to the game's own ``mappings/vassal-mapping.xml``
(:attr:`Game.default_mapping_path`).  Fog of war: by default the position holds what a
spectator may see; ``viewer`` names a side the save or mapping defines
(:mod:`.sides` refuses others), ``arbiter`` shows all
(``docs/vassal-dump.md`` gives the rules).  Every unusable input raises a
:class:`SaveInputError` (a mapping: :class:`MappingError`; an export:
:class:`ExportError`) or a :class:`VassalFormatError`, each one sentence
naming the file; the CLI turns them into exit status 2.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from validator.games import get
from validator.model import Position
from validator.report import Report
from validator.runner import check as run_checks
from validator.saves.xml_reader import SaveInputError, folder_resolver, read_position
from validator.xmlparsing import parse_xml

from .export import Export, ExportError, export_position, map_href_for
from .mapping import Mapping, MappingError, read_mapping
from .module import read_module
from .reader import read_saved_game
from .sides import require_defined_side

PathLike = str | os.PathLike[str]


def default_mapping_path(game_id: str) -> Path:
    """The game plugin's own mapping file; :class:`MappingError` when the game ships none."""
    path = get(game_id).default_mapping_path
    if not path.is_file():
        raise MappingError(str(path), f"the game '{game_id}' ships no VASSAL module mapping; write one for your module "
                                      "(docs/vassal-mapping.md) and give it with --mapping")
    return path


def load_mapping(game_id: str, mapping_path: PathLike | None = None) -> Mapping:
    get(game_id)  # an unknown game is refused before any file is read
    mapping = read_mapping(mapping_path if mapping_path is not None else default_mapping_path(game_id))
    if mapping.game != game_id:
        raise MappingError(mapping.source, f"the mapping is for the game '{mapping.game}', not '{game_id}'")
    return mapping


def export_save(save_path: PathLike, module_path: PathLike, game_id: str, mapping: PathLike | Mapping | None = None,
                *, viewer: str | None = None, arbiter: bool = False, relative_to: PathLike | None = None) -> Export:
    """The export with its note; ``relative_to`` is the folder the XML will be read from (else the href is absolute)."""
    if not isinstance(mapping, Mapping):
        mapping = load_mapping(game_id, mapping)
    module = read_module(module_path)
    game = read_saved_game(save_path)
    require_defined_side(viewer, game, mapping)
    return export_position(game, module, mapping, game_id, map_href=map_href_for(mapping, relative_to),
                           viewer=viewer, arbiter=arbiter)


def read_export(export: Export, save_path: PathLike, game_id: str, resolve_folder: PathLike) -> Position:
    """The exported XML read back exactly as a hand-written save is, errors traced to their VASSAL pieces."""
    source = str(save_path)
    try:
        return read_position(export.xml, source, folder_resolver(Path(resolve_folder)), game_id)
    except SaveInputError as error:
        if error.source != source:  # a problem in the map file itself: its own file and line say it
            raise
        hint = _piece_at_line(export, error.line)
        raise ExportError(source, f"the position exported from it is refused: {error.problem}{hint}") from None


def _piece_at_line(export: Export, line: int) -> str:
    if not line:
        return ""
    root = parse_xml(export.xml, "export")
    for element in root.iter("{urn:referee:save:1}piece"):
        if element.sourceline == line:
            origin = export.origins.get(element.get("id"))
            return f" (the piece '{element.get('id')}' is the VASSAL piece {origin})" if origin else ""
    return ""


def export_file(save_path: PathLike, module_path: PathLike, game_id: str, mapping_path: PathLike | None = None, *,
                viewer: str | None = None, arbiter: bool = False, relative_to: PathLike | None = None,
                notes: Callable[[str], None] | None = None) -> bytes:
    """``referee export FILE --module M --game G [--mapping F]``: our save XML, already read back and accepted.

    The XML is checked by the save reader and the game plugin before it is
    returned, so an export that would not load is refused here (exit 2).
    ``notes`` receives the sentence saying what was skipped.
    """
    export = export_save(save_path, module_path, game_id, mapping_path, viewer=viewer, arbiter=arbiter,
                         relative_to=relative_to)
    read_export(export, save_path, game_id, relative_to if relative_to is not None else Path.cwd())
    if notes is not None:
        notes(f"{save_path}: {export.note}")
    return export.xml


def check_file(save_path: PathLike, module_path: PathLike, game_id: str, mapping_path: PathLike | None = None,
               viewer: str | None = None, arbiter: bool = False, *,
               notes: Callable[[str], None] | None = None) -> Report:
    """``referee check FILE.vsav --module M --game G [--mapping F] [--viewer SIDE | --arbiter]``: the report."""
    mapping = load_mapping(game_id, mapping_path)
    folder = mapping.map_path.parent
    export = export_save(save_path, module_path, game_id, mapping, viewer=viewer, arbiter=arbiter, relative_to=folder)
    position = read_export(export, save_path, game_id, folder)
    if notes is not None:
        notes(f"{save_path}: {export.note}")
    return run_checks(position)


__all__ = ["check_file", "default_mapping_path", "export_file", "export_save", "load_mapping",
           "read_export"]
