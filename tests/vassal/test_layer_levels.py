"""A Layer's level names are read from their field when asked, with the results of splitting them all.

The reference here is the decoder rule applied the plain way: every token of
the type split out (``split``), the level names taken from them, ``emb2;``
padding its names with empty ones to the number of its images.  Random own
types full of delimiters, backslashes and quotes must give the same level
name for every state, and the same list of names.
"""

from __future__ import annotations

import random

import pytest

from validator.saves.vassal.piece_types import layer_in_state, layer_type
from validator.saves.vassal.sequence import TooManyItems, java_int, leading, split

_PIECES = ["a", "b", "Step", ",", ";", "\\", "'", "+", "x+", "+y", "1", ""]


def _text(rng: random.Random, most: int) -> str:
    return "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, most)))


def _reference_names(trait_id: str, own_type: str) -> tuple[str, ...]:
    if trait_id == "emb2;":
        fields = split(own_type, ";")[1:20] + [""] * 19
        images = split(fields[15], ",") if fields[15] else []
        names = split(fields[16], ",") if fields[16] else []
        return tuple(names + [""] * (len(images) - len(names)))
    names = []
    for entry in split(own_type, ";")[9:]:
        parts = leading(entry, ",", 2)
        names.append(parts[1] if len(parts) > 1 else "")
    return tuple(names)


def _emb2(images: str, names: str) -> str:
    """An ``emb2;`` own type with these image and level-name fields, named Step."""
    return "emb2;" + ";".join(["Act", *[""] * 14, images, names, "", "Step"])


def _random_own_type(rng: random.Random) -> tuple[str, str]:
    if rng.random() < 0.5:
        fields = [_text(rng, 3) for _ in range(15)] + [_text(rng, 12), _text(rng, 12), _text(rng, 2), "Step"]
        return "emb2;", "emb2;" + ";".join(fields)
    return "emb;", "emb;" + ";".join(_text(rng, 4) for _ in range(rng.randint(0, 16)))


def test_every_level_name_is_the_one_splitting_every_name_gives():
    rng = random.Random(20261202)
    for _ in range(3000):
        trait_id, own_type = _random_own_type(rng)
        layer = layer_type(trait_id, own_type)
        names = _reference_names(trait_id, own_type)
        assert layer.level_names == names, own_type
        for state in ["", "0", "-1", "-2", "x", *(str(level) for level in range(1, len(names) + 3))]:
            value = java_int(leading(state, ";", 1)[0], layer.default_value) if state else layer.default_value
            shown = layer_in_state(layer, state)
            expected = names[value - 1] if value > 0 and value - 1 < len(names) else ""
            assert (shown.level_name, shown.level_names) == (expected, names), (own_type, state)


def test_a_layer_names_thousands_of_levels_and_shows_the_one_its_state_picks():
    names = [f"L{number}" for number in range(5000)]
    layer = layer_type("emb2;", _emb2(",".join(f"i{n}.png" for n in range(5001)), ",".join(names)))
    assert layer.name == "Step"
    assert layer_in_state(layer, "4321").level_name == "L4320"
    assert layer_in_state(layer, "5001").level_name == ""       # an image without a name
    assert layer_in_state(layer, "-4321").level_name == ""      # inactive
    assert layer.level_names == (*names, "")


@pytest.mark.parametrize("trait_id, own_type", [
    ("emb2;", _emb2(",".join("i" * 11), "a")),
    ("emb2;", _emb2("i", ",".join("n" * 11))),
    ("emb;", "emb;" + ";" * 10),
])
def test_a_layer_listing_more_levels_than_the_list_items_limit_is_refused(trait_id, own_type):
    with pytest.raises(TooManyItems, match="more than the list_items limit of 10"):
        layer_type(trait_id, own_type, most_items=10)
