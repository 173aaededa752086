"""Rulebook texts, damaged: imported or refused with an input error.

The texts are our own (Fen Patrol's and Harbour Watch's, never a real
rulebook's): bytes are damaged, and lines are dropped, repeated and swapped,
since the parser reads a rulebook line by line.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from validator.rulebook.importer import decode, import_texts
from validator.rulebook.model import Rulebook

from tests.property.mutations import byte_mutations
from tests.property.reading import ROOT, read_or_refuse

TEXTS = (ROOT / "tests" / "example_game" / "fen-patrol.txt",
         ROOT / "tests" / "rulebook" / "texts" / "harbour-watch.txt")
LINE_VALUES = (b"", b" " * 40, b"1.", b"1.1", b"[1.1]", b"1.1 TITLE:", b"\xe2\x80\xa2 A.", b"A. ", b"Table 1 - x",
               b"99.99.99.99.99 X", b"see 1.1 and rule 2", b"Contents", b"12", b"\t", b"\xef\xbb\xbf")


@st.composite
def line_mutations(draw, data: bytes) -> bytes:
    lines = data.split(b"\n")
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(("drop", "repeat", "swap", "replace", "join")))
        if kind == "drop" and len(lines) > 1:
            del lines[at]
        elif kind == "repeat":
            lines[at:at] = [lines[at]] * draw(st.integers(1, 3))
        elif kind == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif kind == "replace":
            lines[at] = draw(st.sampled_from(LINE_VALUES))
        elif at + 1 < len(lines):
            lines[at:at + 2] = [lines[at] + b" " + lines[at + 1]]
    return b"\n".join(lines)


def _import(data: bytes):
    def read() -> Rulebook:
        return import_texts("fen", [decode("damaged.txt", data)])

    return read_or_refuse(read, expected=Rulebook)


def test_the_texts_import():
    for text in TEXTS:
        assert import_texts("fen", [decode(text.name, text.read_bytes())]).cases


@given(st.sampled_from(TEXTS).flatmap(lambda text: st.one_of(
    byte_mutations(text.read_bytes()), line_mutations(text.read_bytes()),
    line_mutations(text.read_bytes()).flatmap(byte_mutations))))
def test_a_damaged_rulebook_text_is_imported_or_refused(data):
    _import(data)
