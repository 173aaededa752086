from itertools import pairwise

import pytest

from validator.cases import CaseNumber, CaseNumberError, parent_fields


def parse(text):
    return CaseNumber.parse(text)


@pytest.mark.parametrize(
    "text, canonical, levels, letter",
    [
        ("6", "6", (6,), ""),
        ("6.0", "6", (6,), ""),
        ("6.2", "6.2", (6, 2), ""),
        ("6.21", "6.21", (6, 2, 1), ""),
        ("11.353", "11.353", (11, 3, 5, 3), ""),
        ("11.353E", "11.353E", (11, 3, 5, 3), "E"),
        ("7.44E", "7.44E", (7, 4, 4), "E"),
        ("13.91D", "13.91D", (13, 9, 1), "D"),
        ("15.4.1.1", "15.4.1.1", (15, 4, 1, 1), ""),
        ("44.", "44", (44,), ""),
        (" 8.4 ", "8.4", (8, 4), ""),
        ("13A", "13A", (13,), "A"),
    ],
)
def test_parses_every_form_in_the_rulebooks(text, canonical, levels, letter):
    number = parse(text)
    assert str(number) == canonical
    assert number.levels == levels
    assert number.letter == letter


def test_section_heading_is_the_section_itself():
    assert parse("6.0") == parse("6")
    assert parse("6.0").is_section


@pytest.mark.parametrize("bad", ["", "abc", "6..2", "1.2.x", "A.1", "6.2AB", "12345"])
def test_rejects_what_is_not_a_case_number(bad):
    with pytest.raises(CaseNumberError):
        parse(bad)
    assert CaseNumber.try_parse(bad) is None


@pytest.mark.parametrize(
    "number, chain",
    [
        ("11.353E", ["11.353", "11.35", "11.3", "11"]),
        ("6.21", ["6.2", "6"]),
        ("15.4.1.1", ["15.4.1", "15.4", "15"]),
        ("13A", ["13"]),
        ("6", []),
    ],
)
def test_parent_chain(number, chain):
    assert [str(ancestor) for ancestor in parse(number).ancestors()] == chain


@pytest.mark.parametrize(
    "ordered",
    [
        ["6.2", "6.21", "6.3"],
        ["11.35", "11.351", "11.353", "11.353A", "11.353B", "11.36"],
        ["15.4.1", "15.4.1.1", "15.4.2"],
        ["6", "6.1", "6.11", "7", "10", "10.1"],
    ],
)
def test_total_order(ordered):
    numbers = [parse(text) for text in ordered]
    assert sorted(reversed(numbers)) == numbers
    for smaller, larger in pairwise(numbers):
        assert smaller < larger and not larger < smaller


def test_spellings_are_distinct_numbers_at_the_same_place():
    compact, dotted = parse("11.353"), parse("11.3.5.3")
    assert compact != dotted and str(dotted) == "11.3.5.3"
    assert compact.levels == dotted.levels
    assert str(parse("15.4.1.1").parent) == "15.4.1"


def test_anchor_and_hash():
    assert parse("11.353E").anchor == "c11-353E"
    assert parse("15.4.1.1").anchor == "c15-4-1-1"
    assert len({parse("6.0"), parse("6"), parse("6.2")}) == 2


def test_within():
    assert parse("6.21").is_within(parse("6"))
    assert parse("6.21").is_within(parse("6.21"))
    assert not parse("6.3").is_within(parse("6.2"))


def test_dotted_levels_above_nine_keep_their_parents():
    number = parse("15.10.1")
    assert [str(ancestor) for ancestor in number.ancestors()] == ["15.10", "15"]


def test_absurdly_long_numbers_are_not_case_numbers():
    assert CaseNumber.try_parse("1.1" + "9" * 5000) is None


@pytest.mark.parametrize("text", ["6", "6.2", "6.21", "11.353E", "13A", "15.4.1.1", "15.12.1", "15.12", "1.10.2A"])
def test_parent_fields_are_the_fields_of_the_parent(text):
    number = CaseNumber.parse(text)
    while number is not None:
        parent = number.parent
        assert parent_fields(number.fields) == (parent.fields if parent is not None else None), number
        number = parent
