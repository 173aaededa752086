"""At the web limits, the worst inputs the site admits cost less than 300 MB, measured in a fresh process.

Each shape fills one web limit to just below its figure with what costs the
most memory per byte: pieces each of its own type and many traits (so every
trait chain is parsed), or a buildFile of empty elements (a parsed tree
costs about 30 bytes per byte of such XML).  A full web check (the Flask app
reading, translating, checking and storing the upload) is measured the same
way.  Past a figure the input is refused before the work: the XZ layer's
dictionary is refused by its header alone.
"""

from __future__ import annotations

import dataclasses
import json
import lzma
import subprocess
import sys
import zipfile
import zlib

from validator.limits import CLI_LIMITS, WEB_LIMITS

from sample_modules import (
    TITO_BOARD,
    TITO_MAIN_MAP,
    TITO_TURN_MAP,
    board_picker,
    tito_module,
    tito_region_points,
    write_game,
)
from tests.hostile import shapes
from tests.hostile.conftest import WEB_PEAK_MB
from tests.hostile.cost import HANG_GUARD_SECONDS, ROOT, measure
from tests.hostile.limit_saves import GERMAN, STATE
from vassal_save_writer import add_piece

WEB = dataclasses.asdict(WEB_LIMITS)
TRAITS_PER_PIECE = 31
"""Traits that make a piece about 1.65 KB of command text, so that the web's pieces nearly fill its text cap."""
TRAITS_BESIDE_A_MARKER = 29
"""As many, for a piece that also carries a Tito unit's marker."""


def _unit(number: int, x: int, y: int, map_name: str = TITO_MAIN_MAP, marks: dict | None = None,
          count: int = TRAITS_PER_PIECE) -> str:
    """An AddPiece of a piece type of its own: ``count`` traits named for the piece, a marker, the BasicPiece."""
    traits = [f"mark;Layer{number}x{index}" for index in range(count)]
    states = [f"v{index}" for index in range(count)]
    keys = marks or {}
    if keys:
        traits.append("mark;" + ",".join(keys))
        states.append(",".join(keys.values()))
    return add_piece(f"u{number}", [*traits, f"piece;;;unit{number}.png;{number}th Division"],
                     [*states, f"{map_name};{x};{y};;0"])


def _filling_pieces(count: int, **unit_options) -> str:
    text = shapes.restore(*(_unit(number, **unit_options) for number in range(count)))
    assert len(text.encode("utf-8")) <= WEB_LIMITS.text_bytes
    return text


def test_reading_the_most_pieces_the_web_admits_in_the_most_text_stays_below_the_bound(tmp_path):
    count = WEB_LIMITS.pieces - 10
    text = _filling_pieces(count, x=100, y=100, map_name="Main")
    assert len(text) > 0.95 * WEB_LIMITS.text_bytes  # the text cap is nearly full too
    save = shapes.write_vsav(tmp_path / "full.vsav", shapes.voxz(text))
    cost = measure("vassal_save", save, limits=WEB)
    assert cost.summary == f"{count} pieces, 0 stacks", cost
    assert cost.peak_mb < WEB_PEAK_MB, cost


def test_one_piece_more_is_refused_at_the_pieces_limit(tmp_path):
    save = shapes.many_pieces(tmp_path / "more.vsav", WEB_LIMITS.pieces + 1)
    cost = measure("vassal_save", save, limits=WEB)
    assert cost.refused and f"more than the pieces limit of {WEB_LIMITS.pieces:,}" in cost.refused, cost
    assert cost.peak_mb < WEB_PEAK_MB, cost


