"""Benchmark: decode a generated ~50 MB VASSAL command log (not part of the test run).

Writes a .vlog in a temporary folder whose ``savedGame`` holds about 50 MB of
command text (VCSK-obfuscated as VASSAL up to 3.7 writes it: 100 MB of hex,
deflated in the zip), replays it with the streaming reader, and prints

* throughput: MB of command text decoded per second (target >= 50), and
* peak traced memory (tracemalloc) as a ratio to the command-text size
  (target <= 2).

Speed and memory come from two decodes of the same file in one run: the
timed one untraced (tracemalloc slows every allocation several times over,
which is what made early versions of this bench report ~3 MB/s), the second
under tracemalloc.  The time is also given as a ratio to the floor, the time
it takes only to inflate and de-hex the entry.

Run: PYTHONPATH=. python bench/vassal_decode.py [megabytes]
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
import tracemalloc
import zipfile
from pathlib import Path

from validator.limits import MIB
from validator.saves.vassal import Limits, replay
from validator.saves.vassal.archive import Archive
from validator.saves.vassal.obfuscation import decode_text, deobfuscate
from validator.saves.vassal.sequence import encode

ESC = "\x1b"


def _chain(*elements: str) -> str:
    result = elements[-1]
    for element in reversed(elements[:-1]):
        result = encode([element, result], "\t")
    return result


def _piece_type(n: int) -> str:
    traits = [
        "mark;Side,Nation,Strength",
        "report;39\\,130;$location$: $newPieceName$;;;;false",
        f"emb2;Activate;128;A;;128;;;128;;;;1;false;0;0;u{n}.png,u{n}f.png;,+ "
        "(flipped);true;Step;;;false;;1;1;true;65,130;;;",
        "sendto;;40,130;{CurrentMap};;{CurrentX};{CurrentY};;;0;0;0;0;Down;L;;;;",
        "obs;77,130;back.png;Mask;G;?;sides:Axis;Peek;;false;;",
        f"piece;;;unit{n}.png;Unit {n}",
    ]
    return _chain(*traits)


def _command_text(target_bytes: int, seed: int = 50) -> str:
    rng = random.Random(seed)
    parts: list[str] = []
    pieces = []
    for n in range(400):
        piece_id = str(1_700_000_000_000 + n)
        state = _chain(
            "Axis,German,4", "0", "1", ";;", "null;", f"Main Map;{rng.randrange(4000)};{rng.randrange(3000)};;0"
        )
        pieces.append(encode(["+", piece_id, _piece_type(n), state], "/"))
    restore = encode(["begin_save", "", encode(["", *pieces], ESC), "Main MapBoardPicker\tMap\t0\t0", "end_save"], ESC)
    parts.append(restore)
    size = len(restore)
    while size < target_bytes:
        piece_id = str(1_700_000_000_000 + rng.randrange(400))
        x, y = rng.randrange(4000), rng.randrange(3000)
        move = f"LOG\tM/{piece_id}/Main Map/{x}/{y}/null/Main Map/0/0/null/pw"
        new = _chain("Axis,German,3", "-1", "1", ";;", "null;", f"Main Map;{x};{y};;0")
        old = _chain("Axis,German,4", "1", "1", ";;", "null;", f"Main Map;{x};{y};;0")
        change = "LOG\t" + encode(["D", piece_id, new, old], "/")  # VASSAL logs new and old state
        step = encode([move, change, f"LOG\tCHAT* Unit moves to {x},{y}"], ESC)
        parts.append(step)
        size += len(step) + 1
    return encode(parts, ESC)


def _decode(path: Path, limits: Limits):
    state, steps = replay(path, limits=limits)
    return state.snapshot(format="VCSK"), steps


def _read_entry_only(path: Path, limits: Limits) -> int:
    """The floor: stream, inflate and de-hex the entry to text, with no command decoding at all."""
    with Archive(path, limits=limits) as archive:
        chunks = deobfuscate(archive.iter_chunks("savedGame"), source=str(path), limits=limits)
        return sum(len(text) for text in decode_text(chunks))


def main() -> None:
    megabytes = float(sys.argv[1]) if len(sys.argv) > 1 else 50.0
    text = _command_text(int(megabytes * 1_000_000))
    data = text.encode("utf-8")
    text_bytes = len(data)
    del text
    # VCSK doubles the size: 50 MB of text is ~100 MB of hex, above the 64 MiB default entry cap.
    limits = Limits(entry_bytes=256 * MIB)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.vlog"
        key = 0x5A
        hex_body = data.translate(bytes(v ^ key for v in range(256))).hex().encode("ascii")
        del data
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
            archive.writestr("savedGame", b"!VCSK" + f"{key:02x}".encode() + hex_body)
        del hex_body
        file_size = path.stat().st_size

        # 1. Speed, untraced: tracemalloc hooks every allocation and would slow the decoder several times over.
        started = time.perf_counter()
        game, steps = _decode(path, limits)
        elapsed = time.perf_counter() - started
        started = time.perf_counter()
        _read_entry_only(path, limits)
        floor = time.perf_counter() - started

        # 2. Memory, traced: a second, identical decode of the same file.
        tracemalloc.start()
        started = time.perf_counter()
        traced_game, _ = _decode(path, limits)
        traced_elapsed = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert traced_game == game
    mb = text_bytes / 1_000_000
    print(
        f"command text: {mb:.1f} MB ({file_size / 1_000_000:.1f} MB .vlog on disk), {steps} log steps, "
        f"{len(game.pieces)} pieces at the end"
    )
    print(f"decode + replay: {elapsed:.2f} s -> {mb / elapsed:.1f} MB/s of command text (target >= 50)")
    print(f"  = {elapsed / floor:.2f} x the {floor:.2f} s that inflating and de-hexing the entry alone takes")
    print(
        f"peak traced memory: {peak / 1_000_000:.1f} MB = {peak / text_bytes:.3f} x the command text (target <= 2)"
        f" (traced pass: {traced_elapsed:.2f} s)"
    )


if __name__ == "__main__":
    main()
