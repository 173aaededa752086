"""Undoing the obfuscation VASSAL wraps around the ``savedGame`` entry.

Four generations circulate, told apart by their leading bytes only (never by
the file's age): ``!VCSK`` (a hex key, then every byte XOR key as two hex
digits, either case), ``!VOBS`` (a raw key byte, then raw XOR bytes),
``!VOXZ`` (a raw key byte, then an XZ stream XORed with the key) and plain
text.  Any other ``!V`` header is refused by name rather than read as text.

Everything streams: chunks in, chunks of UTF-8 text out, with the decoded size
counted against its own cap (the ``text_bytes`` limit) so the XZ layer cannot
become a bomb; the XZ decompressor itself may take no more memory than the
``xz_memory_bytes`` limit, whatever dictionary the stream's header asks for.
"""

from __future__ import annotations

import binascii
import codecs
import lzma
import re
from collections.abc import Iterable, Iterator

from validator.limits import DEFAULT_LIMITS, Limits

from .errors import VassalFormatError

VCSK = b"!VCSK"
VOBS = b"!VOBS"
VOXZ = b"!VOXZ"
HEADER_LENGTH = 5
_ABANDONED = {b"!VCSZ": "an abandoned compress-then-obfuscate layout that only unreleased VASSAL 3.8 builds wrote"}
_NOT_HEX = re.compile(rb"[^0-9A-Fa-f]")
_XZ_MEMORY_REFUSAL = "Memory usage limit"  # how liblzma's LZMA_MEMLIMIT_ERROR reads in Python's LZMAError


def _xor_table(key: int) -> bytes:
    return bytes(value ^ key for value in range(256))


def detect_format(head: bytes) -> str:
    """``"VCSK"``, ``"VOBS"``, ``"VOXZ"`` or ``"plain"`` from the first bytes of ``savedGame``."""
    prefix = head[:HEADER_LENGTH]
    if prefix in (VCSK, VOBS, VOXZ):
        return prefix[1:].decode("ascii")
    return "plain"


class _Reader:
    """Shared state: where we are in the entry (for error offsets) and what to call it."""

    def __init__(self, source: str, entry: str, limits: Limits) -> None:
        self.source, self.entry, self.limits = source, entry, limits

    def fail(self, problem: str) -> VassalFormatError:
        return VassalFormatError(self.source, problem, entry=self.entry)

    def hex_bytes(self, chunks: Iterator[bytes], table: bytes, offset: int, pending: bytes) -> Iterator[bytes]:
        # binascii.unhexlify accepts exactly [0-9A-Fa-f] pairs (no whitespace, unlike bytes.fromhex), so the
        # regular expression that names the offending byte only runs once a chunk has already failed.
        for chunk in chunks:
            data = pending + chunk if pending else chunk
            usable = len(data) & ~1
            pending = data[usable:] if usable != len(data) else b""
            if usable:
                try:
                    raw = binascii.unhexlify(data if usable == len(data) else data[:usable])
                except binascii.Error:
                    raise self._not_hex(data, offset) from None
                yield raw.translate(table)
            offset += usable
        if pending:
            bad = _NOT_HEX.search(pending)
            if bad:
                raise self._not_hex(pending, offset)
            raise self.fail(
                f"has an odd number of hex digits: the digit at offset {offset} has no partner"
            )

    def _not_hex(self, data: bytes, offset: int) -> VassalFormatError:
        bad = _NOT_HEX.search(data)
        position = offset + (bad.start() if bad else 0)
        byte = data[bad.start():bad.start() + 1] if bad else b"?"
        return self.fail(f"byte {byte!r} at offset {position} is not a hex digit")

    def xz_bytes(self, chunks: Iterator[bytes], table: bytes) -> Iterator[bytes]:
        decompressor = lzma.LZMADecompressor(format=lzma.FORMAT_XZ, memlimit=self.limits.xz_memory_bytes)
        step = self.limits.chunk_bytes
        for chunk in chunks:
            if decompressor.eof:
                if chunk:
                    raise self.fail("has data after the end of its XZ stream")
                continue
            data = chunk.translate(table)
            try:
                out = decompressor.decompress(data, max_length=step)
                while True:
                    if out:
                        yield out
                    if decompressor.eof or decompressor.needs_input:
                        break
                    out = decompressor.decompress(b"", max_length=step)
            except lzma.LZMAError as error:
                if _XZ_MEMORY_REFUSAL in str(error):
                    raise self.fail("its XZ stream needs more memory to decompress, "
                                    f"{self.limits.beyond('xz_memory_bytes')} bytes") from None
                raise self.fail(f"its XZ stream is corrupt ({error})") from None
            if decompressor.eof and decompressor.unused_data:
                raise self.fail("has data after the end of its XZ stream")
        if not decompressor.eof:
            raise self.fail("its XZ stream is truncated")


