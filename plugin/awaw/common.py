"""Small helpers the checks share: naming pieces and powers, a partisan's home and faction."""

from __future__ import annotations

from collections.abc import Iterable

from validator.model import Piece

from plugin.awaw.situation import Situation, faction_of
from plugin.awaw.vocabulary import FACTION_NAMES, POWER_NAMES, area_name, pool_area


def power_name(power: str) -> str:
    return POWER_NAMES.get(power, power)


def faction_name(faction: str) -> str:
    return FACTION_NAMES.get(faction, faction)


def builder(piece: Piece) -> str:
    return piece.attribute("builder")


def faction(piece: Piece) -> str:
    return faction_of(builder(piece))


def home_country(where: Situation, piece: Piece) -> str:
    """The country a partisan was built in, with a map area that is part of a country read as that country."""
    return where.home_country(piece)


def home_area(where: Situation, piece: Piece) -> str:
    """The force-pool area a partisan counts against (the Iraq group counts as one)."""
    return pool_area(home_country(where, piece))


def describe(piece: Piece) -> str:
    """"p7 (built by Germany)": a partisan's id with its builder, worded so it cannot be read as the hex's controller."""
    return f"{piece.id} (built by {power_name(builder(piece))})" if builder(piece) else piece.id


def ids(pieces: Iterable[Piece]) -> list[str]:
    return [piece.id for piece in pieces]


def listing(pieces: Iterable[Piece]) -> str:
    return ", ".join(ids(pieces))


__all__ = ("area_name", "builder", "describe", "faction", "faction_name", "home_area", "home_country", "ids",
           "listing", "power_name")
