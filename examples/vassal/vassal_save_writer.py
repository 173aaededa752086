"""Writes ``savedGame`` entries and whole saves the way VASSAL does (for the samples and the tests).

Each generation follows vassal-formats.md section 2: ``!VCSK`` hex (lower case
like the current writer, upper case like 2007's), ``!VOBS`` raw XOR,
``!VOXZ`` XZ (preset 3) then XOR, and plain text.  Commands are nested with
the same SequenceEncoder rules VASSAL's ``GameModule.encode`` uses.
"""

from __future__ import annotations

import lzma
import zipfile
from pathlib import Path

from validator.saves.vassal.sequence import encode

ESC = "\x1b"


def obfuscate(text: str | bytes, fmt: str, key: int = 0x58, *, upper: bool = False) -> bytes:
    data = text.encode("utf-8") if isinstance(text, str) else text
    table = bytes(value ^ key for value in range(256))
    if fmt == "VCSK":
        digits = f"{key:02x}" + data.translate(table).hex()
        return b"!VCSK" + (digits.upper() if upper else digits).encode("ascii")
    if fmt == "VOBS":
        return b"!VOBS" + bytes([key]) + data.translate(table)
    if fmt == "VOXZ":
        return b"!VOXZ" + bytes([key]) + lzma.compress(data, format=lzma.FORMAT_XZ, preset=3).translate(table)
    if fmt == "plain":
        return data
    raise ValueError(fmt)


def command(own: str, *subcommands: str) -> str:
    """``GameModule.encode``: the command's own text, then each sub-command, ESC-escaped one level."""
    return encode([own, *subcommands], ESC) if subcommands else own


def chain(*elements: str) -> str:
    """A decorator chain (outermost first) nested with TAB as ``Decorator.getType`` builds it."""
    result = elements[-1]
    for element in reversed(elements[:-1]):
        result = encode([element, result], "\t")
    return result


def add_piece(piece_id: str, types: list[str], states: list[str]) -> str:
    return encode(["+", piece_id, chain(*types), chain(*states)], "/")


def restore(*pieces: str, components: tuple[str, ...] = ()) -> str:
    """A save's command tree: begin_save, version check, pieces group, components, end_save."""
    return command("begin_save", "", command("", *pieces), *components, "end_save")


def archive_entry(name: str) -> zipfile.ZipInfo:
    """A deflated entry with a fixed date, so that writing the same content twice gives the same bytes."""
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info


def write_save(path: Path, text: str, fmt: str = "VCSK", *, key: int = 0x58,
               extra: dict[str, bytes] | None = None, entry: str = "savedGame") -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(archive_entry(entry), obfuscate(text, fmt, key))
        for name, data in (extra or {}).items():
            archive.writestr(archive_entry(name), data)
    return path
