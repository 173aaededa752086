"""Partisans on hexes the map gives no data for: what the partisan rules cannot judge there.

A map drafted from a VASSAL module (``referee vassal mapping draft``) lists
every hex the module numbers, and only the hexes the club has filled in
carry a country, features or a sea flag.  A partisan on a hex without any of
them is neither in a country nor at sea as far as Referee knows, so the rules
that read the hex (11.42's country, 11.33's places, 11.6's control) cannot
decide anything about it: each such hex is reported once, as unchecked, and
11.42 and 11.61 leave the partisans there alone.  A partisan on a filled-in
hex next to hexes without data is reported too: the rules that look at its
neighbours (a surrounded partisan, zones of control) read those as neutral
land.
"""

from __future__ import annotations

from validator.rules import Finding, case

from plugin.awaw.common import describe
from plugin.awaw.hexes import Hex
from plugin.awaw.situation import situation


def lacks_data(hex_info: Hex) -> bool:
    """No area, no sea flag and no feature: the club has not filled the hex in."""
    return not hex_info.region and not hex_info.sea and not hex_info.features


@case("11.42", severity="unchecked")
def partisans_on_hexes_without_map_data(position):
    """Partisans on hexes the map gives no country, terrain or features are not judged by the rules that read them."""
    where = situation(position)
    on_hex: dict[str, list] = {}
    beside: dict[str, list] = {}
    for piece in where.partisans:
        hex_info = where.hex_of(piece)
        if hex_info is None:
            continue
        if lacks_data(hex_info):
            on_hex.setdefault(hex_info.id, []).append(piece)
        elif any(lacks_data(where.hexes[n]) for n in hex_info.neighbours if n in where.hexes):
            beside.setdefault(hex_info.id, []).append(piece)
    for hex_id, pieces in on_hex.items():
        yield Finding(
            f"{', '.join(describe(piece) for piece in pieces)} stand{'s' if len(pieces) == 1 else ''} on the hex "
            f"{hex_id}, which the map gives no country, sea flag or features; fill in its row of the map skeleton "
            "so the partisan rules can judge it",
            location=hex_id, pieces=[piece.id for piece in pieces], severity="unchecked",
            facts={"needs": "the hex's country, terrain and features in the map"},
        )
    for hex_id, pieces in beside.items():
        empty = [n for n in where.hexes[hex_id].neighbours if n in where.hexes and lacks_data(where.hexes[n])]
        yield Finding(
            f"{', '.join(describe(piece) for piece in pieces)} stand{'s' if len(pieces) == 1 else ''} next to "
            f"{', '.join(empty)}, which the map gives no data; the rules that look at a partisan's neighbours "
            "(surrounded partisans, zones of control) read them as neutral land",
            location=hex_id, pieces=[piece.id for piece in pieces], severity="unchecked",
            facts={"needs": "the neighbouring hexes' country, terrain and features in the map"},
        )
