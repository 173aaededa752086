"""Reading the files VASSAL players exchange: .vsav saves, .vlog logs and .vmod modules.

Public API:

* :func:`read_saved_game` -- a .vsav (or a .vlog's final position) as a :class:`SavedGame`;
* :func:`read_log` -- a .vlog as restore commands plus :class:`LogStep` s, with ``positions()``;
* :func:`iter_sections` / :func:`replay` -- streaming forms for very long logs;
* :func:`read_module` -- a .vmod or bare buildFile as a :class:`Module`;
* :func:`location_of` -- the location name VASSAL shows for a map point;
* :class:`VassalFormatError` -- every unusable input, with a sentence naming file and problem;
* :class:`Limits` -- the caps every reader applies (bytes per layer, counts, grid numbers),
  from :mod:`validator.limits`.
"""

from validator.limits import Limits

from .commands import BoardPlacement
from .errors import VassalFormatError
from .locations import OFFBOARD, location_of
from .model import Concealment, Deck, Layer, LogStep, Metadata, Piece, SavedGame, Stack, Trait
from .module import Board, MapDefinition, MapPoint, Module, read_module
from .reader import GameLog, iter_sections, read_log, read_saved_game, replay

__all__ = [
    "Board",
    "BoardPlacement",
    "Concealment",
    "Deck",
    "GameLog",
    "Layer",
    "Limits",
    "LogStep",
    "MapDefinition",
    "MapPoint",
    "Metadata",
    "Module",
    "OFFBOARD",
    "Piece",
    "SavedGame",
    "Stack",
    "Trait",
    "VassalFormatError",
    "iter_sections",
    "location_of",
    "read_log",
    "read_module",
    "read_saved_game",
    "replay",
]