def _with_head(chunks: Iterable[bytes]) -> tuple[bytes, Iterator[bytes]]:
    """At least 7 leading bytes (or all there is) and an iterator over the rest."""
    iterator = iter(chunks)
    head = b""
    for chunk in iterator:
        head += chunk
        if len(head) >= HEADER_LENGTH + 2:
            break
    return head, iterator


def deobfuscate(chunks: Iterable[bytes], *, source: str, entry: str = "savedGame",
                limits: Limits = DEFAULT_LIMITS) -> Iterator[bytes]:
    """The plaintext bytes of a ``savedGame`` entry, whatever its generation, under the text cap."""
    reader = _Reader(source, entry, limits)
    head, rest = _with_head(chunks)
    prefix = head[:HEADER_LENGTH]
    fmt = detect_format(head)
    if fmt == "plain":
        if prefix in _ABANDONED:
            raise reader.fail(f"uses the {prefix.decode('ascii')} format, {_ABANDONED[prefix]}; it cannot be read")
        if prefix.startswith(b"!V") and len(prefix) == HEADER_LENGTH and prefix[2:].isalpha():
            raise reader.fail(f"unknown VASSAL save format: header {prefix.decode('ascii', 'replace')}")
        plain: Iterator[bytes] = _chain(head, rest)
    elif fmt == "VCSK":
        key_digits = head[HEADER_LENGTH:HEADER_LENGTH + 2]
        if len(key_digits) < 2:
            raise reader.fail("ends inside the two hex digits of its !VCSK key")
        bad = _NOT_HEX.search(key_digits)
        if bad:
            raise reader.fail(
                f"byte {key_digits[bad.start():bad.start() + 1]!r} at offset {HEADER_LENGTH + bad.start()} "
                "is not a hex digit"
            )
        table = _xor_table(int(key_digits, 16))
        plain = reader.hex_bytes(_chain(head[HEADER_LENGTH + 2:], rest), table, HEADER_LENGTH + 2, b"")
    else:
        if len(head) <= HEADER_LENGTH:
            raise reader.fail(f"ends before the key byte of its !{fmt} header")
        table = _xor_table(head[HEADER_LENGTH])
        body = _chain(head[HEADER_LENGTH + 1:], rest)
        plain = (chunk.translate(table) for chunk in body) if fmt == "VOBS" else reader.xz_bytes(body, table)
    return _capped(plain, reader, limits)


def _chain(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    if first:
        yield first
    yield from rest


def _capped(chunks: Iterator[bytes], reader: _Reader, limits: Limits) -> Iterator[bytes]:
    produced, cap = 0, limits.text_bytes
    for chunk in chunks:
        produced += len(chunk)
        if produced > cap:
            raise reader.fail(f"decodes to {produced:,} bytes of command text or more, {limits.beyond('text_bytes')}")
        yield chunk


def decode_text(chunks: Iterable[bytes]) -> Iterator[str]:
    """UTF-8 text in chunks, never splitting a character; malformed bytes become U+FFFD as in VASSAL."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    for chunk in chunks:
        text = decoder.decode(chunk)
        if text:
            yield text
    tail = decoder.decode(b"", final=True)
    if tail:
        yield tail
