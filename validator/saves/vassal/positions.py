"""A translated VASSAL save read straight into a :class:`~validator.model.Position`.

Checking a VASSAL save needs no save file in between: the translation's
values are the ones an export would write, and they are given to the same
map reader, piece and game checks that read our save format (the map a
mapping names is read once and cached like any referenced map).  Each
element gets the line it has in the file ``referee export`` writes (see
:mod:`.export`), so a message that quotes a line means the same in both,
and a position read here equals the one its export reads back as (the
round-trip tests compare them).

A problem the game or the map finds with the position is the save's input
error, traced to the VASSAL piece it came from where it concerns one.
"""

from __future__ import annotations

from types import MappingProxyType

from validator.games import Game
from validator.limits import DEFAULT_LIMITS, Limits
from validator.model import EMPTY, MapData, Piece, Position
from validator.saves.errors import SaveInputError
from validator.saves.xml_reader import (
    MapResolver,
    referenced_map,
    refuse_bad_pieces,
    refuse_too_many_facts,
    refuse_what_the_game_cannot_use,
)

from .export import POSITION_LINE, fact_line, map_line, piece_line
from .translation import ExportError, Translation


def read_translation(translation: Translation, game: Game, map_href: str, resolve_map: MapResolver,
                     limits: Limits = DEFAULT_LIMITS) -> Position:
    """The position ``translation`` describes, on the map ``map_href`` names through ``resolve_map``.

    Raises :class:`ExportError` for what the game or the map refuses in the
    position, or the map reader's own error for a map file it cannot use.
    """
    try:
        map_data = referenced_map(game, map_href, translation.source, map_line(translation), resolve_map)
        return _position(translation, game, map_data, limits)
    except ExportError:
        raise
    except SaveInputError as error:
        raise refusal(error, translation) from None


def refusal(error: SaveInputError, translation: Translation) -> SaveInputError:
    """What to raise for a reader's error about a translated position: the error itself when it is the map file's."""
    if error.source != translation.source:  # a problem in the map file itself: its own file and line say it
        return error
    return ExportError(translation.source, f"the position exported from it is refused: {error.problem}"
                                           f"{_piece_at_line(translation, error.line)}")


def _piece_at_line(translation: Translation, line: int) -> str:
    index = line - piece_line(translation, 0)
    if not line or not 0 <= index < len(translation.pieces):
        return ""
    piece = translation.pieces[index]
    return f" (the piece '{piece.id}' is the VASSAL piece {piece.origin})"


def _position(translation: Translation, game: Game, map_data: MapData, limits: Limits) -> Position:
    facts: dict[str, list[str]] = {}
    lines: dict[str, list[int]] = {}
    for index, (name, value) in enumerate(translation.facts):
        if index >= limits.facts:
            refuse_too_many_facts(index + 1, translation.source, fact_line(index), limits)
        facts.setdefault(name, []).append(value)
        lines.setdefault(name, []).append(fact_line(index))
    pieces = [_piece(piece, piece_line(translation, index)) for index, piece in enumerate(translation.pieces)]
    refuse_bad_pieces(pieces, map_data, translation.source)
    attributes = translation.attributes
    position = Position(
        game=game.id,
        map=map_data,
        pieces=tuple(pieces),
        scenario=attributes.get("scenario", ""),
        turn=attributes.get("turn", ""),
        phase=attributes.get("phase", ""),
        phasing=attributes.get("phasing", ""),
        facts=MappingProxyType({name: tuple(values) for name, values in facts.items()}),
        fact_lines=MappingProxyType({name: tuple(numbers) for name, numbers in lines.items()}),
        source=translation.source,
        line=POSITION_LINE,
    )
    refuse_what_the_game_cannot_use(game, position)
    return position


def _piece(piece, line: int) -> Piece:
    attributes = dict(piece.attributes)
    take = attributes.pop
    strength = take("strength", None)
    return Piece(
        piece.id, piece.name, take("side", ""), take("nationality", ""), take("type", ""), take("size", ""),
        int(strength) if strength is not None else None, piece.location,
        MappingProxyType(attributes) if attributes else EMPTY, line,
    )


__all__ = ["read_translation", "refusal"]
