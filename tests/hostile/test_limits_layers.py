"""At the web limits, pieces whose Layers name thousands of levels cost less than 300 MB, measured in a fresh process.

A Layer (Embellishment) trait names its levels in one field, and a state
shows one of them.  The shape here gives each piece a Layer of its own with
some 2,700 two-character level names, so that the pieces fill the web's text
cap: split into strings, those names would be millions of small objects
(about 400 MB).  Each own type stays below the length a replay keeps its
parsed traits for, so the keeping is measured too.  Both layouts are built:
``emb2;`` (the names in one comma-separated field) and the old ``emb;`` (one
``image,name`` entry per level).
"""

from __future__ import annotations

import dataclasses

import pytest

from validator.limits import WEB_LIMITS
from validator.saves.vassal.sequence import encode

from tests.hostile import shapes
from tests.hostile.conftest import WEB_PEAK_MB
from tests.hostile.cost import measure

WEB = dataclasses.asdict(WEB_LIMITS)
LEVELS_PER_LAYER = 2700
"""Level names per ``emb2;`` Layer: each own type is then about 8,100 characters, within what a replay keeps."""
LEVELS_PER_OLD_LAYER = 2000
"""As many for the old layout, whose levels are ``,name`` entries (no image): about 8,000 characters too."""


def _names(number: int, count: int) -> list[str]:
    digits = f"{number:04d}"
    return [digits[index % 4] + "b" for index in range(count)]


def _new_layout(number: int) -> str:
    return f"emb2;Act{number};;;;;;;;;;;;;;;;{','.join(_names(number, LEVELS_PER_LAYER))};"


def _old_layout(number: int) -> str:
    return "emb;Act;" + ";" * 7 + ";".join(f",{name}" for name in _names(number, LEVELS_PER_OLD_LAYER))


def _layered_piece(number: int, own_type) -> str:
    type_string = encode([own_type(number), "piece;;;u.png;U"], "\t")
    state_string = encode(["1", "Main;1;1;;0"], "\t")      # level 1, active
    return encode(["+", f"p{number}", type_string, state_string], "/")


@pytest.mark.parametrize("own_type", [_new_layout, _old_layout], ids=["emb2", "emb"])
def test_pieces_with_thousands_of_layer_levels_in_the_most_text_stay_below_the_bound(tmp_path, own_type):
    piece = _layered_piece(0, own_type)
    one_piece = len(shapes.restore(piece, piece)) - len(shapes.restore(piece))    # as escaped in the save
    count = min(WEB_LIMITS.pieces - 10, (WEB_LIMITS.text_bytes - 1000) // (one_piece + 8))
    text = shapes.restore(*(_layered_piece(number, own_type) for number in range(count)))
    assert 0.9 * WEB_LIMITS.text_bytes < len(text.encode("utf-8")) <= WEB_LIMITS.text_bytes
    assert LEVELS_PER_LAYER < WEB_LIMITS.list_items                      # the list is admitted, not refused
    save = shapes.write_vsav(tmp_path / "layers.vsav", shapes.voxz(text))
    cost = measure("vassal_save", save, limits=WEB)
    assert cost.summary == f"{count} pieces, 0 stacks", cost
    assert cost.peak_mb < WEB_PEAK_MB, cost
