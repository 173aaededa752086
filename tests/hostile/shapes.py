"""Hostile inputs, built at a chosen size by the tests (never committed as files).

Each function writes one file of a hostile shape at size ``n`` and returns its
path, so a test can build the same shape at n and 8n and compare what reading
them costs.  The VASSAL saves are written as VASSAL writes them: a zip with a
``savedGame`` entry, XZ-compressed and XOR-obfuscated (``!VOXZ``) unless the
shape needs another layer, which is how a few hundred bytes become megabytes.
"""

from __future__ import annotations

import lzma
import zipfile
from pathlib import Path

from validator.saves.vassal.sequence import encode

ESC = "\x1b"
KEY = 0x5A
_XOR = bytes(value ^ KEY for value in range(256))


def voxz(text: str) -> bytes:
    """A ``savedGame`` entry as VASSAL 3.7 writes it: XZ, then XOR with a key byte."""
    packed = lzma.compress(text.encode("utf-8"), format=lzma.FORMAT_XZ, preset=1)
    return b"!VOXZ" + bytes([KEY]) + packed.translate(_XOR)


def write_vsav(path: Path, saved_game: bytes, extra: dict[str, bytes] | None = None) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("savedGame", saved_game)
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return path


def restore(*pieces: str, after: tuple[str, ...] = ()) -> str:
    """The command tree of a save: begin_save, the version check, the pieces group, more, end_save."""
    return encode(["begin_save", "", encode(["", *pieces], ESC), *after, "end_save"], ESC)


def piece_command(piece_id: str, map_name: str = "Main", x: int = 100, y: int = 100) -> str:
    """An AddPiece of a plain piece (one BasicPiece, no traits) at a map point."""
    return encode(["+", piece_id, f"piece;;;unit.png;Unit {piece_id}", f"{map_name};{x};{y};;0"], "/")


def move_command(piece_id: str, map_name: str, x: int, y: int) -> str:
    return "/".join(["M", piece_id, map_name, str(x), str(y), "null", "null", "0", "0", "null", "player"])


# -- the command reader -------------------------------------------------------------------------------


def backslash_run(path: Path, n: int) -> Path:
    """A run of n backslashes before an ESC: a token nested n levels deep, in a few hundred bytes."""
    return write_vsav(path, voxz(restore() + ESC + "\\" * n + ESC + "'x'"))


def quoted_nesting(path: Path, n: int) -> Path:
    """A command nested n levels deep, a quoted token at every level (VASSAL's own encoding)."""
    return write_vsav(path, voxz(restore() + ESC + quoted_nesting_text(n)))


def quoted_nesting_text(n: int) -> str:
    """What encoding ``["'q'", nested]`` n times gives, written out in one pass.

    Each level quotes the one inside it and adds a backslash before each of its
    delimiters, so encoding level by level copies about n**3 / 6 characters (a
    minute at 4,000 levels); tests/hostile/test_vassal_commands.py checks the two agree.
    """
    return "".join("''q''" + "\\" * depth + ESC + "'" for depth in range(n)) + "'leaf'" + "'" * n


def empty_tokens(path: Path, n: int) -> Path:
    """n ESC characters after a valid restore section: n empty top-level tokens."""
    return write_vsav(path, voxz(restore() + ESC * n))


def log_prefixes(path: Path, n: int) -> Path:
    """One leaf wrapped in n ``LOG`` prefixes."""
    return write_vsav(path, voxz(restore() + ESC + "LOG\t" * n + "CHATx"))


def many_pieces(path: Path, n: int) -> Path:
    """n AddPieces, each a different piece: one AddPiece with its number left blank, filled in n times.

    A million calls of ``piece_command`` take seconds; a million ``format`` calls a fraction of that.
    """
    blank = piece_command("p{index}", x="{index}")  # x is written into the text as it is given
    return write_vsav(path, voxz(restore(*(blank.format(index=index) for index in range(n)))))


def many_fields(path: Path, n: int) -> Path:
    """An AddPiece followed by n empty ``/`` fields, which VASSAL never reads."""
    return write_vsav(path, voxz(restore(piece_command("p0") + "/" * n)))


def wide_stack(path: Path, n: int) -> Path:
    """n pieces and one stack that lists every one of them."""
    ids = [f"p{index}" for index in range(n)]
    stack = encode(["+", "s0", "stack", ";".join(["Main", "100", "100", *ids])], "/")
    return write_vsav(path, voxz(restore(*(piece_command(piece_id) for piece_id in ids), stack)))


def moves_to_one_point(path: Path, n: int) -> Path:
    """n pieces, then n moves of them onto the same point, which stacks them all."""
    pieces = [piece_command(f"p{index}", x=10 * index, y=10) for index in range(n)]
    moves = [move_command(f"p{index}", "Main", 500, 500) for index in range(n)]
    return write_vsav(path, voxz(restore(*pieces) + ESC + ESC.join(moves)))


def restacked(path: Path, n: int) -> Path:
    """A stack of n pieces whose state is set again (ChangePiece) ten times, listing every piece."""
    ids = [f"p{index}" for index in range(n)]
    state = ";".join(["Main", "100", "100", *ids])
    stack = encode(["+", "s0", "stack", state], "/")
    changes = [encode(["D", "s0", state], "/") for _ in range(10)]
    return write_vsav(path, voxz(restore(*(piece_command(piece_id) for piece_id in ids), stack) + ESC
                                 + ESC.join(changes)))