def test_a_build_file_at_the_web_xml_cap_stays_below_the_bound(tmp_path):
    bare = shapes.build_file(tmp_path / "buildFile.xml").read_text(encoding="utf-8")
    room = WEB_LIMITS.xml_bytes - len(bare) - 1
    text = bare.replace(" </VASSAL.build.module.Map>\n", " </VASSAL.build.module.Map>\n" + "<x/>" * (room // 4))
    module = tmp_path / "elements.vmod"
    with zipfile.ZipFile(module, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("buildFile.xml", text)
    cost = measure("module_location", module, limits=WEB, argument=[100, 100])
    assert cost.summary == "0302", cost  # read whole, and the grid still names its hexes
    assert cost.peak_mb < WEB_PEAK_MB, cost


def _with_dictionary_of(xz: bytes, code: int) -> bytes:
    """The XZ stream with its LZMA2 dictionary size code changed (40: 1.5 GiB) and the block header's CRC redone."""
    data = bytearray(xz)
    start = 12  # after the stream header
    size = (data[start] + 1) * 4
    assert data[start + 1] == 0 and data[start + 2] == 0x21 and data[start + 3] == 1  # one LZMA2 filter, no sizes
    data[start + 4] = code
    data[start + size - 4:start + size] = zlib.crc32(bytes(data[start:start + size - 4])).to_bytes(4, "little")
    return bytes(data)


def test_an_xz_layer_asking_for_a_huge_dictionary_is_refused_by_its_header(tmp_path):
    packed = lzma.compress(shapes.restore().encode("utf-8"), format=lzma.FORMAT_XZ, preset=1)
    greedy = _with_dictionary_of(packed, 40)
    saved_game = b"!VOXZ" + bytes([shapes.KEY]) + greedy.translate(bytes(v ^ shapes.KEY for v in range(256)))
    save = shapes.write_vsav(tmp_path / "greedy.vsav", saved_game)
    for limits in (WEB, dataclasses.asdict(CLI_LIMITS)):
        cost = measure("vassal_save", save, limits=limits)
        assert cost.refused, cost
        assert cost.refused.endswith("entry 'savedGame': its XZ stream needs more memory to decompress, more than "
                                     f"the xz_memory_bytes limit of {limits['xz_memory_bytes']:,} bytes."), cost
        assert cost.peak_mb < WEB_PEAK_MB, cost


_WEB_CHECK = r'''
import io, json, sys
from validator.web import create_app
instance, save, module = sys.argv[1:4]
app = create_app({"TESTING": True, "INSTANCE": instance, "SECRET_KEY": "test-only"})
data = {"game": "tito", "save": (io.BytesIO(open(save, "rb").read()), "full.vsav"),
        "module": (io.BytesIO(open(module, "rb").read()), "tito-sample.vmod")}
response = app.test_client().post("/api/check", data=data, content_type="multipart/form-data")
answer = response.get_json()
status = dict(line.split(":", 1) for line in open("/proc/self/status", encoding="ascii"))
print(json.dumps({"status": response.status_code, "legal": answer.get("legal"), "error": answer.get("error"),
                  "peak_mb": int(status["VmHWM"].split()[0]) / 1024}))
'''


def test_a_full_web_check_of_the_most_pieces_the_web_admits_stays_below_the_bound(tmp_path):

    x, y = tito_region_points()["Serbia: Belgrade Axis"]
    count = WEB_LIMITS.pieces - 10
    units = [_unit(number, x, y, marks={**GERMAN, "Designation": str(number)}, count=TRAITS_BESIDE_A_MARKER)
             for number in range(count)]
    assert sum(len(unit) for unit in units) <= WEB_LIMITS.text_bytes
    module = tito_module(tmp_path)
    save = write_game(tmp_path / "full.vsav", units, STATE,
                      [board_picker(TITO_MAIN_MAP, TITO_BOARD), board_picker(TITO_TURN_MAP, "Track")], fmt="VOXZ")
    completed = subprocess.run(
        [sys.executable, "-c", _WEB_CHECK, str(tmp_path / "instance"), str(save), str(module)],
        capture_output=True, text=True, timeout=2 * HANG_GUARD_SECONDS, cwd=ROOT,
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    outcome = json.loads(completed.stdout.strip().splitlines()[-1])
    assert outcome["status"] == 200 and outcome["legal"] is False, outcome  # 9,990 divisions overstack one box
    assert outcome["peak_mb"] < WEB_PEAK_MB, outcome


def test_an_xz_bomb_stops_at_the_web_text_cap(tmp_path):
    compressor = lzma.LZMACompressor(format=lzma.FORMAT_XZ, preset=6)  # 8 MiB dictionary: within xz_memory_bytes
    block = b"x" * (1 << 20)
    packed = b"".join(compressor.compress(block) for _ in range(256)) + compressor.flush()  # 256 MiB of text
    assert len(packed) < 100_000
    saved_game = b"!VOXZ" + bytes([shapes.KEY]) + packed.translate(bytes(v ^ shapes.KEY for v in range(256)))
    save = shapes.write_vsav(tmp_path / "bomb.vsav", saved_game)
    cost = measure("vassal_save", save, limits=WEB)
    assert cost.refused and cost.refused.endswith(
        f"bytes of command text or more, more than the text_bytes limit of {WEB_LIMITS.text_bytes:,}."), cost
    assert cost.peak_mb < WEB_PEAK_MB, cost
