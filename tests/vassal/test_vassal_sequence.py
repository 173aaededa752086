"""SequenceEncoder escaping and the nested command stream, rule by rule."""

from __future__ import annotations

import random

import pytest

from validator.saves.vassal.commands import (
    AddPiece,
    ChangePiece,
    ChangeProperty,
    MovePiece,
    RemovePiece,
    SetBoards,
    SetGlobalProperty,
    iter_leaves,
    iter_top_level,
    parse_leaf,
)
from validator.saves.vassal.pieces import parse_traits, split_chain
from validator.saves.vassal.sequence import Decoder, encode, split

from vassal_save_writer import ESC, chain, command


@pytest.mark.parametrize("value, tokens", [
    ("", [""]),
    ("a,b", ["a", "b"]),
    ("a,", ["a", ""]),
    ("a\\,b,c", ["a,b", "c"]),
    ("'x,y'", ["'x", "y'"]),       # quotes do not protect a delimiter
    ("'x\\,y'", ["x,y"]),
    ("'", ["'"]),
    ("a\\\\,b", ["a\\,b"]),          # one backslash removed per level, never doubled
])
def test_split_follows_the_decoder(value, tokens):
    assert split(value, ",") == tokens


def test_a_token_ending_in_a_backslash_is_mis_split_as_in_vassal():
    assert split(encode(["a\\", "b"], ","), ",") == ["a,b"]


def test_encode_then_split_round_trips():
    rng = random.Random(6)
    alphabet = "ab,;\t'\\/"
    for _ in range(5000):
        values = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6))) for _ in range(rng.randint(1, 5))]
        if any(v.endswith("\\") for v in values[:-1]):
            continue
        assert split(encode(values, ","), ",") == values


def test_decoder_defaults():
    decoder = Decoder("x;12;true", ";")
    assert decoder.next_token() == "x"
    assert decoder.next_int(0) == 12
    assert decoder.next_boolean(False) is True
    assert decoder.next_int(7) == 7
    assert Decoder("zz", ";").next_int(3) == 3


def test_trait_depth_escaping_from_the_doc():
    # the TLD ChangePiece state: depths 0-3 carry 0-3 backslashes before their TAB
    state = "\ttrue\\\t\\\\\t-1;\\\\\\\tnull;33;103"
    assert split_chain(state) == ["", "true", "", "-1;", "null;33;103"]


def test_traits_pair_types_with_states():
    types = chain(
        "mark;Side", "emb2;;0;;;0;;;0;;;;1;false;0;0;a.png,b.png;Up,+ Down;true;Strength", "piece;;;u.png;Unit"
    )
    states = chain("Axis", "2", "Main Map;10;20;;0")
    traits = parse_traits(types, states)
    assert [t.id for t in traits] == ["mark;", "emb2;", "piece;"]
    assert [t.state for t in traits] == ["Axis", "2", "Main Map;10;20;;0"]


def test_nested_commands_expand_in_order_with_log_flags():
    inner = command("LOG\t+/1/stack/null;0;0", "LOG\tCHAT hello")
    text = command("begin_save", "", command("", "+/2/stack/x", "-/3"), "end_save", inner)
    tops = list(iter_top_level([text[:7], text[7:20], text[20:]]))
    assert tops[0] == "begin_save" and tops[1] == "" and tops[3] == "end_save"
    leaves = [leaf for top in tops for leaf in iter_leaves(top)]
    assert leaves == [
        ("begin_save", False),
        ("", False),
        ("", False),
        ("+/2/stack/x", False),
        ("-/3", False),
        ("end_save", False),
        ("+/1/stack/null;0;0", True),
        ("CHAT hello", True),
    ]


def test_top_level_stream_handles_escapes_across_chunks():
    text = "a\\" + ESC + "b" + ESC + "c"
    for cut in range(len(text) + 1):
        assert list(iter_top_level([text[:cut], text[cut:]])) == ["a" + ESC + "b", "c"]


def test_deep_quoting_does_not_recurse():
    leaf = "'" * 20001
    assert list(iter_leaves(leaf)) == [("'", False)]


def test_leaf_commands_parse():
    assert parse_leaf("+/7/piece;;;a.png;A/null;1;2") == AddPiece("7", "piece;;;a.png;A", "null;1;2")
    assert parse_leaf("-/7") == RemovePiece("7")
    assert parse_leaf("D/7/new/old") == ChangePiece("7", "new", "old")
    move = parse_leaf("M/7/Main Map/100/200/null/null/0/0/null/pw")
    assert move == MovePiece("7", "Main Map", 100, 200, None, None, 0, 0, None)
    boards = parse_leaf("Main MapBoardPicker\tNorth/rev\t0\t1\tSouth\t0\t0")
    assert isinstance(boards, SetBoards) and [(b.board, b.column, b.row, b.reversed) for b in boards.boards] == [
        ("North", 0, 1, True),
        ("South", 0, 0, False),
    ]
    assert parse_leaf("GlobalProperty\t;Turn;3;Module") == SetGlobalProperty("Turn", "3", "Module")
    assert parse_leaf("MutableProperty\tVP\t1\t2\tModule") == ChangeProperty("VP", "1", "2", "Module")
