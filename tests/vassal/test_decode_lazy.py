"""The lazy chain reading agrees with the rule-for-rule readers it stands in for.

Decoding real saves fast means locating a chain's elements without building
them, reading trait ids from the raw text, finding the traits a plan reads
with one search, and splitting plain fields with ``str.split``.  Each of
these shortcuts is checked here against the general rule on random chains
and fields, well formed and broken, so the speed changes no result.
"""

from __future__ import annotations

import random

from validator.saves.vassal.piece_types import _PLANNED, parse_piece_type, plan_of
from validator.saves.vassal.pieces import (
    ChainElements,
    TraitIds,
    _layered_bounds,
    _nested_bounds,
    basic_state,
    chain_view,
    trait_id,
)
from validator.saves.vassal.sequence import Decoder, leading, split

from vassal_save_writer import chain

_TRAITS = ["mark;Side", "PROP;Strength;1", "emb2;;0;;;0;;;0;;;;1;false;0;0;a.png,b.png;Up,Down;true;Step",
           "label;;;;;;;;;;;;$pieceName$ [$label$];;;;Name", "obs;;;;;;Hidden;side:", "hide;;;;;side:", "macro;x",
           "report;a\\;b", "'quoted;'", "basicName;Real", "placemark;;1;+/null/prototype\\;C\tpiece\\;\\;\\;\\;/\tnull"]


def _general(value: str, count: int) -> list[str]:
    parts = value.split("\t")
    parts.pop()
    runs = [len(part) - len(part.rstrip("\\")) for part in parts]
    return list(ChainElements(value, *_nested_bounds(value, count, parts, runs)))


def _random_chain(rng: random.Random) -> str:
    if rng.random() < 0.3:                  # anything at all: broken escapes, quotes, stray TABs
        return "".join(rng.choice("ab;'\\\t") for _ in range(rng.randint(1, 14)))
    elements = [rng.choice(_TRAITS) if rng.random() < 0.6 else
                "".join(rng.choice("ab;,'\\\t") for _ in range(rng.randint(0, 6))) for _ in range(rng.randint(1, 8))]
    return chain(*elements, "piece;;;u.png;Unit" if rng.random() < 0.8 else "x\ty")


def test_the_located_elements_are_the_rule_for_rule_ones():
    rng = random.Random(13)
    layered = 0
    for _ in range(6000):
        value = _random_chain(rng)
        if "\t" not in value:
            continue
        parts = value.split("\t")
        parts.pop()
        runs = [len(part) - len(part.rstrip("\\")) for part in parts]
        layered += _layered_bounds(value, 50, parts) is not None and any(
            run != index for index, run in enumerate(runs))
        for count in (1, 2, 50):
            assert list(chain_view(value, count)) == _general(value, count), repr(value)
    assert layered > 300                    # the nested shape VASSAL writes takes the fast path often


def test_trait_ids_read_from_the_raw_text_are_the_elements_ids():
    rng = random.Random(21)
    for _ in range(4000):
        value = _random_chain(rng)
        elements = chain_view(value, 50)
        assert list(TraitIds(elements)) == [trait_id(element) for element in elements], repr(value)
        assert elements.having_ids(_PLANNED) == [
            (index, trait_id(element)) for index, element in enumerate(elements) if trait_id(element) in _PLANNED]


def test_a_lazily_read_type_plans_as_the_built_one():
    rng = random.Random(34)
    for _ in range(3000):
        value = _random_chain(rng)
        lazy = parse_piece_type(value)
        built = plan_of(tuple(chain_view(value, 3000)))
        assert (list(lazy.ids), lazy.image, lazy.basic_name, lazy.name_steps, lazy.property_steps, lazy.mask,
                lazy.hide) == (list(built.ids), built.image, built.basic_name, built.name_steps,
                               built.property_steps, built.mask, built.hide), repr(value)


def _reference_leading(value: str, delimiter: str, count: int) -> list[str]:
    return split(value, delimiter)[:count]


def test_leading_tokens_are_the_first_tokens_of_the_full_split():
    rng = random.Random(55)
    for _ in range(6000):
        value = "".join(rng.choice("ab/'\\") for _ in range(rng.randint(0, 14)))
        for count in (1, 3, 9):
            assert leading(value, "/", count) == _reference_leading(value, "/", count), repr(value)
            assert leading("+/" + value, "/", count, start=2) == _reference_leading(value, "/", count), repr(value)


def _reference_basic_state(state: str):
    decoder = Decoder(state, ";", count=5)
    map_id, x, y = decoder.next_token("null"), decoder.next_int(0), decoder.next_int(0)
    decoder.next_token("")
    count = max(0, min(decoder.next_int(0), 10_000))
    tokens = split(state, ";")[5:5 + 2 * count]
    pairs = [(tokens[index], tokens[index + 1] if index + 1 < len(tokens) else "")
             for index in range(0, len(tokens), 2)]
    return None if map_id in ("null", "") else map_id, x, y, tuple(pairs[:count])


def test_a_plain_basic_state_reads_as_the_decoder_reads_it():
    rng = random.Random(89)
    fields = ["Main Map", "null", "", "12", "-3", "x", "2", "1", "0", "k", "v", "99999999999"]
    for _ in range(6000):
        state = ";".join(rng.choice(fields) for _ in range(rng.randint(0, 10)))
        basic = basic_state(state)
        assert (basic.map, basic.x, basic.y, basic.properties) == _reference_basic_state(state), repr(state)