def deep_traits(path: Path, n: int) -> Path:
    """One piece whose type is a chain of n traits (VASSAL nests each one a level deeper)."""
    types = [f"mark;Layer{index}" for index in range(n)] + ["piece;;;unit.png;Deep"]
    states = [f"v{index}" for index in range(n)] + ["Main;100;100;;0"]
    type_chain, state_chain = types[-1], states[-1]
    for own_type, own_state in zip(reversed(types[:-1]), reversed(states[:-1]), strict=True):
        type_chain = encode([own_type, type_chain], "\t")
        state_chain = encode([own_state, state_chain], "\t")
    return write_vsav(path, voxz(restore(encode(["+", "deep", type_chain, state_chain], "/"))))


def not_a_game(path: Path, saved_game: bytes) -> Path:
    """A zip that looks like a save but whose ``savedGame`` holds ``saved_game`` as it is."""
    return write_vsav(path, saved_game)


# -- grid numbering from an uploaded module -------------------------------------------------------------

_BOARD = "VASSAL.build.module.map.boardPicker."


def build_file(path: Path, grid: str = "HexGrid", grid_attributes: str = "", numbering: str = "") -> Path:
    """A bare buildFile: one map, one board of 1000 x 1000 pixels, one grid with its numbering."""
    numbering_class = "SquareGridNumbering" if grid == "SquareGrid" else "HexGridNumbering"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<VASSAL.build.GameModule name="Hostile" version="1">\n'
        ' <VASSAL.build.module.Map mapName="Main">\n'
        f'  <{_BOARD}BoardPicker>\n'
        f'   <{_BOARD}Board name="Board" width="1000" height="1000">\n'
        f'    <{_BOARD}board.{grid} {grid_attributes}>\n'
        f'     <{_BOARD}board.mapgrid.{numbering_class} {numbering}/>\n'
        f'    </{_BOARD}board.{grid}>\n'
        f'   </{_BOARD}Board>\n'
        f'  </{_BOARD}BoardPicker>\n'
        ' </VASSAL.build.module.Map>\n'
        '</VASSAL.build.GameModule>\n',
        encoding="utf-8",
    )
    return path


# -- our own formats --------------------------------------------------------------------------------------


TITO_MAP = Path(__file__).resolve().parents[2] / "plugin" / "tito" / "maps" / "tito-map.xml"


def repeated_facts(path: Path, n: int) -> Path:
    """A Tito save on the sample map with n values of one repeatable fact."""
    facts = "".join('  <fact name="intrinsic-defence-eliminated" value="belgrade"/>\n' for _ in range(n))
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<position xmlns="urn:referee:save:1" version="1" game="tito" scenario="campaign" turn="1" phase="setup">\n'
        f'{facts}  <map href="{TITO_MAP.as_uri()[len("file://"):]}"/>\n  <pieces/>\n</position>\n',
        encoding="utf-8",
    )
    return path


def rulebook_spaces(path: Path, n: int) -> Path:
    """A rulebook whose heading line holds a title, n spaces and more words, with no colon anywhere."""
    path.write_text("6.2 STACKING\n\n6.21 A" + " " * n + "b\n", encoding="utf-8")
    return path


def rulebook_excluded_numbers(path: Path, n: int) -> Path:
    """A case line that cites the next case n times after a word that keeps it from being cut there."""
    path.write_text("6.2 STACKING\n\n6.21 Limits" + " see 6.22 Again" * n + "\n", encoding="utf-8")
    return path


def rulebook_successive_numbers(path: Path, n: int) -> Path:
    """One line holding n case numbers in reading order (6.1, 6.11, 6.111, ..., 6.12, ...), each one a cut."""
    numbers: list[str] = []
    pending = [str(digit) for digit in range(9, 0, -1)]
    while pending and len(numbers) < n:            # the cases of section 6 in reading order, five digits deep
        digits = pending.pop()
        numbers.append("6." + digits)
        if len(digits) < 5:
            pending.extend(digits + str(digit) for digit in range(9, 0, -1))
    path.write_text("5.1 INTRODUCTION\n\n" + " ".join(f"{number} Title" for number in numbers) + "\n",
                    encoding="utf-8")
    return path


def rulebook_contents(path: Path, n: int) -> Path:
    """A table of contents of n cases, each defined again later."""
    numbers = [f"{1 + index // 900}.{10 + index % 900}" for index in range(n)]
    contents = "".join(f"{number} Title\n" for number in numbers)
    cases = "".join(f"{number} Title\nText of the case.\n" for number in numbers)
    path.write_text("Contents\n" + contents + "\n" + cases, encoding="utf-8")
    return path


def empty_stacks_at_one_point(path: Path, n: int) -> Path:
    """n empty stacks at one point, then n pieces moved onto it: each move must not walk past the empty stacks."""
    stacks = [encode(["+", f"s{index}", "stack", "Main;500;500"], "/") for index in range(n)]
    pieces = [piece_command(f"p{index}", x=10 * index, y=10) for index in range(n)]
    moves = [move_command(f"p{index}", "Main", 500, 500) for index in range(n)]
    return write_vsav(path, voxz(restore(*stacks, *pieces) + ESC + ESC.join(moves)))


def long_marker_list(path: Path, n: int) -> Path:
    """One piece whose marker trait lists n empty property names."""
    type_chain = encode(["mark;" + "," * (n - 1), "piece;;;unit.png;Listed"], "\t")
    state_chain = encode(["", "Main;100;100;;0"], "\t")
    return write_vsav(path, voxz(restore(encode(["+", "listed", type_chain, state_chain], "/"))))


def long_board_list(path: Path, n: int) -> Path:
    """A board picker that lays out n boards."""
    return write_vsav(path, voxz(restore(after=("MainBoardPicker" + "\tBoard\t0\t0" * n,))))


def many_players(path: Path, n: int) -> Path:
    """n PLAYER commands, each for a different player."""
    return write_vsav(path, voxz(restore(after=tuple(f"PLAYER\tid{index}\tName\tAxis" for index in range(n)))))
