"""What keeps decoding real saves fast, checked by what it does rather than by a clock.

A type string is parsed once per distinct type (real saves repeat a few
hundred long type strings across thousands of pieces), the cache of parsed
types is bounded, and the chain splitter's fast path gives what the general
one gives.
"""

from __future__ import annotations

import random

from validator.saves.vassal import piece_types
from validator.saves.vassal.piece_types import TYPE_CACHE_SIZE
from validator.saves.vassal.pieces import ChainElements, _nested_bounds, chain_elements
from validator.saves.vassal.reader import read_final_state
from validator.saves.vassal.sequence import encode

from sample_modules import write_game
from vassal_save_writer import add_piece, chain


def _general(value: str, count: int) -> list[str]:
    parts = value.split("\t")
    parts.pop()
    runs = [len(part) - len(part.rstrip("\\")) for part in parts]
    return list(ChainElements(value, *_nested_bounds(value, count, parts, runs)))


def test_the_fast_chain_split_agrees_with_the_general_one():
    rng = random.Random(8)
    checked = 0
    for _ in range(3000):
        elements = ["".join(rng.choice("ab;,'\\") for _ in range(rng.randint(0, 6))) for _ in range(rng.randint(2, 9))]
        value = chain(*elements)
        if "\t" in value:
            assert chain_elements(value, 50) == _general(value, 50)
            checked += 1
    assert checked > 2000


def _types_parsed(monkeypatch) -> list[str]:
    parsed: list[str] = []
    real = piece_types.parse_piece_type

    def counting(type_string, *arguments):
        parsed.append(type_string)
        return real(type_string, *arguments)

    monkeypatch.setattr("validator.saves.vassal.state.parse_piece_type", counting)
    return parsed


def test_each_distinct_type_is_parsed_once(tmp_path, monkeypatch):
    types = [["mark;Side", f"emb2;;0;;;0;;;0;;;;1;false;0;0;a{n}.png,b.png;Up,Down;true;Step", f"piece;;;u{n}.png;U{n}"]
             for n in range(3)]
    pieces = [add_piece(str(index), types[index % 3], ["Axis", "1", f"Main;{index};0;;0"]) for index in range(60)]
    save = write_game(tmp_path / "game.vsav", pieces, {}, [])
    parsed = _types_parsed(monkeypatch)
    game, _ = read_final_state(save)
    assert len(game.pieces) == 60 and {piece.basic_name for piece in game.pieces} == {"U0", "U1", "U2"}
    assert len(parsed) == 3 == len(set(parsed))


def test_the_type_cache_is_bounded(tmp_path, monkeypatch):
    count = TYPE_CACHE_SIZE + 10
    pieces = [add_piece(str(n), ["mark;Side", f"piece;;;u.png;U{n}"], ["Axis", "Main;0;0;;0"]) for n in range(count)]
    save = write_game(tmp_path / "game.vsav", pieces, {}, [])
    parsed = _types_parsed(monkeypatch)
    game, state = read_final_state(save)
    assert len(game.pieces) == count and len(parsed) == count
    assert len(state._types) == TYPE_CACHE_SIZE


def test_a_change_logged_with_the_true_old_state_needs_no_merge(tmp_path):
    start = add_piece("7", ["mark;Strength", "piece;;;u.png;Unit"], ["4", "Main;1;1;;0"])
    change = "LOG\t" + encode(["D", "7", chain("3", "Main;1;1;;0"), chain("4", "Main;1;1;;0")], "/")
    game, _ = read_final_state(write_game(tmp_path / "game.vlog", [start], {}, [], steps=(change,)))
    assert game.piece("7").properties["Strength"] == "3"
