"""Caps on how much a VASSAL file may make us read, each layer counted separately.

A zip entry and the XZ stream inside a newer ``savedGame`` are both
decompression bombs waiting to happen; every layer counts the bytes it really
produced against its own cap and stops the moment the cap is passed.
"""

from __future__ import annotations

from dataclasses import dataclass

MIB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Limits:
    """How many bytes each layer may produce; the defaults suit real modules."""

    entry_bytes: int = 64 * MIB
    """Bytes one zip entry may inflate to (also the cap on a bare buildFile on disk)."""
    text_bytes: int = 256 * MIB
    """Bytes of command text one ``savedGame`` may decode to (after XZ, XOR and hex)."""
    image_header_bytes: int = 256 * 1024
    """Bytes read from a board image to find its size (only the header is needed)."""
    chunk_bytes: int = 1 * MIB
    """Size of each streamed read; it bounds memory, not correctness."""


DEFAULT_LIMITS = Limits()
