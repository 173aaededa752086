"""The declared-facts vocabulary: each type reads what it should and names what it expected."""

from __future__ import annotations

from fractions import Fraction

import pytest

from validator.facts import (
    KEYED,
    MANY,
    Attribute,
    AttributeTable,
    Boolean,
    Context,
    Count,
    Either,
    Fact,
    FactTable,
    MapReference,
    MapReferences,
    Number,
    SeasonYear,
    Text,
    Turn,
    ValueProblem,
    Word,
    Words,
    read_position,
)
from validator.model import Area, Location, MapData, Position

MAP = MapData(source="map.xml", areas={"serbia": Area("serbia", "Serbia")}, displays={},
              locations={"0101": Location("0101", "hex"), "0102": Location("0102", "hex"),
                         "serbia/box": Location("serbia/box", "box")})
CONTEXT = Context(MAP)


def position(*facts: tuple[str, str], **fields: str) -> Position:
    values: dict[str, list[str]] = {}
    lines: dict[str, list[int]] = {}
    for line, (name, value) in enumerate(facts, start=10):
        values.setdefault(name, []).append(value)
        lines.setdefault(name, []).append(line)
    return Position(game="test", map=MAP, source="save.xml",
                    facts={name: tuple(v) for name, v in values.items()},
                    fact_lines={name: tuple(v) for name, v in lines.items()}, line=2, **fields)


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
    (Count(-99, 99), "-07", -7),
    (Count(-99, 99), "7", 7),
    (Number(), "2", Fraction(2)),
    (Number(), "1.5", Fraction(3, 2)),
    (Number(), "1/2", Fraction(1, 2)),
    (SeasonYear(("winter", "spring")), "Spring-1942", ("spring", 1942)),
    (SeasonYear(("winter", "spring")), " winter  1943 ", ("winter", 1943)),
    (Boolean("yes", "no"), "no", False),
    (Text(), "704th Infantry", "704th Infantry"),
    (MapReference("hex"), "0101", "0101"),
    (MapReferences("hex"), "0101 0102", ("0101", "0102")),
    (Words((Word(("germany",)),), rest=MapReferences("hex")), "germany 0101 0102", ("germany", ("0101", "0102"))),
    (Words((Word(("germany", "italy")), Word(("germany", "italy"))), different=True), "italy germany",
     ("italy", "germany")),
    (Word({"b", "a"}), "a", "a"),
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
    (Count(-99, 99), "--1", "a whole number from -99 to 99"),
    (Count(-99, 99), "-100", "a whole number from -99 to 99"),
    (Number(), "1/0", "a number such as 2, 1.5 or 1/2"),
    (Number(), "½", "a number such as 2, 1.5 or 1/2"),
    (Number(), "12345", "a number such as 2, 1.5 or 1/2"),
    (SeasonYear(("winter", "spring")), "7", "a season (winter, spring) and a year, e.g. 'spring 1942'"),
    (SeasonYear(("winter", "spring")), "autumn 1942", "a season (winter, spring) and a year, e.g. 'spring 1942'"),
    (SeasonYear(("winter", "spring")), "spring ١٩٤٢", "a season (winter, spring) and a year, e.g. 'spring 1942'"),
    (Boolean("yes", "no"), "true", "yes or no"),
    (MapReference("hex"), "serbia/box", "a hex of the map"),
    (MapReferences("hex"), "", "hexes of the map, separated by spaces"),
    (Words((Word(("germany", "italy")), Word(("germany", "italy"))), different=True), "italy italy",
     "one of germany, italy, one of germany, italy, all different"),
    (Word({"b", "a"}), "c", "one of a, b"),
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
        (11, "the fact 'conquered' takes an area of the map, one of germany, not 'croatia germany'; "
             "'croatia' is not an area of the map")]


def test_a_list_of_words_says_which_word_is_wrong():
    power = Word(("germany", "italy"), name="a power")
    pair = Words((power, power), different=True)
    for text, detail in (("germany narnia", "'narnia' is not a power"), ("italy italy", "'italy' is given twice")):
        with pytest.raises(ValueProblem) as raised:
            pair.read(text, CONTEXT)
        assert raised.value.detail == detail
    with pytest.raises(ValueProblem) as raised:
        pair.read("italy", CONTEXT)
    assert raised.value.detail == ""  # too few words: the expected shape says it all


def test_an_attribute_table_reads_known_attributes_and_names_the_rest():
    table = AttributeTable("a test piece", (Attribute("zoc", Boolean()),
                                            Attribute("owner", Word(("germany",)), required=True)))
    assert table.read({"zoc": "true", "owner": "germany"}, CONTEXT) == ({"zoc": True, "owner": "germany"}, [])
    values, problems = table.read({"zoc": "maybe", "colour": "red"}, CONTEXT)
    assert values == {}
    assert problems == [
        "has zoc='maybe'; it takes true or false",
        "has an unknown attribute 'colour' (a test piece takes zoc, owner)",
        "has no owner=; it takes one of germany",
    ]


