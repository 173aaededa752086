"""The one-pass command reader and the direct leaf replay agree with the rule-for-rule decoder."""

from __future__ import annotations

import random

from validator.saves.vassal import read_log, replay
from validator.saves.vassal.commands import ESC, iter_command_groups, iter_leaves, iter_top_level, parse_leaf
from validator.saves.vassal.state import GameState

from vassal_save_writer import add_piece, command, restore, write_save


def _reference(chunks):
    groups = []
    for token in iter_top_level(chunks):
        leaves, logged_any = [], False
        for leaf, logged in iter_leaves(token):
            if leaf:
                leaves.append(leaf)
                logged_any = logged_any or logged
        groups.append((leaves, logged_any))
    return groups


def _random_tree(rng, depth):
    alphabet = ["a", "b", "'", "\\", "LOG\t", "\t", "/", ESC, "CHAT"]
    leaf = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 5)))
    if depth == 0 or rng.random() < 0.4:
        return leaf
    subs = [_random_tree(rng, depth - 1) for _ in range(rng.randint(0, 4))]
    if rng.random() < 0.3:
        subs = ["LOG\t" + sub for sub in subs]
    return command(leaf if rng.random() < 0.7 else "", *subs)


def test_one_pass_groups_equal_the_recursive_decoder():
    rng = random.Random(66)
    for _ in range(4000):
        text = _random_tree(rng, 4)
        cuts = sorted(rng.randint(0, len(text)) for _ in range(rng.randint(0, 3)))
        chunks = [text[start:end] for start, end in zip([0, *cuts], [*cuts, len(text)], strict=True)]
        assert list(iter_command_groups(chunks)) == _reference(chunks), repr(text)


def test_quoted_groups_take_the_exact_path():
    # A group whose own text starts with a backslash is quoted as a whole: its quotes span several raw parts.
    text = command("begin_save", command("\\odd", "LOG\tCHAT 'x'"), "end_save")
    assert text == "begin_save" + ESC + "''\\odd'\\" + ESC + "LOG\tCHAT 'x''" + ESC + "end_save"
    assert list(iter_command_groups([text])) == _reference([text]) == [
        (["begin_save"], False), (["\\odd", "CHAT 'x'"], True), (["end_save"], False)]


def test_direct_leaf_replay_equals_typed_commands():
    leaves = [
        "+/1/piece;;;a.png;A/Main Map;10;10;;0", "+/2/piece;;;b.png;B/Main Map;50;50;;0",
        "M/2/Main Map/10/10/1/Main Map/50/50/null/pw", "M/1/Main Map/90/90/null/Main Map/10/10/null/pw",
        "M/1/Main Map/20/20/null/Main Map/90/90/null/pw", "D/2/Main Map;10;10;;0/old", "D/2/x\\/y;1;2;;0",
        "M/2/Main Map/+7/'8'/null/null/0/0/null", "M/1/null/0/0/null/Main Map/20/20/null", "-/2",
        "GlobalProperty\t;Turn;3;Module", "CHAT hello", "M/", "D/", "+/",
    ]
    fast, typed = GameState("t"), GameState("t")
    for leaf in leaves:
        fast.apply_leaf(leaf)
        parsed = parse_leaf(leaf)
        if parsed is not None:
            typed.apply(parsed)
        assert fast.snapshot(format="plain") == typed.snapshot(format="plain"), leaf


def test_position_index_does_not_grow_with_the_log(tmp_path):
    piece = add_piece("1", ["piece;;;a.png;A"], ["Main Map;0;0;;0"])
    steps = [command(f"LOG\tM/1/Main Map/{n}/{n}/null/Main Map/0/0/null/pw") for n in range(1, 500)]
    path = write_save(tmp_path / "long.vlog", command(restore(piece), *steps))
    state, count = replay(path)
    assert count == 499
    assert len(state._at) == 1                  # one occupied point, not one entry per point ever visited
    assert read_log(path).final.piece("1").x == 499
