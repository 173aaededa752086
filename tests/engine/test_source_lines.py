"""Elements written over several lines are named by the line where their start tag opens."""

from __future__ import annotations

import pytest

from validator.saves.source_lines import SourceLines
from validator.saves.xml_reader import SaveInputError, read_position_file

from .conftest import MAP, position_xml

WRAPPED_FROG = """    <piece id="f1"
           name="Frog"
           side="frogs"
           location="{at}"
    />"""


def test_one_line_tags_keep_libxml2s_numbers():
    lines = SourceLines(b'<a>\n  <b x="1"/>\n  <c/>\n</a>\n')
    assert not lines.spans_lines and lines.fix(3) == 3


def test_a_wrapped_tag_is_moved_to_its_opening_line():
    lines = SourceLines(b'<a>\n  <b x="1"\n     y="2"\n  />\n  <c/>\n</a>\n')
    assert lines.spans_lines
    assert (lines.fix(4), lines.fix(5), lines.fix(1)) == (2, 5, 1)


def test_a_wrapped_piece_is_reported_where_it_starts(pond, write_save):
    text = position_xml(WRAPPED_FROG.format(at="east/pad"))
    with pytest.raises(SaveInputError) as raised:
        read_position_file(write_save(text))
    assert "stands at 'east/pad'" in raised.value.problem
    assert raised.value.line == text.splitlines().index('    <piece id="f1"') + 1


def test_wrapped_pieces_and_facts_carry_their_opening_lines(pond, write_save):
    extra = '\n  <fact name="weather"\n        value="rain"/>'
    text = position_xml(WRAPPED_FROG.format(at="north/pad"), extra=extra)
    position = read_position_file(write_save(text))
    numbered = text.splitlines()
    assert position.pieces[0].line == numbered.index('    <piece id="f1"') + 1
    assert position.fact_line("weather") == numbered.index('  <fact name="weather"') + 1


def test_a_schema_error_in_a_wrapped_tag_names_its_opening_line(pond, write_save):
    text = position_xml(WRAPPED_FROG.format(at="north/pad").replace('name="Frog"', 'name="Frog" strength="-3"'))
    with pytest.raises(SaveInputError) as raised:
        read_position_file(write_save(text))
    assert "strength" in raised.value.problem
    assert raised.value.line == text.splitlines().index('    <piece id="f1"') + 1


def test_a_wrapped_map_element_is_reported_where_it_starts(pond, write_save):
    write_save(MAP.replace('<area id="south" name="South Pond" neighbours="north">',
                           '<area id="south"\n        name="South Pond"\n        neighbours="west">'), "pond-map.xml")
    with pytest.raises(SaveInputError, match="names a neighbour 'west'") as raised:
        read_position_file(write_save(position_xml("")))
    assert raised.value.line == 5
