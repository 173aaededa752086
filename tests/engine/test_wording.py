"""Counted words: the singular for exactly one, the regular plural otherwise, and verbs that agree."""

from fractions import Fraction

import pytest

from validator.wording import noun_for, plural, plural_of, verb_for


@pytest.mark.parametrize(
    "noun, expected",
    [
        ("closed hex", "closed hexes"),
        ("unit", "units"),
        ("BRP", "BRPs"),
        ("territory", "territories"),
        ("day", "days"),
        ("match", "matches"),
        ("Soviet or pro-Yugoslav Bulgarian unit", "Soviet or pro-Yugoslav Bulgarian units"),
        ("division-equivalent", "division-equivalents"),
    ],
)
def test_the_regular_plural_is_made_on_the_last_word(noun, expected):
    assert plural_of(noun) == expected


@pytest.mark.parametrize(
    "count, expected",
    [(0, "0 closed hexes"), (1, "1 closed hex"), (2, "2 closed hexes"), (Fraction(1, 2), "1/2 closed hexes")],
)
def test_only_exactly_one_takes_the_singular(count, expected):
    assert plural(count, "closed hex") == expected


def test_an_irregular_plural_comes_from_the_caller():
    assert plural(3, "Soviet corps", "Soviet corps") == "3 Soviet corps"
    assert noun_for(1, "Soviet corps", "Soviet corps") == "Soviet corps"


def test_the_verb_agrees_with_the_count():
    assert f"1 unit {verb_for(1, 'stands', 'stand')}" == "1 unit stands"
    assert f"2 units {verb_for(2, 'stands', 'stand')}" == "2 units stand"
