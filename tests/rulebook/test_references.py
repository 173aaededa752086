"""Reference forms from the rulebooks, checked on sentences of our own."""

import pytest

from validator.rulebook.references import find_references


def targets(text):
    return [str(reference.target) for reference in find_references(text)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Frogs hop once (see 7.6) per turn.", ["7.6"]),
        ("Ponds freeze in winter, see 7.52 for thawing.", ["7.52"]),
        ("As Case 6.42 says, herons wait.", ["6.42"]),
        ("Cases 7.64 and 7.67 limit lily pads.", ["7.64", "7.67"]),
        ("Herons get a shift (15.33C).", ["15.33C"]),
        ("The marsh counts as one area (11.341A).", ["11.341A"]),
        ("[7.42] (addition) Tadpoles may wait.", ["7.42"]),
        ("The reeds listed in 13.91D arrive late.", ["13.91D"]),
        ("The rules for fog are set out in rule 45.", ["45"]),
        ("Traced normally (see rule 8) through reeds.", ["8"]),
        ("Herons may strike twice (see 8.4.)", ["8.4"]),
        ("Nested numbers 15.4.1.1 stay whole.", ["15.4.1.1"]),
        ("Section 14.0 scores the pond.", ["14"]),
    ],
)
def test_reference_forms(text, expected):
    assert targets(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Place 704(12), 714(12) and 100L(G10) in the pond.",
        "On Game-Turn 15 the frogs arrive.",
        "The marsh shows 4C2 after its name.",
        "Each frog costs two BRPs; 50 or greater ends it.",
        "The war ran 1941-45 and again in 1942.",
        "1:2 2-3 0:2 2† 1**",
        "Box #6 of the track, a die roll of 1 through 5.",
    ],
)
def test_numbers_that_are_not_references(text):
    assert targets(text) == []


def test_reference_offsets_cover_the_number_only():
    text = "(see 8.4.)"
    (reference,) = find_references(text)
    assert text[reference.start : reference.end] == "8.4"
