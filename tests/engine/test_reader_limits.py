"""Our save and map readers count pieces, facts, events, areas and hexes against the limits before reading them.

Each save below also carries a fault past the limit that the schema or the
model would report; the limit's sentence coming instead shows the refusal
happens before that work.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from validator.limits import Limits
from validator.saves.xml_reader import SaveInputError, read_position_file

HEADER = '<position xmlns="urn:referee:save:1" version="1" game="tito">'


def write(folder: Path, body: str, name: str = "save.xml") -> Path:
    path = folder / name
    path.write_text(HEADER + "\n" + body + "</position>\n", encoding="utf-8")
    return path


def refusal(path: Path, **figures: int) -> str:
    with pytest.raises(SaveInputError) as caught:
        read_position_file(path, limits=Limits(**figures))
    return str(caught.value)


def test_pieces_past_the_limit_are_refused_at_the_first_one_too_many(tmp_path):
    pieces = "".join(f'<piece id="p{number}" name="P"/>\n' for number in range(3))
    path = write(tmp_path, f'<map><area id="a"/></map>\n<pieces>\n{pieces}<piece bogus="1"/>\n</pieces>\n')
    assert refusal(path, pieces=3) == f"{path}, line 7: the save holds 4 pieces, more than the pieces limit of 3"


def test_facts_past_the_limit_are_refused_before_the_schema_reads_them(tmp_path):
    facts = '<fact name="rgt" value="1"/>\n' * 2 + '<fact bogus="1"/>\n'
    path = write(tmp_path, facts + '<map><area id="a"/></map>\n')
    assert refusal(path, facts=2) == f"{path}, line 4: the save gives 3 fact values, more than the facts limit of 2"


def test_events_past_the_limit_are_refused(tmp_path):
    events = '<event kind="attack"/>\n' * 3
    path = write(tmp_path, '<map><area id="a"/></map>\n' + events)
    assert refusal(path, events=2) == f"{path}, line 5: the save gives 3 events, more than the events limit of 2"


def test_an_inline_map_past_the_hexes_limit_is_refused(tmp_path):
    hexes = "".join(f'<hex id="h{number}" column="{number}" row="0"/>' for number in range(4))
    path = write(tmp_path, f'<map grid="hex">{hexes}<hex oops="1"/></map>\n')
    assert refusal(path, hexes=3) == (f"{path}, line 2: the map has 5 areas and hexes, more than the hexes limit of 3")


def test_a_map_file_past_the_hexes_limit_is_refused_even_when_kept_from_a_larger_limit(tmp_path):
    hexes = "".join(f'<hex id="h{number}" column="{number}" row="0"/>' for number in range(4))
    map_path = tmp_path / "map.xml"
    map_path.write_text(f'<map xmlns="urn:referee:save:1" grid="hex">\n{hexes}\n</map>\n', encoding="utf-8")
    path = write(tmp_path, '<map href="map.xml"/>\n<pieces/>\n')
    with pytest.raises(SaveInputError) as caught:
        read_position_file(path, "tito")
    assert "does not have" not in str(caught.value)  # read under the default limits (tito's own problems aside)
    expected = f"{map_path}, line 1: the map has 4 areas and hexes, more than the hexes limit of 3"
    assert refusal(path, hexes=3) == expected


def test_figures_at_the_limit_are_read(tmp_path):
    pieces = "".join(f'<piece id="p{number}" name="P"/>\n' for number in range(3))
    path = write(tmp_path, f'<map><area id="a"/></map>\n<pieces>\n{pieces}</pieces>\n')
    with pytest.raises(SaveInputError) as caught:  # tito refuses pieces without a side: past the limits' check
        read_position_file(path, limits=Limits(pieces=3, hexes=1))
    assert "more than the" not in str(caught.value)
