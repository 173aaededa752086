"""Pixel sizes from image headers (PNG, GIF, JPEG), for laying boards out.

A board's size is its image's size, and only the first bytes of the image are
needed: we never decode pixels, and an unknown or truncated header simply
gives no size.
"""

from __future__ import annotations

import struct

_JPEG_SIZE_MARKERS = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def image_size(head: bytes) -> tuple[int, int] | None:
    """(width, height) from the leading bytes of a PNG, GIF or JPEG, else ``None``."""
    if head.startswith(b"\x89PNG\r\n\x1a\n") and len(head) >= 24 and head[12:16] == b"IHDR":
        return struct.unpack(">II", head[16:24])
    if head[:6] in (b"GIF87a", b"GIF89a") and len(head) >= 10:
        return struct.unpack("<HH", head[6:10])
    if head.startswith(b"\xff\xd8"):
        return _jpeg_size(head)
    return None


def _jpeg_size(head: bytes) -> tuple[int, int] | None:
    index = 2
    while index + 4 <= len(head):
        if head[index] != 0xFF:
            return None
        marker = head[index + 1]
        if marker == 0xFF:          # fill byte
            index += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            index += 2
            continue
        length = struct.unpack(">H", head[index + 2:index + 4])[0]
        if marker in _JPEG_SIZE_MARKERS:
            if index + 9 > len(head):
                return None
            height, width = struct.unpack(">HH", head[index + 5:index + 9])
            return width, height
        if length < 2:
            return None
        index += 2 + length
    return None
