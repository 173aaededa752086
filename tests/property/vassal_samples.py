"""The valid VASSAL inputs the property tests damage: the shipped Tito samples and the hex games' sample modules.

The hex games' modules and saves are built once, into a folder of their own,
by the builders the VASSAL tests use (``tests/vassal/modules.py``), from our
hand-written example saves.
"""

from __future__ import annotations

import io
import tempfile
import zipfile
from functools import cache
from pathlib import Path

from validator.saves.vassal.obfuscation import decode_text, deobfuscate

from tests.property.reading import EXAMPLES, FIXTURES
from tests.vassal.modules import AWAW, TWW

SAMPLES = EXAMPLES / "vassal"
TITO_MODULE = SAMPLES / "tito-sample.vmod"


@cache
def _built() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="referee-property-"))
    for game, example in ((TWW, FIXTURES / "tww" / "15.4.1.1" / "fail-greek-turkish.xml"),
                          (AWAW, EXAMPLES / "awaw" / "partisans-legal.xml")):
        game.module(folder)
        game.save_from_position(example, folder / f"{game.game}-sample.vsav")
    return folder


@cache
def saves() -> tuple[tuple[str, Path, Path], ...]:
    """(game, save or log, its module) for every sample."""
    built = _built()
    return (
        ("tito", SAMPLES / "tito-opening.vsav", TITO_MODULE),
        ("tito", SAMPLES / "tito-overstacked.vsav", TITO_MODULE),
        ("tito", SAMPLES / "tito-opening-moves.vlog", TITO_MODULE),
        ("tww", built / "tww-sample.vsav", built / "tww-sample.vmod"),
        ("awaw", built / "awaw-sample.vsav", built / "awaw-sample.vmod"),
    )


def modules() -> tuple[Path, ...]:
    return tuple(dict.fromkeys(module for _game, _save, module in saves()))


def command_text(save: Path) -> bytes:
    """The plaintext command text of a save's ``savedGame`` entry."""
    with zipfile.ZipFile(save) as archive:
        raw = archive.read("savedGame")
    return "".join(decode_text(deobfuscate([raw], source=save.name))).encode("utf-8")


def build_file(module: Path) -> bytes:
    with zipfile.ZipFile(module) as archive:
        return archive.read("buildFile.xml")


def zipped(entries: dict[str, bytes]) -> bytes:
    """A zip holding ``entries``, as VASSAL writes saves and modules (deflated)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()
