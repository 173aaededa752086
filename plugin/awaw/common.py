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
    return piece.attributes.get("builder", "")  # piece.attribute("builder"), a call less: checks ask it per partisan


def faction(piece: Piece) -> str:
    return faction_of(piece.attributes.get("builder", ""))


def home_country(where: Situation, piece: Piece) -> str:
    """The country a partisan was built in, with a map area that is part of a country read as that country."""
    return where.home_country(piece)


def home_area(where: Situation, piece: Piece) -> str:
    """The force-pool area a partisan counts against (the Iraq group counts as one)."""
    return pool_area(home_country(where, piece))


def describe(piece: Piece) -> str:
    """"p7 (built by Germany)": a partisan's id with its builder, worded so it cannot be read as the hex's controller."""
    built_by = piece.attributes.get("builder", "")
    return f"{piece.id} (built by {POWER_NAMES.get(built_by, built_by)})" if built_by else piece.id


def ids(pieces: Iterable[Piece]) -> list[str]:
    return [piece.id for piece in pieces]


def listing(pieces: Iterable[Piece]) -> str:
    return ", ".join(ids(pieces))


__all__ = ("area_name", "builder", "describe", "faction", "faction_name", "home_area", "home_country", "ids",
           "listing", "power_name")
