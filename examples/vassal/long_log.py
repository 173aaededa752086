"""A long .vlog of the same few pieces: many steps, one small position (for the memory tests and the bench).

Every step changes one piece's state (logged with its true old state, as
VASSAL logs a ChangePiece), moves it and writes a chat line.  The Marker of
each piece holds 1,500 characters, so a step is a few kilobytes, as real
steps with long trait states are.
"""

from __future__ import annotations

import random
import zipfile
from pathlib import Path

from validator.saves.vassal.sequence import encode

from sample_modules import piece
from vassal_save_writer import ESC, archive_entry, chain, obfuscate, restore

PIECES = 24
PAD = "x" * 1500


def _state(strength: int, x: int) -> str:
    return chain(f"{strength},{PAD}", f"Main;{x};100;;0")


def long_log_text(steps: int, seed: int = 13) -> str:
    """The command text of a log of ``steps`` steps on ``PIECES`` pieces."""
    rng = random.Random(seed)
    pieces = [piece(str(n), f"Unit {n}", "Main", n * 10, 100, {"Strength": "5", "Note": PAD}) for n in range(PIECES)]
    current = {str(n): (5, n * 10) for n in range(PIECES)}
    parts = [restore(*pieces, components=("MainBoardPicker\tBoard\t0\t0",))]
    for _ in range(steps):
        piece_id = str(rng.randrange(PIECES))
        strength, x = current[piece_id]
        new = (rng.randrange(1, 9), rng.randrange(2000))
        change = "LOG\t" + encode(["D", piece_id, _state(*new), _state(strength, x)], "/")
        move = f"LOG\tM/{piece_id}/Main/{new[1]}/100/null/Main/{x}/100/null/player"
        parts.append(encode([change, move, f"LOG\tCHAT* Unit {piece_id} moves"], ESC))
        current[piece_id] = new
    return encode(parts, ESC)


def write_text_save(path: Path, text: str) -> int:
    """A save or log whose ``savedGame`` is ``text`` (VCSK, deflated fast); the text's size in bytes."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(archive_entry("savedGame"), obfuscate(text, "VCSK"), compresslevel=1)
    return len(text.encode("utf-8"))


def write_long_log(path: Path, steps: int, seed: int = 13) -> int:
    """A .vlog of ``steps`` logged changes and moves; the size of its command text in bytes."""
    return write_text_save(path, long_log_text(steps, seed))
