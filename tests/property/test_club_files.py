"""The files a club writes by hand, damaged: the settings file, a house-rules file, a map skeleton's tables.

Each is read or refused with an input error, like every other reader.  The
valid samples are the ones the documentation shows: a settings file with a
key in every table, a house-rules file rating one check of each game, and
the tables ``referee vassal mapping draft`` writes for a small hex module.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from validator import house_rules, settings
from validator.saves.vassal.map_skeleton import build_skeleton, read_skeleton, write_tables
from validator.saves.vassal.module import parse_build_file

from tests.property.mutations import mutations
from tests.property.reading import read_or_refuse
from tests.vassal.test_mapping_draft import hex_module

FOLDER = Path(tempfile.mkdtemp(prefix="referee-property-club-files-"))

SETTINGS = b"""# a club's settings, one key in every table
[limits]
pieces = "200k"
text_bytes = "2GiB"

[web.limits]
pieces = 5000

[storage]
max_upload_bytes_total = "10GiB"
orphan_grace_seconds = 3600
clean_on_start = true

[web]
base_url = "https://referee.example.org/club"
trusted_hosts = ["referee.example.org", ".example.org"]
"""

HOUSE_RULES = b"""<?xml version="1.0" encoding="UTF-8"?>
<house-rules xmlns="urn:referee:house-rules:1" version="1">
  <game id="tito">
    <rule case="6.21" check="overstacked_location" severity="warning">The club allows one division more.</rule>
  </game>
</house-rules>
"""


def _written(name: str, data: bytes) -> Path:
    path = FOLDER / name
    path.write_bytes(data)
    return path


def test_the_samples_are_read():
    assert settings.read(_written("referee.toml", SETTINGS)).table("web")["base_url"].endswith("/club")
    assert house_rules.read_file(_written("house-rules.xml", HOUSE_RULES))


@given(mutations(SETTINGS, xml=False))
def test_a_damaged_settings_file_is_read_or_refused(data):
    read_or_refuse(settings.read, _written("referee.toml", data), expected=settings.Settings)


@given(mutations(HOUSE_RULES))
def test_a_damaged_house_rules_file_is_read_or_refused(data):
    read_or_refuse(house_rules.read_file, _written("house-rules.xml", data), expected=house_rules.HouseRules)


def _tables() -> tuple[bytes, bytes]:
    hexes, areas = FOLDER / "draft-hexes.csv", FOLDER / "draft-areas.csv"
    write_tables(build_skeleton(parse_build_file(hex_module(), source="club-awaw.xml")), "awaw", hexes, areas)
    return hexes.read_bytes(), b"id,name,part-of\nfrance,France,\n"


HEXES, AREAS = _tables()


@given(st.one_of(st.tuples(mutations(HEXES, xml=False), st.just(AREAS)),
                 st.tuples(st.just(HEXES), mutations(AREAS, xml=False))))
def test_damaged_skeleton_tables_are_read_or_refused(tables):
    hexes, areas = (_written(name, data) for name, data in zip(("hexes.csv", "areas.csv"), tables, strict=True))
    read_or_refuse(read_skeleton, hexes, areas, "awaw", "club", expected=bytes)
