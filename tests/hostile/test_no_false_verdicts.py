"""A save that holds no game is an invalid input, never an empty position that breaks no rule."""

from __future__ import annotations

import random

import pytest

from validator.saves.vassal import VassalFormatError, read_log, read_saved_game

from tests.hostile import shapes

_XOR = bytes(value ^ 0x21 for value in range(256))


def _random_bytes(size: int, seed: int) -> bytes:
    return random.Random(seed).randbytes(size)


NOT_GAMES = {
    "hello": b"hello",
    "random bytes": _random_bytes(4096, 12),
    "hello, obfuscated": b"!VCSK21" + b"hello".translate(_XOR).hex().encode("ascii"),
    "random bytes, XOR": b"!VOBS\x21" + _random_bytes(4096, 13),
    "unknown commands, XZ": shapes.voxz("\x1b".join(["hello", "CHECK\tx", "PLAYER\ta\tb\tc"]) * 100),
}


@pytest.mark.parametrize("name", sorted(NOT_GAMES))
def test_a_save_without_a_vassal_command_is_refused(tmp_path, name):
    path = shapes.not_a_game(tmp_path / "not-a-game.vsav", NOT_GAMES[name])
    for read in (read_saved_game, read_log):
        with pytest.raises(VassalFormatError) as caught:
            read(path)
        message = str(caught.value)
        assert message.startswith(f"{path}, entry 'savedGame': ")
        assert "so it is not a saved game; save the game again in VASSAL and send that file." in message


def test_the_sentence_counts_what_it_looked_at(tmp_path):
    path = shapes.not_a_game(tmp_path / "hello.vsav", b"hello\x1bworld")
    with pytest.raises(VassalFormatError, match=r"none of its 2 commands is one VASSAL writes"):
        read_saved_game(path)


def test_the_command_line_answers_2_with_the_sentence(tmp_path, run_cli):
    path = shapes.not_a_game(tmp_path / "hello.vsav", b"hello")
    code, out, err = run_cli("vassal", "dump", path)
    assert code == 2
    assert "its one command is not one VASSAL writes (no begin_save, no piece), so it is not a saved game" in err
    assert "Traceback" not in err


def test_an_empty_game_that_vassal_wrote_is_still_a_game(tmp_path):
    # begin_save ... end_save with no piece: what VASSAL writes for an empty board.
    path = shapes.write_vsav(tmp_path / "empty.vsav", shapes.voxz(shapes.restore()))
    game = read_saved_game(path)
    assert game.pieces == () and game.format == "VOXZ"


def test_a_begin_save_alone_is_not_a_game(tmp_path, run_cli):
    # issue 12.3: begin_save with no piece, no version check and no end_save is not what VASSAL writes.
    plain = shapes.not_a_game(tmp_path / "plain-begin.vsav", b"begin_save")
    hidden = shapes.not_a_game(tmp_path / "hidden-begin.vsav",
                               b"!VCSK58" + bytes(byte ^ 0x58 for byte in b"begin_save").hex().encode())
    for path in (plain, hidden):
        with pytest.raises(VassalFormatError, match="it holds a begin_save but no piece and no end_save"):
            read_saved_game(path)
        code, out, err = run_cli("vassal", "dump", path)
        assert code == 2 and "so it is not a saved game" in err and "Traceback" not in err
