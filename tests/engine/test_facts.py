"""The declared-facts vocabulary: each type reads what it should and names what it expected."""

from __future__ import annotations

import pytest

from validator.facts import (
    KEYED, MANY, Attribute, AttributeTable, Boolean, Context, Count, Either, Fact, FactTable, MapReference,
    Turn, ValueProblem, Word, Words,
)
from validator.model import Area, MapData, Position

MAP = MapData(source="map.xml", areas={"serbia": Area("serbia", "Serbia")}, displays={}, locations={})
CONTEXT = Context(MAP)


def position(*facts: tuple[str, str]) -> Position:
    values: dict[str, list[str]] = {}
    lines: dict[str, list[int]] = {}
    for line, (name, value) in enumerate(facts, start=10):
        values.setdefault(name, []).append(value)
        lines.setdefault(name, []).append(line)
    return Position(game="test", map=MAP, source="save.xml",
                    facts={name: tuple(v) for name, v in values.items()},
                    fact_lines={name: tuple(v) for name, v in lines.items()})


@pytest.mark.parametrize("value_type, text, expected", [
    (Word(("axis", "allies")), "axis", "axis"),
    (Word(("axis",), extra=lambda context: context.map.areas), "serbia", "serbia"),
    (Count(), "060", 60),
    (Count(), "0", 0),
    (Turn(1, 30), "30", 30),
    (Boolean(), "false", False),
    (MapReference("area"), "serbia", "serbia"),
    (Words((Word(("usa",)), Word(("europe", "pacific")))), "usa  pacific", ("usa", "pacific")),
    (Words((Word(("germany",)),), rest=Count()), "germany 1 2", ("germany", 1, 2)),
    (Either((Turn(1, 30), Boolean())), "true", True),
])
def test_each_type_reads_its_values(value_type, text, expected):
    assert value_type.read(text, CONTEXT) == expected


@pytest.mark.parametrize("value_type, text, said", [
    (Word(("axis", "allies")), "soviet", "one of axis, allies"),
    (Word(("axis",), name="a side"), "x", "a side"),
    (Count(), "²", "a whole number from 0 to 999999"),
    (Count(), "1" * 7, "a whole number from 0 to 999999"),
    (Count(), "-1", "a whole number from 0 to 999999"),
    (Turn(1, 30), "31", "a turn number (1 to 30)"),
    (Boolean(), "yes", "true or false"),
    (MapReference("area"), "croatia", "an area of the map"),
    (Words((Word(("usa",)), Word(("europe",)))), "usa", "one of usa, one of europe"),
    (Words((Word(("usa",)),)), "usa usa", "one of usa"),
    (Either((Turn(1, 30), Boolean())), "maybe", "a turn number (1 to 30) or true or false"),
])
def test_each_type_names_what_it_expected(value_type, text, said):
    with pytest.raises(ValueProblem) as raised:
        value_type.read(text, CONTEXT)
    assert raised.value.args[0] == said


TABLE = FactTable("a test fact", (
    Fact("rgt", Count()),
    Fact("at-war", Words((Word(("germany", "russia")), Word(("germany", "russia")))), repeat=MANY),
    Fact("conquered", Words((MapReference("area"), Word(("germany",)))), repeat=KEYED),
))


def test_a_table_reads_values_with_their_lines():
    reading = TABLE.read(position(("rgt", "7"), ("at-war", "germany russia"), ("at-war", "russia germany")))
    assert reading.problems == []
    assert reading.one("rgt") == 7
    assert reading.all("at-war") == [("germany", "russia"), ("russia", "germany")]
    assert [entry.line for entry in reading.values["at-war"]] == [11, 12]


def test_a_table_writes_the_standard_messages_at_each_values_line():
    reading = TABLE.read(position(("rgt", "x"), ("colour", "red"), ("rgt", "7"), ("rgt", "07"), ("rgt", "8")))
    assert reading.problems == [
        (10, "the fact 'rgt' takes a whole number from 0 to 999999, not 'x'"),
        (14, "the fact 'rgt' is given as '8' here and as '7' at line 12; keep the one that holds and remove the other"),
        (11, "the fact 'colour' is not a test fact; the facts are rgt, at-war, conquered"),
    ]
    assert reading.one("rgt") == 7


def test_a_keyed_fact_holds_one_value_per_first_word():
    reading = TABLE.read(position(("conquered", "serbia germany"), ("conquered", "serbia germany")))
    assert reading.problems == []
    reading = TABLE.read(position(("conquered", "serbia germany"), ("conquered", "croatia germany")))
    assert reading.problems == [
        (11, "the fact 'conquered' takes an area of the map, one of germany, not 'croatia germany'")]


def test_an_attribute_table_reads_known_attributes_and_names_the_rest():
    table = AttributeTable("a test piece", (Attribute("zoc", Boolean()), Attribute("owner", Word(("germany",)), required=True)))
    assert table.read({"zoc": "true", "owner": "germany"}, CONTEXT) == ({"zoc": True, "owner": "germany"}, [])
    values, problems = table.read({"zoc": "maybe", "colour": "red"}, CONTEXT)
    assert values == {}
    assert problems == [
        "has zoc='maybe'; it takes true or false",
        "has an unknown attribute 'colour' (a test piece takes zoc, owner)",
        "needs owner= (one of germany)",
    ]