def test_a_list_of_map_references_names_the_ids_the_map_lacks():
    with pytest.raises(ValueProblem) as raised:
        MapReferences("hex").read("0101 x1 x2", CONTEXT)
    assert raised.value.detail == "the map has no hexes 'x1', 'x2'"
    with pytest.raises(ValueProblem) as raised:
        hexes = " ".join(f"z{n}" for n in range(9))
        Words((Word(("germany",)),), rest=MapReferences("hex")).read(f"germany {hexes}", CONTEXT)
    assert raised.value.expected == "one of germany, then hexes of the map, separated by spaces"
    assert raised.value.detail == "the map has no hexes 'z0', 'z1', 'z2', 'z3', 'z4' and 4 more"


def test_the_detail_follows_the_standard_message():
    control = Words((Word(("germany",)),), rest=MapReferences("hex"))
    table = FactTable("a test fact", (Fact("control", control, repeat=MANY),))
    assert table.read(position(("control", "germany 0101 x9"))).problems == [
        (10, "the fact 'control' takes one of germany, then hexes of the map, separated by spaces, "
             "not 'germany 0101 x9'; the map has no hex 'x9'")]


SUBJECTS = FactTable("a test fact", (
    Fact("war-entry", Turn(1, 30), subject=Text("a nation")),
    Fact("supply-source", MapReferences("hex"), subject=Word(("nato", "pact"), name="a side (nato or pact)"),
         repeat=MANY),
))


def test_a_fact_with_a_subject_is_named_with_a_word_after_a_colon():
    reading = SUBJECTS.read(position(("war-entry:finland", "3"), ("supply-source:pact", "0101"),
                                     ("war-entry:sweden", "x")))
    assert reading.one("war-entry:finland") == 3
    assert reading.all("supply-source:pact") == [("0101",)]
    assert reading.problems == [(12, "the fact 'war-entry:sweden' takes a turn number (1 to 30), not 'x'")]


@pytest.mark.parametrize("name, problem", [
    ("war-entry:", "the fact 'war-entry:' needs a nation after the colon"),
    ("supply-source:warsaw", "the fact 'supply-source:warsaw' needs a side (nato or pact) after the colon"),
    ("war-entry", "the fact 'war-entry' is not a test fact; the facts are war-entry:…, supply-source:…"),
    ("weather:fine", "the fact 'weather:fine' is not a test fact; the facts are war-entry:…, supply-source:…"),
])
def test_a_subject_that_is_missing_or_unknown_is_refused(name, problem):
    assert SUBJECTS.read(position((name, "1"))).problems == [(10, problem)]


def test_an_attribute_reader_reads_each_distinct_value_once_and_says_the_same():
    calls = []

    class Counted:
        expected = "a counted word"

        def read(self, text, context):
            calls.append(text)
            if text == "bad":
                raise ValueProblem(self.expected)
            return text.upper()

    read = AttributeTable("a test hex", (Attribute("kind", Counted()),)).reader(CONTEXT)
    results = [read({"kind": text}) for text in ("a", "bad", "a", "bad", "b")]
    assert calls == ["a", "bad", "b"]
    assert results == [({"kind": "A"}, []), ({}, ["has kind='bad'; it takes a counted word"]),
                       ({"kind": "A"}, []), ({}, ["has kind='bad'; it takes a counted word"]), ({"kind": "B"}, [])]


def test_an_element_that_takes_no_attributes_says_so():
    assert AttributeTable("a test event", ()).read({"speed": "3"}, CONTEXT) == (
        {}, ["has an unknown attribute 'speed' (a test event takes none)"])


def test_the_position_fields_are_read_at_the_position_line():
    table = AttributeTable("a test position", (Attribute("turn", Turn(1, 30), required=True),
                                               Attribute("phase", Word(("setup",)))))
    given = position(turn="3", phase="setup", phasing="anyone")  # a field the table does not name is not read
    assert read_position(table, given) == ({"turn": 3, "phase": "setup"}, [])
    assert read_position(table, position(phase="lunch")) == ({}, [
        (2, "the position has phase='lunch'; it takes one of setup"),
        (2, "the position has no turn=; it takes a turn number (1 to 30)"),
    ])


def test_a_value_of_another_type_contradicts_even_when_python_calls_them_equal():
    table = FactTable("a test fact", (Fact("pullback", Either((Turn(1, 30), Boolean()))),))
    assert [line for line, _ in table.read(position(("pullback", "1"), ("pullback", "true"))).problems] == [11]


def test_an_element_with_free_text_is_read_value_by_value_and_fields_are_read_first():
    calls = []

    class Counted:
        expected = "a counted word"

        def read(self, text, context):
            calls.append(text)
            return text.upper()

    table = AttributeTable("a test hex", (Attribute("area", MapReference("area")), Attribute("name", Text()),
                                          Attribute("kind", Counted(), required=True)))
    read = table.reader(CONTEXT)
    assert read({"name": "Belgrade", "kind": "a"}, ("area", "serbia")) == (
        {"area": "serbia", "name": "Belgrade", "kind": "A"}, [])
    assert read({"name": "Nis", "kind": "a"}, ("area", "croatia")) == (
        {"name": "Nis", "kind": "A"}, ["has area='croatia'; it takes an area of the map"])
    assert read({"name": "Uzice"}, ("area", "serbia"))[1] == ["has no kind=; it takes a counted word"]
    assert calls == ["a"]  # the same kind in two hexes that differ by name is read once
